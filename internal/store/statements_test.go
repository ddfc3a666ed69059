package store

import (
	"context"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
)

func TestPadIDs(t *testing.T) {
	assert.Equal(t, []string{"a"}, PadIDs([]string{"a"}))
	assert.Equal(t, []string{"a", "b"}, PadIDs([]string{"a", "b"}))
	assert.Equal(t, []string{"a", "b", "c", "c"}, PadIDs([]string{"a", "b", "c"}))
	assert.Len(t, PadIDs(make([]string, 600)), 1024)
	assert.Empty(t, PadIDs(nil))
}

// runDriver records what it is asked to run, and answers no rows.
type runDriver struct {
	dialect.Driver
	name    string
	queries []string
	args    [][]any
}

func (d *runDriver) Dialect() string { return d.name }

func (d *runDriver) Query(_ context.Context, query string, args, _ any) error {
	d.queries = append(d.queries, query)
	d.args = append(d.args, args.([]any))
	return nil
}

// A statement is built once per key and dialect; each run passes its own
// arguments where the params stood and keeps the constants.
func TestStatementsBuildOncePerShape(t *testing.T) {
	s := NewStatements()
	builds := 0
	build := Selector(func(d string) sql.Querier {
		builds++
		return sql.Dialect(d).Select("id").From(sql.Table("spaces")).
			Where(sql.And(sql.EQ("organization_id", Param(1)), sql.EQ("visibility", "public"), sql.EQ("id", Param(0))))
	})
	pg := &runDriver{name: dialect.Postgres}
	for _, id := range []string{"spc_1", "spc_2"} {
		_, err := s.Query(context.Background(), pg, "probe", build, id, "org_1")
		require.NoError(t, err)
	}
	assert.Equal(t, 1, builds)
	assert.Equal(t, `SELECT "id" FROM "spaces" WHERE "organization_id" = $1 AND "visibility" = $2 AND "id" = $3`, pg.queries[1])
	assert.Equal(t, [][]any{{"org_1", "public", "spc_1"}, {"org_1", "public", "spc_2"}}, pg.args)

	lite := &runDriver{name: dialect.SQLite}
	_, err := s.Query(context.Background(), lite, "probe", build, "spc_3", "org_1")
	require.NoError(t, err)
	assert.Equal(t, 2, builds, "another dialect is another statement")
	assert.Contains(t, lite.queries[0], "`id` = ?")

	_, err = s.Query(context.Background(), pg, "probe", build, "spc_4")
	assert.ErrorContains(t, err, "argument 1 of 1", "a run with too few arguments fails before reaching the database")
}

// An ent query is recorded as ent would send it, and not run.
func TestQueryRecordsAnEntQuery(t *testing.T) {
	q, args, err := Query(func(ctx context.Context, c *ent.Client) error {
		_, err := c.Space.Query().Where(space.IDIn(Params(2)...)).All(ctx)
		return err
	})(dialect.Postgres)
	require.NoError(t, err)
	assert.Contains(t, q, `FROM "spaces" WHERE "spaces"."id" IN ($1, $2)`)
	assert.Equal(t, []any{Param(0), Param(1)}, args)

	_, _, err = Query(func(context.Context, *ent.Client) error { return nil })(dialect.Postgres)
	assert.ErrorContains(t, err, "no statement")
}
