// Command benchload is Bindery's load benchmark (make bench-load). It starts
// bin/bindery on a fresh database, seeds a dataset through the API as a
// client would, runs a few read workloads and a heavy mix (whole-space
// reads, searches, PDF renders, imports) at a fixed concurrency for a fixed
// time, then times reads and edits of one page, one call at a time, on
// spaces of several sizes (the growth workload, in a table of its own),
// and prints a markdown table: requests per second, latency
// percentiles, SQL statements per request, CPU per request, the collector's
// share of the CPU, the server's peak memory, and the ratio to a minimal
// net/http + database/sql handler over the same database (the baseline
// subcommand). With --postgraphile, PostgreSQL only, it runs the GraphQL
// workloads against PostGraphile 4 and 5 on the same database too; with
// --variant, Bindery's workloads on more servers, each with some
// environment added.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, context.Canceled) {
			err = errors.New("interrupted; everything it started is stopped and removed")
		}
		fmt.Fprintln(os.Stderr, "benchload:", err)
		stop()
		os.Exit(1)
	}
}
