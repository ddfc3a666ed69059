package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/page"
)

// siteSectionGroups lists the section groups of the path's site.
func (p params) siteSectionGroups(args page.Args) (*model.SiteSectionGroupConnection, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.Site().SectionGroups(p.ctx(), s, args.First, args.After, nil, nil)
}

// siteSectionGroup is the section group the path names, in the path's site.
func (p params) siteSectionGroup() (*ent.SiteSectionGroup, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	return p.a.r.SiteSectionGroupOf(p.ctx(), s.ID, p.path("siteSectionGroupId"))
}

func (p params) deleteSiteSectionGroup() (model.DeleteSiteSectionGroupInput, error) {
	g, err := p.siteSectionGroup()
	if err != nil {
		return model.DeleteSiteSectionGroupInput{}, err
	}
	return model.DeleteSiteSectionGroupInput{ID: g.ID}, nil
}

// removeGroupSection takes the path's section out of the path's group: a
// section that is not in the group is not found, as the path names it.
func (p params) removeGroupSection() (model.SiteSectionGroupMembershipInput, error) {
	g, err := p.siteSectionGroup()
	if err != nil {
		return model.SiteSectionGroupMembershipInput{}, err
	}
	sec, err := p.a.r.SiteSectionGroupSectionOf(p.ctx(), g, p.path("siteSectionId"))
	if err != nil {
		return model.SiteSectionGroupMembershipInput{}, err
	}
	return model.SiteSectionGroupMembershipInput{ID: g.ID, SectionID: sec.ID}, nil
}

// createSiteSectionGroupBody is the official body of adding a section
// group; the official parent (nesting groups) is not in the contract, and
// Bindery says so rather than ignore it.
type createSiteSectionGroupBody struct {
	Title    string      `json:"title" rest:"required"`
	Icon     Opt[string] `json:"icon"`
	Sections *[]string   `json:"sections" rest:"nonnull"`
	Parent   *string     `json:"parent" rest:"unsupported"`
}

func (b *createSiteSectionGroupBody) input(p params) (model.CreateSiteSectionGroupInput, error) {
	s, err := p.site()
	if err != nil {
		return model.CreateSiteSectionGroupInput{}, err
	}
	in := model.CreateSiteSectionGroupInput{SiteID: s.ID, Title: b.Title, Icon: b.Icon.Ptr()}
	if b.Sections != nil {
		in.Sections = *b.Sections
	}
	return in, nil
}

type updateSiteSectionGroupBody struct {
	Title *string     `json:"title" rest:"nonnull"`
	Icon  Opt[string] `json:"icon"`
}

func (b *updateSiteSectionGroupBody) input(p params) (model.UpdateSiteSectionGroupInput, error) {
	g, err := p.siteSectionGroup()
	if err != nil {
		return model.UpdateSiteSectionGroupInput{}, err
	}
	return model.UpdateSiteSectionGroupInput{ID: g.ID, Title: b.Title, Icon: b.Icon.Omittable()}, nil
}

type addGroupSectionBody struct {
	SectionID string `json:"sectionId" rest:"required"`
}

func (b *addGroupSectionBody) input(p params) (model.SiteSectionGroupMembershipInput, error) {
	g, err := p.siteSectionGroup()
	if err != nil {
		return model.SiteSectionGroupMembershipInput{}, err
	}
	return model.SiteSectionGroupMembershipInput{ID: g.ID, SectionID: b.SectionID}, nil
}

// groupPointer is the official SiteSectionGroupPointer: {"type":
// "site-section-group" or "site-section", "id": ID}. A group moves among the
// site's top level, its groups and its sections outside groups; a section
// in a group stands for its group (see graph/sitestructure.go).
type groupPointer struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// groupPointerTypes are the types of a groupPointer, with the prefix of the
// IDs each names.
var groupPointerTypes = map[string]string{"site-section-group": id.SiteSectionGroup, "site-section": id.SiteSection}

type moveSiteSectionGroupBody struct {
	Position *struct {
		Before *groupPointer `json:"before"`
		After  *groupPointer `json:"after"`
	} `json:"position" rest:"nonnull"`
}

func (b *moveSiteSectionGroupBody) input(p params) (model.MoveSiteSectionGroupInput, error) {
	g, err := p.siteSectionGroup()
	if err != nil {
		return model.MoveSiteSectionGroupInput{}, err
	}
	in := model.MoveSiteSectionGroupInput{ID: g.ID}
	if b.Position == nil || (b.Position.Before == nil && b.Position.After == nil) {
		return in, nil
	}
	ref := func(field string, ptr *groupPointer) (*string, error) {
		if ptr == nil {
			return nil, nil
		}
		prefix, known := groupPointerTypes[ptr.Type]
		switch {
		case !known || ptr.ID == "":
			return nil, apperr.Invalid(field, `must be {"type": "site-section-group" or "site-section", "id": "<ID>"}`)
		case id.PrefixOf(ptr.ID) != prefix:
			return nil, apperr.Invalid(field, "%q is not a %s", ptr.ID, ptr.Type)
		}
		return &ptr.ID, nil
	}
	before, err := ref("position.before", b.Position.Before)
	if err != nil {
		return in, err
	}
	after, err := ref("position.after", b.Position.After)
	if err != nil {
		return in, err
	}
	in.Position = &model.SiteSectionGroupPositionInput{Before: before, After: after}
	return in, nil
}

// siteSectionGroupJSON is the official SiteSectionGroup. Groups do not nest,
// so its children are its sections, as its (deprecated) sections are.
type siteSectionGroupJSON struct {
	Object   string            `json:"object"`
	ID       string            `json:"id"`
	Title    string            `json:"title"`
	Sections []siteSectionJSON `json:"sections"`
	Children []siteSectionJSON `json:"children"`
	Icon     *string           `json:"icon,omitempty"`
	address  string
}

func (j siteSectionGroupJSON) location() string { return j.address }

func (a *API) presentSiteSectionGroup(ctx context.Context, g *ent.SiteSectionGroup) (siteSectionGroupJSON, error) {
	secs, err := a.r.SiteSectionGroup().Sections(ctx, g)
	if err != nil {
		return siteSectionGroupJSON{}, err
	}
	sjs := make([]siteSectionJSON, 0, len(secs))
	for _, sec := range secs {
		sj, err := a.presentSiteSection(ctx, sec)
		if err != nil {
			return siteSectionGroupJSON{}, err
		}
		sjs = append(sjs, sj)
	}
	return a.presentSiteSectionGroupWith(ctx, g, sjs)
}

// presentSiteSectionGroupWith presents a group with the sections given, as
// they are presented (a published site shows only some of them).
func (a *API) presentSiteSectionGroupWith(ctx context.Context, g *ent.SiteSectionGroup, sections []siteSectionJSON) (siteSectionGroupJSON, error) {
	address, err := a.r.SitePartLocation(ctx, g.SiteID, "section-groups", g.ID)
	if err != nil {
		return siteSectionGroupJSON{}, err
	}
	return siteSectionGroupJSON{address: address, Object: "site-section-group", ID: g.ID, Title: g.Title, Icon: g.Icon,
		Sections: sections, Children: sections}, nil
}
