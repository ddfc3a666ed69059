package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

// siteRedirects lists the redirects of the path's site.
func (p params) siteRedirects(args page.Args) (*model.SiteRedirectConnection, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.Site().Redirects(p.ctx(), s, args.First, args.After, nil, nil)
}

// siteRedirect is the redirect the path names, in the path's site.
func (p params) siteRedirect() (*ent.SiteRedirect, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.SiteRedirectOf(p.ctx(), s.ID, p.path("siteRedirectId"))
}

// siteRedirectBySource resolves the query's source in the path's site: a
// 404 when no redirect has it. shareKey admits a reader of a share-link
// site (see params.site).
func (p params) siteRedirectBySource() (*model.SiteRedirectResolution, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	res, err := p.a.r.Site().Redirect(p.ctx(), s, deref(p.query("source")), p.query("shareKey"))
	if err == nil && res == nil {
		return nil, apperr.NotFoundf("No redirect of the site has this source")
	}
	return res, err
}

func (p params) deleteSiteRedirect() (model.DeleteSiteRedirectInput, error) {
	x, err := p.siteRedirect()
	if err != nil {
		return model.DeleteSiteRedirectInput{}, err
	}
	return model.DeleteSiteRedirectInput{ID: x.ID}, nil
}

// siteRedirectDestinationJSON is the official SiteRedirectDestination, in
// bodies and answers, with Bindery's kind url beyond it ({"kind": "url",
// "url"}: a product decision; rest/openapi.json describes it as
// SiteRedirectDestinationURL, marked x-bindery-extension).
type siteRedirectDestinationJSON struct {
	Kind          string  `json:"kind"`
	SiteSectionID *string `json:"siteSectionId,omitempty"`
	SiteSpaceID   *string `json:"siteSpaceId,omitempty"`
	PageID        *string `json:"pageId,omitempty"`
	URL           *string `json:"url,omitempty"`
}

func (d *siteRedirectDestinationJSON) input() *model.SiteRedirectDestinationInput {
	if d == nil {
		return nil
	}
	return &model.SiteRedirectDestinationInput{Kind: d.Kind, SiteSectionID: d.SiteSectionID, SiteSpaceID: d.SiteSpaceID,
		PageID: d.PageID, URL: d.URL}
}

type createSiteRedirectBody struct {
	Source      string                       `json:"source" rest:"required"`
	Destination *siteRedirectDestinationJSON `json:"destination" rest:"required"`
}

func (b *createSiteRedirectBody) input(p params) (model.CreateSiteRedirectInput, error) {
	s, err := p.site()
	if err != nil {
		return model.CreateSiteRedirectInput{}, err
	}
	return model.CreateSiteRedirectInput{SiteID: s.ID, Source: b.Source, Destination: b.Destination.input()}, nil
}

type updateSiteRedirectBody struct {
	Source      *string                      `json:"source" rest:"nonnull"`
	Destination *siteRedirectDestinationJSON `json:"destination" rest:"nonnull"`
}

func (b *updateSiteRedirectBody) input(p params) (model.UpdateSiteRedirectInput, error) {
	x, err := p.siteRedirect()
	if err != nil {
		return model.UpdateSiteRedirectInput{}, err
	}
	return model.UpdateSiteRedirectInput{ID: x.ID, Source: b.Source, Destination: b.Destination.input()}, nil
}

// siteRedirectJSON is the official SiteRedirect.
type siteRedirectJSON struct {
	Object      string                      `json:"object"`
	ID          string                      `json:"id"`
	Source      string                      `json:"source"`
	Destination siteRedirectDestinationJSON `json:"destination"`
	address     string
}

func (j siteRedirectJSON) location() string { return j.address }

func (a *API) presentSiteRedirect(ctx context.Context, x *ent.SiteRedirect) (siteRedirectJSON, error) {
	d, err := a.r.SiteRedirect().Destination(ctx, x)
	if err != nil {
		return siteRedirectJSON{}, err
	}
	address, err := a.r.SitePartLocation(ctx, x.SiteID, "redirects", x.ID)
	if err != nil {
		return siteRedirectJSON{}, err
	}
	return siteRedirectJSON{address: address, Object: "site-redirect", ID: x.ID, Source: x.Source,
		Destination: siteRedirectDestinationJSON{Kind: d.Kind, SiteSectionID: d.SiteSectionID, SiteSpaceID: d.SiteSpaceID,
			PageID: d.PageID, URL: d.URL}}, nil
}

// siteRedirectResolutionJSON is the answer of resolving a source.
type siteRedirectResolutionJSON struct {
	Redirect siteRedirectJSON `json:"redirect"`
	Target   string           `json:"target"`
}

func (a *API) presentSiteRedirectResolution(ctx context.Context, res *model.SiteRedirectResolution) (siteRedirectResolutionJSON, error) {
	j, err := a.presentSiteRedirect(ctx, res.Redirect)
	return siteRedirectResolutionJSON{Redirect: j, Target: res.Target}, err
}
