// Package clock is the clock of stored timestamps. The ent schema's
// defaults and the application layer read the same one, so a value written
// by either compares equal with the other's.
package clock

import "time"

// Now is the current time as Bindery stores it: UTC, truncated to
// milliseconds, so a timestamp reads back identically from SQLite and
// PostgreSQL and prints the same in /v1 and GraphQL.
func Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
