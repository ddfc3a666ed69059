package graph

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/validate"
)

// A site's visitor authentication settings: its signing key, which its
// admins read (the official SitePublishingAuth shows it) and rotate
// (rotateSiteVisitorAuthKey), and its fallback URL, where the reader sends
// a visitor without a valid token, which its admins set once it has a key.
// The fallback URL is an absolute http or https URL of at most 2048
// characters (the field's own validator, checked before the write so that
// the error names the input's member).

// urlLimit is the field rule of a site's fallback URL (the ent schema's
// validator): an absolute http or https URL of at most 2048 characters.
var urlLimit = validate.URL(2048)

// siteVisitorAuthKey is a site's visitor signing key, for its admins; nil
// while it has none.
func (r *Resolver) siteVisitorAuthKey(ctx context.Context, s *ent.Site) (*string, error) {
	x, _, err := r.sites.authorize(ctx, s.ID, authz.Update)
	if err != nil {
		return nil, err
	}
	return x.VisitorAuthPrivateKey, nil
}

// updateSiteVisitorAuth sets or removes a site's fallback URL.
func (r *Resolver) updateSiteVisitorAuth(ctx context.Context, in model.UpdateSiteVisitorAuthInput) (*ent.Site, error) {
	fallback := in.FallbackURL.Value()
	if fallback != nil {
		if err := check("fallbackURL", urlLimit, *fallback); err != nil {
			return nil, err
		}
	}
	return mutate(ctx, r, r.sites, in.SiteID, authz.Update, func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.Site, error) {
		if s.VisitorAuthPrivateKey == nil {
			return nil, apperr.Preconditionf("The site has no visitor signing key yet: rotate one first " +
				"(rotateSiteVisitorAuthKey, POST .../publishing/auth/regenerate)")
		}
		if !in.FallbackURL.IsSet() {
			return s, nil
		}
		u := s.Update()
		if fallback == nil {
			u.ClearVisitorAuthFallbackURL()
		} else {
			u.SetVisitorAuthFallbackURL(*fallback)
		}
		return u.Save(internal(ctx, "the site its admin changes"))
	})
}
