package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

// siteSections lists the sections of the path's site.
func (p params) siteSections(args page.Args) (*model.SiteSectionConnection, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.Site().Sections(p.ctx(), s, args.First, args.After, nil, nil)
}

// siteSiteSpaces lists the site-spaces of the path's site: default filters.
func (p params) siteSiteSpaces(args page.Args) (*model.SiteSpaceConnection, error) {
	var isDefault *bool
	if p.query("default") != nil {
		b, err := p.bool("default", false)
		if err != nil {
			return nil, err
		}
		isDefault = &b
	}
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.Site().SiteSpaces(p.ctx(), s, args.First, args.After, nil, nil, isDefault)
}

// siteSection is the section the path names, in the path's site.
func (p params) siteSection() (*ent.SiteSection, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.SiteSectionOf(p.ctx(), s.ID, p.path("siteSectionId"))
}

// siteSpace is the site-space the path names, in the path's site.
func (p params) siteSpace() (*ent.SiteSpace, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.SiteSpaceOf(p.ctx(), s.ID, p.path("siteSpaceId"))
}

func (p params) deleteSiteSection() (model.DeleteSiteSectionInput, error) {
	sec, err := p.siteSection()
	if err != nil {
		return model.DeleteSiteSectionInput{}, err
	}
	return model.DeleteSiteSectionInput{ID: sec.ID}, nil
}

func (p params) deleteSiteSpace() (model.DeleteSiteSpaceInput, error) {
	ss, err := p.siteSpace()
	if err != nil {
		return model.DeleteSiteSpaceInput{}, err
	}
	return model.DeleteSiteSpaceInput{ID: ss.ID}, nil
}

type createSiteSectionBody struct {
	SpaceID string      `json:"spaceId" rest:"required"`
	Title   Opt[string] `json:"title"`
	Icon    Opt[string] `json:"icon"`
}

func (b *createSiteSectionBody) input(p params) (model.CreateSiteSectionInput, error) {
	s, err := p.site()
	if err != nil {
		return model.CreateSiteSectionInput{}, err
	}
	return model.CreateSiteSectionInput{SiteID: s.ID, SpaceID: b.SpaceID, Title: b.Title.Ptr(), Icon: b.Icon.Ptr()}, nil
}

type updateSiteSectionBody struct {
	Title            *string     `json:"title" rest:"nonnull"`
	Path             *string     `json:"path" rest:"nonnull"`
	DefaultSiteSpace *string     `json:"defaultSiteSpace" rest:"nonnull"`
	Condition        Opt[string] `json:"condition"`
	Icon             Opt[string] `json:"icon"`
	Description      Opt[string] `json:"description"`
}

func (b *updateSiteSectionBody) input(p params) (model.UpdateSiteSectionInput, error) {
	sec, err := p.siteSection()
	if err != nil {
		return model.UpdateSiteSectionInput{}, err
	}
	return model.UpdateSiteSectionInput{ID: sec.ID, Title: b.Title, Path: b.Path, DefaultSiteSpace: b.DefaultSiteSpace,
		Condition: b.Condition.Omittable(), Icon: b.Icon.Omittable(), Description: b.Description.Omittable()}, nil
}

type createSiteSpaceBody struct {
	SpaceID   string  `json:"spaceId" rest:"required"`
	SectionID *string `json:"sectionId" rest:"nonnull"`
}

func (b *createSiteSpaceBody) input(p params) (model.CreateSiteSpaceInput, error) {
	s, err := p.site()
	if err != nil {
		return model.CreateSiteSpaceInput{}, err
	}
	return model.CreateSiteSpaceInput{SiteID: s.ID, SpaceID: b.SpaceID, SectionID: b.SectionID}, nil
}

// updateSiteSpaceBody is the official body of updating a site-space; the
// official API's spaceId (point it at another space) is not in the
// contract, and Bindery says so rather than ignore it.
type updateSiteSpaceBody struct {
	Path      *string     `json:"path" rest:"nonnull"`
	Condition Opt[string] `json:"condition"`
	SpaceID   *string     `json:"spaceId" rest:"unsupported"`
}

func (b *updateSiteSpaceBody) input(p params) (model.UpdateSiteSpaceInput, error) {
	ss, err := p.siteSpace()
	if err != nil {
		return model.UpdateSiteSpaceInput{}, err
	}
	return model.UpdateSiteSpaceInput{ID: ss.ID, Path: b.Path, Condition: b.Condition.Omittable()}, nil
}

// sitePartPointer is the official SiteSectionPointer ({"type": "site-section",
// "siteSection": ID}) or SiteSpacePointer ({"type": "site-space",
// "siteSpace": ID}).
type sitePartPointer struct {
	Type        string `json:"type"`
	SiteSection string `json:"siteSection"`
	SiteSpace   string `json:"siteSpace"`
}

// sitePosition is the official move position of sections and site-spaces.
type sitePosition struct {
	Before *sitePartPointer `json:"before"`
	After  *sitePartPointer `json:"after"`
}

// input checks the pointers' type and returns the position.
func (sp *sitePosition) input(kind string) (*model.SitePositionInput, error) {
	if sp == nil || (sp.Before == nil && sp.After == nil) {
		return nil, nil
	}
	ref := func(field string, ptr *sitePartPointer) (*string, error) {
		if ptr == nil {
			return nil, nil
		}
		id := ptr.SiteSection
		other := ptr.SiteSpace
		if kind == "site-space" {
			id, other = ptr.SiteSpace, ptr.SiteSection
		}
		if ptr.Type != kind || id == "" || other != "" {
			key := "siteSection"
			if kind == "site-space" {
				key = "siteSpace"
			}
			return nil, apperr.Invalid(field, `must be {"type": %q, %q: "<ID>"}`, kind, key)
		}
		return &id, nil
	}
	before, err := ref("position.before", sp.Before)
	if err != nil {
		return nil, err
	}
	after, err := ref("position.after", sp.After)
	if err != nil {
		return nil, err
	}
	return &model.SitePositionInput{Before: before, After: after}, nil
}

