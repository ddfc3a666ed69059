package store

import (
	"encoding/json"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/lib/pq"
)

// AnyOf is the predicate "column is one of values" with one bind
// parameter, however many values: an array on PostgreSQL, a JSON array read
// by json_each on SQLite. A list of parameters (ent's In predicates) is
// bounded by each database's limit on them, and a long list costs several
// statements.
func AnyOf(column string, values []string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		col := s.C(column)
		if s.Dialect() == dialect.Postgres {
			s.Where(sql.P(func(b *sql.Builder) {
				b.WriteString(col).WriteString(" = ANY(").Arg(pq.StringArray(values)).WriteString(")")
			}))
			return
		}
		list, _ := json.Marshal(values) // strings always marshal
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString(col).WriteString(" IN (SELECT value FROM json_each(").Arg(string(list)).WriteString("))")
		}))
	}
}
