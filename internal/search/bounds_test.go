package search_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/store"
)

// boundsDB opens a fresh database: SQLite in a temporary file, or a schema
// of its own on PostgreSQL when BINDERY_TEST_DATABASE_URL is set.
func boundsDB(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "bounds.db")
	if base := os.Getenv("BINDERY_TEST_DATABASE_URL"); base != "" {
		schema := fmt.Sprintf("bindery_search_bounds_%d", os.Getpid())
		admin, err := store.Open(ctx, base)
		require.NoError(t, err)
		_, err = admin.SQL.ExecContext(ctx, "CREATE SCHEMA "+schema)
		require.NoError(t, err)
		t.Cleanup(func() { _, _ = admin.SQL.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); admin.Close() })
		dsn, err = store.InSchema(base, schema)
		require.NoError(t, err)
	}
	db, err := store.Open(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	return db
}

// A query that matches more pages than the bounds ranks a bounded number
// of them, but an organization search still finds every space that has a
// match, and a space's best pages are those it was ranked by.
func TestCandidateBounds(t *testing.T) {
	ctx := context.Background()
	db := boundsDB(t)
	idx := search.New(db.Dialect)
	org := db.Client.Organization.Create().SetTitle("Bounds").SaveX(ctx)
	doc := func(i int, title, body string) search.Doc {
		return search.Doc{PageID: fmt.Sprintf("pg%05d", i), Version: "v1", Title: title, Path: fmt.Sprintf("p-%d", i),
			Markdown: body + "\n"}
	}
	index := func(spaceID string, docs []search.Doc) {
		require.NoError(t, store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
			return idx.Apply(ctx, tx.Driver(), spaceID, org.ID, nil, docs)
		}))
	}
	big := db.Client.Space.Create().SetOrganizationID(org.ID).SetTitle("Big").SaveX(ctx)
	var docs []search.Doc
	for i := range search.MaxRanked + 50 {
		docs = append(docs, doc(i, fmt.Sprintf("Page %d", i), "The word zebra is on every page."))
	}
	index(big.ID, docs)
	// Spaces with fewer matches than a space's candidates, and with one
	// match among many other pages.
	var small []string
	for i := range 3 {
		s := db.Client.Space.Create().SetOrganizationID(org.ID).SetTitle(fmt.Sprintf("Small %d", i)).SaveX(ctx)
		small = append(small, s.ID)
		var docs []search.Doc
		for j := range 3 * search.SpaceCandidates {
			docs = append(docs, doc(j, "Horse", "No stripes."))
		}
		docs = append(docs, doc(len(docs), "Zebra", "Stripes."))
		index(s.ID, docs)
	}
	none := db.Client.Space.Create().SetOrganizationID(org.ID).SetTitle("None").SaveX(ctx)
	index(none.ID, []search.Doc{doc(0, "Horse", "Nothing.")})

	drv := db.Client.Driver()
	q, err := search.ParseQuery("query", "zebra")
	require.NoError(t, err)
	ranked, err := idx.RankPages(ctx, drv, big.ID, q)
	require.NoError(t, err)
	assert.Len(t, ranked, search.MaxRanked, "a space search ranks at most MaxRanked pages")

	admitted := search.Spaces{Table: space.Table, ID: space.FieldID, Where: []func(*sql.Selector){space.OrganizationID(org.ID)}}
	spaces, err := idx.RankSpaces(ctx, drv, org.ID, q, admitted)
	require.NoError(t, err)
	found := map[string]float64{}
	for _, r := range spaces {
		found[r.SpaceID] = r.Rank
	}
	assert.Len(t, found, 4, "every space with a match, and only those")
	for _, id := range append([]string{big.ID}, small...) {
		assert.Contains(t, found, id)
	}
	best, err := idx.BestPages(ctx, drv, q, spaces)
	require.NoError(t, err)
	assert.Len(t, best[big.ID], search.MaxPagesPerSpace)
	for _, id := range small {
		require.Len(t, best[id], 1, "the one match among many pages")
		assert.Equal(t, "Zebra", best[id][0].Title)
		assert.Equal(t, found[id], best[id][0].Rank, "a space ranks by the best page it shows")
		assert.Greater(t, found[id], found[big.ID], "a title match outranks a body match")
	}
	assert.Equal(t, found[big.ID], best[big.ID][0].Rank)

	if db.Dialect == dialect.Postgres {
		// Without statistics, the plan is the one that looks words up in
		// each space; with them, a word on fewer pages than the bound is
		// looked up once for the organization. Both rank the same
		// candidates.
		looksOnce, err := search.LooksUpOnce(ctx, drv, q)
		require.NoError(t, err)
		require.False(t, looksOnce, "without statistics, each space")
		_, err = db.SQL.ExecContext(ctx, "ANALYZE search_pages")
		require.NoError(t, err)
		looksOnce, err = search.LooksUpOnce(ctx, drv, q)
		require.NoError(t, err)
		require.True(t, looksOnce, "with statistics, once for the organization")
		once, err := idx.RankSpaces(ctx, drv, org.ID, q, admitted)
		require.NoError(t, err)
		assert.Equal(t, spaces, once, "the same spaces, pages and ranks from both plans")
	}
}
