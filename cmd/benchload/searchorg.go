package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/store"
)

// The search workload shows what a search costs in a large organization:
// it imports growth spaces through the API until the organization holds
// --search-org-pages pages in --search-org-spaces spaces, then times
// searches of the organization and of one of its spaces, one call at a
// time.

// searchOrg is the size of the search workload's organization.
type searchOrg struct {
	Pages, Spaces int
}

// defaultSearchOrg is the organization of the published figures.
var defaultSearchOrg = searchOrg{Pages: 100000, Spaces: 100}

// searchRareEvery makes rareWord appear on 1 page in searchRareEvery.
const searchRareEvery = 100

// searchSeedWorkers is the number of spaces imported at a time: two keep
// both cores of the benchmark machine busy (one import reads its archive
// while the other writes), a quarter faster than one.
const searchSeedWorkers = 2

func (s searchOrg) check() error {
	if s.Spaces < 1 || s.Pages < s.Spaces {
		return fmt.Errorf("%w: the search workload's organization needs a space, and a page in each", errUsage)
	}
	return nil
}

// specs returns the organization's spaces, the pages spread evenly, each
// of its own text.
func (s searchOrg) specs() []growthSpec {
	out := make([]growthSpec, s.Spaces)
	for k := range out {
		n := s.Pages / s.Spaces
		if k < s.Pages%s.Spaces {
			n++
		}
		out[k] = growthSpec{Title: fmt.Sprintf("Search %03d", k+1), Pages: n, Draw: uint64(k + 1), RareEvery: searchRareEvery}
	}
	return out
}

// searchQuery is a query the search workload times.
type searchQuery struct {
	label, text string
	// pages is the number of pages of a space that have it.
	pages func(growthSpec) int
}

// searchQueries are the queries the search workload times: a word on
// every page, a rare word and the start of the common word, which matches
// as a prefix as the last word of a query does while it is typed.
func searchQueries() []searchQuery {
	every := func(s growthSpec) int { return s.Pages }
	prefix := growthWord[:4]
	return []searchQuery{
		{label: fmt.Sprintf("a word on every page (`%s`)", growthWord), text: growthWord, pages: every},
		{label: fmt.Sprintf("a word on 1 page in %d (`%s`)", searchRareEvery, rareWord), text: rareWord, pages: growthSpec.rarePages},
		{label: fmt.Sprintf("a prefix as typed (`%s`)", prefix), text: prefix, pages: every},
	}
}

// searchHitJSON is the part of a page of a /v1 search answer the workload
// checks.
type searchHitJSON struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Sections []struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	} `json:"sections"`
}

// shows says whether the page's title or one of its sections shows text,
// in lower case.
func (h searchHitJSON) shows(text string) bool {
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), text) }
	if has(h.Title) {
		return true
	}
	for _, s := range h.Sections {
		if has(s.Title) || has(s.Body) {
			return true
		}
	}
	return false
}

// checkSpaceSearch checks a space search's answer: want pages found, and
// a first page of results each showing text. It returns the pages found.
func checkSpaceSearch(b []byte, text string, want int) (int, error) {
	var l struct {
		Items []searchHitJSON `json:"items"`
		Count int             `json:"count"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return 0, err
	}
	if l.Count != want || len(l.Items) == 0 {
		return l.Count, fmt.Errorf("the search found %d pages (%d listed), want %d: %s", l.Count, len(l.Items), want, snippet(b))
	}
	for _, p := range l.Items {
		if !p.shows(text) {
			return l.Count, fmt.Errorf("page %s %q does not show %q", p.ID, p.Title, text)
		}
	}
	return l.Count, nil
}

// checkOrgSearch checks an organization search's answer: want spaces
// found, and a first page of results each with pages that show text. It
// returns the spaces found.
func checkOrgSearch(b []byte, text string, want int) (int, error) {
	var l struct {
		Items []struct {
			ID    string          `json:"id"`
			Title string          `json:"title"`
			Pages []searchHitJSON `json:"pages"`
		} `json:"items"`
		Count int `json:"count"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return 0, err
	}
	if l.Count != want || len(l.Items) == 0 {
		return l.Count, fmt.Errorf("the search found %d spaces (%d listed), want %d: %s", l.Count, len(l.Items), want, snippet(b))
	}
	for _, s := range l.Items {
		if len(s.Pages) == 0 {
			return l.Count, fmt.Errorf("space %s %q is found with no page", s.ID, s.Title)
		}
		for _, p := range s.Pages {
			if !p.shows(text) {
				return l.Count, fmt.Errorf("page %s %q of space %s does not show %q", p.ID, p.Title, s.ID, text)
			}
		}
	}
	return l.Count, nil
}

