// Package page paginates every list of Bindery with one keyset cursor format,
// shared by /v1 (page, next.page) and GraphQL (after, endCursor): a cursor of
// one API works in the other.
//
// A cursor is the opaque base64url encoding of the list's order name, the
// item's sort key and its ID. The next page is the items strictly after that
// (key, id) pair, so the cost of a page does not grow with its depth (there
// is no OFFSET), and walking the pages visits every item exactly once even
// when items are added or removed meanwhile.
package page

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/validate"
)

// Limits of a page.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Cursor is the position of an item in an ordered list.
type Cursor struct {
	Order string
	Key   any
	ID    string
}

// String encodes the cursor.
func (c Cursor) String() string {
	b, _ := json.Marshal([]any{c.Order, c.Key, c.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

// maxCursorLength bounds the text of a cursor. Bindery's cursors are a few
// dozen characters; anything much longer was not made by Bindery.
const maxCursorLength = 1024

// Parse decodes a cursor. The error is an InvalidArgument of the named field.
// A cursor comes back from the client, so it is checked as any input is:
// its JSON must be text (valid UTF-8, no NUL) and of the shape Bindery
// writes, an order name, a key that is a string or a number, and an ID. The
// key's type and range are checked against the list it is used with (see
// Order.key), so that no forged key reaches the database.
func Parse(field, s string) (Cursor, error) {
	bad := apperr.Invalid(field, "is not a valid page cursor")
	if len(s) > maxCursorLength {
		return Cursor{}, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || validate.JSON(b) != nil {
		return Cursor{}, bad
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil || len(parts) != 3 {
		return Cursor{}, bad
	}
	var c Cursor
	if json.Unmarshal(parts[0], &c.Order) != nil || json.Unmarshal(parts[2], &c.ID) != nil || c.ID == "" ||
		len(c.ID) > maxIDLength {
		return Cursor{}, bad
	}
	if json.Unmarshal(parts[1], &c.Key) != nil {
		return Cursor{}, bad
	}
	switch c.Key.(type) {
	case string, float64:
	default:
		return Cursor{}, bad
	}
	return c, nil
}

// maxIDLength bounds the ID of a cursor: every ID Bindery makes is shorter.
const maxIDLength = 255

// MarshalGQL writes the cursor as a GraphQL string.
func (c Cursor) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(c.String())) }

// UnmarshalGQL reads a cursor from a GraphQL string.
func (c *Cursor) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return apperr.Invalid("", "a cursor must be a string")
	}
	p, err := Parse("", s)
	if err != nil {
		return apperr.Invalid("", "is not a valid page cursor")
	}
	*c = p
	return nil
}

// KeyType is the Go type of an order's sort column.
type KeyType int

// Sort key types.
const (
	KeyTime KeyType = iota
	KeyFloat
	KeyString
	// KeyInt is an integer column: a cursor's key must be a whole number
	// that fits in 64 bits, or PostgreSQL refuses the comparison.
	KeyInt
)

// Order is a total order of a list: a sort column, ties broken by ID. The
// type parameters carry the ent predicate and order option types of the
// queried entity, so that Paginate can be called without naming them.
type Order[T any, P ~func(*sql.Selector), O ~func(*sql.Selector)] struct {
	// Name identifies the order inside cursors, so that a cursor of another
	// list or order is refused instead of misread.
	Name    string
	Column  string
	KeyType KeyType
	Desc    bool
	Key     func(T) any
	ID      func(T) string
}

// cursor returns the cursor of an item.
func (o Order[T, P, O]) cursor(item T) Cursor {
	k := o.Key(item)
	if t, ok := k.(time.Time); ok {
		k = t.UTC().Format(time.RFC3339Nano)
	}
	return Cursor{Order: o.Name, Key: k, ID: o.ID(item)}
}

// key decodes a cursor's key into the column's Go type.
func (o Order[T, P, O]) key(field string, c Cursor) (any, error) {
	if c.Order != o.Name {
		return nil, apperr.Invalid(field, "is a cursor of another list")
	}
	bad := apperr.Invalid(field, "is not a valid page cursor of this list")
	switch o.KeyType {
	case KeyTime:
		s, ok := c.Key.(string)
		if !ok {
			return nil, bad
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, bad
		}
		return t.UTC(), nil
	case KeyFloat:
		f, ok := c.Key.(float64)
		if !ok {
			return nil, bad
		}
		return f, nil
	case KeyInt:
		n, ok := wholeNumber(c.Key)
		if !ok {
			return nil, bad
		}
		return n, nil
	default:
		s, ok := c.Key.(string)
		if !ok {
			return nil, bad
		}
		return s, nil
	}
}

// wholeNumber returns a key as an int64 when it is a whole number in range:
// a parsed cursor holds a float64, an unparsed one the Key function's value.
func wholeNumber(k any) (int64, bool) {
	switch v := k.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		// 2^63 is the first float64 past the int64 range.
		if v != math.Trunc(v) || v < -(1<<63) || v >= 1<<63 {
			return 0, false
		}
		return int64(v), true
	}
	return 0, false
}

