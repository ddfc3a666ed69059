package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
)

// A site's visitor authentication settings (.../sites/{siteId}/publishing/auth),
// through the resolvers GraphQL calls (graph/publishedurl.go).

// sitePublishingAuth is the path's site, whose visitor authentication its
// admins read: a 404 while it has no signing key, since the official
// SitePublishingAuth always shows one.
func (p params) sitePublishingAuth() (*ent.Site, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	key, err := p.a.r.Site().VisitorAuthKey(p.ctx(), s)
	if err == nil && key == nil {
		return nil, apperr.NotFoundf("The site has no visitor signing key: POST .../publishing/auth/regenerate gives it one")
	}
	return s, err
}

// rotateSiteVisitorKey gives the path's site a new signing key.
func (p params) rotateSiteVisitorKey() (model.RotateSiteVisitorAuthKeyInput, error) {
	s, err := p.site()
	if err != nil {
		return model.RotateSiteVisitorAuthKeyInput{}, err
	}
	return model.RotateSiteVisitorAuthKeyInput{SiteID: s.ID}, nil
}

// updatePublishingAuthBody is the official SitePublishingAuthUpdate. Its
// backend is "custom", the only one Bindery has (its visitors' tokens are
// signed with the site's key), and may be left out.
type updatePublishingAuthBody struct {
	Backend     *string     `json:"backend" rest:"nonnull"`
	FallbackURL Opt[string] `json:"fallbackURL"`
}

func (b *updatePublishingAuthBody) input(p params) (model.UpdateSiteVisitorAuthInput, error) {
	s, err := p.site()
	if err != nil {
		return model.UpdateSiteVisitorAuthInput{}, err
	}
	if b.Backend != nil && *b.Backend != "custom" {
		return model.UpdateSiteVisitorAuthInput{}, apperr.Invalid("backend",
			`must be "custom": Bindery has no authenticated-access integrations`)
	}
	return model.UpdateSiteVisitorAuthInput{SiteID: s.ID, FallbackURL: b.FallbackURL.Omittable()}, nil
}

// sitePublishingAuthJSON is the official SitePublishingAuth, with the
// custom backend.
type sitePublishingAuthJSON struct {
	Object      string  `json:"object"`
	Backend     string  `json:"backend"`
	PrivateKey  string  `json:"privateKey"`
	FallbackURL *string `json:"fallbackURL,omitempty"`
}

func (a *API) presentSitePublishingAuth(ctx context.Context, s *ent.Site) (sitePublishingAuthJSON, error) {
	key, err := a.r.Site().VisitorAuthKey(ctx, s)
	if err != nil {
		return sitePublishingAuthJSON{}, err
	}
	if key == nil {
		return sitePublishingAuthJSON{}, apperr.NotFoundf("The site has no visitor signing key")
	}
	return sitePublishingAuthJSON{Object: "publishing-auth", Backend: "custom", PrivateKey: *key,
		FallbackURL: s.VisitorAuthFallbackURL}, nil
}
