package main

import (
	"cmp"
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
	// round is the interleaved round the row was measured in, from 1; 0
	// for a row measured once outside them (the baseline's).
	round int
}

// writeTable writes the rows as a markdown table, each with its ratio of
// requests per second to the baseline row's. A row with errors is marked in
// bold, and its first error is listed below the table. With rounds (rows
// of the same server and workload, one per round), the table shows the
// round of median requests per second of each, with their range.
func writeTable(w io.Writer, rows []row) {
	rounds := 1
	for _, r := range rows {
		rounds = max(rounds, r.round)
	}
	groups := byServerAndWorkload(rows, rounds)
	shown := make([]row, len(groups))
	for i, g := range groups {
		shown[i] = medianRound(g)
	}
	var base float64
	for _, r := range shown {
		if r.baseline {
			base = r.sum.RPS
		}
	}
	if rounds > 1 {
		fmt.Fprintln(w, "| Server | Workload | req/s | req/s range | p50 | p99 | errors | SQL/req | server CPU/req | DB CPU/req | GC CPU | peak RSS | req/s vs baseline |")
		fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	} else {
		fmt.Fprintln(w, "| Server | Workload | req/s | p50 | p99 | errors | SQL/req | server CPU/req | DB CPU/req | GC CPU | peak RSS | req/s vs baseline |")
		fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	}
	for i, r := range shown {
		errs := "0"
		if r.sum.Errors > 0 {
			errs = fmt.Sprintf("**%d of %d**", r.sum.Errors, r.sum.Requests)
		}
		ratio := "n/a"
		if base > 0 {
			ratio = times(r.sum.RPS / base)
		}
		rps := rate(r.sum.RPS)
		if rounds > 1 {
			rps += " | " + rpsRange(groups[i])
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.target, r.workload, rps,
			millis(r.sum.P50), millis(r.sum.P99), errs, r.statements, micros(r.serverCPU), micros(r.databaseCPU),
			percent(r.gcShare), mebibytes(r.peakRSS, r.processes), ratio)
	}
	lines := anchorRatios(rows)
	if rounds > 1 {
		note := fmt.Sprintf("Each workload ran on each server in %d interleaved rounds. A row shows the round of median req/s "+
			"(of an even number, the slower of the middle two), every column from that round; the range is of req/s over the rounds.", rounds)
		if len(lines) > 0 {
			note += " A ratio below is the median of the ratios taken within each round, where both servers met the same state of the machine."
		}
		fmt.Fprintf(w, "\n%s\n", note)
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(lines, "\n"))
	}
	for _, r := range shown {
		if len(r.kinds) == 0 {
			continue
		}
		parts := make([]string, len(r.kinds))
		for i, k := range r.kinds {
			parts[i] = k.String()
		}
		fmt.Fprintf(w, "\n%s, %s, requests by kind: %s.\n", r.target, r.workload, strings.Join(parts, "; "))
	}
	// Every round's errors, not only the shown round's: a failed round
	// makes the median doubtful too.
	for _, r := range rows {
		if r.sum.Errors > 0 {
			fmt.Fprintf(w, "\n**WARNING: %s %s%s had %d errors in %d requests; its figures are not valid.** First: %s\n",
				r.target, r.workload, inRound(r.round, rounds), r.sum.Errors, r.sum.Requests, r.sum.FirstError)
		}
	}
}

// byServerAndWorkload groups the rows of each server and workload, in the
// order each first appears: a group holds a row per round. Without rounds,
// each row is a group of its own.
func byServerAndWorkload(rows []row, rounds int) [][]row {
	type cell struct{ target, key, workload string }
	index := map[cell]int{}
	var groups [][]row
	for _, r := range rows {
		c := cell{r.target, r.key, r.workload}
		i, ok := index[c]
		if !ok || rounds == 1 {
			i = len(groups)
			index[c] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	return groups
}

// medianRound is the row of median requests per second of a group; of an
// even number, the slower of the middle two, so that every figure shown
// is one that a run measured.
func medianRound(g []row) row {
	sorted := slices.Clone(g)
	slices.SortStableFunc(sorted, func(x, y row) int { return cmp.Compare(x.sum.RPS, y.sum.RPS) })
	return sorted[(len(sorted)-1)/2]
}

// rpsRange shows the slowest and the fastest round's requests per second
// of a group.
func rpsRange(g []row) string {
	if len(g) == 1 {
		return "one run"
	}
	lo, hi := g[0].sum.RPS, g[0].sum.RPS
	for _, r := range g[1:] {
		lo, hi = min(lo, r.sum.RPS), max(hi, r.sum.RPS)
	}
	return rate(lo) + "–" + rate(hi)
}

// inRound names the round of a row or a run when there are several.
func inRound(round, rounds int) string {
	if round == 0 || rounds <= 1 {
		return ""
	}
	return fmt.Sprintf(", round %d of %d", round, rounds)
}

// anchorRatios compare each Bindery's requests per second with each
// anchor's, workload by workload: a line for each pair, naming both. With
// rounds, the ratio is taken within each round, where both met the same
// state of the machine, and the line gives their median and range.
func anchorRatios(rows []row) []string {
	type cell struct{ target, key string }
	rps := map[cell]map[int]float64{}
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
		c := cell{r.target, r.key}
		if rps[c] == nil {
			rps[c] = map[int]float64{}
		}
		rps[c][r.round] = r.sum.RPS
	}
	var lines []string
	for _, a := range anchors {
		for _, b := range binderies {
			var parts []string
			for _, k := range workloadKeys {
				var ratios []float64
				for round, x := range rps[cell{b, k}] {
					if y := rps[cell{a, k}][round]; y > 0 {
						ratios = append(ratios, x/y)
					}
				}
				if len(ratios) > 0 {
					parts = append(parts, k+" "+ratioOfRounds(ratios))
				}
			}
			if len(parts) > 0 {
				lines = append(lines, fmt.Sprintf("req/s of %s ÷ %s: %s.", b, a, strings.Join(parts, ", ")))
			}
		}
	}
	return lines
}

// ratioOfRounds shows one ratio, or the median of several with their
// range.
func ratioOfRounds(ratios []float64) string {
	if len(ratios) == 1 {
		return times(ratios[0])
	}
	return fmt.Sprintf("%s (rounds: %s–%s)", times(median(ratios)),
		strings.TrimSuffix(times(slices.Min(ratios)), "×"), times(slices.Max(ratios)))
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
	// rounds is how many times the workloads under load ran.
	rounds  int
	seeding time.Duration
}

func (h header) write(w io.Writer) {
	dataset := fmt.Sprintf("Database: %s. Dataset: organization A with %d spaces; organization B with %d spaces of %d open change requests each, seeded through the API in %s.",
		h.database, h.shape.SpacesA, h.shape.SpacesB, h.shape.ChangeRequests, h.seeding.Round(100*time.Millisecond))
	if !h.seeded {
		dataset = fmt.Sprintf("Database: %s.", h.database)
	}
	rounds := ""
	if h.rounds > 1 {
		rounds = fmt.Sprintf(", in each of %d interleaved rounds", h.rounds)
	}
	lines := []string{
		fmt.Sprintf("Run on %s, %s.", h.date.Format("2006-01-02"), h.machine),
		dataset,
		fmt.Sprintf("Each workload: %s at %d requests in flight, after a %s warm-up%s; the load generator runs on the same machine.",
			h.duration, h.concurrency, h.warmup, rounds),
	}
	if !h.load {
		lines = lines[:2]
	}
	fmt.Fprintln(w, strings.Join(lines, "\n"))
}
