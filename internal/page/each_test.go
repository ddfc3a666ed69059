package page_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/server/servertest"
)

// eachSeed creates parent collections holding 0, 3, 4 and 9 child
// collections, whose sort keys collide so that ties must be broken by ID,
// and returns the parents' IDs. A window of 3 then meets a parent with
// nothing, one with exactly 3 items and one with 3+1.
func eachSeed(t *testing.T, e *servertest.Env) []string {
	t.Helper()
	ctx := context.Background()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var parents []string
	for _, n := range []int{0, 3, 4, 9} {
		p, err := e.Client.Collection.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("parent of %d", n)).
			SetPosition(float64(100 + n)).Save(ctx)
		require.NoError(t, err)
		parents = append(parents, p.ID)
		for i := 0; i < n; i++ {
			_, err := e.Client.Collection.Create().SetOrganizationID(e.Org.ID).SetParentID(p.ID).
				SetTitle(fmt.Sprintf("t%d", i%2)).
				SetPosition(float64(i%3) / 3).
				SetCreatedAt(base.Add(time.Duration(i%2) * 1500 * time.Microsecond).Truncate(time.Millisecond)).
				Save(ctx)
			require.NoError(t, err)
		}
	}
	return parents
}

// children pages the child collections of the parents; grouped counts
// them in one statement.
func children(t *testing.T, e *servertest.Env, parents []string, o page.Order[*ent.Collection, predicate.Collection, collection.OrderOption],
	a page.Args, grouped bool) map[string]*page.Connection[*ent.Collection] {
	t.Helper()
	q := e.Client.Collection.Query().Where(collection.OrganizationID(e.Org.ID))
	each := page.Each[*ent.Collection]{
		Column: collection.FieldParentID, Parents: parents,
		Parent: func(c *ent.Collection) string { return *c.ParentID },
	}
	if grouped {
		each.Grouped = func(m func(*sql.Selector)) page.Scanner { return q.Clone().Modify(m) }
	}
	conns, err := page.PaginateEach(context.Background(), q, o, a, each)
	require.NoError(t, err)
	return conns
}

// TestPaginateEachIsPaginatePerParent requires every parent's connection
// to be what Paginate gives for that parent alone: the same nodes, cursors,
// page info and count, in every order, forward and backward, at window
// sizes around the lengths of the lists.
func TestPaginateEachIsPaginatePerParent(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	parents := eachSeed(t, e)
	ctx := context.Background()
	var windows []page.Args
	windows = append(windows, page.Args{})
	for _, n := range []int{0, 1, 2, 3, 4, 5, 9, 10} {
		windows = append(windows, page.Args{First: ptr(n)}, page.Args{Last: ptr(n)})
	}
	for _, o := range []page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{byPosition, byCreationDesc, byTitle} {
		for _, a := range windows {
			name := fmt.Sprintf("%s first %v last %v", o.Name, deref(a.First), deref(a.Last))
			for _, grouped := range []bool{true, false} {
				conns := children(t, e, parents, o, a, grouped)
				require.Len(t, conns, len(parents), name)
				for _, p := range parents {
					want, err := page.Paginate(ctx, e.Client.Collection.Query().Where(collection.ParentID(p)), o, a)
					require.NoError(t, err)
					got := conns[p]
					require.NotNil(t, got, "%s: parent %s", name, p)
					assert.Equal(t, edges(want), edges(got), "%s: edges of %s", name, p)
					assert.Equal(t, want.PageInfo, got.PageInfo, "%s: page info of %s", name, p)
					wantCount, err := want.TotalCount(ctx)
					require.NoError(t, err)
					gotCount, err := got.TotalCount(ctx)
					require.NoError(t, err)
					assert.Equal(t, wantCount, gotCount, "%s: count of %s (grouped %v)", name, p, grouped)
				}
			}
		}
	}
}

// TestPaginateEachPageInfoAtTheEdges spells out the page info that the
// comparison with Paginate implies, for a window of 3: no next page for
// exactly 3 items, a next page for 3+1, nothing for none.
func TestPaginateEachPageInfoAtTheEdges(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	parents := eachSeed(t, e)
	none, three, four, nine := parents[0], parents[1], parents[2], parents[3]
	conns := children(t, e, parents, byPosition, page.Args{First: ptr(3)}, true)
	assert.Empty(t, conns[none].Edges)
	assert.Equal(t, page.Info{}, conns[none].PageInfo)
	assert.Len(t, conns[three].Edges, 3)
	assert.False(t, conns[three].PageInfo.HasNextPage, "exactly 3 items")
	assert.Len(t, conns[four].Edges, 3)
	assert.True(t, conns[four].PageInfo.HasNextPage, "3+1 items")
	assert.False(t, conns[four].PageInfo.HasPreviousPage)

	back := children(t, e, parents, byPosition, page.Args{Last: ptr(3)}, true)
	assert.False(t, back[three].PageInfo.HasPreviousPage, "exactly 3 items")
	assert.True(t, back[four].PageInfo.HasPreviousPage, "3+1 items")
	assert.False(t, back[four].PageInfo.HasNextPage)

	// The ties of the order are broken by ID.
	all := children(t, e, parents, byPosition, page.Args{First: ptr(9)}, true)[nine].Nodes()
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		assert.True(t, a.Position < b.Position || (a.Position == b.Position && a.ID < b.ID), "%v then %v", a, b)
	}
	require.Len(t, all, 9)

	// A cursor of a nested page works with Paginate for the next page.
	q := e.Client.Collection.Query().Where(collection.ParentID(nine))
	next, err := page.Paginate(context.Background(), q, byPosition, page.Args{First: ptr(3), After: conns[nine].PageInfo.EndCursor})
	require.NoError(t, err)
	want, err := page.Paginate(context.Background(), q, byPosition, page.Args{First: ptr(6)})
	require.NoError(t, err)
	assert.Equal(t, ids(want)[3:], ids(next))
}

