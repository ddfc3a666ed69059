package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// Every request that decides about content runs the access statement,
// prepared once per connection on PostgreSQL and then run with a generic
// plan. Whether a stranger sees an organization must then still be one
// probe of the space_open_organization_id index, not a read of every space
// of the organization: a generic plan uses a partial index only when the
// statement itself writes the index's predicate.
func TestAccessStatementUsesTheOpenSpaceIndex(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("the plan of a prepared statement is PostgreSQL's")
	}
	e := servertest.New(t)
	for i := range 3 {
		e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": fmt.Sprint("S", i)}, http.StatusCreated)
	}
	query, args := graph.AccessStatement(dialect.Postgres, store.Param(0), true, []string{store.Param(1)})
	ctx := context.Background()
	conn, err := e.DB.SQL.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "SET plan_cache_mode = force_generic_plan")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "PREPARE access AS "+query)
	require.NoError(t, err)
	params := make([]string, len(args))
	for i, a := range args {
		switch a {
		case store.Param(0):
			params[i] = "'" + e.Owner.ID + "'"
		case store.Param(1):
			params[i] = "'" + e.Org.ID + "'"
		default:
			params[i] = fmt.Sprintf("'%v'", a)
		}
	}
	rows, err := conn.QueryContext(ctx, "EXPLAIN EXECUTE access("+strings.Join(params, ", ")+")")
	require.NoError(t, err)
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		plan.WriteString(line + "\n")
	}
	require.NoError(t, rows.Err())
	assert.Contains(t, plan.String(), "space_open_organization_id", plan.String())
}
