package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// samlProviders lists the SAML providers of the path's organization.
func (p params) samlProviders(args page.Args) (*model.SAMLProviderConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().SamlProviders(p.ctx(), o, args.First, args.After, nil, nil)
}

// samlProvider is the SAML provider the path names, in the path's
// organization.
func (p params) samlProvider() (*ent.SAMLProvider, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().SamlProvider(p.ctx(), o, p.path("samlProviderId"))
}

func (p params) deleteSAMLProvider() (model.DeleteSAMLProviderInput, error) {
	s, err := p.samlProvider()
	if err != nil {
		return model.DeleteSAMLProviderInput{}, err
	}
	return model.DeleteSAMLProviderInput{ID: s.ID}, nil
}

// ssoProviders lists the sign-in providers of the path's organization.
func (p params) ssoProviders() ([]*model.SSOProviderLogin, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().SsoProviders(p.ctx(), o)
}

type createSAMLBody struct {
	Label       string         `json:"label" rest:"required"`
	EntityID    *string        `json:"entityID" rest:"nonnull"`
	Certificate *string        `json:"certificate" rest:"nonnull"`
	SSOURL      *string        `json:"ssoURL" rest:"nonnull"`
	DefaultTeam *string        `json:"defaultTeam" rest:"nonnull"`
	DefaultRole Opt[enum.Role] `json:"defaultRole"`
}

func (b *createSAMLBody) input(p params) (model.CreateSAMLProviderInput, error) {
	return model.CreateSAMLProviderInput{OrganizationID: p.path("organizationId"), Label: b.Label, EntityID: b.EntityID,
		Certificate: b.Certificate, SsoURL: b.SSOURL, DefaultTeamID: b.DefaultTeam, DefaultRole: b.DefaultRole.Ptr()}, nil
}

type updateSAMLBody struct {
	Label       *string        `json:"label" rest:"nonnull"`
	EntityID    Opt[string]    `json:"entityID"`
	Certificate Opt[string]    `json:"certificate"`
	SSOURL      Opt[string]    `json:"ssoURL"`
	DefaultTeam Opt[string]    `json:"defaultTeam"`
	DefaultRole Opt[enum.Role] `json:"defaultRole"`
}

func (b *updateSAMLBody) input(p params) (model.UpdateSAMLProviderInput, error) {
	s, err := p.samlProvider()
	if err != nil {
		return model.UpdateSAMLProviderInput{}, err
	}
	return model.UpdateSAMLProviderInput{ID: s.ID, Label: b.Label, EntityID: b.EntityID.Omittable(),
		Certificate: b.Certificate.Omittable(), SsoURL: b.SSOURL.Omittable(), DefaultTeamID: b.DefaultTeam.Omittable(),
		DefaultRole: b.DefaultRole.Omittable()}, nil
}

type samlJSON struct {
	Object      string                     `json:"object"`
	ID          string                     `json:"id"`
	Label       string                     `json:"label"`
	SSOURL      string                     `json:"ssoURL"`
	EntityID    string                     `json:"entityID"`
	Certificate string                     `json:"certificate"`
	DefaultTeam *teamJSON                  `json:"defaultTeam,omitempty"`
	DefaultRole *enum.Role                 `json:"defaultRole"`
	CreatedAt   string                     `json:"createdAt"`
	Status      enum.SAMLProviderStatus    `json:"status"`
	Service     *model.SAMLServiceProvider `json:"service"`
	URLs        *model.SAMLProviderURLs    `json:"urls"`
}

func (j samlJSON) location() string { return j.URLs.Location }

func (a *API) presentSAMLProvider(ctx context.Context, s *ent.SAMLProvider) (samlJSON, error) {
	res := a.r.SAMLProvider()
	j := samlJSON{Object: "saml-provider", ID: s.ID, Label: s.Label, SSOURL: deref(s.SSOURL), EntityID: deref(s.EntityID),
		Certificate: deref(s.Certificate), DefaultRole: s.DefaultRole, CreatedAt: model.FormatTime(s.CreatedAt), Status: s.Status}
	t, err := res.DefaultTeam(ctx, s)
	if err != nil {
		return j, err
	}
	if t != nil {
		tj, err := a.presentTeam(ctx, t)
		if err != nil {
			return j, err
		}
		j.DefaultTeam = &tj
	}
	if j.Service, err = res.Service(ctx, s); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, s)
	return j, err
}

type ssoJSON struct {
	Items []*model.SSOProviderLogin `json:"items"`
}

func (a *API) presentSSO(_ context.Context, ps []*model.SSOProviderLogin) (ssoJSON, error) {
	return ssoJSON{Items: ps}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
