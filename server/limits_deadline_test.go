package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gqlgen "github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

// A request past its deadline is a 504 in /v1 and one TIMEOUT error in
// GraphQL, never a 500. A deadline of a nanosecond has passed by the time
// any statement runs, so the outcome does not depend on timing.
func TestRequestDeadline(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	e := servertest.New(t, func(c *config.Config) { c.RequestTimeout = time.Nanosecond },
		servertest.WithLog(slog.New(slog.NewJSONHandler(&logs, nil))))

	res := e.Do(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, nil)
	assert.Equal(t, http.StatusGatewayTimeout, res.Status, string(res.Body))
	assert.JSONEq(t, `{"error":{"code":504,"message":"The request took longer than the server allows; try a smaller request"}}`, string(res.Body))

	// GraphQL gets the import allowance until its operation is known, then
	// the operation's own deadline: every field still to resolve fails the
	// same way, and the client hears it once.
	g := e.GraphQL(e.OwnerToken, `{ viewer { id organizations { nodes { id title collections { nodes { id } } } } } }`, nil)
	require.Len(t, g.Errors, 1, "%+v", g.Errors)
	assert.Equal(t, "TIMEOUT", g.Code())
	assert.Nil(t, g.Errors[0].Path)

	// An import gets the importer's time on top: this one goes as far as
	// the importer, which refuses the address, rather than time out.
	space := createSpace(t, e)
	imp := e.GraphQL(e.OwnerToken, `mutation($in: ImportContentInput!) { importContent(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "url": "http://127.0.0.1:1/a.md", "source": "MARKDOWN"}})
	require.NotEmpty(t, imp.Errors)
	assert.Equal(t, "BAD_USER_INPUT", imp.Code(), imp.Errors[0].Message)
	assert.Contains(t, imp.Errors[0].Message, "refused to connect")
	rimp := e.Do(http.MethodPost, "/v1/spaces/"+space+"/content/import", e.OwnerToken,
		map[string]any{"url": "http://127.0.0.1:1/a.md", "source": "markdown"})
	assert.Equal(t, http.StatusBadRequest, rimp.Status, string(rimp.Body))
	assert.Contains(t, rimp.ErrorMessage(), "refused to connect")

	assert.NotContains(t, logs.String(), `"level":"ERROR","msg":"internal error"`, "a timeout is not a server fault")
}

// createSpace creates a space in e's organization through the application
// layer, without the server's deadline, and returns its ID.
func createSpace(t *testing.T, e *servertest.Env) string {
	t.Helper()
	r := graph.New(e.Client, e.Config)
	ctx := r.WithLoaders(auth.WithViewer(t.Context(), &auth.Viewer{User: e.Owner}))
	title := "Imports"
	p, err := r.Mutation().CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: e.Org.ID, Title: &title})
	require.NoError(t, err)
	return p.Space.ID
}

// When the client goes away, its request stops: no further resolver runs,
// so no further query is even attempted. The client leaves as soon as the
// list of spaces is loaded; without the stop, gqlgen would go on to resolve
// every space's change requests, each to fail on its query. The server's
// client records the field each query is for.
func TestCanceledQueryStopsResolving(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	for range 3 {
		createSpace(t, e)
	}
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	var left atomic.Bool
	var mu sync.Mutex
	var after []string
	e.DB.Client.Intercept(ent.InterceptFunc(func(next ent.Querier) ent.Querier {
		return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
			fc := gqlgen.GetFieldContext(ctx)
			if left.Load() && fc != nil && fc.Field.Name != "spaces" {
				mu.Lock()
				after = append(after, fc.Path().String())
				mu.Unlock()
			}
			v, err := next.Query(ctx, q)
			if _, ok := q.(*ent.SpaceQuery); ok && fc != nil && fc.Field.Name == "spaces" && err == nil {
				left.Store(true)
				leave() // the client goes away once the spaces are loaded
			}
			return v, err
		})
	}))
	body, _ := json.Marshal(map[string]any{"query": `query($id: ID!) { organization(id: $id) {
		spaces { nodes { id changeRequests { nodes { id } } } } } }`, "variables": map[string]any{"id": e.Org.ID}})
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.OwnerToken)
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)

	require.True(t, left.Load(), "the spaces were loaded: %s", rec.Body.String())
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, after, "no query once the client left")
	var out servertest.GQLResponse
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	assert.Equal(t, "CLIENT_CLOSED_REQUEST", out.Code(), rec.Body.String())
	assert.Len(t, out.Errors, 1, "every field that failed for it is one error: %s", rec.Body.String())
}

// A client that leaves during a mutation leaves nothing behind: the
// transaction is rolled back, the mutations after it never start, and the
// log has no server fault, in GraphQL and in /v1.
func TestCanceledMutationRollsBack(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	e := servertest.New(t, servertest.WithLog(slog.New(slog.NewJSONHandler(&logs, nil))))
	ctx, leave := context.WithCancel(context.Background())
	defer leave()

	var creates atomic.Int64
	e.DB.Client.Collection.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpCreate) && creates.Add(1) == 1 {
				leave() // the client goes away while the first collection is created
			}
			return next.Mutate(ctx, m)
		})
	})

	var doc strings.Builder
	doc.WriteString("mutation { ")
	for _, alias := range []string{"a", "b", "c"} {
		fmt.Fprintf(&doc, "%s: createCollection(input: {organizationId: %q, title: %q}) { collection { id title } } ", alias, e.Org.ID, alias)
	}
	doc.WriteString("}")
	body, _ := json.Marshal(map[string]any{"query": doc.String()})
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.OwnerToken)
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)

	assert.Equal(t, int64(1), creates.Load(), "the mutations after the first never started")
	n, err := e.Client.Collection.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "the first mutation's transaction was rolled back")
	var out servertest.GQLResponse
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	assert.Equal(t, "CLIENT_CLOSED_REQUEST", out.Code(), rec.Body.String())
	assert.Len(t, out.Errors, 1, "the three mutations that failed for it are one error: %s", rec.Body.String())
	assert.NotContains(t, logs.String(), `"msg":"internal error"`, "a client leaving is not a server fault")

	// /v1 the same: the create stops, nothing is written, nothing is
	// logged as a fault, and the log has nginx's 499.
	ctx2, leave2 := context.WithCancel(context.Background())
	defer leave2()
	e.DB.Client.Collection.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			leave2()
			return next.Mutate(ctx, m)
		})
	})
	req = httptest.NewRequestWithContext(ctx2, http.MethodPost, "/v1/orgs/"+e.Org.ID+"/collections", strings.NewReader(`{"title":"d"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.OwnerToken)
	rec = httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	assert.Equal(t, 499, rec.Code, rec.Body.String())
	n, err = e.Client.Collection.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.NotContains(t, logs.String(), `"msg":"internal error"`)
	assert.Contains(t, logs.String(), `"status":499`)
}
