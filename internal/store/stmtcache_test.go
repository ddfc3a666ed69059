package store

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/sqlplan"
)

// On PostgreSQL every connection prepares the statements it runs once, keeps
// the most recently used, and prepares again a statement the schema made
// stale.
func TestStatementCache(t *testing.T) {
	base := os.Getenv("BINDERY_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PostgreSQL only: BINDERY_TEST_DATABASE_URL is not set")
	}
	ctx := context.Background()
	db, err := Open(ctx, base)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	conn, err := db.SQL.Conn(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	cached := func() (n int) {
		require.NoError(t, conn.Raw(func(dc any) error {
			n = dc.(*cachingConn).order.Len()
			return nil
		}))
		return n
	}
	schema := fmt.Sprintf("stmtcache_%d", os.Getpid())
	_, err = conn.ExecContext(ctx, "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = db.SQL.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE") })
	table := schema + ".t"
	_, err = conn.ExecContext(ctx, "CREATE TABLE "+table+" (id int)")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "INSERT INTO "+table+" VALUES ($1), ($2)", 1, 2)
	require.NoError(t, err)

	before := cached()
	count := func() (n int) {
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE id > $1", 0).Scan(&n))
		return n
	}
	assert.Equal(t, 2, count())
	assert.Equal(t, 2, count())
	assert.Equal(t, before+1, cached(), "a statement run twice is prepared once")

	// A statement planned at every run is never prepared: PostgreSQL
	// cannot switch it to a generic plan.
	prepared := func() (n int) {
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE strpos(statement, $1) > 0", "id < $1").Scan(&n))
		return n
	}
	for range 7 {
		var n int
		require.NoError(t, conn.QueryRowContext(sqlplan.EachRun(ctx), "SELECT count(*) FROM "+table+" WHERE id < $1", 5).Scan(&n))
		require.Equal(t, 2, n)
	}
	assert.Equal(t, before+1, cached(), "the statement planned at every run is not cached")
	assert.Zero(t, prepared(), "nor prepared on the server")

	// A column added under a prepared SELECT * makes it stale: the run
	// fails once, and the next prepares it anew.
	star := func() error {
		rows, err := conn.QueryContext(ctx, "SELECT * FROM "+table+" WHERE id = $1", 1)
		if err != nil {
			return err
		}
		return rows.Close()
	}
	require.NoError(t, star())
	_, err = conn.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN name text")
	require.NoError(t, err)
	if err := star(); err != nil {
		require.NoError(t, star(), "the stale statement is prepared again")
	}

	// The cache is bounded: the least recently used statements go.
	for i := range stmtCacheSize + 10 {
		var n int
		require.NoError(t, conn.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + $1::int", i), 1).Scan(&n))
		require.Equal(t, i+1, n)
	}
	assert.Equal(t, stmtCacheSize, cached())
}
