package reader

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

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
	if vw.Lang == "" {
		vw.Lang = "en"
	}
	vw.Site = siteView{Title: v.site.Title, Home: v.base, SearchURL: v.base + "search"}
	vw.Stylesheet = v.base + staticDir + v.x.assets.stylesheet()
	vw.Icon = v.base + staticDir + v.x.assets.favicon()
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

// fresh sets the headers of entry i of s that the cache keeps with it.
func (v *visit) fresh(s *space, i int) {
	p := s.order.Entries[i].Node.Page
	v.w.Header().Set("Last-Modified", p.UpdatedAt.UTC().Format(http.TimeFormat))
	if !v.indexable() || p.NoRobotsIndex {
		v.w.Header().Set("X-Robots-Tag", "noindex")
	}
}
