package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/openapi"
	"github.com/bindery/bindery/internal/page"
)

// openAPISpecs lists the specs of the path's organization.
func (p params) openAPISpecs(args page.Args) (*model.OpenAPISpecConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().OpenAPISpecs(p.ctx(), o, args.First, args.After, nil, nil)
}

// openAPISpec is the spec the path's slug names, in the path's
// organization.
func (p params) openAPISpec() (*ent.OpenAPISpec, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().OpenAPISpec(p.ctx(), o, p.path("specSlug"))
}

func (p params) deleteOpenAPISpec() (model.DeleteOpenAPISpecInput, error) {
	s, err := p.openAPISpec()
	if err != nil {
		return model.DeleteOpenAPISpecInput{}, err
	}
	return model.DeleteOpenAPISpecInput{ID: s.ID}, nil
}

// specSourceBody is the official OpenAPISpecSource: {url} or {text}.
type specSourceBody struct {
	URL  *string `json:"url"`
	Text *string `json:"text"`
}

func (b *specSourceBody) input() *model.OpenAPISpecSourceInput {
	if b == nil {
		return nil
	}
	return &model.OpenAPISpecSourceInput{URL: b.URL, Text: b.Text}
}

type createSpecBody struct {
	Slug   string          `json:"slug" rest:"required"`
	Source *specSourceBody `json:"source" rest:"required"`
}

func (b *createSpecBody) input(p params) (model.CreateOpenAPISpecInput, error) {
	return model.CreateOpenAPISpecInput{OrganizationID: p.path("organizationId"), Slug: b.Slug, Source: b.Source.input()}, nil
}

type putSpecBody struct {
	Source *specSourceBody `json:"source" rest:"required"`
}

func (b *putSpecBody) input(p params) (model.PutOpenAPISpecInput, error) {
	o, err := p.organization()
	if err != nil {
		return model.PutOpenAPISpecInput{}, err
	}
	return model.PutOpenAPISpecInput{OrganizationID: o.ID, Slug: p.path("specSlug"), Source: b.Source.input()}, nil
}

func specCreated(p *model.PutOpenAPISpecPayload) bool { return p.Created }

type openAPISpecJSON struct {
	Object               string                               `json:"object"`
	ID                   string                               `json:"id"`
	CreatedAt            string                               `json:"createdAt"`
	UpdatedAt            string                               `json:"updatedAt"`
	Slug                 string                               `json:"slug"`
	SourceURL            *string                              `json:"sourceURL,omitempty"`
	ProcessingState      enum.OpenAPISpecProcessingState      `json:"processingState"`
	Visibility           enum.OpenAPISpecVisibility           `json:"visibility"`
	LastVersion          string                               `json:"lastVersion,omitempty"`
	LastProcessedAt      string                               `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode *enum.OpenAPISpecProcessingErrorCode `json:"lastProcessErrorCode,omitempty"`
	LastProcessedErrors  []openapi.Error                      `json:"lastProcessedErrors,omitempty"`
	Permissions          *authz.EditPermissions               `json:"permissions"`
	URLs                 *model.OpenAPISpecURLs               `json:"urls"`
}

func (j openAPISpecJSON) location() string { return j.URLs.Location }

func (a *API) presentOpenAPISpec(ctx context.Context, s *ent.OpenAPISpec) (openAPISpecJSON, error) {
	res := a.r.OpenAPISpec()
	j := openAPISpecJSON{Object: "openapi-spec", ID: s.ID, CreatedAt: model.FormatTime(s.CreatedAt),
		UpdatedAt: model.FormatTime(s.UpdatedAt), Slug: s.Slug, SourceURL: s.SourceURL, ProcessingState: s.ProcessingState,
		Visibility: s.Visibility, LastProcessErrorCode: s.LastProcessErrorCode, LastProcessedErrors: s.LastProcessedErrors}
	if s.LastProcessedAt != nil {
		j.LastProcessedAt = model.FormatTime(*s.LastProcessedAt)
	}
	v, err := res.LastVersion(ctx, s)
	if err != nil {
		return j, err
	}
	if v != nil {
		j.LastVersion = v.ID
	}
	if j.Permissions, err = res.Permissions(ctx, s); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, s)
	return j, err
}
