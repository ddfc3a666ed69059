package server_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server"
	"github.com/bindery/bindery/server/servertest"
)

// limited starts a server with a rate limit of perMinute and a stopped clock
// for it.
func limited(t *testing.T, perMinute int) (*servertest.Env, *server.FrozenClock) {
	e := servertest.New(t, func(c *config.Config) { c.RateLimit = perMinute })
	clock := server.NewFrozenClock(time.Unix(1_700_000_000, 0))
	server.SetRateLimitClock(e.Server, clock.Now)
	return e, clock
}

func remaining(t *testing.T, res *servertest.Response) int {
	t.Helper()
	n, err := strconv.Atoi(res.Header.Get("X-RateLimit-Remaining"))
	require.NoError(t, err, "X-RateLimit-Remaining %q", res.Header.Get("X-RateLimit-Remaining"))
	return n
}

// graphql posts an operation and returns the raw response, headers included.
func graphql(e *servertest.Env, token, query string, vars map[string]any) *servertest.Response {
	return e.Do(http.MethodPost, "/graphql", token, map[string]any{"query": query, "variables": vars})
}

func gqlCode(t *testing.T, res *servertest.Response) string {
	t.Helper()
	var body struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(res.Body, &body), string(res.Body))
	if len(body.Errors) == 0 {
		return ""
	}
	c, _ := body.Errors[0].Extensions["code"].(string)
	return c
}

// The budget is the user's: a second token of the same user draws on it,
// another user has their own.
func TestRateLimitIsPerUser(t *testing.T) {
	t.Parallel()
	e, clock := limited(t, 3)
	second := e.Token(e.Owner)
	for i, tok := range []string{e.OwnerToken, second, e.OwnerToken} {
		res := e.Do(http.MethodGet, "/v1/user", tok, nil)
		require.Equal(t, http.StatusOK, res.Status)
		assert.Equal(t, "3", res.Header.Get("X-RateLimit-Limit"))
		assert.Equal(t, 2-i, remaining(t, res))
	}
	// An empty bucket is full a minute later.
	assert.Equal(t, strconv.FormatInt(clock.Now().Unix()+60, 10), e.Do(http.MethodGet, "/v1/user", second, nil).Header.Get("X-RateLimit-Reset"))

	for _, tok := range []string{e.OwnerToken, second, e.Token(e.Owner)} {
		res := e.Do(http.MethodGet, "/v1/user", tok, nil)
		assert.Equal(t, http.StatusTooManyRequests, res.Status)
		assert.EqualValues(t, 429, res.JSON()["error"].(map[string]any)["code"])
		// Three a minute is a point every 20 seconds.
		assert.Equal(t, "20", res.Header.Get("Retry-After"))
		assert.Equal(t, 0, remaining(t, res))
	}
	g := graphql(e, second, `{ viewer { id } }`, nil)
	assert.Equal(t, http.StatusTooManyRequests, g.Status)
	assert.Equal(t, "RATE_LIMITED", gqlCode(t, g))
	assert.Equal(t, "20", g.Header.Get("Retry-After"))

	other, _ := e.Member(e.Org.ID, "", "other@example.com")
	res := e.Do(http.MethodGet, "/v1/user", other, nil)
	assert.Equal(t, http.StatusOK, res.Status, "another user has their own budget")
	assert.Equal(t, 2, remaining(t, res))

	// The bucket refills smoothly: one point after 20 seconds, not three
	// at the turn of the minute.
	clock.Advance(20 * time.Second)
	assert.Equal(t, http.StatusOK, e.Do(http.MethodGet, "/v1/user", second, nil).Status)
	assert.Equal(t, http.StatusTooManyRequests, e.Do(http.MethodGet, "/v1/user", e.OwnerToken, nil).Status)
}

