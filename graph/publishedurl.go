package graph

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/search"
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

// A site's search covers the site-spaces the viewer sees in its published
// structure (see publishedContent: members see what a visitor without
// claims sees, unless they present a token), as its scope selects them:
// all of them (ALL, the default), each section's default site-space and
// those named (DEFAULT, the official "default content of each section"),
// or those named (SPECIFIC). Naming a site-space the viewer does not see is
// a 400. Spaces are ranked as an organization's search ranks them, by their
// best page, in two statements whatever the site's size.

// searchSite searches the spaces of a site's site-spaces that the scope
// selects.
func (r *Resolver) searchSite(ctx context.Context, s *ent.Site, text string, scope *model.SiteSearchScopeInput,
	a page.Args) (*model.SearchSpaceResultConnection, error) {
	q, err := search.ParseQuery("query", text)
	if err != nil {
		return nil, err
	}
	view, err := r.PublishedView(ctx, s, nil)
	if err != nil {
		return nil, err
	}
	ids, err := siteSearchSpaces(view, scope)
	if err != nil {
		return nil, err
	}
	drv := r.db(ctx).Driver()
	var ranked []search.SpaceRanked
	if len(ids) > 0 {
		admitted := search.Spaces{Table: space.Table, ID: space.FieldID, Where: []func(*sql.Selector){
			space.IDIn(ids...), live(),
		}}
		if ranked, err = r.search.RankSpaces(ctx, drv, s.OrganizationID, q, admitted); err != nil {
			return nil, err
		}
	}
	window, err := page.PaginateSlice(ranked, searchSpacesOrder, a)
	if err != nil {
		return nil, err
	}
	shown := make([]string, len(window.Edges))
	for i, e := range window.Edges {
		shown[i] = e.Node.SpaceID
	}
	r.spaces.prefetch(ctx, shown)
	best, err := r.search.BestPages(ctx, drv, q, window.Nodes())
	if err != nil {
		return nil, err
	}
	return model.NewSearchSpaceResultConnection(page.Map(window, func(h search.SpaceRanked) *search.SpaceHit {
		return &search.SpaceHit{SpaceID: h.SpaceID, Rank: h.Rank, Pages: best[h.SpaceID]}
	})), nil
}

// siteSearchSpaces returns the IDs of the spaces of the site-spaces a
// scope selects among those the viewer sees, without repeats.
func siteSearchSpaces(view *model.PublishedView, scope *model.SiteSearchScopeInput) ([]string, error) {
	mode, listed, current := model.SiteSearchModeAll, []string(nil), (*string)(nil)
	if scope != nil {
		mode, listed, current = scope.Mode, scope.SiteSpaceIds, scope.CurrentSiteSpace
	}
	var chosen []*model.PublishedSpot
	name := func(field, id string) error {
		sp := view.Spot(id)
		if sp == nil {
			return apperr.Invalid(field, "%q is not a site-space of the site that the viewer sees", id)
		}
		chosen = append(chosen, sp)
		return nil
	}
	switch {
	case mode != model.SiteSearchModeDefault && current != nil:
		return nil, apperr.Invalid("scope.currentSiteSpace", "is only for the mode DEFAULT")
	case mode == model.SiteSearchModeAll && len(listed) > 0:
		return nil, apperr.Invalid("scope.siteSpaceIds", "is only for the modes DEFAULT and SPECIFIC")
	case mode == model.SiteSearchModeSpecific && len(listed) == 0:
		return nil, apperr.Invalid("scope.siteSpaceIds", "must name at least one site-space for the mode SPECIFIC")
	}
	for _, id := range listed {
		if err := name("scope.siteSpaceIds", id); err != nil {
			return nil, err
		}
	}
	if current != nil {
		if err := name("scope.currentSiteSpace", *current); err != nil {
			return nil, err
		}
	}
	for _, sp := range view.Spots {
		if mode == model.SiteSearchModeAll || mode == model.SiteSearchModeDefault && sp.Default {
			chosen = append(chosen, sp)
		}
	}
	var ids []string
	seen := map[string]bool{}
	for _, sp := range chosen {
		if id := sp.SiteSpace.SpaceID; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}
