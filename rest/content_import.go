package rest

import (
	"context"

	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
)

// importBody imports content from a URL into the main content of a space
// or into a change request.
type importBody struct {
	URL    string            `json:"url" rest:"required"`
	Source enum.ImportSource `json:"source" rest:"required"`
}

func (b *importBody) spaceInput(p params) (model.ImportContentInput, error) {
	id := p.path("spaceId")
	return model.ImportContentInput{SpaceID: &id, URL: b.URL, Source: b.Source}, nil
}

func (b *importBody) changeRequestInput(p params) (model.ImportContentInput, error) {
	cr, err := p.changeRequest()
	if err != nil {
		return model.ImportContentInput{}, err
	}
	return model.ImportContentInput{ChangeRequestID: &cr.ID, URL: b.URL, Source: b.Source}, nil
}

type importJSON struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
	// revisionAddress is the new revision's /v1 address, which the 201
	// answers as its Location.
	revisionAddress string
}

func (j importJSON) location() string { return j.revisionAddress }

func (a *API) presentImport(ctx context.Context, p *model.ImportContentPayload) (importJSON, error) {
	urls, err := a.r.Revision().Urls(ctx, p.Revision)
	if err != nil {
		return importJSON{}, err
	}
	return importJSON{
		Revision: p.Revision.ID, ImportedResources: p.ImportedResources, TotalResources: p.TotalResources,
		revisionAddress: urls.Location,
	}, nil
}
