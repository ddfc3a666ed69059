package page_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

type sliceItem struct {
	id    string
	name  string
	score float64
	at    time.Time
}

var (
	sliceByName = page.SliceOrder[sliceItem]{Name: "test-names", KeyType: page.KeyString,
		Key: func(s sliceItem) any { return s.name }, ID: func(s sliceItem) string { return s.id }}
	sliceByScoreDesc = page.SliceOrder[sliceItem]{Name: "test-scores", KeyType: page.KeyFloat, Desc: true,
		Key: func(s sliceItem) any { return s.score }, ID: func(s sliceItem) string { return s.id }}
	sliceByTime = page.SliceOrder[sliceItem]{Name: "test-times", KeyType: page.KeyTime,
		Key: func(s sliceItem) any { return s.at }, ID: func(s sliceItem) string { return s.id }}
)

// sliceSeed returns n items in no particular order, with colliding keys so
// that ties must be broken by ID.
func sliceSeed(n int) []sliceItem {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]sliceItem, n)
	for i := range out {
		j := (i * 7) % n
		out[i] = sliceItem{
			id: fmt.Sprintf("id%02d", j), name: fmt.Sprintf("n%d", j%4), score: float64(j%5) / 3,
			at: base.Add(time.Duration(j%3) * 1500 * time.Microsecond),
		}
	}
	return out
}

func sliceIDs(items []sliceItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.id
	}
	return out
}

// sliceWalk follows a list page by page, forward or backward, through the
// cursors the pages return.
func sliceWalk(t *testing.T, items []sliceItem, o page.SliceOrder[sliceItem], size int, backward bool) []string {
	t.Helper()
	var ids []string
	var cur *page.Cursor
	for i := 0; ; i++ {
		require.Less(t, i, 100, "the walk does not end")
		a := page.Args{First: &size, After: cur}
		if backward {
			a = page.Args{Last: &size, Before: cur}
		}
		conn, err := page.PaginateSlice(items, o, a)
		require.NoError(t, err)
		got := sliceIDs(conn.Nodes())
		if backward {
			ids = append(got, ids...)
			if !conn.PageInfo.HasPreviousPage {
				return ids
			}
			cur = conn.PageInfo.StartCursor
		} else {
			ids = append(ids, got...)
			if !conn.PageInfo.HasNextPage {
				return ids
			}
			cur = conn.PageInfo.EndCursor
		}
		require.NotNil(t, cur)
	}
}

func TestPaginateSliceOrders(t *testing.T) {
	t.Parallel()
	items := sliceSeed(23)
	before := append([]sliceItem(nil), items...)
	// The orders by hand: key, then ID.
	wantByName := []string{"id00", "id04", "id08", "id12", "id16", "id20", "id01", "id05", "id09", "id13", "id17", "id21",
		"id02", "id06", "id10", "id14", "id18", "id22", "id03", "id07", "id11", "id15", "id19"}
	// Desc reverses ties too, as Paginate's ORDER BY key DESC, id DESC does.
	wantByScoreDesc := []string{
		"id19", "id14", "id09", "id04", // 4/3
		"id18", "id13", "id08", "id03", // 1
		"id22", "id17", "id12", "id07", "id02", // 2/3
		"id21", "id16", "id11", "id06", "id01", // 1/3
		"id20", "id15", "id10", "id05", "id00", // 0
	}
	var wantByTime []string
	for r := 0; r < 3; r++ {
		for i := 0; i < 23; i++ {
			if i%3 == r {
				wantByTime = append(wantByTime, fmt.Sprintf("id%02d", i))
			}
		}
	}
	for _, tc := range []struct {
		name string
		o    page.SliceOrder[sliceItem]
		want []string
	}{{"string keys", sliceByName, wantByName}, {"float keys descending", sliceByScoreDesc, wantByScoreDesc},
		{"time keys", sliceByTime, wantByTime}} {
		for _, size := range []int{1, 2, 5, 22, 23, 1000} {
			t.Run(fmt.Sprintf("%s by %d", tc.name, size), func(t *testing.T) {
				assert.Equal(t, tc.want, sliceWalk(t, items, tc.o, size, false), "forward")
				assert.Equal(t, tc.want, sliceWalk(t, items, tc.o, size, true), "backward")
			})
		}
	}
	assert.Equal(t, before, items, "the input is not reordered")
}

func TestPaginateSlicePages(t *testing.T) {
	t.Parallel()
	items := sliceSeed(12)
	five := 5
	first, err := page.PaginateSlice(items, sliceByName, page.Args{First: &five})
	require.NoError(t, err)
	assert.Equal(t, []string{"id00", "id04", "id08", "id01", "id05"}, sliceIDs(first.Nodes()))
	assert.True(t, first.PageInfo.HasNextPage)
	assert.False(t, first.PageInfo.HasPreviousPage)
	n, err := first.TotalCount(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 12, n, "the count is the whole list's")
	// The cursor has Paginate's format: order name, key and ID.
	end := first.PageInfo.EndCursor
	require.NotNil(t, end)
	assert.Equal(t, page.Cursor{Order: "test-names", Key: "n1", ID: "id05"}.String(), end.String())
	assert.Equal(t, first.Edges[0].Cursor, *first.PageInfo.StartCursor)
	parsed, err := page.Parse("page", end.String())
	require.NoError(t, err)

	next, err := page.PaginateSlice(items, sliceByName, page.Args{First: &five, After: &parsed})
	require.NoError(t, err)
	assert.Equal(t, []string{"id09", "id02", "id06", "id10", "id03"}, sliceIDs(next.Nodes()))
	assert.True(t, next.PageInfo.HasNextPage)
	assert.True(t, next.PageInfo.HasPreviousPage)

	last, err := page.PaginateSlice(items, sliceByName, page.Args{First: &five, After: next.PageInfo.EndCursor})
	require.NoError(t, err)
	assert.Equal(t, []string{"id07", "id11"}, sliceIDs(last.Nodes()))
	assert.False(t, last.PageInfo.HasNextPage)
	assert.True(t, last.PageInfo.HasPreviousPage)

	// A cursor whose item is gone still continues after its position.
	gone := page.Cursor{Order: "test-names", Key: "n1", ID: "id06"}
	after, err := page.PaginateSlice(items, sliceByName, page.Args{First: &five, After: &gone})
	require.NoError(t, err)
	assert.Equal(t, []string{"id09", "id02", "id06", "id10", "id03"}, sliceIDs(after.Nodes()))

	// Past the end: an empty page.
	end2 := page.Cursor{Order: "test-names", Key: "n9", ID: "x"}
	empty, err := page.PaginateSlice(items, sliceByName, page.Args{After: &end2})
	require.NoError(t, err)
	assert.Empty(t, empty.Nodes())
	assert.Nil(t, empty.PageInfo.EndCursor)
	assert.False(t, empty.PageInfo.HasNextPage)

	// An empty list.
	none, err := page.PaginateSlice(nil, sliceByName, page.Args{})
	require.NoError(t, err)
	assert.Empty(t, none.Nodes())
	assert.False(t, none.PageInfo.HasNextPage)
}

