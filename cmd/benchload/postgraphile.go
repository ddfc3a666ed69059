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

// postgraphileVersion is the PostGraphile npx runs.
const postgraphileVersion = "4.14.1"

// postgraphileTags renames a column whose field would clash with
// PostGraphile's nodeId. PostGraphile reads it from its working directory.
//
//go:embed postgraphile.tags.json5
var postgraphileTags []byte

// startPostGraphile starts PostGraphile through npx on the schema of conn,
// with workers cluster workers (0 for one process), in dir.
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
	client := &http.Client{Timeout: 5 * time.Second}
	probe := func(ctx context.Context) error {
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
	// The first run downloads PostGraphile.
	if err := c.waitReady(ctx, 5*time.Minute, probe); err != nil {
		c.stop()
		return nil, "", err
	}
	return c, base, nil
}

// postgraphilePIDs returns PostGraphile's node processes under the child:
// the master and its cluster workers, not npm or the shell between.
func postgraphilePIDs(c *child) ([]int, error) {
	pids, err := descendants(c.pid(), func(argv []string) bool {
		return len(argv) > 1 && filepath.Base(argv[0]) == "node" && filepath.Base(argv[1]) == "postgraphile"
	})
	if err == nil && len(pids) == 0 {
		err = fmt.Errorf("no PostGraphile process found under process %d", c.pid())
	}
	return pids, err
}

// postgraphileNodeQuery is the point read PostGraphile generates for a
// table's primary key; its node field would take its own base64 global IDs.
const postgraphileNodeQuery = `query($id: String!) { spaceById(id: $id) { id title } }`

// postgraphileNestedQuery is Bindery's nested read in PostGraphile's names,
// with Bindery's filters and orders: spaces not deleted, oldest first; open
// change requests, newest first.
const postgraphileNestedQuery = `query($id: String!, $spaces: Int!, $changeRequests: Int!) {
  organizationById(id: $id) { id title
    spacesByOrganizationId(first: $spaces, orderBy: [CREATED_AT_ASC, ID_ASC], condition: {deletedAt: null}) { nodes { id title
      changeRequestsBySpaceId(first: $changeRequests, orderBy: [CREATED_AT_DESC, ID_DESC], condition: {status: "open"}) {
        nodes { id number subject userByCreatedById { id displayName } } } } } } }`

// postgraphileWorkloads are the GraphQL workloads in PostGraphile's terms.
// PostGraphile runs without authentication: it sees every row.
func postgraphileWorkloads(base string, d dataset, s shape) []workload {
	return []workload{
		{key: "node", target: "PostGraphile", name: "GraphQL `spaceById(id:)`",
			requests: graphqlPosts(base+"/graphql", postgraphileNodeQuery, d.SpacesA, nil),
			check:    checkGraphQL(func(b []byte) error { return checkSpace(b, "spaceById") })},
		{key: "nested", target: "PostGraphile", name: fmt.Sprintf("GraphQL organization → %d spaces → %d change requests → createdBy", s.SpacesB, s.ChangeRequests),
			requests: graphqlPosts(base+"/graphql", postgraphileNestedQuery, []string{d.OrgB},
				map[string]any{"spaces": s.SpacesB, "changeRequests": s.ChangeRequests}),
			check: checkGraphQL(func(b []byte) error { return checkPostGraphileNested(b, s) })},
	}
}

func checkPostGraphileNested(data []byte, s shape) error {
	return checkNested(data, s, nestedNames{"organizationById", "spacesByOrganizationId", "changeRequestsBySpaceId", "userByCreatedById"})
}

// countPostGraphileStatements starts a single PostGraphile process that
// connects through a counting proxy, and counts the statements of a request
// of each workload as countStatements does.
func countPostGraphileStatements(ctx context.Context, dir string, db database, ws func(base string) []workload, log io.Writer) ([]statements, error) {
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
	c, base, err := startPostGraphile(ctx, dir, conn, db.schema, 0, log)
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
