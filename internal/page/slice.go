package page

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/internal/apperr"
)

// SliceOrder is a total order of a list held in memory, such as the files of
// a revision: by Key, ties broken by ID. Its Name is part of its cursors, as
// an Order's is, so that a cursor of another list is refused.
type SliceOrder[T any] struct {
	Name    string
	KeyType KeyType
	Desc    bool
	// Key returns the item's sort key: a time.Time, a float64, an int or a
	// string, as KeyType says.
	Key func(T) any
	ID  func(T) string
}

// order is o as the Order whose cursor encoding and decoding it shares. The
// column is never used: nothing is queried.
func (o SliceOrder[T]) order() Order[T, func(*sql.Selector), func(*sql.Selector)] {
	return Order[T, func(*sql.Selector), func(*sql.Selector)]{
		Name: o.Name, KeyType: o.KeyType, Desc: o.Desc, Key: o.Key, ID: o.ID,
	}
}

// sliceItem is an item with its decoded sort key.
type sliceItem[T any] struct {
	node T
	key  any
	id   string
}

// compare orders (key, id) pairs the way the list runs.
func (o SliceOrder[T]) compare(ak any, aid string, bk any, bid string) int {
	var c int
	switch o.KeyType {
	case KeyTime:
		c = ak.(time.Time).Compare(bk.(time.Time))
	case KeyFloat:
		c = cmp.Compare(ak.(float64), bk.(float64))
	case KeyInt:
		c = cmp.Compare(ak.(int64), bk.(int64))
	default:
		c = strings.Compare(ak.(string), bk.(string))
	}
	if c == 0 {
		c = strings.Compare(aid, bid)
	}
	if o.Desc {
		c = -c
	}
	return c
}

// windowSize is the number of items a selects, checked as Paginate checks it.
func windowSize(a Args) (int, error) {
	if a.First != nil && a.Last != nil {
		return 0, apperr.Invalid("last", "cannot be combined with first")
	}
	n := DefaultLimit
	for _, l := range []struct {
		name string
		v    *int
	}{{"first", a.First}, {"last", a.Last}} {
		if l.v == nil {
			continue
		}
		if *l.v < 0 || *l.v > MaxLimit {
			return 0, apperr.Invalid(l.name, "must be between 0 and %d", MaxLimit)
		}
		n = *l.v
	}
	return n, nil
}

// PaginateSlice returns the window of items that a selects in the order o.
// It is Paginate for a list already in memory: the same cursors, limits,
// page info and errors, so a client cannot tell the two apart. items need
// not be sorted and are not changed.
func PaginateSlice[T any](items []T, o SliceOrder[T], a Args) (*Connection[T], error) {
	n, err := windowSize(a)
	if err != nil {
		return nil, err
	}
	ord := o.order()
	total := len(items)
	conn := &Connection[T]{count: func(context.Context) (int, error) { return total, nil }}

	all := make([]sliceItem[T], len(items))
	for i, it := range items {
		c := ord.cursor(it)
		k, err := ord.key("", c)
		if err != nil {
			return nil, fmt.Errorf("paginating %s: the key of %s is not of the order's key type", o.Name, c.ID)
		}
		all[i] = sliceItem[T]{node: it, key: k, id: c.ID}
	}
	slices.SortStableFunc(all, func(x, y sliceItem[T]) int { return o.compare(x.key, x.id, y.key, y.id) })

	// The window lies strictly between the cursors.
	lo, hi := 0, len(all)
	if a.After != nil {
		k, err := ord.key("after", *a.After)
		if err != nil {
			return nil, err
		}
		lo = sort.Search(len(all), func(i int) bool { return o.compare(all[i].key, all[i].id, k, a.After.ID) > 0 })
	}
	if a.Before != nil {
		k, err := ord.key("before", *a.Before)
		if err != nil {
			return nil, err
		}
		hi = sort.Search(len(all), func(i int) bool { return o.compare(all[i].key, all[i].id, k, a.Before.ID) >= 0 })
	}
	if n == 0 {
		conn.PageInfo = Info{HasPreviousPage: a.After != nil, HasNextPage: a.Before != nil}
		return conn, nil
	}
	window := all[lo:max(lo, hi)]
	backward := a.Last != nil
	more := len(window) > n
	switch {
	case more && backward:
		window = window[len(window)-n:]
	case more:
		window = window[:n]
	}
	nodes := make([]T, len(window))
	for i, it := range window {
		nodes[i] = it.node
	}
	ord.fill(conn, nodes, a, backward, more)
	return conn, nil
}

// Map returns the page c with each item replaced by what fn makes of it:
// the same cursors, page info and total. A list can so be paged by light
// items and present only its window's.
func Map[T, U any](c *Connection[T], fn func(T) U) *Connection[U] {
	out := &Connection[U]{Edges: make([]*Edge[U], len(c.Edges)), PageInfo: c.PageInfo, count: c.count}
	for i, e := range c.Edges {
		out.Edges[i] = &Edge[U]{Node: fn(e.Node), Cursor: e.Cursor}
	}
	return out
}
