package graph

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
)

// The counters of a space (change requests: all, open, draft; open comments
// on the space itself) are columns of its row, which triggers keep in the
// transaction of every change to a change request or comment (see the Space
// schema). A space read by ID or in a page primes them (primeCounts), so
// showing them costs no statement. A space primed after a transaction (the
// answer of a mutation) does not: the transaction may have moved them
// behind its back, so they are read again, by ID, when asked for.

// countsOf returns the counters a space's row holds.
func countsOf(s *ent.Space) spaceCounts {
	return spaceCounts{Comments: s.CommentOpenCount, ChangeRequests: s.CrCount, Open: s.CrOpenCount, Draft: s.CrDraftCount}
}

// primeCounts primes the counters of spaces read from the database.
func primeCounts(ctx context.Context, spaces []*ent.Space) {
	l := loadersFrom(ctx)
	for _, s := range spaces {
		l.spaceCounts().Prime(ctx, s.ID, countsOf(s))
	}
}

// loadSpaceCounts reads the counters of spaces whose rows were read before
// a change that may have moved them.
func (r *Resolver) loadSpaceCounts(ctx context.Context, ids []string) (map[string]spaceCounts, error) {
	ctx = internal(ctx, "counts of spaces the viewer sees")
	rows, err := r.db(ctx).Space.Query().Where(space.IDIn(ids...)).
		Select(space.FieldID, space.FieldCrCount, space.FieldCrOpenCount, space.FieldCrDraftCount, space.FieldCommentOpenCount).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the counters of spaces: %w", err)
	}
	out := make(map[string]spaceCounts, len(rows))
	for _, s := range rows {
		out[s.ID] = countsOf(s)
	}
	return out, nil
}
