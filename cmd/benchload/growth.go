package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The growth workload shows how the cost of reading and editing one page
// follows the size of its space: it builds spaces of several sizes and
// times the same calls, one at a time, on each.

// growthWord is on every page of the growth spaces, for the search.
const growthWord = "bindery"

// rareWord is on the pages of a growth space that growthSpec.RareEvery
// picks, for a search that finds few; the generated text, of the letters
// of vocabulary, has no word that starts with it.
const rareWord = "quokka"

// growthPageBytes is about the size of a growth page's markdown: small, so
// that the spaces' size is their number of pages rather than their bytes.
const growthPageBytes = 1500

// The growth spaces' tree: parts of partChapters chapters of
// chapterSections sections of sectionPages pages, each folder with its
// README.md page (106 pages a part), after an introduction.
const (
	partChapters    = 5
	chapterSections = 4
	sectionPages    = 4
)

// maxArchivePages bounds the pages of one growth archive, under the
// importer's 5,000 entries of a zip archive; a larger space is imported in
// several.
const maxArchivePages = 4000

// growthPaths returns the markdown files of a space of n pages, in the
// order of its tree: introduction.md, then part-01/README.md,
// part-01/chapter-01/README.md, part-01/chapter-01/section-01/README.md,
// part-01/chapter-01/section-01/page-01.md and so on.
func growthPaths(n int) []string {
	out := make([]string, 0, n)
	add := func(format string, args ...any) bool {
		if len(out) == n {
			return false
		}
		out = append(out, fmt.Sprintf(format, args...))
		return true
	}
	add("introduction.md")
	for p := 1; len(out) < n; p++ {
		add("part-%02d/README.md", p)
		for c := 1; c <= partChapters; c++ {
			add("part-%02d/chapter-%02d/README.md", p, c)
			for s := 1; s <= chapterSections; s++ {
				add("part-%02d/chapter-%02d/section-%02d/README.md", p, c, s)
				for i := 1; i <= sectionPages; i++ {
					add("part-%02d/chapter-%02d/section-%02d/page-%02d.md", p, c, s, i)
				}
			}
		}
	}
	return out
}

// splitParts splits paths into batches of whole parts of about the same
// number of pages, none over maxArchivePages (plus a part). Each batch has
// more than one top-level entry, so that the importer does not take a
// lone folder for the archive's wrapper and drop it.
func splitParts(paths []string) [][]string {
	batches := (len(paths) + maxArchivePages - 1) / maxArchivePages
	if batches <= 1 {
		return [][]string{paths}
	}
	target := (len(paths) + batches - 1) / batches
	var out [][]string
	start := 0
	for i := 1; i <= len(paths); i++ {
		end := i == len(paths)
		if !end && i-start >= target && strings.HasSuffix(paths[i], "/README.md") && strings.Count(paths[i], "/") == 1 {
			end = true
		}
		if end {
			out = append(out, paths[start:i])
			start = i
		}
	}
	return out
}

// growthTitle is the title of the page of a path: "Part 3", "Chapter 3.2",
// "Page 3.2.4.1".
func growthTitle(p string) string {
	if p == "introduction.md" {
		return "Introduction"
	}
	parts := strings.Split(strings.TrimSuffix(p, ".md"), "/")
	if parts[len(parts)-1] == "README" {
		parts = parts[:len(parts)-1]
	}
	nums := make([]string, len(parts))
	for i, s := range parts {
		_, n, _ := strings.Cut(s, "-")
		k, _ := strconv.Atoi(n)
		nums[i] = strconv.Itoa(k)
	}
	kind, _, _ := strings.Cut(parts[len(parts)-1], "-")
	return strings.ToUpper(kind[:1]) + kind[1:] + " " + strings.Join(nums, ".")
}

// growthSpec is a growth space to make.
type growthSpec struct {
	Title string
	Pages int
	// Draw picks the pages' text (see newTextGenDraw).
	Draw uint64
	// RareEvery puts rareWord on every RareEvery-th page of the tree's
	// order too, the first included; on none when 0.
	RareEvery int
}

