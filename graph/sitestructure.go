package graph

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitesectiongroup"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/condition"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/position"
	"github.com/bindery/bindery/internal/sitestruct"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/validate"
)

// A site's structure: sections (the top bar) holding site-spaces, or, while
// it has no sections, site-spaces at its root. A site's sections and its
// section groups (sectiongroup.go) share one order, by a float position
// (ties broken by ID), as spaces and collections do (see place); the
// site-spaces of one parent (a section, or the root) have an order of
// their own.
//
// The rules:
//   - A site's first section takes its site-spaces at the root: they move
//     into a default section, made first, titled as the site.
//   - Exactly one section is the default while there are sections: the first
//     one made; when the default is deleted, the first of the others.
//   - Among the site-spaces of one parent one is the default: the first one
//     added; when it is removed, the first of the others.
//   - A section's path is unique within its site, a site-space's among its
//     siblings: another's path is a 409.
//   - The site's top level is its sections outside groups and its groups, in
//     the shared order; a group shows its sections in that order too. A move
//     puts a section or a group right before or after the item it names. A
//     group, or a section outside groups, moves among the top level: a
//     section in a group names that group there (a move does not change
//     groups, and groups do not nest), and a section of the group being
//     moved names nothing. A section in a group moves among the site's
//     sections.
//
// Unique indexes hold the paths and the defaults (ent/schema/site.go).
// The rest, positions that differ and a default that is always there, is
// read, then written: every change to a site's structure first locks the
// site's row (lockSite), so that such changes to one site run one at a
// time on PostgreSQL, as all writes do on SQLite.

// sitePartsByPosition orders sections and site-spaces, first first.
var (
	sectionsByPosition = page.Order[*ent.SiteSection, predicate.SiteSection, sitesection.OrderOption]{
		Name: "site-sections", Column: sitesection.FieldPosition, KeyType: page.KeyFloat,
		Key: func(s *ent.SiteSection) any { return s.Position }, ID: func(s *ent.SiteSection) string { return s.ID },
	}
	siteSpacesByPosition = page.Order[*ent.SiteSpace, predicate.SiteSpace, sitespace.OrderOption]{
		Name: "site-spaces", Column: sitespace.FieldPosition, KeyType: page.KeyFloat,
		Key: func(s *ent.SiteSpace) any { return s.Position }, ID: func(s *ent.SiteSpace) string { return s.ID },
	}
)

// inSite decides about a part of a site: whoever sees the site sees it, with
// the same role.
func (r *Resolver) inSite(ctx context.Context, siteID string) (authz.Decision, error) {
	_, d, err := r.sites.get(ctx, siteID)
	if apperr.KindOf(err) == apperr.NotFound {
		return authz.Decision{}, nil
	}
	return d, err
}

// lockSite locks the row of the site that which selects (a site, or the
// site of a section, site-space or group, see the callers) until the
// transaction ends, on PostgreSQL, and primes the request's loader with it:
// so taking the lock costs no statement beyond reading the site, which
// deciding about its parts does anyway. It goes before anything of the site
// is read, so that what the transaction reads is what the transaction
// before it left; a site that does not exist is left to the decision that
// follows to report. SQLite runs one writing transaction at a time anyway.
//
// Every transaction that changes a site's structure takes this one lock
// first, and no other lock before it, so two of them cannot deadlock.
func (r *Resolver) lockSite(ctx context.Context, which predicate.Site) error {
	sites, err := sitestruct.Lock(internal(ctx, "a lock, taken before the site's structure is read and decided"), r.db(ctx), which)
	if err != nil {
		return err
	}
	l := r.sites.loader(ctx)
	for _, s := range sites {
		l.Prime(ctx, s.ID, s)
	}
	return nil
}

// siteItem is a section or a section group of a site, as their shared order
// needs it: a group has no group, path or default.
type siteItem struct {
	ID        string  `sql:"id"`
	Position  float64 `sql:"position"`
	GroupID   *string `sql:"group_id"`
	Path      *string `sql:"path"`
	IsDefault *bool   `sql:"is_default"`
}

func (i siteItem) isGroup() bool { return id.PrefixOf(i.ID) == id.SiteSectionGroup }

// topLevel reports whether the item is shown at the site's top level: a
// group, or a section in none.
func (i siteItem) topLevel() bool { return i.GroupID == nil }

