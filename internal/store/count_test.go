package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/store"
)

// A Counter counts every query and exec, and a transaction's BEGIN and its
// COMMIT or ROLLBACK.
func TestCounter(t *testing.T) {
	ctx := context.Background()
	var c store.Counter
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "count.db"), store.WithDriver(c.Wrap))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	c.Reset()
	assert.Zero(t, c.Statements())

	_, err = db.Client.User.Query().Count(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 1, c.Statements())
	assert.Zero(t, c.Transactions())

	c.Reset()
	require.NoError(t, store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		return tx.User.Create().SetEmail("a@example.com").SetDisplayName("A").Exec(ctx)
	}))
	assert.EqualValues(t, 3, c.Statements(), "BEGIN, INSERT, COMMIT")
	assert.EqualValues(t, 1, c.Transactions())

	c.Reset()
	failed := errors.New("changed my mind")
	err = store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		_, err := tx.User.Query().Count(ctx)
		return errors.Join(err, failed)
	})
	require.ErrorIs(t, err, failed)
	assert.EqualValues(t, 3, c.Statements(), "BEGIN, SELECT, ROLLBACK")
	assert.EqualValues(t, 1, c.Transactions())
}
