package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/visitor"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/server/servertest"
)

// dsn returns a fresh database for one test.
func dsn(t *testing.T) string { return servertest.FreshDSN(t) }

func runCLI(t *testing.T, env map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string { return env[k] }
	err := run(context.Background(), append([]string{"bindery"}, args...), getenv, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

var orgID = regexp.MustCompile(`^org_[0-9A-Za-z]{20}\n$`)

func TestOrgAndTokenCreate(t *testing.T) {
	t.Parallel()
	db := dsn(t)

	out, said, err := runCLI(t, nil, "org", "create", "--db", db, "--title", "Docs Team", "--owner", "Ada@Example.com")
	require.NoError(t, err)
	require.Regexp(t, orgID, out, "only the organization ID on stdout")
	org := strings.TrimSpace(out)
	assert.Equal(t, `created the organization "Docs Team" (`+org+"), owned by Ada@Example.com\n", said)

	tok, said, err := runCLI(t, nil, "token", "create", "--db", db, "--email", "bob@example.com", "--org", org, "--role", "edit")
	require.NoError(t, err)
	assert.Equal(t, "created an API token for bob@example.com, a member of "+org+" with the role edit; it does not expire\n", said)
	tok = strings.TrimSpace(tok)
	assert.True(t, auth.WellFormed(tok, auth.TokenPrefix), "only a token on stdout: %q", tok)

	// Re-running with another role updates the membership instead of failing.
	_, _, err = runCLI(t, nil, "token", "create", "--db", db, "--email", "bob@example.com", "--org", org, "--role", "read")
	require.NoError(t, err)

	s, err := store.Open(context.Background(), db)
	require.NoError(t, err)
	defer s.Close()
	members, err := s.Client.Member.Query().WithUser().All(context.Background())
	require.NoError(t, err)
	roles := map[string]string{}
	for _, m := range members {
		roles[m.Edges.User.Email] = string(*m.Role)
	}
	assert.Equal(t, map[string]string{"ada@example.com": "admin", "bob@example.com": "read"}, roles)

	// A token without --org just creates the user.
	tok2, _, err := runCLI(t, nil, "token", "create", "--db", db, "--email", "carol@example.com")
	require.NoError(t, err)
	assert.True(t, auth.WellFormed(strings.TrimSpace(tok2), auth.TokenPrefix))
}

func TestCommandErrors(t *testing.T) {
	t.Parallel()
	db := dsn(t)
	for name, args := range map[string][]string{
		"unknown command":      {"frobnicate"},
		"org without owner":    {"org", "create", "--db", db, "--title", "X Y"},
		"org with short title": {"org", "create", "--db", db, "--title", "X", "--owner", "a@example.com"},
		"token without email":  {"token", "create", "--db", db},
		"token with bad role":  {"token", "create", "--db", db, "--email", "a@example.com", "--org", "org_x", "--role", "owner"},
		"token with org only":  {"token", "create", "--db", db, "--email", "a@example.com", "--org", "org_x"},
		"token in unknown org": {"token", "create", "--db", db, "--email", "a@example.com", "--org", "org_x", "--role", "read"},
		"token with bad email": {"token", "create", "--db", db, "--email", "not-an-email"},
		"serve with bad flag":  {"serve", "--bogus"},
	} {
		t.Run(name, func(t *testing.T) {
			out, _, err := runCLI(t, nil, args...)
			assert.Error(t, err)
			assert.Empty(t, out, "nothing on stdout on failure")
		})
	}
}

// bindery alone prints its usage on stdout and succeeds, as help does; an
// unknown command is a usage error, which main exits 2 for.
func TestNoCommandPrintsUsage(t *testing.T) {
	t.Parallel()
	out, errOut, err := runCLI(t, nil)
	require.NoError(t, err)
	assert.Contains(t, out, "Usage:")
	assert.Empty(t, errOut)
	_, _, err = runCLI(t, nil, "frobnicate")
	assert.ErrorIs(t, err, errUsage)
}

// A failed org create leaves nothing behind: the owner is created in the
// organization's transaction.
func TestOrgCreateIsAtomic(t *testing.T) {
	t.Parallel()
	db := dsn(t)
	_, _, err := runCLI(t, nil, "org", "create", "--db", db, "--title", "X", "--owner", "ada@example.com")
	require.Error(t, err, "the title is too short")

	s, err := store.Open(context.Background(), db)
	require.NoError(t, err)
	defer s.Close()
	n, err := s.Client.User.Query().Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "no owner without an organization")
}

func TestRoutesListsEveryRoute(t *testing.T) {
	out, _, err := runCLI(t, nil, "routes")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, rest.RouteList(), lines)
	for _, want := range []string{"GET /v1/spaces/{spaceId}", "POST /v1/collections/{collectionId}/transfer", "PATCH /v1/orgs/{organizationId}",
		"GET /v1/spaces/{spaceId}/content/path/{pagePath}"} {
		assert.Contains(t, lines, want)
	}
}

