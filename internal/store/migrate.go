package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"

	"github.com/bindery/bindery/internal/store/migrations"
)

// Bindery's schema is migrated by versioned migrations: the SQL files of
// package migrations, one directory per dialect, planned by Atlas from the
// ent schema and committed. Migrating applies the files the database has
// not applied yet, in order, and records each in the revision table
// (atlas_schema_revisions, Atlas's columns). All pending files run in one
// transaction, so a migration that fails leaves the database as it was.
//
// A database without a revision table but with Bindery's tables was made
// by a release that migrated automatically (ent's Schema.Create): it is
// adopted, which records the first file, the baseline, as applied without
// running it, and runs the files after it.

// migrationLock is the PostgreSQL advisory lock key held while migrating, so
// that replicas starting together migrate one after another. The lock is
// taken with the schema's hash as its second key: replicas share a schema,
// while databases in other schemas of the same server (tests) need not wait
// for each other.
const migrationLock = 0x62696e64 // "bind"

// MigrationFile is a migration file and whether the database applied it.
type MigrationFile struct {
	// Name is the file's name, version_description.sql.
	Name string
	// Applied tells whether the database applied the file.
	Applied bool
	// Baseline tells the file was recorded as applied when the database was
	// adopted (or would be, when it is pending).
	Baseline bool
	// AppliedAt is when it was applied (or recorded, for the baseline).
	AppliedAt time.Time
}

// MigrationStatus is what a database applied of the migration directory.
type MigrationStatus struct {
	Files []MigrationFile
	// Adopt tells that the database was made by an automatic migration and
	// that migrating will adopt it.
	Adopt bool
}

// Pending returns the names of the files the database has not applied.
func (s *MigrationStatus) Pending() []string {
	var names []string
	for _, f := range s.Files {
		if !f.Applied {
			names = append(names, f.Name)
		}
	}
	return names
}

// Migrate applies the pending migration files. It is safe to run from
// several processes at once: on PostgreSQL they take turns behind an
// advisory lock, on SQLite behind the write lock of the transaction.
func (d *DB) Migrate(ctx context.Context) error {
	_, err := d.ApplyMigrations(ctx)
	return err
}

