package main

import (
	"os"
	"runtime/debug"
)

// serveGCPercent is the garbage collector's target of `bindery serve` when
// GOGC is not set: the heap may grow to four times what is live before a
// collection, where Go's default lets it double. A GraphQL answer is built
// from many short-lived objects (gqlgen allocates a field context, a context
// and a marshaller per field), so at Go's default the collector and its
// assists took about a third of the CPU of a nested read. Measured with
// `make bench-load` on PostgreSQL, two rounds each (README, "Performance"):
// the nested read's server CPU went from 14.4–15.6 ms to 9.7–11.1 ms per
// request and its peak RSS from 94 to 133 MiB; 200 gave 12.1 ms and 114 MiB.
const serveGCPercent = 300

// tuneGC applies serveGCPercent unless the operator set GOGC (which the Go
// runtime has applied already), and says whether it did.
func tuneGC() bool {
	if _, set := os.LookupEnv("GOGC"); set {
		return false
	}
	debug.SetGCPercent(serveGCPercent)
	return true
}
