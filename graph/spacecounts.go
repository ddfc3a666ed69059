package graph

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/enum"
)

// The counters of a space are columns of its row when it is read: each a
// correlated count over an index, so a space and its counters cost one
// statement, and a page of spaces one too.
const (
	countChangeRequests = "count_change_requests"
	countOpen           = "count_open"
	countDraft          = "count_draft"
	countComments       = "count_comments"
)

// withCounts adds the counters to a query of spaces.
func withCounts(s *sql.Selector) {
	count := func(table, spaceColumn string, where func(t *sql.SelectTable) []*sql.Predicate) *sql.Selector {
		t := sql.Table(table).As("n")
		preds := append([]*sql.Predicate{sql.ColumnsEQ(t.C(spaceColumn), s.C(space.FieldID))}, where(t)...)
		return sql.Select(sql.Count("*")).From(t).Where(sql.And(preds...))
	}
	crs := func(status ...enum.ChangeRequestStatus) *sql.Selector {
		return count(changerequest.Table, changerequest.FieldSpaceID, func(t *sql.SelectTable) []*sql.Predicate {
			if len(status) == 0 {
				return nil
			}
			return []*sql.Predicate{sql.EQ(t.C(changerequest.FieldStatus), string(status[0]))}
		})
	}
	s.AppendSelectExprAs(crs(), countChangeRequests).
		AppendSelectExprAs(crs(enum.ChangeRequestStatusOpen), countOpen).
		AppendSelectExprAs(crs(enum.ChangeRequestStatusDraft), countDraft).
		AppendSelectExprAs(count(comment.Table, comment.FieldSpaceID, func(t *sql.SelectTable) []*sql.Predicate {
			return []*sql.Predicate{sql.IsNull(t.C(comment.FieldChangeRequestID)),
				sql.EQ(t.C(comment.FieldStatus), string(enum.CommentStatusOpen))}
		}), countComments)
}

// countsOf reads the counters of a space read withCounts; ok is false when
// it was read without.
func countsOf(s *ent.Space) (c spaceCounts, ok bool) {
	for name, dst := range map[string]*int{countChangeRequests: &c.ChangeRequests, countOpen: &c.Open,
		countDraft: &c.Draft, countComments: &c.Comments} {
		v, err := s.Value(name)
		if err != nil {
			return spaceCounts{}, false
		}
		n, ok := v.(int64)
		if !ok {
			return spaceCounts{}, false
		}
		*dst = int(n)
	}
	return c, true
}

// primeCounts primes the counters of spaces read withCounts.
func primeCounts(ctx context.Context, spaces []*ent.Space) {
	l := loadersFrom(ctx)
	for _, s := range spaces {
		if c, ok := countsOf(s); ok {
			l.spaceCounts().Prime(ctx, s.ID, c)
		}
	}
}

// loadSpaceCounts counts, for spaces read without their counters.
func (r *Resolver) loadSpaceCounts(ctx context.Context, ids []string) (map[string]spaceCounts, error) {
	ctx = internal(ctx, "counts of spaces the viewer sees")
	rows, err := r.db(ctx).Space.Query().Where(space.IDIn(ids...)).Select(space.FieldID).Modify(withCounts).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting change requests and comments: %w", err)
	}
	out := make(map[string]spaceCounts, len(rows))
	for _, s := range rows {
		out[s.ID], _ = countsOf(s)
	}
	return out, nil
}
