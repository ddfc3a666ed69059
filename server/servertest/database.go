package servertest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/store"
)

// Every test gets a database of its own, and migrating one costs more than
// most tests do: about two hundred statements, and a revision row per
// statement. So each test process applies the migration directory once and
// each test gets the result:
//
//   - SQLite: a migrated database is read into memory once; each test writes
//     those bytes to a file of its own. The file is in WAL mode already;
//     store.Open sets the per-connection pragmas (foreign keys), as always.
//   - PostgreSQL: the migration directory is applied to a scratch schema
//     once; each test gets a schema of its own made by its statements and
//     the revision rows (store.MigrationScript), in one round trip.
//     A template database (CREATE DATABASE ... TEMPLATE per test) was
//     measured too and gained little over migrating: DROP DATABASE forces a
//     checkpoint, which writes out the other tests' fresh copies (8 MB each,
//     mostly system catalogs), and the drops queue behind one another. For
//     the 33 servers of the graph package, setup and teardown took 12 s this
//     way, 24-33 s with a template database and 29-44 s migrating each.

// FreshDSN returns the DSN of an empty database for one test: a SQLite file,
// or a new PostgreSQL schema when BINDERY_TEST_DATABASE_URL is set. It is
// removed when the test ends.
func FreshDSN(t testing.TB) string {
	base := os.Getenv(EnvDatabaseURL)
	if base == "" {
		return filepath.Join(t.TempDir(), "bindery.db")
	}
	schema := "t_" + randomHex()
	admin, err := sql.Open("postgres", base)
	require.NoError(t, err)
	defer admin.Close()
	_, err = admin.Exec("CREATE SCHEMA " + schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		admin, err := sql.Open("postgres", base)
		if err == nil {
			_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
			admin.Close()
		}
	})
	dsn, err := store.InSchema(base, schema)
	require.NoError(t, err)
	return dsn
}

// MigratedDSN returns the DSN of a database for one test whose schema is
// already migrated: a copy of a template. It is removed when the test ends.
func MigratedDSN(t testing.TB) string {
	t.Helper()
	if base := os.Getenv(EnvDatabaseURL); base != "" {
		return postgresSchema(t, base)
	}
	data, err := sqliteTemplate()
	require.NoError(t, err, "migrating the SQLite template")
	path := filepath.Join(t.TempDir(), "bindery.db")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

var sqliteTpl struct {
	once sync.Once
	data []byte
	err  error
}

// sqliteTemplate returns a migrated SQLite database file, made once per
// process.
func sqliteTemplate() ([]byte, error) {
	sqliteTpl.once.Do(func() { sqliteTpl.data, sqliteTpl.err = migrateSQLiteTemplate() })
	return sqliteTpl.data, sqliteTpl.err
}

func migrateSQLiteTemplate() ([]byte, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bindery-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	err = db.Migrate(ctx)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	// Closing the last connection checkpoints the WAL into the file and
	// removes it, so the file alone is the database, already in WAL mode.
	switch _, err := os.Stat(path + "-wal"); {
	case err == nil:
		return nil, errors.New("the template's WAL file outlived its connections")
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return os.ReadFile(path)
}

var pgPlan struct {
	once  sync.Once
	admin *sql.DB // on the database of BINDERY_TEST_DATABASE_URL
	ddl   string
	err   error
}

// postgresSchema creates a schema for one test with the tables of the
// migration directory, in one transaction, and drops it when the test ends.
func postgresSchema(t testing.TB, base string) string {
	t.Helper()
	ctx := context.Background()
	pgPlan.once.Do(func() { pgPlan.admin, pgPlan.ddl, pgPlan.err = planPostgres(ctx, base) })
	require.NoError(t, pgPlan.err, "planning the PostgreSQL schema")
	schema := "t_" + randomHex()
	tx, err := pgPlan.admin.BeginTx(ctx, nil)
	require.NoError(t, err)
	_, err = tx.ExecContext(ctx, "CREATE SCHEMA "+schema+"; SET LOCAL search_path TO "+schema+"; "+pgPlan.ddl)
	if err != nil {
		_ = tx.Rollback()
	} else {
		err = tx.Commit()
	}
	require.NoError(t, err, "creating the test schema")
	t.Cleanup(func() {
		if _, err := pgPlan.admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Logf("dropping the test schema %s: %v", schema, err)
		}
	})
	dsn, err := store.InSchema(base, schema)
	require.NoError(t, err)
	return dsn
}

// planPostgres returns a connection to the database of base and the
// statements that migrate an empty schema, taken from a scratch schema
// migrated by store.Migrate. Each test process migrates for itself, from its
// own code, so the script is never stale and test processes running
// together share nothing.
func planPostgres(ctx context.Context, base string) (_ *sql.DB, _ string, err error) {
	admin, err := sql.Open("postgres", base)
	if err != nil {
		return nil, "", err
	}
	defer func() {
		if err != nil {
			admin.Close()
		}
	}()
	empty := "bindery_plan_" + randomHex()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+empty); err != nil {
		return nil, "", err
	}
	defer func() {
		_, derr := admin.ExecContext(ctx, "DROP SCHEMA "+empty+" CASCADE")
		err = errors.Join(err, derr)
	}()
	dsn, err := store.InSchema(base, empty)
	if err != nil {
		return nil, "", err
	}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, "", err
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return nil, "", err
	}
	ddl, err := db.MigrationScript(ctx)
	if err != nil {
		return nil, "", err
	}
	return admin, ddl, nil
}

// randomHex returns 12 random hex digits, for names of databases and schemas.
func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
