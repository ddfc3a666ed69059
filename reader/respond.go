package reader

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/logctx"
)

// route answers a path under the site's root.
func (v *visit) route(rest string) {
	switch rest {
	case "search":
		v.search()
		return
	case "sitemap.xml":
		v.sitemap()
		return
	case "robots.txt":
		v.robots()
		return
	case "llms.txt":
		v.llms(false)
		return
	case "llms-full.txt":
		v.llms(true)
		return
	}
	if f, ok := strings.CutPrefix(rest, filesDir); ok {
		v.file(f)
		return
	}
	markdown := strings.HasSuffix(rest, ".md")
	sp, pagePath := v.locate(strings.TrimSuffix(rest, ".md"))
	if sp == nil {
		v.missing(rest)
		return
	}
	v.page(sp, pagePath, rest, markdown)
}

// missing answers a path that names no page: the site's redirect of it,
// or the site's 404 page.
func (v *visit) missing(rest string) {
	res, err := v.x.res.Site().Redirect(v.ctx, v.site, "/"+strings.TrimSuffix(rest, "/"), &v.shareKey)
	if err != nil {
		v.fail(err)
		return
	}
	if res != nil {
		// Targets are stated under the site's address at /sites/<id>; a
		// visitor at the site's own hostname stays there.
		to := res.Target
		if home := v.x.public.String() + Prefix + v.site.ID; strings.HasPrefix(to, home) {
			to = v.origin + v.base + strings.TrimPrefix(strings.TrimPrefix(to, home), "/")
		}
		v.w.Header().Set("Cache-Control", "no-cache")
		http.Redirect(v.w, v.req, to, http.StatusMovedPermanently)
		return
	}
	nv, err := v.nav(nil, -1)
	if err != nil {
		v.fail(err)
		return
	}
	v.w.Header().Set("Cache-Control", "no-store")
	v.write(http.StatusNotFound, &view{Title: "Page not found · " + v.site.Title, NoIndex: true,
		Canonical: v.origin + v.req.URL.Path, Nav: nv, NotFound: true})
}

// write answers a page of the site.
func (v *visit) write(status int, vw *view) {
	vw.Lang = "en"
	vw.Site = siteView{Title: v.site.Title, Home: v.base, SearchURL: v.base + "search"}
	vw.Stylesheet = v.base + staticDir + v.x.assets.stylesheet()
	if js := v.x.assets.script(); js != "" {
		vw.Script = v.base + staticDir + js
	}
	var b bytes.Buffer
	if err := v.x.tpl.execute(&b, vw); err != nil {
		logctx.From(v.ctx, v.x.log).Error("rendering a page of a published site", "site", v.site.ID, "error", err)
		http.Error(v.w, "Internal server error", http.StatusInternalServerError)
		return
	}
	h := v.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	if vw.NoIndex {
		h.Set("X-Robots-Tag", "noindex")
	}
	v.w.WriteHeader(status)
	if v.req.Method != http.MethodHead {
		_, _ = v.w.Write(b.Bytes())
	}
}

// fresh sets the caching headers of entry i of s, and answers 304 when the
// visitor's copy is current: it reports whether it answered.
func (v *visit) fresh(s *space, i int) bool {
	p := s.toc.entries[i].node.Page
	v.cacheHeaders(s.rev.ID + "/" + p.ID)
	v.w.Header().Set("Last-Modified", p.UpdatedAt.UTC().Format(http.TimeFormat))
	if !v.indexable() || p.NoRobotsIndex {
		v.w.Header().Set("X-Robots-Tag", "noindex")
	}
	return v.notModified()
}

// cacheHeaders sets the ETag of what the visitor gets for what (a
// revision's page): it changes with the content, with the site's
// structure and settings, with the reader's own assets, and with who the
// visitor is when that decides what they see. A page every visitor sees
// alike may be kept by shared caches for a minute; a personal one only by
// the visitor's browser, which asks again each time.
func (v *visit) cacheHeaders(what string) {
	h := sha256.New()
	write := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	write(what)
	write(v.site.ID)
	write(v.site.UpdatedAt.UTC().Format(time.RFC3339Nano))
	for _, sp := range v.spots() {
		write(sp.SiteSpace.ID)
		write(sp.SiteSpace.UpdatedAt.UTC().Format(time.RFC3339Nano))
		write(sp.Title)
		if sp.Section != nil {
			write(sp.Section.UpdatedAt.UTC().Format(time.RFC3339Nano))
		}
	}
	write(v.x.assets.stylesheet())
	write(v.x.assets.script())
	write(v.base)
	personal := v.personal()
	if personal {
		write(v.shareKey)
		write(v.token)
	}
	hd := v.w.Header()
	hd.Set("ETag", `"`+base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18])+`"`)
	if personal {
		hd.Set("Cache-Control", "private, no-cache")
	} else {
		hd.Set("Cache-Control", "public, max-age=60")
	}
	hd.Set("Vary", "Cookie")
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
