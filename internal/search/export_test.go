package search

import (
	"context"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// LooksUpOnce reports whether an organization search for q on PostgreSQL
// looks its words up once for the organization, rather than in each space.
func LooksUpOnce(ctx context.Context, drv dialect.Driver, q Query) (bool, error) {
	var args []any
	sq := "SELECT " + postgres{}.fewMatches(q, &args)
	var rows entsql.Rows
	if err := drv.Query(ctx, sq, args, &rows); err != nil {
		return false, err
	}
	defer rows.Close()
	var once bool
	if rows.Next() {
		if err := rows.Scan(&once); err != nil {
			return false, err
		}
	}
	return once, rows.Err()
}
