package rest

import (
	"encoding/json"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
)

// space is the space the path names; shareKey lets in a viewer who was
// given a share link, visitorAuthToken a visitor of a visitor-auth space.
func (p params) space() (*ent.Space, error) {
	return p.a.r.Query().Space(p.ctx(), p.path("spaceId"), p.query("shareKey"), p.query("visitorAuthToken"))
}

// spaceID is the ID of the space the path names, for its writes: the share
// key and visitor JWT the request presents are recorded, so that a reader
// they admit is refused the write (403) rather than not finding the space.
func (p params) spaceID() string {
	id := p.path("spaceId")
	p.a.r.PresentKeys(p.ctx(), id, p.query("shareKey"), p.query("visitorAuthToken"))
	return id
}

type createSpaceBody struct {
	Title          *string         `json:"title" rest:"nonnull"`
	Emoji          *string         `json:"emoji"`
	Parent         *string         `json:"parent"`
	Language       *enum.Language  `json:"language"`
	EditMode       *enum.EditMode  `json:"editMode"`
	Template       json.RawMessage `json:"template" rest:"unsupported"`
	ComputedSource json.RawMessage `json:"computedSource" rest:"unsupported"`
}

func (b *createSpaceBody) input(p params) (model.CreateSpaceInput, error) {
	return model.CreateSpaceInput{
		OrganizationID: p.path("organizationId"), Title: b.Title, ParentID: b.Parent, Language: b.Language,
		EditMode: b.EditMode, Emoji: b.Emoji,
	}, nil
}

type updateSpaceBody struct {
	Title        *string                `json:"title" rest:"nonnull"`
	Emoji        Opt[string]            `json:"emoji"`
	Icon         Opt[string]            `json:"icon"`
	EditMode     Opt[enum.EditMode]     `json:"editMode"`
	DefaultLevel Opt[enum.DefaultLevel] `json:"defaultLevel"`
	Language     Opt[enum.Language]     `json:"language"`
	MergeRules   json.RawMessage        `json:"mergeRules" rest:"unsupported"`
}

func (b *updateSpaceBody) input(p params) (model.UpdateSpaceInput, error) {
	return model.UpdateSpaceInput{
		ID: p.spaceID(), Title: b.Title, Emoji: b.Emoji.Omittable(), Icon: b.Icon.Omittable(),
		EditMode: b.EditMode.Omittable(), DefaultLevel: b.DefaultLevel.Omittable(), Language: b.Language.Omittable(),
	}, nil
}

func (p params) deleteSpace() (model.DeleteSpaceInput, error) {
	return model.DeleteSpaceInput{ID: p.spaceID()}, nil
}

func (p params) duplicateSpace() (model.DuplicateSpaceInput, error) {
	return model.DuplicateSpaceInput{ID: p.path("spaceId")}, nil
}

func (p params) restoreSpace() (model.RestoreSpaceInput, error) {
	return model.RestoreSpaceInput{ID: p.path("spaceId")}, nil
}