// TestPaginateEachStatements requires one statement for the pages of every
// parent, and one more for all their counts.
func TestPaginateEachStatements(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	parents := eachSeed(t, e)
	ctx := context.Background()
	before := e.Statements.Load()
	conns := children(t, e, parents, byCreationDesc, page.Args{First: ptr(2)}, true)
	assert.EqualValues(t, 1, e.Statements.Load()-before, "the pages of %d parents", len(parents))
	for _, p := range parents {
		_, err := conns[p].TotalCount(ctx)
		require.NoError(t, err)
	}
	assert.EqualValues(t, 2, e.Statements.Load()-before, "and their counts")
	before = e.Statements.Load()
	children(t, e, parents, byCreationDesc, page.Args{First: ptr(0)}, true)
	assert.EqualValues(t, 0, e.Statements.Load()-before, "an empty window reads nothing")
}

// The pages of every parent come out of the ranking in the order the
// ranking sorted them in, grouped by parent: PostgreSQL sorts them once,
// for the window, whatever direction the page runs in.
func TestPaginateEachSortsOnce(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("the plan is PostgreSQL's")
	}
	t.Parallel()
	e := servertest.New(t)
	parents := eachSeed(t, e)
	ctx := context.Background()
	for _, a := range []page.Args{{First: ptr(2)}, {Last: ptr(2)}} {
		rec := &recording{Driver: e.DB.Traced()}
		q := ent.NewClient(ent.Driver(rec)).Collection.Query().Where(collection.OrganizationID(e.Org.ID))
		_, err := page.PaginateEach(ctx, q, byCreationDesc, a, page.Each[*ent.Collection]{
			Column: collection.FieldParentID, Parents: parents,
			Parent: func(c *ent.Collection) string { return *c.ParentID },
		})
		require.NoError(t, err)
		require.Len(t, rec.queries, 1)
		plan, err := servertest.Lines(e.DB.SQL.QueryContext(ctx, "EXPLAIN "+rec.queries[0], rec.args[0]...))
		require.NoError(t, err)
		sorts := regexp.MustCompile(`(?m)^\s*(->\s*)?(Incremental )?Sort\s+\(cost`).FindAllString(plan, -1)
		assert.Len(t, sorts, 1, "first %v last %v:\n%s", deref(a.First), deref(a.Last), plan)
	}
}

// recording is a driver that notes the queries it runs.
type recording struct {
	dialect.Driver
	queries []string
	args    [][]any
}

func (r *recording) Query(ctx context.Context, query string, args, v any) error {
	r.queries = append(r.queries, query)
	r.args = append(r.args, args.([]any))
	return r.Driver.Query(ctx, query, args, v)
}

// TestPaginateEachRefuses requires windows at a cursor to be left to
// Paginate, and bad limits to fail as they fail there.
func TestPaginateEachRefuses(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	parents := eachSeed(t, e)
	ctx := context.Background()
	q := e.Client.Collection.Query()
	cur := children(t, e, parents, byPosition, page.Args{First: ptr(1)}, true)[parents[3]].PageInfo.EndCursor
	each := page.Each[*ent.Collection]{Column: collection.FieldParentID, Parents: parents,
		Parent: func(c *ent.Collection) string { return *c.ParentID }}
	for name, a := range map[string]page.Args{"after": {First: ptr(1), After: cur}, "before": {Last: ptr(1), Before: cur}} {
		_, err := page.PaginateEach(ctx, q, byPosition, a, each)
		assert.True(t, errors.Is(err, page.ErrNotBatchable), name)
	}
	for name, a := range map[string]page.Args{
		"first and last":   {First: ptr(1), Last: ptr(1)},
		"over the maximum": {First: ptr(page.MaxLimit + 1)},
		"negative":         {Last: ptr(-1)},
	} {
		_, err := page.PaginateEach(ctx, q, byPosition, a, each)
		assert.Equal(t, apperr.InvalidArgument, apperr.KindOf(err), name)
	}
}

// edges returns the IDs and cursors of a connection's edges.
func edges(c *page.Connection[*ent.Collection]) []string {
	out := []string{}
	for _, e := range c.Edges {
		out = append(out, e.Node.ID+" "+e.Cursor.String())
	}
	return out
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
