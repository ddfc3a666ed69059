package search

import (
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
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
// of space_id, page_id, stored and doc from search_pages, whose
// placeholder anyTerm is the query's tsquery), with columns space_id,
// page_id, stored and r, their rank. Its arguments are appended to args.
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
	return fmt.Sprintf(`(SELECT space_id, page_id, stored, %s AS r FROM (
	SELECT space_id, page_id, stored, %s AS t, %s AS ti, ts_rank('{0.1, 0.2, 0.4, 1.0}', d, %s) AS s
	FROM (SELECT space_id, page_id, stored, doc || ''::tsvector AS d FROM (%s) AS c OFFSET 0) AS c) AS m) AS ranked`,
		rankOf("t", "ti", "s"), strings.Join(terms, " + "), strings.Join(titled, " + "), query, cand(query))
}

// candidates is the SELECT of the first n pages of the space whose ID is
// the SQL space that match the tsquery anyTerm, in the order of the
// primary key: a common word's are the first rows of the space, a rare
// word's come from the full-text index.
func candidates(space, anyTerm string, n int) string {
	return fmt.Sprintf(`SELECT space_id, page_id, stored, doc FROM search_pages WHERE space_id = %s AND doc @@ %s LIMIT %d`,
		space, anyTerm, n)
}

// rankSpace ranks the candidates of a space: its first MaxRanked matches.
func (d postgres) rankSpace(spaceID string, q Query) (string, []any) {
	args := []any{spaceID}
	from := d.ranked(q, func(anyTerm string) string { return candidates("$1", anyTerm, MaxRanked) }, &args)
	return `SELECT space_id, page_id, r FROM ` + from, args
}

// rankOrg ranks each admitted space by its best candidate, its first
// SpaceCandidates matches: a space without any is not found.
func (d postgres) rankOrg(_ string, q Query, spaces Spaces) (string, []any) {
	visible, args := spaces.subquery(dialect.Postgres, 0)
	from := d.ranked(q, func(anyTerm string) string { return candidates("f.id", anyTerm, SpaceCandidates) }, &args)
	return fmt.Sprintf(`SELECT f.id, '', MAX(ranked.r) FROM (%s) AS f(id) CROSS JOIN LATERAL %s GROUP BY f.id`, visible, from), args
}

func (postgres) stored(hits []Ranked) (string, []any) {
	args := []any{hits[0].SpaceID}
	for _, h := range hits {
		args = append(args, h.PageID)
	}
	return `SELECT space_id, page_id, stored FROM search_pages WHERE space_id = $1 AND page_id IN (` +
		placeholders(2, len(hits), dollar) + `)`, args
}

func (d postgres) best(_ string, q Query, spaceIDs []string) (string, []any) {
	args := make([]any, 0, len(spaceIDs))
	for _, id := range spaceIDs {
		args = append(args, id)
	}
	values := "(" + strings.Join(strings.Split(placeholders(1, len(spaceIDs), dollar), ", "), "), (") + ")"
	from := d.ranked(q, func(anyTerm string) string { return candidates("f.id", anyTerm, SpaceCandidates) }, &args)
	return fmt.Sprintf(`SELECT space_id, page_id, r, stored FROM (
	SELECT space_id, page_id, r, stored, ROW_NUMBER() OVER (PARTITION BY space_id ORDER BY r DESC, page_id) AS n
	FROM (VALUES %s) AS f(id) CROSS JOIN LATERAL %s) AS b
	WHERE n <= %d ORDER BY space_id, n`, values, from, MaxPagesPerSpace), args
}
