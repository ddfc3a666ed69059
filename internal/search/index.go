// Package search is Bindery's full-text search: the index of every space's
// current content, and ranked queries over a space or the spaces of an
// organization that a viewer can read.
//
// Text is analysed once, in Go (Words, ParseQuery): folded to lower case
// without accents and split into words of letters and digits. Each database
// indexes the words it is given with its own engine, SQLite's FTS5 or
// PostgreSQL's tsvector with a GIN index, behind the dialect interface, so
// both find the same pages. Ranking (see "Ranking" below) is the same
// formula on both; only its last tie-breaker, the relevance score, is
// dialect-specific. A query ranks at most a bounded number of its matches,
// its candidates (see MaxRanked and SpaceCandidates), so that a word on
// most pages of a large organization costs what a rarer one does, less the
// walk of the index's entries that finds them.
//
// The package knows nothing about HTTP or authorization: the caller passes
// the predicates that restrict which spaces a viewer may see.
package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/sqlplan"
)

// Index is the search index. Its statements run on the driver they are
// given, so that updates join the transaction that moves a space's content.
type Index struct {
	d sqlDialect
}

// New returns the index for a database of the given ent dialect.
func New(dialectName string) *Index {
	if dialectName == dialect.Postgres {
		return &Index{d: postgres{}}
	}
	return &Index{d: sqlite{}}
}

// Schema returns the statements that create the index's tables, each safe
// to run again. The baseline migration holds them as they were when it was
// written (package store/migrations); a change to the index's tables needs
// a migration file of its own, written by hand.
func (x *Index) Schema() []string { return x.d.schema() }

// batch is the number of pages one statement inserts or deletes, well
// under both databases' limits on parameters.
const batch = 400

// Sync makes the index of a space hold exactly docs, the indexable pages of
// its current content, in organization org. Pages whose Version is already
// indexed are left alone: an edit of one page re-indexes that page. It
// costs one statement to read what is indexed, and one per batch of pages
// to delete or insert.
func (x *Index) Sync(ctx context.Context, drv dialect.Driver, spaceID, orgID string, docs []Doc) error {
	var rows entsql.Rows
	q, args := x.d.versions(spaceID)
	if err := drv.Query(ctx, q, args, &rows); err != nil {
		return fmt.Errorf("reading the search index of %s: %w", spaceID, err)
	}
	indexed := map[string]indexedPage{}
	for rows.Next() {
		var p indexedPage
		var space string
		if err := rows.Scan(&p.key, &space, &p.pageID, &p.version); err != nil {
			rows.Close()
			return err
		}
		if space == spaceID {
			indexed[p.pageID] = p
		}
	}
	if err := closeRows(&rows); err != nil {
		return err
	}
	var stale []any
	var fresh []Doc
	want := make(map[string]bool, len(docs))
	for _, d := range docs {
		want[d.PageID] = true
		p, ok := indexed[d.PageID]
		if ok && p.version == d.Version {
			continue
		}
		if ok {
			stale = append(stale, p.key)
		}
		fresh = append(fresh, d)
	}
	for id, p := range indexed {
		if !want[id] {
			stale = append(stale, p.key)
		}
	}
	for i := 0; i < len(stale); i += batch {
		q, args := x.d.delete(spaceID, stale[i:min(i+batch, len(stale))])
		if err := drv.Exec(ctx, q, args, nil); err != nil {
			return fmt.Errorf("updating the search index of %s: %w", spaceID, err)
		}
	}
	return x.insert(ctx, drv, spaceID, orgID, fresh)
}

// Apply changes the index of a space from one content to the next: it
// removes the pages of removed (page IDs) and indexes docs, whose earlier
// versions it removes too. The caller knows both contents, so nothing is
// read: one statement per batch of pages to delete or insert.
func (x *Index) Apply(ctx context.Context, drv dialect.Driver, spaceID, orgID string, removed []string, docs []Doc) error {
	for i := 0; i < len(removed); i += batch {
		q, args := x.d.deletePages(spaceID, removed[i:min(i+batch, len(removed))])
		if err := drv.Exec(ctx, q, args, nil); err != nil {
			return fmt.Errorf("updating the search index of %s: %w", spaceID, err)
		}
	}
	return x.insert(ctx, drv, spaceID, orgID, docs)
}

