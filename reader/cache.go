package reader

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/lru"
)

// Rendered pages are kept across requests, bounded in bytes. A page's key
// names everything it shows: the site's published version (its settings,
// structure, and each space's current revision, read from the database as
// the visitor is admitted; see graph.Resolver.PublishedVersion), the
// address asked for and how the site was reached, the reader's assets, and
// the visitor's share key or token when they decide what the visitor sees.
// An edit, a merge or a change of the site gives new keys at once, on every
// replica; a replica never serves a page another one rendered. The key is
// the page's ETag too, so a browser's copy is checked without reading the
// content.

// pages is the cache of rendered pages.
type pages = lru.Cache[*rendered]

// rendered is a response kept in the cache.
type rendered struct {
	status int
	header http.Header
	body   []byte
}

// kept are the headers of a response the cache replays.
var kept = []string{"Content-Type", "Last-Modified", "X-Robots-Tag"}

// cacheKey is the key of the response to rest for this visitor; "" for a
// response that is not kept (a search, a file, what the visitor was not
// decided about as a reader).
func (v *visit) cacheKey(rest string) string {
	version := v.x.res.PublishedVersion(v.ctx, v.site.ID)
	switch {
	case version == "", rest == "search", strings.HasPrefix(rest, filesDir):
		return ""
	}
	h := sha256.New()
	for _, s := range []string{version, v.origin, v.base, rest, v.x.assets.stylesheet(), v.x.assets.script(), v.x.assets.favicon()} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if v.personal() {
		h.Write([]byte(v.shareKey))
		h.Write([]byte{0})
		h.Write([]byte(v.token))
		h.Write([]byte{0})
		// encoding/json writes a map's keys in order: equal claims, equal
		// bytes.
		claims, _ := json.Marshal(v.unsigned)
		h.Write(claims)
	}
	return `"` + base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18]) + `"`
}

// fromCache answers from the cache, or with 304 when the visitor's copy is
// current, and reports whether it did. Either way it states how the
// response may be cached.
func (v *visit) fromCache(rest string) bool {
	key := v.cacheKey(rest)
	if key == "" {
		return false
	}
	v.key = key
	if v.replay(key, v.personal()) {
		return true
	}
	// What the page writes is recorded for the cache.
	v.rec = &recorder{ResponseWriter: v.w}
	v.w = v.rec
	return false
}

// replay answers with the kept response of key, or 304 when the visitor's
// copy is current, and reports whether it did; it states how the response
// may be cached either way.
func (v *visit) replay(key string, personal bool) bool {
	h := v.w.Header()
	h.Set("ETag", key)
	h.Set("Vary", "Cookie, X-Forwarded-Host")
	// A page every visitor sees alike may be kept by shared caches for a
	// minute; a personal one only by the visitor's browser, which asks
	// again each time.
	if personal {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "public, max-age=60")
	}
	if v.notModified() {
		return true
	}
	r, ok := v.x.pages.Get(key)
	if !ok {
		return false
	}
	for _, name := range kept {
		if val := r.header.Get(name); val != "" {
			h.Set(name, val)
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(r.body)))
	v.w.WriteHeader(r.status)
	if v.req.Method != http.MethodHead {
		_, _ = v.w.Write(r.body)
	}
	return true
}

// An anonymous visitor's request for a page is answered without reading
// the database while the server's generation (graph.Resolver.Generation)
// is the one at which the same request was last admitted: the page's key
// is remembered by the request's address, and nothing the key was made of
// has changed since. Visitors with a share key, a token or claims go the
// whole way, as does every request when the generation is unknown.

// shortcut is what an anonymous request was answered with, at a
// generation.
type shortcut struct {
	gen graph.Generation
	key string
}

// shortcutKey names an anonymous visitor's request, "" for a request that
// is not one: the visitor may be someone (cookies of the site's), or may
// bring claims or ask something of the query.
func (v *visit) shortcutKey() string {
	if v.req.URL.RawQuery != "" {
		return ""
	}
	for _, c := range []string{shareKeyCookie, tokenCookie, publicClaimsCookie} {
		if cookie(v.req, c) != "" {
			return ""
		}
	}
	return v.siteID + "\x00" + v.origin + "\x00" + v.base + "\x00" + v.rest
}

// shortcut answers an anonymous visitor from the cache at once, and
// reports whether it did; otherwise it notes what the visit needs to
// remember its answer (see remember).
func (v *visit) shortcut() bool {
	gen, ok := v.x.res.Generation()
	if !ok {
		return false
	}
	if v.anonymous = v.shortcutKey(); v.anonymous == "" {
		return false
	}
	v.gen = gen
	s, ok := v.x.shortcuts.Get(v.anonymous)
	return ok && s.gen == gen && v.replay(s.key, false)
}

// remember keeps the key of the page an anonymous visitor was answered
// with, for the shortcut.
func (v *visit) remember() {
	if v.anonymous == "" || v.key == "" || v.site == nil || v.personal() {
		return
	}
	if _, ok := v.x.pages.Get(v.key); ok {
		v.x.shortcuts.Replace(v.anonymous, shortcut{gen: v.gen, key: v.key}, len(v.anonymous)+len(v.key)+64)
	}
}

// keep puts what the visit answered into the cache, when it was a page.
// A visitor token found invalid was dropped on the way, which changes the
// key: the page is kept under the key of what it shows.
func (v *visit) keep() {
	if v.rec == nil || v.rec.status != http.StatusOK || v.req.Method == http.MethodHead {
		return
	}
	key := v.cacheKey(v.rest)
	if key == "" {
		return
	}
	r := &rendered{status: v.rec.status, header: http.Header{}, body: v.rec.body}
	for _, name := range kept {
		if val := v.rec.Header().Get(name); val != "" {
			r.header.Set(name, val)
		}
	}
	v.x.pages.Put(key, r, len(r.body)+len(key)+200)
}

// notModified answers 304 when the request's If-None-Match holds the
// response's ETag.
func (v *visit) notModified() bool {
	etag := v.w.Header().Get("ETag")
	for _, t := range strings.Split(v.req.Header.Get("If-None-Match"), ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			v.w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// recorder keeps a copy of a response as it is written.
type recorder struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body = append(r.body, b...)
	return r.ResponseWriter.Write(b)
}
