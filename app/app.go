// Package app serves the read-only views of the objects whose urls.app
// addresses Bindery hands out: an organization, a site, a collection, a
// space and its pages, a change request and a revision, and the start page
// at "/". They are server-rendered HTML, need no JavaScript, and share the
// published sites' look.
//
// It is a transport beside rest/ and reader/: everything it shows comes
// from the resolvers of package graph, through the same paths as the APIs,
// as the signed-in person may read it. A view the viewer may not see is the
// same 404 as a missing one.
package app

import (
	"embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/ui"
)

//go:embed templates/*.html
var templateFiles embed.FS

// Options are what the server gives the app besides the resolver.
type Options struct {
	Log *slog.Logger
	// Stylesheet and Icon are the addresses of the reader's assets, which
	// the views use.
	Stylesheet, Icon string
}

// App serves the views.
type App struct {
	res  *graph.Resolver
	opt  Options
	log  *slog.Logger
	tpls map[string]*template.Template
}

// pageNames are the views' templates, each the layout around its own main.
var pageNames = []string{"start", "organization", "site", "collection", "content", "notfound", "error"}

// New returns the views of res. Its templates are fixed at build time: an
// error is a broken build, which the package's tests catch.
func New(res *graph.Resolver, opt Options) (*App, error) {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	a := &App{res: res, opt: opt, log: opt.Log, tpls: map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := ui.Parse(funcs, templateFiles, "templates/frame.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		a.tpls[name] = t
	}
	return a, nil
}

// Routes adds the views to m. The server sets the viewer (a session's, or
// the anonymous one) and the request's loaders before them.
func (a *App) Routes(m chi.Router) {
	m.Group(func(m chi.Router) {
		// img-src allows https images: a page's markdown may show them.
		m.Use(ui.Headers("https:"))
		ui.Page(m, "/", a.handle(a.start))
		m.Group(func(m chi.Router) {
			m.Use(signedIn)
			ui.Page(m, "/o/{orgId}", a.handle(a.organization))
			ui.Page(m, "/o/{orgId}/sites/{siteId}", a.handle(a.site))
			ui.Page(m, "/c/{collectionId}", a.handle(a.collection))
			ui.Page(m, "/s/{spaceId}", a.handle(a.space))
			ui.Page(m, "/s/{spaceId}/~/changes/{number}", a.handle(a.changeRequest))
			ui.Page(m, "/s/{spaceId}/~/changes/{number}/*", a.handle(a.changeRequest))
			ui.Page(m, "/s/{spaceId}/~/revisions/{revisionId}", a.handle(a.revision))
			ui.Page(m, "/s/{spaceId}/~/revisions/{revisionId}/*", a.handle(a.revision))
			ui.Page(m, "/s/{spaceId}/*", a.handle(a.space))
		})
	})
}

// isSignedIn reports whether the request's viewer is a person.
func isSignedIn(r *http.Request) bool {
	v := auth.ViewerFrom(r.Context())
	return v != nil && v.User != nil && v.User.ID != ""
}

// signedIn sends a browser without a session to sign in, and back here
// after.
func signedIn(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isSignedIn(r) {
			http.Redirect(w, r, "/auth/sign-in?return_to="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// view is what every page shows; Data is the page's own.
type view struct {
	// Title is the document's title; Heading the page's one h1.
	Title, Heading   string
	Stylesheet, Icon string
	SignedIn         bool
	// Crumbs are the objects the page's object is in.
	Crumbs []link
	// Nav is the sidebar of pages; NavLabel names it.
	Nav      []treePage
	NavLabel string
	Data     any
}

// link is a link to an object; URL "" shows the title alone.
type link struct {
	Title, URL string
	// Emoji precedes the title.
	Emoji string
}

// render writes the page called name.
func (a *App) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	v.Stylesheet, v.Icon, v.SignedIn = a.opt.Stylesheet, a.opt.Icon, isSignedIn(r)
	if v.Title == "" {
		v.Title = v.Heading
	}
	if err := ui.Render(w, r, status, a.tpls[name], v); err != nil {
		a.log.ErrorContext(r.Context(), "rendering a view", "view", name, "error", err)
		http.Error(w, "Internal server error", http.StatusInternalServerError)
	}
}

// handle serves a view that returns its error for fail to answer.
func (a *App) handle(view func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := view(w, r); err != nil {
			a.fail(w, r, err)
		}
	}
}

// fail answers an error of the application layer: a 404 page for what the
// viewer may not see or does not exist, the layer's message for another
// refusal, a generic page for a fault, whose detail goes to the log.
func (a *App) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := apperr.KindOf(err).HTTPStatus()
	if status == http.StatusNotFound {
		a.notFound(w, r)
		return
	}
	msg := "Something went wrong on our side. Try again in a moment."
	var e *apperr.Error
	if status < 500 && errors.As(err, &e) {
		msg = e.Message
	} else {
		status = http.StatusInternalServerError
		a.log.ErrorContext(r.Context(), "showing a view", "path", r.URL.Path, "error", err)
	}
	a.render(w, r, status, "error", view{Heading: http.StatusText(status), Data: msg})
}

// notFound answers the 404 page.
func (a *App) notFound(w http.ResponseWriter, r *http.Request) {
	a.render(w, r, http.StatusNotFound, "notfound", view{Heading: "Not found"})
}
