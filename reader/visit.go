package reader

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/logctx"
	"github.com/bindery/bindery/internal/visitor"
)

// The parameters a visitor arrives with, as GitBook names them: a share
// link's key, and a visitor token (a JWT signed with the site's visitor key).
const (
	shareKeyParam = "shareKey"
	tokenParam    = "jwt_token"
)

// The cookies that keep them, scoped to the site's path.
const (
	shareKeyCookie = "bindery-share-key"
	tokenCookie    = "bindery-visitor-token"
)

// visit is one request to a site.
type visit struct {
	x   *Reader
	w   http.ResponseWriter
	req *http.Request
	ctx context.Context
	// base is the site's root path as the visitor addresses it, ending in
	// "/"; origin is the scheme and host of absolute addresses.
	base, origin string
	siteID       string
	// shareKey, token and unsigned are what the visitor presented.
	shareKey, token string
	unsigned        map[string]any
	site            *ent.Site
	pub             *model.PublishedView
	// spotList is spots' answer, once known.
	spotList []spot
	// rest is the path asked for under the site's root; key is the cache
	// key of the answer, and rec records the answer to keep it.
	rest string
	key  string
	rec  *recorder
	// anonymous names the request of an anonymous visitor, gen the
	// generation at which the visit began (see shortcut).
	anonymous string
	gen       graph.Generation
}

// serve answers a request for rest, the path under a site's root base.
func (x *Reader) serve(w http.ResponseWriter, req *http.Request, siteID, base, origin, rest string) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Referrer-Policy", "same-origin")
	if name, ok := strings.CutPrefix(rest, staticDir); ok {
		x.assets.serve(w, req, name)
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	v := &visit{x: x, w: w, req: req, ctx: req.Context(), base: base, origin: origin, siteID: siteID, rest: rest}
	if v.shortcut() {
		return
	}
	defer v.remember()
	v.unsigned = v.unsignedClaims()
	x.res.PresentUnsignedClaims(v.ctx, siteID, v.unsigned)
	if v.arrive() {
		return
	}
	if err := v.admit(); err != nil {
		v.fail(err)
		return
	}
	if v.fromCache(rest) {
		return
	}
	if err := v.open(); err != nil {
		v.fail(err)
		return
	}
	v.route(rest)
	v.keep()
}

// contentSecurityPolicy lets a reader's page load only the reader's own
// script and stylesheet, and images from anywhere (content may show
// images by URL); nothing inline runs.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src * data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// arrive keeps the share key or visitor token the address carries in a
// cookie and redirects to the address without it, so that it neither stays
// in the address bar nor leaks through Referer. An empty visitor token signs
// the visitor out. It reports whether it answered.
func (v *visit) arrive() bool {
	q := v.req.URL.Query()
	_, hasKey := q[shareKeyParam]
	_, hasToken := q[tokenParam]
	if !hasKey && !hasToken {
		v.shareKey, v.token = cookie(v.req, shareKeyCookie), cookie(v.req, tokenCookie)
		return false
	}
	// What the address carries replaces what the cookies kept, and is
	// checked as the site reads it before a cookie keeps it: a key or a
	// token that admits no one is answered as an unknown site.
	v.shareKey, v.token = cookie(v.req, shareKeyCookie), cookie(v.req, tokenCookie)
	if hasKey {
		v.shareKey = q.Get(shareKeyParam)
	}
	if hasToken {
		v.token = q.Get(tokenParam)
		if v.token == "" {
			v.setCookie(tokenCookie, "", time.Unix(1, 0))
		}
	}
	if err := v.open(); err != nil {
		v.fail(err)
		return true
	}
	if hasKey {
		v.setCookie(shareKeyCookie, v.shareKey, time.Time{})
		q.Del(shareKeyParam)
	}
	if hasToken {
		if v.token != "" {
			v.setCookie(tokenCookie, v.token, visitor.Expiry(v.token))
		}
		q.Del(tokenParam)
	}
	u := *v.req.URL
	u.RawQuery = q.Encode()
	v.w.Header().Set("Cache-Control", "no-store")
	http.Redirect(v.w, v.req, u.RequestURI(), http.StatusSeeOther)
	return true
}

