package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	atlasmigrate "ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	atlasschema "ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/migrate"
	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/store/migrations"
)

// freshDSN returns an empty database for one test: a SQLite file, or a
// PostgreSQL schema of its own when BINDERY_TEST_DATABASE_URL is set.
func freshDSN(t *testing.T) string {
	t.Helper()
	base := os.Getenv("BINDERY_TEST_DATABASE_URL")
	if base == "" {
		return filepath.Join(t.TempDir(), "bindery.db")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("postgres", base)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	_, err = admin.Exec("CREATE SCHEMA " + schema)
	require.NoError(t, err)
	dsn, err := store.InSchema(base, schema)
	require.NoError(t, err)
	return dsn
}

func open(t *testing.T, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// autoMigrate creates the schema as the releases before versioned
// migrations did at every start: ent's automatic migration, then the search
// index.
func autoMigrate(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, db.NewClient().Schema.Create(ctx, migrate.WithForeignKeys(true)))
	for _, stmt := range search.New(db.Dialect).Schema() {
		_, err := db.SQL.ExecContext(ctx, stmt)
		require.NoError(t, err)
	}
	// What ent cannot describe, the migration files write by hand.
	dir, err := migrations.Dir(db.Dialect)
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	drv := atlasDriver(t, db)
	for _, f := range files {
		if !slices.Contains(migrations.HandWritten, f.Name()) {
			continue
		}
		// The driver's scanner, as the migrations are applied: SQLite's
		// triggers hold semicolons.
		stmts, err := atlasmigrate.FileStmts(drv, atlasmigrate.NewLocalFile(f.Name(), f.Bytes()))
		require.NoError(t, err)
		for _, stmt := range stmts {
			_, err := db.SQL.ExecContext(ctx, stmt)
			require.NoError(t, err, stmt)
		}
	}
}

// lastAutoMigrated creates the schema of the last release that migrated
// automatically: the baseline's statements, run without recording them.
// (When the baseline was written, it was what autoMigrate made:
// TestMigrationsMatchAutomaticMigration, which keeps comparing the
// automatic migration of today's ent schema with the files.)
func lastAutoMigrated(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	dir, err := migrations.Dir(db.Dialect)
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	drv := atlasDriver(t, db)
	stmts, err := atlasmigrate.FileStmts(drv, files[0])
	require.NoError(t, err)
	for _, stmt := range stmts {
		_, err := db.SQL.ExecContext(ctx, stmt)
		require.NoError(t, err, stmt)
	}
}

func baselineName(t *testing.T, d string) string {
	t.Helper()
	dir, err := migrations.Dir(d)
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files[0].Name()
}

// Migrating a fresh database applies every file; migrating again does
// nothing, and the status shows nothing pending.
func TestMigrateFreshThenNoop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, freshDSN(t))

	st, err := db.MigrationStatus(ctx)
	require.NoError(t, err)
	assert.False(t, st.Adopt)
	assert.Equal(t, []string{baselineName(t, db.Dialect)}, st.Pending()[:1])

	applied, err := db.ApplyMigrations(ctx)
	require.NoError(t, err)
	assert.Equal(t, st.Pending(), applied)

	again, err := db.ApplyMigrations(ctx)
	require.NoError(t, err)
	assert.Empty(t, again, "a second migration does nothing")
	st, err = db.MigrationStatus(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Pending())
	for _, f := range st.Files {
		assert.True(t, f.Applied, f.Name)
		assert.False(t, f.Baseline, "a fresh database runs the baseline")
		assert.WithinDuration(t, time.Now(), f.AppliedAt, time.Minute)
	}
	var plan bytes.Buffer
	require.NoError(t, db.WritePendingMigrations(ctx, &plan))
	assert.Equal(t, "-- nothing to apply: the database is up to date\n", plan.String())

	// The search index is there: its DDL is part of the baseline.
	require.NoError(t, db.Client.User.Create().SetEmail("ada@example.com").SetDisplayName("Ada").Exec(store.OutsideTx(ctx)))
	_, err = db.SQL.ExecContext(ctx, "SELECT count(*) FROM search_pages")
	require.NoError(t, err)
}

