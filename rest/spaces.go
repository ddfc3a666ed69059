package rest

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
)

func (a *API) getSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	s, err := a.r.Query().Space(r.Context(), chi.URLParam(r, "spaceId"), stringParam(r, "shareKey"))
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), s)
	return ok(j), err
}

func (a *API) createSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Title          Opt[string]          `json:"title"`
		Emoji          Opt[string]          `json:"emoji"`
		Parent         Opt[string]          `json:"parent"`
		Language       Opt[enum.Language]   `json:"language"`
		EditMode       Opt[enum.EditMode]   `json:"editMode"`
		Template       Opt[json.RawMessage] `json:"template"`
		ComputedSource Opt[json.RawMessage] `json:"computedSource"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	if err := firstError(unsupported("template", body.Template), unsupported("computedSource", body.ComputedSource)); err != nil {
		return response{}, err
	}
	in := model.CreateSpaceInput{
		OrganizationID: chi.URLParam(r, "organizationId"),
		ParentID:       body.Parent.Ptr(),
		Language:       body.Language.Ptr(),
		EditMode:       body.EditMode.Ptr(),
		Emoji:          body.Emoji.Ptr(),
	}
	var err error
	if in.Title, err = nonNull("title", body.Title); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().CreateSpace(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), p.Space)
	return created(j, j.URLs.Location), err
}

func (a *API) updateSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Title        Opt[string]            `json:"title"`
		Emoji        Opt[string]            `json:"emoji"`
		Icon         Opt[string]            `json:"icon"`
		EditMode     Opt[enum.EditMode]     `json:"editMode"`
		DefaultLevel Opt[enum.DefaultLevel] `json:"defaultLevel"`
		Language     Opt[enum.Language]     `json:"language"`
		MergeRules   Opt[json.RawMessage]   `json:"mergeRules"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	if err := unsupported("mergeRules", body.MergeRules); err != nil {
		return response{}, err
	}
	in := model.UpdateSpaceInput{
		ID:           chi.URLParam(r, "spaceId"),
		Emoji:        body.Emoji.Omittable(),
		Icon:         body.Icon.Omittable(),
		EditMode:     body.EditMode.Omittable(),
		DefaultLevel: body.DefaultLevel.Omittable(),
		Language:     body.Language.Omittable(),
	}
	var err error
	if in.Title, err = nonNull("title", body.Title); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().UpdateSpace(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), p.Space)
	return ok(j), err
}

func (a *API) deleteSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	_, err := a.r.Mutation().DeleteSpace(r.Context(), model.DeleteSpaceInput{ID: chi.URLParam(r, "spaceId")})
	return noContent(), err
}

func (a *API) duplicateSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	if err := decodeBody(r, &struct{}{}); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().DuplicateSpace(r.Context(), model.DuplicateSpaceInput{ID: chi.URLParam(r, "spaceId")})
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), p.Space)
	return created(j, j.URLs.Location), err
}

func (a *API) restoreSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	if err := decodeBody(r, &struct{}{}); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().RestoreSpace(r.Context(), model.RestoreSpaceInput{ID: chi.URLParam(r, "spaceId")})
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), p.Space)
	return ok(j), err
}

func (a *API) moveSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	body, pos, err := decodeMove(r)
	if err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().MoveSpace(r.Context(), model.MoveSpaceInput{
		ID: chi.URLParam(r, "spaceId"), ParentID: body.Parent.Omittable(), Position: pos,
	})
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), p.Space)
	return ok(j), err
}

func (a *API) transferSpace(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body transferBody
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	p, err := a.r.Mutation().TransferSpace(r.Context(), model.TransferSpaceInput{
		ID: chi.URLParam(r, "spaceId"), OrganizationID: body.Organization,
	})
	if err != nil {
		return response{}, err
	}
	j, err := a.presentSpace(r.Context(), p.Space)
	return ok(j), err
}