// insert indexes docs, which are not in the index.
func (x *Index) insert(ctx context.Context, drv dialect.Driver, spaceID, orgID string, docs []Doc) error {
	for i := 0; i < len(docs); i += batch {
		rows := make([]docRow, 0, batch)
		for _, d := range docs[i:min(i+batch, len(docs))] {
			sections := sectionsOf(d)
			data, err := d.stored(sections)
			if err != nil {
				return err
			}
			title, headings, body := d.columns(sections)
			rows = append(rows, docRow{doc: d, title: title, headings: headings, body: body, stored: string(data)})
		}
		q, args := x.d.insert(spaceID, orgID, rows)
		if err := drv.Exec(ctx, q, args, nil); err != nil {
			return fmt.Errorf("updating the search index of %s: %w", spaceID, err)
		}
		if q, args := x.d.words(rows); q != "" {
			if err := drv.Exec(ctx, q, args, nil); err != nil {
				return fmt.Errorf("updating the search index of %s: %w", spaceID, err)
			}
		}
	}
	return nil
}

// sectionsOf splits a page into its sections.
func sectionsOf(d Doc) []document.Section { return document.Sections(d.Markdown) }

// Copy indexes space to as a copy of space from, in organization org,
// without analysing its pages again: a duplicated space's content is the
// same objects.
func (x *Index) Copy(ctx context.Context, drv dialect.Driver, from, to, orgID string) error {
	q, args := x.d.copy(from, to, orgID)
	if err := drv.Exec(ctx, q, args, nil); err != nil {
		return fmt.Errorf("copying the search index of %s: %w", from, err)
	}
	return nil
}

// Move records that a space now belongs to organization org.
func (x *Index) Move(ctx context.Context, drv dialect.Driver, spaceID, orgID string) error {
	q, args := x.d.move(spaceID, orgID)
	if err := drv.Exec(ctx, q, args, nil); err != nil {
		return fmt.Errorf("moving the search index of %s: %w", spaceID, err)
	}
	return nil
}

// Drop removes the index of spaces that are gone for good.
func (x *Index) Drop(ctx context.Context, drv dialect.Driver, spaceIDs []string) error {
	for _, id := range spaceIDs {
		q, args := x.d.drop(id)
		if err := drv.Exec(ctx, q, args, nil); err != nil {
			return fmt.Errorf("dropping the search index of %s: %w", id, err)
		}
	}
	return nil
}

// Limits of ranking. Ranking reads each page it ranks, so a query that
// matches most pages of a large space or organization ranks only some of
// them, its candidates, chosen without reading pages: the ones the
// full-text index finds first (on SQLite, the pages indexed last; on
// PostgreSQL, the first by page ID). When fewer pages match, every match is
// ranked.
const (
	// MaxRanked is the number of candidates of a space search: it lists
	// at most that many pages, the best among its first MaxRanked
	// matches.
	MaxRanked = 1000
	// SpaceCandidates is the number of candidates of each space that an
	// organization search ranks: a space is found whenever one of its
	// pages matches, and ranked by the best of its first SpaceCandidates
	// matches, which are also those its best pages are chosen from.
	SpaceCandidates = 20
)

// Ranked is a hit's key and rank, before its page is read.
type Ranked struct {
	SpaceID, PageID string
	Rank            float64
}

// RankPages returns the pages of a space that match q, with their rank, in
// no particular order: its candidates, every match unless more than
// MaxRanked pages match. The caller pages through them (a page of results
// is then read with Pages). One statement.
func (x *Index) RankPages(ctx context.Context, drv dialect.Driver, spaceID string, q Query) ([]Ranked, error) {
	sq, args := x.d.rankSpace(spaceID, q)
	return scanRanked(sqlplan.EachRun(ctx), drv, sq, args, spaceID)
}