// beyond selects the rows strictly past c in the direction the order runs,
// or against it when reverse is set.
func (o Order[T, P, O]) beyond(key any, id string, reverse bool) func(*sql.Selector) {
	greater := o.Desc == reverse
	return func(s *sql.Selector) {
		col, idc := s.C(o.Column), s.C("id")
		if greater {
			s.Where(sql.Or(sql.GT(col, key), sql.And(sql.EQ(col, key), sql.GT(idc, id))))
		} else {
			s.Where(sql.Or(sql.LT(col, key), sql.And(sql.EQ(col, key), sql.LT(idc, id))))
		}
	}
}

func (o Order[T, P, O]) orderBy(reverse bool) func(*sql.Selector) {
	desc := o.Desc != reverse
	return func(s *sql.Selector) {
		if desc {
			s.OrderBy(sql.Desc(s.C(o.Column)), sql.Desc(s.C("id")))
		} else {
			s.OrderBy(sql.Asc(s.C(o.Column)), sql.Asc(s.C("id")))
		}
	}
}

// Args select a window of a list, as GraphQL connection arguments do. /v1
// sets First (its limit) and After (its page).
type Args struct {
	First  *int
	After  *Cursor
	Last   *int
	Before *Cursor
	// Columns, when set, adds columns to the rows of the page (not to its
	// count): what its items show beyond their own row, read with it.
	Columns func(*sql.Selector)
	// Fields, when set, are the only columns of their own that the page's
	// items read, with the ID and the order's column, which their cursors
	// are made of (and their parent's, paged by PaginateEach); their other
	// fields are zero. The count reads no column.
	Fields []string
}

