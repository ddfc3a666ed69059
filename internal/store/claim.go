package store

import (
	"context"

	"entgo.io/ent/dialect"

	"github.com/bindery/bindery/ent"
)

// Claim is how background workers (the OpenAPI worker, the webhook worker)
// take one due job from a table, so that any number of servers share the
// work without doing a job twice.
//
// On PostgreSQL, find runs with skipLocked set, in the transaction of the
// claim, and must lock what it returns (SELECT ... FOR UPDATE SKIP
// LOCKED): the row lock holds until the claim commits, so a concurrent
// worker skips the row and takes another. On SQLite, which has one writer
// at a time, find proposes up to limit candidates and take, a conditional
// UPDATE that takes the row only if it is still due, runs alone for each
// until one succeeds.
//
// take reports whether it took the row. Claim returns the ID taken, or ""
// when none was due.
type Claim struct {
	// Candidates is how many rows a claim on SQLite tries.
	Candidates int
	Find       func(ctx context.Context, tx *ent.Client, limit int, skipLocked bool) ([]string, error)
	Take       func(ctx context.Context, tx *ent.Client, id string) (bool, error)
}

// One claims one due row of client's database.
func (c Claim) One(ctx context.Context, client *ent.Client) (string, error) {
	var claimed string
	if client.Driver().Dialect() == dialect.Postgres {
		err := WithTx(ctx, client, func(ctx context.Context, tx *ent.Client) error {
			ids, err := c.Find(ctx, tx, 1, true)
			if err != nil || len(ids) == 0 {
				return err
			}
			ok, err := c.Take(ctx, tx, ids[0])
			if ok {
				claimed = ids[0]
			}
			return err
		})
		return claimed, err
	}
	ids, err := c.Find(ctx, client, max(c.Candidates, 1), false)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		var ok bool
		err := WithTx(ctx, client, func(ctx context.Context, tx *ent.Client) (err error) {
			ok, err = c.Take(ctx, tx, id)
			return err
		})
		if err != nil {
			return "", err
		}
		if ok {
			return id, nil
		}
	}
	return "", nil
}
