package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/store"
)

// RequireTx fails a write outside a transaction, before it reaches the
// database, and lets through writes in a transaction and marked ones.
func TestRequireTx(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "tx.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	var reported []error
	db.Client.Use(store.RequireTx(func(err error) { reported = append(reported, err) }))
	create := func(ctx context.Context, c *ent.Client, email string) error {
		return c.User.Create().SetEmail(email).SetDisplayName("Someone").Exec(ctx)
	}
	count := func() int {
		n, err := db.Client.User.Query().Count(ctx)
		require.NoError(t, err)
		return n
	}

	err = create(ctx, db.Client, "stray@example.com")
	require.ErrorContains(t, err, "outside a transaction")
	assert.Equal(t, []error{err}, reported)
	assert.Zero(t, count(), "nothing was written")

	require.NoError(t, store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		return create(ctx, tx, "inside@example.com")
	}))
	require.NoError(t, create(store.OutsideTx(ctx), db.Client, "marked@example.com"))
	assert.Len(t, reported, 1)
	assert.Equal(t, 2, count())
}
