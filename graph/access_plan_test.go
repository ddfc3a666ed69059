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

	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// Every request that decides about content runs the access statement,
// prepared once per connection on PostgreSQL and then run with a generic
// plan. Whether a stranger sees an organization must then still be a probe
// of the space_organization_id_visibility index, not a read of every space
// of the organization.
func TestAccessStatementUsesTheOpenSpaceIndex(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("the plan of a prepared statement is PostgreSQL's")
	}
	e := servertest.New(t)
	sp := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "S"}, http.StatusCreated)
	// An organization of 1,000 private spaces, with its statistics, as the
	// planner would see it in use.
	ctx := context.Background()
	cols := make([]string, 0, len(space.Columns))
	for _, c := range space.Columns {
		if c != space.FieldID {
			cols = append(cols, c)
		}
	}
	_, err := e.DB.SQL.ExecContext(ctx, fmt.Sprintf(`INSERT INTO spaces (id, %[1]s)
		SELECT 'spc_copy' || g, %[1]s FROM spaces, generate_series(1, 1000) AS g WHERE id = $1`, strings.Join(cols, ", ")), sp["id"])
	require.NoError(t, err)
	_, err = e.DB.SQL.ExecContext(ctx, "ANALYZE spaces")
	require.NoError(t, err)
	query, args := graph.AccessStatement(dialect.Postgres, store.Param(0), true, []string{store.Param(1)})
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
	assert.Regexp(t, `Index Cond: \(\(\(organization_id\)::text = \$\d+\) AND \(\(visibility\)::text = ANY`, plan.String(),
		"the open-space check probes space_organization_id_visibility for both columns:\n%s", plan.String())
}
