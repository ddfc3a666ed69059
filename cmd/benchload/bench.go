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

const (
	ownerEmail  = "bench-owner@bindery.local"
	memberEmail = "bench-member@bindery.local"
)

// benchmark is the run subcommand. Everything it starts or creates is
// stopped and removed when it returns, on failure and on Ctrl-C too.
func benchmark(ctx context.Context, o options, stdout, stderr io.Writer) (err error) {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "benchload: "+format+"\n", args...) }
	var cleanups []func()
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}()
	dir, err := os.MkdirTemp("", "benchload-")
	if err != nil {
		return err
	}
	cleanups = append(cleanups, func() { os.RemoveAll(dir) })
	db, drop, err := freshDatabase(ctx, o.postgres, dir)
	if err != nil {
		return err
	}
	cleanups = append(cleanups, func() {
		if err := drop(); err != nil {
			logf("%v", err)
		}
	})
	logf("fresh %s database; migrating it and making the owner's token", db.dialect())

	// The CLI makes the owner's token (and migrates), as an administrator
	// would on a server started without seeding.
	token, err := binderyCLI(ctx, o.bindery, "token", "create", "--db", db.dsn, "--email", ownerEmail)
	if err != nil {
		return err
	}
	bindery, base, err := startBindery(ctx, o.bindery, db.dsn, dir, stderr)
	if err != nil {
		return err
	}
	cleanups = append(cleanups, bindery.stop)

	client := newHTTPClient(o.concurrency)
	owner := &apiClient{base: base, token: token, http: client}
	addMember := func(ctx context.Context, org string) (string, error) {
		return binderyCLI(ctx, o.bindery, "token", "create", "--db", db.dsn, "--email", memberEmail, "--org", org, "--role", "edit")
	}
	logf("seeding through the API: %d + %d spaces, %d change requests", o.shape.SpacesA, o.shape.SpacesB, o.shape.SpacesB*o.shape.ChangeRequests)
	t0 := time.Now()
	d, err := seed(ctx, owner, addMember, o.shape, o.concurrency)
	if err != nil {
		return fmt.Errorf("seeding: %w", err)
	}
	seeding := time.Since(t0)
	logf("seeded in %s", seeding.Round(time.Millisecond))

	ws := binderyWorkloads(base, token, d, o.shape)
	counts, err := countStatements(ctx, db.dsn, ws)
	if err != nil {
		return err
	}
	bl, blBase, err := startBaseline(ctx, db.dsn, dir, stderr)
	if err != nil {
		return err
	}
	cleanups = append(cleanups, bl.stop)
	bw := baselineWorkload(blBase, token, d)
	blCount, err := countBaselineStatements(ctx, db.dsn, &bw)
	if err != nil {
		return err
	}

	var rows []row
	measure := func(w *workload, pids []int, st statements) error {
		if err := checkOnce(ctx, client, w); err != nil {
			return err
		}
		logf("%s %s: %s at %d in flight", w.target, w.name, o.duration, o.concurrency)
		if _, err := drive(ctx, client, w, o.concurrency, o.warmup); err != nil {
			return err
		}
		if err := resetPeakRSS(pids); err != nil {
			return err
		}
		res, err := drive(ctx, client, w, o.concurrency, o.duration)
		if err != nil {
			return err
		}
		rss, err := peakRSS(pids)
		if err != nil {
			return err
		}
		s := summarize(res)
		rows = append(rows, row{target: w.target, workload: w.name, sum: s, statements: st, peakRSS: rss,
			processes: len(pids), baseline: w == &bw})
		logf("  %.0f req/s, p50 %s, p99 %s, %d errors", s.RPS, millis(s.P50), millis(s.P99), s.Errors)
		return nil
	}
	if err := measure(&bw, []int{bl.pid()}, blCount); err != nil {
		return err
	}
	for i := range ws {
		if err := measure(&ws[i], []int{bindery.pid()}, counts[i]); err != nil {
			return err
		}
	}

	if o.postgraphile {
		pgDir := filepath.Join(dir, "postgraphile")
		pws := func(base string) []workload { return postgraphileWorkloads(base, d, o.shape) }
		logf("starting PostGraphile %s through a counting proxy to count its statements", postgraphileVersion)
		pgCounts, err := countPostGraphileStatements(ctx, pgDir, db, pws, stderr)
		if err != nil {
			return err
		}
		logf("starting PostGraphile %s with 2 cluster workers", postgraphileVersion)
		pg, pgBase, err := startPostGraphile(ctx, pgDir, db.postgres, db.schema, 2, stderr)
		if err != nil {
			return err
		}
		cleanups = append(cleanups, pg.stop)
		pids, err := postgraphilePIDs(pg)
		if err != nil {
			return err
		}
		pgws := pws(pgBase)
		for i := range pgws {
			if err := measure(&pgws[i], pids, pgCounts[i]); err != nil {
				return err
			}
		}
	}

	header{date: time.Now(), machine: machine(), database: databaseLabel(ctx, db), shape: o.shape, duration: o.duration,
		warmup: o.warmup, concurrency: o.concurrency, seeding: seeding}.write(stdout)
	fmt.Fprintln(stdout)
	writeTable(stdout, rows)
	var failed []string
	for _, r := range rows {
		if r.sum.Errors > 0 {
			failed = append(failed, r.target+" "+r.workload)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("workloads with errors: %s", strings.Join(failed, "; "))
	}
	return nil
}

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
// limits or request logs.
func startBindery(ctx context.Context, bin, dsn, dir string, log io.Writer) (*child, string, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, "", err
	}
	env := []string{"BINDERY_DATABASE_URL=" + dsn, "BINDERY_ADDR=" + addr, "BINDERY_SEED=false",
		"BINDERY_RATE_LIMIT=0", "BINDERY_LOG_LEVEL=warn", "BINDERY_LOG_FORMAT=text",
		"BINDERY_SIGNING_SECRET=" + rand.Text() + rand.Text()}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil, "", err
	}
	c, err := start("bindery", dir, env, log, false, abs, "serve")
	if err != nil {
		return nil, "", err
	}
	base := "http://" + addr
	if err := c.waitReady(ctx, time.Minute, probeGET(base+"/readyz")); err != nil {
		c.stop()
		return nil, "", err
	}
	return c, base, nil
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
