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
	"github.com/bindery/bindery/internal/auth"
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
	plan := genericPlan(t, e, query, args, func(a any) string {
		switch a {
		case store.Param(0):
			return e.Owner.ID
		case store.Param(1):
			return e.Org.ID
		}
		return fmt.Sprint(a)
	})
	assert.Regexp(t, `Index Cond: \(\(\(organization_id\)::text = \$\d+\) AND \(\(visibility\)::text = ANY`, plan,
		"the open-space check probes space_organization_id_visibility for both columns:\n%s", plan)
}

// The token statement runs on every request, and the access statement for
// a user other than the viewer: each must find its rows through indexes,
// whatever the tables hold. A sequential scan of content_grants (an OR of
// a user's grants and their teams') took the token statement from 0.08 ms
// to 4 ms at 50,000 grants. With sequential scans disabled, the planner
// still chooses one only where no index can serve.
func TestTokenAndFactsStatementsReadByIndex(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("the plan of a prepared statement is PostgreSQL's")
	}
	e := servertest.New(t)
	viewer, args := graph.ViewerStatement(dialect.Postgres)
	token, tokenArgs := graph.ViewerTokenStatement(dialect.Postgres)
	facts, factArgs := graph.AccessStatement(dialect.Postgres, store.Param(0), true, nil)
	for name, st := range map[string]struct {
		query string
		args  []any
		param string
	}{
		"token":       {viewer, args, auth.HashToken(e.OwnerToken)},
		"token alone": {token, tokenArgs, auth.HashToken(e.OwnerToken)},
		"facts":       {facts, factArgs, e.Owner.ID},
	} {
		plan := genericPlan(t, e, st.query, st.args, func(a any) string {
			if a == store.Param(0) {
				return st.param
			}
			return fmt.Sprint(a)
		}, "SET enable_seqscan = off")
		assert.NotContains(t, plan, "Seq Scan", "the %s statement reads a table without an index:\n%s", name, plan)
	}
}

// genericPlan prepares query on a connection of e's database and returns
// the generic plan PostgreSQL would keep for it, with the arguments arg
// gives for args; settings run first on that connection.
func genericPlan(t *testing.T, e *servertest.Env, query string, args []any, arg func(any) string, settings ...string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := e.DB.SQL.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	// The connection goes back to the pool as it came.
	defer func() {
		for _, s := range []string{"DEALLOCATE planned", "RESET ALL"} {
			_, err := conn.ExecContext(ctx, s)
			assert.NoError(t, err)
		}
	}()
	for _, s := range append([]string{"SET plan_cache_mode = force_generic_plan"}, settings...) {
		_, err = conn.ExecContext(ctx, s)
		require.NoError(t, err)
	}
	_, err = conn.ExecContext(ctx, "PREPARE planned AS "+query)
	require.NoError(t, err)
	params := make([]string, len(args))
	for i, a := range args {
		params[i] = "'" + strings.ReplaceAll(arg(a), "'", "''") + "'"
	}
	plan, err := servertest.Lines(conn.QueryContext(ctx, "EXPLAIN EXECUTE planned("+strings.Join(params, ", ")+")"))
	require.NoError(t, err)
	return plan
}
