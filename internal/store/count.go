package store

import (
	"context"
	"sync/atomic"

	"entgo.io/ent/dialect"
)

// Counter counts the round trips ent makes to the database: every query and
// exec, and the BEGIN and the COMMIT or ROLLBACK of every transaction. Tools
// that report the statements a request costs (cmd/benchload) install it with
// WithDriver(c.Wrap). Statements that bypass ent, through DB.SQL, are not
// counted.
type Counter struct {
	statements   atomic.Int64
	transactions atomic.Int64
}

// Statements returns the statements counted so far, BEGIN, COMMIT and
// ROLLBACK included.
func (c *Counter) Statements() int64 { return c.statements.Load() }

// Transactions returns the transactions begun so far.
func (c *Counter) Transactions() int64 { return c.transactions.Load() }

// Reset sets both counts back to zero.
func (c *Counter) Reset() {
	c.statements.Store(0)
	c.transactions.Store(0)
}

// Wrap returns d counting into c.
func (c *Counter) Wrap(d dialect.Driver) dialect.Driver { return &countingDriver{Driver: d, c: c} }

type countingDriver struct {
	dialect.Driver
	c *Counter
}

func (d *countingDriver) Exec(ctx context.Context, query string, args, v any) error {
	d.c.statements.Add(1)
	return d.Driver.Exec(ctx, query, args, v)
}

func (d *countingDriver) Query(ctx context.Context, query string, args, v any) error {
	d.c.statements.Add(1)
	return d.Driver.Query(ctx, query, args, v)
}

func (d *countingDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	d.c.statements.Add(1) // BEGIN
	d.c.transactions.Add(1)
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &countingTx{Tx: tx, c: d.c}, nil
}

type countingTx struct {
	dialect.Tx
	c *Counter
}

func (t *countingTx) Exec(ctx context.Context, query string, args, v any) error {
	t.c.statements.Add(1)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t *countingTx) Query(ctx context.Context, query string, args, v any) error {
	t.c.statements.Add(1)
	return t.Tx.Query(ctx, query, args, v)
}

func (t *countingTx) Commit() error {
	t.c.statements.Add(1)
	return t.Tx.Commit()
}

func (t *countingTx) Rollback() error {
	t.c.statements.Add(1)
	return t.Tx.Rollback()
}
