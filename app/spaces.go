package app

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
)

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
func (a *App) space(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	s, crumbs, err := a.spaceIn(r)
	if err != nil {
		return err
	}
	rev, err := a.res.Space().Revision(ctx, s)
	if err != nil {
		return err
	}
	o, err := a.open(r, s, rev, "/s/"+s.ID)
	if err != nil {
		return err
	}
	pagePath := strings.TrimSuffix(chi.URLParam(r, "*"), "/")
	if _, ok := o.order.ByPath[pagePath]; pagePath != "" && !ok {
		// A link or a search hit from before an edit moved the page: the
		// page where it is now, as the reader answers.
		id, err := a.res.MovedPage(ctx, s.ID, pagePath)
		if err != nil {
			return err
		}
		if j, ok := o.order.ByID[id]; ok {
			http.Redirect(w, r, o.pageURL(j), http.StatusMovedPermanently)
			return nil
		}
	}
	return a.show(w, r, o, pagePath, s.Title, crumbs, func(cv *contentView) error {
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

// revision shows a revision of a space: its overview, or a page of it.
func (a *App) revision(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	s, crumbs, err := a.spaceIn(r)
	if err != nil {
		return err
	}
	rev, err := a.res.RevisionInSpace(ctx, s.ID, chi.URLParam(r, "revisionId"))
	if err != nil {
		return err
	}
	o, err := a.open(r, s, rev, "/s/"+s.ID+"/~/revisions/"+rev.ID)
	if err != nil {
		return err
	}
	crumbs = append(crumbs, link{Title: s.Title, URL: "/s/" + s.ID})
	return a.show(w, r, o, chi.URLParam(r, "*"), "Revision "+rev.ID, crumbs, func(cv *contentView) error {
		cv.Facts = append(cv.Facts, fact{Label: "Made", Value: rev.CreatedAt.UTC().Format("January 2, 2006 15:04 UTC")},
			fact{Label: "Kind", Value: string(rev.Type)})
		if rev.Message != nil && *rev.Message != "" {
			cv.Facts = append(cv.Facts, fact{Label: "Message", Value: *rev.Message})
		}
		cv.Facts = append(cv.Facts, fact{Label: "Pages", Value: itoa(len(o.order.Entries))})
		return nil
	})
}
