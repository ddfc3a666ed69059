package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

func (a *API) getCollection(_ http.ResponseWriter, r *http.Request) (response, error) {
	c, err := a.r.Query().Collection(r.Context(), chi.URLParam(r, "collectionId"))
	if err != nil {
		return response{}, err
	}
	j, err := a.presentCollection(r.Context(), c)
	return ok(j), err
}

func (a *API) createCollection(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Title  Opt[string] `json:"title"`
		Parent Opt[string] `json:"parent"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	in := model.CreateCollectionInput{OrganizationID: chi.URLParam(r, "organizationId"), ParentID: body.Parent.Ptr()}
	var err error
	if in.Title, err = nonNull("title", body.Title); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().CreateCollection(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentCollection(r.Context(), p.Collection)
	return created(j, j.URLs.Location), err
}

func (a *API) updateCollection(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Title        Opt[string]            `json:"title"`
		Description  Opt[string]            `json:"description"`
		DefaultLevel Opt[enum.DefaultLevel] `json:"defaultLevel"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	in := model.UpdateCollectionInput{
		ID:           chi.URLParam(r, "collectionId"),
		Description:  body.Description.Omittable(),
		DefaultLevel: body.DefaultLevel.Omittable(),
	}
	var err error
	if in.Title, err = nonNull("title", body.Title); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().UpdateCollection(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentCollection(r.Context(), p.Collection)
	return ok(j), err
}

func (a *API) deleteCollection(_ http.ResponseWriter, r *http.Request) (response, error) {
	_, err := a.r.Mutation().DeleteCollection(r.Context(), model.DeleteCollectionInput{ID: chi.URLParam(r, "collectionId")})
	return noContent(), err
}

func (a *API) listCollectionSpaces(_ http.ResponseWriter, r *http.Request) (response, error) {
	ctx := r.Context()
	args, err := listArgs(r)
	if err != nil {
		return response{}, err
	}
	c, err := a.r.Query().Collection(ctx, chi.URLParam(r, "collectionId"))
	if err != nil {
		return response{}, err
	}
	conn, err := a.r.Collection().Spaces(ctx, c, args.First, args.After, nil, nil)
	if err != nil {
		return response{}, err
	}
	l, err := presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount, a.presentSpace)
	return ok(l), err
}

// moveBody is the body of the move operations: at least one of parent and
// position.
type moveBody struct {
	Parent   Opt[string]       `json:"parent"`
	Position Opt[positionBody] `json:"position"`
}

func decodeMove(r *http.Request) (moveBody, *model.ContentPositionInput, error) {
	var body moveBody
	if err := decodeBody(r, &body); err != nil {
		return body, nil, err
	}
	if !body.Parent.Set && !body.Position.Set {
		return body, nil, apperr.Invalid("", "give a parent, a position or both")
	}
	return body, body.Position.Value.input(), nil
}

func (a *API) moveCollection(_ http.ResponseWriter, r *http.Request) (response, error) {
	body, pos, err := decodeMove(r)
	if err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().MoveCollection(r.Context(), model.MoveCollectionInput{
		ID: chi.URLParam(r, "collectionId"), ParentID: body.Parent.Omittable(), Position: pos,
	})
	if err != nil {
		return response{}, err
	}
	j, err := a.presentCollection(r.Context(), p.Collection)
	return ok(j), err
}

// transferBody is the body of the transfer operations.
type transferBody struct {
	Organization string `json:"organization" rest:"required"`
}

func (a *API) transferCollection(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body transferBody
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().TransferCollection(r.Context(), model.TransferCollectionInput{
		ID: chi.URLParam(r, "collectionId"), OrganizationID: body.Organization,
	})
	if err != nil {
		return response{}, err
	}
	j, err := a.presentCollection(r.Context(), p.Collection)
	return ok(j), err
}

// positionBody is the official ContentPosition: before and/or after a
// sibling, each named by a pointer {"type": "space", "space": ID} or
// {"type": "collection", "collection": ID}.
type positionBody struct {
	Before *contentPointer `json:"before"`
	After  *contentPointer `json:"after"`
}

func (p positionBody) input() *model.ContentPositionInput {
	if p.Before == nil && p.After == nil {
		return nil
	}
	in := &model.ContentPositionInput{}
	if p.Before != nil {
		in.Before = &p.Before.id
	}
	if p.After != nil {
		in.After = &p.After.id
	}
	return in
}

type contentPointer struct{ id string }

// UnmarshalJSON checks the pointer's type against its ID.
func (c *contentPointer) UnmarshalJSON(b []byte) error {
	var v struct {
		Type       string `json:"type"`
		Space      string `json:"space"`
		Collection string `json:"collection"`
	}
	if err := strictUnmarshal(b, &v); err != nil {
		return err
	}
	switch {
	case v.Type == "space" && v.Collection == "" && id.PrefixOf(v.Space) == id.Space:
		c.id = v.Space
	case v.Type == "collection" && v.Space == "" && id.PrefixOf(v.Collection) == id.Collection:
		c.id = v.Collection
	default:
		return apperr.Invalid("", `must be {"type": "space", "space": "<space ID>"} or {"type": "collection", "collection": "<collection ID>"}`)
	}
	return nil
}
