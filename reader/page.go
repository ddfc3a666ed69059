package reader

import (
	"net/http"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/render"
)

// space is a site-space's current content, as a page of it is shown.
type space struct {
	spot *spot
	rev  *ent.Revision
	c    *content.Content
	// order is its pages in reading order.
	order *content.Order
	// lang is the language of the space's content, "en" when it has none.
	lang string
}

// open reads the current content of a site-space the visitor sees.
func (v *visit) space(sp *spot) (*space, error) {
	rev, err := v.x.res.SpaceRevision(v.ctx, sp.SiteSpace.SpaceID)
	if err != nil {
		return nil, err
	}
	c, err := v.x.res.RevisionContent(v.ctx, rev)
	if err != nil {
		return nil, err
	}
	out := &space{spot: sp, rev: rev, c: c, order: content.NewOrder(c.Pages), lang: "en"}
	// The space's row came with the site's structure: no statement.
	if row, err := v.x.res.SiteSpace().Space(v.ctx, sp.SiteSpace); err == nil && row != nil && row.Language != nil {
		out.lang = string(*row.Language)
	}
	return out, nil
}

// pageURL is the address of entry i: the site-space's root for its first
// page.
func (s *space) pageURL(i int) string {
	if i == s.order.First(0) {
		return s.spot.url
	}
	return s.spot.url + pathSegment(s.order.Entries[i].Path)
}

// fileURL is where the reader serves a file of the site-space.
func (s *space) fileURL(base string, f *content.File) string {
	return base + filesDir + s.spot.SiteSpace.ID + "/" + f.ID + "/" + pathSegment(f.Name)
}

// page answers a page of a site-space, by its path ("" for the site-space's
// first page), as HTML or as its markdown.
func (v *visit) page(sp *spot, pagePath, rest string, markdown bool) {
	s, err := v.space(sp)
	if err != nil {
		v.fail(err)
		return
	}
	i := -1
	if pagePath == "" {
		i = s.order.First(0)
	} else if j, ok := s.order.ByPath[pagePath]; ok {
		i = j
	}
	if i < 0 {
		v.moved(s, pagePath, rest, markdown)
		return
	}
	p := s.order.Entries[i].Node.Page
	switch p.Type {
	case enum.PageTypeGroup:
		// A group is a heading over its pages: its address shows the first.
		if j := s.order.FirstUnder(i); j >= 0 && !markdown {
			http.Redirect(v.w, v.req, s.pageURL(j), http.StatusFound)
			return
		}
		v.missing(rest)
		return
	case enum.PageTypeLink:
		if to := s.linkURL(i); to != "" && !markdown {
			http.Redirect(v.w, v.req, to, http.StatusFound)
			return
		}
		v.missing(rest)
		return
	}
	if markdown {
		v.markdown(s, i)
		return
	}
	v.fresh(s, i)
	pv, err := v.pageView(s, i)
	if err != nil {
		v.fail(err)
		return
	}
	nv, err := v.nav(s, i)
	if err != nil {
		v.fail(err)
		return
	}
	title := p.Title + " · " + v.site.Title
	if sp.Default && (sp.Section == nil || sp.Section == v.pub.DefaultSection()) && i == s.order.First(0) {
		title = v.site.Title
	}
	description := p.Description
	if description == "" {
		description = pv.summary
	}
	v.write(http.StatusOK, &view{Lang: s.lang, Title: title, Description: description, Canonical: v.origin + s.pageURL(i),
		NoIndex: !v.indexable() || p.NoRobotsIndex, Nav: nv, Page: pv})
}

// moved answers a page path that s does not have: when an edit or a merge
// moved a page from it, a permanent redirect to the page's address now;
// otherwise whatever else the address is (see missing).
func (v *visit) moved(s *space, pagePath, rest string, markdown bool) {
	id, err := v.x.res.MovedPage(v.ctx, s.spot.SiteSpace.SpaceID, pagePath)
	if err != nil {
		v.fail(err)
		return
	}
	j, ok := s.order.ByID[id]
	if !ok || !s.order.Readable(j) {
		v.missing(rest)
		return
	}
	to := s.pageURL(j)
	if markdown {
		to = s.spot.url + pathSegment(s.order.Entries[j].Path) + ".md"
	}
	v.w.Header().Set("Cache-Control", "no-cache")
	http.Redirect(v.w, v.req, to, http.StatusMovedPermanently)
}

// pageView renders entry i of s.
func (v *visit) pageView(s *space, i int) (*pageView, error) {
	e := s.order.Entries[i]
	p := e.Node.Page
	pg, err := v.x.res.Revision().Page(v.ctx, s.rev, p.ID)
	if err != nil {
		return nil, err
	}
	doc, err := graph.PageDocument(pg)
	if err != nil {
		return nil, err
	}
	var body render.Result
	if doc != nil {
		body = render.Document(doc, v.renderOptions(s, i))
	}
	pv := &pageView{Title: p.Title, Description: p.Description, Emoji: p.Emoji, Body: body.HTML, summary: body.Summary,
		Updated: p.UpdatedAt, MarkdownURL: s.spot.url + pathSegment(e.Path) + ".md"}
	layout := content.DefaultLayout()
	if p.Layout != nil {
		layout = *p.Layout
	}
	if layout.Outline {
		for _, h := range body.Headings {
			pv.Outline = append(pv.Outline, heading{ID: h.ID, Text: h.Text, Level: h.Level})
		}
	}
	if sec := s.spot.Section; sec != nil && len(v.pub.Sections) > 1 {
		pv.Breadcrumbs = append(pv.Breadcrumbs, link{Title: sec.Title, URL: s.spot.url})
	}
	var up []link
	for j := e.Parent; j >= 0; j = s.order.Entries[j].Parent {
		l := link{Title: s.order.Entries[j].Node.Page.Title}
		if s.order.Readable(j) {
			l.URL = s.pageURL(j)
		}
		up = append(up, l)
	}
	for k := len(up) - 1; k >= 0; k-- {
		pv.Breadcrumbs = append(pv.Breadcrumbs, up[k])
	}
	if layout.Pagination {
		if j := s.order.Prev(i); j >= 0 {
			pv.Prev = &link{Title: s.order.Entries[j].Node.Page.Title, URL: s.pageURL(j)}
		}
		if j := s.order.Next(i); j >= 0 {
			pv.Next = &link{Title: s.order.Entries[j].Node.Page.Title, URL: s.pageURL(j)}
		}
	}
	return pv, nil
}

// renderOptions resolve the references of entry i's document: pages of the
// site-space to their addresses, files to the reader's file addresses.
func (v *visit) renderOptions(s *space, i int) render.Options {
	return render.ContentOptions(s.c, s.order, i, render.Addresses{
		Page: s.pageURL,
		File: func(f *content.File) string { return s.fileURL(v.base, f) },
	})
}

// markdown answers entry i's markdown.
func (v *visit) markdown(s *space, i int) {
	p := s.order.Entries[i].Node.Page
	h := v.w.Header()
	h.Set("Content-Type", "text/markdown; charset=utf-8")
	v.fresh(s, i)
	if v.req.Method != http.MethodHead {
		_, _ = v.w.Write([]byte(p.Markdown))
	}
}
