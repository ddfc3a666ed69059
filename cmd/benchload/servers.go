package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// binderyCLI runs a bindery command and returns its output.
func binderyCLI(ctx context.Context, bin string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("bindery %s: %w: %s", strings.Join(args[:2], " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// binderyServer is a bindery serve the benchmark started.
type binderyServer struct {
	*child
	// label names it in the report: Bindery, with its variant's
	// environment if any.
	label string
	// base is its URL; debug its profiler's, when it serves one.
	base, debug string
}

// startBindery starts bindery serve on the database, without seeding, rate
// limits or request logs, with the variant's environment added, and
// imports allowed from the loopback address the benchmark serves archives
// on. Every server of a run has the same signing secret, so that a signed
// URL one gives works on all. With profiler, it serves Go's profiler too.
func startBindery(ctx context.Context, bin, dsn, dir, secret string, variant []string, profiler bool, log io.Writer) (*binderyServer, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	env := []string{"BINDERY_DATABASE_URL=" + dsn, "BINDERY_ADDR=" + addr, "BINDERY_SEED=false",
		"BINDERY_RATE_LIMIT=0", "BINDERY_LOG_LEVEL=warn", "BINDERY_LOG_FORMAT=text",
		"BINDERY_SIGNING_SECRET=" + secret, "BINDERY_IMPORT_ALLOW_PRIVATE=1"}
	s := &binderyServer{label: "Bindery", base: "http://" + addr}
	if profiler {
		debugAddr, err := freeAddr()
		if err != nil {
			return nil, err
		}
		env = append(env, "BINDERY_DEBUG_ADDR="+debugAddr)
		s.debug = "http://" + debugAddr
	}
	name := "bindery"
	if len(variant) > 0 {
		s.label += " `" + strings.Join(variant, " ") + "`"
		name += " " + strings.Join(variant, " ")
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil, err
	}
	if s.child, err = start(name, dir, append(env, variant...), log, false, abs, "serve"); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx, time.Minute, probeGET(s.base+"/readyz")); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// startBaseline starts this program's baseline subcommand on the database.
func startBaseline(ctx context.Context, dsn, dir string, log io.Writer) (*child, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, "", err
	}
	c, err := start("baseline", dir, nil, log, false, self, "baseline", "--db", dsn, "--addr", addr)
	if err != nil {
		return nil, "", err
	}
	base := "http://" + addr
	if err := c.waitReady(ctx, time.Minute, probeGET(base+"/healthz")); err != nil {
		c.stop()
		return nil, "", err
	}
	return c, base, nil
}

// probeGET returns a readiness probe: GET url answers 200.
func probeGET(url string) func(context.Context) error {
	client := &http.Client{Timeout: 5 * time.Second}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: HTTP %d", url, res.StatusCode)
		}
		return nil
	}
}

// databaseLabel names the database and, for PostgreSQL, its version.
func databaseLabel(ctx context.Context, db database) string {
	if db.postgres == "" {
		return "SQLite (modernc.org/sqlite, WAL) in a temporary file"
	}
	version, err := postgresVersion(ctx, db.postgres)
	if err != nil {
		return "PostgreSQL"
	}
	return "PostgreSQL " + version + " on the same machine, a fresh schema"
}