// searchOp is a search the workload times, and the number of what its
// check found, of unit.
type searchOp struct {
	query searchQuery
	op    growthOp
	found *int
	unit  string
}

// searchOps are the searches timed in org, whose spaces are specs, made
// in the order of spaces: each query of the organization, then of the
// space in the middle.
func searchOps(base, org string, specs []growthSpec, spaces []*growthSpace) []searchOp {
	k := len(spaces) / 2
	var out []searchOp
	for _, q := range searchQueries() {
		text := strings.ToLower(q.text)
		orgWant := 0
		for _, s := range specs {
			if q.pages(s) > 0 {
				orgWant++
			}
		}
		spaceWant := min(q.pages(specs[k]), search.MaxRanked)
		orgFound, spaceFound := new(int), new(int)
		orgURL := base + "/v1/orgs/" + org + "/search?query=" + url.QueryEscape(q.text)
		spaceURL := base + "/v1/spaces/" + spaces[k].Space + "/search?query=" + url.QueryEscape(q.text)
		out = append(out,
			searchOp{query: q, found: orgFound, unit: "space", op: growthOp{name: "`GET /v1/orgs/{organizationId}/search`",
				read: &request{method: http.MethodGet, url: orgURL}, check: func(b []byte) (err error) {
					*orgFound, err = checkOrgSearch(b, text, orgWant)
					return err
				}}},
			searchOp{query: q, found: spaceFound, unit: "page", op: growthOp{name: "`GET /v1/spaces/{spaceId}/search`",
				read: &request{method: http.MethodGet, url: spaceURL}, check: func(b []byte) (err error) {
					*spaceFound, err = checkSpaceSearch(b, text, spaceWant)
					return err
				}}})
	}
	return out
}

// searchRow is a search's figures.
type searchRow struct {
	query, request string
	// found is what the search found: "100 spaces", "1000 pages".
	found string
	// p50 and p95 are of the timed calls.
	p50, p95   time.Duration
	statements statements
}

// searchResult is what the search workload measured.
type searchResult struct {
	org   searchOrg
	calls int
	// spacePages is the pages of the space searched.
	spacePages int
	// seeding is the time the organization took to import, and seedRSS
	// and callsRSS the server's peak memory during the imports and during
	// the calls (0 when unknown).
	seeding           time.Duration
	seedRSS, callsRSS int64
	rows              []searchRow
}

