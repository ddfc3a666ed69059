package store

import (
	"container/list"
	"context"
	"database/sql/driver"
	"errors"

	"github.com/lib/pq"

	"github.com/bindery/bindery/internal/sqlplan"
)

// PostgreSQL plans a statement each time it runs unless the statement is
// prepared, and planning Bindery's statements (unions, correlated counts)
// costs more than running them: 0.4 to 0.7 ms each, against 0.1 to run. So
// every connection of the pool prepares the statements it runs and keeps
// them, the most recently used stmtCacheSize of them; PostgreSQL then plans a
// statement once per connection (a generic plan after a few runs), and each
// run is one round trip (Bind, Execute, Sync). SQLite parses and plans a
// statement in the process, and for a published page kept in the reader's
// cache that was most of the request's CPU time; its connections keep their
// statements the same way (SQLite prepares one again itself when the schema
// changes).

// stmtCacheSize bounds the prepared statements of one connection. The
// statements Bindery runs are a few hundred shapes; a list of N IDs is a
// shape per N.
const stmtCacheSize = 512

// cachingConnector gives each connection a statement cache.
type cachingConnector struct {
	driver.Connector
}

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &cachingConn{Conn: conn, stmts: map[string]*list.Element{}, order: list.New()}, nil
}

// cachingConn runs queries through the statements it prepared. database/sql
// uses a connection from one goroutine at a time, so it needs no lock.
type cachingConn struct {
	driver.Conn
	stmts map[string]*list.Element // of *cachedStmt
	order *list.List               // most recently used first
}

type cachedStmt struct {
	query string
	stmt  driver.Stmt
}

// errNoContext is returned when the driver lacks the context methods, which
// lib/pq has.
var errNoContext = errors.New("store: the driver does not support contexts")

// prepared returns the connection's statement for query, preparing it the
// first time.
func (c *cachingConn) prepared(ctx context.Context, query string) (driver.Stmt, error) {
	if e, ok := c.stmts[query]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cachedStmt).stmt, nil
	}
	p, ok := c.Conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, errNoContext
	}
	st, err := p.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = c.order.PushFront(&cachedStmt{query: query, stmt: st})
	if c.order.Len() > stmtCacheSize {
		old := c.order.Remove(c.order.Back()).(*cachedStmt)
		delete(c.stmts, old.query)
		_ = old.stmt.Close()
	}
	return st, nil
}

// forget drops a statement that failed for good: one prepared before the
// schema changed ("cached plan must not change result type"), or one the
// server no longer has. It is prepared again on the next use. Other errors
// (a constraint, a cancelled query) leave it cached.
func (c *cachingConn) forget(query string, err error) {
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || (pqErr.Code != "0A000" && pqErr.Code != "26000") {
		return
	}
	if e, ok := c.stmts[query]; ok {
		c.order.Remove(e)
		delete(c.stmts, query)
		_ = e.Value.(*cachedStmt).stmt.Close()
	}
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if q, ok := c.Conn.(driver.QueryerContext); ok && sqlplan.IsEachRun(ctx) {
		// lib/pq runs it as an unnamed statement, planned for args.
		return q.QueryContext(ctx, query, args)
	}
	st, err := c.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		c.forget(query, err)
	}
	return rows, err
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	st, err := c.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	res, err := st.(driver.StmtExecContext).ExecContext(ctx, args)
	if err != nil {
		c.forget(query, err)
	}
	return res, err
}

func (c *cachingConn) Close() error {
	for e := c.order.Front(); e != nil; e = e.Next() {
		_ = e.Value.(*cachedStmt).stmt.Close()
	}
	return c.Conn.Close()
}

// The rest is the connection's own.

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return c.Conn.Prepare(query)
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	b, ok := c.Conn.(driver.ConnBeginTx)
	if !ok {
		return nil, errNoContext
	}
	return b.BeginTx(ctx, opts)
}

func (c *cachingConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.Conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

func (c *cachingConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *cachingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *cachingConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}
