package testschema_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph/gqlexec"
	"github.com/bindery/bindery/graph/internal/gqlgen/testschema"
	"github.com/bindery/bindery/graph/internal/gqlgen/testschema/exec"
)

type resolver struct{}

func (resolver) Query() exec.QueryResolver { return resolver{} }

func (resolver) Items(context.Context, *exec.ItemFilter) ([]*testschema.Item, error) {
	note := "n"
	return []*testschema.Item{
		{ID: "1", Name: "one", Note: &note, Kind: "BOOK", Label: "first"},
		{ID: "2", Name: "two", Kind: "PAGE", Label: "second"},
	}, nil
}

const (
	query = `{ items { id name note kind label } }`
	// answer has the labels upper-cased by the directive.
	answer = `{"data":{"items":[{"id":"1","name":"one","note":"n","kind":"BOOK","label":"FIRST"},` +
		`{"id":"2","name":"two","note":null,"kind":"PAGE","label":"SECOND"}]}}`
)

// every is every field of the query's answer, as paths.
var every = []string{"items",
	"items[0].id", "items[0].name", "items[0].note", "items[0].kind", "items[0].label",
	"items[1].id", "items[1].name", "items[1].note", "items[1].kind", "items[1].label"}

// serve runs the query on the schema with the handler set up by use, and
// returns the answer and the fields the directive ran on.
func serve(t *testing.T, use func(*handler.Server)) (string, []string) {
	t.Helper()
	var mu sync.Mutex
	var upper []string
	cfg := exec.Config{Resolvers: resolver{}}
	cfg.Directives.Upper = func(ctx context.Context, _ any, next graphql.Resolver) (any, error) {
		mu.Lock()
		upper = append(upper, graphql.GetFieldContext(ctx).Path().String())
		mu.Unlock()
		v, err := next(ctx)
		if s, ok := v.(string); ok {
			return strings.ToUpper(s), err
		}
		return v, err
	}
	srv := handler.New(exec.NewExecutableSchema(cfg))
	srv.AddTransport(transport.POST{})
	use(srv)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"query":"`+query+`"}`))
	req.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	return rec.Body.String(), upper
}

// paths records the path of every field a field middleware runs on.
type paths struct {
	mu   sync.Mutex
	seen []string
}

func (p *paths) middleware(ctx context.Context, next graphql.Resolver) (any, error) {
	p.mu.Lock()
	p.seen = append(p.seen, graphql.GetFieldContext(ctx).Path().String())
	p.mu.Unlock()
	return next(ctx)
}

// TestFieldMiddlewareSeesEveryField: a field middleware installed as
// gqlgen's API offers (AroundFields, or an extension intercepting fields)
// runs on every field, those read straight from the struct included, and
// the directive on every field it marks.
func TestFieldMiddlewareSeesEveryField(t *testing.T) {
	for name, install := range map[string]func(*handler.Server, graphql.FieldMiddleware){
		"AroundFields": func(s *handler.Server, f graphql.FieldMiddleware) { s.AroundFields(f) },
		"beside ResolversOnly": func(s *handler.Server, f graphql.FieldMiddleware) {
			s.Use(gqlexec.ResolversOnly{Name: "Other", Func: func(ctx context.Context, next graphql.Resolver) (any, error) {
				return next(ctx)
			}})
			s.AroundFields(f)
		},
	} {
		t.Run(name, func(t *testing.T) {
			var p paths
			body, upper := serve(t, func(s *handler.Server) { install(s, p.middleware) })
			require.JSONEq(t, answer, body)
			require.ElementsMatch(t, every, p.seen)
			require.ElementsMatch(t, []string{"items[0].label", "items[1].label"}, upper)
		})
	}
}

// TestResolversOnly: middleware installed as gqlexec.ResolversOnly runs on
// the fields that have a resolver or a directive, and with the rewrites,
// only on those; the answer is the same either way.
func TestResolversOnly(t *testing.T) {
	var p paths
	body, upper := serve(t, func(s *handler.Server) { s.Use(gqlexec.ResolversOnly{Name: "Paths", Func: p.middleware}) })
	require.JSONEq(t, answer, body)
	require.ElementsMatch(t, []string{"items[0].label", "items[1].label"}, upper)
	want := []string{"items", "items[0].label", "items[1].label"}
	if !rewritten {
		want = every
	}
	require.ElementsMatch(t, want, p.seen)
}

// TestNoMiddleware: without field middleware the answer is the same, and
// the directive runs.
func TestNoMiddleware(t *testing.T) {
	body, upper := serve(t, func(*handler.Server) {})
	require.JSONEq(t, answer, body)
	require.ElementsMatch(t, []string{"items[0].label", "items[1].label"}, upper)
}
