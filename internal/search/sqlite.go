package search

import (
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
)

// sqlite indexes pages in an FTS5 table: the indexed columns (scope, which
// holds the space's and the organization's tokens, then title, headings and
// body), and unindexed ones that hold what results show.
type sqlite struct{}

func (sqlite) schema() []string {
	return []string{`CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
	scope, title, headings, body,
	space_id UNINDEXED, page_id UNINDEXED, version UNINDEXED, stored UNINDEXED,
	tokenize = 'unicode61', prefix = '2 3')`}
}

// matchScope is the FTS5 query of the rows of one space or organization.
func matchScope(kind byte, id string) string {
	return fmt.Sprintf(`scope : "%s"`, scopeToken(kind, id))
}

// matchText is the FTS5 query of q's terms in the text columns. Words are
// letters and digits only (ParseQuery), so quoting them is enough.
func matchText(q Query) string {
	parts := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		parts[i] = `"` + t.Word + `"`
		if t.Prefix {
			parts[i] += "*"
		}
	}
	return "{title headings body} : (" + strings.Join(parts, " OR ") + ")"
}

func numbered(n int) string { return fmt.Sprintf("?%d", n) }

func placeholders(from, n int, mark func(int) string) string {
	p := make([]string, n)
	for i := range p {
		p[i] = mark(from + i)
	}
	return strings.Join(p, ", ")
}

func (sqlite) versions(spaceID string) (string, []any) {
	return `SELECT rowid, space_id, page_id, version FROM search_fts WHERE search_fts MATCH ?`,
		[]any{matchScope('s', spaceID)}
}

func (sqlite) delete(_ string, keys []any) (string, []any) {
	return `DELETE FROM search_fts WHERE rowid IN (` + placeholders(1, len(keys), numbered) + `)`, keys
}

func (sqlite) insert(spaceID, orgID string, rows []docRow) (string, []any) {
	scope := scopeToken('s', spaceID) + " " + scopeToken('o', orgID)
	var b strings.Builder
	b.WriteString(`INSERT INTO search_fts (scope, title, headings, body, space_id, page_id, version, stored) VALUES `)
	args := make([]any, 0, 8*len(rows))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + placeholders(len(args)+1, 8, numbered) + ")")
		args = append(args, scope, r.title, r.headings, r.body, spaceID, r.doc.PageID, r.doc.Version, r.stored)
	}
	return b.String(), args
}

func (sqlite) move(spaceID, orgID string) (string, []any) {
	return `UPDATE search_fts SET scope = ?1 WHERE rowid IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?2 AND space_id = ?3)`,
		[]any{scopeToken('s', spaceID) + " " + scopeToken('o', orgID), matchScope('s', spaceID), spaceID}
}

func (sqlite) drop(spaceID string) (string, []any) {
	return `DELETE FROM search_fts WHERE rowid IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?1 AND space_id = ?2)`,
		[]any{matchScope('s', spaceID), spaceID}
}

// rank is the rank of a row of search_fts (see rankDoc); its arguments are
// appended to args.
func (sqlite) rank(q Query, args *[]any) string {
	return rankDoc(q, "title", "headings", "body", "max(0.0, -bm25(search_fts, 0.0, 10.0, 4.0, 1.0))",
		func(col string, n int) string { return fmt.Sprintf("instr(%s, ?%d) > 0", col, n) }, args)
}

func (d sqlite) rankSpace(spaceID string, q Query) (string, []any) {
	var args []any
	rank := d.rank(q, &args)
	args = append(args, matchScope('s', spaceID)+" AND "+matchText(q))
	return fmt.Sprintf(`SELECT space_id, page_id, %s FROM search_fts WHERE search_fts MATCH ?%d`, rank, len(args)), args
}

func (d sqlite) rankOrg(orgID string, q Query, spaces Spaces) (string, []any) {
	var args []any
	rank := d.rank(q, &args)
	args = append(args, matchScope('o', orgID)+" AND "+matchText(q))
	visible, vargs := spaces.subquery(dialect.SQLite, len(args))
	// FTS5's functions work only in the query of the full-text match:
	// materializing it keeps SQLite from merging it into the aggregate.
	return fmt.Sprintf(`WITH m AS MATERIALIZED (SELECT space_id, %s AS r FROM search_fts
	WHERE search_fts MATCH ?%d AND space_id IN (%s)) SELECT space_id, '', MAX(r) FROM m GROUP BY space_id`, rank, len(args), visible),
		append(args, vargs...)
}

func (sqlite) stored(hits []Ranked) (string, []any) {
	args := []any{matchScope('s', hits[0].SpaceID), hits[0].SpaceID}
	for _, h := range hits {
		args = append(args, h.PageID)
	}
	return `SELECT space_id, page_id, stored FROM search_fts WHERE search_fts MATCH ?1 AND space_id = ?2 AND page_id IN (` +
		placeholders(3, len(hits), numbered) + `)`, args
}

func (d sqlite) best(_ string, q Query, spaceIDs []string) (string, []any) {
	var args []any
	rank := d.rank(q, &args)
	tokens := make([]string, len(spaceIDs))
	for i, id := range spaceIDs {
		tokens[i] = `"` + scopeToken('s', id) + `"`
	}
	args = append(args, "scope : ("+strings.Join(tokens, " OR ")+") AND "+matchText(q))
	return fmt.Sprintf(`WITH m AS MATERIALIZED (SELECT space_id, page_id, stored, %s AS r FROM search_fts WHERE search_fts MATCH ?%d)
	SELECT space_id, page_id, r, stored FROM (
	SELECT space_id, page_id, r, stored, ROW_NUMBER() OVER (PARTITION BY space_id ORDER BY r DESC, page_id) AS n FROM m)
	WHERE n <= %d ORDER BY space_id, n`, rank, len(args), MaxPagesPerSpace), args
}

func (sqlite) copy(from, to, orgID string) (string, []any) {
	return `INSERT INTO search_fts (scope, title, headings, body, space_id, page_id, version, stored)
	SELECT ?1, title, headings, body, ?2, page_id, version, stored FROM search_fts WHERE search_fts MATCH ?3 AND space_id = ?4`,
		[]any{scopeToken('s', to) + " " + scopeToken('o', orgID), to, matchScope('s', from), from}
}

func (sqlite) deletePages(spaceID string, pageIDs []string) (string, []any) {
	args := []any{matchScope('s', spaceID), spaceID}
	for _, id := range pageIDs {
		args = append(args, id)
	}
	return `DELETE FROM search_fts WHERE rowid IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?1 AND space_id = ?2 AND page_id IN (` +
		placeholders(3, len(pageIDs), numbered) + `))`, args
}