// siteItems reads the sections and the groups of a site, in their order, in
// one statement.
func (r *Resolver) siteItems(ctx context.Context, siteID string) ([]siteItem, error) {
	var items []siteItem
	err := r.db(ctx).SiteSection.Query().Where(sitesection.SiteID(siteID)).Modify(func(s *sql.Selector) {
		s.Select(s.C(sitesection.FieldID), s.C(sitesection.FieldPosition), s.C(sitesection.FieldGroupID),
			s.C(sitesection.FieldPath), s.C(sitesection.FieldIsDefault))
		b := sql.Dialect(s.Dialect())
		g := b.Table(sitesectiongroup.Table)
		groups := b.Select(g.C(sitesectiongroup.FieldID), g.C(sitesectiongroup.FieldPosition)).
			From(g).Where(sql.EQ(g.C(sitesectiongroup.FieldSiteID), siteID))
		for _, c := range []string{sitesection.FieldGroupID, sitesection.FieldPath, sitesection.FieldIsDefault} {
			groups.AppendSelectExprAs(sql.Raw("NULL"), c)
		}
		s.UnionAll(groups)
	}).Scan(internal(ctx, "the structure of a site its admin changes"), &items)
	if err != nil {
		return nil, fmt.Errorf("loading the sections and groups of a site: %w", err)
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].Position != items[j].Position {
			return items[i].Position < items[j].Position
		}
		return items[i].ID < items[j].ID
	})
	return items, nil
}

// lastSitePosition is a position after every item of a site.
func lastSitePosition(items []siteItem) float64 {
	last := 0.0
	for _, it := range items {
		last = max(last, it.Position)
	}
	return last + position.Step
}

// movedSitePosition returns the position of a section or group of a site
// (items, from siteItems) moved to pos (see the rules above), renumbering
// other items when there is no room; what a section names must be a
// section.
func (r *Resolver) movedSitePosition(ctx context.Context, items []siteItem, movedID string, pos *model.SitePositionInput) (float64, error) {
	var moved siteItem
	rest := make([]position.Sibling, 0, len(items))
	byID := make(map[string]siteItem, len(items))
	for _, it := range items {
		if it.ID == movedID {
			moved = it
			continue
		}
		byID[it.ID] = it
		rest = append(rest, position.Sibling{ID: it.ID, Pos: it.Position})
	}
	index := func(itemID string) int {
		return slices.IndexFunc(rest, func(s position.Sibling) bool { return s.ID == itemID })
	}
	// level reports whether an item is among those the moved one moves
	// among.
	level := func(it siteItem) bool { return !moved.topLevel() && !it.isGroup() || moved.topLevel() && it.topLevel() }
	ref := func(field string, ref *string) (int, error) {
		if ref == nil {
			return -1, nil
		}
		it, ok := byID[*ref]
		switch {
		case !ok && moved.isGroup():
			return 0, apperr.Invalid(field, "%q is not a group or section of the site", *ref)
		case !ok || !moved.isGroup() && it.isGroup():
			return 0, apperr.Invalid(field, "%q is not a section of the site", *ref)
		case moved.topLevel() && !it.topLevel() && *it.GroupID == movedID:
			return 0, apperr.Invalid(field, "%q is a section of the group being moved", *ref)
		case moved.topLevel() && !it.topLevel():
			// Its group stands for it among the top level.
			return index(*it.GroupID), nil
		}
		return index(it.ID), nil
	}
	var before, after *string
	if pos != nil {
		before, after = pos.Before, pos.After
	}
	b, err := ref("position.before", before)
	if err != nil {
		return 0, err
	}
	a, err := ref("position.after", after)
	if err != nil {
		return 0, err
	}
	k := len(rest)
	switch {
	case a >= 0 && b >= 0:
		if b <= a || slices.ContainsFunc(rest[a+1:b], func(s position.Sibling) bool { return level(byID[s.ID]) }) {
			return 0, apperr.Invalid("position", "before and after must name adjacent items")
		}
		k = a + 1
	case a >= 0:
		k = a + 1
	case b >= 0:
		k = b
	}
	return position.Place(ctx, rest, k, r.setSitePosition)
}

// setSitePosition writes the position of a section or a group: a bulk
// update by ID, which the TimeMixin's hook of single-row updates does not
// read the row for (see setPosition).
func (r *Resolver) setSitePosition(ctx context.Context, s position.Sibling) error {
	db := r.db(ctx)
	var err error
	if id.PrefixOf(s.ID) == id.SiteSectionGroup {
		err = db.SiteSectionGroup.Update().Where(sitesectiongroup.ID(s.ID)).SetPosition(s.Pos).Exec(ctx)
	} else {
		err = db.SiteSection.Update().Where(sitesection.ID(s.ID)).SetPosition(s.Pos).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("renumbering a site's sections and groups: %w", err)
	}
	return nil
}