// rarePages is the number of pages of s that have rareWord.
func (s growthSpec) rarePages() int {
	if s.RareEvery <= 0 {
		return 0
	}
	return (s.Pages + s.RareEvery - 1) / s.RareEvery
}

// growthArchives returns a zip archive of each batch of the paths of s
// (see splitParts), each page of about growthPageBytes in words of the
// heavy mix's vocabulary, with growthWord, and rareWord on the pages s
// picks, at the end of its introduction.
func growthArchives(s growthSpec, batches [][]string) [][]byte {
	g := newTextGenDraw(s.Draw)
	var out [][]byte
	i := 0
	for _, batch := range batches {
		out = append(out, zipFiles(func(add func(string, []byte)) {
			for _, p := range batch {
				lead := growthWord
				if s.RareEvery > 0 && i%s.RareEvery == 0 {
					lead += " " + rareWord
				}
				add(p, g.page(growthTitle(p), growthPageBytes, lead))
				i++
			}
		}))
	}
	return out
}

// growthSpace is a growth space, and what its calls read and edit.
type growthSpace struct {
	Pages int
	Space string
	// Middle is the page in the middle of the tree, which the reads read;
	// Live and Changed are the pages the live edit and the change request
	// edit.
	Middle, Live, Changed treePage
}

// treePage is a page of a space's tree.
type treePage struct {
	ID, Title, Path string
}

// serveArchives serves each archive at /<index>.zip on a loopback port.
func serveArchives(archives [][]byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(strings.TrimSuffix(path.Base(r.URL.Path), ".zip"))
		if err != nil || i < 0 || i >= len(archives) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(archives[i])
	}))
}

// seedGrowth makes the growth space s in org through the API: a live
// space (so that its main content takes edits), filled by importing the
// archives in turn, each import waited for and checked; then it reads the
// tree and checks that it has every page.
func seedGrowth(ctx context.Context, owner *apiClient, org string, s growthSpec) (*growthSpace, error) {
	n := s.Pages
	var sp struct {
		ID string `json:"id"`
	}
	err := owner.rest(ctx, http.MethodPost, "/v1/orgs/"+org+"/spaces", map[string]any{"title": s.Title, "editMode": "live"}, &sp)
	if err != nil {
		return nil, fmt.Errorf("creating the space of %d pages: %w", n, err)
	}
	batches := splitParts(growthPaths(n))
	zips := serveArchives(growthArchives(s, batches))
	defer zips.Close()
	// An import of thousands of pages can take longer than a request of
	// the load.
	slow := *owner
	slow.http = &http.Client{Transport: owner.http.Transport, Timeout: 30 * time.Minute}
	for i, batch := range batches {
		var imported json.RawMessage
		err := slow.graphql(ctx, importMutation, map[string]any{"id": sp.ID, "url": fmt.Sprintf("%s/%d.zip", zips.URL, i)}, &imported)
		if err == nil {
			err = checkImport(imported, len(batch))
		}
		if err != nil {
			return nil, fmt.Errorf("importing %d of %d pages: %w", len(batch), n, err)
		}
	}
	var rev growthTree
	if err := slow.rest(ctx, http.MethodGet, "/v1/spaces/"+sp.ID+"/content", nil, &rev); err != nil {
		return nil, err
	}
	pages := rev.flatten()
	if len(pages) != n {
		return nil, fmt.Errorf("the space of %d pages has %d", n, len(pages))
	}
	return &growthSpace{Pages: n, Space: sp.ID, Middle: pages[n/2], Live: pages[(n/2+1)%n], Changed: pages[(n/2+2)%n]}, nil
}

// growthTree is the part of a revision's /v1 answer the growth workload
// reads: its pages, with their nested pages.
type growthTree struct {
	Pages []*growthTreePage `json:"pages"`
}

type growthTreePage struct {
	ID    string            `json:"id"`
	Title string            `json:"title"`
	Path  string            `json:"path"`
	Pages []*growthTreePage `json:"pages"`
}

