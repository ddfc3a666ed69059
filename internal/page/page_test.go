package page_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
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

// A cursor comes back from the client, who may forge one: every forgery is
// the client's error, refused before it reaches the database.
func TestForgedCursors(t *testing.T) {
	t.Parallel()
	encode := func(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
	for _, tc := range []struct{ name, cursor string }{
		{"not base64", "%%%"},
		{"base64 of garbage", encode("\x01\x02garbage")},
		{"not an array", encode(`{"order":"spaces"}`)},
		{"four parts", encode(`["spaces","2024-01-01T00:00:00Z","spc_1","x"]`)},
		{"a number for the order", encode(`[1,"2024-01-01T00:00:00Z","spc_1"]`)},
		{"an empty ID", encode(`["spaces","2024-01-01T00:00:00Z",""]`)},
		{"a number for the ID", encode(`["spaces","2024-01-01T00:00:00Z",7]`)},
		{"an object for the key", encode(`["spaces",{"a":1},"spc_1"]`)},
		{"null for the key", encode(`["spaces",null,"spc_1"]`)},
		{"a key out of the float64 range", encode(`["test-position",1e999,"col_1"]`)},
		{"NUL in the ID", encode(`["spaces","2024-01-01T00:00:00Z","spc_\u0000"]`)},
		{"invalid UTF-8 in the ID", encode("[\"spaces\",\"2024-01-01T00:00:00Z\",\"spc_\xff\"]")},
		{"a lone surrogate in the key", encode(`["test-title","\ud800","col_1"]`)},
		{"an ID longer than any", encode(`["spaces","2024-01-01T00:00:00Z","` + strings.Repeat("x", 300) + `"]`)},
		{"a cursor longer than any", strings.Repeat("A", 2000)},
	} {
		_, err := page.Parse("page", tc.cursor)
		requireField(t, err, "page", tc.name)
	}
}

// A well-formed cursor whose key does not fit the list's column is refused
// by Paginate, on both databases, rather than failing in SQL.
func TestCursorKeysOutOfRange(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	seed(t, e, 3)
	ctx := context.Background()
	q := e.Client.Collection.Query().Where(collection.OrganizationID(e.Org.ID))
	byPositionInt := page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{
		Name: "test-position-int", Column: collection.FieldPosition, KeyType: page.KeyInt,
		Key: func(c *ent.Collection) any { return int(c.Position) }, ID: func(c *ent.Collection) string { return c.ID },
	}
	type order = page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]
	for _, tc := range []struct {
		name string
		o    order
		key  any
	}{
		{"a string for a number", byPosition, "1"},
		{"a number for a time", byCreationDesc, 1.0},
		{"a time that is not RFC 3339", byCreationDesc, "yesterday"},
		{"a number for a string", byTitle, 1.0},
		{"a fraction for an integer", byPositionInt, 1.5},
		{"an integer past int64", byPositionInt, 1e19},
		{"an integer below int64", byPositionInt, -1e19},
		{"the largest float for an integer", byPositionInt, 1e308},
	} {
		c := page.Cursor{Order: tc.o.Name, Key: tc.key, ID: "col_1"}
		parsed, err := page.Parse("page", c.String())
		require.NoError(t, err, tc.name)
		_, err = page.Paginate(ctx, q, tc.o, page.Args{After: &parsed})
		requireField(t, err, "after", tc.name)
	}
	// Extreme keys in range are valid: they select everything or nothing.
	for _, tc := range []struct {
		o    order
		key  any
		want int
	}{
		{byPosition, 1e308, 0}, {byPosition, -1e308, 3}, {byPositionInt, 9.2e18, 0}, {byPositionInt, -9.2e18, 3},
		{byCreationDesc, "9999-12-31T23:59:59.999999999Z", 3}, {byCreationDesc, "0001-01-01T00:00:00Z", 0},
	} {
		c := page.Cursor{Order: tc.o.Name, Key: tc.key, ID: "col_1"}
		parsed, err := page.Parse("page", c.String())
		require.NoError(t, err)
		conn, err := page.Paginate(ctx, q, tc.o, page.Args{After: &parsed})
		require.NoError(t, err, "%s after %v", tc.o.Name, tc.key)
		assert.Len(t, conn.Edges, tc.want, "%s after %v", tc.o.Name, tc.key)
	}
}

func requireField(t *testing.T, err error, field, name string) {
	t.Helper()
	require.Error(t, err, name)
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae, name)
	assert.Equal(t, apperr.InvalidArgument, ae.Kind, name)
	assert.Equal(t, field, ae.Field, name)
}