func (r *Resolver) siteSections(ctx context.Context, s *ent.Site, a page.Args) (*model.SiteSectionConnection, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	conn, err := page.Paginate(within(ctx), r.db(ctx).SiteSection.Query().Where(sitesection.SiteID(s.ID)), sectionsByPosition, a)
	if err != nil {
		return nil, err
	}
	l := r.sections.loader(ctx)
	ids := make([]string, 0, len(conn.Edges))
	for _, sec := range conn.Nodes() {
		l.Prime(ctx, sec.ID, sec)
		ids = append(ids, sec.ID)
	}
	// Their site-spaces, in one statement for the page.
	if err := r.primeSectionSiteSpaces(ctx, ids); err != nil {
		return nil, err
	}
	return model.NewSiteSectionConnection(conn), nil
}

// primeSectionSiteSpaces loads the site-spaces of sections in one statement
// and primes the request's loaders with them, and their spaces in one more.
func (r *Resolver) primeSectionSiteSpaces(ctx context.Context, sectionIDs []string) error {
	if len(sectionIDs) == 0 {
		return nil
	}
	bySection, err := r.loadSectionSiteSpaces(ctx, sectionIDs)
	if err != nil {
		return err
	}
	r.primeSiteSpaces(ctx, sectionIDs, bySection)
	return nil
}

// primeSiteSpaces primes the request's loaders with the site-spaces of
// sections, read beforehand, and loads their spaces in one statement.
func (r *Resolver) primeSiteSpaces(ctx context.Context, sectionIDs []string, bySection map[string][]*ent.SiteSpace) {
	ld, ssl := loadersFrom(ctx).sectionSiteSpaces(), r.sitespaces.loader(ctx)
	var spaces []string
	for _, sec := range sectionIDs {
		ld.Prime(ctx, sec, bySection[sec])
		for _, ss := range bySection[sec] {
			ssl.Prime(ctx, ss.ID, ss)
			spaces = append(spaces, ss.SpaceID)
		}
	}
	r.spaces.prefetch(ctx, spaces)
}

// loadSectionSiteSpaces lists the site-spaces of sections, in order.
func (r *Resolver) loadSectionSiteSpaces(ctx context.Context, sectionIDs []string) (map[string][]*ent.SiteSpace, error) {
	ctx = internal(ctx, "the site-spaces of sections the viewer sees")
	rows, err := r.db(ctx).SiteSpace.Query().Where(sitespace.SectionIDIn(sectionIDs...)).
		Order(sitespace.ByPosition(), sitespace.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading the site-spaces of sections: %w", err)
	}
	out := make(map[string][]*ent.SiteSpace, len(sectionIDs))
	for _, ss := range rows {
		out[*ss.SectionID] = append(out[*ss.SectionID], ss)
	}
	return out, nil
}

func (r *Resolver) sectionSiteSpaces(ctx context.Context, sec *ent.SiteSection) ([]*ent.SiteSpace, error) {
	return load(ctx, loadersFrom(ctx).sectionSiteSpaces(), sec.ID)
}

func (r *Resolver) siteSiteSpaces(ctx context.Context, s *ent.Site, isDefault *bool, a page.Args) (*model.SiteSpaceConnection, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	q := r.db(ctx).SiteSpace.Query().Where(sitespace.SiteID(s.ID))
	if isDefault != nil {
		q.Where(sitespace.IsDefault(*isDefault))
	}
	conn, err := page.Paginate(within(ctx), q, siteSpacesByPosition, a)
	if err != nil {
		return nil, err
	}
	l := r.sitespaces.loader(ctx)
	spaces := make([]string, 0, len(conn.Edges))
	var sections []string
	for _, ss := range conn.Nodes() {
		l.Prime(ctx, ss.ID, ss)
		spaces = append(spaces, ss.SpaceID)
		if ss.SectionID != nil {
			sections = append(sections, *ss.SectionID)
		}
	}
	r.spaces.prefetch(ctx, spaces)
	r.sections.prefetch(ctx, sections)
	return model.NewSiteSpaceConnection(conn), nil
}

// SiteSectionOf loads a section of a site, for /v1's paths: not found when
// it is another site's.
func (r *Resolver) SiteSectionOf(ctx context.Context, siteID, sectionID string) (*ent.SiteSection, error) {
	sec, _, err := r.sections.get(ctx, sectionID)
	if err == nil && sec.SiteID != siteID {
		return nil, r.sections.notFound()
	}
	return sec, err
}

