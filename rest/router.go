package rest

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/internal/apperr"
)

// Routes returns the /v1 router, relative to /v1, made from the route
// table.
func (a *API) Routes() chi.Router {
	m := chi.NewRouter()
	m.NotFound(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, r, apperr.NotFoundf("No route %s %s", r.Method, r.URL.Path))
	})
	m.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, r, apperr.NotFoundf("No route %s %s", r.Method, r.URL.Path))
	})
	for _, rt := range table() {
		m.Method(rt.method, routerPattern(rt.path), a.handle(rt.serve(a, rt.status)))
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
