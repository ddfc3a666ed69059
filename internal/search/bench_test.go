package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/store"
)

// The benchmarks search a corpus of generated pages (pronounceable words of
// a Zipf-distributed vocabulary, three sections of about 50 words each) as
// the resolvers do: rank the candidates (every match, up to the bounds of
// MaxRanked and SpaceCandidates), take the best 20, read them. They
// report the median and 95th percentile of each kind of query. Timings are
// reported, never asserted (docs/performance.md, "Search").
const (
	benchSpacePages = 10_000
	benchOrgSpaces  = 100
	benchOrgPages   = 100_000
	benchWindow     = 20
)

// benchQuery is a kind of query and its text in a vocabulary.
type benchQuery struct {
	kind string
	text func(vocab []string) string
}

// benchQueries are the kinds measured: words as common as a page's most
// frequent (on nearly every page), on about 1 page in 7, on 1 in 60;
// several words; and a prefix as it is typed.
var benchQueries = []benchQuery{
	{"common", func(v []string) string { return v[3] }},
	{"frequent", func(v []string) string { return v[120] }},
	{"rare", func(v []string) string { return v[2500] }},
	{"two-words", func(v []string) string { return v[10] + " " + v[400] }},
	{"three-words", func(v []string) string { return v[40] + " " + v[800] + " " + v[5] }},
	{"prefix", func(v []string) string { return v[60] + " " + v[700][:4] }},
}

type corpus struct {
	db      *store.DB
	idx     *search.Index
	org     string
	spaces  []string // spaces[0] holds benchSpacePages pages
	vocab   []string
	created time.Duration
}

// The corpora are made once per process and outlive each benchmark: they
// are removed when the tests end.
var (
	corpora   = map[string]*corpus{}
	corporaMu sync.Mutex
	cleanups  []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	os.Exit(code)
}

// benchCorpus returns the corpus on SQLite, or on PostgreSQL when
// BINDERY_TEST_DATABASE_URL is set and pg is true, made once per process.
func benchCorpus(b *testing.B, pg bool) *corpus {
	b.Helper()
	key := map[bool]string{false: "sqlite", true: "postgres"}[pg]
	corporaMu.Lock()
	defer corporaMu.Unlock()
	if c := corpora[key]; c != nil {
		return c
	}
	ctx := context.Background()
	dsn := filepath.Join(os.TempDir(), fmt.Sprintf("bindery-search-bench-%d.db", os.Getpid()))
	if pg {
		base := os.Getenv("BINDERY_TEST_DATABASE_URL")
		if base == "" {
			b.Skip("BINDERY_TEST_DATABASE_URL is not set")
		}
		schema := fmt.Sprintf("bindery_search_bench_%d", os.Getpid())
		admin, err := store.Open(ctx, base)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := admin.SQL.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			b.Fatal(err)
		}
		cleanups = append(cleanups, func() { _, _ = admin.SQL.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); admin.Close() })
		if dsn, err = store.InSchema(base, schema); err != nil {
			b.Fatal(err)
		}
	} else {
		cleanups = append(cleanups, func() { os.Remove(dsn); os.Remove(dsn + "-wal"); os.Remove(dsn + "-shm") })
	}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	cleanups = append(cleanups, func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	c := &corpus{db: db, idx: search.New(db.Dialect), vocab: vocabulary(5000)}
	start := time.Now()
	org := db.Client.Organization.Create().SetTitle("Bench").SaveX(ctx)
	c.org = org.ID
	words := wordSource(c.vocab)
	sizes := []int{benchSpacePages}
	for len(sizes) < benchOrgSpaces {
		sizes = append(sizes, (benchOrgPages-benchSpacePages)/(benchOrgSpaces-1))
	}
	for i, n := range sizes {
		s := db.Client.Space.Create().SetOrganizationID(org.ID).SetTitle(fmt.Sprintf("Space %d", i)).SaveX(ctx)
		c.spaces = append(c.spaces, s.ID)
		docs := genDocs(n, words)
		err := store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
			return c.idx.Apply(ctx, tx.Driver(), s.ID, org.ID, nil, docs)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	// As PostgreSQL's autovacuum would after such a load: its planner
	// needs the tables' statistics. Bindery never analyzes SQLite.
	if pg {
		if _, err := db.SQL.ExecContext(ctx, "ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	c.created = time.Since(start)
	b.Logf("%s: indexed %d pages in %d spaces in %s", key, benchOrgPages, benchOrgSpaces, c.created.Round(time.Millisecond))
	corpora[key] = c
	return c
}

// wordSource returns a generator of n words of vocab, drawn with a Zipf
// distribution, the same on every run.
func wordSource(vocab []string) func(n int) string {
	zipf := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.1, 2, uint64(len(vocab)-1))
	return func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[zipf.Uint64()]
		}
		return strings.Join(w, " ")
	}
}