// SiteSpaceOf loads a site-space of a site, for /v1's paths: not found when
// it is another site's.
func (r *Resolver) SiteSpaceOf(ctx context.Context, siteID, siteSpaceID string) (*ent.SiteSpace, error) {
	ss, _, err := r.sitespaces.get(ctx, siteSpaceID)
	if err == nil && ss.SiteID != siteID {
		return nil, r.sitespaces.notFound()
	}
	return ss, err
}

// checkCondition checks a condition being saved: absent leaves it, null
// removes it.
func checkCondition(c graphql.Omittable[*string]) error {
	if v, set := c.ValueOK(); set && v != nil {
		if err := condition.Check(*v); err != nil {
			return apperr.Invalid("condition", "%v", err)
		}
	}
	return nil
}

func (r *Resolver) createSiteSection(ctx context.Context, in model.CreateSiteSectionInput) (*ent.SiteSection, error) {
	if in.Title != nil {
		if err := validate.SectionCreateTitle(*in.Title); err != nil {
			return nil, apperr.Invalid("title", "%v", err)
		}
	}
	return mutateLocked(ctx, r, r.siteLock(site.ID(in.SiteID)), r.sites, in.SiteID, authz.Update,
		func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.SiteSection, error) {
			if err := r.restructured(ctx, s); err != nil {
				return nil, err
			}
			spaces, err := r.siteSpacesToAdd(ctx, s.OrganizationID, []string{in.SpaceID})
			if apperr.KindOf(err) == apperr.InvalidArgument {
				return nil, apperr.Invalid("spaceId", "%q is not a space of the site's organization", in.SpaceID)
			}
			if err != nil {
				return nil, err
			}
			sp := spaces[0]
			ctx = internal(ctx, "the structure of a site its admin changes")
			db := r.db(ctx)
			items, err := r.siteItems(ctx, s.ID)
			if err != nil {
				return nil, err
			}
			taken, hasDefault, sections := map[string]bool{}, false, 0
			for _, it := range items {
				if !it.isGroup() {
					taken[*it.Path], hasDefault, sections = true, hasDefault || *it.IsDefault, sections+1
				}
			}
			if sections == 0 {
				// The site's first section: its site-spaces at the root move
				// into a default section first.
				def, err := r.adoptRootSiteSpaces(ctx, s, items, taken)
				if err != nil {
					return nil, err
				}
				if def != nil {
					items, hasDefault = append(items, siteItem{ID: def.ID, Position: def.Position}), true
				}
			}
			title := sp.Title
			if in.Title != nil && strings.TrimSpace(*in.Title) != "" {
				title = strings.TrimSpace(*in.Title)
			}
			path := freePath(taken, title)
			b := db.SiteSection.Create().SetSiteID(s.ID).SetTitle(title).SetPath(path).
				SetPosition(lastSitePosition(items)).SetIsDefault(!hasDefault)
			if in.Icon != nil {
				b.SetIcon(*in.Icon)
			}
			sec, err := b.Save(ctx)
			if err != nil {
				return nil, sectionPathTaken(err, path)
			}
			ss, err := db.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(sp.ID).
				SetPath(freePath(map[string]bool{}, sp.Title)).SetPosition(position.Step).SetIsDefault(true).Save(ctx)
			if err != nil {
				return nil, err
			}
			r.sections.wrote(ctx, sec)
			r.sitespaces.wrote(ctx, ss)
			primeAfter(ctx, (*loaders).sectionSiteSpaces, sec.ID, []*ent.SiteSpace{ss})
			return sec, nil
		})
}

// sectionPathTaken reports a save of a section that another section's path
// refused (the unique index of a site's section paths) as the conflict it
// is; other errors pass. The site's lock makes it rare: the check before
// the save sees the other paths.
func sectionPathTaken(err error, path string) error {
	if store.IsUniqueViolation(err) {
		return apperr.Conflictf("Another section of the site has the path %q", path)
	}
	return err
}

// siteSpacePathTaken is sectionPathTaken for the path of a site-space among
// its siblings.
func siteSpacePathTaken(err error, path string) error {
	if store.IsUniqueViolation(err) {
		return apperr.Conflictf("Another site-space beside it has the path %q", path)
	}
	return err
}

// restructured records, for the answer of a change to a site's structure,
// the site and the viewer's access to its organization, which deciding
// about the site read.
func (r *Resolver) restructured(ctx context.Context, s *ent.Site) error {
	r.sites.wrote(ctx, s)
	return r.wroteAccess(ctx, s.OrganizationID)
}