// ApplyMigrations applies the pending migration files and returns their
// names.
func (d *DB) ApplyMigrations(ctx context.Context) ([]string, error) {
	var applied []string
	err := d.inMigration(ctx, func(ctx context.Context, m *migration) (bool, error) {
		pending, err := m.pending(ctx)
		if err != nil {
			return false, err
		}
		for _, f := range pending {
			if err := m.ex.Execute(ctx, f); err != nil {
				return false, err
			}
			applied = append(applied, f.Name())
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("migrating: %w", err)
	}
	return applied, nil
}

// MigrationStatus reports which migration files the database applied and
// which are pending. It changes nothing.
func (d *DB) MigrationStatus(ctx context.Context) (*MigrationStatus, error) {
	var st MigrationStatus
	err := d.inMigration(ctx, func(ctx context.Context, m *migration) (bool, error) {
		if _, err := m.pending(ctx); err != nil {
			return false, err
		}
		// Read after Pending, which records the baseline of a database
		// it adopts (in this transaction, rolled back).
		revs, err := m.rrw.ReadRevisions(ctx)
		if err != nil {
			return false, err
		}
		byVersion := map[string]*migrate.Revision{}
		for _, r := range revs {
			byVersion[r.Version] = r
		}
		files, err := m.dir.Files()
		if err != nil {
			return false, err
		}
		for _, f := range files {
			mf := MigrationFile{Name: f.Name()}
			if r := byVersion[f.Version()]; r != nil {
				mf.Baseline = r.Type == migrate.RevisionTypeBaseline
				mf.Applied = r.Applied == r.Total && r.Error == "" && !(mf.Baseline && m.adopt)
				mf.AppliedAt = r.ExecutedAt
			}
			st.Files = append(st.Files, mf)
		}
		st.Adopt = m.adopt
		return false, nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the migration status: %w", err)
	}
	return &st, nil
}

// WritePendingMigrations writes the statements of the pending migration
// files to w, each file under a comment with its name, without running
// them: what Migrate would run.
func (d *DB) WritePendingMigrations(ctx context.Context, w io.Writer) error {
	err := d.inMigration(ctx, func(ctx context.Context, m *migration) (bool, error) {
		pending, err := m.pending(ctx)
		if err != nil {
			return false, err
		}
		if m.adopt {
			fmt.Fprintf(w, "-- The database was migrated automatically by an earlier release: it is adopted,\n"+
				"-- %s is recorded as applied without running it.\n", m.baseline)
		}
		m.drv.dryRun = w
		if len(pending) == 0 && !m.adopt {
			_, err := fmt.Fprintln(w, "-- nothing to apply: the database is up to date")
			return false, err
		}
		for _, f := range pending {
			if _, err := fmt.Fprintf(w, "-- %s\n", f.Name()); err != nil {
				return false, err
			}
			if err := m.ex.Execute(ctx, f); err != nil {
				return false, err
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("planning the migration: %w", err)
	}
	return nil
}

// migration is the work of one migration transaction.
type migration struct {
	dir      migrate.Dir
	drv      *atlasDriver
	rrw      *revisions
	ex       *migrate.Executor
	adopt    bool   // the database is adopted at the baseline
	baseline string // the baseline's file name
}

// pending returns the files to apply, none when the database is up to
// date.
func (m *migration) pending(ctx context.Context) ([]migrate.File, error) {
	files, err := m.ex.Pending(ctx)
	if errors.Is(err, migrate.ErrNoPendingFiles) {
		return nil, nil
	}
	return files, err
}

// inMigration runs fn in the migration transaction: on PostgreSQL behind
// the migration lock, on a connection of its own with JIT off (see
// migrator), on SQLite with foreign keys off until the transaction ends,
// so that a file may rebuild a table as SQLite requires. The transaction is
// committed when fn returns true, after checking the foreign keys on
// SQLite, and rolled back otherwise.
func (d *DB) inMigration(ctx context.Context, fn func(context.Context, *migration) (bool, error)) (err error) {
	db, done, err := d.migrator()
	if err != nil {
		return err
	}
	defer done()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if d.Dialect == dialect.Postgres {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1, hashtext(current_schema()))", migrationLock); err != nil {
			return fmt.Errorf("taking the migration lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), //nolint:errcheck
			"SELECT pg_advisory_unlock($1, hashtext(current_schema()))", migrationLock)
	} else {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = off"); err != nil {
			return err
		}
		defer func() {
			if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = on"); ferr != nil {
				// Never hand the pool a connection without foreign keys.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
				err = errors.Join(err, ferr)
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	commit := false
	defer func() {
		if !commit {
			err = errors.Join(err, tx.Rollback())
		}
	}()
	m, err := d.newMigration(ctx, tx)
	if err != nil {
		return err
	}
	ok, err := fn(ctx, m)
	if err != nil || !ok {
		return err
	}
	if err := m.rrw.flush(ctx); err != nil {
		return fmt.Errorf("writing the revisions: %w", err)
	}
	if d.Dialect != dialect.Postgres {
		if err := foreignKeyCheck(ctx, tx); err != nil {
			return err
		}
	}
	commit = true
	return tx.Commit()
}

// newMigration prepares the executor of a migration in tx.
func (d *DB) newMigration(ctx context.Context, tx *sql.Tx) (*migration, error) {
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		return nil, err
	}
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("the migration directory is empty")
	}
	rrw := &revisions{tx: tx, dialect: d.Dialect}
	if _, err := tx.ExecContext(ctx, rrw.ddl()); err != nil {
		return nil, fmt.Errorf("creating the revision table: %w", err)
	}
	revs, err := rrw.ReadRevisions(ctx)
	if err != nil {
		return nil, err
	}
	var atd migrate.Driver
	if d.Dialect == dialect.Postgres {
		atd, err = postgres.Open(tx)
	} else {
		atd, err = sqlite.Open(tx)
	}
	if err != nil {
		return nil, err
	}
	m := &migration{dir: dir, drv: &atlasDriver{Driver: atd}, rrw: rrw, baseline: files[0].Name()}
	var opts []migrate.ExecutorOption
	if len(revs) == 0 {
		if m.adopt, err = d.adoptable(ctx, tx, files[0]); err != nil {
			return nil, err
		}
		if m.adopt {
			opts = append(opts, migrate.WithBaselineVersion(files[0].Version()))
		}
	}
	if m.ex, err = migrate.NewExecutor(m.drv, dir, rrw, opts...); err != nil {
		return nil, err
	}
	return m, nil
}

// createdTable matches the tables a migration file creates.
var createdTable = regexp.MustCompile("(?mi)^CREATE TABLE (?:IF NOT EXISTS )?[`\"]?(\\w+)")

// adoptable reports whether a database without revisions was made by an
// automatic migration: it has tables of Bindery's. It must then have all
// those of the baseline, or it was made by a release older than the last
// one that migrated automatically, which has to bring it up to date first.
func (d *DB) adoptable(ctx context.Context, tx *sql.Tx, baseline migrate.File) (bool, error) {
	query := "SELECT name FROM sqlite_master WHERE type = 'table'"
	if d.Dialect == dialect.Postgres {
		query = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
	}
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return false, err
	}
	have := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return false, err
		}
		have[name] = true
	}
	if err := rows.Close(); err != nil {
		return false, err
	}
	if !have["users"] {
		return false, nil
	}
	var missing []string
	for _, m := range createdTable.FindAllStringSubmatch(string(baseline.Bytes()), -1) {
		if !have[m[1]] {
			missing = append(missing, m[1])
		}
	}
	if len(missing) > 0 {
		return false, fmt.Errorf("the database has Bindery's tables but no migration history, and lacks tables %s of the baseline %s: "+
			"it was made by a release older than the last one that migrated automatically; run that release once to bring it up to date, then this one",
			strings.Join(missing, ", "), baseline.Name())
	}
	return true, nil
}

// foreignKeyCheck fails when a row of SQLite's violates a foreign key,
// which SQLite does not check while foreign keys are off.
func foreignKeyCheck(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table string
		var rowid sql.NullInt64
		var parent string
		var fkid int
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return err
		}
		return fmt.Errorf("after migrating, a row of %s (rowid %d) refers to a missing row of %s", table, rowid.Int64, parent)
	}
	return rows.Err()
}

