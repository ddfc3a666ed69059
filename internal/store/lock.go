package store

import (
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// ForNoKeyUpdate locks the selected rows until the transaction ends, on
// PostgreSQL, without blocking inserts of rows that reference them. SQLite
// runs one writing transaction at a time, so it needs no row lock.
func ForNoKeyUpdate(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.For(sql.LockNoKeyUpdate)
	}
}
