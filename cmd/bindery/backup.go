package main

import (
	"context"
	"fmt"
	"io"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/store"
)

// backup writes a consistent copy of a database that may be serving: a
// SQLite file, or a pg_dump archive of a PostgreSQL database (see
// store.DB.Backup). It prints the backup's path.
func backup(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("backup", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	out := fs.String("out", "", "file to write, which must not exist: a SQLite database, or for PostgreSQL a pg_dump archive (pg_restore)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: --out is required", errUsage)
	}
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Backup(ctx, *out); err != nil {
		return err
	}
	fmt.Fprintln(stdout, *out)
	fmt.Fprintf(stderr, "backed up the database to %s\n", *out)
	return nil
}

// restore replaces a SQLite database with a backup, checked first. The
// server must be stopped.
func restore(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("restore", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "SQLite file to replace")
	from := fs.String("from", "", "backup to restore (a file bindery backup wrote)")
	force := fs.Bool("force", false, "replace an existing database")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" {
		return fmt.Errorf("%w: --from is required", errUsage)
	}
	if err := store.RestoreSQLite(ctx, *from, cfg.DatabaseURL, *force); err != nil {
		return err
	}
	fmt.Fprintln(stdout, cfg.DatabaseURL)
	fmt.Fprintf(stderr, "restored %s from %s\n", cfg.DatabaseURL, *from)
	return nil
}