// cookie is the value of a request's cookie, "" without one.
func cookie(req *http.Request, name string) string {
	c, err := req.Cookie(name)
	if err != nil {
		return ""
	}
	return c.Value
}

// setCookie keeps value for the site: HttpOnly, SameSite=Lax, Secure when
// the public URL is https; a zero expiry makes it last the browser session,
// one in the past removes it.
func (v *visit) setCookie(name, value string, expires time.Time) {
	c := &http.Cookie{Name: name, Value: value, Path: v.base, HttpOnly: true, Secure: v.x.secure,
		SameSite: http.SameSiteLaxMode, Expires: expires}
	if value == "" {
		c.MaxAge = -1
	}
	http.SetCookie(v.w, c)
}

// admit reads the site as the visitor may read it: a site they may not
// read is not found.
func (v *visit) admit() error {
	s, err := v.x.res.Query().Site(v.ctx, v.siteID, &v.shareKey, &v.token)
	if err != nil {
		return err
	}
	v.site = s
	return nil
}

// open reads the site and what the visitor sees of it. A visitor token
// that is no longer valid (expired, or signed with a rotated key) is
// dropped, and the visitor is one without a token.
func (v *visit) open() error {
	if v.site == nil {
		if err := v.admit(); err != nil {
			return err
		}
	}
	pub, err := v.x.res.PublishedView(v.ctx, v.site, &v.token)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.InvalidArgument && ae.Field == visitor.TokenField && v.token != "" {
		v.setCookie(tokenCookie, "", time.Unix(1, 0))
		v.token = ""
		// The request's loaders keep the token it presented: a new visit
		// starts from none.
		v.ctx, v.site = v.x.res.WithLoaders(v.ctx), nil
		v.x.res.PresentUnsignedClaims(v.ctx, v.siteID, v.unsigned)
		return v.open()
	}
	if err != nil {
		return err
	}
	v.pub = pub
	return nil
}

// fail answers an error: a site the visitor may not read is answered as
// one that does not exist, but a visitor-auth site sends the visitor to
// sign in where its fallback URL says; a server fault is a 500 with the
// detail in the log.
func (v *visit) fail(err error) {
	switch apperr.KindOf(err) {
	case apperr.NotFound, apperr.PermissionDenied, apperr.InvalidArgument, apperr.Unauthenticated:
		if to := v.x.res.VisitorAuthFallback(v.ctx, v.siteID); to != "" {
			v.signIn(to)
			return
		}
		v.w.Header().Set("Cache-Control", "no-store")
		http.Error(v.w, "Not found", http.StatusNotFound)
	default:
		logctx.From(v.ctx, v.x.log).Error("reading a published site", "site", v.siteID, "error", err)
		http.Error(v.w, "Internal server error", http.StatusInternalServerError)
	}
}

// signIn sends the visitor to a visitor-auth site's fallback URL, with the
// address they asked for as its location parameter, as GitBook does.
func (v *visit) signIn(fallback string) {
	u, err := url.Parse(fallback)
	if err != nil {
		http.Error(v.w, "Not found", http.StatusNotFound)
		return
	}
	q := u.Query()
	q.Set("location", v.origin+v.req.URL.RequestURI())
	u.RawQuery = q.Encode()
	v.w.Header().Set("Cache-Control", "no-store")
	http.Redirect(v.w, v.req, u.String(), http.StatusFound)
}

// personal reports whether what the visitor sees depends on who they are:
// a share key or a visitor token admitted them, or their claims choose the
// content.
func (v *visit) personal() bool {
	return v.site.Visibility != enum.SiteVisibilityPublic && v.site.Visibility != enum.SiteVisibilityUnlisted ||
		v.token != "" || v.site.AdaptiveContent && len(v.unsigned) > 0
}

// indexable reports whether search engines may index the site's pages.
func (v *visit) indexable() bool { return v.site.Visibility == enum.SiteVisibilityPublic }
