// Command newmigration writes the migration files of a change to the ent
// schema (make migration NAME=add_x): one file per dialect, with the same
// version, in internal/store/migrations/{sqlite,postgres}, and their
// atlas.sum files. Each file is planned by Atlas: the directory is replayed
// on an empty dev database, inspected and compared with the ent schema.
// SQLite's dev database is in memory; PostgreSQL's is a scratch schema in
// the database of BINDERY_TEST_DATABASE_URL (or --dev-url). Nothing is
// written unless both dialects were planned.
//
// With -rehash it only rewrites the atlas.sum files, after a merge brought
// migration files from both sides.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"github.com/bindery/bindery/internal/store/migrations"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "newmigration:", err)
			os.Exit(1)
		}
	}
}

var validName = regexp.MustCompile(`^[a-z0-9_]+$`)

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("newmigration", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "what the migration does, in snake case: add_x")
	root := fs.String("dir", filepath.Join("internal", "store", "migrations"), "the directory of the dialects' migration directories")
	devURL := fs.String("dev-url", getenv("BINDERY_TEST_DATABASE_URL"), "a PostgreSQL database in which to create a scratch schema (default $BINDERY_TEST_DATABASE_URL)")
	rehash := fs.Bool("rehash", false, "only rewrite each directory's atlas.sum from its files: after a merge that brought migration files from both sides")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rehash {
		return rewriteSums(*root, stdout)
	}
	if !validName.MatchString(*name) {
		return errors.New("--name is required: lower case letters, digits and _, such as add_integration_secret")
	}
	if *devURL == "" {
		return errors.New("planning the PostgreSQL migration needs a PostgreSQL server: set BINDERY_TEST_DATABASE_URL (or --dev-url) to a database where a scratch schema may be created")
	}
	version := time.Now().UTC().Format("20060102150405")
	type planned struct {
		path string
		dir  *migrate.MemDir
	}
	var out []planned
	for _, d := range migrations.Dialects {
		path := filepath.Join(*root, migrations.DirName(d))
		dir, err := readDir(path)
		if err != nil {
			return err
		}
		wrote, err := plan(ctx, d, *devURL, dir, version, *name)
		if err != nil {
			return fmt.Errorf("planning the %s migration: %w", migrations.DirName(d), err)
		}
		if !wrote {
			fmt.Fprintf(stdout, "%s: the migrations already produce the ent schema\n", path)
			continue
		}
		out = append(out, planned{path, dir})
	}
	for _, p := range out {
		written, err := writeDir(p.path, p.dir)
		if err != nil {
			return err
		}
		for _, f := range written {
			fmt.Fprintln(stdout, "wrote", f)
		}
	}
	return nil
}

func plan(ctx context.Context, d, devURL string, dir migrate.Dir, version, name string) (bool, error) {
	if d == dialect.SQLite {
		dev, err := migrations.OpenSQLiteDev()
		if err != nil {
			return false, err
		}
		defer dev.Close()
		return migrations.Plan(ctx, d, migrations.Dev{DB: dev}, dir, version, name)
	}
	dev, drop, err := migrations.OpenPostgresDev(ctx, devURL)
	if err != nil {
		return false, err
	}
	wrote, err := migrations.Plan(ctx, d, migrations.Dev{URL: dev}, dir, version, name)
	return wrote, errors.Join(err, drop())
}

// rewriteSums rewrites the atlas.sum of each dialect's directory.
func rewriteSums(root string, stdout io.Writer) error {
	for _, d := range migrations.Dialects {
		path := filepath.Join(root, migrations.DirName(d))
		dir, err := readDir(path)
		if err != nil {
			return err
		}
		if err := migrations.WriteSum(dir); err != nil {
			return err
		}
		written, err := writeDir(path, dir)
		if err != nil {
			return err
		}
		for _, f := range written {
			fmt.Fprintln(stdout, "wrote", f)
		}
	}
	return nil
}

// readDir reads a migration directory from disk into memory.
func readDir(path string) (*migrate.MemDir, error) {
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(path, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	return dir, nil
}

// writeDir writes the files of dir that differ from those in path.
func writeDir(path string, dir *migrate.MemDir) ([]string, error) {
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	sum, err := fileBytes(dir, migrate.HashFileName)
	if err != nil {
		return nil, err
	}
	var written []string
	write := func(name string, b []byte) error {
		p := filepath.Join(path, name)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, b) {
			return nil
		}
		written = append(written, p)
		return os.WriteFile(p, b, 0o644)
	}
	for _, f := range files {
		if err := write(f.Name(), f.Bytes()); err != nil {
			return nil, err
		}
	}
	return written, write(migrate.HashFileName, sum)
}

func fileBytes(dir *migrate.MemDir, name string) ([]byte, error) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
