package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

const (
	ownerEmail  = "bench-owner@bindery.local"
	memberEmail = "bench-member@bindery.local"
)

// runner runs the workloads of a benchmark and collects their rows.
type runner struct {
	o      options
	client *http.Client
	stderr io.Writer
	rows   []row
	// cleanups run in reverse order when the benchmark ends.
	cleanups []func()
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.stderr, "benchload: "+format+"\n", args...)
}

// benchmark is the run subcommand. Everything it starts or creates is
// stopped and removed when it returns, on failure and on Ctrl-C too.
func benchmark(ctx context.Context, o options, stdout, stderr io.Writer) error {
	r := &runner{o: o, client: newHTTPClient(o.concurrency), stderr: stderr}
	defer func() {
		for i := len(r.cleanups) - 1; i >= 0; i-- {
			r.cleanups[i]()
		}
	}()
	dir, err := os.MkdirTemp("", "benchload-")
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, func() { os.RemoveAll(dir) })
	db, drop, err := freshDatabase(ctx, o.postgres, dir)
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, func() {
		if err := drop(); err != nil {
			r.logf("%v", err)
		}
	})
	r.logf("fresh %s database; migrating it and making the owner's token", db.dialect())

	// The CLI makes the owner's token (and migrates), as an administrator
	// would on a server started without seeding.
	token, err := binderyCLI(ctx, o.bindery, "token", "create", "--db", db.dsn, "--email", ownerEmail)
	if err != nil {
		return err
	}
	secret := rand.Text() + rand.Text()
	first, err := startBindery(ctx, o.bindery, db.dsn, dir, secret, o.variants[0], o.profile != "", stderr)
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, first.stop)

	owner := &apiClient{base: first.base, token: token, http: r.client}
	addMember := func(ctx context.Context, org string) (string, error) {
		return binderyCLI(ctx, o.bindery, "token", "create", "--db", db.dsn, "--email", memberEmail, "--org", org, "--role", "edit")
	}
	t0 := time.Now()
	var d dataset
	// Only the small reads read the seeded organizations.
	seeded := slices.ContainsFunc([]string{"get", "node", "nested", "list"}, o.selected)
	if seeded {
		r.logf("seeding through the API: %d + %d spaces, %d change requests", o.shape.SpacesA, o.shape.SpacesB, o.shape.SpacesB*o.shape.ChangeRequests)
		if d, err = seed(ctx, owner, addMember, o.shape, o.concurrency); err != nil {
			return fmt.Errorf("seeding: %w", err)
		}
	}
	if o.selected("heavy") {
		r.logf("seeding the heavy mix: a %d-page space imported from a zip archive", o.shape.HeavyPages)
		archive, queries := heavyArchive(o.shape.HeavyPages)
		zips := serveArchive(archive)
		r.cleanups = append(r.cleanups, zips.Close)
		if d.Heavy, err = seedHeavy(ctx, owner, o.shape.HeavyPages, zips.URL, queries, o.concurrency); err != nil {
			return fmt.Errorf("seeding: %w", err)
		}
	}
	seeding := time.Since(t0)
	if seeded || d.Heavy != nil {
		r.logf("seeded in %s", seeding.Round(time.Millisecond))
	}
	var site *siteData
	if o.selected("site") {
		r.logf("site: importing a space of %d pages and publishing it as a site", o.sitePages)
		t0 := time.Now()
		if site, err = seedSite(ctx, owner, o.sitePages); err != nil {
			return fmt.Errorf("site: %w", err)
		}
		r.logf("site: published in %s", time.Since(t0).Round(time.Millisecond))
	}

	if o.selected("get") {
		if err := r.runBaseline(ctx, db, dir, token, d); err != nil {
			return err
		}
	}
	binderies := []*binderyServer{first}
	for _, v := range o.variants[1:] {
		b, err := startBindery(ctx, o.bindery, db.dsn, dir, secret, v, o.profile != "", stderr)
		if err != nil {
			return err
		}
		r.cleanups = append(r.cleanups, b.stop)
		binderies = append(binderies, b)
	}
	workloads := make([][]workload, len(binderies))
	for k, b := range binderies {
		ws := binderyWorkloads(b.base, token, d, o.shape)
		if site != nil {
			ws = append(ws, siteWorkload(b.base, b.label, site))
		}
		slices.SortStableFunc(ws, func(x, y workload) int {
			return slices.Index(workloadKeys, x.key) - slices.Index(workloadKeys, y.key)
		})
		workloads[k] = r.selected(ws)
		for i := range workloads[k] {
			workloads[k][i].target = b.label
		}
	}
	counts, err := countStatements(ctx, db.dsn, workloads[0])
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(workloads[0], func(w workload) bool { return w.key == "site" }); i >= 0 {
		r.logf("site: counting the statements of each page")
		if counts[i], err = countSiteStatements(ctx, db.dsn, workloads[0][i]); err != nil {
			return err
		}
	}
	var anchors []*anchorServer
	if o.postgraphile && slices.ContainsFunc([]string{"node", "nested"}, o.selected) {
		if anchors, err = r.startAnchors(ctx, db, dir, d); err != nil {
			return err
		}
	}
	if site != nil {
		files, err := r.startFileServer(ctx, first.base, dir, site)
		if err != nil {
			return err
		}
		anchors = append(anchors, files)
	}
	// Each workload on every variant and then on each anchor in turn, so
	// that they meet the same state of the machine and of the database as
	// far as can be; with rounds, the whole sequence again, so that each
	// server meets every state the machine goes through.
	for round := 1; round <= o.rounds; round++ {
		for i := range workloads[0] {
			for k, b := range binderies {
				srv := measured{pids: []int{b.pid()}, debug: b.debug, metrics: b.base + "/metrics", round: round}
				if err := r.measure(ctx, &workloads[k][i], srv, counts[i], false); err != nil {
					return err
				}
			}
			for _, a := range anchors {
				j := slices.IndexFunc(a.workloads, func(w workload) bool { return w.key == workloads[0][i].key })
				if j < 0 {
					continue
				}
				if err := r.measure(ctx, &a.workloads[j], measured{pids: a.pids, anchor: true, round: round}, a.counts[j], false); err != nil {
					return err
				}
			}
		}
	}

	var growth []growthRow
	var growthRSS []int64
	if o.selected("growth") {
		if growth, growthRSS, err = r.runGrowth(ctx, db, owner, first.pid()); err != nil {
			return err
		}
	}

	var searched *searchResult
	if o.selected("search") {
		if searched, err = r.runSearch(ctx, db, owner, first.pid()); err != nil {
			return err
		}
	}

	header{date: time.Now(), machine: machine(), database: databaseLabel(ctx, db), shape: o.shape, seeded: seeded, load: len(r.rows) > 0, duration: o.duration,
		warmup: o.warmup, concurrency: o.concurrency, rounds: o.rounds, seeding: seeding}.write(stdout)
	if len(r.rows) > 0 {
		fmt.Fprintln(stdout)
		writeTable(stdout, r.rows)
	}
	if growth != nil {
		fmt.Fprintln(stdout)
		writeGrowthTable(stdout, o.growthPages, o.growthCalls, o.duration, growth, growthRSS)
	}
	if searched != nil {
		fmt.Fprintln(stdout)
		searched.write(stdout, o.duration)
	}
	var failed []string
	for _, row := range r.rows {
		if row.sum.Errors > 0 {
			failed = append(failed, row.target+" "+row.workload+inRound(row.round, o.rounds))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("workloads with errors: %s", strings.Join(failed, "; "))
	}
	return nil
}

