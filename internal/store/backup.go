package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"entgo.io/ent/dialect"
)

// Backups. A SQLite database is copied online with VACUUM INTO, which reads
// the whole database in one read transaction: the copy holds every
// transaction committed before it started and nothing of one that commits
// later, while the server keeps serving (WAL: the writer is not blocked).
// PostgreSQL is backed up with its own pg_dump, which Backup runs after
// checking that it can dump the server's version.

// MinPostgres is the oldest PostgreSQL major version Bindery runs on.
const MinPostgres = 13

// Backup writes a consistent copy of the database to out, which must not
// exist. A SQLite copy is checked (integrity and Bindery's tables) before
// it takes its name, so out is never a partial or damaged copy. For
// PostgreSQL it runs pg_dump --format=custom, for pg_restore.
func (d *DB) Backup(ctx context.Context, out string) error {
	if _, err := os.Lstat(out); err == nil {
		return fmt.Errorf("%s exists: back up to a new file", out)
	}
	if d.Dialect == dialect.Postgres {
		return d.dumpPostgres(ctx, out)
	}
	partial := out + ".partial"
	_ = os.Remove(partial)
	if _, err := d.SQL.ExecContext(ctx, "VACUUM INTO ?", partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("copying the database: %w", err)
	}
	if err := CheckSQLite(ctx, partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("checking the copy: %w", err)
	}
	return os.Rename(partial, out)
}

// CheckSQLite checks that path is an intact SQLite database of Bindery's.
func CheckSQLite(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var result string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&result); err != nil {
		return fmt.Errorf("%s is not a SQLite database: %w", path, err)
	}
	if result != "ok" {
		return fmt.Errorf("%s is damaged: %s", path, result)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('users', 'organizations', 'spaces')").Scan(&n); err != nil {
		return err
	}
	if n != 3 {
		return fmt.Errorf("%s is not a Bindery database", path)
	}
	return nil
}

// RestoreSQLite replaces the SQLite database at to with the backup from,
// after checking the backup. The server must be stopped: the file is
// replaced whole, and the write-ahead log of the database it replaces is
// removed first so that it can never be applied to the restored one.
// Without force, an existing database at to is refused.
func RestoreSQLite(ctx context.Context, from, to string, force bool) error {
	if IsPostgres(to) {
		return errors.New("restore is for SQLite; restore PostgreSQL with pg_restore (see docs/operations.md, Backups)")
	}
	if err := CheckSQLite(ctx, from); err != nil {
		return err
	}
	if _, err := os.Stat(to); err == nil && !force {
		return fmt.Errorf("%s exists: stop the server and pass --force to replace it", to)
	}
	partial := to + ".partial"
	if err := copyFile(from, partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("copying the backup: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(to + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			_ = os.Remove(partial)
			return err
		}
	}
	return os.Rename(partial, to)
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

var pgDumpVersion = regexp.MustCompile(`\(PostgreSQL\) (\d+)`)

// dumpPostgres runs pg_dump, refusing a server older than Bindery supports
// and a pg_dump older than the server (pg_dump cannot dump a newer server).
func (d *DB) dumpPostgres(ctx context.Context, out string) error {
	var num int
	if err := d.SQL.QueryRowContext(ctx, "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		return fmt.Errorf("reading the server's version: %w", err)
	}
	server := num / 10000
	if server < MinPostgres {
		return fmt.Errorf("PostgreSQL %d is older than Bindery supports (%d or newer)", server, MinPostgres)
	}
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		return fmt.Errorf("pg_dump %d or newer is needed to back up PostgreSQL %d, and none is on the PATH", server, server)
	}
	v, err := exec.CommandContext(ctx, pgDump, "--version").Output()
	if err != nil {
		return fmt.Errorf("running pg_dump --version: %w", err)
	}
	m := pgDumpVersion.FindSubmatch(v)
	if m == nil {
		return fmt.Errorf("pg_dump --version said %q", v)
	}
	if client, _ := strconv.Atoi(string(m[1])); client < server {
		return fmt.Errorf("pg_dump %d cannot dump PostgreSQL %d: install pg_dump %d or newer", client, server, server)
	}
	dsn, schema := libpqURL(d.source)
	args := []string{"--format=custom", "--file=" + out, "--dbname=" + dsn}
	if schema != "" {
		// Bindery's tables are in that schema (see InSchema): the backup
		// is that schema, not the rest of the database.
		args = append(args, "--schema="+schema)
	}
	cmd := exec.CommandContext(ctx, pgDump, args...)
	if output, err := cmd.CombinedOutput(); err != nil {
		_ = os.Remove(out)
		return fmt.Errorf("pg_dump: %w: %s", err, output)
	}
	return nil
}

// libpqParams are the URL parameters libpq's tools understand themselves.
var libpqParams = map[string]bool{"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true,
	"password": true, "passfile": true, "connect_timeout": true, "options": true, "application_name": true,
	"sslmode": true, "sslcert": true, "sslkey": true, "sslrootcert": true, "sslcrl": true, "target_session_attrs": true}

// libpqURL turns a lib/pq URL into one libpq's tools accept: parameters
// only lib/pq knows are dropped, and the settings lib/pq sends from other
// parameters go into libpq's options. It also returns the search_path
// setting, the schema Bindery's tables are in when one is set.
func libpqURL(dsn string) (string, string) {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn, ""
	}
	q := u.Query()
	schema := q.Get("search_path")
	out := url.Values{}
	var options []string
	for k, vs := range q {
		switch {
		case k == "binary_parameters" || k == "disable_prepared_binary_result":
		case libpqParams[k]:
			out[k] = vs
		default:
			options = append(options, "-c "+k+"="+vs[0])
		}
	}
	if len(options) > 0 {
		sort.Strings(options)
		out.Set("options", strings.TrimSpace(out.Get("options")+" "+strings.Join(options, " ")))
	}
	// libpq decodes %20 in a URL, not "+".
	u.RawQuery = strings.ReplaceAll(out.Encode(), "+", "%20")
	return u.String(), schema
}
