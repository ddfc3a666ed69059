package main

import (
	"os"
	"runtime/debug"
)

// serveGCPercent is the garbage collector's target of `bindery serve` when
// GOGC is not set: the heap may grow to three times what is live before a
// collection, where Go's default lets it double. A GraphQL answer is built
// from many short-lived objects, so at Go's default the collector and its
// assists took about a third of the CPU of a nested read.
//
// Measured with `make bench-load` on PostgreSQL (README, "Performance"),
// the nested read's server CPU per request and peak RSS. Before fields read
// from their struct skipped gqlgen's per-field machinery: at 100, 14.4–15.6
// ms and 94 MiB; at 200, 12.1 ms and 114–121 MiB; at 250, 9.0 ms and 127
// MiB; at 300, 9.7–11.1 ms and 129–143 MiB. After it, answers are made
// faster and the heap peaks higher at the same target: at 150, 4.6–4.7 ms
// and 117 MiB; at 200, 4.4–4.9 ms and 130–132 MiB; at 250, 4.2–4.6 ms and
// 146–154 MiB, over the 150 MB (143 MiB) the request path allows.
const serveGCPercent = 200

// tuneGC applies serveGCPercent unless the operator set GOGC (which the Go
// runtime has applied already), and says whether it did.
func tuneGC() bool {
	if _, set := os.LookupEnv("GOGC"); set {
		return false
	}
	debug.SetGCPercent(serveGCPercent)
	return true
}