// RankSpaces returns the spaces of organization org that match q and that
// the predicates on the spaces table admit (the viewer's scope, live
// spaces), each with its best candidates (see SpaceCandidates), at most
// MaxPagesPerSpace of them, and ranked by the first: every such space,
// whatever the number of matches. One statement; BestPages reads the
// pages of the spaces shown.
func (x *Index) RankSpaces(ctx context.Context, drv dialect.Driver, orgID string, q Query, spaces Spaces) ([]SpaceRanked, error) {
	sq, args := x.d.rankOrg(orgID, q, spaces)
	// Rows come grouped by space, best first. The plan depends on how
	// common the words are (see postgres.rankOrg).
	best, err := scanRanked(sqlplan.EachRun(ctx), drv, sq, args, "")
	if err != nil {
		return nil, err
	}
	var out []SpaceRanked
	for _, r := range best {
		if n := len(out); n > 0 && out[n-1].SpaceID == r.SpaceID {
			out[n-1].Best = append(out[n-1].Best, r)
			continue
		}
		out = append(out, SpaceRanked{SpaceID: r.SpaceID, Rank: r.Rank, Best: []Ranked{r}})
	}
	return out, nil
}

// SpaceRanked is a space an organization search found: the rank of its
// best candidate, and its best candidates, best first.
type SpaceRanked struct {
	SpaceID string
	Rank    float64
	Best    []Ranked
}

// Spaces selects the spaces a query may find: the predicates apply to a
// SELECT of the spaces table, as ent's predicates of the Space type do.
type Spaces struct {
	Table, ID string
	Where     []func(*entsql.Selector)
}

// subquery returns the SELECT of the admitted spaces' IDs, its placeholders
// numbered after the n arguments that precede it.
func (s Spaces) subquery(d string, n int) (string, []any) {
	t := entsql.Table(s.Table)
	sel := entsql.Dialect(d).Select(t.C(s.ID)).From(t)
	for _, p := range s.Where {
		p(sel)
	}
	sel.SetTotal(n)
	return sel.Query()
}

func scanRanked(ctx context.Context, drv dialect.Driver, q string, args []any, spaceID string) ([]Ranked, error) {
	var rows entsql.Rows
	if err := drv.Query(ctx, q, args, &rows); err != nil {
		return nil, fmt.Errorf("searching: %w", err)
	}
	var out []Ranked
	for rows.Next() {
		var r Ranked
		if err := rows.Scan(&r.SpaceID, &r.PageID, &r.Rank); err != nil {
			rows.Close()
			return nil, err
		}
		if spaceID != "" && r.SpaceID != spaceID {
			continue // an FTS5 scope token shared by two spaces
		}
		out = append(out, r)
	}
	return out, closeRows(&rows)
}

// Pages reads the pages of hits and presents them for q, in the order of
// hits. One statement.
func (x *Index) Pages(ctx context.Context, drv dialect.Driver, q Query, hits []Ranked) ([]PageHit, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	sq, args := x.d.stored(hits)
	data, err := scanStored(ctx, drv, sq, args)
	if err != nil {
		return nil, err
	}
	out := make([]PageHit, 0, len(hits))
	for _, h := range hits {
		d, ok := data[[2]string{h.SpaceID, h.PageID}]
		if !ok {
			continue
		}
		p, err := q.hit(h.SpaceID, h.PageID, h.Rank, d.data)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// BestPages reads the best candidates of spaces that RankSpaces ranked and
// presents them for q, by space, best first. One statement.
func (x *Index) BestPages(ctx context.Context, drv dialect.Driver, q Query, spaces []SpaceRanked) (map[string][]PageHit, error) {
	var hits []Ranked
	for _, s := range spaces {
		hits = append(hits, s.Best...)
	}
	pages, err := x.Pages(ctx, drv, q, hits)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]PageHit, len(spaces))
	for _, p := range pages {
		out[p.SpaceID] = append(out[p.SpaceID], p)
	}
	return out, nil
}

type storedRow struct{ data []byte }