// siteLock is the lock every change to a site's structure takes first: the
// site's row (see lockSite), which selects.
func (r *Resolver) siteLock(which predicate.Site) func(ctx context.Context) error {
	return func(ctx context.Context) error { return r.lockSite(ctx, which) }
}

// adoptRootSiteSpaces moves the site-spaces at a site's root into a new
// default section, first among the site's items (its groups, since it has
// no sections), and returns it; nil when there are none.
func (r *Resolver) adoptRootSiteSpaces(ctx context.Context, s *ent.Site, items []siteItem, taken map[string]bool) (*ent.SiteSection, error) {
	db := r.db(ctx)
	n, err := db.SiteSpace.Query().Where(sitespace.SiteID(s.ID), sitespace.SectionIDIsNil()).Count(ctx)
	if err != nil || n == 0 {
		return nil, err
	}
	first := position.Step
	if len(items) > 0 {
		first = items[0].Position - position.Step
	}
	def, err := db.SiteSection.Create().SetSiteID(s.ID).SetTitle(s.Title).SetPath(freePath(taken, s.Title)).
		SetPosition(first).SetIsDefault(true).Save(ctx)
	if err != nil {
		return nil, err
	}
	return def, db.SiteSpace.Update().Where(sitespace.SiteID(s.ID), sitespace.SectionIDIsNil()).SetSectionID(def.ID).Exec(ctx)
}

func (r *Resolver) updateSiteSection(ctx context.Context, in model.UpdateSiteSectionInput) (*ent.SiteSection, error) {
	if err := checkCondition(in.Condition); err != nil {
		return nil, err
	}
	part := r.sectionPart()
	return mutateLocked(ctx, r, r.siteLock(part.site(in.ID)), r.sections, in.ID, authz.Update,
		func(ctx context.Context, sec *ent.SiteSection, _ authz.Decision) (*ent.SiteSection, error) {
			ctx = internal(ctx, "the structure of a site its admin changes")
			db := r.db(ctx)
			u := sec.Update()
			if in.Title != nil {
				u.SetTitle(strings.TrimSpace(*in.Title))
			}
			if in.Path != nil {
				taken, err := db.SiteSection.Query().Where(sitesection.SiteID(sec.SiteID), sitesection.IDNEQ(sec.ID),
					sitesection.Path(*in.Path)).Exist(ctx)
				if err != nil {
					return nil, err
				}
				if taken {
					return nil, apperr.Conflictf("Another section of the site has the path %q", *in.Path)
				}
				u.SetPath(*in.Path)
			}
			setOmittable(in.Condition, u.SetCondition, u.ClearCondition)
			setOmittable(in.Icon, u.SetIcon, u.ClearIcon)
			setOmittable(in.Description, u.SetDescription, u.ClearDescription)
			if in.DefaultSiteSpace != nil {
				ss, err := db.SiteSpace.Query().Where(sitespace.ID(*in.DefaultSiteSpace), sitespace.SectionID(sec.ID)).Only(ctx)
				if ent.IsNotFound(err) {
					return nil, apperr.Invalid("defaultSiteSpace", "%q is not a site-space of the section", *in.DefaultSiteSpace)
				}
				if err != nil {
					return nil, err
				}
				if err := r.markDefaultSiteSpace(ctx, sec.SiteID, ss); err != nil {
					return nil, err
				}
			}
			sec, err := u.Save(ctx)
			if err != nil && in.Path != nil {
				return nil, sectionPathTaken(err, *in.Path)
			}
			return sec, err
		})
}

// setOmittable applies an optional, nullable input: absent leaves the field,
// null clears it.
func setOmittable[U any](o graphql.Omittable[*string], set func(string) U, clear func() U) {
	if v, ok := o.ValueOK(); ok {
		if v == nil {
			clear()
		} else {
			set(*v)
		}
	}
}

func (r *Resolver) deleteSiteSection(ctx context.Context, in model.DeleteSiteSectionInput) error {
	return deleteSitePart(ctx, r, r.sectionPart(), in.ID)
}

func (r *Resolver) moveSiteSection(ctx context.Context, in model.MoveSiteSectionInput) (*ent.SiteSection, error) {
	return moveSitePart(ctx, r, r.sectionPart(), in.ID, in.Position)
}

// placedOutsideGroup reports whether a position names a section that is not
// in the group.
func placedOutsideGroup(items []siteItem, groupID string, pos *model.SitePositionInput) bool {
	if pos == nil {
		return false
	}
	for _, ref := range []*string{pos.Before, pos.After} {
		if ref == nil {
			continue
		}
		i := slices.IndexFunc(items, func(it siteItem) bool { return it.ID == *ref })
		if i >= 0 && !items[i].isGroup() && (items[i].GroupID == nil || *items[i].GroupID != groupID) {
			return true
		}
	}
	return false
}

