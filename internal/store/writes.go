package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync/atomic"

	"entgo.io/ent/dialect"
)

// Writes counts the writes that commit through a database's clients, every
// one of them, whatever made the statement: ent's builders, hooks or none,
// or SQL of Bindery's own. What a server keeps across requests is good
// while the count stands still (see graph.Resolver.Generation). Writes to
// the tables named quiet are not counted.
type Writes struct {
	n     atomic.Uint64
	quiet atomic.Pointer[map[string]quietness]
	// announce, when set, is called after each counted write commits, in
	// the writer's context: it tells the other servers.
	announce atomic.Pointer[func(context.Context)]
}

// Count returns the number of writes counted so far, at least 1: a zero
// count never names a state.
func (w *Writes) Count() uint64 { return w.n.Load() + 1 }

// quietness is which writes to a table are left out of the count.
type quietness uint8

const (
	quietAll quietness = iota + 1
	quietButDeletes
)

// Quiet leaves writes to tables out of the count: tables whose rows
// nothing that is kept across requests shows.
func (w *Writes) Quiet(tables ...string) { w.setQuiet(quietAll, tables) }

// QuietButDeletes leaves inserts and updates of tables out of the count,
// and counts deletes: tables of rows made and touched often, whose removal
// something kept must see at once (a revoked credential).
func (w *Writes) QuietButDeletes(tables ...string) { w.setQuiet(quietButDeletes, tables) }

func (w *Writes) setQuiet(how quietness, tables []string) {
	q := map[string]quietness{}
	if old := w.quiet.Load(); old != nil {
		for t, h := range *old {
			q[t] = h
		}
	}
	for _, t := range tables {
		q[t] = how
	}
	w.quiet.Store(&q)
}

// Announce makes fn be called after each counted write commits.
func (w *Writes) Announce(fn func(context.Context)) { w.announce.Store(&fn) }

// Add counts a write that another server made.
func (w *Writes) Add() { w.n.Add(1) }

// committed counts a write that committed.
func (w *Writes) committed(ctx context.Context) {
	w.n.Add(1)
	if fn := w.announce.Load(); fn != nil {
		(*fn)(ctx)
	}
}

// writes reports whether a statement may write to a table that counts. A
// statement that may write and whose table is not plain counts.
func (w *Writes) writes(query string) bool {
	q := strings.TrimLeft(query, " \t\n(")
	verb := strings.ToUpper(operation(q))
	var rest string
	switch verb {
	case "INSERT", "REPLACE":
		_, rest, _ = cutFold(q, "INTO ")
	case "UPDATE":
		rest = q[len(verb):]
	case "DELETE":
		_, rest, _ = cutFold(q, "FROM ")
	case "SELECT", "SAVEPOINT", "RELEASE", "SET", "SHOW", "EXPLAIN", "PRAGMA", "BEGIN", "COMMIT", "ROLLBACK":
		return false
	case "WITH":
		// Common table expressions read (search's ranking), unless a verb
		// that writes is among their words: PostgreSQL's data-modifying
		// WITH, or a locking FOR UPDATE, counted to be safe.
		return hasWritingVerb(q)
	default:
		// WITH ... and anything else: it may write anywhere.
		return true
	}
	table := strings.TrimSpace(rest)
	if i := strings.IndexAny(table, " (\t\n"); i >= 0 {
		table = table[:i]
	}
	quiet := w.quiet.Load()
	if quiet == nil {
		return true
	}
	switch (*quiet)[strings.Trim(table, "`\"")] {
	case quietAll:
		return false
	case quietButDeletes:
		return verb == "DELETE"
	}
	return true
}

