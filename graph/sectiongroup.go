package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitesectiongroup"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/page"
)

// A site's section groups gather sections of the site in its top bar. The
// rules:
//   - A section is in at most one group; adding it to a group takes it out
//     of the one it was in.
//   - A group's sections are the site's sections in it, in the site's order
//     of sections.
//   - Groups share the order of the site's sections (see sitestructure.go):
//     the site's top level is its groups and its sections outside groups,
//     and a group moves among them, before or after a group or a section. A
//     new group goes last.
//   - Deleting a group leaves its sections, ungrouped (the database sets
//     their group to null); deleting the site deletes its groups.

var sectionGroupsByPosition = page.Order[*ent.SiteSectionGroup, predicate.SiteSectionGroup, sitesectiongroup.OrderOption]{
	Name: "site-section-groups", Column: sitesectiongroup.FieldPosition, KeyType: page.KeyFloat,
	Key: func(g *ent.SiteSectionGroup) any { return g.Position }, ID: func(g *ent.SiteSectionGroup) string { return g.ID },
}

func (r *Resolver) siteSectionGroups(ctx context.Context, s *ent.Site, a page.Args) (*model.SiteSectionGroupConnection, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	conn, err := page.Paginate(within(ctx), r.db(ctx).SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(s.ID)),
		sectionGroupsByPosition, a)
	if err != nil {
		return nil, err
	}
	l := r.sectionGroups.loader(ctx)
	ids := make([]string, 0, len(conn.Edges))
	for _, g := range conn.Nodes() {
		l.Prime(ctx, g.ID, g)
		ids = append(ids, g.ID)
	}
	// Their sections with the sections' site-spaces in one statement for
	// the page, and the site-spaces' spaces in one more.
	if len(ids) > 0 {
		byGroup, err := r.loadGroupSections(ctx, ids)
		if err != nil {
			return nil, err
		}
		gl := loadersFrom(ctx).groupSections()
		for _, g := range ids {
			gl.Prime(ctx, g, byGroup[g])
		}
	}
	return model.NewSiteSectionGroupConnection(conn), nil
}

// siteSpacePrefix names the site-space columns of loadGroupSections's
// statement.
const siteSpacePrefix = "site_space__"

// sectionRow is a row of loadGroupSections's statement: a section, and one
// of its site-spaces, or none.
type sectionRow struct {
	section   *ent.SiteSection
	siteSpace *ent.SiteSpace
}

// loadGroupSections lists the sections of groups, in the site's order, and
// primes the request's loaders with them and with their site-spaces, read
// in the same statement (a LEFT JOIN, see ent.ScanJoined), and the
// site-spaces' spaces, read in one more. A group's sections, shown with
// their site-spaces and those with their spaces (as /v1 presents a group),
// cost two statements, whatever the groups are and however they were
// reached: a page of groups, one group, or the groups of a list of sections.
func (r *Resolver) loadGroupSections(ctx context.Context, groupIDs []string) (map[string][]*ent.SiteSection, error) {
	ctx = internal(ctx, "the sections of groups the viewer sees")
	db := r.db(ctx)
	rows, err := byID(ctx, r, db, "SiteSection with site-spaces by group", groupIDs,
		func(ctx context.Context, c *ent.Client, ids, _ []string) error {
			_, err := c.SiteSection.Query().Where(sitesection.GroupIDIn(ids...)).
				Order(sitesection.ByPosition(), sitesection.ByID()).Modify(withSiteSpaces).All(ctx)
			return err
		}, func(rows *sql.Rows) ([]sectionRow, error) {
			sections, siteSpaces, err := ent.ScanJoined(rows, db.SiteSection.Part(""), db.SiteSpace.Part(siteSpacePrefix))
			out := make([]sectionRow, len(sections))
			for i := range sections {
				out[i] = sectionRow{sections[i], siteSpaces[i]}
			}
			return out, err
		})
	if err != nil {
		return nil, fmt.Errorf("loading the sections of groups: %w", err)
	}
	byGroup := make(map[string][]*ent.SiteSection, len(groupIDs))
	bySection := map[string][]*ent.SiteSpace{}
	var sectionIDs []string
	sl := r.sections.loader(ctx)
	for _, row := range rows {
		sec := row.section
		if _, seen := bySection[sec.ID]; !seen {
			byGroup[*sec.GroupID] = append(byGroup[*sec.GroupID], sec)
			bySection[sec.ID] = []*ent.SiteSpace{}
			sectionIDs = append(sectionIDs, sec.ID)
			sl.Prime(ctx, sec.ID, sec)
		}
		if row.siteSpace != nil {
			bySection[sec.ID] = append(bySection[sec.ID], row.siteSpace)
		}
	}
	r.primeSiteSpaces(ctx, sectionIDs, bySection)
	return byGroup, nil
}

