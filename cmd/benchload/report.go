package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// row is a workload's line of the report.
type row struct {
	target, workload string
	// key is the workload's key (--workloads), which pairs Bindery's row of
	// a workload with an anchor's.
	key        string
	sum        summary
	statements statements
	// peakRSS is the server's peak resident set size in bytes, summed over
	// processes processes; 0 when unknown.
	peakRSS   int64
	processes int
	// serverCPU and databaseCPU are the CPU time the server's and the
	// database's processes spent per request; 0 when unknown.
	serverCPU, databaseCPU time.Duration
	// gcShare is the collector's share of the server's CPU time; 0 when
	// unknown.
	gcShare float64
	// kinds are the figures of each kind of request of a mixed workload.
	kinds []kindSummary
	// baseline marks the row the others are compared with.
	baseline bool
	// anchor marks a PostGraphile's or http.FileServer's row, which
	// Bindery's rows of the same workload are compared with.
	anchor bool
}

// writeTable writes the rows as a markdown table, each with its ratio of
// requests per second to the baseline row's. A row with errors is marked in
// bold, and its first error is listed below the table.
func writeTable(w io.Writer, rows []row) {
	var base float64
	for _, r := range rows {
		if r.baseline {
			base = r.sum.RPS
		}
	}
	fmt.Fprintln(w, "| Server | Workload | req/s | p50 | p99 | errors | SQL/req | server CPU/req | DB CPU/req | GC CPU | peak RSS | req/s vs baseline |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	var failed []row
	for _, r := range rows {
		errs := "0"
		if r.sum.Errors > 0 {
			errs = fmt.Sprintf("**%d of %d**", r.sum.Errors, r.sum.Requests)
			failed = append(failed, r)
		}
		ratio := "n/a"
		if base > 0 {
			ratio = times(r.sum.RPS / base)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.target, r.workload, rate(r.sum.RPS),
			millis(r.sum.P50), millis(r.sum.P99), errs, r.statements, micros(r.serverCPU), micros(r.databaseCPU),
			percent(r.gcShare), mebibytes(r.peakRSS, r.processes), ratio)
	}
	if lines := anchorRatios(rows); len(lines) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(lines, "\n"))
	}
	for _, r := range rows {
		if len(r.kinds) == 0 {
			continue
		}
		parts := make([]string, len(r.kinds))
		for i, k := range r.kinds {
			parts[i] = k.String()
		}
		fmt.Fprintf(w, "\n%s, %s, requests by kind: %s.\n", r.target, r.workload, strings.Join(parts, "; "))
	}
	for _, r := range failed {
		fmt.Fprintf(w, "\n**WARNING: %s %s had %d errors in %d requests; its figures are not valid.** First: %s\n",
			r.target, r.workload, r.sum.Errors, r.sum.Requests, r.sum.FirstError)
	}
}

// anchorRatios compare each Bindery's requests per second with each
// anchor's, workload by workload: a line for each pair, naming both.
func anchorRatios(rows []row) []string {
	type cell struct{ target, key string }
	rps := map[cell]float64{}
	var binderies, anchors []string
	for _, r := range rows {
		if r.key == "" || r.baseline {
			continue
		}
		targets := &binderies
		if r.anchor {
			targets = &anchors
		}
		if !slices.Contains(*targets, r.target) {
			*targets = append(*targets, r.target)
		}
		rps[cell{r.target, r.key}] = r.sum.RPS
	}
	var lines []string
	for _, a := range anchors {
		for _, b := range binderies {
			var parts []string
			for _, k := range workloadKeys {
				x, ok := rps[cell{b, k}]
				y, ok2 := rps[cell{a, k}]
				if ok && ok2 && y > 0 {
					parts = append(parts, k+" "+times(x/y))
				}
			}
			if len(parts) > 0 {
				lines = append(lines, fmt.Sprintf("req/s of %s ÷ %s: %s.", b, a, strings.Join(parts, ", ")))
			}
		}
	}
	return lines
}

// rate shows a figure such as requests per second or a growth ratio, with
// a decimal below 10 (a mix of requests that take seconds).
func rate(x float64) string {
	if x < 10 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// times shows a ratio with two decimals, or two significant digits below
// 0.1.
func times(x float64) string {
	if x < 0.1 {
		return fmt.Sprintf("%.2g×", x)
	}
	return fmt.Sprintf("%.2f×", x)
}

func millis(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

// micros shows a CPU time per request in microseconds, or n/a when
// unknown.
func micros(d time.Duration) string {
	if d <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
}

// percent shows the collector's share of the CPU, or n/a when unknown.
func percent(share float64) string {
	if share <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*share)
}

func mebibytes(n int64, processes int) string {
	if n <= 0 {
		return "n/a"
	}
	s := fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	if processes > 1 {
		s += fmt.Sprintf(" (%d processes)", processes)
	}
	return s
}

// header describes a run, as a paragraph above its table.
type header struct {
	date     time.Time
	machine  string
	database string
	shape    shape
	// seeded says whether the organizations of the small reads were.
	seeded bool
	// load says whether any workload ran under load, with the main table.
	load        bool
	duration    time.Duration
	warmup      time.Duration
	concurrency int
	seeding     time.Duration
}

func (h header) write(w io.Writer) {
	dataset := fmt.Sprintf("Database: %s. Dataset: organization A with %d spaces; organization B with %d spaces of %d open change requests each, seeded through the API in %s.",
		h.database, h.shape.SpacesA, h.shape.SpacesB, h.shape.ChangeRequests, h.seeding.Round(100*time.Millisecond))
	if !h.seeded {
		dataset = fmt.Sprintf("Database: %s.", h.database)
	}
	lines := []string{
		fmt.Sprintf("Run on %s, %s.", h.date.Format("2006-01-02"), h.machine),
		dataset,
		fmt.Sprintf("Each workload: %s at %d requests in flight, after a %s warm-up; the load generator runs on the same machine.",
			h.duration, h.concurrency, h.warmup),
	}
	if !h.load {
		lines = lines[:2]
	}
	fmt.Fprintln(w, strings.Join(lines, "\n"))
}
