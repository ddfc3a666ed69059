package app

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
)

// subject is a change request's title.
func subject(cr *ent.ChangeRequest) string {
	if cr.Subject != "" {
		return cr.Subject
	}
	return "Untitled change request"
}

// changeRequest shows a change request's content, what it changes marked.
func (a *App) changeRequest(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	s, crumbs, err := a.spaceIn(r)
	if err != nil {
		return err
	}
	number := chi.URLParam(r, "number")
	if number == "" || strings.Trim(number, "0123456789") != "" {
		// The address names a change request by its number alone.
		a.notFound(w, r)
		return nil
	}
	cr, err := a.res.ChangeRequestInSpace(ctx, s.ID, number)
	if err != nil {
		return err
	}
	res := a.res.ChangeRequest()
	rev, err := res.Revision(ctx, cr)
	if err != nil {
		return err
	}
	o, err := a.open(r, s, rev, "/s/"+s.ID+"/~/changes/"+itoa(cr.Number))
	if err != nil {
		return err
	}
	pageChanges, err := res.Changes(ctx, cr)
	if err != nil {
		return err
	}
	var changes []change
	o.marks, changes = marked(pageChanges, o)
	crumbs = append(crumbs, link{Title: s.Title, URL: "/s/" + s.ID})
	return a.show(w, r, o, chi.URLParam(r, "*"), subject(cr), crumbs, func(cv *contentView) error {
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

// changeMarks name the kinds of change on the pages' badges.
var changeMarks = map[enum.PageChangeKind]string{
	enum.PageChangeKindAdded: "Added", enum.PageChangeKindModified: "Modified",
	enum.PageChangeKindMoved: "Moved", enum.PageChangeKindRemoved: "Removed",
}

// marked marks the pages of o that a change request changes, and lists
// them with the pages it removes.
func marked(changes []*model.PageChange, o *opened) (map[string]string, []change) {
	marks := map[string]string{}
	out := make([]change, 0, len(changes))
	for _, c := range changes {
		mark := changeMarks[c.Kind]
		l := link{Title: c.Page.Title(), Emoji: c.Page.Node.Page.Emoji}
		if i, ok := o.order.ByID[c.Page.ID()]; ok && c.Kind != enum.PageChangeKindRemoved {
			marks[c.Page.ID()] = mark
			l.URL = o.pageURL(i)
		}
		out = append(out, change{link: l, Mark: mark})
	}
	return marks, out
}
