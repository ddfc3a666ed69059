package main

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// bench is a Bindery server on a fresh database, as the benchmark sees it.
type bench struct {
	dsn      string
	db       *store.DB
	fixtures *ent.Client
	http     *httptest.Server
}

func newBench(t *testing.T) *bench {
	t.Helper()
	b := &bench{dsn: servertest.MigratedDSN(t)}
	var err error
	b.db, err = store.Open(context.Background(), b.dsn)
	require.NoError(t, err)
	t.Cleanup(func() { b.db.Close() })
	b.fixtures = b.db.NewClient()
	srv, err := inProcessServer(b.db)
	require.NoError(t, err)
	b.http = httptest.NewServer(srv)
	t.Cleanup(b.http.Close)
	return b
}

// token does what bindery token create does: a user, optionally a member
// of an organization, and a token.
func (b *bench) token(ctx context.Context, email, orgID string, role enum.Role) (string, error) {
	u, err := graph.EnsureUser(ctx, b.fixtures, email)
	if err != nil {
		return "", err
	}
	if orgID != "" {
		if err := b.fixtures.Member.Create().SetOrganizationID(orgID).SetUserID(u.ID).SetRole(role).Exec(ctx); err != nil {
			return "", err
		}
	}
	tok, _, err := graph.IssueToken(ctx, b.fixtures, u.ID, "bench", nil)
	return tok, err
}

// Seeding through the API makes the dataset of the shape, and every
// workload reads what its name says from it: the checks that run before
// each timed run pass, on both databases.
func TestSeedAndWorkloads(t *testing.T) {
	ctx := context.Background()
	b := newBench(t)
	token, err := b.token(ctx, ownerEmail, "", "")
	require.NoError(t, err)
	owner := &apiClient{base: b.http.URL, token: token, http: newHTTPClient(4)}
	s := shape{SpacesA: 4, SpacesB: 3, ChangeRequests: 4}
	d, err := seed(ctx, owner, func(ctx context.Context, org string) (string, error) {
		return b.token(ctx, memberEmail, org, enum.RoleEdit)
	}, s, 4)
	require.NoError(t, err)

	assert.Len(t, d.SpacesA, 4)
	assert.Len(t, d.SpacesB, 3)
	assert.Equal(t, 12, d.ChangeRequests)
	for org, ids := range map[string][]string{d.OrgA: d.SpacesA, d.OrgB: d.SpacesB} {
		stored, err := b.fixtures.Space.Query().Where(space.OrganizationID(org)).IDs(ctx)
		require.NoError(t, err)
		assert.ElementsMatch(t, stored, ids)
	}
	for _, id := range d.SpacesB {
		crs, err := b.fixtures.ChangeRequest.Query().Where(changerequest.SpaceID(id)).All(ctx)
		require.NoError(t, err)
		assert.Len(t, crs, s.ChangeRequests)
		authors := map[string]bool{}
		for _, cr := range crs {
			assert.Equal(t, enum.ChangeRequestStatusOpen, cr.Status)
			authors[*cr.CreatedByID] = true
		}
		assert.Len(t, authors, 2, "both users opened change requests")
	}

	ws := binderyWorkloads(b.http.URL, token, d, s)
	for i := range ws {
		assert.NoError(t, checkOnce(ctx, owner.http, &ws[i]))
	}
	counts, err := countStatements(ctx, b.dsn, ws)
	require.NoError(t, err)
	for i, c := range counts {
		assert.Positive(t, c.n, ws[i].name)
	}
}

// The baseline answers the space Bindery answers, after two statements;
// like Bindery, it refuses an unknown token and does not find a missing
// space.
func TestBaseline(t *testing.T) {
	ctx := context.Background()
	b := newBench(t)
	token, err := b.token(ctx, ownerEmail, "", "")
	require.NoError(t, err)
	owner := &apiClient{base: b.http.URL, token: token, http: newHTTPClient(1)}
	d, err := seed(ctx, owner, func(ctx context.Context, org string) (string, error) {
		return b.token(ctx, memberEmail, org, enum.RoleEdit)
	}, shape{SpacesA: 2, SpacesB: 1, ChangeRequests: 1}, 2)
	require.NoError(t, err)

	bl := httptest.NewServer(newBaseline(b.db).handler())
	defer bl.Close()
	var fromBindery, fromBaseline baselineSpace
	require.NoError(t, owner.rest(ctx, http.MethodGet, "/v1/spaces/"+d.SpacesA[1], nil, &fromBindery))
	baseline := &apiClient{base: bl.URL, token: token, http: owner.http}
	require.NoError(t, baseline.rest(ctx, http.MethodGet, "/v1/spaces/"+d.SpacesA[1], nil, &fromBaseline))
	assert.Equal(t, fromBindery.ID, fromBaseline.ID)
	assert.Equal(t, fromBindery.Title, fromBaseline.Title)
	assert.Equal(t, "space", fromBaseline.Object)
	assert.WithinDuration(t, fromBindery.CreatedAt, fromBaseline.CreatedAt, time.Millisecond)

	stranger := &apiClient{base: bl.URL, token: "bnd_unknown", http: owner.http}
	err = stranger.rest(ctx, http.MethodGet, "/v1/spaces/"+d.SpacesA[1], nil, nil)
	assert.ErrorContains(t, err, "HTTP 401")
	err = baseline.rest(ctx, http.MethodGet, "/v1/spaces/spc_missing", nil, nil)
	assert.ErrorContains(t, err, "HTTP 404")

	w := baselineWorkload(bl.URL, token, d)
	require.NoError(t, checkOnce(ctx, owner.http, &w))
	n, err := countBaselineStatements(ctx, b.dsn, &w)
	require.NoError(t, err)
	assert.Equal(t, "2", n.String())
}

