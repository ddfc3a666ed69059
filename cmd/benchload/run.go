package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

const usage = `Usage:
  benchload run [--bindery bin/bindery] [--duration 10s] [--concurrency 8] [--warmup 1s] [--rounds 1]
                [--pg URL] [--postgraphile] [--profile DIR] [--workloads get,node,nested,list,site,heavy,growth,search]
                [--variant 'NAME=VALUE ...']... [--org-a-spaces 1000] [--org-b-spaces 50]
                [--change-requests 10] [--heavy-pages 251] [--site-pages 500]
                [--growth-pages 20,2000,10000] [--growth-calls 20]
                [--search-org-pages 100000] [--search-org-spaces 100]
  benchload baseline --db DSN --addr HOST:PORT
  benchload fileserver --dir DIR --addr HOST:PORT

run benchmarks bin/bindery on a fresh database: a SQLite file, or a schema
created on the PostgreSQL server of --pg (default $BINDERY_TEST_DATABASE_URL)
and dropped at the end. The markdown table goes to stdout, progress to
stderr. Defaults come from BENCH_DURATION, BENCH_CONCURRENCY, BENCH_ROUNDS,
BENCH_WORKLOADS, BENCH_VARIANTS (variants separated by ;) and POSTGRAPHILE=1
when set.
--postgraphile runs the GraphQL workloads (node, nested) against PostGraphile
4.14.1 (from npx) and 5.1.5 (installed by npm, with a Node.js of its own,
under the user's cache folder on first use) too, each with 2 cluster workers.
--profile writes a CPU profile of Bindery during each of its workloads into
DIR, for go tool pprof.

--workloads picks the workloads: get (GET /v1/spaces/{id}, and the
baseline), node, nested, list, site (a published site of a space of
--site-pages pages, read anonymously page after page, and the same pages
written to files and served by http.FileServer), heavy (the heavy mix),
growth (a space of each size of --growth-pages, default
$BENCH_GROWTH_PAGES or 20,2000,10000, imported, then reads and edits of
one page timed one call at a time on each, in a table of its own, on the
first server only),
search (an organization of --search-org-pages pages in --search-org-spaces
growth spaces, default $BENCH_SEARCH_ORG_PAGES or 100000 and
$BENCH_SEARCH_ORG_SPACES or 100, imported, then searches of it and of one
of its spaces timed one call at a time, --growth-calls each, in a table of
its own, on the first server only). All but search run by default: its
imports take minutes. Each --variant runs
Bindery's workloads on one more bindery serve with that environment added
(GOGC=off GOMEMLIMIT=72MiB, say; "default" adds nothing), on the same
database, each workload on every variant in turn.
--rounds N runs the workloads under load (all but growth and search; the
baseline once) N times over, interleaved: in each round every workload on
every variant and then on each anchor. One run moves by tens of percent
on a busy machine; the table then shows each server's median round, and a
ratio to an anchor is the median of the ratios within each round.

baseline serves GET /v1/spaces/{id} with net/http and database/sql alone:
the floor that run compares Bindery with. fileserver serves a folder with
http.FileServer, a page's folder at its address without the trailing slash
too: what run compares Bindery's published site with.`

// errUsage marks a command line that could not be understood.
var errUsage = errors.New("invalid usage")

