package graph

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
)

// Spaces and collections with the same parent are siblings, ordered by a
// float position (ties broken by ID). An item moved between two siblings
// takes the midpoint of their positions, so a move writes one row. When
// repeated moves exhaust the precision between two neighbours, the siblings
// are renumbered once, in the same transaction.

const positionStep = 1024.0

type sibling struct {
	id      string
	pos     float64
	isSpace bool
}

// siblings returns the live spaces and collections under parent (nil for the
// organization root), in order, without the item except.
func (r *Resolver) siblings(ctx context.Context, orgID string, parent *string, except string) ([]sibling, error) {
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
	out := make([]sibling, 0, len(cols)+len(spcs))
	for _, c := range cols {
		out = append(out, sibling{id: c.ID, pos: c.Position})
	}
	for _, s := range spcs {
		out = append(out, sibling{id: s.ID, pos: s.Position, isSpace: true})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pos != out[j].pos {
			return out[i].pos < out[j].pos
		}
		return out[i].id < out[j].id
	})
	return out, nil
}

// insertionIndex returns where, among sibs, an item goes for the requested
// position; without one it goes last.
func insertionIndex(sibs []sibling, pos *model.ContentPositionInput) (int, error) {
	if pos == nil || (pos.Before == nil && pos.After == nil) {
		return len(sibs), nil
	}
	find := func(field, id string) (int, error) {
		for i, s := range sibs {
			if s.id == id {
				return i, nil
			}
		}
		return 0, apperr.Invalid(field, "%q is not an item of the destination", id)
	}
	if pos.After != nil {
		i, err := find("position.after", *pos.After)
		if err != nil {
			return 0, err
		}
		if pos.Before != nil && (i+1 >= len(sibs) || sibs[i+1].id != *pos.Before) {
			return 0, apperr.Invalid("position", "before and after must name adjacent items")
		}
		return i + 1, nil
	}
	return find("position.before", *pos.Before)
}

// place returns the position for an item inserted at index k of sibs,
// renumbering siblings first when there is no room left between them.
//
// A renumbering lowers positions and never raises one: it moves the siblings
// before index k down, one step apart, below the sibling at k, and leaves
// the others alone. So the highest position among siblings never drops, and
// an item that afterLast placed above it, without the placement lock, stays
// last whatever a concurrent move renumbers.
func (r *Resolver) place(ctx context.Context, sibs []sibling, k int) (float64, error) {
	return placeWith(ctx, sibs, k, r.setPosition)
}

// placeWith is place for siblings of any kind: set writes a sibling's new
// position when they are renumbered.
func placeWith(ctx context.Context, sibs []sibling, k int, set func(context.Context, sibling) error) (float64, error) {
	lo, hi := 0.0, 0.0
	switch {
	case len(sibs) == 0:
		return positionStep, nil
	case k == len(sibs):
		return sibs[k-1].pos + positionStep, nil
	case k == 0:
		lo, hi = sibs[0].pos-positionStep, sibs[0].pos
	default:
		lo, hi = sibs[k-1].pos, sibs[k].pos
	}
	if mid := lo + (hi-lo)/2; lo < mid && mid < hi {
		return mid, nil
	}
	if k > 0 {
		head := make([]float64, k)
		for i := range head {
			head[i] = hi - float64(k-i)*positionStep
		}
		if lo, mid := head[k-1], hi-positionStep/2; lo < mid && mid < hi {
			for i := range head {
				sibs[i].pos = head[i]
				if err := set(ctx, sibs[i]); err != nil {
					return 0, err
				}
			}
			return mid, nil
		}
	}
	// Only positions this far from zero leave no room a step below them,
	// and reaching them takes billions of moves: start over from small ones.
	for i := range sibs {
		sibs[i].pos = float64(i+1) * positionStep
		if err := set(ctx, sibs[i]); err != nil {
			return 0, err
		}
	}
	return placeWith(ctx, sibs, k, set)
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
	// front) the first item goes at positionStep, as place puts it.
	top := 0.0
	for _, p := range tops {
		top = max(top, p)
	}
	return top + positionStep, nil
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

func (r *Resolver) setPosition(ctx context.Context, s sibling) error {
	// A position is written, not compared: a bulk update by ID, which the
	// TimeMixin's hook of single-row updates does not read the row for.
	var err error
	if s.isSpace {
		err = r.db(ctx).Space.Update().Where(space.ID(s.id)).SetPosition(s.pos).Exec(ctx)
	} else {
		err = r.db(ctx).Collection.Update().Where(collection.ID(s.id)).SetPosition(s.pos).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("renumbering siblings: %w", err)
	}
	return nil
}

// neighbours returns the IDs around index k of sibs.
func neighbours(sibs []sibling, k int) (prev, next string) {
	if k > 0 {
		prev = sibs[k-1].id
	}
	if k < len(sibs) {
		next = sibs[k].id
	}
	return prev, next
}

// currentIndex returns the index of an item among its siblings (which do not
// contain it) from its current position.
func currentIndex(sibs []sibling, id string, pos float64) int {
	return sort.Search(len(sibs), func(i int) bool {
		return sibs[i].pos > pos || (sibs[i].pos == pos && sibs[i].id > id)
	})
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
	for _, id := range ids {
		_, err := r.db(ctx).Organization.Query().Where(organization.ID(id)).Unique(false).
			Select(organization.FieldID).
			Modify(forNoKeyUpdate).Strings(ctx)
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

// forNoKeyUpdate locks the selected rows until the transaction ends, on
// PostgreSQL. SQLite serializes write transactions already.
func forNoKeyUpdate(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.For(sql.LockNoKeyUpdate)
	}
}
