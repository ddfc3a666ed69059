// Package signin signs people in from a browser: an email link, OpenID
// Connect providers and organizations' SAML providers each vouch for a
// person, and a sign-in ends in a session kept on the server under its
// secret's hash, whose secret only the browser's cookie holds.
//
// It is a transport: it speaks HTTP to browsers and providers, checks what
// the providers say with their libraries, and hands the person they vouch
// for to the application layer (graph.Resolver.SignIn), which decides
// whether they have an account and what they join, through the policies
// every write goes through. Its pages are server-rendered, need no
// JavaScript, and share the published sites' look.
package signin

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/ui"
)

// Options are what the server gives sign-in besides the resolver.
type Options struct {
	Log *slog.Logger
	// Stylesheet and Icon are the addresses of the reader's assets, which
	// the pages use.
	Stylesheet, Icon string
	// AllowClient and AllowAddress spend one of a client's (by IP address)
	// and an email address's requests for email links, and report whether
	// there was one left. Nil allows all.
	AllowClient, AllowAddress func(key string) bool
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Handler serves the sign-in pages and the providers' callbacks.
type Handler struct {
	res    *graph.Resolver
	cfg    config.Config
	opt    Options
	log    *slog.Logger
	public *url.URL
	// secure is whether the public URL is https: the cookies are then
	// Secure and the session's is a __Host- cookie.
	secure bool
	pages  *pages
	// cop refuses state-changing requests from other sites (login CSRF,
	// signing a person out from another site).
	cop  *http.CrossOriginProtection
	oidc *oidcProviders
}

// New returns the sign-in handler of res.
func New(ctx context.Context, res *graph.Resolver, cfg config.Config, opt Options) (*Handler, error) {
	u, err := url.Parse(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	p, err := parsePages(opt.Stylesheet, opt.Icon, opt.Log)
	if err != nil {
		return nil, err
	}
	h := &Handler{res: res, cfg: cfg, opt: opt, log: opt.Log, public: u, secure: u.Scheme == "https", pages: p,
		cop: CrossOriginProtection(cfg.CORSOrigins)}
	h.oidc = newOIDCProviders(ctx, cfg, h.log)
	return h, nil
}

// CrossOriginProtection refuses state-changing browser requests that come
// from another site than this server's, unless from one of origins (the
// configured CORS origins; "*" is not one: it lets any site read, never
// act with a person's cookie).
func CrossOriginProtection(origins []string) *http.CrossOriginProtection {
	cop := http.NewCrossOriginProtection()
	for _, o := range origins {
		if o != "*" {
			// ParseOrigins normalized them: AddTrustedOrigin cannot fail.
			_ = cop.AddTrustedOrigin(o)
		}
	}
	return cop
}

// Routes adds the sign-in routes to m.
func (h *Handler) Routes(m chi.Router) {
	m.Group(func(m chi.Router) {
		m.Use(ui.Headers())
		ui.Page(m, "/auth/sign-in", h.signInPage)
		ui.Page(m, "/auth/email/confirm", h.confirmPage)
		ui.Page(m, "/auth/sign-out", h.signOutPage)
		m.Get("/auth/session", h.session)
		m.Get("/auth/oidc/{provider}", h.oidcStart)
		m.Get("/auth/oidc/{provider}/callback", h.oidcCallback)
		m.Get("/saml/{provider}/metadata", h.samlMetadata)
		m.Get("/saml/{provider}/start", h.samlStart)
		// The identity provider's page posts the response from its own
		// site: what binds it to this browser is the flow cookie.
		m.Post("/saml/{provider}/acs", h.samlACS)
		m.Group(func(m chi.Router) {
			m.Use(h.cop.Handler)
			m.Post("/auth/email", h.sendLink)
			m.Post("/auth/email/confirm", h.confirmLink)
			m.Post("/auth/sign-out", h.signOut)
		})
	})
}

// SessionCookie is the name of the session cookie: a __Host- cookie, which
// no other site and no subdomain can set, when the server is reached over
// https; browsers refuse that prefix over http.
func SessionCookie(secure bool) string {
	if secure {
		return "__Host-bindery_session"
	}
	return "bindery_session"
}

// flowCookie names the cookie that binds a sign-in under way with a
// provider to the browser that began it.
func flowCookie(secure bool) string {
	if secure {
		return "__Host-bindery_flow"
	}
	return "bindery_flow"
}

// SessionSecret returns the session secret a request's cookie carries, or
// "".
func SessionSecret(r *http.Request, secure bool) string {
	c, err := r.Cookie(SessionCookie(secure))
	if err != nil {
		return ""
	}
	return c.Value
}

// setCookie sets one of sign-in's cookies: HttpOnly, for the whole server,
// Secure over https; SameSite=Lax, so that a top-level navigation from
// another site (a link in an email, a provider's redirect) brings it but no
// other site's request does.
func (h *Handler) setCookie(w http.ResponseWriter, name, value string, expires time.Time) {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: h.secure,
		SameSite: http.SameSiteLaxMode}
	if value == "" {
		c.MaxAge = -1
	} else if !expires.IsZero() {
		c.Expires = expires.UTC()
	}
	http.SetCookie(w, c)
}

// finish signs the person in: the application layer finds or makes their
// user and starts a session, whose secret goes in the cookie; then the
// browser goes where the sign-in began.
func (h *Handler) finish(w http.ResponseWriter, r *http.Request, p graph.Person, returnTo string) {
	s, err := h.res.SignIn(r.Context(), p, r.UserAgent())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.log.InfoContext(r.Context(), "signed in", "user_id", s.User.ID, "method", p.Method)
	h.setCookie(w, SessionCookie(h.secure), s.Secret, s.ExpiresAt)
	http.Redirect(w, r, ReturnTo(returnTo), http.StatusSeeOther)
}

// ReturnTo is where a browser may be sent after signing in: a path of this
// server, never another site's address, or "/".
func ReturnTo(raw string) string {
	// A path starts with one slash: "//host" and "/\host" are addresses of
	// other sites to browsers.
	if raw == "" || raw[0] != '/' || strings.HasPrefix(raw, "//") || strings.ContainsAny(raw, "\\\r\n\t") {
		return "/"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	return u.RequestURI()
}

// fail shows the sign-in page with what went wrong: the application
// layer's message for a refusal (4xx), a generic one for a fault, whose
// detail goes to the log.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := h.refusal(r, err)
	h.pages.signIn(w, r, status, h.signInView(r, "/", msg))
}

// refusal is the status and message to answer err with: the application
// layer's for a refusal, a generic one for a fault, whose detail goes to
// the log.
func (h *Handler) refusal(r *http.Request, err error) (int, string) {
	var e *apperr.Error
	if status := apperr.KindOf(err).HTTPStatus(); status < 500 && errors.As(err, &e) {
		return status, e.Message
	}
	h.log.ErrorContext(r.Context(), "signing in", "error", err)
	return http.StatusInternalServerError, "Something went wrong on our side. Try again in a moment."
}

// session tells a page of this server whether its browser is signed in,
// and as whom: {"signedIn": false}, or true with the user's ID and name.
// It never answers 401, so that asking is no error in a browser's console.
func (h *Handler) session(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"signedIn": false}
	if secret := SessionSecret(r, h.secure); secret != "" {
		v, err := h.res.AuthenticateSession(r.Context(), secret, h.opt.Now())
		switch {
		case err == nil:
			out = map[string]any{"signedIn": true, "user": map[string]any{"id": v.User.ID, "displayName": v.User.DisplayName}}
		case apperr.KindOf(err) != apperr.Unauthenticated:
			status, msg := h.refusal(r, err)
			http.Error(w, msg, status)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
