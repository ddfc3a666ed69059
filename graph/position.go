package graph

import (
	"context"
	"fmt"
	"github.com/bindery/bindery/internal/store"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/position"
)

// Spaces and collections with the same parent are siblings, ordered as
// package position orders them; here they are read, written and locked.

// siblings returns the live spaces and collections under parent (nil for the
// organization root), in order, without the item except.
func (r *Resolver) siblings(ctx context.Context, orgID string, parent *string, except string) ([]position.Sibling, error) {
	ctx = internal(ctx, "positions, which are not shown")
	db := r.db(ctx)
	cq := db.Collection.Query().Where(collection.OrganizationID(orgID), collection.IDNEQ(except))
	sq := db.Space.Query().Where(space.OrganizationID(orgID), space.IDNEQ(except), live())
	if parent == nil {
		cq, sq = cq.Where(collection.ParentIDIsNil()), sq.Where(space.ParentIDIsNil())
	} else {
		cq, sq = cq.Where(collection.ParentID(*parent)), sq.Where(space.ParentID(*parent))
	}
	cols, err := cq.Select(collection.FieldID, collection.FieldPosition).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading sibling collections: %w", err)
	}
	spcs, err := sq.Select(space.FieldID, space.FieldPosition).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading sibling spaces: %w", err)
	}
	out := make([]position.Sibling, 0, len(cols)+len(spcs))
	for _, c := range cols {
		out = append(out, position.Sibling{ID: c.ID, Pos: c.Position})
	}
	for _, s := range spcs {
		out = append(out, position.Sibling{ID: s.ID, Pos: s.Position})
	}
	position.Sort(out)
	return out, nil
}

// place returns the position for an item inserted at index k of sibs,
// renumbering spaces and collections first when there is no room left
// between them. A renumbering never raises a position (position.Place), so
// an item that afterLast placed last, without the placement lock, stays
// last whatever a concurrent move renumbers.
func (r *Resolver) place(ctx context.Context, sibs []position.Sibling, k int) (float64, error) {
	return position.Place(ctx, sibs, k, r.setPosition)
}

// newPlace checks that the viewer may add content under parent (nil for the
// top level) of the organization, and returns the position of a new last
// item there. It takes no lock: see afterLast.
func (r *Resolver) newPlace(ctx context.Context, orgID string, parent *string) (float64, error) {
	if _, err := r.destination(ctx, orgID, parent, "parent"); err != nil {
		return 0, err
	}
	return r.afterLast(ctx, orgID, parent)
}

// afterLast returns a position after every item under parent (nil for the
// top level) of the organization, in one statement whatever their number:
// the highest position in each table, which an index answers without
// reading the siblings: (parent_id, position), or at the top level the
// partial (organization_id, position) WHERE parent_id IS NULL. Deleted spaces
// count too, so that no filter stands between the index and the answer; a
// deleted space goes last again when it is restored (restoreSpace).
//
// It takes no lock. Two items created at once may get the same position:
// siblings at equal positions are ordered by ID, and a move between them
// renumbers (see place). Nothing a concurrent move does puts an item above
// the new one: a move to the end takes the highest live position plus a
// step, at most the same, and renumbering never raises a position. On
// SQLite, write transactions run one at a time anyway.
func (r *Resolver) afterLast(ctx context.Context, orgID string, parent *string) (float64, error) {
	ctx = internal(ctx, "positions, which are not shown")
	// Spaces and collections name these columns alike.
	highest := func(t *sql.SelectTable, s *sql.Selector) {
		s.Select(sql.As("COALESCE(MAX("+t.C(space.FieldPosition)+"), 0)", "highest"))
		s.Where(sql.EQ(t.C(space.FieldOrganizationID), orgID))
		if parent == nil {
			s.Where(sql.IsNull(t.C(space.FieldParentID)))
		} else {
			s.Where(sql.EQ(t.C(space.FieldParentID), *parent))
		}
	}
	tops, err := r.db(ctx).Space.Query().Modify(func(s *sql.Selector) {
		highest(s.Table(), s)
		b := sql.Dialect(s.Dialect())
		t := b.Table(collection.Table)
		cs := b.Select().From(t)
		highest(t, cs)
		s.UnionAll(cs)
	}).Float64s(ctx)
	if err != nil {
		return 0, fmt.Errorf("finding the last position: %w", err)
	}
	// Without siblings (or with only negative positions, after moves to the
	// front) the first item goes at position.Step, as place puts it.
	top := 0.0
	for _, p := range tops {
		top = max(top, p)
	}
	return top + position.Step, nil
}

