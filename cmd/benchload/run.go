package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

const usage = `Usage:
  benchload run [--bindery bin/bindery] [--duration 10s] [--concurrency 8] [--warmup 1s]
                [--pg URL] [--postgraphile] [--profile DIR] [--org-a-spaces 1000] [--org-b-spaces 50] [--change-requests 10]
  benchload baseline --db DSN --addr HOST:PORT

run benchmarks bin/bindery on a fresh database: a SQLite file, or a schema
created on the PostgreSQL server of --pg (default $BINDERY_TEST_DATABASE_URL)
and dropped at the end. The markdown table goes to stdout, progress to
stderr. Defaults come from BENCH_DURATION, BENCH_CONCURRENCY and
POSTGRAPHILE=1 when set. --profile writes a CPU profile of Bindery during
each of its workloads into DIR, for go tool pprof.

baseline serves GET /v1/spaces/{id} with net/http and database/sql alone:
the floor that run compares Bindery with.`

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
	// postgres is the URL of a PostgreSQL server to create a schema on;
	// empty means SQLite.
	postgres string
	// postgraphile adds PostGraphile's rows (PostgreSQL only).
	postgraphile bool
	// profile is a folder for CPU profiles of Bindery's workloads; empty
	// for none.
	profile string
	shape   shape
}

func parseOptions(args []string, getenv func(string) string, stderr io.Writer) (options, error) {
	o := options{bindery: "bin/bindery", duration: 10 * time.Second, warmup: time.Second, concurrency: 8,
		postgres: getenv("BINDERY_TEST_DATABASE_URL"), shape: defaultShape}
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
	fs.StringVar(&o.postgres, "pg", o.postgres, "PostgreSQL server URL to create a fresh schema on; empty for SQLite")
	fs.BoolVar(&o.postgraphile, "postgraphile", o.postgraphile, "run the GraphQL workloads against PostGraphile too (PostgreSQL only)")
	fs.StringVar(&o.profile, "profile", getenv("BENCH_PROFILE"), "folder to write a CPU profile of Bindery per workload into")
	fs.IntVar(&o.shape.SpacesA, "org-a-spaces", o.shape.SpacesA, "spaces of organization A")
	fs.IntVar(&o.shape.SpacesB, "org-b-spaces", o.shape.SpacesB, "spaces of organization B")
	fs.IntVar(&o.shape.ChangeRequests, "change-requests", o.shape.ChangeRequests, "open change requests per space of organization B")
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: unexpected arguments %s", errUsage, strings.Join(fs.Args(), " "))
	}
	switch {
	case o.duration <= 0 || o.warmup < 0:
		return o, fmt.Errorf("%w: the duration must be positive and the warm-up not negative", errUsage)
	case o.concurrency < 1:
		return o, fmt.Errorf("%w: the concurrency must be at least 1", errUsage)
	case o.postgraphile && o.postgres == "":
		return o, fmt.Errorf("%w: PostGraphile needs PostgreSQL: set BINDERY_TEST_DATABASE_URL or --pg", errUsage)
	}
	return o, o.shape.check()
}
