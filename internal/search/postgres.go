package search

import (
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
)

// postgres indexes pages in a table with a tsvector column under a GIN
// index: the title with weight A, the description and headings B, the
// body D. The text is already folded and split into words (Words), so the
// "simple" configuration only has to take the words as they are.
type postgres struct{}

func (postgres) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS search_pages (
	space_id text NOT NULL,
	page_id text NOT NULL,
	organization_id text NOT NULL,
	version text NOT NULL,
	title text NOT NULL,
	headings text NOT NULL,
	body text NOT NULL,
	stored text NOT NULL,
	doc tsvector NOT NULL,
	PRIMARY KEY (space_id, page_id))`,
		`CREATE INDEX IF NOT EXISTS search_pages_doc ON search_pages USING gin (doc)`,
		`CREATE INDEX IF NOT EXISTS search_pages_organization ON search_pages (organization_id)`,
	}
}

func dollar(n int) string { return fmt.Sprintf("$%d", n) }

// tsquery is the text of q as a tsquery: its terms, any of them.
func tsquery(q Query) string {
	parts := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		parts[i] = t.Word
		if t.Prefix {
			parts[i] += ":*"
		}
	}
	return strings.Join(parts, " | ")
}

func (postgres) versions(spaceID string) (string, []any) {
	return `SELECT page_id, space_id, page_id, version FROM search_pages WHERE space_id = $1`, []any{spaceID}
}

func (postgres) delete(spaceID string, keys []any) (string, []any) {
	return `DELETE FROM search_pages WHERE space_id = $1 AND page_id IN (` + placeholders(2, len(keys), dollar) + `)`,
		append([]any{spaceID}, keys...)
}

func (postgres) insert(spaceID, orgID string, rows []docRow) (string, []any) {
	var b strings.Builder
	b.WriteString(`INSERT INTO search_pages (space_id, page_id, organization_id, version, title, headings, body, stored, doc) VALUES `)
	args := make([]any, 0, 8*len(rows))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		n := len(args)
		fmt.Fprintf(&b, `(%s, setweight(to_tsvector('simple', $%d), 'A') || setweight(to_tsvector('simple', $%d), 'B') || setweight(to_tsvector('simple', $%d), 'D'))`,
			placeholders(n+1, 8, dollar), n+5, n+6, n+7)
		args = append(args, spaceID, r.doc.PageID, orgID, r.doc.Version, r.title, r.headings, r.body, r.stored)
	}
	return b.String(), args
}

func (postgres) move(spaceID, orgID string) (string, []any) {
	return `UPDATE search_pages SET organization_id = $1 WHERE space_id = $2`, []any{orgID, spaceID}
}

func (postgres) drop(spaceID string) (string, []any) {
	return `DELETE FROM search_pages WHERE space_id = $1`, []any{spaceID}
}

// rank is the rank of a row of search_pages (see rankDoc) for the tsquery
// in argument tsq; its arguments are appended to args.
func (postgres) rank(q Query, tsq int, args *[]any) string {
	return rankDoc(q, "title", "headings", "body",
		fmt.Sprintf("ts_rank('{0.1, 0.2, 0.4, 1.0}', doc, to_tsquery('simple', $%d))", tsq),
		func(col string, n int) string { return fmt.Sprintf("strpos(%s, $%d) > 0", col, n) }, args)
}

func (d postgres) rankSpace(spaceID string, q Query) (string, []any) {
	args := []any{spaceID, tsquery(q)}
	rank := d.rank(q, 2, &args)
	return fmt.Sprintf(`SELECT space_id, page_id, %s FROM search_pages WHERE space_id = $1 AND doc @@ to_tsquery('simple', $2)`, rank), args
}

func (d postgres) rankOrg(orgID string, q Query, spaces Spaces) (string, []any) {
	args := []any{orgID, tsquery(q)}
	rank := d.rank(q, 2, &args)
	visible, vargs := spaces.subquery(dialect.Postgres, len(args))
	return fmt.Sprintf(`SELECT space_id, '', MAX(r) FROM (SELECT space_id, %s AS r FROM search_pages
	WHERE organization_id = $1 AND doc @@ to_tsquery('simple', $2) AND space_id IN (%s)) AS m GROUP BY space_id`, rank, visible),
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
	args := []any{orgID, tsquery(q)}
	rank := d.rank(q, 2, &args)
	n := len(args)
	for _, id := range spaceIDs {
		args = append(args, id)
	}
	return fmt.Sprintf(`SELECT space_id, page_id, r, stored FROM (
	SELECT space_id, page_id, r, stored, ROW_NUMBER() OVER (PARTITION BY space_id ORDER BY r DESC, page_id) AS n
	FROM (SELECT space_id, page_id, stored, %s AS r FROM search_pages
		WHERE organization_id = $1 AND doc @@ to_tsquery('simple', $2) AND space_id IN (%s)) AS m) AS b
	WHERE n <= %d ORDER BY space_id, n`, rank, placeholders(n+1, len(spaceIDs), dollar), MaxPagesPerSpace), args
}

func (postgres) copy(from, to, orgID string) (string, []any) {
	return `INSERT INTO search_pages (space_id, page_id, organization_id, version, title, headings, body, stored, doc)
	SELECT $1, page_id, $2, version, title, headings, body, stored, doc FROM search_pages WHERE space_id = $3`,
		[]any{to, orgID, from}
}

func (postgres) deletePages(spaceID string, pageIDs []string) (string, []any) {
	args := []any{spaceID}
	for _, id := range pageIDs {
		args = append(args, id)
	}
	return `DELETE FROM search_pages WHERE space_id = $1 AND page_id IN (` + placeholders(2, len(pageIDs), dollar) + `)`, args
}
