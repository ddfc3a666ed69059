package page_test

import (
	"context"
	"fmt"
	"testing"
	"time"

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

var (
	byPosition = page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{
		Name: "test-position", Column: collection.FieldPosition, KeyType: page.KeyFloat,
		Key: func(c *ent.Collection) any { return c.Position }, ID: func(c *ent.Collection) string { return c.ID },
	}
	byCreationDesc = page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{
		Name: "test-created-desc", Column: collection.FieldCreatedAt, KeyType: page.KeyTime, Desc: true,
		Key: func(c *ent.Collection) any { return c.CreatedAt }, ID: func(c *ent.Collection) string { return c.ID },
	}
	byTitle = page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{
		Name: "test-title", Column: collection.FieldTitle, KeyType: page.KeyString,
		Key: func(c *ent.Collection) any { return c.Title }, ID: func(c *ent.Collection) string { return c.ID },
	}
)

// seed creates n collections with colliding sort keys, so that ties must be
// broken by ID.
func seed(t *testing.T, e *servertest.Env, n int) []*ent.Collection {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []*ent.Collection
	for i := 0; i < n; i++ {
		c, err := e.Client.Collection.Create().SetOrganizationID(e.Org.ID).
			SetTitle(fmt.Sprintf("t%02d", i%4)).
			SetPosition(float64(i%5) / 3).
			SetCreatedAt(base.Add(time.Duration(i%3) * 1500 * time.Microsecond).Truncate(time.Millisecond)).
			Save(context.Background())
		require.NoError(t, err)
		out = append(out, c)
	}
	return out
}

func walk(t *testing.T, q *ent.CollectionQuery, o page.Order[*ent.Collection, predicate.Collection, collection.OrderOption], size int, backward bool) []string {
	ctx := context.Background()
	var ids []string
	var cur *page.Cursor
	for i := 0; i < 100; i++ {
		a := page.Args{First: &size, After: cur}
		if backward {
			a = page.Args{Last: &size, Before: cur}
		}
		conn, err := page.Paginate(ctx, q, o, a)
		require.NoError(t, err)
		var chunk []string
		for _, e := range conn.Edges {
			chunk = append(chunk, e.Node.ID)
		}
		if backward {
			ids = append(chunk, ids...)
			if !conn.PageInfo.HasPreviousPage {
				return ids
			}
			cur = conn.PageInfo.StartCursor
		} else {
			ids = append(ids, chunk...)
			if !conn.PageInfo.HasNextPage {
				return ids
			}
			cur = conn.PageInfo.EndCursor
		}
	}
	t.Fatal("walk did not end")
	return nil
}

func TestWalksVisitEveryItemOnceInOrder(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	seed(t, e, 23)
	q := e.Client.Collection.Query().Where(collection.OrganizationID(e.Org.ID))
	for _, o := range []page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{byPosition, byCreationDesc, byTitle} {
		all, err := q.Clone().Order(func(s *sql.Selector) {
			dir := "ASC"
			if o.Desc {
				dir = "DESC"
			}
			s.OrderBy(s.C(o.Column)+" "+dir, s.C("id")+" "+dir)
		}).All(context.Background())
		require.NoError(t, err)
		var want []string
		for _, c := range all {
			want = append(want, c.ID)
		}
		for _, size := range []int{1, 4, 23, 50} {
			assert.Equal(t, want, walk(t, q, o, size, false), "%s forward by %d", o.Name, size)
			assert.Equal(t, want, walk(t, q, o, size, true), "%s backward by %d", o.Name, size)
		}
	}
}

func TestCountAndInsertionsDuringAWalk(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	seed(t, e, 10)
	ctx := context.Background()
	q := e.Client.Collection.Query().Where(collection.OrganizationID(e.Org.ID))
	three := 3
	first, err := page.Paginate(ctx, q, byPosition, page.Args{First: &three})
	require.NoError(t, err)
	n, err := first.TotalCount(ctx)
	require.NoError(t, err)
	assert.Equal(t, 10, n)
	// An item inserted before the cursor does not shift the next page.
	_, err = e.Client.Collection.Create().SetOrganizationID(e.Org.ID).SetPosition(-1).Save(ctx)
	require.NoError(t, err)
	second, err := page.Paginate(ctx, q, byPosition, page.Args{First: &three, After: first.PageInfo.EndCursor})
	require.NoError(t, err)
	assert.NotContains(t, ids(second), ids(first)[2])
	assert.True(t, second.PageInfo.HasPreviousPage)
}

func ids(c *page.Connection[*ent.Collection]) []string {
	var out []string
	for _, n := range c.Nodes() {
		out = append(out, n.ID)
	}
	return out
}

func TestBadArguments(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	seed(t, e, 3)
	ctx := context.Background()
	q := e.Client.Collection.Query()
	one, over, neg := 1, page.MaxLimit+1, -1
	max := page.MaxLimit
	conn, err := page.Paginate(ctx, q, byPosition, page.Args{First: &one})
	require.NoError(t, err)
	other := conn.PageInfo.EndCursor

	for name, a := range map[string]page.Args{
		"first and last":   {First: &one, Last: &one},
		"over the maximum": {First: &over},
		"negative":         {Last: &neg},
		"foreign cursor":   {First: &one, After: other},
	} {
		o := byPosition
		if name == "foreign cursor" {
			o = byTitle
		}
		_, err := page.Paginate(ctx, q, o, a)
		assert.Equal(t, apperr.InvalidArgument, apperr.KindOf(err), name)
	}
	_, err = page.Paginate(ctx, q, byPosition, page.Args{First: &max})
	assert.NoError(t, err, "the maximum itself is allowed")
}

func TestCursorEncoding(t *testing.T) {
	c := page.Cursor{Order: "spaces", Key: "2024-01-01T00:00:00Z", ID: "spc_1"}
	s := c.String()
	assert.Regexp(t, `^[A-Za-z0-9_-]+$`, s, "URL-safe without escaping")
	back, err := page.Parse("page", s)
	require.NoError(t, err)
	assert.Equal(t, c, back)
	for _, bad := range []string{"!!!", "e30", "WyJhIl0", ""} {
		_, err := page.Parse("page", bad)
		assert.Equal(t, apperr.InvalidArgument, apperr.KindOf(err), bad)
	}
}
