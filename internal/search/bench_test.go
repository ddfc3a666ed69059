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

// The benchmarks search a corpus of generated pages (English-like words of
// a Zipf-distributed vocabulary, three sections of about 50 words each) as
// the resolvers do: rank every match, take the best 20, read them. They
// report the median and 95th percentile of a query over a mix of common,
// rare, several-word and prefix queries. Timings are reported, never
// asserted (README, "Search").
const (
	benchSpacePages = 10_000
	benchOrgSpaces  = 100
	benchOrgPages   = 100_000
	benchWindow     = 20
)

// benchQueries are the mix: a common word, a mid word, a rare word, two
// words, three, and prefixes as typed.
func benchQueries(vocab []string) []string {
	return []string{vocab[3], vocab[120], vocab[2500], vocab[10] + " " + vocab[400],
		vocab[40] + " " + vocab[800] + " " + vocab[5], vocab[300][:3], vocab[60] + " " + vocab[700][:4]}
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
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(c.vocab)-1))
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = c.vocab[zipf.Uint64()]
		}
		return strings.Join(w, " ")
	}
	sizes := []int{benchSpacePages}
	for len(sizes) < benchOrgSpaces {
		sizes = append(sizes, (benchOrgPages-benchSpacePages)/(benchOrgSpaces-1))
	}
	for i, n := range sizes {
		s := db.Client.Space.Create().SetOrganizationID(org.ID).SetTitle(fmt.Sprintf("Space %d", i)).SaveX(ctx)
		c.spaces = append(c.spaces, s.ID)
		docs := make([]search.Doc, n)
		for j := range docs {
			var md strings.Builder
			for k := range 3 {
				fmt.Fprintf(&md, "## %s\n\n%s.\n\n", words(3), words(45+k*5))
			}
			docs[j] = search.Doc{PageID: fmt.Sprintf("pg%06d", j), Version: "v1", Title: words(3),
				Path: fmt.Sprintf("page-%d", j), Markdown: md.String()}
		}
		err := store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
			return c.idx.Apply(ctx, tx.Driver(), s.ID, org.ID, nil, docs)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	c.created = time.Since(start)
	b.Logf("%s: indexed %d pages in %d spaces in %s", key, benchOrgPages, benchOrgSpaces, c.created.Round(time.Millisecond))
	corpora[key] = c
	return c
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

// report runs fn once per iteration over the query mix and reports the
// median and 95th percentile of its durations.
func report(b *testing.B, queries []string, fn func(q search.Query) int) {
	b.Helper()
	parsed := make([]search.Query, len(queries))
	for i, q := range queries {
		var err error
		if parsed[i], err = search.ParseQuery("query", q); err != nil {
			b.Fatal(err)
		}
	}
	var took []time.Duration
	hits := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		hits += fn(parsed[i%len(parsed)])
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(hits)/float64(len(took)), "matches/op")
}

// best returns the window of the best hits, as the resolvers page them.
func best(hits []search.Ranked) []search.Ranked {
	slices.SortFunc(hits, func(a, b search.Ranked) int {
		if a.Rank != b.Rank {
			if a.Rank > b.Rank {
				return -1
			}
			return 1
		}
		return strings.Compare(a.PageID+a.SpaceID, b.PageID+b.SpaceID)
	})
	return hits[:min(len(hits), benchWindow)]
}

func benchSpace(b *testing.B, pg bool) {
	c := benchCorpus(b, pg)
	ctx, drv := context.Background(), c.db.Client.Driver()
	report(b, benchQueries(c.vocab), func(q search.Query) int {
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

func benchOrganization(b *testing.B, pg bool) {
	c := benchCorpus(b, pg)
	ctx, drv := context.Background(), c.db.Client.Driver()
	admitted := search.Spaces{Table: space.Table, ID: space.FieldID,
		Where: []func(*sql.Selector){space.OrganizationID(c.org), space.DeletedAtIsNil()}}
	report(b, benchQueries(c.vocab), func(q search.Query) int {
		ranked, err := c.idx.RankSpaces(ctx, drv, c.org, q, admitted)
		if err != nil {
			b.Fatal(err)
		}
		window := best(ranked)
		ids := make([]string, len(window))
		for i, r := range window {
			ids[i] = r.SpaceID
		}
		if _, err := c.idx.BestPages(ctx, drv, c.org, q, ids); err != nil {
			b.Fatal(err)
		}
		return len(ranked)
	})
}

// BenchmarkSearchSpace searches a space of 10,000 pages.
func BenchmarkSearchSpace(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchSpace(b, false) })
	b.Run("postgres", func(b *testing.B) { benchSpace(b, true) })
}

// BenchmarkSearchOrganization searches an organization of 100,000 pages in
// 100 spaces.
func BenchmarkSearchOrganization(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchOrganization(b, false) })
	b.Run("postgres", func(b *testing.B) { benchOrganization(b, true) })
}
