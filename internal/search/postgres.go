package search

import (
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"
)

// postgres indexes pages in a table with a tsvector column under a GIN
// index: the title with weight A, the description and headings B, the
// body D. The text is already folded and split into words (Words), so the
// "simple" configuration only has to take the words as they are. Queries
// match and rank on the tsvector alone.
type postgres struct{}

func (postgres) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS search_pages (
	space_id text NOT NULL,
	page_id text NOT NULL,
	organization_id text NOT NULL,
	version text NOT NULL,
	stored text NOT NULL,
	doc tsvector NOT NULL,
	PRIMARY KEY (space_id, page_id))`,
		`CREATE INDEX IF NOT EXISTS search_pages_doc ON search_pages USING gin (doc)`,
		`CREATE INDEX IF NOT EXISTS search_pages_organization ON search_pages (organization_id)`,
	}
}

func dollar(n int) string { return fmt.Sprintf("$%d", n) }

// lexeme is a term as a tsquery; weight "A" restricts it to the title.
func lexeme(t Term, weight string) string {
	if t.Prefix {
		return t.Word + ":*" + weight
	}
	if weight != "" {
		return t.Word + ":" + weight
	}
	return t.Word
}

func (postgres) versions(spaceID string) (string, []any) {
	return `SELECT page_id, space_id, page_id, version FROM search_pages WHERE space_id = $1`, []any{spaceID}
}

func (postgres) delete(spaceID string, keys []any) (string, []any) {
	return `DELETE FROM search_pages WHERE space_id = $1 AND page_id IN (` + placeholders(2, len(keys), dollar) + `)`,
		append([]any{spaceID}, keys...)
}

func (d postgres) deletePages(spaceID string, pageIDs []string) (string, []any) {
	keys := make([]any, len(pageIDs))
	for i, id := range pageIDs {
		keys[i] = id
	}
	return d.delete(spaceID, keys)
}

func (postgres) insert(spaceID, orgID string, rows []docRow) (string, []any) {
	var b strings.Builder
	b.WriteString(`INSERT INTO search_pages (space_id, page_id, organization_id, version, stored, doc) VALUES `)
	args := make([]any, 0, 8*len(rows))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		n := len(args)
		fmt.Fprintf(&b, `(%s, setweight(to_tsvector('simple', $%d), 'A') || setweight(to_tsvector('simple', $%d), 'B') || setweight(to_tsvector('simple', $%d), 'D'))`,
			placeholders(n+1, 5, dollar), n+6, n+7, n+8)
		args = append(args, spaceID, r.doc.PageID, orgID, r.doc.Version, r.stored, r.title, r.headings, r.body)
	}
	return b.String(), args
}

// words: PostgreSQL matches a prefix in the index itself.
func (postgres) words([]docRow) (string, []any) { return "", nil }

func (postgres) move(spaceID, orgID string) (string, []any) {
	return `UPDATE search_pages SET organization_id = $1 WHERE space_id = $2`, []any{orgID, spaceID}
}

func (postgres) copy(from, to, orgID string) (string, []any) {
	return `INSERT INTO search_pages (space_id, page_id, organization_id, version, stored, doc)
	SELECT $1, page_id, $2, version, stored, doc FROM search_pages WHERE space_id = $3`,
		[]any{to, orgID, from}
}

func (postgres) drop(spaceID string) (string, []any) {
	return `DELETE FROM search_pages WHERE space_id = $1`, []any{spaceID}
}

// ranked is the SQL of a derived table of the candidates cand (a SELECT
// of space_id, page_id and doc from search_pages, whose placeholder
// anyTerm is the query's tsquery), with columns space_id, page_id and r,
// their rank. Its arguments are appended to args.
//
// A page's doc is read once: it is large enough to be stored out of line
// and compressed, and each use of the column would read and decompress it
// again, once per term.
func (postgres) ranked(q Query, cand func(anyTerm string) string, args *[]any) string {
	arg := func(v string) string {
		*args = append(*args, v)
		return fmt.Sprintf("to_tsquery('simple', $%d)", len(*args))
	}
	// With one term, every page found has it, and that is not asked.
	var terms, titled, all []string
	for _, t := range q.Terms {
		all = append(all, lexeme(t, ""))
		if len(q.Terms) > 1 {
			terms = append(terms, "(d @@ "+arg(lexeme(t, ""))+")::int")
		}
		titled = append(titled, "(d @@ "+arg(lexeme(t, "A"))+")::int")
	}
	if len(terms) == 0 {
		terms = []string{"1"}
	}
	query := arg(strings.Join(all, " | "))
	return fmt.Sprintf(`(SELECT space_id, page_id, %s AS r FROM (
	SELECT space_id, page_id, %s AS t, %s AS ti, ts_rank('{0.1, 0.2, 0.4, 1.0}', d, %s) AS s
	FROM (SELECT space_id, page_id, doc || ''::tsvector AS d FROM (%s) AS c OFFSET 0) AS c) AS m) AS ranked`,
		rankOf("t", "ti", "s"), strings.Join(terms, " + "), strings.Join(titled, " + "), query, cand(query))
}

// candidates is the SELECT of the first n pages by ID of the space whose
// ID is the SQL space that match the tsquery anyTerm: a common word's are
// the first rows of the space in the order of the primary key, a rare
// word's come from the full-text index.
func candidates(space, anyTerm string, n int) string {
	return fmt.Sprintf(`SELECT space_id, page_id, doc FROM search_pages WHERE space_id = %s AND doc @@ %s ORDER BY page_id LIMIT %d`,
		space, anyTerm, n)
}

// rankSpace ranks the candidates of a space: its first MaxRanked matches.
func (d postgres) rankSpace(spaceID string, q Query) (string, []any) {
	args := []any{spaceID}
	from := d.ranked(q, func(anyTerm string) string { return candidates("$1", anyTerm, MaxRanked) }, &args)
	return `SELECT space_id, page_id, r FROM ` + from, args
}

// rankOrg ranks the candidates of each admitted space, its first
// SpaceCandidates matches by page ID, and keeps the best MaxPagesPerSpace:
// a space without any is not found.
//
// The candidates come from one of two plans, which PostgreSQL's own
// statistics of the column choose between in the statement (see
// orgMatches): a word on few pages is looked up once in the full-text
// index for the whole organization; a word on many, once per space, in
// the space's first pages that have it, which a lookup in the index would
// make cost as much as all of the organization's matches in each space.
func (d postgres) rankOrg(orgID string, q Query, spaces Spaces) (string, []any) {
	visible, args := spaces.subquery(dialect.Postgres, 0)
	args = append(args, orgID)
	org := len(args)
	few := d.fewMatches(q, &args)
	from := d.ranked(q, func(anyTerm string) string {
		return fmt.Sprintf(`SELECT space_id, page_id, doc FROM (
	SELECT p.space_id, p.page_id, p.doc, ROW_NUMBER() OVER (PARTITION BY p.space_id ORDER BY p.page_id) AS n
	FROM search_pages AS p WHERE %s AND p.organization_id = $%d AND p.doc @@ %s AND p.space_id IN (%s)) AS o WHERE n <= %d
	UNION ALL
	SELECT c.space_id, c.page_id, c.doc FROM (%s) AS f(id) CROSS JOIN LATERAL (%s) AS c WHERE NOT %s`,
			few, org, anyTerm, visible, SpaceCandidates, visible, candidates("f.id", anyTerm, SpaceCandidates), few)
	}, &args)
	return fmt.Sprintf(`SELECT space_id, page_id, r FROM (
	SELECT space_id, page_id, r, ROW_NUMBER() OVER (PARTITION BY space_id ORDER BY r DESC, page_id) AS n FROM %s) AS b
	WHERE n <= %d ORDER BY space_id, n`, from, MaxPagesPerSpace), args
}

// fewMatches is the SQL of a boolean: whether the statistics of the index
// put the pages that match q at orgMatches or fewer. Its arguments are
// appended to args.
func (postgres) fewMatches(q Query, args *[]any) string {
	patterns := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		// Words are letters and digits: nothing to escape.
		patterns[i] = t.Word
		if t.Prefix {
			patterns[i] += "%"
		}
	}
	*args = append(*args, pq.Array(patterns))
	// The share of pages that have a word is its frequency among the
	// column's most common elements, or less when it is not one of them;
	// the table's rows are its last count scaled to its size now, as the
	// planner does. Without statistics (a table not analyzed yet), the
	// plan is the one per space, whose cost is bounded whatever the
	// matches.
	return fmt.Sprintf(`coalesce((SELECT coalesce((SELECT sum(e.f)
		FROM unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(w, f) WHERE e.w LIKE ANY($%d)), 0)
		FROM pg_stats AS s WHERE s.tablename = 'search_pages' AND s.attname = 'doc' AND s.most_common_elems IS NOT NULL AND s.schemaname = (
			SELECT n.nspname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE c.oid = 'search_pages'::regclass))
	* (SELECT reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int) FROM pg_class
		WHERE oid = 'search_pages'::regclass AND relpages > 0 AND reltuples > 0) <= %d, false)`, len(*args), orgMatches)
}

// orgMatches is the most pages of all organizations that the statistics
// may estimate a query to match for an organization search to look its
// words up once: each of those pages is read to know its organization, and
// past a few thousand, on pages of the table that are far apart, looking
// the words up in each space costs less.
const orgMatches = 5000

func (postgres) stored(hits []Ranked) (string, []any) {
	args := make([]any, 0, 2*len(hits))
	pairs := make([]string, len(hits))
	for i, h := range hits {
		args = append(args, h.SpaceID, h.PageID)
		pairs[i] = fmt.Sprintf("($%d, $%d)", 2*i+1, 2*i+2)
	}
	return `SELECT space_id, page_id, stored FROM search_pages WHERE (space_id, page_id) IN (` + strings.Join(pairs, ", ") + `)`, args
}
