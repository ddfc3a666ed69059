package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// A backup taken while a writer commits holds every write acknowledged
// before it started, and restores to a database that has them all.
func TestBackupDuringWritesAndRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "bindery.db")
	db, err := openMigrated(ctx, path)
	require.NoError(t, err)
	defer db.Close()

	var mu sync.Mutex
	acked := 0
	stop := make(chan struct{})
	wrote := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				wrote <- nil
				return
			default:
			}
			if _, err := graph.EnsureUser(ctx, db.Client, fmt.Sprintf("writer%d@example.com", i)); err != nil {
				wrote <- err
				return
			}
			mu.Lock()
			acked = i + 1
			mu.Unlock()
		}
	}()
	count := func() int { mu.Lock(); defer mu.Unlock(); return acked }
	require.Eventually(t, func() bool { return count() >= 50 }, 30*time.Second, time.Millisecond)

	before := count()
	out := filepath.Join(dir, "backup.db")
	printed, said, err := runCLI(t, nil, "backup", "--db", path, "--out", out)
	require.NoError(t, err)
	assert.Equal(t, out+"\n", printed)
	assert.Equal(t, "backed up the database to "+out+"\n", said)
	close(stop)
	require.NoError(t, <-wrote)
	assert.Greater(t, count(), before, "the writer kept writing during the backup")

	restored := filepath.Join(dir, "restored.db")
	_, said, err = runCLI(t, nil, "restore", "--from", out, "--db", restored)
	require.NoError(t, err)
	assert.Equal(t, "restored "+restored+" from "+out+"\n", said)
	rdb, err := store.Open(ctx, restored)
	require.NoError(t, err)
	defer rdb.Close()
	for i := range before {
		n, err := rdb.Client.User.Query().Where(user.Email(fmt.Sprintf("writer%d@example.com", i))).Count(store.OutsideTx(ctx))
		require.NoError(t, err)
		require.Equal(t, 1, n, "acknowledged write %d of %d is in the backup", i, before)
	}

	t.Run("refusals", func(t *testing.T) {
		_, _, err := runCLI(t, nil, "backup", "--db", path, "--out", out)
		assert.ErrorContains(t, err, "exists", "a backup never overwrites a file")
		_, _, err = runCLI(t, nil, "restore", "--from", out, "--db", restored)
		assert.ErrorContains(t, err, "--force", "a restore replaces a database only when asked")
		_, _, err = runCLI(t, nil, "restore", "--from", out, "--db", restored, "--force")
		assert.NoError(t, err)
		junk := filepath.Join(dir, "junk.db")
		require.NoError(t, os.WriteFile(junk, []byte("not a database"), 0o600))
		_, _, err = runCLI(t, nil, "restore", "--from", junk, "--db", filepath.Join(dir, "other.db"))
		assert.Error(t, err)
		assert.NoFileExists(t, filepath.Join(dir, "other.db"))
		_, _, err = runCLI(t, nil, "backup", "--db", path)
		assert.ErrorIs(t, err, errUsage)
	})
}

// On PostgreSQL, backup runs pg_dump on Bindery's schema after checking
// its version against the server's.
func TestBackupPostgres(t *testing.T) {
	if os.Getenv(servertest.EnvDatabaseURL) == "" {
		t.Skip("PostgreSQL only: set " + servertest.EnvDatabaseURL)
	}
	if _, err := exec.LookPath("pg_restore"); err != nil {
		t.Skip("pg_dump and pg_restore are not installed (Debian: apt-get install postgresql-client)")
	}
	t.Parallel()
	ctx := context.Background()
	dsn := dsn(t)
	db, err := openMigrated(ctx, dsn)
	require.NoError(t, err)
	defer db.Close()
	_, err = graph.EnsureUser(ctx, db.Client, "kept@example.com")
	require.NoError(t, err)

	out := filepath.Join(t.TempDir(), "bindery.dump")
	_, _, err = runCLI(t, nil, "backup", "--db", dsn, "--out", out)
	require.NoError(t, err)
	list, err := exec.Command("pg_restore", "--list", out).CombinedOutput()
	require.NoError(t, err, string(list))
	assert.Regexp(t, `TABLE DATA t_[0-9a-f]+ users `, string(list), "the dump holds Bindery's schema")
	assert.NotContains(t, string(list), "SCHEMA - public", "and only that schema")
}