// run is the whole program: main only wires the process to it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := ""
	if len(args) > 1 {
		cmd = args[1]
	}
	var err error
	switch cmd {
	case "run":
		var o options
		if o, err = parseOptions(args[2:], getenv, stderr); err == nil {
			err = benchmark(ctx, o, stdout, stderr)
		}
	case "baseline":
		err = serveBaseline(ctx, args[2:], stderr)
	case "fileserver":
		err = serveFiles(ctx, args[2:], stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
	default:
		fmt.Fprintln(stderr, usage)
		err = fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	}
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// options are the settings of a benchmark run.
type options struct {
	// bindery is the path of the bindery binary.
	bindery string
	// duration is how long each workload runs, after warmup.
	duration, warmup time.Duration
	// concurrency is the number of requests in flight.
	concurrency int
	// rounds is how many times the workloads under load run, interleaved.
	rounds int
	// postgres is the URL of a PostgreSQL server to create a schema on;
	// empty means SQLite.
	postgres string
	// postgraphile adds PostGraphile's rows (PostgreSQL only).
	postgraphile bool
	// profile is a folder for CPU profiles of Bindery's workloads; empty
	// for none.
	profile string
	// workloads are the keys of the workloads to run.
	workloads []string
	// variants are the environments Bindery's workloads run under, each
	// NAME=VALUE pairs added to bindery serve's (none for its defaults).
	variants [][]string
	shape    shape
	// growthPages are the sizes of the growth workload's spaces, smallest
	// first, and growthCalls the timed calls of each operation on each.
	growthPages []int
	growthCalls int
	// sitePages is the number of pages of the site workload's space.
	sitePages int
	// searchOrg is the search workload's organization.
	searchOrg searchOrg
}

// workloadKeys are the workloads, in the order they run.
var workloadKeys = []string{"get", "node", "nested", "list", "site", "heavy", "growth", "search"}

// defaultWorkloads are the workloads that run when none are named: all but
// search, whose organization takes minutes to import.
var defaultWorkloads = []string{"get", "node", "nested", "list", "site", "heavy", "growth"}

// defaultGrowthPages are the growth workload's space sizes by default.
var defaultGrowthPages = []int{20, 2000, 10000}

// selected says whether the workload of key runs.
func (o options) selected(key string) bool { return slices.Contains(o.workloads, key) }

// parseWorkloads reads a comma-separated list of workload keys.
func parseWorkloads(list string) ([]string, error) {
	var out []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(workloadKeys, k) {
			return nil, fmt.Errorf("%w: unknown workload %q (known: %s)", errUsage, k, strings.Join(workloadKeys, ", "))
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no workload chosen", errUsage)
	}
	return out, nil
}

// parseVariant reads a variant: space-separated NAME=VALUE pairs, or
// "default" (or nothing) for bindery serve's own environment.
func parseVariant(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "default" {
		return nil, nil
	}
	var env []string
	for _, kv := range strings.Fields(s) {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return nil, fmt.Errorf("%w: variant %q: %q is not NAME=VALUE", errUsage, s, kv)
		}
		env = append(env, kv)
	}
	return env, nil
}