// movedPosition returns the position of a site-space moved to pos among
// its siblings, rows (which leave it out; of gives a row's ID and
// position), renumbering them through set when there is no room.
func movedPosition[T any](ctx context.Context, rows []T, of func(T) (string, float64), pos *model.SitePositionInput,
	set func(ctx context.Context, id string, pos float64) error) (float64, error) {
	sibs := make([]position.Sibling, len(rows))
	for i, x := range rows {
		sibs[i].ID, sibs[i].Pos = of(x)
	}
	position.Sort(sibs)
	var before, after *string
	if pos != nil {
		before, after = pos.Before, pos.After
	}
	k, err := position.Index(sibs, before, after)
	if err != nil {
		return 0, err
	}
	return position.Place(ctx, sibs, k, func(ctx context.Context, s position.Sibling) error { return set(ctx, s.ID, s.Pos) })
}

func (r *Resolver) createSiteSpace(ctx context.Context, in model.CreateSiteSpaceInput) (*ent.SiteSpace, error) {
	return mutateLocked(ctx, r, r.siteLock(site.ID(in.SiteID)), r.sites, in.SiteID, authz.Update,
		func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.SiteSpace, error) {
			if err := r.restructured(ctx, s); err != nil {
				return nil, err
			}
			spaces, err := r.siteSpacesToAdd(ctx, s.OrganizationID, []string{in.SpaceID})
			if apperr.KindOf(err) == apperr.InvalidArgument {
				return nil, apperr.Invalid("spaceId", "%q is not a space of the site's organization", in.SpaceID)
			}
			if err != nil {
				return nil, err
			}
			ctx = internal(ctx, "the structure of a site its admin changes")
			db := r.db(ctx)
			// The parent: the named section, else the default section, else
			// the root.
			q := db.SiteSection.Query().Where(sitesection.SiteID(s.ID))
			if in.SectionID != nil {
				q.Where(sitesection.ID(*in.SectionID))
			} else {
				q.Order(sitesection.ByIsDefault(sql.OrderDesc()), sitesection.ByPosition(), sitesection.ByID())
			}
			sections, err := q.Limit(1).All(ctx)
			if err != nil {
				return nil, err
			}
			var parent *string
			switch {
			case len(sections) == 1:
				r.sections.wrote(ctx, sections[0])
				parent = &sections[0].ID
			case in.SectionID != nil:
				return nil, apperr.Invalid("sectionId", "%q is not a section of the site", *in.SectionID)
			}
			sibs, err := db.SiteSpace.Query().Where(sitestruct.Siblings(s.ID, parent)).
				Select(sitespace.FieldPath, sitespace.FieldPosition).All(ctx)
			if err != nil {
				return nil, err
			}
			taken, last := map[string]bool{}, 0.0
			for _, x := range sibs {
				taken[x.Path], last = true, max(last, x.Position)
			}
			path := freePath(taken, spaces[0].Title)
			ss, err := db.SiteSpace.Create().SetSiteID(s.ID).SetNillableSectionID(parent).SetSpaceID(spaces[0].ID).
				SetPath(path).SetPosition(last + position.Step).SetIsDefault(len(sibs) == 0).Save(ctx)
			if err != nil {
				return nil, siteSpacePathTaken(err, path)
			}
			r.sitespaces.wrote(ctx, ss)
			return ss, nil
		})
}

func (r *Resolver) updateSiteSpace(ctx context.Context, in model.UpdateSiteSpaceInput) (*ent.SiteSpace, error) {
	if err := checkCondition(in.Condition); err != nil {
		return nil, err
	}
	part := r.siteSpacePart()
	return mutateLocked(ctx, r, r.siteLock(part.site(in.ID)), r.sitespaces, in.ID, authz.Update,
		func(ctx context.Context, ss *ent.SiteSpace, _ authz.Decision) (*ent.SiteSpace, error) {
			ctx = internal(ctx, "the structure of a site its admin changes")
			u := ss.Update()
			if in.Path != nil {
				taken, err := r.db(ctx).SiteSpace.Query().Where(sitestruct.Siblings(ss.SiteID, ss.SectionID), sitespace.IDNEQ(ss.ID),
					sitespace.Path(*in.Path)).Exist(ctx)
				if err != nil {
					return nil, err
				}
				if taken {
					return nil, apperr.Conflictf("Another site-space beside it has the path %q", *in.Path)
				}
				u.SetPath(*in.Path)
			}
			setOmittable(in.Condition, u.SetCondition, u.ClearCondition)
			ss, err := u.Save(ctx)
			if err != nil && in.Path != nil {
				return nil, siteSpacePathTaken(err, *in.Path)
			}
			return ss, err
		})
}

