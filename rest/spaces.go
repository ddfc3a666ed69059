package rest

import (
	"encoding/json"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
)

// space is the space the path names; shareKey lets in a viewer who was
// given a share link.
func (p params) space() (*ent.Space, error) {
	return p.a.r.Query().Space(p.ctx(), p.path("spaceId"), p.query("shareKey"))
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
		ID: p.path("spaceId"), Title: b.Title, Emoji: b.Emoji.Omittable(), Icon: b.Icon.Omittable(),
		EditMode: b.EditMode.Omittable(), DefaultLevel: b.DefaultLevel.Omittable(), Language: b.Language.Omittable(),
	}, nil
}

func (p params) deleteSpace() (model.DeleteSpaceInput, error) {
	return model.DeleteSpaceInput{ID: p.path("spaceId")}, nil
}

func (p params) duplicateSpace() (model.DuplicateSpaceInput, error) {
	return model.DuplicateSpaceInput{ID: p.path("spaceId")}, nil
}

func (p params) restoreSpace() (model.RestoreSpaceInput, error) {
	return model.RestoreSpaceInput{ID: p.path("spaceId")}, nil
}