// hasWritingVerb reports whether any word of query is a verb that writes.
// A word in a string literal or a quoted identifier counts too, which can
// only make a read count as a write.
func hasWritingVerb(query string) bool {
	start := -1
	for i := 0; i <= len(query); i++ {
		if i < len(query) && isWordByte(query[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			switch strings.ToUpper(query[start:i]) {
			case "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "TRUNCATE":
				return true
			}
			start = -1
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// cutFold is strings.Cut with sep matched regardless of case.
func cutFold(s, sep string) (before, after string, found bool) {
	if i := strings.Index(strings.ToUpper(s), sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// writing is the driver that counts writes, beneath every client's.
type writing struct {
	dialect.Driver
	w *Writes
}

func (c *writing) Exec(ctx context.Context, query string, args, v any) error {
	err := c.Driver.Exec(ctx, query, args, v)
	if err == nil && changedRows(v) && c.w.writes(query) {
		c.w.committed(ctx)
	}
	return err
}

// changedRows reports whether an Exec whose result ent asked for in v may
// have changed rows: a conditional UPDATE that matched none (a worker's
// poll for work) changed nothing.
func changedRows(v any) bool {
	res, ok := v.(*sql.Result)
	if !ok || res == nil || *res == nil {
		return true
	}
	n, err := (*res).RowsAffected()
	return err != nil || n > 0
}

func (c *writing) Query(ctx context.Context, query string, args, v any) error {
	err := c.Driver.Query(ctx, query, args, v)
	if err == nil && c.w.writes(query) {
		c.w.committed(ctx)
	}
	return err
}

func (c *writing) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := c.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &writingTx{Tx: tx, w: c.w, ctx: ctx}, nil
}

// writingTx counts its writes once it commits.
type writingTx struct {
	dialect.Tx
	w     *Writes
	ctx   context.Context
	wrote atomic.Bool
}

func (x *writingTx) Exec(ctx context.Context, query string, args, v any) error {
	err := x.Tx.Exec(ctx, query, args, v)
	if err == nil && !x.wrote.Load() && changedRows(v) && x.w.writes(query) {
		x.wrote.Store(true)
	}
	return err
}

func (x *writingTx) Query(ctx context.Context, query string, args, v any) error {
	err := x.Tx.Query(ctx, query, args, v)
	if err == nil && !x.wrote.Load() && x.w.writes(query) {
		x.wrote.Store(true)
	}
	return err
}

func (x *writingTx) Commit() error {
	err := x.Tx.Commit()
	if err == nil && x.wrote.Load() {
		x.w.committed(x.ctx)
	}
	return err
}

// The statements of SQL of Bindery's own (ent's ExecContext and
// QueryContext, such as the seed lock's) go through to the driver
// beneath, and count the same.

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// errUnsupported is what a driver beneath that lacks a method gives.
var errUnsupported = errors.New("store: the driver does not support it")

// execBeneath runs query on d, and calls wrote when it wrote.
func execBeneath(ctx context.Context, d any, w *Writes, wrote func(), query string, args []any) (sql.Result, error) {
	ex, ok := d.(execer)
	if !ok {
		return nil, errUnsupported
	}
	res, err := ex.ExecContext(ctx, query, args...)
	if err == nil && changedRows(&res) && w.writes(query) {
		wrote()
	}
	return res, err
}

// queryBeneath runs query on d, and calls wrote when it may have written.
func queryBeneath(ctx context.Context, d any, w *Writes, wrote func(), query string, args []any) (*sql.Rows, error) {
	q, ok := d.(querier)
	if !ok {
		return nil, errUnsupported
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err == nil && w.writes(query) {
		wrote()
	}
	return rows, err
}

func (c *writing) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return execBeneath(ctx, c.Driver, c.w, func() { c.w.committed(ctx) }, query, args)
}

func (c *writing) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return queryBeneath(ctx, c.Driver, c.w, func() { c.w.committed(ctx) }, query, args)
}

func (x *writingTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return execBeneath(ctx, x.Tx, x.w, func() { x.wrote.Store(true) }, query, args)
}

func (x *writingTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return queryBeneath(ctx, x.Tx, x.w, func() { x.wrote.Store(true) }, query, args)
}
