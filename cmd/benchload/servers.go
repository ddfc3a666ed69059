package main

import (
	"bytes"
	"context"
	"crypto/rand"
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

// startBindery starts bindery serve on the database, without seeding, rate
// limits or request logs. With profiler, it serves Go's profiler too, at
// the base URL debug.
func startBindery(ctx context.Context, bin, dsn, dir string, profiler bool, log io.Writer) (c *child, base, debug string, err error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, "", "", err
	}
	env := []string{"BINDERY_DATABASE_URL=" + dsn, "BINDERY_ADDR=" + addr, "BINDERY_SEED=false",
		"BINDERY_RATE_LIMIT=0", "BINDERY_LOG_LEVEL=warn", "BINDERY_LOG_FORMAT=text",
		"BINDERY_SIGNING_SECRET=" + rand.Text() + rand.Text()}
	if profiler {
		debugAddr, err := freeAddr()
		if err != nil {
			return nil, "", "", err
		}
		env = append(env, "BINDERY_DEBUG_ADDR="+debugAddr)
		debug = "http://" + debugAddr
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil, "", "", err
	}
	c, err = start("bindery", dir, env, log, false, abs, "serve")
	if err != nil {
		return nil, "", "", err
	}
	base = "http://" + addr
	if err := c.waitReady(ctx, time.Minute, probeGET(base+"/readyz")); err != nil {
		c.stop()
		return nil, "", "", err
	}
	return c, base, debug, nil
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