// runBaseline starts the baseline on the database and measures it.
func (r *runner) runBaseline(ctx context.Context, db database, dir, token string, d dataset) error {
	bl, base, err := startBaseline(ctx, db.dsn, dir, r.stderr)
	if err != nil {
		return err
	}
	r.cleanups = append(r.cleanups, bl.stop)
	w := baselineWorkload(base, token, d)
	count, err := countBaselineStatements(ctx, db.dsn, &w)
	if err != nil {
		return err
	}
	return r.measure(ctx, &w, measured{pids: []int{bl.pid()}}, count, true)
}

// selected keeps the workloads the options chose.
func (r *runner) selected(ws []workload) []workload {
	return slices.DeleteFunc(ws, func(w workload) bool { return !r.o.selected(w.key) })
}

// anchorServer is an anchor: a PostGraphile running with 2 cluster
// workers, or the site's http.FileServer; its workloads, their statement
// counts, and its processes.
type anchorServer struct {
	workloads []workload
	counts    []statements
	pids      []int
}

// startAnchors starts PostGraphile 4 and 5 on the database, each first as
// one process through a counting proxy to count its statements, then with
// 2 cluster workers to be measured. PostGraphile 5 is installed under the
// user's cache folder on first use.
func (r *runner) startAnchors(ctx context.Context, db database, dir string, d dataset) ([]*anchorServer, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	cache = filepath.Join(cache, "bindery-benchload")
	r.logf("installing PostGraphile %s and its Node.js under %s, unless done before", postgraphile5Version, cache)
	pg5, err := postgraphile5(ctx, cache, r.stderr)
	if err != nil {
		return nil, err
	}
	var out []*anchorServer
	for _, a := range []anchor{postgraphile4(filepath.Join(dir, "postgraphile")), pg5} {
		ws := func(base string) []workload { return r.selected(a.workloads(base, d, r.o.shape)) }
		r.logf("starting PostGraphile %s through a counting proxy to count its statements", a.version)
		counts, err := countPostGraphileStatements(ctx, a, db, ws, r.stderr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.label, err)
		}
		r.logf("starting PostGraphile %s with 2 cluster workers", a.version)
		c, base, err := a.start(ctx, db.postgres, db.schema, 2, r.stderr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.label, err)
		}
		r.cleanups = append(r.cleanups, c.stop)
		pids, err := a.pids(c)
		if err != nil {
			return nil, err
		}
		out = append(out, &anchorServer{workloads: ws(base), counts: counts, pids: pids})
	}
	return out, nil
}

