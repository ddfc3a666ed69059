package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchOrgSpecs(t *testing.T) {
	specs := searchOrg{Pages: 16, Spaces: 3}.specs()
	require.Len(t, specs, 3)
	assert.Equal(t, []int{6, 5, 5}, []int{specs[0].Pages, specs[1].Pages, specs[2].Pages}, "the pages spread evenly")
	assert.Equal(t, "Search 002", specs[1].Title)
	assert.NotEqual(t, specs[0].Draw, specs[1].Draw, "each space has its own text")

	specs = defaultSearchOrg.specs()
	assert.Len(t, specs, 100)
	assert.Equal(t, 1000, specs[99].Pages)
	assert.Equal(t, 10, specs[0].rarePages())
	assert.Equal(t, 1, growthSpec{Pages: 1, RareEvery: 100}.rarePages())
	assert.Zero(t, growthSpec{Pages: 1000}.rarePages())

	assert.ErrorIs(t, searchOrg{Pages: 2, Spaces: 3}.check(), errUsage)
	assert.ErrorIs(t, searchOrg{Pages: 2}.check(), errUsage)
}

// The rare word is on the pages the spec picks and no other; spaces of
// different draws share no page.
func TestGrowthArchivesRareWord(t *testing.T) {
	s := growthSpec{Pages: 250, RareEvery: 100, Draw: 1}
	archives := growthArchives(s, splitParts(growthPaths(s.Pages)))
	require.Len(t, archives, 1)
	pages := unzipPages(t, archives[0])
	require.Len(t, pages, 250)
	var rare []int
	for i, p := range pages {
		assert.Contains(t, p, growthWord)
		if strings.Contains(p, rareWord) {
			rare = append(rare, i)
		}
	}
	assert.Equal(t, []int{0, 100, 200}, rare)
	assert.Equal(t, 3, s.rarePages())

	other := unzipPages(t, growthArchives(growthSpec{Pages: 250, Draw: 2}, splitParts(growthPaths(250)))[0])
	for i := range pages {
		assert.NotEqual(t, pages[i], other[i], "page %d", i)
	}
	plain := unzipPages(t, growthArchives(growthSpec{Pages: 250}, splitParts(growthPaths(250)))[0])
	assert.NotContains(t, strings.Join(plain, ""), rareWord)
}

func unzipPages(t *testing.T, archive []byte) []string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	require.NoError(t, err)
	var out []string
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

func TestSearchChecks(t *testing.T) {
	page := `{"id":"p1","title":"Page 1.1.1.1","sections":[{"title":"Page 1.1.1.1","body":"…kata Bindery."}]}`
	n, err := checkSpaceSearch([]byte(`{"items":[`+page+`],"count":7}`), "bindery", 7)
	assert.NoError(t, err)
	assert.Equal(t, 7, n)
	_, err = checkSpaceSearch([]byte(`{"items":[`+page+`],"count":7}`), "bindery", 8)
	assert.ErrorContains(t, err, "found 7 pages (1 listed), want 8")
	_, err = checkSpaceSearch([]byte(`{"items":[],"count":0}`), "bindery", 0)
	assert.ErrorContains(t, err, "found 0 pages")
	_, err = checkSpaceSearch([]byte(`{"items":[`+page+`],"count":1}`), "quokka", 1)
	assert.ErrorContains(t, err, `does not show "quokka"`)

	n, err = checkOrgSearch([]byte(`{"items":[{"id":"s1","title":"Search 001","pages":[`+page+`]}],"count":3}`), "bind", 3)
	assert.NoError(t, err)
	assert.Equal(t, 3, n)
	_, err = checkOrgSearch([]byte(`{"items":[{"id":"s1","title":"Search 001","pages":[]}],"count":1}`), "bind", 1)
	assert.ErrorContains(t, err, "found with no page")
	_, err = checkOrgSearch([]byte(`{"items":[{"id":"s1","pages":[`+page+`]}],"count":1}`), "quokka", 1)
	assert.ErrorContains(t, err, `does not show "quokka"`)
	_, err = checkOrgSearch([]byte(`{"items":[],"count":0}`), "bind", 2)
	assert.ErrorContains(t, err, "found 0 spaces (0 listed), want 2")
}

