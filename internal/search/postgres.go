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

// matches is the SQL of a derived table of the pages that match q and the
// condition where (on search_pages), with columns space_id, page_id,
// stored and r, their rank. Its arguments are appended to args.
func (postgres) matches(q Query, where string, args *[]any) string {
	arg := func(v string) string {
		*args = append(*args, v)
		return fmt.Sprintf("to_tsquery('simple', $%d)", len(*args))
	}
	// Each use of doc reads it again: with one term, every page found has
	// it, and that is not asked.
	var terms, titled, all []string
	for _, t := range q.Terms {
		all = append(all, lexeme(t, ""))
		if len(q.Terms) > 1 {
			terms = append(terms, "(doc @@ "+arg(lexeme(t, ""))+")::int")
		}
		titled = append(titled, "(doc @@ "+arg(lexeme(t, "A"))+")::int")
	}
	if len(terms) == 0 {
		terms = []string{"1"}
	}
	query := arg(strings.Join(all, " | "))
	return fmt.Sprintf(`(SELECT space_id, page_id, stored, %s AS r FROM (
	SELECT space_id, page_id, stored, %s AS t, %s AS ti, ts_rank('{0.1, 0.2, 0.4, 1.0}', doc, %s) AS s
	FROM search_pages WHERE doc @@ %s AND %s) AS m) AS ranked`,
		rankOf("t", "ti", "s"), strings.Join(terms, " + "), strings.Join(titled, " + "), query, query, where)
}

func (d postgres) rankSpace(spaceID string, q Query) (string, []any) {
	args := []any{spaceID}
	return `SELECT space_id, page_id, r FROM ` + d.matches(q, "space_id = $1", &args), args
}

func (d postgres) rankOrg(orgID string, q Query, spaces Spaces) (string, []any) {
	args := []any{orgID}
	from := d.matches(q, "organization_id = $1", &args)
	visible, vargs := spaces.subquery(dialect.Postgres, len(args))
	return fmt.Sprintf(`SELECT space_id, '', MAX(r) FROM %s WHERE space_id IN (%s) GROUP BY space_id`, from, visible),
		append(args, vargs...)
}

func (postgres) stored(hits []Ranked) (string, []any) {
	args := []any{hits[0].SpaceID}
	for _, h := range hits {
		args = append(args, h.PageID)
	}
	return `SELECT space_id, page_id, stored FROM search_pages WHERE space_id = $1 AND page_id IN (` +
		placeholders(2, len(hits), dollar) + `)`, args
}

func (d postgres) best(orgID string, q Query, spaceIDs []string) (string, []any) {
	args := []any{orgID}
	for _, id := range spaceIDs {
		args = append(args, id)
	}
	from := d.matches(q, "organization_id = $1 AND space_id IN ("+placeholders(2, len(spaceIDs), dollar)+")", &args)
	return fmt.Sprintf(`SELECT space_id, page_id, r, stored FROM (
	SELECT space_id, page_id, r, stored, ROW_NUMBER() OVER (PARTITION BY space_id ORDER BY r DESC, page_id) AS n FROM %s) AS b
	WHERE n <= %d ORDER BY space_id, n`, from, MaxPagesPerSpace), args
}
