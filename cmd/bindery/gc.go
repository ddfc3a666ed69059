package main

import (
	"os"
	"runtime/debug"
)

// serveGCPercent is the garbage collector's target of `bindery serve` when
// GOGC is not set: the heap may grow to three and a half times what is live
// before a collection, where Go's default lets it double. A GraphQL answer
// is built from many short-lived objects (gqlgen allocates a field context,
// a context and a marshaller per field), so at Go's default the collector
// and its assists took about a third of the CPU of a nested read. Measured
// with `make bench-load` on PostgreSQL (README, "Performance"), the nested
// read's server CPU per request and peak RSS: at 100, 14.4–15.6 ms and 94
// MiB; at 200, 12.1 ms and 114–121 MiB; at 250, 9.0 ms and 127 MiB; at 300,
// 9.7–11.1 ms and 129–143 MiB, too near the 150 MB the request path allows.
const serveGCPercent = 250

// tuneGC applies serveGCPercent unless the operator set GOGC (which the Go
// runtime has applied already), and says whether it did.
func tuneGC() bool {
	if _, set := os.LookupEnv("GOGC"); set {
		return false
	}
	debug.SetGCPercent(serveGCPercent)
	return true
}
