package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
)

// changeRequestJSON is the official ChangeRequest. description, a JSON
// document, is absent: Bindery's change requests have none.
type changeRequestJSON struct {
	Object  string                   `json:"object"`
	ID      string                   `json:"id"`
	Number  int                      `json:"number"`
	Status  enum.ChangeRequestStatus `json:"status"`
	Subject string                   `json:"subject"`
	// CreatedBy is required by the spec, but absent when the author's
	// account is gone: there is no one to present.
	CreatedBy              *userJSON                `json:"createdBy,omitempty"`
	CreatedAt              string                   `json:"createdAt"`
	UpdatedAt              string                   `json:"updatedAt"`
	Space                  string                   `json:"space,omitempty"`
	Revision               string                   `json:"revision,omitempty"`
	RevisionInitial        string                   `json:"revisionInitial,omitempty"`
	RevisionMergedAncestor string                   `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         string                   `json:"revisionMerged,omitempty"`
	Comments               int                      `json:"comments"`
	Outdated               bool                     `json:"outdated"`
	URLs                   *model.ChangeRequestURLs `json:"urls"`
}

func (j changeRequestJSON) location() string { return j.URLs.Location }

func (a *API) presentChangeRequest(ctx context.Context, cr *ent.ChangeRequest) (changeRequestJSON, error) {
	res := a.r.ChangeRequest()
	j := changeRequestJSON{
		Object: "change-request", ID: cr.ID, Number: cr.Number, Status: cr.Status, Subject: cr.Subject,
		CreatedAt: model.FormatTime(cr.CreatedAt), UpdatedAt: model.FormatTime(cr.UpdatedAt),
	}
	s, err := res.Space(ctx, cr)
	if err != nil {
		return j, err
	}
	j.Space = idOf(s)
	// Whoever sees the change request sees its revisions: they are
	// presented by ID without loading them.
	for _, rel := range []struct {
		id  *string
		rev *string
	}{
		{&j.Revision, &cr.RevisionID}, {&j.RevisionInitial, &cr.RevisionInitialID},
		{&j.RevisionMergedAncestor, cr.RevisionMergedAncestorID}, {&j.RevisionMerged, cr.RevisionMergedID},
	} {
		if *rel.id, err = a.r.VisibleRevisionID(ctx, cr.SpaceID, rel.rev); err != nil {
			return j, err
		}
	}
	u, err := res.CreatedBy(ctx, cr)
	if err != nil {
		return j, err
	}
	if u != nil {
		uj, err := a.presentUser(ctx, u)
		if err != nil {
			return j, err
		}
		j.CreatedBy = &uj
	}
	if j.Comments, err = res.CommentCount(ctx, cr); err != nil {
		return j, err
	}
	if j.Outdated, err = res.Outdated(ctx, cr); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, cr)
	return j, err
}

// syncJSON answers a merge or an update.
type syncJSON struct {
	Revision string           `json:"revision"`
	Result   enum.MergeResult `json:"result"`
}

func (a *API) presentMerge(ctx context.Context, p *model.MergeChangeRequestPayload) (syncJSON, error) {
	return a.presentSyncResult(ctx, p.Result, p.Revision, p.ChangeRequest)
}

func (a *API) presentSync(ctx context.Context, p *model.SyncChangeRequestPayload) (syncJSON, error) {
	return a.presentSyncResult(ctx, p.Result, p.Revision, p.ChangeRequest)
}

// presentSyncResult presents a merge or an update: the revision it made.
// On conflicts nothing changed and there is none: the API contract answers
// {"result": "conflicts"} alone, but the official spec requires revision,
// so revision is the change request's current revision, which is what the
// change request still holds.
func (a *API) presentSyncResult(ctx context.Context, result enum.MergeResult, rev *ent.Revision, cr *ent.ChangeRequest) (syncJSON, error) {
	if rev == nil {
		var err error
		if rev, err = a.r.ChangeRequest().Revision(ctx, cr); err != nil {
			return syncJSON{}, err
		}
	}
	return syncJSON{Result: result, Revision: idOf(rev)}, nil
}

type pdfJSON struct {
	URL string `json:"url"`
}

func (a *API) presentPDF(_ context.Context, url string) (pdfJSON, error) {
	return pdfJSON{URL: url}, nil
}