// withSiteSpaces joins each section's site-spaces to the sections'
// statement, in their order, their columns named with siteSpacePrefix.
func withSiteSpaces(s *sql.Selector) {
	t := sql.Table(sitespace.Table).As("ss")
	s.LeftJoin(t).On(s.C(sitesection.FieldID), t.C(sitespace.FieldSectionID))
	for _, c := range sitespace.Columns {
		s.AppendSelectAs(t.C(c), siteSpacePrefix+c)
	}
	s.OrderBy(t.C(sitespace.FieldPosition), t.C(sitespace.FieldID))
}

// groupSections lists a group's sections; their site-spaces and those
// spaces come with them (see loadGroupSections).
func (r *Resolver) groupSections(ctx context.Context, g *ent.SiteSectionGroup) ([]*ent.SiteSection, error) {
	return load(ctx, loadersFrom(ctx).groupSections(), g.ID)
}

// SiteSectionGroupOf loads a section group of a site, for /v1's paths: not
// found when it is another site's.
func (r *Resolver) SiteSectionGroupOf(ctx context.Context, siteID, groupID string) (*ent.SiteSectionGroup, error) {
	g, _, err := r.sectionGroups.get(ctx, groupID)
	if err == nil && g.SiteID != siteID {
		return nil, r.sectionGroups.notFound()
	}
	return g, err
}

func (r *Resolver) createSiteSectionGroup(ctx context.Context, in model.CreateSiteSectionGroupInput) (*ent.SiteSectionGroup, error) {
	title := strings.TrimSpace(in.Title)
	return mutateLocked(ctx, r, r.siteLock(site.ID(in.SiteID)), r.sites, in.SiteID, authz.Update,
		func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.SiteSectionGroup, error) {
			if err := r.restructured(ctx, s); err != nil {
				return nil, err
			}
			ctx = internal(ctx, "the structure of a site its admin changes")
			db := r.db(ctx)
			items, err := r.siteItems(ctx, s.ID)
			if err != nil {
				return nil, err
			}
			b := db.SiteSectionGroup.Create().SetSiteID(s.ID).SetTitle(title).SetPosition(lastSitePosition(items))
			if in.Icon != nil {
				b.SetIcon(*in.Icon)
			}
			g, err := b.Save(ctx)
			if err != nil {
				return nil, err
			}
			r.sectionGroups.wrote(ctx, g)
			if len(in.Sections) == 0 {
				return g, nil
			}
			// The sections move in one statement; when fewer moved than were
			// named, one is not the site's, and the transaction rolls back.
			n, err := db.SiteSection.Update().Where(sitesection.SiteID(s.ID), sitesection.IDIn(in.Sections...)).
				SetGroupID(g.ID).Save(ctx)
			if err != nil || n == len(slices.Compact(slices.Sorted(slices.Values(in.Sections)))) {
				return g, err
			}
			return g, r.checkSiteSections(ctx, s.ID, "sections", in.Sections)
		})
}

// checkSiteSections fails, naming it, when an ID is not a section of the
// site.
func (r *Resolver) checkSiteSections(ctx context.Context, siteID, field string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	found, err := r.db(ctx).SiteSection.Query().Where(sitesection.SiteID(siteID), sitesection.IDIn(ids...)).IDs(ctx)
	if err != nil {
		return err
	}
	in := make(map[string]bool, len(found))
	for _, id := range found {
		in[id] = true
	}
	for _, id := range ids {
		if !in[id] {
			return apperr.Invalid(field, "%q is not a section of the site", id)
		}
	}
	return nil
}