func scanStored(ctx context.Context, drv dialect.Driver, q string, args []any) (map[[2]string]storedRow, error) {
	var rows entsql.Rows
	if err := drv.Query(ctx, q, args, &rows); err != nil {
		return nil, fmt.Errorf("reading search results: %w", err)
	}
	out := map[[2]string]storedRow{}
	for rows.Next() {
		var space, page string
		var data []byte
		if err := rows.Scan(&space, &page, &data); err != nil {
			rows.Close()
			return nil, err
		}
		out[[2]string{space, page}] = storedRow{data: data}
	}
	return out, closeRows(&rows)
}

func closeRows(rows *entsql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// indexedPage is a page as the index has it.
type indexedPage struct {
	key             any
	pageID, version string
}

// docRow is a page ready to be inserted: its indexed columns, in folded
// words, and what results show of it.
type docRow struct {
	doc                           Doc
	title, headings, body, stored string
}

// Ranking. A page's rank is
//
//	64 × (terms of the query the page has)
//	 + 2 × (terms its title has)
//	 + a relevance score of the page, scaled into [0, 1)
//
// so pages with more of the query's words come first; among those, pages
// with more of them in the title; then the score. On SQLite the score is
// BM25's sum of saturated term frequencies (k1 = 1.2, b = 0.75), a word in
// the title counting 10 times, in the headings and description 4, in the
// body once, and a page's length measured against typicalPageBytes; it
// has no inverse document frequency, which would need statistics over the
// whole index in each query. On PostgreSQL it is ts_rank with weights 1,
// 0.4 and 0.1, which has none either. A term counts when a word of the
// page starts with it, or equals it for a short term that is not the last
// (see ParseQuery). With at most MaxTerms terms, the second part never
// reaches the first's step.
const (
	termWeight  = 64
	titleWeight = 2

	titleBoost, headingsBoost = 10, 4
	bm25K1, bm25B             = 1.2, 0.75
	// typicalPageBytes is the length of text at which BM25 neither favours
	// nor penalizes a page: about 600 words.
	typicalPageBytes = 4096
)

// rankOf returns the SQL of a rank from the SQL of its parts: the number
// of terms a page has, the number its title has, and the engine's score
// x ≥ 0, which is scaled into [0, 1) as x / (x + 1).
func rankOf(terms, titled, score string) string {
	return fmt.Sprintf("(%d * (%s) + %d * (%s) + (%s) / ((%s) + 1.0))", termWeight, terms, titleWeight, titled, score, score)
}

// scopeToken is the word a space or an organization is found by in SQLite's
// index: IDs are case-sensitive, FTS5 words are not, so the token is a
// hash of the ID in hexadecimal. Rows are checked against the ID itself.
func scopeToken(kind byte, id string) string {
	sum := sha256.Sum256([]byte(id))
	return string(kind) + hex.EncodeToString(sum[:10])
}

// sqlDialect writes the statements of one database.
type sqlDialect interface {
	schema() []string
	// versions selects key, space_id, page_id, version of a space's rows.
	versions(spaceID string) (string, []any)
	delete(spaceID string, keys []any) (string, []any)
	deletePages(spaceID string, pageIDs []string) (string, []any)
	insert(spaceID, orgID string, rows []docRow) (string, []any)
	// words records the words of rows a query's prefix is expanded into,
	// when the dialect expands prefixes itself; "" when it does not.
	words(rows []docRow) (string, []any)
	move(spaceID, orgID string) (string, []any)
	copy(from, to, orgID string) (string, []any)
	drop(spaceID string) (string, []any)
	// rankSpace selects space_id, page_id, rank of the candidates.
	rankSpace(spaceID string, q Query) (string, []any)
	// rankOrg selects space_id, page_id, rank of the best
	// MaxPagesPerSpace candidates of each space, by space, best first.
	rankOrg(orgID string, q Query, spaces Spaces) (string, []any)
	// stored selects space_id, page_id, stored of hits, which may be of
	// several spaces.
	stored(hits []Ranked) (string, []any)
}