// flatten lists the tree's pages in order, each before its nested pages.
func (t growthTree) flatten() []treePage {
	var out []treePage
	var walk func([]*growthTreePage)
	walk = func(ps []*growthTreePage) {
		for _, p := range ps {
			out = append(out, treePage{ID: p.ID, Title: p.Title, Path: p.Path})
			walk(p.Pages)
		}
	}
	walk(t.Pages)
	return out
}

// growthOp is one operation the growth workload times.
type growthOp struct {
	name string
	// read is a read's request, sent as is, and check validates its first
	// answer; nil for a write.
	read  *request
	check func([]byte) error
	// write makes the i-th write, one timed unit, checking its answers.
	write func(ctx context.Context, i int) error
}

const setPageMarkdownMutation = `mutation($input: SetPageMarkdownInput!) {
  setPageMarkdown(input: $input) { revision { id } page { id } } }`

// growthOps are the operations timed on a growth space.
func growthOps(owner *apiClient, g *growthSpace) []growthOp {
	content := owner.base + "/v1/spaces/" + g.Space + "/content"
	get := func(url string) *request { return &request{method: http.MethodGet, url: url} }
	checkPage := func(markdown bool) func([]byte) error {
		return func(b []byte) error { return checkGrowthPage(b, g.Middle, markdown) }
	}
	edit := func(ctx context.Context, target map[string]any, p treePage, i int) error {
		input := map[string]any{"pageId": p.ID, "markdown": fmt.Sprintf("# %s\n\nEdit %d of the page, which %s serves.\n", p.Title, i+1, growthWord)}
		for k, v := range target {
			input[k] = v
		}
		var res struct {
			SetPageMarkdown struct {
				Page struct {
					ID string `json:"id"`
				} `json:"page"`
			} `json:"setPageMarkdown"`
		}
		if err := owner.graphql(ctx, setPageMarkdownMutation, map[string]any{"input": input}, &res); err != nil {
			return err
		}
		if res.SetPageMarkdown.Page.ID != p.ID {
			return fmt.Errorf("setPageMarkdown edited page %q, want %q", res.SetPageMarkdown.Page.ID, p.ID)
		}
		return nil
	}
	return []growthOp{
		{name: "REST `GET .../content/page/{pageId}`", read: get(content + "/page/" + g.Middle.ID), check: checkPage(false)},
		{name: "REST `GET .../content/path/{pagePath}`", read: get(content + "/path/" + g.Middle.Path), check: checkPage(false)},
		{name: "REST `GET .../content/page/{pageId}?format=markdown`", read: get(content + "/page/" + g.Middle.ID + "?format=markdown"),
			check: checkPage(true)},
		{name: "REST `GET .../content` (the tree)", read: get(content), check: func(b []byte) error {
			var t growthTree
			if err := json.Unmarshal(b, &t); err != nil {
				return err
			}
			if n := len(t.flatten()); n != g.Pages {
				return fmt.Errorf("the tree has %d pages, want %d", n, g.Pages)
			}
			return nil
		}},
		{name: "REST `GET /v1/spaces/{spaceId}/search?query=" + growthWord + "`",
			read: get(owner.base + "/v1/spaces/" + g.Space + "/search?query=" + growthWord), check: checkGrowthSearch},
		{name: "change request: create, `setPageMarkdown` of a page, merge", write: func(ctx context.Context, i int) error {
			var cr struct {
				ID string `json:"id"`
			}
			if err := owner.rest(ctx, http.MethodPost, "/v1/spaces/"+g.Space+"/change-requests", map[string]any{"subject": fmt.Sprintf("Edit %d", i+1)}, &cr); err != nil {
				return err
			}
			if err := edit(ctx, map[string]any{"changeRequestId": cr.ID}, g.Changed, i); err != nil {
				return err
			}
			var merged struct {
				Result string `json:"result"`
			}
			if err := owner.rest(ctx, http.MethodPost, "/v1/spaces/"+g.Space+"/change-requests/"+cr.ID+"/merge", nil, &merged); err != nil {
				return err
			}
			if merged.Result != "merge" {
				return fmt.Errorf("merging the change request: %q, want merge", merged.Result)
			}
			return nil
		}},
		{name: "GraphQL `setPageMarkdown` of a page of the live content", write: func(ctx context.Context, i int) error {
			return edit(ctx, map[string]any{"spaceId": g.Space}, g.Live, i)
		}},
	}
}