func (r *Resolver) updateSiteSectionGroup(ctx context.Context, in model.UpdateSiteSectionGroupInput) (*ent.SiteSectionGroup, error) {
	return mutate(ctx, r, r.sectionGroups, in.ID, authz.Update,
		func(ctx context.Context, g *ent.SiteSectionGroup, _ authz.Decision) (*ent.SiteSectionGroup, error) {
			ctx = internal(ctx, "the structure of a site its admin changes")
			u := r.db(ctx).SiteSectionGroup.UpdateOne(g)
			if in.Title != nil {
				u.SetTitle(strings.TrimSpace(*in.Title))
			}
			setOmittable(in.Icon, u.SetIcon, u.ClearIcon)
			return u.Save(ctx)
		})
}

func (r *Resolver) deleteSiteSectionGroup(ctx context.Context, in model.DeleteSiteSectionGroupInput) error {
	return deleteSitePart(ctx, r, r.groupPart(), in.ID)
}

// setSectionGroup puts a section of a group's site into the group (in) or
// takes it out of it.
func (r *Resolver) setSectionGroup(ctx context.Context, in model.SiteSectionGroupMembershipInput, add bool) (*ent.SiteSectionGroup, error) {
	return mutateLocked(ctx, r, r.siteLock(r.groupPart().site(in.ID)), r.sectionGroups, in.ID, authz.Update,
		func(ctx context.Context, g *ent.SiteSectionGroup, _ authz.Decision) (*ent.SiteSectionGroup, error) {
			ctx = internal(ctx, "the structure of a site its admin changes")
			db := r.db(ctx)
			if !add {
				n, err := db.SiteSection.Update().Where(sitesection.ID(in.SectionID), sitesection.GroupID(g.ID)).ClearGroupID().Save(ctx)
				if err == nil && n == 0 {
					return nil, apperr.Invalid("sectionId", "%q is not a section of the group", in.SectionID)
				}
				return g, err
			}
			n, err := db.SiteSection.Update().Where(sitesection.ID(in.SectionID), sitesection.SiteID(g.SiteID)).SetGroupID(g.ID).Save(ctx)
			if err == nil && n == 0 {
				return nil, apperr.Invalid("sectionId", "%q is not a section of the site", in.SectionID)
			}
			return g, err
		})
}

func (r *Resolver) moveSiteSectionGroup(ctx context.Context, in model.MoveSiteSectionGroupInput) (*ent.SiteSectionGroup, error) {
	var pos *model.SitePositionInput
	if in.Position != nil {
		pos = &model.SitePositionInput{Before: in.Position.Before, After: in.Position.After}
	}
	return moveSitePart(ctx, r, r.groupPart(), in.ID, pos)
}

// groupPart is the kind of a site's section groups, which share their order
// with the site's sections and have no default.
func (r *Resolver) groupPart() sitePart[*ent.SiteSectionGroup, predicate.SiteSectionGroup] {
	return sitePart[*ent.SiteSectionGroup, predicate.SiteSectionGroup]{
		policy: r.sectionGroups,
		site:   func(id string) predicate.Site { return site.HasSectionGroupsWith(sitesectiongroup.ID(id)) },
		position: func(ctx context.Context, g *ent.SiteSectionGroup, pos *model.SitePositionInput) (float64, error) {
			items, err := r.siteItems(ctx, g.SiteID)
			if err != nil {
				return 0, err
			}
			return r.movedSitePosition(ctx, items, g.ID, pos)
		},
		setPosition: func(ctx context.Context, g *ent.SiteSectionGroup, pos float64) (*ent.SiteSectionGroup, error) {
			return g.Update().SetPosition(pos).Save(ctx)
		},
		remove: func(ctx context.Context, g *ent.SiteSectionGroup) error {
			db := r.db(ctx)
			// Its sections stay, ungrouped; the database would do it too, but
			// SQLite only with foreign keys on.
			if err := db.SiteSection.Update().Where(sitesection.GroupID(g.ID)).ClearGroupID().Exec(ctx); err != nil {
				return err
			}
			return db.SiteSectionGroup.DeleteOne(g).Exec(ctx)
		},
	}
}

// SiteSectionGroupSectionOf loads a section of a group, for /v1's paths
// that name both: not found when the section is not in the group, as if it
// did not exist.
func (r *Resolver) SiteSectionGroupSectionOf(ctx context.Context, g *ent.SiteSectionGroup, sectionID string) (*ent.SiteSection, error) {
	sec, err := r.SiteSectionOf(ctx, g.SiteID, sectionID)
	if err == nil && (sec.GroupID == nil || *sec.GroupID != g.ID) {
		return nil, r.sections.notFound()
	}
	return sec, err
}
