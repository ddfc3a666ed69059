package rest

import (
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/id"
)

// The bodies that spaces and collections share: moving within an
// organization and transferring to another.

// moveBody is the body of the move operations: at least one of parent and
// position.
type moveBody struct {
	Parent   Opt[string]       `json:"parent"`
	Position Opt[positionBody] `json:"position"`
}

func (b *moveBody) check() error {
	if !b.Parent.Set && !b.Position.Set {
		return apperr.Invalid("", "give a parent, a position or both")
	}
	return nil
}

func (b *moveBody) collectionInput(p params) (model.MoveCollectionInput, error) {
	in := model.MoveCollectionInput{ID: p.path("collectionId"), ParentID: b.Parent.Omittable(), Position: b.Position.Value.input()}
	return in, b.check()
}

func (b *moveBody) spaceInput(p params) (model.MoveSpaceInput, error) {
	in := model.MoveSpaceInput{ID: p.path("spaceId"), ParentID: b.Parent.Omittable(), Position: b.Position.Value.input()}
	return in, b.check()
}

// transferBody is the body of the transfer operations.
type transferBody struct {
	Organization string `json:"organization" rest:"required"`
}

func (b *transferBody) collectionInput(p params) (model.TransferCollectionInput, error) {
	return model.TransferCollectionInput{ID: p.path("collectionId"), OrganizationID: b.Organization}, nil
}

func (b *transferBody) spaceInput(p params) (model.TransferSpaceInput, error) {
	return model.TransferSpaceInput{ID: p.path("spaceId"), OrganizationID: b.Organization}, nil
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