// The machine-readable description comes from the same table as the text.
func TestRoutesAsJSON(t *testing.T) {
	out, _, err := runCLI(t, nil, "routes", "--json")
	require.NoError(t, err)
	var ops []rest.Operation
	require.NoError(t, json.Unmarshal([]byte(out), &ops), out)
	assert.Equal(t, rest.Operations(), ops)
	require.Len(t, ops, len(rest.RouteList()))
	for i, op := range ops {
		assert.Equal(t, rest.RouteList()[i], op.Method+" "+op.Path)
	}
	var raw []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	assert.Contains(t, raw, map[string]any{"method": "DELETE", "path": "/v1/spaces/{spaceId}", "operationId": "deleteSpaceById", "status": 204.0})
	assert.Contains(t, raw, map[string]any{"method": "POST", "path": "/v1/orgs/{organizationId}/spaces", "operationId": "createSpace", "status": 201.0,
		"unsupported": []any{"template", "computedSource"}})
	// The members that take null, which removes their value.
	assert.Contains(t, raw, map[string]any{"method": "POST", "path": "/v1/spaces/{spaceId}/move", "operationId": "moveSpace", "status": 200.0,
		"nullable": []any{"parent", "position"}})
	// Bindery's own operations say so.
	assert.Contains(t, raw, map[string]any{"method": "GET", "path": "/v1/orgs/{organizationId}/webhooks",
		"operationId": "listWebhookEndpoints", "status": 200.0, "extension": true})

	_, _, err = runCLI(t, nil, "routes", "--yaml")
	assert.ErrorIs(t, err, errUsage)
	_, _, err = runCLI(t, nil, "routes", "extra")
	assert.ErrorIs(t, err, errUsage)
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	db := dsn(t)
	out, _, err := runCLI(t, nil, "migrate", "--db", db)
	require.NoError(t, err)
	assert.Regexp(t, `^applied \d{14}_baseline\.sql\n`, out)
	out, _, err = runCLI(t, nil, "migrate", "--db", db)
	require.NoError(t, err)
	assert.Equal(t, "the database is up to date\n", out)
}

// --status lists what is applied and pending, --dry-run prints the SQL
// that would run; neither changes the database.
func TestMigrateStatusAndDryRun(t *testing.T) {
	t.Parallel()
	db := dsn(t)
	baseline := regexp.MustCompile(`\d{14}_baseline\.sql`)

	out, _, err := runCLI(t, nil, "migrate", "--db", db, "--status")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^pending  `+baseline.String()+`$`, out)
	assert.Regexp(t, `(?m)^0 applied, \d+ pending$`, out)

	out, _, err = runCLI(t, nil, "migrate", "--db", db, "--dry-run")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^-- `+baseline.String()+`$`, out)
	assert.Contains(t, out, "CREATE TABLE")
	assert.Contains(t, out, "search_pages", "the search index is in the baseline")

	out, _, err = runCLI(t, nil, "migrate", "--db", db, "--status")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^0 applied, \d+ pending$`, out, "--status and --dry-run changed nothing")

	_, _, err = runCLI(t, nil, "migrate", "--db", db)
	require.NoError(t, err)
	out, _, err = runCLI(t, nil, "migrate", "--db", db, "--status")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^applied  `+baseline.String()+`  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`, out)
	assert.Regexp(t, `(?m)^\d+ applied, 0 pending$`, out)
	out, _, err = runCLI(t, nil, "migrate", "--db", db, "--dry-run")
	require.NoError(t, err)
	assert.Equal(t, "-- nothing to apply: the database is up to date\n", out, "nothing to run, and it says so")

	_, _, err = runCLI(t, nil, "migrate", "--db", db, "--status", "--dry-run")
	assert.ErrorIs(t, err, errUsage)
}