// A database made by the automatic migration of the last release before
// versioned migrations is adopted: its rows survive, the baseline is
// recorded as applied without running, and its schema is the one a fresh
// database gets from the migration files.
func TestMigrateAdoptsAutoMigratedDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, freshDSN(t))
	lastAutoMigrated(t, db)
	arg := func(n int) string {
		if db.Dialect == dialect.Postgres {
			return fmt.Sprintf("$%d", n)
		}
		return "?"
	}
	now := time.Now().UTC().Truncate(time.Second)
	for _, stmt := range []struct {
		query string
		args  []any
	}{
		{"INSERT INTO users (id, created_at, updated_at, email, display_name) VALUES ('usr_ada', " + arg(1) + ", " + arg(2) + ", 'ada@example.com', 'Ada')",
			[]any{now, now}},
		{"INSERT INTO organizations (id, created_at, updated_at, title, email_domains) VALUES ('org_docs', " + arg(1) + ", " + arg(2) + ", 'Docs', '[]')",
			[]any{now, now}},
		{"INSERT INTO members (id, role, joined_at, organization_id, user_id) VALUES ('mem_ada', 'admin', " + arg(1) + ", 'org_docs', 'usr_ada')",
			[]any{now}},
	} {
		_, err := db.SQL.ExecContext(ctx, stmt.query, stmt.args...)
		require.NoError(t, err, stmt.query)
	}

	if db.Dialect == dialect.SQLite {
		// A page the search index had: its words reach the list prefixes
		// are expanded into.
		_, err := db.SQL.ExecContext(ctx, `INSERT INTO search_pages (space_id, page_id, organization_id, version, scope, title, headings, body, stored)
			VALUES ('spc_a', 'pg_a', 'org_docs', 'v1', 's0123456789abcdef0123 o0123456789abcdef0123', 'install guide', 'setup', 'run the installer now', '{}')`)
		require.NoError(t, err)
	}

	baseline := baselineName(t, db.Dialect)
	st, err := db.MigrationStatus(ctx)
	require.NoError(t, err)
	assert.True(t, st.Adopt)
	require.NotEmpty(t, st.Files)
	assert.True(t, st.Files[0].Baseline)
	assert.False(t, st.Files[0].Applied)

	var plan bytes.Buffer
	require.NoError(t, db.WritePendingMigrations(ctx, &plan))
	assert.Contains(t, plan.String(), "adopted")
	// The baseline's tables are not created again; later migrations may
	// create tables of their own.
	for _, table := range []string{"users", "organizations", "members", "spaces"} {
		assert.NotRegexp(t, "CREATE TABLE [`\"]"+table+"[`\"]", plan.String(), "the baseline is not run")
	}

	_, err = db.ApplyMigrations(ctx)
	require.NoError(t, err)
	st, err = db.MigrationStatus(ctx)
	require.NoError(t, err)
	assert.False(t, st.Adopt)
	assert.Empty(t, st.Pending())
	assert.Equal(t, baseline, st.Files[0].Name)
	assert.True(t, st.Files[0].Baseline && st.Files[0].Applied, "the baseline is recorded as applied")
	var typ int
	require.NoError(t, db.SQL.QueryRowContext(ctx, "SELECT type FROM atlas_schema_revisions").Scan(&typ))
	assert.Equal(t, int(atlasmigrate.RevisionTypeBaseline), typ)

	if db.Dialect == dialect.SQLite {
		rows, err := db.SQL.QueryContext(ctx, "SELECT word FROM search_words ORDER BY word")
		require.NoError(t, err)
		var words []string
		for rows.Next() {
			var w string
			require.NoError(t, rows.Scan(&w))
			words = append(words, w)
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, []string{"guide", "install", "installer", "setup"}, words, "the words longer than 3 characters, not the scope's")
	}

	users, err := db.Client.User.Query().All(ctx)
	require.NoError(t, err)
	require.Len(t, users, 1)
	assert.Equal(t, "ada@example.com", users[0].Email)
	assert.Equal(t, now, users[0].CreatedAt.UTC())
	m, err := db.Client.Member.Query().WithOrganization().Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Docs", m.Edges.Organization.Title)

	// The adopted schema is the one the files make.
	fresh := open(t, freshDSN(t))
	require.NoError(t, fresh.Migrate(ctx))
	assert.Empty(t, schemaDiff(t, db, fresh), "the adopted database has the schema of a fresh one")
}

// The migration files make the schema ent's automatic migration of the
// ent schema makes, which the releases before versioned migrations ran at
// every start.
func TestMigrationsMatchAutomaticMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	auto := open(t, freshDSN(t))
	autoMigrate(t, auto)
	files := open(t, freshDSN(t))
	require.NoError(t, files.Migrate(ctx))
	assert.Empty(t, schemaDiff(t, auto, files))
}

