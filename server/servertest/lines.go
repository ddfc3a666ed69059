package servertest

import (
	"database/sql"
	"strings"
)

// Lines reads rows of one text column, such as EXPLAIN's, into a string of
// a line each, and closes them. It takes a query's results as they come:
// servertest.Lines(db.QueryContext(ctx, "EXPLAIN ...")).
func Lines(rows *sql.Rows, err error) (string, error) {
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var out strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		out.WriteString(line + "\n")
	}
	return out.String(), rows.Err()
}
