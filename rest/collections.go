package rest

import (
	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// collection is the collection the path names.
func (p params) collection() (*ent.Collection, error) {
	return p.a.r.Query().Collection(p.ctx(), p.path("collectionId"))
}

// collectionSpaces lists the spaces of the path's collection.
func (p params) collectionSpaces(args page.Args) (*model.SpaceConnection, error) {
	c, err := p.collection()
	if err != nil {
		return nil, err
	}
	return p.a.r.Collection().Spaces(p.ctx(), c, args.First, args.After, nil, nil)
}

type createCollectionBody struct {
	Title  *string `json:"title" rest:"nonnull"`
	Parent *string `json:"parent"`
}

func (b *createCollectionBody) input(p params) (model.CreateCollectionInput, error) {
	return model.CreateCollectionInput{OrganizationID: p.path("organizationId"), Title: b.Title, ParentID: b.Parent}, nil
}

type updateCollectionBody struct {
	Title        *string                `json:"title" rest:"nonnull"`
	Description  Opt[string]            `json:"description"`
	DefaultLevel Opt[enum.DefaultLevel] `json:"defaultLevel"`
}

func (b *updateCollectionBody) input(p params) (model.UpdateCollectionInput, error) {
	return model.UpdateCollectionInput{
		ID: p.path("collectionId"), Title: b.Title, Description: b.Description.Omittable(), DefaultLevel: b.DefaultLevel.Omittable(),
	}, nil
}

func (p params) deleteCollection() (model.DeleteCollectionInput, error) {
	return model.DeleteCollectionInput{ID: p.path("collectionId")}, nil
}