// only keeps, of the columns a page's selector reads of its own rows,
// fields and those the page needs, when fields are set.
func only(s *sql.Selector, fields []string, needed ...string) {
	if fields == nil {
		return
	}
	cols := append([]string{}, fields...)
	for _, c := range needed {
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	s.Select(s.Columns(cols...)...)
}

// Query is the part of an ent query that pagination uses.
type Query[Q any, T any, P ~func(*sql.Selector), O ~func(*sql.Selector)] interface {
	Clone() Q
	Where(...P) Q
	Order(...O) Q
	Limit(int) Q
	All(context.Context) ([]T, error)
	Count(context.Context) (int, error)
}

// Edge is an item with its cursor.
type Edge[T any] struct {
	Node   T
	Cursor Cursor
}

// Info says where a page sits in its list.
type Info struct {
	HasNextPage     bool
	HasPreviousPage bool
	StartCursor     *Cursor
	EndCursor       *Cursor
}

// Connection is one page of a list.
type Connection[T any] struct {
	Edges    []*Edge[T]
	PageInfo Info
	count    func(context.Context) (int, error)
}

// Nodes returns the items of the page.
func (c *Connection[T]) Nodes() []T {
	out := make([]T, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}

// TotalCount counts every item of the list that matches its filters. It runs
// a query, so GraphQL only calls it when the field is selected.
func (c *Connection[T]) TotalCount(ctx context.Context) (int, error) {
	if c.count == nil {
		return len(c.Edges), nil
	}
	return c.count(ctx)
}

// Paginate runs q for the window that a selects, in the order o.
func Paginate[Q Query[Q, T, P, O], T any, P ~func(*sql.Selector), O ~func(*sql.Selector)](
	ctx context.Context, q Q, o Order[T, P, O], a Args,
) (*Connection[T], error) {
	if a.First != nil && a.Last != nil {
		return nil, apperr.Invalid("last", "cannot be combined with first")
	}
	n, backward := DefaultLimit, a.Last != nil
	for name, v := range map[string]*int{"first": a.First, "last": a.Last} {
		if v == nil {
			continue
		}
		if *v < 0 || *v > MaxLimit {
			return nil, apperr.Invalid(name, "must be between 0 and %d", MaxLimit)
		}
		n = *v
	}
	base := q.Clone()
	// The count runs later, when a field asks for it, on the query this page
	// ran: it reads what the page's scope allowed, and so is marked alike.
	mark := store.ReadMarkOf(ctx)
	conn := &Connection[T]{count: func(ctx context.Context) (int, error) {
		return base.Clone().Count(store.WithReadMark(ctx, mark))
	}}

	// The page's rows carry the list's total, counted by a subquery over
	// the list's own filters (the page's selector before its cursor), so
	// that a page and its count are one statement; and the columns the
	// caller adds. Both are added as a predicate, the one hook the query
	// offers: it runs on the page's selector after its columns are set and
	// the list's filters applied.
	sel := q.Clone().Where(P(func(s *sql.Selector) {
		only(s, a.Fields, "id", o.Column)
		total := sql.Select(sql.Count("*")).From(sql.Table(s.TableName()))
		if p := s.P(); p != nil {
			total.Where(p)
		}
		s.AppendSelectExprAs(total, totalColumn)
		if a.Columns != nil {
			a.Columns(s)
		}
	}))
	for _, c := range []struct {
		field   string
		cur     *Cursor
		reverse bool
	}{{"after", a.After, false}, {"before", a.Before, true}} {
		if c.cur == nil {
			continue
		}
		key, err := o.key(c.field, *c.cur)
		if err != nil {
			return nil, err
		}
		sel = sel.Where(P(o.beyond(key, c.cur.ID, c.reverse)))
	}
	if n == 0 {
		conn.PageInfo = Info{HasPreviousPage: a.After != nil, HasNextPage: a.Before != nil}
		return conn, nil
	}

	items, err := sel.Order(O(o.orderBy(backward))).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("paginating %s: %w", o.Name, err)
	}
	more := len(items) > n
	if more {
		items = items[:n]
	}
	if backward {
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
	}
	o.fill(conn, items, a, backward, more)
	if len(items) > 0 {
		if n, ok := totalOf(items[0]); ok {
			conn.count = func(context.Context) (int, error) { return n, nil }
		}
	}
	return conn, nil
}

// totalColumn is the column of a page's rows that holds the list's total.
const totalColumn = "page_total"

// totalOf reads the list's total from a row of its page.
func totalOf(item any) (int, bool) {
	row, ok := item.(interface {
		Value(string) (ent.Value, error)
	})
	if !ok {
		return 0, false
	}
	v, err := row.Value(totalColumn)
	if err != nil {
		return 0, false
	}
	n, ok := v.(int64)
	return int(n), ok
}

// fill sets a connection's edges and page info from the items of its page,
// in order. more says whether items lie beyond the page in its direction.
func (o Order[T, P, O]) fill(conn *Connection[T], items []T, a Args, backward, more bool) {
	// The edges are made in one slice, not one allocation each: a nested
	// read makes a page for every parent.
	conn.Edges = make([]*Edge[T], len(items))
	edges := make([]Edge[T], len(items))
	for i, it := range items {
		edges[i] = Edge[T]{Node: it, Cursor: o.cursor(it)}
		conn.Edges[i] = &edges[i]
	}
	if backward {
		conn.PageInfo = Info{HasPreviousPage: more, HasNextPage: a.Before != nil}
	} else {
		conn.PageInfo = Info{HasNextPage: more, HasPreviousPage: a.After != nil}
	}
	if len(items) > 0 {
		conn.PageInfo.StartCursor = &conn.Edges[0].Cursor
		conn.PageInfo.EndCursor = &conn.Edges[len(items)-1].Cursor
	}
}