// atlasDriver is Atlas's driver of the dialect, in the migration's
// transaction. Bindery decides itself whether a database without history
// is adopted or migrated from the start (see adoptable), so it reports
// every database as clean; with dryRun set it writes statements instead of
// running them.
type atlasDriver struct {
	migrate.Driver
	dryRun io.Writer
}

// CheckClean implements migrate.CleanChecker.
func (*atlasDriver) CheckClean(context.Context, *migrate.TableIdent) error { return nil }

// ExecContext runs a statement of a migration file, or writes it.
func (d *atlasDriver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if d.dryRun != nil {
		_, err := fmt.Fprintln(d.dryRun, strings.TrimSpace(query))
		return driverResult{}, err
	}
	return d.Driver.ExecContext(ctx, query, args...)
}

// ScanStmts splits a file into statements as the dialect's driver does.
func (d *atlasDriver) ScanStmts(input string) ([]*migrate.Stmt, error) {
	if sc, ok := d.Driver.(migrate.StmtScanner); ok {
		return sc.ScanStmts(input)
	}
	return migrate.Stmts(input)
}

type driverResult struct{}

func (driverResult) LastInsertId() (int64, error) { return 0, nil }
func (driverResult) RowsAffected() (int64, error) { return 0, nil }

// migrator returns the database a migration runs on, and what to call when
// it is over. On PostgreSQL that is a connection of its own with JIT off:
// Atlas inspects the schema with catalog queries that the JIT compiler
// makes seconds slower.
func (d *DB) migrator() (*sql.DB, func(), error) {
	if d.Dialect != dialect.Postgres {
		return d.SQL, func() {}, nil
	}
	db, err := sql.Open("postgres", d.migrateSource)
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}