// schemaDiff returns the changes from a's schema to b's, as Atlas plans
// them.
func schemaDiff(t *testing.T, a, b *store.DB) []string {
	t.Helper()
	ctx := context.Background()
	inspect := func(db *store.DB) (atlasmigrate.Driver, *atlasschema.Schema) {
		drv := atlasDriver(t, db)
		var name string
		if db.Dialect == dialect.Postgres {
			require.NoError(t, db.SQL.QueryRowContext(ctx, "SELECT current_schema()").Scan(&name))
		}
		s, err := drv.InspectSchema(ctx, name, nil)
		require.NoError(t, err)
		s.Name = "bindery"
		return drv, s
	}
	drv, sa := inspect(a)
	_, sb := inspect(b)
	changes, err := drv.SchemaDiff(sa, sb)
	require.NoError(t, err)
	var out []string
	for _, c := range changes {
		// SQLite's UNIQUE constraint of search_pages is an automatic index,
		// which Atlas inspects as a named index and then sees differ from
		// itself.
		if m, ok := c.(*atlasschema.ModifyTable); ok && a.Dialect == dialect.SQLite && m.T.Name == "search_pages" {
			continue
		}
		// The revision table is the migrations' own.
		if tableOf(c) == "atlas_schema_revisions" {
			continue
		}
		plan, err := drv.PlanChanges(ctx, "diff", []atlasschema.Change{c})
		require.NoError(t, err)
		for _, pc := range plan.Changes {
			out = append(out, pc.Cmd)
		}
	}
	return out
}

func tableOf(c atlasschema.Change) string {
	switch c := c.(type) {
	case *atlasschema.AddTable:
		return c.T.Name
	case *atlasschema.DropTable:
		return c.T.Name
	case *atlasschema.ModifyTable:
		return c.T.Name
	}
	return ""
}

// A database that has Bindery's tables without the rest of the baseline
// was made by an older release: it is not adopted, and nothing changes.
func TestMigrateRefusesAnOlderDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, freshDSN(t))
	_, err := db.SQL.ExecContext(ctx, "CREATE TABLE users (id text PRIMARY KEY)")
	require.NoError(t, err)
	err = db.Migrate(ctx)
	require.ErrorContains(t, err, "older than the last one that migrated automatically")
	var n int
	err = db.SQL.QueryRowContext(ctx, "SELECT count(*) FROM atlas_schema_revisions").Scan(&n)
	assert.Error(t, err, "the migration was rolled back, the revision table with it")
}

// Processes starting together migrate one database once: on PostgreSQL
// behind the advisory lock, on SQLite behind the write transaction. Each
// store.Open is a pool of its own, as another process's would be.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := freshDSN(t)
	const n = 3
	dbs := make([]*store.DB, n)
	for i := range dbs {
		dbs[i] = open(t, dsn)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	applied := make([][]string, n)
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			applied[i], errs[i] = db.ApplyMigrations(ctx)
		}()
	}
	wg.Wait()
	total := 0
	for i := range dbs {
		require.NoError(t, errs[i])
		total += len(applied[i])
	}
	files, err := migrations.Dir(dbs[0].Dialect)
	require.NoError(t, err)
	all, err := files.Files()
	require.NoError(t, err)
	assert.Equal(t, len(all), total, "each file applied once")
	var revs int
	require.NoError(t, dbs[0].SQL.QueryRowContext(ctx, "SELECT count(*) FROM atlas_schema_revisions").Scan(&revs))
	assert.Equal(t, len(all), revs)
}

// The PostgreSQL tests' script recreates a migrated database: its status
// has nothing pending.
func TestMigrationScript(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := open(t, freshDSN(t))
	require.NoError(t, src.Migrate(ctx))
	script, err := src.MigrationScript(ctx)
	require.NoError(t, err)
	dstDSN := freshDSN(t)
	dst := open(t, dstDSN)
	if dst.Dialect == dialect.Postgres {
		// One round trip, as the tests do: a plain connection, whose
		// statements are not prepared.
		raw, err := sql.Open("postgres", dstDSN)
		require.NoError(t, err)
		defer raw.Close()
		_, err = raw.ExecContext(ctx, script)
		require.NoError(t, err)
	} else {
		// modernc runs one statement per call.
		for _, stmt := range splitSQLite(t, script) {
			_, err = dst.SQL.ExecContext(ctx, stmt)
			require.NoError(t, err, stmt)
		}
	}
	st, err := dst.MigrationStatus(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Pending())
	assert.Empty(t, schemaDiff(t, src, dst))
}

func splitSQLite(t *testing.T, script string) []string {
	t.Helper()
	drv, err := sqlite.Open(nil)
	require.NoError(t, err)
	stmts, err := drv.(atlasmigrate.StmtScanner).ScanStmts(script)
	require.NoError(t, err)
	out := make([]string, len(stmts))
	for i, s := range stmts {
		out[i] = strings.TrimSpace(s.Text)
	}
	return out
}

// atlasDriver returns Atlas's driver of db's dialect over its connection.
func atlasDriver(t *testing.T, db *store.DB) atlasmigrate.Driver {
	t.Helper()
	var drv atlasmigrate.Driver
	var err error
	if db.Dialect == dialect.Postgres {
		drv, err = postgres.Open(db.SQL)
	} else {
		drv, err = sqlite.Open(db.SQL)
	}
	require.NoError(t, err)
	return drv
}
