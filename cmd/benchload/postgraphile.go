package main

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// postgraphileVersion is the PostGraphile 4 npx runs.
const postgraphileVersion = "4.14.1"

// postgraphileTags renames a column whose field would clash with
// PostGraphile 4's nodeId. PostGraphile 4 reads it from its working
// directory.
//
//go:embed postgraphile.tags.json5
var postgraphileTags []byte

// startPostGraphile starts PostGraphile 4 through npx on the schema of
// conn, with workers cluster workers (0 for one process), in dir.
func startPostGraphile(ctx context.Context, dir, conn, schema string, workers int, log io.Writer) (*child, string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "postgraphile.tags.json5"), postgraphileTags, 0o644); err != nil {
		return nil, "", err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, "", err
	}
	argv := []string{"npx", "-y", "postgraphile@" + postgraphileVersion, "-c", conn, "--schema", schema,
		"--host", "127.0.0.1", "--port", strconv.Itoa(portOf(addr)),
		"--disable-graphiql", "--no-setof-functions-contain-nulls", "--disable-query-log"}
	if workers > 0 {
		argv = append(argv, "--cluster-workers", strconv.Itoa(workers))
	}
	c, err := start("postgraphile", dir, []string{"NODE_ENV=production"}, log, true, argv...)
	if err != nil {
		return nil, "", err
	}
	base := "http://" + addr
	// The first run downloads PostGraphile.
	if err := c.waitReady(ctx, 5*time.Minute, probeGraphQL(base)); err != nil {
		c.stop()
		return nil, "", err
	}
	return c, base, nil
}

// probeGraphQL returns a readiness probe: a GraphQL server at base answers
// {__typename}.
func probeGraphQL(base string) func(context.Context) error {
	client := &http.Client{Timeout: 5 * time.Second}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/graphql", strings.NewReader(`{"query":"{__typename}"}`))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP %d", res.StatusCode)
		}
		return nil
	}
}

// nodePIDs returns the Node.js processes running script under the child: a
// PostGraphile's primary and its cluster workers, not npm or the shell
// between.
func nodePIDs(c *child, script string) ([]int, error) {
	pids, err := descendants(c.pid(), func(argv []string) bool {
		return len(argv) > 1 && filepath.Base(argv[0]) == "node" && filepath.Base(argv[1]) == script
	})
	if err == nil && len(pids) == 0 {
		err = fmt.Errorf("no Node.js process running %s found under process %d", script, c.pid())
	}
	return pids, err
}

// postgraphileNodeQuery is the point read PostGraphile 4 generates for a
// table's primary key; its node field would take its own base64 global IDs.
const postgraphileNodeQuery = `query($id: String!) { spaceById(id: $id) { id title } }`

// postgraphileNestedQuery is Bindery's nested read in PostGraphile 4's
// names, with Bindery's filters and orders: spaces not deleted, oldest
// first; open change requests, newest first.
const postgraphileNestedQuery = `query($id: String!, $spaces: Int!, $changeRequests: Int!) {
  organizationById(id: $id) { id title
    spacesByOrganizationId(first: $spaces, orderBy: [CREATED_AT_ASC, ID_ASC], condition: {deletedAt: null}) { nodes { id title
      changeRequestsBySpaceId(first: $changeRequests, orderBy: [CREATED_AT_DESC, ID_DESC], condition: {status: "open"}) {
        nodes { id number subject userByCreatedById { id displayName } } } } } } }`

// postgraphile4Names are PostGraphile 4's names of the fields the GraphQL
// workloads read.
var postgraphile4Names = graphqlNames{node: "spaceById", nested: nestedNames{
	organization: "organizationById", spaces: "spacesByOrganizationId",
	changeRequests: "changeRequestsBySpaceId", createdBy: "userByCreatedById", id: "id"}}

// graphqlNames are a server's names of the GraphQL workloads' fields: the
// point read's, and the nested read's with the primary key's.
type graphqlNames struct {
	node   string
	nested nestedNames
}

