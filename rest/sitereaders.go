package rest

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

// siteShareLinks lists the share links of the path's site.
func (p params) siteShareLinks(args page.Args) (*model.ShareLinkConnection, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.Site().ShareLinks(p.ctx(), s, args.First, args.After, nil, nil)
}

// shareLink is the share link the path names, in the path's site.
func (p params) shareLink() (*ent.ShareLink, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.ShareLinkOf(p.ctx(), s.ID, p.path("shareLinkId"))
}

// deleteShareLink answers 205 Reset Content, as the official API does when
// it deletes one (its 204 is for a share link that did not exist; Bindery
// answers 404 for those, as for every unknown ID).
func (p params) deleteShareLink() (model.DeleteShareLinkInput, error) {
	l, err := p.shareLink()
	if err != nil {
		return model.DeleteShareLinkInput{}, err
	}
	return model.DeleteShareLinkInput{ID: l.ID}, nil
}

type createShareLinkBody struct {
	Name *string `json:"name" rest:"required"`
}

func (b *createShareLinkBody) input(p params) (model.CreateShareLinkInput, error) {
	s, err := p.site()
	if err != nil {
		return model.CreateShareLinkInput{}, err
	}
	return model.CreateShareLinkInput{SiteID: &s.ID, Name: b.Name}, nil
}

// updateShareLinkBody is the official body: at least one member.
type updateShareLinkBody struct {
	Active *bool   `json:"active" rest:"nonnull"`
	Name   *string `json:"name" rest:"nonnull"`
}

func (b *updateShareLinkBody) input(p params) (model.UpdateShareLinkInput, error) {
	if b.Active == nil && b.Name == nil {
		return model.UpdateShareLinkInput{}, apperr.Invalid("body", "must have active or name")
	}
	l, err := p.shareLink()
	if err != nil {
		return model.UpdateShareLinkInput{}, err
	}
	in := model.UpdateShareLinkInput{ID: l.ID, Active: b.Active}
	if b.Name != nil {
		in.Name = graphql.OmittableOf(b.Name)
	}
	return in, nil
}

// shareLinkJSON is the official ShareLink.
type shareLinkJSON struct {
	Object    string       `json:"object"`
	ID        string       `json:"id"`
	CreatedAt string       `json:"createdAt"`
	Name      *string      `json:"name,omitempty"`
	Active    bool         `json:"active"`
	URLs      publishedURL `json:"urls"`
	address   string
}

func (j shareLinkJSON) location() string { return j.address }

func (a *API) presentShareLink(ctx context.Context, l *ent.ShareLink) (shareLinkJSON, error) {
	urls, err := a.r.ShareLink().Urls(ctx, l)
	if err != nil {
		return shareLinkJSON{}, err
	}
	j := shareLinkJSON{Object: "share-link", ID: l.ID, CreatedAt: model.FormatTime(l.CreatedAt), Name: l.Name,
		Active: l.Active, URLs: publishedURL{Published: urls.Published}}
	if l.SiteID != nil {
		if j.address, err = a.r.SitePartLocation(ctx, *l.SiteID, "share-links", l.ID); err != nil {
			return shareLinkJSON{}, err
		}
	}
	return j, nil
}

// siteAdaptiveSchema is the path's site's adaptive schema: a 404 when it has
// none, as in the official API.
func (p params) siteAdaptiveSchema() (*model.SiteAdaptiveSchema, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	schema, err := p.a.r.Site().AdaptiveSchema(p.ctx(), s)
	if err == nil && schema == nil {
		return nil, apperr.NotFoundf("The site has no adaptive schema")
	}
	return schema, err
}

type updateSiteAdaptiveSchemaBody struct {
	JSONSchema json.RawMessage `json:"jsonSchema" rest:"required"`
}

func (b *updateSiteAdaptiveSchemaBody) input(p params) (model.UpdateSiteAdaptiveSchemaInput, error) {
	s, err := p.site()
	if err != nil {
		return model.UpdateSiteAdaptiveSchemaInput{}, err
	}
	return model.UpdateSiteAdaptiveSchemaInput{SiteID: s.ID, JSONSchema: model.JSON(b.JSONSchema)}, nil
}