// measured is a server being measured: its processes, and for Bindery
// the base URL of its profiler and the URL of its metrics ("" for none).
type measured struct {
	pids           []int
	debug, metrics string
	// anchor marks a PostGraphile or http.FileServer, which Bindery's rows
	// are compared with.
	anchor bool
	// round is the interleaved round of the run, from 1; 0 for a run
	// outside them (the baseline's).
	round int
}

// measure checks a workload's answer, warms up, and runs it for the
// duration, with the server's peak memory reset before, and the CPU time
// of the server and of the database measured, and the collector's share
// of the server's when it has metrics. With a profiler, the run's CPU
// profile is written to the profile folder.
func (r *runner) measure(ctx context.Context, w *workload, srv measured, st statements, baseline bool) error {
	if err := checkOnce(ctx, r.client, w); err != nil {
		return err
	}
	r.logf("%s %s%s: %s at %d in flight", w.target, w.name, inRound(srv.round, r.o.rounds), r.o.duration, r.o.concurrency)
	if _, err := drive(ctx, r.client, w, r.o.concurrency, r.o.warmup); err != nil {
		return err
	}
	if err := resetPeakRSS(srv.pids); err != nil {
		return err
	}
	var gcBefore cpuClasses
	if srv.metrics != "" {
		var err error
		if gcBefore, err = readCPUClasses(ctx, r.client, srv.metrics); err != nil {
			return err
		}
	}
	profiled := r.profile(ctx, srv.debug, w, srv.round)
	cpu := startCPUMeter(srv.pids, r.o.postgres != "")
	res, err := drive(ctx, r.client, w, r.o.concurrency, r.o.duration)
	if err != nil {
		return err
	}
	serverCPU, databaseCPU := cpu.stop(len(res.latencies))
	var gc float64
	if srv.metrics != "" {
		gcAfter, err := readCPUClasses(ctx, r.client, srv.metrics)
		if err != nil {
			return err
		}
		gc = gcShare(gcBefore, gcAfter)
	}
	if err := <-profiled; err != nil {
		return err
	}
	rss, err := peakRSS(srv.pids)
	if err != nil {
		return err
	}
	s := summarize(res)
	line := row{target: w.target, key: w.key, workload: w.name, anchor: srv.anchor, sum: s, statements: st, peakRSS: rss,
		processes: len(srv.pids), baseline: baseline, round: srv.round, serverCPU: serverCPU, databaseCPU: databaseCPU, gcShare: gc}
	if w.checks != nil {
		line.kinds = summarizeKinds(res)
	}
	r.rows = append(r.rows, line)
	r.logf("  %s req/s, p50 %s, p99 %s, %d errors, collector %s of the CPU, peak RSS %s", rate(s.RPS), millis(s.P50), millis(s.P99),
		s.Errors, percent(gc), mebibytes(rss, len(srv.pids)))
	for _, k := range line.kinds {
		r.logf("    %s", k)
	}
	return nil
}
