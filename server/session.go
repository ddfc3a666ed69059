package server

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/app"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/logctx"
	"github.com/bindery/bindery/signin"
)

// appViews adds the app's read-only views (package app) to m: the start
// page and the urls.app addresses of organizations, sites, collections,
// spaces, change requests and revisions, for a browser with a session or
// without one.
func (s *Server) appViews(m chi.Router) {
	views, err := app.New(s.resolver, app.Options{Log: s.log, Stylesheet: s.sites.Stylesheet(), Icon: s.sites.Icon()})
	if err != nil {
		// The templates are embedded: a broken build, which app's tests
		// catch.
		panic(err)
	}
	m.Use(s.deadline, s.siteHostFirst, s.session, s.loaders)
	views.Routes(m)
}

// siteHostFirst gives a request to a published site's own hostname to the
// site: its root and its pages are the site's, not the app's.
func (s *Server) siteHostFirst(next http.Handler) http.Handler {
	site := anonymous(s.loaders(http.HandlerFunc(s.siteHost)))
	public := ""
	if u, err := url.Parse(s.cfg.PublicURL); err == nil {
		public = u.Host
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.EqualFold(r.Host, public) {
			// Kept by the resolver between requests: no statement, mostly.
			ctx := auth.WithViewer(r.Context(), auth.Anonymous())
			if id, _, err := s.resolver.PublishedSiteAt(ctx, r.Host); err == nil && id != "" {
				site.ServeHTTP(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// session sets the viewer of an HTML view from the session cookie of a
// signed-in browser, or the anonymous one: the views send a browser
// without a session to sign in. An expired or unknown session is no
// session. The views only read (GET), so a request from another site
// needs no check: it can make the browser load a view, never read it.
func (s *Server) session(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := auth.Anonymous()
		if secret := signin.SessionSecret(r, s.secure); secret != "" {
			got, err := s.resolver.AuthenticateSession(r.Context(), secret, time.Now())
			switch {
			case err == nil:
				v = got
				s.resolver.RecordUse(r.Context(), secret, v, time.Now())
				setUser(r.Context(), v.User.ID)
			case apperr.KindOf(err) != apperr.Unauthenticated:
				logctx.From(r.Context(), s.log).Error("reading a session", "error", err)
				http.Error(w, "Something went wrong on our side. Try again in a moment.", http.StatusInternalServerError)
				return
			}
		}
		ctx := auth.WithViewer(r.Context(), v)
		if v.User.ID != "" {
			ctx = logctx.With(ctx, "user_id", v.User.ID)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