// runSearch imports the search workload's organization through the API,
// then times each search one call at a time, and counts the statements of
// each with the in-process server.
func (r *runner) runSearch(ctx context.Context, db database, owner *apiClient, pid int) (*searchResult, error) {
	res := &searchResult{org: r.o.searchOrg, calls: r.o.growthCalls}
	org, err := createOrganization(ctx, owner, "Bench search")
	if err != nil {
		return nil, err
	}
	specs := res.org.specs()
	if err := resetPeakRSS([]int{pid}); err != nil {
		return nil, err
	}
	r.logf("search: importing %d pages in %d spaces, %d at a time", res.org.Pages, res.org.Spaces, searchSeedWorkers)
	t0 := time.Now()
	spaces := make([]*growthSpace, len(specs))
	var done atomic.Int64
	err = parallel(ctx, len(specs), searchSeedWorkers, func(ctx context.Context, k int) error {
		var err error
		if spaces[k], err = seedGrowth(ctx, owner, org, specs[k]); err != nil {
			return fmt.Errorf("search: %w", err)
		}
		if n := done.Add(1); n%10 == 0 || int(n) == len(specs) {
			r.logf("search: %d of %d spaces imported in %s", n, len(specs), time.Since(t0).Round(time.Second))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.seeding = time.Since(t0)
	if res.seedRSS, err = peakRSS([]int{pid}); err != nil {
		return nil, err
	}
	res.spacePages = spaces[len(spaces)/2].Pages
	if err := analyze(ctx, db); err != nil {
		return nil, err
	}

	ops := searchOps(owner.base, org, specs, spaces)
	reads := make([]workload, len(ops))
	for i, op := range ops {
		reads[i] = workload{target: "Bindery", name: op.op.name, token: owner.token, requests: []request{*op.op.read}}
	}
	counts, err := countStatements(ctx, db.dsn, reads)
	if err != nil {
		return nil, err
	}
	// The peak of the calls, not of the imports before them.
	if err := resetPeakRSS([]int{pid}); err != nil {
		return nil, err
	}
	for i, op := range ops {
		lat, err := measureGrowth(ctx, r.client, owner.token, op.op, r.o.growthCalls, r.o.duration)
		if err != nil {
			return nil, fmt.Errorf("search, %s: %w", op.query.label, err)
		}
		slices.Sort(lat)
		row := searchRow{query: op.query.label, request: op.op.name, found: count(*op.found, op.unit), p50: percentile(lat, 50), p95: percentile(lat, 95), statements: counts[i]}
		res.rows = append(res.rows, row)
		r.logf("search: %s, %s: p50 %s, p95 %s over %d calls", op.query.label, op.op.name, shortMillis(row.p50), shortMillis(row.p95), len(lat))
	}
	if res.callsRSS, err = peakRSS([]int{pid}); err != nil {
		return nil, err
	}
	return res, nil
}

// count shows a number of things: "1 page", "100 pages".
func count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// write writes the search figures as a markdown table, a search a row,
// after a paragraph on the organization and its import.
func (s *searchResult) write(w io.Writer, d time.Duration) {
	fmt.Fprintf(w, "Search: an organization of %d pages in %d spaces, imported through the API in %s (%d at a time; the server's peak RSS %s); "+
		"`%s` on every page, `%s` on 1 page in %d. Each search called one at a time, %d times after %d unmeasured calls "+
		"(fewer when they pass %s, at least %d); the space searched has %d pages.\n\n",
		s.org.Pages, s.org.Spaces, s.seeding.Round(time.Second), searchSeedWorkers, mebibytes(s.seedRSS, 1), growthWord, rareWord, searchRareEvery,
		s.calls, growthWarmup, d, minGrowthCalls, s.spacePages)
	fmt.Fprintln(w, "| Query | Request | p50 | p95 | found | SQL/call |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|")
	for _, r := range s.rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.query, r.request, shortMillis(r.p50), shortMillis(r.p95), r.found, r.statements)
	}
	fmt.Fprintf(w, "\nThe server's peak RSS during the searches: %s.\n", mebibytes(s.callsRSS, 1))
}

// analyze gathers PostgreSQL's statistics of the tables, as autovacuum
// would within a minute of such a load: an organization search chooses
// its plan by them (see docs/api/search-links-import.md). SQLite has
// none to gather: Bindery never analyzes it.
func analyze(ctx context.Context, db database) error {
	if db.postgres == "" {
		return nil
	}
	st, err := store.Open(ctx, db.dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.SQL.ExecContext(ctx, "ANALYZE"); err != nil {
		return fmt.Errorf("search: analyzing the tables: %w", err)
	}
	return nil
}