func (r *Resolver) deleteSiteSpace(ctx context.Context, in model.DeleteSiteSpaceInput) error {
	return deleteSitePart(ctx, r, r.siteSpacePart(), in.ID)
}

func (r *Resolver) moveSiteSpace(ctx context.Context, in model.MoveSiteSpaceInput) (*ent.SiteSpace, error) {
	return moveSitePart(ctx, r, r.siteSpacePart(), in.ID, in.Position)
}

// sitePart is a kind of part of a site's structure, a section, a site-space
// or a section group, as deleting and moving one need it. Every kind is
// deleted by deleteSitePart and moved by moveSitePart, which keep the rules
// above the same way for all: the site's lock first, then the part, with
// the action; a default that is always there; positions that differ.
type sitePart[T ent.Noder, P ~func(*sql.Selector)] struct {
	policy *policy[T, P]
	// site selects the site of the part with the ID (see lockSite).
	site func(id string) predicate.Site
	// position returns the position of x moved to pos among its siblings,
	// renumbering them when there is no room.
	position func(ctx context.Context, x T, pos *model.SitePositionInput) (float64, error)
	// setPosition saves x at a position, and returns it as saved.
	setPosition func(ctx context.Context, x T, pos float64) (T, error)
	// remove deletes x and what goes with it.
	remove func(ctx context.Context, x T) error
	// wasDefault reports whether x was its siblings' default; promote then
	// makes the first of those left the default. Nil for a kind without a
	// default.
	wasDefault func(x T) bool
	promote    func(ctx context.Context, x T) error
}

// deleteSitePart deletes a part of a site's structure; when it was the
// default among its siblings, the first of those left takes its place.
func deleteSitePart[T ent.Noder, P ~func(*sql.Selector)](ctx context.Context, r *Resolver, part sitePart[T, P], id string) error {
	_, err := mutateLocked(ctx, r, r.siteLock(part.site(id)), part.policy, id, authz.Delete,
		func(ctx context.Context, x T, _ authz.Decision) (struct{}, error) {
			ctx = internal(ctx, "the structure of a site its admin changes")
			if err := part.remove(ctx, x); err != nil {
				return struct{}{}, err
			}
			if part.wasDefault == nil || !part.wasDefault(x) {
				return struct{}{}, nil
			}
			return struct{}{}, part.promote(ctx, x)
		})
	return err
}

// moveSitePart moves a part of a site's structure to pos among its
// siblings.
func moveSitePart[T ent.Noder, P ~func(*sql.Selector)](ctx context.Context, r *Resolver, part sitePart[T, P], id string,
	pos *model.SitePositionInput) (T, error) {
	return mutateLocked(ctx, r, r.siteLock(part.site(id)), part.policy, id, authz.Update,
		func(ctx context.Context, x T, _ authz.Decision) (T, error) {
			ctx = internal(ctx, "positions, which are not shown")
			at, err := part.position(ctx, x, pos)
			if err != nil {
				var zero T
				return zero, err
			}
			return part.setPosition(ctx, x, at)
		})
}

// sectionPart is the kind of a site's sections. They share their order
// with the site's groups, and a section of a group placed beside a section
// outside its group takes its group there: at the top level the group
// stands for it, and the published structure shows it there.
func (r *Resolver) sectionPart() sitePart[*ent.SiteSection, predicate.SiteSection] {
	return sitePart[*ent.SiteSection, predicate.SiteSection]{
		policy: r.sections,
		site:   func(id string) predicate.Site { return site.HasSectionsWith(sitesection.ID(id)) },
		position: func(ctx context.Context, sec *ent.SiteSection, pos *model.SitePositionInput) (float64, error) {
			items, err := r.siteItems(ctx, sec.SiteID)
			if err != nil {
				return 0, err
			}
			at, err := r.movedSitePosition(ctx, items, sec.ID, pos)
			if err != nil || sec.GroupID == nil || !placedOutsideGroup(items, *sec.GroupID, pos) {
				return at, err
			}
			return at, r.db(ctx).SiteSectionGroup.Update().Where(sitesectiongroup.ID(*sec.GroupID)).SetPosition(at).Exec(ctx)
		},
		setPosition: func(ctx context.Context, sec *ent.SiteSection, pos float64) (*ent.SiteSection, error) {
			return sec.Update().SetPosition(pos).Save(ctx)
		},
		remove: func(ctx context.Context, sec *ent.SiteSection) error {
			return r.db(ctx).SiteSection.DeleteOne(sec).Exec(ctx)
		},
		wasDefault: func(sec *ent.SiteSection) bool { return sec.IsDefault },
		promote: func(ctx context.Context, sec *ent.SiteSection) error {
			next, err := r.db(ctx).SiteSection.Query().Where(sitesection.SiteID(sec.SiteID)).
				Order(sitesection.ByPosition(), sitesection.ByID()).First(ctx)
			if ent.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			return next.Update().SetIsDefault(true).Exec(ctx)
		},
	}
}

