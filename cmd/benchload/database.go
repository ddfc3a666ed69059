package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	_ "github.com/lib/pq" // PostgreSQL driver, as Bindery's

	"github.com/bindery/bindery/internal/store"
)

// database is the fresh database of a run.
type database struct {
	// dsn is what Bindery and the baseline connect with.
	dsn string
	// postgres is the PostgreSQL server's URL, and schema the run's schema
	// on it; both are empty on SQLite.
	postgres, schema string
}

// dialect names the database for the report.
func (d database) dialect() string {
	if d.postgres != "" {
		return "PostgreSQL"
	}
	return "SQLite"
}

// freshDatabase returns an empty database: a SQLite file in dir, or, when
// postgres is set, a schema of its own on that server, which drop removes.
func freshDatabase(ctx context.Context, postgres, dir string) (d database, drop func() error, err error) {
	if postgres == "" {
		return database{dsn: filepath.Join(dir, "bench.db")}, func() error { return nil }, nil
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	d = database{postgres: postgres, schema: "bench_" + hex.EncodeToString(b[:])}
	if d.dsn, err = store.InSchema(postgres, d.schema); err != nil {
		return d, nil, fmt.Errorf("parsing the PostgreSQL URL: %w", err)
	}
	admin, err := sql.Open("postgres", postgres)
	if err != nil {
		return d, nil, err
	}
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+d.schema); err != nil {
		admin.Close()
		return d, nil, fmt.Errorf("creating schema %s: %w", d.schema, err)
	}
	drop = func() error {
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), "DROP SCHEMA "+d.schema+" CASCADE"); err != nil {
			return fmt.Errorf("dropping schema %s: %w", d.schema, err)
		}
		return nil
	}
	return d, drop, nil
}

// withHost returns a URL pointing at another host:port.
func withHost(rawURL, host string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	u.Host = host
	return u.String(), nil
}

// postgresVersion returns the server's version, such as "15.20".
func postgresVersion(ctx context.Context, postgres string) (string, error) {
	db, err := sql.Open("postgres", postgres)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v string
	err = db.QueryRowContext(ctx, "SHOW server_version").Scan(&v)
	if f := strings.Fields(v); len(f) > 0 {
		v = f[0]
	}
	return v, err
}