// genDocs returns n generated pages.
func genDocs(n int, words func(int) string) []search.Doc {
	docs := make([]search.Doc, n)
	for j := range docs {
		var md strings.Builder
		for k := range 3 {
			fmt.Fprintf(&md, "## %s\n\n%s.\n\n", words(3), words(45+k*5))
		}
		docs[j] = search.Doc{PageID: fmt.Sprintf("pg%06d", j), Version: "v1", Title: words(3),
			Path: fmt.Sprintf("page-%d", j), Markdown: md.String()}
	}
	return docs
}

// vocabulary returns n distinct pronounceable words, most frequent first.
func vocabulary(n int) []string {
	consonants, vowels := "bcdfghklmnprstvz", "aeiou"
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var w strings.Builder
		for range 2 + rng.IntN(3) {
			w.WriteByte(consonants[rng.IntN(len(consonants))])
			w.WriteByte(vowels[rng.IntN(len(vowels))])
		}
		if !seen[w.String()] {
			seen[w.String()] = true
			out = append(out, w.String())
		}
	}
	return out
}

// report runs fn once per iteration and reports the median and 95th
// percentile of its durations, and the pages or spaces it found.
func report(b *testing.B, text string, fn func(q search.Query) int) {
	b.Helper()
	q, err := search.ParseQuery("query", text)
	if err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	found := 0
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		found = fn(q)
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(found), "found")
}

// best returns the window of the best hits, as the resolvers page them.
func best(hits []search.Ranked) []search.Ranked {
	slices.SortFunc(hits, func(a, b search.Ranked) int {
		return byRank(a.Rank, b.Rank, a.PageID+a.SpaceID, b.PageID+b.SpaceID)
	})
	return hits[:min(len(hits), benchWindow)]
}

// bestSpaces returns the window of the best spaces.
func bestSpaces(spaces []search.SpaceRanked) []search.SpaceRanked {
	slices.SortFunc(spaces, func(a, b search.SpaceRanked) int { return byRank(a.Rank, b.Rank, a.SpaceID, b.SpaceID) })
	return spaces[:min(len(spaces), benchWindow)]
}

// byRank orders by rank, highest first, then by key.
func byRank(ra, rb float64, ka, kb string) int {
	if ra != rb {
		if ra > rb {
			return -1
		}
		return 1
	}
	return strings.Compare(ka, kb)
}

func benchSpace(b *testing.B, pg bool, text func([]string) string) {
	c := benchCorpus(b, pg)
	ctx, drv := context.Background(), c.db.Client.Driver()
	report(b, text(c.vocab), func(q search.Query) int {
		ranked, err := c.idx.RankPages(ctx, drv, c.spaces[0], q)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.idx.Pages(ctx, drv, q, best(ranked)); err != nil {
			b.Fatal(err)
		}
		return len(ranked)
	})
}

func benchOrganization(b *testing.B, pg bool, text func([]string) string) {
	c := benchCorpus(b, pg)
	ctx, drv := context.Background(), c.db.Client.Driver()
	admitted := search.Spaces{Table: space.Table, ID: space.FieldID,
		Where: []func(*sql.Selector){space.OrganizationID(c.org), space.DeletedAtIsNil()}}
	report(b, text(c.vocab), func(q search.Query) int {
		ranked, err := c.idx.RankSpaces(ctx, drv, c.org, q, admitted)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.idx.BestPages(ctx, drv, q, bestSpaces(ranked)); err != nil {
			b.Fatal(err)
		}
		return len(ranked)
	})
}

// BenchmarkSearchSpace searches a space of 10,000 pages.
func BenchmarkSearchSpace(b *testing.B) { benchEach(b, benchSpace) }

// BenchmarkSearchOrganization searches an organization of 100,000 pages in
// 100 spaces.
func BenchmarkSearchOrganization(b *testing.B) { benchEach(b, benchOrganization) }

// benchEach runs a benchmark for each database and kind of query.
func benchEach(b *testing.B, bench func(b *testing.B, pg bool, text func([]string) string)) {
	for _, db := range []string{"sqlite", "postgres"} {
		for _, q := range benchQueries {
			b.Run(db+"/"+q.kind, func(b *testing.B) { bench(b, db == "postgres", q.text) })
		}
	}
}