// siteSpacePart is the kind of a site's site-spaces, ordered among those of
// their parent: a section, or the site's root.
func (r *Resolver) siteSpacePart() sitePart[*ent.SiteSpace, predicate.SiteSpace] {
	return sitePart[*ent.SiteSpace, predicate.SiteSpace]{
		policy: r.sitespaces,
		site:   func(id string) predicate.Site { return site.HasSiteSpacesWith(sitespace.ID(id)) },
		position: func(ctx context.Context, ss *ent.SiteSpace, pos *model.SitePositionInput) (float64, error) {
			rows, err := r.db(ctx).SiteSpace.Query().Where(sitestruct.Siblings(ss.SiteID, ss.SectionID), sitespace.IDNEQ(ss.ID)).
				Select(sitespace.FieldID, sitespace.FieldPosition).All(ctx)
			if err != nil {
				return 0, err
			}
			return movedPosition(ctx, rows, func(x *ent.SiteSpace) (string, float64) { return x.ID, x.Position }, pos,
				func(ctx context.Context, id string, p float64) error {
					return r.db(ctx).SiteSpace.Update().Where(sitespace.ID(id)).SetPosition(p).Exec(ctx)
				})
		},
		setPosition: func(ctx context.Context, ss *ent.SiteSpace, pos float64) (*ent.SiteSpace, error) {
			return ss.Update().SetPosition(pos).Save(ctx)
		},
		remove: func(ctx context.Context, ss *ent.SiteSpace) error {
			return r.db(ctx).SiteSpace.DeleteOne(ss).Exec(ctx)
		},
		wasDefault: func(ss *ent.SiteSpace) bool { return ss.IsDefault },
		promote: func(ctx context.Context, ss *ent.SiteSpace) error {
			return sitestruct.PromoteDefault(ctx, r.db(ctx), ss.SiteID, ss.SectionID)
		},
	}
}

// siteSpaceTitle is the title a site-space shows: its own, or its space's.
func (r *Resolver) siteSpaceTitle(ctx context.Context, ss *ent.SiteSpace) (string, error) {
	if ss.Title != nil {
		return *ss.Title, nil
	}
	sp, err := r.spaces.visible(ctx, &ss.SpaceID)
	if err != nil || sp == nil {
		return ss.Path, err
	}
	return sp.Title, nil
}

// sectionPublishedURL is a section's published address, while its site is
// published.
func (r *Resolver) sectionPublishedURL(ctx context.Context, sec *ent.SiteSection) (*string, error) {
	s, _, err := r.sites.get(ctx, sec.SiteID)
	if err != nil || !s.Published {
		return nil, err
	}
	u := r.sitePublishedURL(s) + "/" + sec.Path
	return &u, nil
}

// siteSpacePublishedURL is a site-space's published address, while its site
// is published: under its section's.
func (r *Resolver) siteSpacePublishedURL(ctx context.Context, ss *ent.SiteSpace) (*string, error) {
	s, _, err := r.sites.get(ctx, ss.SiteID)
	if err != nil || !s.Published {
		return nil, err
	}
	base := r.sitePublishedURL(s)
	if ss.SectionID != nil {
		sec, _, err := r.sections.get(ctx, *ss.SectionID)
		if err != nil {
			return nil, err
		}
		base += "/" + sec.Path
	}
	u := base + "/" + ss.Path
	return &u, nil
}

// SitePartLocation is the /v1 address of a section or site-space (kind
// "sections" or "site-spaces") of a site: what a 201 answers as its
// Location.
func (r *Resolver) SitePartLocation(ctx context.Context, siteID, kind, id string) (string, error) {
	s, _, err := r.sites.get(ctx, siteID)
	if err != nil {
		return "", err
	}
	return r.siteURLs(s).Location + "/" + kind + "/" + id, nil
}