// A GraphQL operation spends 1 + complexity/100 points, charged before it
// runs; one the budget cannot pay for is a 429 and does not run.
func TestGraphQLSpendsItsComplexity(t *testing.T) {
	t.Parallel()
	e, clock := limited(t, 100)
	const cheap = `{ viewer { id } }`
	// organization 1 + spaces (1 + 1000 × edges (1 + node (1 + id 1 +
	// title 1))) = 4002: 41 points.
	const costly = `query($id: ID!) { organization(id: $id) { spaces(first: 1000) { edges { node { id title } } } } }`
	vars := map[string]any{"id": e.Org.ID}

	res := graphql(e, e.OwnerToken, cheap, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Empty(t, gqlCode(t, res), string(res.Body))
	assert.Equal(t, 99, remaining(t, res), "a cheap operation costs what a /v1 request costs")
	assert.Equal(t, "100", res.Header.Get("X-RateLimit-Limit"))

	res = graphql(e, e.OwnerToken, costly, vars)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Empty(t, gqlCode(t, res), string(res.Body))
	assert.Equal(t, 58, remaining(t, res), "the headers show the spend after the complexity charge")
	// 42 points refill in 42/100 of a minute, 25.2 s: rounded up.
	assert.Equal(t, strconv.FormatInt(clock.Now().Unix()+26, 10), res.Header.Get("X-RateLimit-Reset"))

	res = graphql(e, e.OwnerToken, costly, vars)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	assert.Equal(t, 17, remaining(t, res))

	// 17 points: admission takes 1, and 16 cannot pay the other 40. The
	// operation does not run, and a retry needs 41 points: 25 more, in
	// 15 seconds.
	before := e.Statements.Load()
	res = graphql(e, e.OwnerToken, costly, vars)
	assert.Equal(t, http.StatusTooManyRequests, res.Status, string(res.Body))
	assert.Equal(t, "RATE_LIMITED", gqlCode(t, res))
	assert.NotContains(t, string(res.Body), `"data"`, "nothing was executed")
	assert.Equal(t, "15", res.Header.Get("Retry-After"))
	assert.Equal(t, 16, remaining(t, res))
	refused := e.Statements.Load() - before

	// /v1 is charged from the same budget, 1 point a request.
	res = e.Do(http.MethodGet, "/v1/user", e.OwnerToken, nil)
	assert.Equal(t, http.StatusOK, res.Status)
	assert.Equal(t, 15, remaining(t, res))

	clock.Advance(16 * time.Second) // 26.7 points more: 41.7
	res = graphql(e, e.OwnerToken, costly, vars)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Empty(t, gqlCode(t, res), string(res.Body))
	assert.Equal(t, 0, remaining(t, res))

	// The refused operation ran no more statements than a request refused
	// on admission: the token check, nothing of the operation.
	before = e.Statements.Load()
	assert.Equal(t, http.StatusTooManyRequests, e.Do(http.MethodGet, "/v1/user", e.OwnerToken, nil).Status)
	assert.Equal(t, e.Statements.Load()-before, refused, "the refused operation did not run")
}

// Rate limiting off: no headers, no charge.
func TestRateLimitOff(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.RateLimit = 0 })
	res := graphql(e, e.OwnerToken, `{ viewer { id } }`, nil)
	assert.Equal(t, http.StatusOK, res.Status)
	assert.Empty(t, res.Header.Get("X-RateLimit-Limit"))
}

// TestIntrospectionSpendsItsSize: gqlgen weighs __schema as nothing, yet it
// writes the whole schema; each __schema field of an operation spends as
// much as the schema is large, so eight aliases of it spend eight times
// what one does, and __type(name:) stays cheap.
func TestIntrospectionSpendsItsSize(t *testing.T) {
	t.Parallel()
	e, _ := limited(t, 100_000)
	spent := func(query string) int {
		before := remaining(t, graphql(e, e.OwnerToken, `{ viewer { id } }`, nil))
		res := graphql(e, e.OwnerToken, query, nil)
		require.Equal(t, "", gqlCode(t, res), string(res.Body))
		return before - 1 - remaining(t, res)
	}
	const deep = `__schema { types { name fields { name args { name type { name } } type { name ofType { name } } } } }`
	one := spent(`{ ` + deep + ` }`)
	assert.Greater(t, one, 20, "one introspection of the schema")
	aliases := "{"
	for i := range 8 {
		aliases += " s" + strconv.Itoa(i) + ": " + deep
	}
	assert.GreaterOrEqual(t, spent(aliases+" }"), 8*one-8, "eight aliases of it")
	assert.LessOrEqual(t, spent(`fragment F on Query { `+deep+` } { ...F }`), one+1, "through a fragment, as much as written")
	assert.GreaterOrEqual(t, spent(`fragment F on Query { `+deep+` } { ...F }`), one-1)
	assert.LessOrEqual(t, spent(`{ __type(name: "Space") { fields { name } } }`), 2, "one type")
	t.Logf("one __schema spends %d points", one)
}
