package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	entsql "entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/store"
)

// Writes counts a write once it commits, through any client over the
// database, and never a read, a rolled back transaction or a write to a
// quiet table.
func TestWritesCountCommittedWrites(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "writes.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	w := db.Writes
	var announced int
	w.Announce(func(context.Context) { announced++ })
	w.Quiet(apitoken.Table)
	at := w.Count()
	changed := func() bool {
		now := w.Count()
		defer func() { at = now }()
		return now != at
	}

	u, err := db.Client.User.Create().SetEmail("a@example.com").SetDisplayName("A").Save(ctx)
	require.NoError(t, err)
	assert.True(t, changed(), "a write outside a transaction")
	assert.Equal(t, 1, announced)

	_, err = db.Client.User.Query().All(ctx)
	require.NoError(t, err)
	assert.False(t, changed(), "a read")

	errRollback := errors.New("roll back")
	err = store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		if err := tx.User.UpdateOne(u).SetDisplayName("B").Exec(ctx); err != nil {
			return err
		}
		assert.False(t, changed(), "a write before its commit")
		return errRollback
	})
	require.ErrorIs(t, err, errRollback)
	assert.False(t, changed(), "a rolled back transaction")

	require.NoError(t, store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		for _, name := range []string{"B", "C"} {
			if err := tx.User.UpdateOne(u).SetDisplayName(name).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	}))
	assert.Equal(t, at+1, w.Count(), "a transaction counts once, when it commits")
	changed()
	assert.Equal(t, 2, announced)

	require.NoError(t, db.NewClient().User.UpdateOne(u).SetDisplayName("D").Exec(ctx))
	assert.True(t, changed(), "a client without hooks")

	n, err := db.Client.User.Update().Where(user.Email("nobody@example.com")).SetDisplayName("F").Save(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	assert.False(t, changed(), "an update that matched no row")

	query := func(q string) {
		t.Helper()
		var rows entsql.Rows
		require.NoError(t, db.Client.Driver().Query(ctx, q, []any{}, &rows))
		require.NoError(t, rows.Close())
	}
	for _, q := range []string{
		"WITH f AS (SELECT id FROM users) SELECT count(*) FROM f",
		"with updated_users AS (SELECT id FROM users WHERE updated_at IS NOT NULL) SELECT count(*) FROM updated_users",
	} {
		query(q)
		assert.False(t, changed(), "a common table expression that reads: %s", q)
	}
	query("WITH f AS (SELECT id FROM users) UPDATE users SET display_name = 'W' WHERE id IN (SELECT id FROM f) RETURNING id")
	assert.True(t, changed(), "a common table expression that writes")

	_, err = db.SQL.ExecContext(ctx, "UPDATE users SET display_name = 'E'")
	require.NoError(t, err)
	assert.False(t, changed(), "SQL beside the clients is not seen")

	require.NoError(t, db.Client.APIToken.Create().SetUserID(u.ID).SetLabel("t").SetTokenHash("h").Exec(ctx))
	assert.False(t, changed(), "a quiet table")
	_, err = db.Client.APIToken.Delete().Exec(ctx)
	require.NoError(t, err)
	assert.False(t, changed(), "a delete from a quiet table")

	// A table quiet but for deletes: a made or touched token does not
	// count, a revoked one does.
	w.QuietButDeletes(apitoken.Table)
	tok, err := db.Client.APIToken.Create().SetUserID(u.ID).SetLabel("t").SetTokenHash("h").Save(ctx)
	require.NoError(t, err)
	assert.False(t, changed(), "an insert into a table quiet but for deletes")
	require.NoError(t, tok.Update().SetLastUsedAt(time.Now()).Exec(ctx))
	assert.False(t, changed(), "an update of a table quiet but for deletes")
	require.NoError(t, db.Client.APIToken.DeleteOne(tok).Exec(ctx))
	assert.True(t, changed(), "a delete from a table quiet but for deletes")
	w.Quiet(user.Table)
	require.NoError(t, db.Client.User.UpdateOne(u).SetDisplayName("G").Exec(ctx))
	assert.False(t, changed(), "a table made quiet later")
	_, err = db.Client.APIToken.Create().SetUserID(u.ID).SetLabel("t").SetTokenHash("h2").Save(ctx)
	require.NoError(t, err)
	assert.False(t, changed(), "quieting another table keeps the earlier ones")
}