// TestServeSeedsAndShutsDown starts the real server from the environment,
// reads the first-start token from the log, uses it, and stops the server
// through its context, as SIGTERM does.
func TestServeSeedsAndShutsDown(t *testing.T) {
	t.Parallel()
	db := dsn(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()

	ctx, cancel := context.WithCancel(context.Background())
	var stderr servertest.SyncBuffer
	done := make(chan error, 1)
	env := map[string]string{"BINDERY_ADDR": addr, "BINDERY_DATABASE_URL": db, "BINDERY_LOG_FORMAT": "text",
		"BINDERY_DRAIN_DELAY": "1s"}
	tokenFile := filepath.Join(t.TempDir(), "bindery.db.token")
	go func() {
		done <- run(ctx, []string{"bindery", "serve", "--token-file", tokenFile}, func(k string) string { return env[k] }, &bytes.Buffer{}, &stderr)
	}()

	var token string
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`token=(bnd_[0-9A-Za-z]+)`).FindStringSubmatch(stderr.String())
		if m != nil {
			token = m[1]
		}
		res, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			res.Body.Close()
		}
		return token != "" && err == nil && res.StatusCode == 200
	}, 90*time.Second, 50*time.Millisecond, stderr.String())

	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/v1/orgs", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	// The first start's token is kept in the token file, for its owner only.
	kept, err := os.ReadFile(tokenFile)
	require.NoError(t, err)
	assert.Equal(t, token+"\n", string(kept))
	info, err := os.Stat(tokenFile)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	// Draining: /readyz answers 503 while the listener is still open.
	cancel()
	require.Eventually(t, func() bool {
		res, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		return res.StatusCode == http.StatusServiceUnavailable
	}, 900*time.Millisecond, 10*time.Millisecond, "/readyz turns 503 as soon as shutdown starts")
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(90 * time.Second):
		t.Fatal("the server did not shut down")
	}
	assert.Contains(t, stderr.String(), "shutting down")
	assert.Regexp(t, `msg="migrated the database" applied="?\[\d{14}_baseline\.sql`, stderr.String(), "the first start migrated the fresh database")

	// A second start on the same database does not seed again, and shows
	// the kept token instead of minting another.
	ctx2, cancel2 := context.WithCancel(context.Background())
	var stderr2 servertest.SyncBuffer
	delete(env, "BINDERY_DRAIN_DELAY")
	go func() {
		done <- run(ctx2, []string{"bindery", "serve", "--token-file", tokenFile}, func(k string) string { return env[k] }, &bytes.Buffer{}, &stderr2)
	}()
	require.Eventually(t, func() bool { return strings.Contains(stderr2.String(), "bindery is serving") }, 90*time.Second, 50*time.Millisecond)
	cancel2()
	require.NoError(t, <-done)
	assert.NotContains(t, stderr2.String(), "demo organization")
	assert.NotContains(t, stderr2.String(), "migrated the database", "the second start had nothing to migrate")
	assert.Contains(t, stderr2.String(), "from the token file")
	assert.Contains(t, stderr2.String(), "token="+token)
}

// A start on a port that is taken fails before it opens the database or
// mints a token.
func TestServeFailsFirstOnATakenPort(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	db := filepath.Join(t.TempDir(), "bindery.db")
	_, stderr, err := runCLI(t, map[string]string{"BINDERY_ADDR": ln.Addr().String(), "BINDERY_DATABASE_URL": db}, "serve")
	require.ErrorContains(t, err, "listening")
	assert.NoFileExists(t, db)
	assert.NotContains(t, stderr, "token=")
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"serve", "--help"}, {"migrate", "-h"}, {"token", "create", "--help"}, {"help"}} {
		_, _, err := runCLI(t, nil, args...)
		assert.NoError(t, err, "%v exits 0", args)
	}
	out, _, err := runCLI(t, nil, "version")
	require.NoError(t, err)
	assert.Regexp(t, `^bindery \S+\ncommit \S+`, out)
	assert.Contains(t, out, "go "+runtime.Version())
}