// drive sends requests until its time is up, from every worker at least
// once, and counts the answers that are errors.
func TestDrive(t *testing.T) {
	ctx := context.Background()
	b := newBench(t)
	token, err := b.token(ctx, ownerEmail, "", "")
	require.NoError(t, err)
	owner := &apiClient{base: b.http.URL, token: token, http: newHTTPClient(2)}
	d, err := seed(ctx, owner, func(ctx context.Context, org string) (string, error) {
		return b.token(ctx, memberEmail, org, enum.RoleEdit)
	}, shape{SpacesA: 3, SpacesB: 1, ChangeRequests: 1}, 2)
	require.NoError(t, err)

	ws := binderyWorkloads(b.http.URL, token, d, shape{SpacesA: 3, SpacesB: 1, ChangeRequests: 1})
	res, err := drive(ctx, owner.http, &ws[0], 2, 50*time.Millisecond)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(res.latencies), 2)
	assert.Zero(t, res.errors, res.firstError)

	bad := ws[1]
	bad.token = "bnd_unknown"
	res, err = drive(ctx, owner.http, &bad, 2, 50*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, len(res.latencies), res.errors, "every answer is an error")
	assert.True(t, strings.HasPrefix(res.firstError, "HTTP 401"), res.firstError)

	// A GraphQL error in a 200 answer is an error too.
	wrong := ws[1]
	wrong.requests = graphqlPosts(b.http.URL+"/graphql", `query($id: ID!) { node(id: $id) { id nope } }`, d.SpacesA, nil)
	res, err = drive(ctx, owner.http, &wrong, 1, 10*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, len(res.latencies), res.errors)
	assert.Contains(t, res.firstError, "errors")
}

// The heavy mix's data is made through the API, and each kind of its
// requests answers what its name says: every page read with its markdown,
// a search that finds pages, a PDF, a whole import. Its turn over the
// requests goes on from one run to the next, so imports move on to fresh
// spaces.
func TestHeavyMix(t *testing.T) {
	ctx := context.Background()
	b := newBench(t)
	token, err := b.token(ctx, ownerEmail, "", "")
	require.NoError(t, err)
	owner := &apiClient{base: b.http.URL, token: token, http: newHTTPClient(4)}
	archive, queries := heavyArchive(7)
	zips := serveArchive(archive)
	defer zips.Close()
	h, err := seedHeavy(ctx, owner, 7, zips.URL, queries, 4)
	require.NoError(t, err)
	assert.Len(t, h.Targets, importTargets)

	w := heavyWorkload(b.http.URL, token, h)
	assert.Equal(t, "heavy", w.key)
	require.NoError(t, checkOnce(ctx, owner.http, &w))
	assert.Len(t, w.requests, 8*importTargets)
	first, err := drive(ctx, owner.http, &w, 2, 50*time.Millisecond)
	require.NoError(t, err)
	assert.Zero(t, first.errors, first.firstError)
	second, err := drive(ctx, owner.http, &w, 2, 50*time.Millisecond)
	require.NoError(t, err)
	assert.Zero(t, second.errors, second.firstError)
	assert.Equal(t, uint64(len(first.latencies)+len(second.latencies)), h.turn.Load(), "the second run went on from the first")

	counts, err := countStatements(ctx, b.dsn, []workload{w})
	require.NoError(t, err)
	assert.Equal(t, "n/a", counts[0].String(), "a mix has no one count")
}

// The archive has the pages asked for: an introduction and folders of
// folderPages, each page about pageBytes of markdown.
func TestHeavyArchive(t *testing.T) {
	archive, queries := heavyArchive(251)
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	require.NoError(t, err)
	assert.Len(t, zr.File, 251)
	folders := map[string]bool{}
	for _, f := range zr.File {
		if dir, _, ok := strings.Cut(f.Name, "/"); ok {
			folders[dir] = true
		}
		assert.InDelta(t, pageBytes, f.UncompressedSize64, 4096, f.Name)
	}
	assert.Len(t, folders, 10)
	assert.Len(t, queries, 4)
	again, _ := heavyArchive(251)
	assert.Equal(t, archive, again, "the same content every run")
}