func parseOptions(args []string, getenv func(string) string, stderr io.Writer) (options, error) {
	o := options{bindery: "bin/bindery", duration: 10 * time.Second, warmup: time.Second, concurrency: 8, rounds: 1,
		postgres: getenv("BINDERY_TEST_DATABASE_URL"), shape: defaultShape, workloads: defaultWorkloads,
		growthPages: defaultGrowthPages, growthCalls: 20, sitePages: defaultSitePages, searchOrg: defaultSearchOrg}
	if v := getenv("BENCH_WORKLOADS"); v != "" {
		ws, err := parseWorkloads(v)
		if err != nil {
			return o, fmt.Errorf("BENCH_WORKLOADS: %w", err)
		}
		o.workloads = ws
	}
	if v := getenv("BENCH_GROWTH_PAGES"); v != "" {
		sizes, err := parseSizes(v)
		if err != nil {
			return o, fmt.Errorf("BENCH_GROWTH_PAGES: %w", err)
		}
		o.growthPages = sizes
	}
	for name, n := range map[string]*int{"BENCH_SEARCH_ORG_PAGES": &o.searchOrg.Pages, "BENCH_SEARCH_ORG_SPACES": &o.searchOrg.Spaces} {
		if v := getenv(name); v != "" {
			k, err := strconv.Atoi(v)
			if err != nil {
				return o, fmt.Errorf("%s: %q is not an integer", name, v)
			}
			*n = k
		}
	}
	var envVariants [][]string
	if v := getenv("BENCH_VARIANTS"); v != "" {
		for _, s := range strings.Split(v, ";") {
			env, err := parseVariant(s)
			if err != nil {
				return o, fmt.Errorf("BENCH_VARIANTS: %w", err)
			}
			envVariants = append(envVariants, env)
		}
	}
	if v := getenv("BENCH_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return o, fmt.Errorf("BENCH_DURATION: %q is not a duration such as 10s", v)
		}
		o.duration = d
	}
	if v := getenv("BENCH_CONCURRENCY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return o, fmt.Errorf("BENCH_CONCURRENCY: %q is not an integer", v)
		}
		o.concurrency = n
	}
	if v := getenv("BENCH_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return o, fmt.Errorf("BENCH_ROUNDS: %q is not an integer", v)
		}
		o.rounds = n
	}
	switch v := strings.ToLower(getenv("POSTGRAPHILE")); v {
	case "1", "true", "yes":
		o.postgraphile = true
	case "", "0", "false", "no":
	default:
		return o, fmt.Errorf("POSTGRAPHILE: %q is neither 1 nor 0", v)
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bindery, "bindery", o.bindery, "path of the bindery binary")
	fs.DurationVar(&o.duration, "duration", o.duration, "how long each workload runs")
	fs.DurationVar(&o.warmup, "warmup", o.warmup, "unmeasured run before each workload")
	fs.IntVar(&o.concurrency, "concurrency", o.concurrency, "requests in flight")
	fs.IntVar(&o.rounds, "rounds", o.rounds, "interleaved rounds of the workloads under load; the table shows medians")
	fs.StringVar(&o.postgres, "pg", o.postgres, "PostgreSQL server URL to create a fresh schema on; empty for SQLite")
	fs.BoolVar(&o.postgraphile, "postgraphile", o.postgraphile, "run the GraphQL workloads against PostGraphile 4 and 5 too (PostgreSQL only; needs npm and npx)")
	fs.StringVar(&o.profile, "profile", getenv("BENCH_PROFILE"), "folder to write a CPU profile of Bindery per workload into")
	fs.IntVar(&o.shape.SpacesA, "org-a-spaces", o.shape.SpacesA, "spaces of organization A")
	fs.IntVar(&o.shape.SpacesB, "org-b-spaces", o.shape.SpacesB, "spaces of organization B")
	fs.IntVar(&o.shape.ChangeRequests, "change-requests", o.shape.ChangeRequests, "open change requests per space of organization B")
	fs.IntVar(&o.shape.HeavyPages, "heavy-pages", o.shape.HeavyPages, "pages of the heavy mix's space")
	fs.IntVar(&o.sitePages, "site-pages", o.sitePages, "pages of the site workload's space")
	fs.Func("growth-pages", "comma-separated page counts of the growth workload's spaces (default 20,2000,10000)", func(v string) error {
		sizes, err := parseSizes(v)
		o.growthPages = sizes
		return err
	})
	fs.IntVar(&o.growthCalls, "growth-calls", o.growthCalls, "timed calls of each growth operation on each space (fewer past --duration)")
	fs.IntVar(&o.searchOrg.Pages, "search-org-pages", o.searchOrg.Pages, "pages of the search workload's organization")
	fs.IntVar(&o.searchOrg.Spaces, "search-org-spaces", o.searchOrg.Spaces, "spaces of the search workload's organization, the pages spread evenly")
	fs.Func("workloads", "comma-separated workloads to run: "+strings.Join(workloadKeys, ", ")+" (default all but search)", func(v string) error {
		ws, err := parseWorkloads(v)
		o.workloads = ws
		return err
	})
	var flagVariants [][]string
	fs.Func("variant", "environment of one more bindery serve to run the workloads on: 'NAME=VALUE ...', or default; repeatable", func(v string) error {
		env, err := parseVariant(v)
		flagVariants = append(flagVariants, env)
		return err
	})
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("%w: %w", errUsage, err)
	}
	switch {
	case len(flagVariants) > 0:
		o.variants = flagVariants
	case len(envVariants) > 0:
		o.variants = envVariants
	default:
		o.variants = [][]string{nil}
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: unexpected arguments %s", errUsage, strings.Join(fs.Args(), " "))
	}
	switch {
	case o.duration <= 0 || o.warmup < 0:
		return o, fmt.Errorf("%w: the duration must be positive and the warm-up not negative", errUsage)
	case o.concurrency < 1:
		return o, fmt.Errorf("%w: the concurrency must be at least 1", errUsage)
	case o.rounds < 1:
		return o, fmt.Errorf("%w: the rounds must be at least 1", errUsage)
	case o.growthCalls < 1:
		return o, fmt.Errorf("%w: the growth workload needs at least one call", errUsage)
	case o.sitePages < 1:
		return o, fmt.Errorf("%w: the site workload needs a page", errUsage)
	case o.postgraphile && o.postgres == "":
		return o, fmt.Errorf("%w: PostGraphile needs PostgreSQL: set BINDERY_TEST_DATABASE_URL or --pg", errUsage)
	}
	if err := o.searchOrg.check(); err != nil {
		return o, err
	}
	return o, o.shape.check()
}