// TestSearchReindex indexes the content of a database whose index lacks it,
// as one from before search does.
func TestSearchReindex(t *testing.T) {
	t.Parallel()
	db := dsn(t)
	out, _, err := runCLI(t, nil, "org", "create", "--db", db, "--title", "Docs Team", "--owner", "ada@example.com")
	require.NoError(t, err)
	org := strings.TrimSpace(out)
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	require.NoError(t, err)
	defer s.Close()
	cfg := config.Default()
	require.NoError(t, cfg.Finish())
	owner := s.Client.User.Query().OnlyX(ctx)
	r := graph.New(s.Client, cfg)
	vctx := r.WithLoaders(auth.WithViewer(ctx, &auth.Viewer{User: owner}))
	title, live := "Handbook", enum.EditModeLive
	sp, err := r.Mutation().CreateSpace(vctx, model.CreateSpaceInput{OrganizationID: org, Title: &title, EditMode: &live})
	require.NoError(t, err)
	md := "Bread needs flour."
	_, err = r.Mutation().CreatePage(vctx, model.CreatePageInput{SpaceID: &sp.Space.ID, Title: "Baking", Markdown: &md})
	require.NoError(t, err)
	found := func() int {
		c, err := r.Space().Search(r.WithLoaders(auth.WithViewer(ctx, &auth.Viewer{User: owner})), sp.Space, "flour", nil, nil, nil, nil)
		require.NoError(t, err)
		return len(c.Edges())
	}
	require.Equal(t, 1, found())
	_, err = s.SQL.ExecContext(ctx, "DELETE FROM search_pages")
	require.NoError(t, err)
	require.Equal(t, 0, found(), "an index from before search")

	out, said, err := runCLI(t, nil, "search", "reindex", "--db", db)
	require.NoError(t, err)
	assert.Equal(t, "1\n", out, "the number of spaces")
	assert.Equal(t, "reindexed the current content of 1 space\n", said)
	assert.Equal(t, 1, found())
	out, _, err = runCLI(t, nil, "search", "reindex", "--db", db)
	require.NoError(t, err, "again, with nothing to do")
	assert.Equal(t, "1\n", out)
	assert.Equal(t, 1, found())
}

// A kept token that no longer signs the owner in is replaced by a new one,
// which expires after the token TTL.
func TestOwnerTokenIsMintedAgainWhenTheKeptOneFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := openMigrated(ctx, dsn(t))
	require.NoError(t, err)
	defer db.Close()
	cfg := config.Default()
	require.NoError(t, cfg.Finish())
	r := graph.New(db.Client, cfg)
	file := filepath.Join(t.TempDir(), "bindery.db.token")
	require.NoError(t, os.WriteFile(file, []byte("bnd_revokedorneverissued0000000000000000\n"), 0o644))
	var logs bytes.Buffer
	require.NoError(t, ownerToken(ctx, r, db, false, file, 48*time.Hour, newLogger(cfg, &logs)))

	kept, err := os.ReadFile(file)
	require.NoError(t, err)
	token := strings.TrimSpace(string(kept))
	assert.Contains(t, logs.String(), token)
	v, err := r.Authenticate(ctx, token, time.Now())
	require.NoError(t, err)
	assert.Equal(t, ownerEmail, v.User.Email)
	_, err = r.Authenticate(ctx, token, time.Now().Add(49*time.Hour))
	assert.Error(t, err, "the new token expires after the TTL")
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	// Kept and working: shown again, not replaced.
	logs.Reset()
	require.NoError(t, ownerToken(ctx, r, db, false, file, 48*time.Hour, newLogger(cfg, &logs)))
	again, _ := os.ReadFile(file)
	assert.Equal(t, string(kept), string(again))
	assert.Contains(t, logs.String(), "from the token file")
}

// The demo seed publishes an adaptive site, and `site visitor-link` signs
// a link that admits a visitor with the claims given.
func TestVisitorLinkOfTheDemoSite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := dsn(t)
	db, err := openMigrated(ctx, dbURL)
	require.NoError(t, err)
	defer db.Close()
	cfg := config.Default()
	require.NoError(t, cfg.Finish())
	r := graph.New(db.Client, cfg)
	seeded, err := r.Seed(ctx, "owner@bindery.local", nil, db.LockSeed)
	require.NoError(t, err)
	require.True(t, seeded.Site.Published)
	assert.Equal(t, cfg.PublicURL+"/sites/"+seeded.Site.ID+"/", seeded.SiteURL)

	out, _, err := runCLI(t, nil, "site", "visitor-link", "--db", dbURL, "--site", seeded.Site.ID, "--claims", `{"plan":"enterprise"}`)
	require.NoError(t, err)
	link, err := url.Parse(strings.TrimSpace(out))
	require.NoError(t, err)
	assert.Equal(t, "/sites/"+seeded.Site.ID+"/", link.Path)
	key := db.Client.Site.GetX(store.InternalRead(ctx, "the test reads the key"), seeded.Site.ID).VisitorAuthPrivateKey
	require.NotNil(t, key)
	claims, err := visitor.Claims(link.Query().Get("jwt_token"), key, time.Now)
	require.NoError(t, err)
	assert.Equal(t, "enterprise", claims["plan"])

	_, _, err = runCLI(t, nil, "site", "visitor-link", "--db", dbURL, "--site", seeded.Site.ID, "--claims", `[1]`)
	assert.ErrorIs(t, err, errUsage)
	_, _, err = runCLI(t, nil, "site", "visitor-link", "--db", dbURL, "--site", "site_missing")
	assert.ErrorContains(t, err, "not found")
}
