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
// renumbering the siblings first when there is no room left between them.
func (r *Resolver) place(ctx context.Context, sibs []sibling, k int) (float64, error) {
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
	for i := range sibs {
		sibs[i].pos = float64(i+1) * positionStep
		if err := r.setPosition(ctx, sibs[i]); err != nil {
			return 0, err
		}
	}
	return r.place(ctx, sibs, k)
}

// newPlace checks that the viewer may add content under parent (nil for the
// top level) of the organization, takes the placement lock, and returns the
// position of a new last item there.
func (r *Resolver) newPlace(ctx context.Context, orgID string, parent *string) (float64, error) {
	if _, _, err := r.orgs.get(ctx, orgID); err != nil {
		return 0, err
	}
	if err := r.lockPlacement(ctx, orgID); err != nil {
		return 0, err
	}
	if _, err := r.destination(ctx, orgID, parent, "parent"); err != nil {
		return 0, err
	}
	return r.lastPosition(ctx, orgID, parent, "")
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
	var err error
	if s.isSpace {
		err = r.db(ctx).Space.UpdateOneID(s.id).SetPosition(s.pos).Exec(ctx)
	} else {
		err = r.db(ctx).Collection.UpdateOneID(s.id).SetPosition(s.pos).Exec(ctx)
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

// lockPlacement serializes, per organization, the transactions that place
// content among siblings: they read positions, then write them, so two at
// once would pick the same place, or renumber the same siblings in different
// orders and deadlock. On PostgreSQL such a transaction first locks the rows
// of the organizations it places content in, in ID order; the lock does not
// conflict with inserts of their content. SQLite runs one writing
// transaction at a time anyway and has no row locks.
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
