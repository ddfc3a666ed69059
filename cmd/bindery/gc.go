package main

import (
	"os"
	"runtime/debug"
)

// serveMemoryLimit is the soft memory limit that paces the garbage
// collector of `bindery serve` when neither GOGC nor GOMEMLIMIT is set: the
// collector runs when the Go heap reaches it, not each time the heap has
// grown by a fixed share of what is live (GOGC is off).
//
// A GraphQL answer is built from many short-lived objects over a small
// live heap (about 10 to 20 MiB under load), so a proportional target makes
// the collector run often for little: at Go's default of 100 it took about a
// third of the nested read's CPU. Measured with `make bench-load` on
// PostgreSQL (README, "Performance"), the nested read's server CPU per
// request and peak RSS: at GOGC 100, 14.4–15.6 ms and 94 MiB before fields
// read from their struct skipped gqlgen's per-field machinery; after it, at
// GOGC 150, 4.6–4.7 ms and 117 MiB; at 200 (the default until this limit),
// 4.4–4.9 ms and 115–132 MiB; at 250, 4.2–4.6 ms and 146–154 MiB. With GOGC
// off: at a 64 MiB limit, 4.3 ms and 109 MiB; at 72 MiB, 3.5 ms and 127–128
// MiB (80 MiB in the same runs: 3.4–3.7 ms and 134–135 MiB); at 100 MiB,
// 3.9 ms and 144 MiB, over the 150 MB (143 MiB) the request path allows
// (RSS also counts the binary's pages, goroutine stacks and, on SQLite, its
// page cache). 72 MiB keeps the CPU of 80 with more room under the bound.
//
// The trade: a live heap that nears the limit (a very large import in
// flight) makes the collector run more often, at most half the CPU (the
// runtime's limiter), until it shrinks. An operator with more memory raises
// GOMEMLIMIT; one who prefers the proportional target sets GOGC.
const serveMemoryLimit = 72 << 20

// tuneGC paces the collector by serveMemoryLimit unless the operator set
// GOGC (which the Go runtime has applied already, with GOMEMLIMIT if set),
// and says whether it did. An operator's GOMEMLIMIT without GOGC replaces
// serveMemoryLimit.
func tuneGC() bool {
	if _, set := os.LookupEnv("GOGC"); set {
		return false
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	debug.SetGCPercent(-1)
	return true
}