func TestPaginateSliceLimits(t *testing.T) {
	t.Parallel()
	items := sliceSeed(60)
	for _, tc := range []struct {
		name string
		a    page.Args
		want int
	}{
		{"default limit", page.Args{}, page.DefaultLimit},
		{"the maximum", page.Args{First: ptr(page.MaxLimit)}, 60},
		{"one", page.Args{First: ptr(1)}, 1},
		{"last", page.Args{Last: ptr(7)}, 7},
	} {
		conn, err := page.PaginateSlice(items, sliceByName, tc.a)
		require.NoError(t, err, tc.name)
		assert.Len(t, conn.Nodes(), tc.want, tc.name)
	}
	zero, err := page.PaginateSlice(items, sliceByName, page.Args{First: ptr(0)})
	require.NoError(t, err)
	assert.Empty(t, zero.Nodes())
	assert.False(t, zero.PageInfo.HasNextPage)
	assert.Nil(t, zero.PageInfo.EndCursor)

	for _, tc := range []struct {
		name  string
		a     page.Args
		field string
	}{
		{"over the maximum", page.Args{First: ptr(page.MaxLimit + 1)}, "first"},
		{"negative", page.Args{First: ptr(-1)}, "first"},
		{"last over the maximum", page.Args{Last: ptr(page.MaxLimit + 1)}, "last"},
		{"first and last", page.Args{First: ptr(1), Last: ptr(1)}, "last"},
	} {
		_, err := page.PaginateSlice(items, sliceByName, tc.a)
		requireInvalid(t, err, tc.field, tc.name)
	}
}

func TestPaginateSliceRefusesOtherCursors(t *testing.T) {
	t.Parallel()
	items := sliceSeed(10)
	one := 1
	other, err := page.PaginateSlice(items, sliceByTime, page.Args{First: &one})
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		cur  page.Cursor
	}{
		{"a cursor of another list", *other.PageInfo.EndCursor},
		{"another list with the same key type", page.Cursor{Order: "test-other", Key: "n1", ID: "id01"}},
		{"a key of the wrong type", page.Cursor{Order: "test-names", Key: 1.5, ID: "id01"}},
	} {
		_, err := page.PaginateSlice(items, sliceByName, page.Args{First: &one, After: &tc.cur})
		requireInvalid(t, err, "after", tc.name)
		_, err = page.PaginateSlice(items, sliceByName, page.Args{Last: &one, Before: &tc.cur})
		requireInvalid(t, err, "before", tc.name)
	}
	_, err = page.PaginateSlice(items, sliceByTime, page.Args{After: &page.Cursor{Order: "test-times", Key: "yesterday", ID: "x"}})
	requireInvalid(t, err, "after", "a time key that is not a time")

	// A key function that breaks its order's type is a programming error,
	// not the client's.
	broken := page.SliceOrder[sliceItem]{Name: "broken", KeyType: page.KeyFloat,
		Key: func(s sliceItem) any { return s.name }, ID: func(s sliceItem) string { return s.id }}
	_, err = page.PaginateSlice(items, broken, page.Args{})
	require.Error(t, err)
	assert.Equal(t, apperr.Internal, apperr.KindOf(err))
}

func requireInvalid(t *testing.T, err error, field, name string) {
	t.Helper()
	require.Error(t, err, name)
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae, name)
	assert.Equal(t, apperr.InvalidArgument, ae.Kind, name)
	assert.Equal(t, field, ae.Field, name)
}

func ptr[T any](v T) *T { return &v }

func TestMapKeepsTheWindow(t *testing.T) {
	items := []string{"a", "b", "c", "d"}
	first := 2
	conn, err := page.PaginateSlice(items, page.SliceOrder[string]{Name: "letters", KeyType: page.KeyString,
		Key: func(s string) any { return s }, ID: func(s string) string { return s }}, page.Args{First: &first})
	if err != nil {
		t.Fatal(err)
	}
	m := page.Map(conn, func(s string) int { return int(s[0]) })
	if got := m.Nodes(); len(got) != 2 || got[0] != 'a' || got[1] != 'b' {
		t.Fatalf("nodes %v", got)
	}
	if m.PageInfo != conn.PageInfo || m.Edges[1].Cursor != conn.Edges[1].Cursor {
		t.Fatal("the window changed")
	}
	if n, _ := m.TotalCount(context.Background()); n != 4 {
		t.Fatalf("total %d", n)
	}
}
