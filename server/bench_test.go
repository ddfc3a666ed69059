package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/server/servertest"
)

// benchEnv is a server whose organization has n spaces.
func benchEnv(b *testing.B, n int) *servertest.Env {
	e := servertest.New(b)
	r := graph.New(e.Client, e.Config)
	ctx := r.WithLoaders(auth.WithViewer(context.Background(), &auth.Viewer{User: e.Owner}))
	for i := 0; i < n; i++ {
		title := fmt.Sprintf("Space %d", i)
		if _, err := r.Mutation().CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: e.Org.ID, Title: &title}); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// BenchmarkListSpacesREST measures GET /v1/orgs/{id}/spaces?limit=100 with
// permissions and counts, end to end over HTTP.
func BenchmarkListSpacesREST(b *testing.B) {
	e := benchEnv(b, 100)
	benchGet(b, e, "/v1/orgs/"+e.Org.ID+"/spaces?limit=100", 1)
}

// benchGet measures GETs of path by the owner, parallelism requests in
// flight per core, and reports the statements each costs.
func benchGet(b *testing.B, e *servertest.Env, path string, parallelism int) {
	benchRequests(b, e, parallelism, func() *http.Request {
		req, _ := http.NewRequest(http.MethodGet, e.HTTP.URL+path, nil)
		return req
	})
}

// benchRequests measures the owner's requests that next makes, parallelism
// in flight per core, and reports the statements each costs. It uses the
// raw client: e.Do would also validate against the spec.
func benchRequests(b *testing.B, e *servertest.Env, parallelism int, next func() *http.Request) {
	e.Statements.Store(0)
	profile(b)
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := next()
			req.Header.Set("Authorization", "Bearer "+e.OwnerToken)
			res, err := e.HTTP.Client().Do(req)
			if err != nil || res.StatusCode != http.StatusOK {
				b.Fatal(err, res.StatusCode)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	})
	b.ReportMetric(float64(e.Statements.Load())/float64(b.N), "stmts/op")
}

// BenchmarkListSpacesGraphQL measures the same list through GraphQL.
func BenchmarkListSpacesGraphQL(b *testing.B) {
	e := benchEnv(b, 100)
	q := `query($id: ID!) { organization(id: $id) { spaces(first: 100) { totalCount nodes {
		id title emoji createdAt organization { id } revision { id } permissions { edit admin }
		commentCount changeRequestCount openChangeRequestCount draftChangeRequestCount } } } }`
	vars := map[string]any{"id": e.Org.ID}
	b.ResetTimer()
	for b.Loop() {
		if g := e.GraphQL(e.OwnerToken, q, vars); len(g.Errors) > 0 {
			b.Fatal(g.Errors)
		}
	}
}

// BenchmarkGetSpaceREST measures the point read of make bench-load, with 4
// requests in flight per core.
func BenchmarkGetSpaceREST(b *testing.B) {
	e := benchEnv(b, 1)
	sp := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Point"}, http.StatusCreated)
	benchGet(b, e, "/v1/spaces/"+sp["id"].(string), 4)
}

// BenchmarkNestedGraphQL measures the nested read of make bench-load:
// an organization's 50 spaces, 10 change requests each, and their authors.
func BenchmarkNestedGraphQL(b *testing.B) {
	e := benchEnv(b, 50)
	spaces := e.Walk(b, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, 100)
	for _, sp := range spaces {
		for j := range 10 {
			e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/change-requests", e.OwnerToken, map[string]any{"subject": fmt.Sprint("CR ", j)}, http.StatusCreated)
		}
	}
	q := `query($id: ID!) { organization(id: $id) { spaces(first: 50) { nodes { id title
		changeRequests(first: 10) { nodes { id number createdBy { id displayName } } } } } } }`
	vars := map[string]any{"id": e.Org.ID}
	e.Statements.Store(0)
	profile(b)
	b.ResetTimer()
	for b.Loop() {
		if g := e.GraphQL(e.OwnerToken, q, vars); len(g.Errors) > 0 {
			b.Fatal(g.Errors)
		}
	}
	b.ReportMetric(float64(e.Statements.Load())/float64(b.N), "stmts/op")
}

// BenchmarkNodeGraphQL measures the point read through node(id:) of make
// bench-load, with 4 requests in flight per core.
func BenchmarkNodeGraphQL(b *testing.B) {
	e := benchEnv(b, 1)
	sp := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Point"}, http.StatusCreated)
	body := fmt.Sprintf(`{"query":"query($id: ID!) { node(id: $id) { ... on Space { id title } } }","variables":{"id":%q}}`, sp["id"])
	benchRequests(b, e, 4, func() *http.Request {
		req, _ := http.NewRequest(http.MethodPost, e.HTTP.URL+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req
	})
}

// profile writes a CPU profile of the rest of the benchmark to the file
// BINDERY_BENCH_PROFILE names, when set.
func profile(b *testing.B) {
	path := os.Getenv("BINDERY_BENCH_PROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	_ = pprof.StartCPUProfile(f)
	b.Cleanup(func() { pprof.StopCPUProfile(); f.Close() })
}