// checkGrowthPage checks that a page read answered the page, with its
// markdown when asked for, or else its document.
func checkGrowthPage(b []byte, want treePage, markdown bool) error {
	var p struct {
		ID       string          `json:"id"`
		Title    string          `json:"title"`
		Markdown *string         `json:"markdown"`
		Document json.RawMessage `json:"document"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	switch {
	case p.ID != want.ID || p.Title != want.Title:
		return fmt.Errorf("read page %q %q, want %q %q", p.ID, p.Title, want.ID, want.Title)
	case markdown && (p.Markdown == nil || !strings.Contains(*p.Markdown, growthWord)):
		return fmt.Errorf("the page has no markdown with %q: %s", growthWord, snippet(b))
	case !markdown && len(p.Document) == 0:
		return fmt.Errorf("the page has no document: %s", snippet(b))
	}
	return nil
}

func checkGrowthSearch(b []byte) error {
	var l struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	if len(l.Items) == 0 {
		return fmt.Errorf("the search found nothing: %s", snippet(b))
	}
	return nil
}

// growthWarmup is the number of unmeasured calls before an operation's
// timed ones; the first is checked.
const growthWarmup = 2

// minGrowthCalls is the number of timed calls an operation makes even past
// the duration.
const minGrowthCalls = 5

// measureGrowth times an operation's calls, one at a time, after the
// warm-up: calls of them, or as many as the duration allows, at least
// minGrowthCalls.
func measureGrowth(ctx context.Context, client *http.Client, token string, op growthOp, calls int, d time.Duration) ([]time.Duration, error) {
	w := &workload{token: token}
	var buf bytes.Buffer
	call := func(i int) error {
		if op.write != nil {
			return op.write(ctx, i)
		}
		if p := send(ctx, client, w, *op.read, &buf); p != "" {
			return fmt.Errorf("%s", p)
		}
		return nil
	}
	for i := range growthWarmup {
		if err := call(i); err != nil {
			return nil, fmt.Errorf("%s: %w", op.name, err)
		}
		if i == 0 && op.check != nil {
			if err := op.check(buf.Bytes()); err != nil {
				return nil, fmt.Errorf("%s: %w", op.name, err)
			}
		}
	}
	var out []time.Duration
	deadline := time.Now().Add(d)
	for i := 0; i < calls && (i < minGrowthCalls || time.Now().Before(deadline)); i++ {
		t0 := time.Now()
		if err := call(growthWarmup + i); err != nil {
			return nil, fmt.Errorf("%s: %w", op.name, err)
		}
		out = append(out, time.Since(t0))
	}
	return out, nil
}

// growthRow is an operation's figures on each growth space.
type growthRow struct {
	op string
	// p50 and p90 are by space, in the order of the sizes; statements too,
	// or nil when not counted.
	p50, p90   []time.Duration
	statements []statements
}

// writeGrowthTable writes the growth rows as a markdown table: an
// operation a row, a space size a column, each cell the median with its
// ratio to the smallest space's, and the 90th percentile; then, when
// measured, the server's peak memory during each space's calls.
func writeGrowthTable(w io.Writer, sizes []int, calls int, d time.Duration, rows []growthRow, peakRSS []int64) {
	fmt.Fprintf(w, "Growth: operations called one at a time on spaces of %s pages, %d times each after %d unmeasured calls "+
		"(fewer when they pass %s, at least %d); the median (× the %d-page space's) and p90.\n\n",
		joinInts(sizes), calls, growthWarmup, d, minGrowthCalls, sizes[0])
	fmt.Fprint(w, "| Operation |")
	for _, n := range sizes {
		fmt.Fprintf(w, " %d pages |", n)
	}
	fmt.Fprintln(w, " SQL/call |")
	fmt.Fprintln(w, "|---|"+strings.Repeat("--:|", len(sizes))+"--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |", r.op)
		for i := range sizes {
			cell := shortMillis(r.p50[i])
			if i > 0 && r.p50[0] > 0 {
				cell += fmt.Sprintf(" (×%s)", rate(float64(r.p50[i])/float64(r.p50[0])))
			}
			fmt.Fprintf(w, " %s, p90 %s |", cell, shortMillis(r.p90[i]))
		}
		sql := "n/a"
		if r.statements != nil {
			s := make([]string, len(r.statements))
			for i, st := range r.statements {
				s[i] = st.String()
			}
			sql = strings.Join(s, " · ")
		}
		fmt.Fprintf(w, " %s |\n", sql)
	}
	if peakRSS != nil {
		fmt.Fprint(w, "| the server's peak RSS during the calls |")
		for _, n := range peakRSS {
			fmt.Fprintf(w, " %s |", mebibytes(n, 1))
		}
		fmt.Fprintln(w, " n/a |")
	}
}

// shortMillis shows a latency in milliseconds with three significant
// digits or so.
func shortMillis(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// parseSizes reads a comma-separated list of page counts, sorted.
func parseSizes(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%w: %q is not a number of pages", errUsage, f)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no number of pages", errUsage)
	}
	slices.Sort(out)
	return out, nil
}

// runGrowth builds a growth space of each size in an organization of its
// own, then times the operations on each, one at a time, and counts the
// statements of each read with the in-process server.
func (r *runner) runGrowth(ctx context.Context, db database, owner *apiClient, pid int) ([]growthRow, []int64, error) {
	org, err := createOrganization(ctx, owner, "Bench growth")
	if err != nil {
		return nil, nil, err
	}
	sizes := r.o.growthPages
	var rows []growthRow
	peaks := make([]int64, len(sizes))
	for k, n := range sizes {
		r.logf("growth: importing a space of %d pages", n)
		t0 := time.Now()
		g, err := seedGrowth(ctx, owner, org, growthSpec{Title: fmt.Sprintf("Growth %d", n), Pages: n})
		if err != nil {
			return nil, nil, fmt.Errorf("growth: %w", err)
		}
		r.logf("growth: %d pages imported in %s", n, time.Since(t0).Round(time.Millisecond))
		ops := growthOps(owner, g)
		if rows == nil {
			rows = make([]growthRow, len(ops))
			for i, op := range ops {
				rows[i] = growthRow{op: op.name, p50: make([]time.Duration, len(sizes)), p90: make([]time.Duration, len(sizes))}
			}
		}
		var reads []workload
		for _, op := range ops {
			if op.read != nil {
				reads = append(reads, workload{target: "Bindery", name: op.name, token: owner.token, requests: []request{*op.read}})
			}
		}
		counts, err := countStatements(ctx, db.dsn, reads)
		if err != nil {
			return nil, nil, err
		}
		// The peak of the calls, not of the import before them.
		if err := resetPeakRSS([]int{pid}); err != nil {
			return nil, nil, err
		}
		for i, op := range ops {
			lat, err := measureGrowth(ctx, r.client, owner.token, op, r.o.growthCalls, r.o.duration)
			if err != nil {
				return nil, nil, fmt.Errorf("growth, %d pages: %w", n, err)
			}
			slices.Sort(lat)
			rows[i].p50[k], rows[i].p90[k] = percentile(lat, 50), percentile(lat, 90)
			if op.read != nil {
				rows[i].statements = append(rows[i].statements, counts[0])
				counts = counts[1:]
			}
			r.logf("growth: %d pages, %s: p50 %s, p90 %s over %d calls", n, op.name, shortMillis(rows[i].p50[k]), shortMillis(rows[i].p90[k]), len(lat))
		}
		if peaks[k], err = peakRSS([]int{pid}); err != nil {
			return nil, nil, err
		}
	}
	return rows, peaks, nil
}
