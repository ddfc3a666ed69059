package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/secrets/rekey"
	"github.com/bindery/bindery/internal/store"
)

// sqliteFile returns the file of a SQLite DSN ("bindery.db",
// "file:bindery.db?_pragma=..."), or "" for PostgreSQL.
func sqliteFile(dsn string) string {
	if store.IsPostgres(dsn) {
		return ""
	}
	f := strings.TrimPrefix(dsn, "file:")
	if i := strings.IndexByte(f, '?'); i >= 0 {
		f = f[:i]
	}
	return f
}

// secretKey completes cfg.SecretKey: without BINDERY_SECRET_KEY, a SQLite
// database keeps its key in a file beside it (mode 0600), made on first
// use. On PostgreSQL nothing is kept on disk: the variable is required to
// store secrets, and publishes with secrets are refused without it.
func secretKey(cfg *config.Config, log *slog.Logger) error {
	if cfg.SecretKey != "" {
		return nil
	}
	file := sqliteFile(cfg.DatabaseURL)
	if file == "" {
		log.Warn("BINDERY_SECRET_KEY is not set: integrations with secrets cannot be published on PostgreSQL until it is")
		return nil
	}
	path := secrets.KeyFilePath(file)
	key, created, err := secrets.LoadOrCreateKeyFile(path)
	if err != nil {
		return fmt.Errorf("the secret key file: %w", err)
	}
	cfg.SecretKey = key
	log.Warn("BINDERY_SECRET_KEY is not set: integration secrets are encrypted with the key in a file beside the database; "+
		"back it up with the database, or set the variable", "file", path, "created", created)
	return nil
}

// rotateSecrets is `bindery secrets rotate`: every integration secret is
// re-encrypted from the old key to the new one in one transaction. A key
// file beside a SQLite database that holds the old key gets the new one.
func rotateSecrets(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	flags := newFlags("secrets rotate", stderr)
	flags.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	oldKey := flags.String("old-key", "", "the key the secrets are encrypted with (base64 of 32 bytes)")
	newKey := flags.String("new-key", "", "the key to encrypt them with (base64 of 32 bytes)")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if *oldKey == "" || *newKey == "" {
		return fmt.Errorf("%w: secrets rotate needs --old-key and --new-key", errUsage)
	}
	// The keys are checked before the database is touched; the messages
	// never repeat them.
	for name, k := range map[string]string{"--old-key": *oldKey, "--new-key": *newKey} {
		if _, err := secrets.ParseKey(k); err != nil {
			return fmt.Errorf("%w: %s: %v", errUsage, name, err)
		}
	}
	cfg.SecretKey = ""
	db, err := openConfigured(ctx, &cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := rekey.Rotate(ctx, db.Client, *oldKey, *newKey)
	if err != nil {
		return fmt.Errorf("rotating secrets (nothing changed): %w", err)
	}
	fmt.Fprintf(stdout, "re-encrypted %d secrets with the new key\n", n)
	if file := sqliteFile(cfg.DatabaseURL); file != "" {
		path := secrets.KeyFilePath(file)
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		case strings.TrimSpace(string(b)) == strings.TrimSpace(*oldKey):
			if err := os.WriteFile(path, []byte(strings.TrimSpace(*newKey)+"\n"), 0o600); err != nil {
				return fmt.Errorf("the secrets have the new key, but %s still holds the old one: %w", path, err)
			}
			fmt.Fprintf(stdout, "%s now holds the new key\n", path)
		}
	}
	fmt.Fprintln(stdout, "set BINDERY_SECRET_KEY to the new key on every server before they restart")
	return nil
}
