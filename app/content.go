package app

import (
	"html/template"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

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
	overview func(*contentView) error) {
	if pagePath == "" {
		var cv contentView
		if i := o.first(); i >= 0 {
			cv.First = &link{Title: o.order.Entries[i].Node.Page.Title, URL: o.pageURL(i)}
		}
		if err := overview(&cv); err != nil {
			a.fail(w, r, err)
			return
		}
		a.render(w, r, http.StatusOK, "content", view{Heading: heading, Crumbs: crumbs, Nav: o.tree(-1),
			NavLabel: "Pages", Data: cv})
		return
	}
	i, ok := o.order.ByPath[strings.TrimSuffix(pagePath, "/")]
	if !ok {
		a.notFound(w, r)
		return
	}
	pv, err := a.page(r, o, i)
	if err != nil {
		a.fail(w, r, err)
		return
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
	dir := path.Dir(o.order.Entries[i].Path)
	return render.Options{
		Link: func(ref render.Ref) (string, bool) {
			switch ref.Kind {
			case "page", "anchor":
				u := ""
				if ref.Page != "" {
					j, ok := o.order.ByID[ref.Page]
					if !ok {
						return "", false
					}
					u = o.pageURL(j)
				}
				if ref.Anchor != "" {
					u += "#" + ref.Anchor
				}
				return u, u != ""
			case "file":
				f, err := o.c.File(ref.File)
				if err != nil {
					return "", false
				}
				return a.res.FileURL(o.space.ID, f), true
			case "url":
				return o.relativeLink(dir, ref.URL), true
			}
			return "", false
		},
		Image: func(ref render.Ref) (render.Image, bool) {
			switch ref.Kind {
			case "file":
				f, err := o.c.File(ref.File)
				if err != nil {
					return render.Image{}, false
				}
				return render.Image{Src: a.res.FileURL(o.space.ID, f), Width: f.Width, Height: f.Height}, true
			case "url":
				return render.Image{Src: ref.URL}, true
			}
			return render.Image{}, false
		},
	}
}

// relativeLink turns a link between pages of a Git export ("../setup.md",
// "guide/README.md#install"), from a page in dir, into the address of the
// page it names, as the reader does; any other URL is kept.
func (o *opened) relativeLink(dir, u string) string {
	if strings.Contains(u, ":") || strings.HasPrefix(u, "/") || strings.HasPrefix(u, "#") {
		return u
	}
	target, anchor, _ := strings.Cut(u, "#")
	if !strings.HasSuffix(target, ".md") {
		return u
	}
	p := path.Clean(path.Join(dir, strings.TrimSuffix(target, ".md")))
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/README"), "README")
	j, ok := o.order.ByPath[p]
	if !ok {
		return u
	}
	out := o.pageURL(j)
	if anchor != "" {
		out += "#" + anchor
	}
	return out
}

// spaceIn reads the path's space and its organization, for the crumbs.
func (a *App) spaceIn(r *http.Request) (*ent.Space, []link, error) {
	ctx := r.Context()
	s, err := a.res.Query().Space(ctx, chi.URLParam(r, "spaceId"), nil, nil)
	if err != nil {
		return nil, nil, err
	}
	o, err := a.res.Space().Organization(ctx, s)
	if err != nil {
		return nil, nil, err
	}
	return s, []link{{Title: o.Title, URL: "/o/" + o.ID}}, nil
}

// space shows a space's current content: its overview, or a page of it.
func (a *App) space(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, crumbs, err := a.spaceIn(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	rev, err := a.res.Space().Revision(ctx, s)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	o, err := a.open(r, s, rev, "/s/"+s.ID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	pagePath := strings.TrimSuffix(chi.URLParam(r, "*"), "/")
	if _, ok := o.order.ByPath[pagePath]; pagePath != "" && !ok {
		// A link or a search hit from before an edit moved the page: the
		// page where it is now, as the reader answers.
		id, err := a.res.MovedPage(ctx, s.ID, pagePath)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if j, ok := o.order.ByID[id]; ok {
			http.Redirect(w, r, o.pageURL(j), http.StatusMovedPermanently)
			return
		}
	}
	a.show(w, r, o, pagePath, s.Title, crumbs, func(cv *contentView) error {
		if c, err := a.res.Space().Parent(ctx, s); err != nil {
			return err
		} else if c != nil {
			cv.Facts = append(cv.Facts, fact{Label: "Collection", Value: c.Title, URL: "/c/" + c.ID})
		}
		cv.Facts = append(cv.Facts, fact{Label: "Visibility", Value: string(s.Visibility)},
			fact{Label: "Pages", Value: itoa(len(o.order.Entries))})
		args, err := window(r, "changes")
		if err != nil {
			return err
		}
		open := enum.ChangeRequestStatusOpen
		crs, err := a.res.Space().ChangeRequests(ctx, s, args.First, args.After, nil, nil, &open, nil)
		if err != nil {
			return err
		}
		l := list{Heading: "Open change requests", ID: "changes", Empty: "No open change requests.",
			More: more(r, "changes", crs.PageInfo)}
		for _, cr := range crs.Nodes() {
			l.Items = append(l.Items, link{Title: "#" + itoa(cr.Number) + " " + subject(cr),
				URL: "/s/" + s.ID + "/~/changes/" + itoa(cr.Number)})
		}
		cv.Lists = append(cv.Lists, l)
		return nil
	})
}

// subject is a change request's title.
func subject(cr *ent.ChangeRequest) string {
	if cr.Subject != "" {
		return cr.Subject
	}
	return "Untitled change request"
}

// changeRequest shows a change request's content, what it changes marked.
func (a *App) changeRequest(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, crumbs, err := a.spaceIn(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	number := chi.URLParam(r, "number")
	if number == "" || strings.Trim(number, "0123456789") != "" {
		// The address names a change request by its number alone.
		a.notFound(w, r)
		return
	}
	cr, err := a.res.ChangeRequestInSpace(ctx, s.ID, number)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	res := a.res.ChangeRequest()
	rev, err := res.Revision(ctx, cr)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	// What it changes is what its content has that the main content had
	// when it last took the main content's changes.
	base, err := res.RevisionMergedAncestor(ctx, cr)
	if err == nil && base == nil {
		base, err = res.RevisionInitial(ctx, cr)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	o, err := a.open(r, s, rev, "/s/"+s.ID+"/~/changes/"+itoa(cr.Number))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	was, err := a.res.RevisionContent(ctx, base)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	var changes []change
	o.marks, changes = diff(content.NewOrder(was.Pages), o)
	crumbs = append(crumbs, link{Title: s.Title, URL: "/s/" + s.ID})
	a.show(w, r, o, chi.URLParam(r, "*"), subject(cr), crumbs, func(cv *contentView) error {
		cv.Facts = append(cv.Facts, fact{Label: "Change request", Value: "#" + itoa(cr.Number)},
			fact{Label: "Status", Value: string(cr.Status)})
		if u, err := res.CreatedBy(ctx, cr); err != nil {
			return err
		} else if u != nil && u.DisplayName != "" {
			cv.Facts = append(cv.Facts, fact{Label: "Opened by", Value: u.DisplayName})
		}
		cv.Changes = changes
		return nil
	})
}

// diff marks the pages of o that differ from was: added, modified (its
// content, or its place), and lists them, with the pages o removed.
func diff(was *content.Order, o *opened) (map[string]string, []change) {
	marks := map[string]string{}
	var out []change
	for i, e := range o.order.Entries {
		p := e.Node.Page
		j, ok := was.ByID[p.ID]
		switch {
		case !ok:
			marks[p.ID] = "Added"
		case !samePage(was.Entries[j].Node.Page, p) || was.Entries[j].Path != e.Path:
			marks[p.ID] = "Modified"
		default:
			continue
		}
		out = append(out, change{link: link{Title: p.Title, Emoji: p.Emoji, URL: o.pageURL(i)}, Mark: marks[p.ID]})
	}
	for _, e := range was.Entries {
		if _, ok := o.order.ByID[e.Node.Page.ID]; !ok {
			out = append(out, change{link: link{Title: e.Node.Page.Title, Emoji: e.Node.Page.Emoji}, Mark: "Removed"})
		}
	}
	return marks, out
}

// samePage reports whether two versions of a page hold the same content.
func samePage(a, b *content.Page) bool {
	return a.Type == b.Type && a.Title == b.Title && a.Slug == b.Slug && a.Emoji == b.Emoji && a.Icon == b.Icon &&
		a.Description == b.Description && a.Markdown == b.Markdown && a.Hidden == b.Hidden && a.NoIndex == b.NoIndex &&
		a.NoRobotsIndex == b.NoRobotsIndex && samePtr(a.Layout, b.Layout) && samePtr(a.Cover, b.Cover) &&
		samePtr(a.Target, b.Target)
}

func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// revision shows a revision of a space: its overview, or a page of it.
func (a *App) revision(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, crumbs, err := a.spaceIn(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	rev, err := a.res.RevisionInSpace(ctx, s.ID, chi.URLParam(r, "revisionId"))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	o, err := a.open(r, s, rev, "/s/"+s.ID+"/~/revisions/"+rev.ID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	crumbs = append(crumbs, link{Title: s.Title, URL: "/s/" + s.ID})
	a.show(w, r, o, chi.URLParam(r, "*"), "Revision "+rev.ID, crumbs, func(cv *contentView) error {
		cv.Facts = append(cv.Facts, fact{Label: "Made", Value: rev.CreatedAt.UTC().Format("January 2, 2006 15:04 UTC")},
			fact{Label: "Kind", Value: string(rev.Type)})
		if rev.Message != nil && *rev.Message != "" {
			cv.Facts = append(cv.Facts, fact{Label: "Message", Value: *rev.Message})
		}
		cv.Facts = append(cv.Facts, fact{Label: "Pages", Value: itoa(len(o.order.Entries))})
		return nil
	})
}
