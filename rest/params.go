package rest

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// params is what a request says besides its body: its path and query
// parameters. Its methods in the area files resolve what a path names
// through the application layer, as every operation of the area needs it.
type params struct {
	a *API
	r *http.Request
}

func (p params) ctx() context.Context { return p.r.Context() }

// pathRest is the path parameter that may hold slashes: a page path. The
// route table writes it as the spec does, {pagePath}, last in a path; the
// router matches it as the rest of the path.
const pathRest = "pagePath"

// path reads a path parameter.
func (p params) path(name string) string {
	if name == pathRest {
		s, err := url.PathUnescape(chi.URLParam(p.r, "*"))
		if err != nil {
			return ""
		}
		return s
	}
	return chi.URLParam(p.r, name)
}

// checkText checks that every path and query parameter of a request is text
// (validate.Text), before any reaches the application layer: an ID of
// "%00" or "%FF" is a 400 naming the parameter on both databases, rather
// than a 500 from PostgreSQL or a silent miss on SQLite. The query string
// must also parse: a malformed one would otherwise lose parameters
// silently.
func checkText(r *http.Request) error {
	if rctx := chi.RouteContext(r.Context()); rctx != nil {
		// Named parameters first: the wildcard of the /v1 mount holds them
		// all, and the last wildcard is the page path.
		ps := rctx.URLParams
		for i, key := range ps.Keys {
			if key == "*" {
				continue
			}
			if err := validate.Text(ps.Values[i]); err != nil {
				return apperr.Invalid(key, "%s", err.Error())
			}
		}
		if err := validate.Text((params{r: r}).path(pathRest)); err != nil {
			return apperr.Invalid(pathRest, "%s", err.Error())
		}
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return apperr.Invalid("", "The query string is malformed")
	}
	switch name, err := validate.Values(q); {
	case err == nil:
		return nil
	case name == "":
		return apperr.Invalid("", "A query parameter name %s", err.Error())
	default:
		return apperr.Invalid(name, "%s", err.Error())
	}
}

// query reads an optional string query parameter.
func (p params) query(name string) *string {
	if s := p.r.URL.Query().Get(name); s != "" {
		return &s
	}
	return nil
}

// bool reads an optional boolean query parameter.
func (p params) bool(name string, def bool) (bool, error) {
	s := p.r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, apperr.Invalid(name, "must be true or false")
	}
	return b, nil
}

// page reads the page and limit parameters of a list.
func (p params) page() (page.Args, error) {
	q := p.r.URL.Query()
	a := page.Args{}
	limit := page.DefaultLimit
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > validate.MaxListLimit {
			return a, apperr.Invalid("limit", "must be an integer from 0 to %d", validate.MaxListLimit)
		}
		limit = n
	}
	a.First = &limit
	if s := q.Get("page"); s != "" {
		c, err := page.Parse("page", s)
		if err != nil {
			return a, err
		}
		a.After = &c
	}
	return a, nil
}
