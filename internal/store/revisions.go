package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"github.com/bindery/bindery/internal/store/migrations"
)

// revisionTable records the migration files a database applied, with the
// columns of Atlas's own revision table.
const revisionTable = "atlas_schema_revisions"

// revisions is the revision table, read and written in the migration's
// transaction: Atlas's migrate.RevisionReadWriter. Atlas writes a file's
// revision after each of its statements, so that a file that fails half-way
// resumes where it stopped; in one transaction nothing stops half-way, so
// writes are kept until flush, which saves a round trip per statement.
type revisions struct {
	tx      *sql.Tx
	dialect string
	written map[string]*migrate.Revision // by version, not yet flushed
}

// flush writes the revisions kept since the last flush.
func (r *revisions) flush(ctx context.Context) error {
	versions := make([]string, 0, len(r.written))
	for v := range r.written {
		versions = append(versions, v)
	}
	slices.Sort(versions)
	for _, v := range versions {
		if err := r.write(ctx, r.written[v]); err != nil {
			return err
		}
	}
	r.written = nil
	return nil
}

var _ migrate.RevisionReadWriter = (*revisions)(nil)

// ddl creates the table when it is missing.
func (r *revisions) ddl() string {
	integer, timestamp := "integer", "datetime"
	if r.dialect == dialect.Postgres {
		integer, timestamp = "bigint", "timestamptz"
	}
	return `CREATE TABLE IF NOT EXISTS ` + revisionTable + ` (
	version text NOT NULL PRIMARY KEY,
	description text NOT NULL,
	type ` + integer + ` NOT NULL DEFAULT 2,
	applied ` + integer + ` NOT NULL DEFAULT 0,
	total ` + integer + ` NOT NULL DEFAULT 0,
	executed_at ` + timestamp + ` NOT NULL,
	execution_time ` + integer + ` NOT NULL,
	error text NULL,
	error_stmt text NULL,
	hash text NOT NULL,
	partial_hashes text NULL,
	operator_version text NOT NULL)`
}

// Ident implements migrate.RevisionReadWriter.
func (r *revisions) Ident() *migrate.TableIdent { return &migrate.TableIdent{Name: revisionTable} }

// arg is the n-th placeholder, from 1.
func (r *revisions) arg(n int) string {
	if r.dialect == dialect.Postgres {
		return fmt.Sprintf("$%d", n)
	}
	return "?"
}

const revisionColumns = "version, description, type, applied, total, executed_at, execution_time, error, error_stmt, hash, partial_hashes, operator_version"

// ReadRevisions implements migrate.RevisionReadWriter.
func (r *revisions) ReadRevisions(ctx context.Context) ([]*migrate.Revision, error) {
	return r.read(ctx, "")
}

// ReadRevision implements migrate.RevisionReadWriter.
func (r *revisions) ReadRevision(ctx context.Context, version string) (*migrate.Revision, error) {
	revs, err := r.read(ctx, version)
	if err != nil {
		return nil, err
	}
	if len(revs) == 0 {
		return nil, migrate.ErrRevisionNotExist
	}
	return revs[0], nil
}

func (r *revisions) read(ctx context.Context, version string) ([]*migrate.Revision, error) {
	stored, err := r.readStored(ctx, version)
	if err != nil || len(r.written) == 0 {
		return stored, err
	}
	var revs []*migrate.Revision
	for _, rev := range stored {
		if r.written[rev.Version] == nil {
			revs = append(revs, rev)
		}
	}
	for v, rev := range r.written {
		if version == "" || v == version {
			c := *rev
			revs = append(revs, &c)
		}
	}
	slices.SortFunc(revs, func(a, b *migrate.Revision) int { return strings.Compare(a.Version, b.Version) })
	return revs, nil
}

