package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// sites lists the sites of the path's organization: space, title, published
// and type (repeated, type=basic&type=premium) filter.
func (p params) sites(args page.Args) (*model.SiteConnection, error) {
	var published *bool
	if p.query("published") != nil {
		b, err := p.bool("published", false)
		if err != nil {
			return nil, err
		}
		published = &b
	}
	var types []enum.SiteType
	for _, s := range p.r.URL.Query()["type"] {
		t, err := enum.ParseSiteType(s)
		if err != nil {
			return nil, apperr.Invalid("type", "%v", err)
		}
		types = append(types, t)
	}
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Sites(p.ctx(), o, args.First, args.After, nil, nil, p.query("space"), p.query("title"), published, types)
}

// site is the site the path names, in the path's organization. shareKey
// and visitorAuthToken admit the readers of a published site who are not
// members (see Query.site): every site path takes them.
func (p params) site() (*ent.Site, error) {
	s, err := p.a.r.Query().Site(p.ctx(), p.path("siteId"), p.query("shareKey"), p.query("visitorAuthToken"))
	if err != nil {
		return nil, err
	}
	if s.OrganizationID != p.path("organizationId") {
		return nil, apperr.NotFoundf("Site not found")
	}
	return s, nil
}

func (p params) deleteSite() (model.DeleteSiteInput, error) {
	s, err := p.site()
	if err != nil {
		return model.DeleteSiteInput{}, err
	}
	return model.DeleteSiteInput{ID: s.ID}, nil
}

func (p params) publishSite() (model.PublishSiteInput, error) {
	s, err := p.site()
	if err != nil {
		return model.PublishSiteInput{}, err
	}
	return model.PublishSiteInput{ID: s.ID}, nil
}

// createSiteBody is the official body of creating a site. spaces may also be
// a request to create a new space in the official API; Bindery takes space
// IDs only, and the other form is a 400 (its shape is not in the contract).
type createSiteBody struct {
	Type       *enum.SiteType       `json:"type" rest:"nonnull"`
	Title      *string              `json:"title" rest:"nonnull"`
	Visibility *enum.SiteVisibility `json:"visibility" rest:"nonnull"`
	Spaces     *[]string            `json:"spaces" rest:"nonnull"`
}

func (b *createSiteBody) input(p params) (model.CreateSiteInput, error) {
	in := model.CreateSiteInput{OrganizationID: p.path("organizationId"), Type: b.Type, Title: b.Title, Visibility: b.Visibility}
	if b.Spaces != nil {
		in.Spaces = *b.Spaces
	}
	return in, nil
}

// siteAdaptiveContentJSON is the official SiteAdaptiveContent.
type siteAdaptiveContentJSON struct {
	Enabled *bool `json:"enabled"`
}

type updateSiteBody struct {
	Title              *string                  `json:"title" rest:"nonnull"`
	Visibility         *enum.SiteVisibility     `json:"visibility" rest:"nonnull"`
	Basename           *string                  `json:"basename" rest:"nonnull"`
	AdaptiveContent    *siteAdaptiveContentJSON `json:"adaptiveContent" rest:"nonnull"`
	AgentsContext      *enum.SiteAgentsContext  `json:"agentsContext" rest:"nonnull"`
	DefaultSiteSpace   *string                  `json:"defaultSiteSpace" rest:"nonnull"`
	DefaultSiteSection *string                  `json:"defaultSiteSection" rest:"nonnull"`
	Proxy              Opt[string]              `json:"proxy"`
}

func (b *updateSiteBody) input(p params) (model.UpdateSiteInput, error) {
	s, err := p.site()
	if err != nil {
		return model.UpdateSiteInput{}, err
	}
	in := model.UpdateSiteInput{ID: s.ID, Title: b.Title, Visibility: b.Visibility, Basename: b.Basename,
		AgentsContext: b.AgentsContext, DefaultSiteSpace: b.DefaultSiteSpace, DefaultSiteSection: b.DefaultSiteSection,
		Proxy: b.Proxy.Omittable()}
	if b.AdaptiveContent != nil {
		if b.AdaptiveContent.Enabled == nil {
			return in, apperr.Invalid("adaptiveContent.enabled", "is required")
		}
		in.AdaptiveContent = b.AdaptiveContent.Enabled
	}
	return in, nil
}

// siteJSON is the official Site.
type siteJSON struct {
	Object          string                     `json:"object"`
	ID              string                     `json:"id"`
	Type            enum.SiteType              `json:"type"`
	Title           string                     `json:"title"`
	Hostname        *string                    `json:"hostname,omitempty"`
	Basename        *string                    `json:"basename,omitempty"`
	Proxy           *model.SiteProxy           `json:"proxy,omitempty"`
	Visibility      enum.SiteVisibility        `json:"visibility"`
	Published       bool                       `json:"published"`
	SiteSpaces      int                        `json:"siteSpaces"`
	CreatedAt       string                     `json:"createdAt"`
	AdaptiveContent *model.SiteAdaptiveContent `json:"adaptiveContent"`
	AgentsContext   enum.SiteAgentsContext     `json:"agentsContext"`
	// Features lists the premium features of the site: Bindery is
	// self-hosted and gates nothing on a plan, so there are none to list.
	Features []struct{}   `json:"features"`
	URLs     siteURLsJSON `json:"urls"`
}

type siteURLsJSON struct {
	Location  string  `json:"location"`
	App       string  `json:"app"`
	Published *string `json:"published,omitempty"`
}

func (j siteJSON) location() string { return j.URLs.Location }

func (a *API) presentSite(ctx context.Context, s *ent.Site) (siteJSON, error) {
	res := a.r.Site()
	count, err := res.SiteSpaceCount(ctx, s)
	if err != nil {
		return siteJSON{}, err
	}
	proxy, err := res.Proxy(ctx, s)
	if err != nil {
		return siteJSON{}, err
	}
	adaptive, err := res.AdaptiveContent(ctx, s)
	if err != nil {
		return siteJSON{}, err
	}
	urls, err := res.Urls(ctx, s)
	if err != nil {
		return siteJSON{}, err
	}
	return siteJSON{Object: "site", ID: s.ID, Type: s.Type, Title: s.Title, Hostname: s.Hostname, Basename: s.Basename,
		Proxy: proxy, Visibility: s.Visibility, Published: s.Published, SiteSpaces: count,
		CreatedAt: model.FormatTime(s.CreatedAt), AdaptiveContent: adaptive, AgentsContext: s.AgentsContext,
		Features: []struct{}{}, URLs: siteURLsJSON{Location: urls.Location, App: urls.App, Published: urls.Published}}, nil
}
