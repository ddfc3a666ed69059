package app

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/content"
)

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
