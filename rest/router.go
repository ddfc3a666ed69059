package rest

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/internal/apperr"
)

// Routes returns the /v1 router, relative to /v1, made from the route
// table. HEAD is served wherever GET is, as HTTP asks of a server; the
// server leaves the body out.
func (a *API) Routes() chi.Router {
	m := chi.NewRouter()
	m.NotFound(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, r, apperr.NotFoundf("No route %s %s", r.Method, r.URL.Path))
	})
	m.MethodNotAllowed(a.methodNotAllowed(m))
	for _, rt := range table() {
		h := a.handle(rt.serve.handler(a, rt.status))
		m.Method(rt.method, routerPattern(rt.path), h)
		if rt.method == http.MethodGet {
			m.Method(http.MethodHead, routerPattern(rt.path), h)
		}
	}
	return m
}

// routerPattern turns a path as the spec writes it into the router's
// pattern: a page path, which may hold slashes, is the rest of the path.
func routerPattern(path string) string {
	if p, ok := strings.CutSuffix(path, "/{"+pathRest+"}"); ok {
		return p + "/*"
	}
	return path
}

// methodNotAllowed answers a known path asked with a method it has no row
// for: 405, with the methods it has in Allow, in the /v1 error envelope.
func (a *API) methodNotAllowed(m *chi.Mux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.EscapedPath()
		if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.RoutePath != "" {
			path = rctx.RoutePath // within /v1, where the router was mounted
		}
		var allow []string
		for _, method := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"} {
			if m.Find(chi.NewRouteContext(), method, path) != "" {
				allow = append(allow, method)
			}
		}
		if len(allow) == 0 {
			a.fail(w, r, apperr.NotFoundf("No route %s %s", r.Method, r.URL.Path))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		var b errorBody
		b.Error.Code = http.StatusMethodNotAllowed
		b.Error.Message = r.Method + " is not allowed on " + r.URL.Path + "; allowed: " + strings.Join(allow, ", ")
		writeJSON(w, b.Error.Code, b)
	}
}
