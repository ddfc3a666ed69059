package rest

import (
	"encoding/json"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// changeRequest is the change request the path names, by its ID or by its
// number in the path's space.
func (p params) changeRequest() (*ent.ChangeRequest, error) {
	return p.a.r.ChangeRequestInSpace(p.ctx(), p.path("spaceId"), p.path("changeRequestId"))
}

// changeRequests lists the path's space's change requests, newest first.
// status defaults to open.
func (p params) changeRequests(args page.Args) (*model.ChangeRequestConnection, error) {
	status := enum.ChangeRequestStatusOpen
	if s := p.query("status"); s != nil {
		var err error
		if status, err = enum.ParseChangeRequestStatus(*s); err != nil {
			return nil, apperr.Invalid("status", "%s", err.Error())
		}
	}
	// The official API also filters by creator; Bindery does not, and says
	// so rather than list change requests of every creator.
	if p.query("creator") != nil {
		return nil, apperr.Invalid("creator", "is not supported by this server")
	}
	s, err := p.a.r.Query().Space(p.ctx(), p.path("spaceId"), nil, nil)
	if err != nil {
		return nil, err
	}
	return p.a.r.Space().ChangeRequests(p.ctx(), s, args.First, args.After, nil, nil, &status, p.query("contributor"))
}

type createChangeRequestBody struct {
	Subject     *string         `json:"subject" rest:"nonnull"`
	AgentTaskID json.RawMessage `json:"agentTaskId" rest:"unsupported"`
}

func (b *createChangeRequestBody) input(p params) (model.CreateChangeRequestInput, error) {
	return model.CreateChangeRequestInput{SpaceID: p.path("spaceId"), Subject: b.Subject}, nil
}

type updateChangeRequestBody struct {
	Subject     *string                   `json:"subject" rest:"nonnull"`
	Status      *enum.ChangeRequestStatus `json:"status" rest:"nonnull"`
	Description json.RawMessage           `json:"description" rest:"unsupported"`
}

func (b *updateChangeRequestBody) input(p params) (model.UpdateChangeRequestInput, error) {
	cr, err := p.changeRequest()
	if err != nil {
		return model.UpdateChangeRequestInput{}, err
	}
	return model.UpdateChangeRequestInput{ID: cr.ID, Subject: b.Subject, Status: b.Status}, nil
}

// mergeChangeRequest merges the path's change request into the main
// content.
func (p params) mergeChangeRequest() (model.MergeChangeRequestInput, error) {
	cr, err := p.changeRequest()
	if err != nil {
		return model.MergeChangeRequestInput{}, err
	}
	return model.MergeChangeRequestInput{ID: cr.ID}, nil
}

// syncChangeRequest brings the main content's changes into the path's
// change request.
func (p params) syncChangeRequest() (model.SyncChangeRequestInput, error) {
	cr, err := p.changeRequest()
	if err != nil {
		return model.SyncChangeRequestInput{}, err
	}
	return model.SyncChangeRequestInput{ID: cr.ID}, nil
}

// changeRequestPDF is a signed URL of the path's change request's content
// as a PDF: all of it, a page with its nested pages, or (only) the page
// alone.
func (p params) changeRequestPDF() (string, error) {
	only, err := p.bool("only", false)
	if err != nil {
		return "", err
	}
	cr, err := p.changeRequest()
	if err != nil {
		return "", err
	}
	return p.a.r.ChangeRequest().PDFURL(p.ctx(), cr, p.query("page"), &only)
}