// titleOrUntitled is the title of new content: the one given, trimmed, or
// "Untitled" when none is.
func titleOrUntitled(title *string) string {
	if title == nil || strings.TrimSpace(*title) == "" {
		return "Untitled"
	}
	return strings.TrimSpace(*title)
}

// movedParent is the parent after a move: the requested one when the input
// names one (null for the top level), the current one otherwise.
func movedParent(current *string, requested graphql.Omittable[*string]) *string {
	if v, set := requested.ValueOK(); set {
		return v
	}
	return current
}

// lastPosition returns the position after the last of the siblings under
// parent, the item except left out.
func (r *Resolver) lastPosition(ctx context.Context, orgID string, parent *string, except string) (float64, error) {
	sibs, err := r.siblings(ctx, orgID, parent, except)
	if err != nil {
		return 0, err
	}
	return r.place(ctx, sibs, len(sibs))
}

func (r *Resolver) setPosition(ctx context.Context, s position.Sibling) error {
	// A position is written, not compared: a bulk update by ID, which the
	// TimeMixin's hook of single-row updates does not read the row for.
	var err error
	if id.PrefixOf(s.ID) == id.Space {
		err = r.db(ctx).Space.Update().Where(space.ID(s.ID)).SetPosition(s.Pos).Exec(ctx)
	} else {
		err = r.db(ctx).Collection.Update().Where(collection.ID(s.ID)).SetPosition(s.Pos).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("renumbering siblings: %w", err)
	}
	return nil
}

// lockPlacement serializes, per organization, the transactions that move
// content among siblings: they read positions, then write them, so two at
// once would pick the same place, or renumber the same siblings in different
// orders and deadlock. On PostgreSQL such a transaction first locks the rows
// of the organizations it places content in, in ID order; the lock does not
// conflict with inserts of their content. SQLite runs one writing
// transaction at a time anyway and has no row locks.
//
// Creating content does not take it: a new item goes last, and afterLast
// finds that place without reading the siblings or writing theirs.
func (r *Resolver) lockPlacement(ctx context.Context, orgIDs ...string) error {
	ctx = internal(ctx, "a lock")
	ids := slices.Compact(slices.Sorted(slices.Values(orgIDs)))
	for _, orgID := range ids {
		_, err := r.db(ctx).Organization.Query().Where(organization.ID(orgID)).Unique(false).
			Select(organization.FieldID).
			Modify(store.ForNoKeyUpdate).Strings(ctx)
		if err != nil {
			return fmt.Errorf("locking the organization: %w", err)
		}
	}
	return nil
}

// lockForSpace takes the placement lock of the space's organization, and of
// the other organizations given, before the space itself is read.
func (r *Resolver) lockForSpace(ctx context.Context, spaceID string, others ...string) error {
	orgs, err := r.db(ctx).Space.Query().Where(space.ID(spaceID)).Select(space.FieldOrganizationID).
		Strings(internal(ctx, "a lock, taken before the space is read and decided"))
	if err != nil {
		return fmt.Errorf("finding the space's organization: %w", err)
	}
	return r.lockPlacement(ctx, append(orgs, others...)...)
}

// lockForCollection takes the placement lock of the collection's
// organization, and of the other organizations given, before the collection
// itself is read.
func (r *Resolver) lockForCollection(ctx context.Context, collectionID string, others ...string) error {
	orgs, err := r.db(ctx).Collection.Query().Where(collection.ID(collectionID)).
		Select(collection.FieldOrganizationID).Strings(internal(ctx, "a lock, taken before the collection is read and decided"))
	if err != nil {
		return fmt.Errorf("finding the collection's organization: %w", err)
	}
	return r.lockPlacement(ctx, append(orgs, others...)...)
}
