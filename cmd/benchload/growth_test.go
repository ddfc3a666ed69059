package main

import (
	"archive/zip"
	"bytes"
	"io"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGrowthPaths(t *testing.T) {
	assert.Equal(t, []string{"introduction.md", "part-01/README.md", "part-01/chapter-01/README.md",
		"part-01/chapter-01/section-01/README.md", "part-01/chapter-01/section-01/page-01.md"}, growthPaths(5))

	paths := growthPaths(10000)
	require.Len(t, paths, 10000)
	assert.Len(t, slices.Compact(slices.Sorted(slices.Values(paths))), 10000, "no path twice")
	assert.Contains(t, paths, "part-02/chapter-05/section-04/page-04.md", "four levels deep")
	has := map[string]bool{}
	for _, p := range paths {
		has[p] = true
	}
	for _, p := range paths {
		if d := path.Dir(p); d != "." && !has[d+"/README.md"] {
			t.Errorf("folder %s has no page", d)
		}
	}
	assert.Equal(t, "part-01/README.md", paths[1])
	assert.Equal(t, "part-02/README.md", paths[1+106], "a part is 106 pages")

	assert.Equal(t, "Introduction", growthTitle("introduction.md"))
	assert.Equal(t, "Part 3", growthTitle("part-03/README.md"))
	assert.Equal(t, "Section 3.2.4", growthTitle("part-03/chapter-02/section-04/README.md"))
	assert.Equal(t, "Page 3.2.4.1", growthTitle("part-03/chapter-02/section-04/page-01.md"))
}

// Large spaces are imported in archives under the importer's 5,000
// entries, each of whole parts and more than one top-level entry (the
// importer drops a lone top folder).
func TestSplitParts(t *testing.T) {
	for _, n := range []int{1, 3, 12, 4000, 4001, 8100, 10000, 25000} {
		paths := growthPaths(n)
		batches := splitParts(paths)
		assert.Equal(t, paths, slices.Concat(batches...), "%d pages: every page once, in order", n)
		for i, b := range batches {
			assert.LessOrEqual(t, len(b), 4500, "%d pages, batch %d", n, i)
			tops := map[string]bool{}
			for _, p := range b {
				top, _, _ := strings.Cut(p, "/")
				tops[top] = true
			}
			if n > 1 {
				assert.Greater(t, len(tops), 1, "%d pages, batch %d", n, i)
			}
			if i > 0 {
				assert.Equal(t, "README.md", path.Base(b[0]), "%d pages: batch %d starts a part", n, i)
			}
		}
	}
	assert.Len(t, splitParts(growthPaths(10000)), 3)
}

func TestGrowthArchives(t *testing.T) {
	archives := growthArchives(growthSpec{Pages: 12}, splitParts(growthPaths(12)))
	require.Len(t, archives, 1)
	zr, err := zip.NewReader(bytes.NewReader(archives[0]), int64(len(archives[0])))
	require.NoError(t, err)
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(b), "# "+growthTitle(f.Name)+"\n"), f.Name)
		assert.Contains(t, string(b), growthWord)
		assert.InDelta(t, growthPageBytes, len(b), 1200, f.Name)
	}
	assert.Equal(t, growthPaths(12), names)
}

func TestGrowthTreeFlatten(t *testing.T) {
	tr := growthTree{Pages: []*growthTreePage{{ID: "a", Path: "introduction"},
		{ID: "b", Path: "part-01", Pages: []*growthTreePage{{ID: "c", Path: "part-01/chapter-01"}}}, {ID: "d"}}}
	assert.Equal(t, []treePage{{ID: "a", Path: "introduction"}, {ID: "b", Path: "part-01"}, {ID: "c", Path: "part-01/chapter-01"}, {ID: "d"}},
		tr.flatten())
}

func TestGrowthChecks(t *testing.T) {
	want := treePage{ID: "p1", Title: "Page 1.1.1.1"}
	assert.NoError(t, checkGrowthPage([]byte(`{"id":"p1","title":"Page 1.1.1.1","document":{"nodes":[]}}`), want, false))
	assert.ErrorContains(t, checkGrowthPage([]byte(`{"id":"p1","title":"Page 1.1.1.1"}`), want, false), "no document")
	assert.NoError(t, checkGrowthPage([]byte(`{"id":"p1","title":"Page 1.1.1.1","markdown":"# x bindery"}`), want, true))
	assert.ErrorContains(t, checkGrowthPage([]byte(`{"id":"p1","title":"Page 1.1.1.1","markdown":"# x"}`), want, true), "no markdown")
	assert.ErrorContains(t, checkGrowthPage([]byte(`{"id":"p2","title":"Page 1.1.1.2"}`), want, false), `want "p1"`)
	assert.NoError(t, checkGrowthSearch([]byte(`{"items":[{"id":"p1"}]}`)))
	assert.ErrorContains(t, checkGrowthSearch([]byte(`{"items":[]}`)), "found nothing")
}

func TestWriteGrowthTable(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	var b strings.Builder
	writeGrowthTable(&b, []int{20, 2000}, 20, 10*time.Second, []growthRow{
		{op: "REST `GET .../content`", p50: []time.Duration{ms(1.66), ms(78)}, p90: []time.Duration{ms(2), ms(91.44)},
			statements: []statements{{n: 5}, {n: 5, max: 6}}},
		{op: "change request", p50: []time.Duration{ms(25), ms(4321)}, p90: []time.Duration{ms(30), ms(5000)}},
	}, []int64{90 << 20, 131 << 20})
	assert.Equal(t, "Growth: operations called one at a time on spaces of 20, 2000 pages, 20 times each after 2 unmeasured calls "+
		"(fewer when they pass 10s, at least 5); the median (× the 20-page space's) and p90.\n\n"+
		"| Operation | 20 pages | 2000 pages | SQL/call |\n"+
		"|---|--:|--:|--:|\n"+
		"| REST `GET .../content` | 1.66 ms, p90 2.00 ms | 78.0 ms (×47), p90 91.4 ms | 5 · 5–6 |\n"+
		"| change request | 25.0 ms, p90 30.0 ms | 4321 ms (×173), p90 5000 ms | n/a |\n"+
		"| the server's peak RSS during the calls | 90 MiB | 131 MiB | n/a |\n", b.String())
}

func TestParseSizes(t *testing.T) {
	sizes, err := parseSizes(" 2000,20, 10000,20 ")
	require.NoError(t, err)
	assert.Equal(t, []int{20, 2000, 10000}, sizes)
	_, err = parseSizes("20,many")
	assert.ErrorIs(t, err, errUsage)
}
