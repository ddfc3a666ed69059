package server_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		res := e.Do(http.MethodGet, path, "", nil)
		assert.Equal(t, http.StatusOK, res.Status, path)
		assert.JSONEq(t, `{"status":"ok"}`, string(res.Body))
	}
	// Readiness follows the database; liveness does not.
	require.NoError(t, e.DB.SQL.Close())
	assert.Equal(t, http.StatusServiceUnavailable, e.Do(http.MethodGet, "/readyz", "", nil).Status)
	assert.Equal(t, http.StatusOK, e.Do(http.MethodGet, "/healthz", "", nil).Status)
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	res := e.Do(http.MethodGet, "/healthz", "", nil)
	assert.Regexp(t, `^[0-9a-f]{24}$`, res.Header.Get("X-Request-Id"))

	req, _ := http.NewRequest(http.MethodGet, e.HTTP.URL+"/healthz", nil)
	req.Header.Set("X-Request-Id", "caller-chosen.42")
	r, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, "caller-chosen.42", r.Header.Get("X-Request-Id"))

	req.Header.Set("X-Request-Id", "no spaces or <html> allowed")
	r, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	r.Body.Close()
	assert.NotEqual(t, "no spaces or <html> allowed", r.Header.Get("X-Request-Id"))
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	revoked := e.Token(e.Owner)
	_, err := e.Client.APIToken.Delete().Exec(t.Context())
	require.NoError(t, err)
	_ = revoked
	valid := e.Token(e.Owner)
	for name, header := range map[string]string{
		"missing":      "",
		"not bearer":   "Basic " + valid,
		"empty bearer": "Bearer ",
		"malformed":    "Bearer bnd_nope",
		"unknown":      "Bearer " + revoked,
	} {
		t.Run(name, func(t *testing.T) {
			for _, path := range []string{"/v1/user", "/graphql"} {
				req, _ := http.NewRequest(http.MethodPost, e.HTTP.URL+path, strings.NewReader(`{"query":"{viewer{id}}"}`))
				if path == "/v1/user" {
					req.Method = http.MethodGet
				}
				req.Header.Set("Content-Type", "application/json")
				if header != "" {
					req.Header.Set("Authorization", header)
				}
				res, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				var body map[string]any
				require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
				res.Body.Close()
				assert.Equal(t, http.StatusUnauthorized, res.StatusCode, path)
				if path == "/graphql" {
					errs := body["errors"].([]any)
					assert.Equal(t, "UNAUTHENTICATED", errs[0].(map[string]any)["extensions"].(map[string]any)["code"])
				} else {
					assert.EqualValues(t, 401, body["error"].(map[string]any)["code"])
				}
			}
		})
	}
	assert.Equal(t, http.StatusOK, e.Do(http.MethodGet, "/v1/user", valid, nil).Status)
}

func TestUnknownRouteUsesTheEnvelope(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	res := e.Do(http.MethodGet, "/v1/no/such/thing", e.OwnerToken, nil)
	assert.Equal(t, http.StatusNotFound, res.Status)
	assert.JSONEq(t, `{"error":{"code":404,"message":"No route GET /v1/no/such/thing"}}`, string(res.Body))
}

func TestGraphQLLimits(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.DepthLimit = 4; c.ComplexityLimit = 200 })
	deep := e.GraphQL(e.OwnerToken, `{ viewer { organizations { nodes { collections { nodes { id } } } } } }`, nil)
	assert.Equal(t, "DEPTH_LIMIT_EXCEEDED", deep.Code())

	// Fragments count too, and cannot hide depth.
	frag := e.GraphQL(e.OwnerToken, `query { viewer { ...V } } fragment V on User { organizations { nodes { collections { nodes { id } } } } }`, nil)
	assert.Equal(t, "DEPTH_LIMIT_EXCEEDED", frag.Code())

	costly := e.GraphQL(e.OwnerToken, `{ viewer { organizations(first: 100) { nodes { id title } } } }`, nil)
	assert.Equal(t, "COMPLEXITY_LIMIT_EXCEEDED", costly.Code())

	fine := e.GraphQL(e.OwnerToken, `{ viewer { organizations(first: 10) { nodes { id } } } }`, nil)
	assert.Empty(t, fine.Errors)

	// Introspection is not counted against the depth limit.
	intro := e.GraphQL(e.OwnerToken, `{ __schema { types { name fields { type { ofType { ofType { ofType { name } } } } } } } }`, nil)
	assert.Empty(t, intro.Errors)
}

func TestIntrospectionCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.Introspection = false })
	res := e.GraphQL(e.OwnerToken, `{ __schema { queryType { name } } }`, nil)
	require.NotEmpty(t, res.Errors)
	assert.Equal(t, "INTROSPECTION_DISABLED", res.Code())
	ok := e.GraphQL(e.OwnerToken, `{ viewer { id } }`, nil)
	assert.Empty(t, ok.Errors)
}

// A server fault is a 500 with a generic message; the detail goes to the log
// with the request ID.
func TestServerFaultIsGeneric(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	e := servertest.New(t, servertest.WithLog(slog.New(slog.NewJSONHandler(&logs, nil))))
	token := e.OwnerToken
	// Break the schema under the server's feet: every space query now fails.
	_, err := e.DB.SQL.Exec(`ALTER TABLE spaces RENAME TO spaces_gone`)
	require.NoError(t, err)

	res := e.Do(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces", token, nil)
	assert.Equal(t, http.StatusInternalServerError, res.Status)
	assert.JSONEq(t, `{"error":{"code":500,"message":"Internal server error"}}`, string(res.Body))

	g := e.GraphQL(token, `{ organization(id: "`+e.Org.ID+`") { spaces { totalCount } } }`, nil)
	require.NotEmpty(t, g.Errors)
	assert.Equal(t, "INTERNAL_SERVER_ERROR", g.Code())
	assert.Equal(t, "Internal server error", g.Errors[0].Message)
	assert.NotContains(t, g.Errors[0].Message, "spaces")

	rid := res.Header.Get("X-Request-Id")
	assert.Contains(t, logs.String(), rid, "the log carries the request ID")
	assert.Contains(t, logs.String(), "spaces", "the log carries the detail")
}
