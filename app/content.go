package app

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/render"
)

// contentView is a revision's content, a space's, a change request's or a
// past one: an overview of it, or one of its pages.
type contentView struct {
	// Facts and Lists are the overview's.
	Facts []fact
	Lists []list
	// Changes are what a change request changes, in its overview.
	Changes []change
	// Page is the page shown; nil in the overview.
	Page *pageView
	// First is the content's first page, for the overview.
	First *link
}

// pageView is a page of a content.
type pageView struct {
	Emoji, Description string
	Body               template.HTML
	Hidden             bool
	// Mark is what a change request does to the page: "Added" or
	// "Modified"; "" for no change.
	Mark    string
	Updated time.Time
	// Pages are the pages under a group or a page; Target where a link
	// page points.
	Pages  []link
	Target string
}

// treePage is a page in the sidebar's tree of pages.
type treePage struct {
	link
	Current, Hidden, IsGroup bool
	Mark                     string
	Children                 []treePage
}

// change is a page that a change request adds, modifies or removes.
type change struct {
	link
	Mark string
}

// opened is a revision's content as a view shows it: its pages in order,
// addressed under base.
type opened struct {
	space *ent.Space
	rev   *ent.Revision
	c     *content.Content
	order *content.Order
	base  string
	// marks are the change request's changes by page ID.
	marks map[string]string
}

// open reads the content of rev, whose pages the view addresses under
// base.
func (a *App) open(r *http.Request, s *ent.Space, rev *ent.Revision, base string) (*opened, error) {
	c, err := a.res.RevisionContent(r.Context(), rev)
	if err != nil {
		return nil, err
	}
	return &opened{space: s, rev: rev, c: c, order: content.NewOrder(c.Pages), base: base}, nil
}

// pageURL is the address of entry i.
func (o *opened) pageURL(i int) string {
	return o.base + "/" + (&url.URL{Path: o.order.Entries[i].Path}).EscapedPath()
}

// first is the first document page, hidden or not: the view shows every
// page; -1 when there is none.
func (o *opened) first() int {
	for i, e := range o.order.Entries {
		if e.Node.Page.Type == enum.PageTypeDocument {
			return i
		}
	}
	return -1
}

// tree is the sidebar: every page, entry cur marked current (-1: none).
func (o *opened) tree(cur int) []treePage {
	var build func(nodes []*content.Node) []treePage
	build = func(nodes []*content.Node) []treePage {
		var out []treePage
		for _, n := range nodes {
			p := n.Page
			i := o.order.ByID[p.ID]
			tp := treePage{link: link{Title: p.Title, Emoji: p.Emoji, URL: o.pageURL(i)}, Current: i == cur,
				Hidden: p.Hidden, IsGroup: p.Type == enum.PageTypeGroup, Mark: o.marks[p.ID], Children: build(n.Children)}
			out = append(out, tp)
		}
		return out
	}
	return build(o.c.Pages)
}

// show answers the overview of o (pagePath "") or the page at pagePath, with
// crumbs, the objects o is in. overview fills the overview's view.
func (a *App) show(w http.ResponseWriter, r *http.Request, o *opened, pagePath, heading string, crumbs []link,
	overview func(*contentView) error) error {
	if pagePath == "" {
		var cv contentView
		if i := o.first(); i >= 0 {
			cv.First = &link{Title: o.order.Entries[i].Node.Page.Title, URL: o.pageURL(i)}
		}
		if err := overview(&cv); err != nil {
			return err
		}
		a.render(w, r, http.StatusOK, "content", view{Heading: heading, Crumbs: crumbs, Nav: o.tree(-1),
			NavLabel: "Pages", Data: cv})
		return nil
	}
	i, ok := o.order.ByPath[strings.TrimSuffix(pagePath, "/")]
	if !ok {
		a.notFound(w, r)
		return nil
	}
	pv, err := a.page(r, o, i)
	if err != nil {
		return err
	}
	crumbs = append(crumbs, link{Title: heading, URL: o.base})
	var up []link
	for j := o.order.Entries[i].Parent; j >= 0; j = o.order.Entries[j].Parent {
		up = append(up, link{Title: o.order.Entries[j].Node.Page.Title, URL: o.pageURL(j)})
	}
	for k := len(up) - 1; k >= 0; k-- {
		crumbs = append(crumbs, up[k])
	}
	p := o.order.Entries[i].Node.Page
	a.render(w, r, http.StatusOK, "content", view{Title: p.Title + " · " + heading, Heading: p.Title, Crumbs: crumbs,
		Nav: o.tree(i), NavLabel: "Pages", Data: contentView{Page: pv}})
	return nil
}

// page renders entry i of o with the reader's renderer.
func (a *App) page(r *http.Request, o *opened, i int) (*pageView, error) {
	e := o.order.Entries[i]
	p := e.Node.Page
	pv := &pageView{Emoji: p.Emoji, Description: p.Description, Hidden: p.Hidden, Mark: o.marks[p.ID], Updated: p.UpdatedAt}
	for _, n := range e.Node.Children {
		pv.Pages = append(pv.Pages, link{Title: n.Page.Title, Emoji: n.Page.Emoji, URL: o.pageURL(o.order.ByID[n.Page.ID])})
	}
	switch p.Type {
	case enum.PageTypeGroup:
		return pv, nil
	case enum.PageTypeLink:
		if k, u := o.order.LinkTarget(i); k >= 0 {
			pv.Target = o.pageURL(k)
		} else {
			pv.Target = u
		}
		return pv, nil
	}
	pg, err := a.res.Revision().Page(r.Context(), o.rev, p.ID)
	if err != nil {
		return nil, err
	}
	if pg == nil {
		return nil, apperr.NotFoundf("Page not found")
	}
	doc, err := graph.PageDocument(pg)
	if err != nil {
		return nil, err
	}
	if doc != nil {
		pv.Body = render.Document(doc, a.renderOptions(o, i)).HTML
	}
	return pv, nil
}

// renderOptions resolve a document's references: pages of the content to
// their addresses in the view, files to their signed URLs.
func (a *App) renderOptions(o *opened, i int) render.Options {
	return render.ContentOptions(o.c, o.order, i, render.Addresses{
		Page: o.pageURL,
		File: func(f *content.File) string { return a.res.FileURL(o.space.ID, f) },
	})
}