func (r *revisions) readStored(ctx context.Context, version string) ([]*migrate.Revision, error) {
	query, args := "SELECT "+revisionColumns+" FROM "+revisionTable, []any{}
	if version != "" {
		query += " WHERE version = " + r.arg(1)
		args = append(args, version)
	}
	rows, err := r.tx.QueryContext(ctx, query+" ORDER BY version", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var revs []*migrate.Revision
	for rows.Next() {
		var (
			rev              migrate.Revision
			typ              int64
			execTime         int64
			errText, errStmt sql.NullString
			partial          sql.NullString
		)
		if err := rows.Scan(&rev.Version, &rev.Description, &typ, &rev.Applied, &rev.Total, &rev.ExecutedAt,
			&execTime, &errText, &errStmt, &rev.Hash, &partial, &rev.OperatorVersion); err != nil {
			return nil, err
		}
		rev.Type = migrate.RevisionType(typ)
		rev.ExecutionTime = time.Duration(execTime)
		rev.Error, rev.ErrorStmt = errText.String, errStmt.String
		if partial.Valid && partial.String != "" {
			if err := json.Unmarshal([]byte(partial.String), &rev.PartialHashes); err != nil {
				return nil, fmt.Errorf("revision %s: %w", rev.Version, err)
			}
		}
		revs = append(revs, &rev)
	}
	return revs, rows.Err()
}

// WriteRevision implements migrate.RevisionReadWriter: the revision is
// written at the next flush.
func (r *revisions) WriteRevision(_ context.Context, rev *migrate.Revision) error {
	if r.written == nil {
		r.written = map[string]*migrate.Revision{}
	}
	c := *rev
	c.PartialHashes = slices.Clone(rev.PartialHashes)
	r.written[rev.Version] = &c
	return nil
}

func (r *revisions) write(ctx context.Context, rev *migrate.Revision) error {
	var partial sql.NullString
	if len(rev.PartialHashes) > 0 {
		b, err := json.Marshal(rev.PartialHashes)
		if err != nil {
			return err
		}
		partial = sql.NullString{String: string(b), Valid: true}
	}
	cols := strings.Split(revisionColumns, ", ")
	marks := make([]string, len(cols))
	sets := make([]string, 0, len(cols)-1)
	for i, c := range cols {
		marks[i] = r.arg(i + 1)
		if i > 0 {
			sets = append(sets, c+" = excluded."+c)
		}
	}
	query := "INSERT INTO " + revisionTable + " (" + revisionColumns + ") VALUES (" + strings.Join(marks, ", ") +
		") ON CONFLICT (version) DO UPDATE SET " + strings.Join(sets, ", ")
	_, err := r.tx.ExecContext(ctx, query, rev.Version, rev.Description, int64(rev.Type), rev.Applied, rev.Total,
		rev.ExecutedAt.UTC(), int64(rev.ExecutionTime), nullString(rev.Error), nullString(rev.ErrorStmt), rev.Hash,
		partial, rev.OperatorVersion)
	return err
}

// DeleteRevision implements migrate.RevisionReadWriter.
func (r *revisions) DeleteRevision(ctx context.Context, version string) error {
	delete(r.written, version)
	_, err := r.tx.ExecContext(ctx, "DELETE FROM "+revisionTable+" WHERE version = "+r.arg(1), version)
	return err
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// MigrationScript returns SQL that brings an empty database (or schema) to
// where this one is: the statements of the migration files and the
// revision table with this database's rows. Tests make a database each
// from it in one round trip, as if each had migrated. d must have applied
// every file.
func (d *DB) MigrationScript(ctx context.Context) (string, error) {
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		return "", err
	}
	files, err := dir.Files()
	if err != nil {
		return "", err
	}
	tx, err := d.SQL.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return "", err
	}
	defer tx.Rollback() //nolint:errcheck
	r := &revisions{tx: tx, dialect: d.Dialect}
	revs, err := r.ReadRevisions(ctx)
	if err != nil {
		return "", err
	}
	if len(revs) != len(files) {
		return "", errors.New("the database has not applied every migration file")
	}
	var b strings.Builder
	for _, f := range files {
		b.Write(f.Bytes())
		b.WriteString("\n")
	}
	b.WriteString(r.ddl() + ";\n")
	for _, rev := range revs {
		if rev.Applied != rev.Total || rev.Type != migrate.RevisionTypeExecute {
			return "", fmt.Errorf("revision %s was not executed in full", rev.Version)
		}
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES (%s, %s, %d, %d, %d, %s, %d, NULL, NULL, %s, NULL, %s);\n",
			revisionTable, revisionColumns, quote(rev.Version), quote(rev.Description), rev.Type, rev.Applied, rev.Total,
			quote(rev.ExecutedAt.UTC().Format("2006-01-02 15:04:05.999999999Z07:00")), rev.ExecutionTime,
			quote(rev.Hash), quote(rev.OperatorVersion))
	}
	return b.String(), nil
}

// quote is s as an SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
