package servertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/store"
)

// A test's copy of the template is migrated to the current schema, is its
// own, and has the settings store.Open gives any database.
func TestMigratedDSN(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := func() *store.DB {
		db, err := store.Open(ctx, MigratedDSN(t))
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open(), open()

	st, err := a.MigrationStatus(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Pending(), "the copy needs no migration")
	assert.False(t, st.Adopt)
	applied, err := a.ApplyMigrations(ctx)
	require.NoError(t, err)
	assert.Empty(t, applied, "migrating the copy does nothing")

	require.NoError(t, a.Client.User.Create().SetEmail("ada@example.com").SetDisplayName("Ada").Exec(ctx))
	n, err := b.Client.User.Query().Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "another test's copy does not see the write")

	err = a.Client.Member.Create().SetOrganizationID("org_missing").SetUserID("usr_missing").Exec(ctx)
	assert.Error(t, err, "foreign keys are enforced")

	if !IsPostgres() {
		var mode string
		require.NoError(t, a.SQL.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode))
		assert.Equal(t, "wal", mode)
	}
}