// siteMoveBody is the body of moving a section or a site-space: no position
// moves it last.
type siteMoveBody struct {
	Position *sitePosition `json:"position" rest:"nonnull"`
}

func (b *siteMoveBody) sectionInput(p params) (model.MoveSiteSectionInput, error) {
	sec, err := p.siteSection()
	if err != nil {
		return model.MoveSiteSectionInput{}, err
	}
	pos, err := b.Position.input("site-section")
	return model.MoveSiteSectionInput{ID: sec.ID, Position: pos}, err
}

func (b *siteMoveBody) siteSpaceInput(p params) (model.MoveSiteSpaceInput, error) {
	ss, err := p.siteSpace()
	if err != nil {
		return model.MoveSiteSpaceInput{}, err
	}
	pos, err := b.Position.input("site-space")
	return model.MoveSiteSpaceInput{ID: ss.ID, Position: pos}, err
}

// siteSectionJSON is the official SiteSection.
type siteSectionJSON struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Description *string         `json:"description,omitempty"`
	Default     bool            `json:"default"`
	Path        string          `json:"path"`
	Condition   *string         `json:"condition,omitempty"`
	Group       *string         `json:"sectionGroup,omitempty"`
	SiteSpaces  []siteSpaceJSON `json:"siteSpaces"`
	URLs        publishedURL    `json:"urls"`
	Icon        *string         `json:"icon,omitempty"`
	address     string
}

func (j siteSectionJSON) location() string { return j.address }

// publishedURL is the urls of sections and site-spaces.
type publishedURL struct {
	Published *string `json:"published,omitempty"`
}

func (a *API) presentSiteSection(ctx context.Context, sec *ent.SiteSection) (siteSectionJSON, error) {
	sss, err := a.r.SiteSection().SiteSpaces(ctx, sec)
	if err != nil {
		return siteSectionJSON{}, err
	}
	return a.presentSiteSectionWith(ctx, sec, sss)
}

// presentSiteSectionWith presents a section with the site-spaces given (a
// published site shows only some of them).
func (a *API) presentSiteSectionWith(ctx context.Context, sec *ent.SiteSection, sss []*ent.SiteSpace) (siteSectionJSON, error) {
	res := a.r.SiteSection()
	isDefault, err := res.Default(ctx, sec)
	if err != nil {
		return siteSectionJSON{}, err
	}
	urls, err := res.Urls(ctx, sec)
	if err != nil {
		return siteSectionJSON{}, err
	}
	group, err := res.SectionGroup(ctx, sec)
	if err != nil {
		return siteSectionJSON{}, err
	}
	address, err := a.r.SitePartLocation(ctx, sec.SiteID, "sections", sec.ID)
	if err != nil {
		return siteSectionJSON{}, err
	}
	j := siteSectionJSON{address: address, Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description, Default: isDefault,
		Path: sec.Path, Condition: sec.Condition, URLs: publishedURL{Published: urls.Published}, Icon: sec.Icon,
		SiteSpaces: make([]siteSpaceJSON, 0, len(sss))}
	if group != nil {
		j.Group = &group.ID
	}
	for _, ss := range sss {
		sj, err := a.presentSiteSpace(ctx, ss)
		if err != nil {
			return siteSectionJSON{}, err
		}
		j.SiteSpaces = append(j.SiteSpaces, sj)
	}
	return j, nil
}

// siteSpaceJSON is the official SiteSpace.
type siteSpaceJSON struct {
	Object    string       `json:"object"`
	ID        string       `json:"id"`
	Path      string       `json:"path"`
	Section   *string      `json:"section,omitempty"`
	Space     *spaceJSON   `json:"space,omitempty"`
	Title     string       `json:"title"`
	Default   bool         `json:"default"`
	Condition *string      `json:"condition,omitempty"`
	URLs      publishedURL `json:"urls"`
	address   string
}

func (j siteSpaceJSON) location() string { return j.address }

func (a *API) presentSiteSpace(ctx context.Context, ss *ent.SiteSpace) (siteSpaceJSON, error) {
	res := a.r.SiteSpace()
	title, err := res.Title(ctx, ss)
	if err != nil {
		return siteSpaceJSON{}, err
	}
	isDefault, err := res.Default(ctx, ss)
	if err != nil {
		return siteSpaceJSON{}, err
	}
	sec, err := res.Section(ctx, ss)
	if err != nil {
		return siteSpaceJSON{}, err
	}
	sp, err := res.Space(ctx, ss)
	if err != nil {
		return siteSpaceJSON{}, err
	}
	urls, err := res.Urls(ctx, ss)
	if err != nil {
		return siteSpaceJSON{}, err
	}
	address, err := a.r.SitePartLocation(ctx, ss.SiteID, "site-spaces", ss.ID)
	if err != nil {
		return siteSpaceJSON{}, err
	}
	j := siteSpaceJSON{address: address, Object: "site-space", ID: ss.ID, Path: ss.Path, Title: title, Default: isDefault,
		Condition: ss.Condition, URLs: publishedURL{Published: urls.Published}}
	if sec != nil {
		j.Section = &sec.ID
	}
	if sp != nil {
		spj, err := a.presentSpace(ctx, sp)
		if err != nil {
			return siteSpaceJSON{}, err
		}
		j.Space = &spj
	}
	return j, nil
}
