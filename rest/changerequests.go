package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
)

// changeRequestOf resolves the route's change request, named by its ID or by
// its number in the route's space.
func (a *API) changeRequestOf(r *http.Request) (*ent.ChangeRequest, error) {
	return a.r.ChangeRequestInSpace(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
}

// listChangeRequests lists a space's change requests, newest first. status
// defaults to open.
func (a *API) listChangeRequests(_ http.ResponseWriter, r *http.Request) (response, error) {
	ctx := r.Context()
	args, err := listArgs(r)
	if err != nil {
		return response{}, err
	}
	status := enum.ChangeRequestStatusOpen
	if s := stringParam(r, "status"); s != nil {
		if status, err = enum.ParseChangeRequestStatus(*s); err != nil {
			return response{}, apperr.Invalid("status", "%s", err.Error())
		}
	}
	// The official API also filters by creator; Bindery does not, and says
	// so rather than list change requests of every creator.
	if stringParam(r, "creator") != nil {
		return response{}, apperr.Invalid("creator", "is not supported by this server")
	}
	s, err := a.r.Query().Space(ctx, chi.URLParam(r, "spaceId"), nil)
	if err != nil {
		return response{}, err
	}
	conn, err := a.r.Space().ChangeRequests(ctx, s, args.First, args.After, nil, nil, &status, stringParam(r, "contributor"))
	if err != nil {
		return response{}, err
	}
	l, err := presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount, a.presentChangeRequest)
	return ok(l), err
}

func (a *API) createChangeRequest(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Subject     Opt[string]          `json:"subject"`
		AgentTaskID Opt[json.RawMessage] `json:"agentTaskId"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	if err := unsupported("agentTaskId", body.AgentTaskID); err != nil {
		return response{}, err
	}
	in := model.CreateChangeRequestInput{SpaceID: chi.URLParam(r, "spaceId")}
	var err error
	if in.Subject, err = nonNull("subject", body.Subject); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().CreateChangeRequest(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentChangeRequest(r.Context(), p.ChangeRequest)
	if err != nil {
		return response{}, err
	}
	return created(j, j.URLs.Location), nil
}

func (a *API) getChangeRequest(_ http.ResponseWriter, r *http.Request) (response, error) {
	cr, err := a.changeRequestOf(r)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentChangeRequest(r.Context(), cr)
	return ok(j), err
}

func (a *API) updateChangeRequest(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Subject     Opt[string]                   `json:"subject"`
		Status      Opt[enum.ChangeRequestStatus] `json:"status"`
		Description Opt[json.RawMessage]          `json:"description"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	if err := unsupported("description", body.Description); err != nil {
		return response{}, err
	}
	var in model.UpdateChangeRequestInput
	errs := make([]error, 2)
	in.Subject, errs[0] = nonNull("subject", body.Subject)
	in.Status, errs[1] = nonNull("status", body.Status)
	if err := firstError(errs...); err != nil {
		return response{}, err
	}
	cr, err := a.changeRequestOf(r)
	if err != nil {
		return response{}, err
	}
	in.ID = cr.ID
	p, err := a.r.Mutation().UpdateChangeRequest(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentChangeRequest(r.Context(), p.ChangeRequest)
	return ok(j), err
}

// syncJSON answers a merge or an update.
type syncJSON struct {
	Revision string           `json:"revision"`
	Result   enum.MergeResult `json:"result"`
}

// syncRun merges or updates a change request. It returns the revision made,
// nil on conflicts, and the change request as it is after.
type syncRun func(ctx context.Context, crID string) (enum.MergeResult, *ent.Revision, *ent.ChangeRequest, error)

// syncChangeRequest runs a merge or an update. On conflicts nothing changed:
// the API contract answers {"result": "conflicts"} alone, but the official
// spec requires revision, so revision is the change request's current
// revision, which is what the change request still holds.
func (a *API) syncChangeRequest(run syncRun) handlerFunc {
	return func(_ http.ResponseWriter, r *http.Request) (response, error) {
		if err := decodeBody(r, &struct{}{}); err != nil {
			return response{}, err
		}
		cr, err := a.changeRequestOf(r)
		if err != nil {
			return response{}, err
		}
		result, rev, cr, err := run(r.Context(), cr.ID)
		if err != nil {
			return response{}, err
		}
		j := syncJSON{Result: result, Revision: cr.RevisionID}
		if rev != nil {
			j.Revision = rev.ID
		}
		return ok(j), nil
	}
}

// mergeChangeRequest merges a change request into the main content.
func (a *API) mergeChangeRequest(ctx context.Context, crID string) (enum.MergeResult, *ent.Revision, *ent.ChangeRequest, error) {
	p, err := a.r.Mutation().MergeChangeRequest(ctx, model.MergeChangeRequestInput{ID: crID})
	if err != nil {
		return "", nil, nil, err
	}
	return p.Result, p.Revision, p.ChangeRequest, nil
}

// updateChangeRequestContent brings the main content's changes into a change
// request.
func (a *API) updateChangeRequestContent(ctx context.Context, crID string) (enum.MergeResult, *ent.Revision, *ent.ChangeRequest, error) {
	p, err := a.r.Mutation().SyncChangeRequest(ctx, model.SyncChangeRequestInput{ID: crID})
	if err != nil {
		return "", nil, nil, err
	}
	return p.Result, p.Revision, p.ChangeRequest, nil
}

type pdfJSON struct {
	URL string `json:"url"`
}

// getChangeRequestPDF answers a signed URL of the change request's content
// as a PDF: all of it, a page with its nested pages, or (only) the page alone.
func (a *API) getChangeRequestPDF(_ http.ResponseWriter, r *http.Request) (response, error) {
	only, err := boolParam(r, "only", false)
	if err != nil {
		return response{}, err
	}
	cr, err := a.changeRequestOf(r)
	if err != nil {
		return response{}, err
	}
	u, err := a.r.ChangeRequest().PDFURL(r.Context(), cr, stringParam(r, "page"), &only)
	if err != nil {
		return response{}, err
	}
	return ok(pdfJSON{URL: u}), nil
}

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
	Space                  string                   `json:"space"`
	Revision               string                   `json:"revision"`
	RevisionInitial        string                   `json:"revisionInitial"`
	RevisionMergedAncestor *string                  `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         *string                  `json:"revisionMerged,omitempty"`
	Comments               int                      `json:"comments"`
	Outdated               bool                     `json:"outdated"`
	URLs                   *model.ChangeRequestURLs `json:"urls"`
}

func (a *API) presentChangeRequest(ctx context.Context, cr *ent.ChangeRequest) (changeRequestJSON, error) {
	res := a.r.ChangeRequest()
	j := changeRequestJSON{
		Object: "change-request", ID: cr.ID, Number: cr.Number, Status: cr.Status, Subject: cr.Subject,
		CreatedAt: model.FormatTime(cr.CreatedAt), UpdatedAt: model.FormatTime(cr.UpdatedAt), Space: cr.SpaceID,
		Revision: cr.RevisionID, RevisionInitial: cr.RevisionInitialID,
		RevisionMergedAncestor: cr.RevisionMergedAncestorID, RevisionMerged: cr.RevisionMergedID,
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
