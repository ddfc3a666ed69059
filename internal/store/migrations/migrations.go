// Package migrations holds Bindery's versioned schema migrations, one
// directory of SQL files per dialect (sqlite, postgres) with Atlas's
// atlas.sum integrity file, embedded in the binary. It also plans a new
// migration from the ent schema: cmd/newmigration writes one after a schema
// change, and the drift test checks that the committed files produce the
// ent schema.
//
// The first file of each directory is the baseline: the schema of the last
// release that migrated automatically (ent's Schema.Create), plus the search
// index, which ent cannot describe (an FTS5 table and its triggers on
// SQLite, a tsvector column under a GIN index on PostgreSQL).
//
// A later file may hold SQL written by hand for what ent cannot describe
// (HandWritten), as 20261127003000_access_epoch does (a table of one row and
// the triggers that move it, see graph.viewerCache), and
// 20261127020000_space_counter_triggers (the triggers that keep a space's
// counters). The drift check plans
// from the ent schema and does not see such SQL; the tests of the code that
// relies on it do.
package migrations

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"sync"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	_ "github.com/lib/pq"  // PostgreSQL driver
	_ "modernc.org/sqlite" // SQLite driver, pure Go

	entmigrate "github.com/bindery/bindery/ent/migrate"

	"github.com/bindery/bindery/internal/search"
)

//go:embed sqlite postgres
var files embed.FS

// Dialects are the dialects with a migration directory, named as ent names
// them.
var Dialects = []string{dialect.SQLite, dialect.Postgres}

// DirName returns the name of the migration directory of an ent dialect.
func DirName(d string) string {
	if d == dialect.Postgres {
		return "postgres"
	}
	return "sqlite"
}

// Dir returns the embedded migration directory of an ent dialect: its SQL
// files and atlas.sum.
func Dir(d string) (*migrate.MemDir, error) {
	name := DirName(d)
	entries, err := fs.ReadDir(files, name)
	if err != nil {
		return nil, err
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		b, err := files.ReadFile(path.Join(name, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	return dir, nil
}

// HandWritten names the files after the baseline whose SQL is written by
// hand, not planned from the ent schema: what ent cannot describe (see the
// package comment). A test that builds the schema from the ent schema, as
// the releases before versioned migrations did, runs them too.
var HandWritten = []string{"20261127003000_access_epoch.sql", "20261127020000_space_counter_triggers.sql",
	"20261127210000_search_vocab.sql", "20261128030000_search_words.sql"}

// Dev is the dev database a migration is planned on: an empty SQLite
// database (DB, see OpenSQLiteDev), or the URL of an empty PostgreSQL
// schema (URL, see OpenPostgresDev).
type Dev struct {
	DB  *sql.DB
	URL string
}

// versionFormatter is Atlas's default file format with a version chosen by
// the caller, so that one schema change gets one version in both dialects'
// directories.
type versionFormatter struct{ version string }

func (f versionFormatter) Format(p *migrate.Plan) ([]migrate.File, error) {
	p.Version = f.version
	return migrate.DefaultFormatter.Format(p)
}

var planMu sync.Mutex

// Plan writes into dir the migration from dir's state to the ent schema, as
// file version_name.sql, and updates dir's atlas.sum. It reports whether it
// wrote a file: false when dir already produces the ent schema.
//
// dev is a clean scratch database of dialect d (see Dev): dir is replayed
// on it, inspected, and dropped again. When dir is empty the file is the
// baseline, which also creates the search index.
func Plan(ctx context.Context, d string, dev Dev, dir migrate.Dir, version, name string) (bool, error) {
	// ent's planner completes the package-level table descriptions of
	// ent/migrate in place: one plan at a time.
	planMu.Lock()
	defer planMu.Unlock()
	before, err := dir.Files()
	if err != nil {
		return false, err
	}
	opts := []schema.MigrateOption{
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(d),
		schema.WithFormatter(versionFormatter{version}),
		schema.WithForeignKeys(true),
		schema.WithErrNoPlan(true),
	}
	var m *schema.Atlas
	if dev.DB != nil {
		m, err = schema.NewMigrate(entsql.OpenDB(d, dev.DB), opts...)
	} else {
		m, err = schema.NewMigrateURL(dev.URL, opts...)
	}
	if err != nil {
		return false, err
	}
	switch err := m.NamedDiff(ctx, name, entmigrate.Tables...); {
	case errors.Is(err, migrate.ErrNoPlan):
		return false, nil
	case err != nil:
		return false, err
	}
	if len(before) > 0 {
		return true, nil
	}
	return true, appendSearchIndex(d, dir)
}

// appendSearchIndex adds the search index's DDL to the baseline, the only
// file of dir.
func appendSearchIndex(d string, dir migrate.Dir) error {
	all, err := dir.Files()
	if err != nil {
		return err
	}
	if len(all) != 1 {
		return fmt.Errorf("the baseline is not alone in the migration directory: %d files", len(all))
	}
	var b strings.Builder
	b.Write(all[0].Bytes())
	b.WriteString("-- The search index, which the ent schema cannot describe (package search)\n")
	for _, stmt := range search.New(d).Schema() {
		b.WriteString(stmt)
		b.WriteString(";\n")
	}
	if err := dir.WriteFile(all[0].Name(), []byte(b.String())); err != nil {
		return err
	}
	return WriteSum(dir)
}

// WriteSum rewrites dir's atlas.sum from its files.
func WriteSum(dir migrate.Dir) error {
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	return migrate.WriteSumFile(dir, sum)
}

// OpenSQLiteDev opens an empty SQLite database in memory, with foreign keys
// on as ent requires: the dev database SQLite migrations are planned on.
func OpenSQLiteDev() (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
	if err != nil {
		return nil, err
	}
	// One connection: each connection to a memory database has its own.
	db.SetMaxOpenConns(1)
	return db, nil
}

// OpenPostgresDev creates an empty schema in the PostgreSQL database of
// base and returns a URL bound to it: the dev database PostgreSQL
// migrations are planned on. drop removes the schema.
func OpenPostgresDev(ctx context.Context, base string) (string, func() error, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, err
	}
	admin, err := sql.Open("postgres", base)
	if err != nil {
		return "", nil, err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "bindery_dev_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("creating the dev schema: %w", err)
	}
	drop := func() error {
		_, err := admin.ExecContext(context.WithoutCancel(ctx), "DROP SCHEMA "+name+" CASCADE")
		return errors.Join(err, admin.Close())
	}
	q := u.Query()
	// Atlas binds its connection to the schema of search_path: it then
	// inspects that schema alone, not the others in the database.
	q.Set("search_path", name)
	// Inspecting the schema is catalog queries, which JIT makes slower.
	q.Set("jit", "off")
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}