// siteAdaptiveSchemaJSON is the official SiteAdaptiveSchema.
type siteAdaptiveSchemaJSON struct {
	Object     string          `json:"object"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  string          `json:"updatedAt"`
}

func (a *API) presentSiteAdaptiveSchema(_ context.Context, s *model.SiteAdaptiveSchema) (siteAdaptiveSchemaJSON, error) {
	return siteAdaptiveSchemaJSON{Object: "site-adaptive-schema", JSONSchema: json.RawMessage(s.JSONSchema),
		UpdatedAt: model.FormatTime(s.UpdatedAt)}, nil
}

// sitePublished is what the reader of the path's site sees: visitorAuthToken
// (a query parameter, as in the official GET /urls/published) carries the
// visitor's JWT.
func (p params) sitePublished() (*model.PublishedSite, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.Site().PublishedContent(p.ctx(), s, p.query("visitorAuthToken"))
}

// publishedSiteJSON is the official PublishedContentSite. Its structure
// lists, for a site with sections, each section group holding a section the
// reader sees (where its first such section is, with only those sections)
// and the sections outside groups; for a site without sections, its
// site-spaces. scripts is empty: Bindery runs no integration scripts.
type publishedSiteJSON struct {
	Object         string                    `json:"object"`
	Site           siteJSON                  `json:"site"`
	Structure      publishedStructureJSON    `json:"structure"`
	Customizations publishedCustomizationsJS `json:"customizations"`
	Scripts        []struct{}                `json:"scripts"`
}

type publishedStructureJSON struct {
	Type      string `json:"type"`
	Structure []any  `json:"structure"`
}

type publishedCustomizationsJS struct {
	Site       json.RawMessage            `json:"site"`
	SiteSpaces map[string]json.RawMessage `json:"siteSpaces"`
}

func (a *API) presentPublishedSite(ctx context.Context, ps *model.PublishedSite) (publishedSiteJSON, error) {
	site, err := a.presentSite(ctx, ps.Site)
	if err != nil {
		return publishedSiteJSON{}, err
	}
	j := publishedSiteJSON{Object: "published-content-site", Site: site, Scripts: []struct{}{},
		Customizations: publishedCustomizationsJS{Site: json.RawMessage(ps.Customizations), SiteSpaces: map[string]json.RawMessage{}},
		Structure:      publishedStructureJSON{Type: "siteSpaces", Structure: []any{}}}
	if ps.StructureType == model.PublishedSiteStructureTypeSiteSpaces {
		for _, ss := range ps.SiteSpaces {
			sj, err := a.presentSiteSpace(ctx, ss)
			if err != nil {
				return publishedSiteJSON{}, err
			}
			j.Structure.Structure = append(j.Structure.Structure, sj)
		}
		return j, nil
	}
	j.Structure.Type = "sections"
	groups := map[string]*siteSectionGroupJSON{}
	for _, sec := range ps.Sections {
		sj, err := a.presentSiteSectionWith(ctx, sec.Section, sec.SiteSpaces)
		if err != nil {
			return publishedSiteJSON{}, err
		}
		if sj.Group == nil {
			j.Structure.Structure = append(j.Structure.Structure, sj)
			continue
		}
		g, ok := groups[*sj.Group]
		if !ok {
			group, err := a.r.SiteSection().SectionGroup(ctx, sec.Section)
			if err != nil {
				return publishedSiteJSON{}, err
			}
			gj, err := a.presentSiteSectionGroupWith(ctx, group, []siteSectionJSON{})
			if err != nil {
				return publishedSiteJSON{}, err
			}
			g = &gj
			groups[group.ID] = g
			j.Structure.Structure = append(j.Structure.Structure, g)
		}
		g.Sections = append(g.Sections, sj)
		g.Children = g.Sections
	}
	return j, nil
}