// The search workload imports its organization through the API and times
// each search on a real server, on both databases: the organization
// search finds every space for each query, the space search every page
// of the common word and of the prefix, and the rare word's one page.
func TestRunSearch(t *testing.T) {
	ctx := context.Background()
	b := newBench(t)
	token, err := b.token(ctx, ownerEmail, "", "")
	require.NoError(t, err)
	owner := &apiClient{base: b.http.URL, token: token, http: newHTTPClient(2)}
	var log strings.Builder
	r := &runner{o: options{searchOrg: searchOrg{Pages: 16, Spaces: 3}, growthCalls: 3, duration: time.Millisecond},
		client: owner.http, stderr: &log}
	// The server runs in the test's process.
	res, err := r.runSearch(ctx, database{dsn: b.dsn}, owner, os.Getpid())
	require.NoError(t, err, log.String())

	assert.Equal(t, 5, res.spacePages)
	assert.Positive(t, res.seeding)
	assert.Positive(t, res.seedRSS)
	assert.Positive(t, res.callsRSS)
	require.Len(t, res.rows, 6)
	var found []string
	for _, row := range res.rows {
		found = append(found, row.found)
		assert.Positive(t, row.p50, row.query)
		assert.GreaterOrEqual(t, row.p95, row.p50, row.query)
		assert.Positive(t, row.statements.n, row.query)
	}
	assert.Equal(t, []string{"3 spaces", "5 pages", "3 spaces", "1 page", "3 spaces", "5 pages"}, found)
	assert.Contains(t, log.String(), "3 of 3 spaces imported")

	var out strings.Builder
	res.write(&out, time.Second)
	assert.Contains(t, out.String(), "Search: an organization of 16 pages in 3 spaces, imported through the API in ")
	assert.Contains(t, out.String(), "| a word on 1 page in 100 (`quokka`) | `GET /v1/spaces/{spaceId}/search` | ")
	assert.Contains(t, out.String(), "| 1 page | ")
	assert.Contains(t, out.String(), "The server's peak RSS during the searches: ")
}

func TestWriteSearchTable(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	res := &searchResult{org: defaultSearchOrg, calls: 20, spacePages: 1000, seeding: 372400 * time.Millisecond,
		seedRSS: 700 << 20, callsRSS: 300 << 20, rows: []searchRow{
			{query: "a word on every page (`bindery`)", request: "`GET /v1/orgs/{organizationId}/search`", found: "100 spaces",
				p50: ms(158), p95: ms(201.4), statements: statements{n: 5}},
			{query: "a word on every page (`bindery`)", request: "`GET /v1/spaces/{spaceId}/search`", found: "1000 pages",
				p50: ms(21.34), p95: ms(30), statements: statements{n: 4}},
		}}
	var b strings.Builder
	res.write(&b, 10*time.Second)
	assert.Equal(t, "Search: an organization of 100000 pages in 100 spaces, imported through the API in 6m12s (2 at a time; "+
		"the server's peak RSS 700 MiB); `bindery` on every page, `quokka` on 1 page in 100. Each search called one at a time, "+
		"20 times after 2 unmeasured calls (fewer when they pass 10s, at least 5); the space searched has 1000 pages.\n\n"+
		"| Query | Request | p50 | p95 | found | SQL/call |\n"+
		"|---|---|--:|--:|--:|--:|\n"+
		"| a word on every page (`bindery`) | `GET /v1/orgs/{organizationId}/search` | 158 ms | 201 ms | 100 spaces | 5 |\n"+
		"| a word on every page (`bindery`) | `GET /v1/spaces/{spaceId}/search` | 21.3 ms | 30.0 ms | 1000 pages | 4 |\n"+
		"\nThe server's peak RSS during the searches: 300 MiB.\n", b.String())
}