// postgraphileWorkloads are the GraphQL workloads in a PostGraphile's terms:
// its queries and names, under its label. PostGraphile runs without
// authentication: it sees every row.
func postgraphileWorkloads(label, base, nodeQuery, nestedQuery string, names graphqlNames, d dataset, s shape) []workload {
	id := names.nested.id
	return []workload{
		{key: "node", target: label, name: "GraphQL `" + names.node + "(" + id + ":)`",
			requests: graphqlPosts(base+"/graphql", nodeQuery, d.SpacesA, nil),
			check:    checkGraphQL(func(b []byte) error { return checkSpace(b, names.node, id) })},
		{key: "nested", target: label, name: fmt.Sprintf("GraphQL organization → %d spaces → %d change requests → createdBy", s.SpacesB, s.ChangeRequests),
			requests: graphqlPosts(base+"/graphql", nestedQuery, []string{d.OrgB},
				map[string]any{"spaces": s.SpacesB, "changeRequests": s.ChangeRequests}),
			check: checkGraphQL(func(b []byte) error { return checkNested(b, s, names.nested) })},
	}
}

// anchor is a PostGraphile that the GraphQL workloads run against beside
// Bindery, on the same schema, for comparison.
type anchor struct {
	// label names it in the report, with its major version; version is
	// the exact version it runs.
	label, version string
	// start starts it on the schema of conn, with workers worker
	// processes (0 for one process).
	start func(ctx context.Context, conn, schema string, workers int, log io.Writer) (*child, string, error)
	// pids returns its processes under the child it started.
	pids func(*child) ([]int, error)
	// workloads are the GraphQL workloads in its names, against base.
	workloads func(base string, d dataset, s shape) []workload
}

// postgraphile4 is PostGraphile 4 run by npx in dir.
func postgraphile4(dir string) anchor {
	return anchor{label: "PostGraphile 4", version: postgraphileVersion,
		start: func(ctx context.Context, conn, schema string, workers int, log io.Writer) (*child, string, error) {
			return startPostGraphile(ctx, dir, conn, schema, workers, log)
		},
		pids: func(c *child) ([]int, error) { return nodePIDs(c, "postgraphile") },
		workloads: func(base string, d dataset, s shape) []workload {
			return postgraphileWorkloads("PostGraphile 4", base, postgraphileNodeQuery, postgraphileNestedQuery, postgraphile4Names, d, s)
		}}
}

// countPostGraphileStatements starts a single process of the anchor that
// connects through a counting proxy, and counts the statements of a request
// of each workload as countStatements does.
func countPostGraphileStatements(ctx context.Context, a anchor, db database, ws func(base string) []workload, log io.Writer) ([]statements, error) {
	upstream, err := hostOf(db.postgres)
	if err != nil {
		return nil, err
	}
	proxy, err := startPGCounter(upstream)
	if err != nil {
		return nil, err
	}
	defer proxy.close()
	conn, err := withHost(db.postgres, proxy.addr())
	if err != nil {
		return nil, err
	}
	c, base, err := a.start(ctx, conn, db.schema, 0, log)
	if err != nil {
		return nil, err
	}
	defer c.stop()
	client := &http.Client{Timeout: time.Minute}
	var out []statements
	for _, w := range ws(base) {
		var buf bytes.Buffer
		var st statements
		for k := 0; k <= countedRequests; k++ {
			proxy.statements.Store(0)
			if p := send(ctx, client, &w, w.requests[0], &buf); p != "" {
				return nil, fmt.Errorf("counting the statements of %s %s: %s", w.target, w.name, p)
			}
			if k > 0 {
				st = st.add(proxy.statements.Load(), 0, k == 1)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// hostOf returns the host:port of a PostgreSQL URL, with the default port.
func hostOf(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("the PostgreSQL URL names no host: PostGraphile needs TCP")
	}
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}
