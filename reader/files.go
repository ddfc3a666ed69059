package reader

import (
	"encoding/xml"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/filehttp"
)

// filesDir is where a site's root serves the files of its site-spaces:
// <filesDir><site-space ID>/<file ID>/<name>.
const filesDir = "~bindery/files/"

// file answers a file of a site-space the visitor sees, from its current
// content.
func (v *visit) file(rest string) {
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) != 3 {
		v.missing(filesDir + rest)
		return
	}
	sp := v.siteSpaceOf(parts[0])
	if sp == nil {
		v.missing(filesDir + rest)
		return
	}
	s, err := v.space(sp)
	if err != nil {
		v.fail(err)
		return
	}
	f, err := s.c.File(parts[1])
	if err != nil {
		v.missing(filesDir + rest)
		return
	}
	data, err := v.x.res.FileBlob(v.ctx, sp.SiteSpace.SpaceID, f.Blob)
	if err != nil {
		v.fail(err)
		return
	}
	cache := "public, max-age=300"
	if v.personal() {
		cache = "private, max-age=300"
	}
	filehttp.Write(v.w, f.Name, f.ContentType, data, cache)
}

// eachPage calls fn with every readable page of every site-space the
// visitor sees, in the site's order.
func (v *visit) eachPage(fn func(s *space, i int)) error {
	all := v.spots()
	for k := range all {
		s, err := v.space(&all[k])
		if err != nil {
			return err
		}
		for i := range s.order.Entries {
			if s.order.Readable(i) {
				fn(s, i)
			}
		}
	}
	return nil
}

// sitemap answers the site's sitemap: what an anonymous visitor reads of a
// public site, but pages that ask not to be indexed. Other sites have none.
func (v *visit) sitemap() {
	if !v.indexable() || v.personal() {
		v.missing("sitemap.xml")
		return
	}
	type loc struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	}
	urlset := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []loc    `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	err := v.eachPage(func(s *space, i int) {
		p := s.order.Entries[i].Node.Page
		if !p.NoRobotsIndex {
			urlset.URLs = append(urlset.URLs, loc{Loc: v.origin + s.pageURL(i), LastMod: p.UpdatedAt.UTC().Format(time.DateOnly)})
		}
	})
	if err != nil {
		v.fail(err)
		return
	}
	out, err := xml.MarshalIndent(urlset, "", "  ")
	if err != nil {
		v.fail(err)
		return
	}
	v.text("application/xml; charset=utf-8", xml.Header+string(out)+"\n")
}

// robots answers robots.txt: a public site lets crawlers in and names its
// sitemap; any other keeps them out.
func (v *visit) robots() {
	body := "User-agent: *\nDisallow: /\n"
	if v.indexable() {
		body = "User-agent: *\nAllow: /\n\nSitemap: " + v.origin + v.base + "sitemap.xml\n"
	}
	v.text("text/plain; charset=utf-8", body)
}

// llms answers llms.txt, the llms.txt convention's index of the site's
// pages with links to their markdown, or with full set llms-full.txt,
// every page's markdown in one file.
func (v *visit) llms(full bool) {
	var b strings.Builder
	b.WriteString("# " + v.site.Title + "\n")
	var cur *spot
	err := v.eachPage(func(s *space, i int) {
		p := s.order.Entries[i].Node.Page
		if full {
			b.WriteString("\n---\n\n# " + p.Title + "\n\nSource: " + v.origin + s.pageURL(i) + "\n\n")
			b.WriteString(strings.TrimSpace(p.Markdown) + "\n")
			return
		}
		if s.spot != cur {
			cur = s.spot
			title := cur.Title
			if cur.Section != nil && len(v.pub.Sections) > 1 {
				title = cur.Section.Title + " › " + title
			}
			b.WriteString("\n## " + title + "\n\n")
		}
		b.WriteString("- [" + markdownText(p.Title) + "](" + v.origin + s.spot.url + pathSegment(s.order.Entries[i].Path) + ".md)")
		if p.Description != "" {
			b.WriteString(": " + p.Description)
		}
		b.WriteString("\n")
	})
	if err != nil {
		v.fail(err)
		return
	}
	v.text("text/plain; charset=utf-8", b.String())
}

// markdownText escapes the characters that would end a link's text.
func markdownText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// text answers a text file of the site, cached as a page is.
func (v *visit) text(contentType, body string) {
	h := v.w.Header()
	h.Set("Content-Type", contentType)
	if !v.indexable() {
		h.Set("X-Robots-Tag", "noindex")
	}
	if v.personal() {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "public, max-age=60")
	}
	if v.req.Method != http.MethodHead {
		_, _ = v.w.Write([]byte(body))
	}
}
