package search

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	sqlitedriver "modernc.org/sqlite"
)

// sqlite keeps pages in a table, search_pages, and indexes them with FTS5
// as the table's external content: triggers keep the index in step with
// the table, and queries read the index alone to match and rank, then the
// table for the pages they show. The indexed columns are scope (the tokens
// of the page's space and organization), title, headings and body.
type sqlite struct{}

func (sqlite) schema() []string {
	const cols = "scope, title, headings, body"
	insert := func(from string) string {
		return fmt.Sprintf("INSERT INTO search_fts(rowid, %s) VALUES (%s.id, %s.scope, %s.title, %s.headings, %s.body);",
			cols, from, from, from, from, from)
	}
	remove := "INSERT INTO search_fts(search_fts, rowid, " + cols + ") VALUES ('delete', old.id, old.scope, old.title, old.headings, old.body);"
	return []string{
		`CREATE TABLE IF NOT EXISTS search_pages (
	id INTEGER PRIMARY KEY,
	space_id TEXT NOT NULL,
	page_id TEXT NOT NULL,
	organization_id TEXT NOT NULL,
	version TEXT NOT NULL,
	scope TEXT NOT NULL,
	title TEXT NOT NULL,
	headings TEXT NOT NULL,
	body TEXT NOT NULL,
	stored TEXT NOT NULL,
	UNIQUE (space_id, page_id))`,
		`CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(` + cols + `,
	content = 'search_pages', content_rowid = 'id', tokenize = 'unicode61', prefix = '2 3')`, // see longestPrefix
		`CREATE TRIGGER IF NOT EXISTS search_pages_insert AFTER INSERT ON search_pages BEGIN ` + insert("new") + ` END`,
		`CREATE TRIGGER IF NOT EXISTS search_pages_delete AFTER DELETE ON search_pages BEGIN ` + remove + ` END`,
		`CREATE TRIGGER IF NOT EXISTS search_pages_update AFTER UPDATE ON search_pages BEGIN ` + remove + " " + insert("new") + ` END`,
		// The words a prefix is expanded into (see expandedTerms, words).
		`CREATE TABLE IF NOT EXISTS search_words (word TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID`,
	}
}

// longestPrefix is the longest prefix, in characters, that FTS5 indexes
// (the table's prefix option): a longer one is expanded into words.
const longestPrefix = 3

// scopes is the scope column of a page of a space in an organization.
func scopes(spaceID, orgID string) string {
	return scopeToken('s', spaceID) + " " + scopeToken('o', orgID)
}

// matchScope is the FTS5 query of the pages of one space or organization,
// or of any of several.
func matchScope(kind byte, ids ...string) string {
	tokens := make([]string, len(ids))
	for i, id := range ids {
		tokens[i] = `"` + scopeToken(kind, id) + `"`
	}
	return "scope : (" + strings.Join(tokens, " OR ") + ")"
}

// ftsTerm is a term in FTS5's syntax. Words are letters and digits only
// (ParseQuery), so quoting them is enough.
func ftsTerm(t Term) string {
	if t.Prefix {
		return `"` + t.Word + `"*`
	}
	return `"` + t.Word + `"`
}

// plain is a parameter numbered by its place, after the highest number
// before it (statements number the few others, "?1", to use them twice).
// Lists of many parameters use it: the driver looks a numbered parameter's
// name up in a list, which makes thousands of them quadratic.
func plain(int) string { return "?" }

func placeholders(from, n int, mark func(int) string) string {
	p := make([]string, n)
	for i := range p {
		p[i] = mark(from + i)
	}
	return strings.Join(p, ", ")
}

func (sqlite) versions(spaceID string) (string, []any) {
	return `SELECT id, space_id, page_id, version FROM search_pages WHERE space_id = ?1`, []any{spaceID}
}

func (sqlite) delete(_ string, keys []any) (string, []any) {
	return `DELETE FROM search_pages WHERE id IN (` + placeholders(1, len(keys), plain) + `)`, keys
}

func (sqlite) deletePages(spaceID string, pageIDs []string) (string, []any) {
	args := []any{spaceID}
	for _, id := range pageIDs {
		args = append(args, id)
	}
	return `DELETE FROM search_pages WHERE space_id = ?1 AND page_id IN (` + placeholders(2, len(pageIDs), plain) + `)`, args
}

func (sqlite) insert(spaceID, orgID string, rows []docRow) (string, []any) {
	var b strings.Builder
	b.WriteString(`INSERT INTO search_pages (space_id, page_id, organization_id, version, scope, title, headings, body, stored) VALUES `)
	args := make([]any, 0, 9*len(rows))
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + placeholders(0, 9, plain) + ")")
		args = append(args, spaceID, r.doc.PageID, orgID, r.doc.Version, scopes(spaceID, orgID), r.title, r.headings, r.body, r.stored)
	}
	return b.String(), args
}

// words records the words of rows that a prefix may be expanded into:
// those longer than the index's longest prefix. FTS5's own list of its
// words (fts5vocab) counts each word's pages as it reads it, which for a
// word on most pages cost more than the search it served. A word stays
// when its last page goes: expanding into it costs one lookup that finds
// nothing.
func (sqlite) words(rows []docRow) (string, []any) {
	seen := map[string]bool{}
	var words []string
	for _, r := range rows {
		for _, col := range []string{r.title, r.headings, r.body} {
			for w := range strings.FieldsSeq(col) {
				if !seen[w] && utf8.RuneCountInString(w) > longestPrefix {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
	}
	if len(words) == 0 {
		return "", nil
	}
	b, _ := json.Marshal(words)
	return `INSERT OR IGNORE INTO search_words (word) SELECT value FROM json_each(?1)`, []any{string(b)}
}

func (sqlite) move(spaceID, orgID string) (string, []any) {
	return `UPDATE search_pages SET organization_id = ?1, scope = ?2 WHERE space_id = ?3`,
		[]any{orgID, scopes(spaceID, orgID), spaceID}
}

func (sqlite) copy(from, to, orgID string) (string, []any) {
	return `INSERT INTO search_pages (space_id, page_id, organization_id, version, scope, title, headings, body, stored)
	SELECT ?1, page_id, ?2, version, ?3, title, headings, body, stored FROM search_pages WHERE space_id = ?4`,
		[]any{to, orgID, scopes(to, orgID), from}
}

func (sqlite) drop(spaceID string) (string, []any) {
	return `DELETE FROM search_pages WHERE space_id = ?1`, []any{spaceID}
}

// scored is the SQL of the table expressions n, the candidates (a table
// expression c of space_id and k, their rowids, that the caller writes
// before it) with the times each column of their page has each term of q;
// and r, the rank of each (space_id, page_id, r). Its arguments are
// appended to args.
//
// The counts come from the pages' rows, whose columns are folded words
// separated by spaces, not from FTS5: its functions (bm25) and any
// further match would walk the index's entries of each term and read its
// statistics over the whole index in every statement, which for a word on
// most pages costs more than reading the candidates' rows.
func (sqlite) scored(q Query, args *[]any) string {
	counts := []string{"c.space_id", "p.page_id",
		"octet_length(p.title) + octet_length(p.headings) + octet_length(p.body) AS len"}
	var terms, titled, score []string
	for i, t := range q.Terms {
		*args = append(*args, t.Word)
		for _, col := range []string{"title", "headings", "body"} {
			counts = append(counts, fmt.Sprintf("%s(p.%s, ?%d, %d) AS %s%d", wordCountFunc, col, len(*args), boolInt(t.Prefix), col[:1], i))
		}
		tf := fmt.Sprintf("(%d * t%d + %d * h%d + b%d)", titleBoost, i, headingsBoost, i, i)
		terms = append(terms, tf+" > 0")
		titled = append(titled, fmt.Sprintf("t%d > 0", i))
		score = append(score, fmt.Sprintf("%s * %g / (%s + %g * (%g + %g * len / %d.0))", tf, bm25K1+1, tf, bm25K1, 1-bm25B, bm25B, typicalPageBytes))
	}
	return "n AS MATERIALIZED (SELECT " + strings.Join(counts, ", ") +
		" FROM c JOIN search_pages p ON p.id = c.k AND p.space_id = c.space_id),\n" +
		"r AS (SELECT space_id, page_id, " + rankOf(sum(terms), sum(titled), sum(score)) + " AS r FROM n)\n"
}

// wordCountFunc is the SQL function that counts a term in a column of
// search_pages (see countWord). SQLite's own functions can count only by
// building a copy of the text without the term (replace), which was a
// fifth of an organization search's time.
const wordCountFunc = "bindery_word_count"

func init() {
	err := sqlitedriver.RegisterDeterministicScalarFunction(wordCountFunc, 3, func(_ *sqlitedriver.FunctionContext, args []driver.Value) (driver.Value, error) {
		text, _ := args[0].(string)
		word, _ := args[1].(string)
		prefix, _ := args[2].(int64)
		return int64(countWord(text, word, prefix != 0)), nil
	})
	if err != nil {
		panic(err)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// countWord counts the words of text, folded words separated by single
// spaces, that are word or, with prefix, start with it.
func countWord(text, word string, prefix bool) int {
	n := 0
	for i := 0; word != ""; {
		j := strings.Index(text[i:], word)
		if j < 0 {
			break
		}
		at, end := i+j, i+j+len(word)
		if (at == 0 || text[at-1] == ' ') && (prefix || end == len(text) || text[end] == ' ') {
			n++
		}
		i = at + 1
	}
	return n
}

// sum is the SQL of the sum of the SQL expressions xs, each in parentheses.
func sum(xs []string) string { return "(" + strings.Join(xs, ") + (") + ")" }

// anyTerm is the FTS5 query of the pages that have any term of q in their
// text.
func anyTerm(q Query) string {
	all := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		all[i] = ftsTerm(t)
	}
	return "{title headings body} : (" + strings.Join(all, " OR ") + ")"
}

// rankSpace ranks the candidates of a space: its first MaxRanked matches
// in the index's order, the first indexed first, which FTS5 reads
// without going through the others.
func (d sqlite) rankSpace(spaceID string, q Query) (string, []any) {
	args := []any{spaceID, matchScope('s', spaceID) + " AND " + anyTerm(q)}
	with := d.scored(q, &args)
	return fmt.Sprintf(`WITH c AS MATERIALIZED (SELECT ?1 AS space_id, rowid AS k FROM search_fts WHERE search_fts MATCH ?2 ORDER BY rowid LIMIT %d),
%sSELECT space_id, page_id, r FROM r`, MaxRanked, with), args
}

// expandedTerms is the SQL of an expression whose value is the FTS5 query
// of the pages that have any term of q in their text, with each prefix
// longer than the index's prefixes replaced by the words of the index that
// start with it: FTS5 answers such a prefix by merging the entries of all
// those words, anew in each query, which a query per space would repeat.
// Its arguments are appended to args.
func expandedTerms(q Query, args *[]any) string {
	arg := func(v string) string {
		*args = append(*args, v)
		return fmt.Sprintf("?%d", len(*args))
	}
	parts := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		if !t.Prefix || utf8.RuneCountInString(t.Word) <= longestPrefix {
			parts[i] = arg(ftsTerm(t))
			continue
		}
		parts[i] = fmt.Sprintf(`coalesce((SELECT group_concat('"' || word || '"', ' OR ') FROM search_words WHERE word >= %s AND word < %s), %s)`,
			arg(t.Word), arg(t.Word+"\U0010FFFF"), arg(ftsTerm(t)))
	}
	return "'{title headings body} : (' || " + strings.Join(parts, " || ' OR ' || ") + " || ')'"
}

// scopeTokenLength is the length of a scope token (see scopeToken).
const scopeTokenLength = 1 + 2*10

// spaceCandidates is the SQL of the table expressions v, the spaces of
// from (a SELECT of space IDs, as id) with the FTS5 query of their pages
// that match q; and c, the candidates of each space (space_id, k): its
// first SpaceCandidates matches in the index's order, the first indexed
// first. A space is found by its scope token, which its
// rows hold first in their scope column: each space is one query of the
// index, which stops at its candidates. Its arguments are appended to args.
func (sqlite) spaceCandidates(q Query, from string, args *[]any) string {
	terms := expandedTerms(q, args)
	return fmt.Sprintf(`WITH f AS (%s),
x AS (SELECT %s AS terms),
v AS (SELECT f.id AS space_id,
	'scope : "' || (SELECT substr(p.scope, 1, %d) FROM search_pages p WHERE p.space_id = f.id LIMIT 1) || '" AND ' || x.terms AS e FROM f, x),
c0 AS MATERIALIZED (SELECT v.space_id, (SELECT json_group_array(k) FROM (
	SELECT rowid AS k FROM search_fts WHERE search_fts MATCH v.e ORDER BY rowid LIMIT %d)) AS ks FROM v WHERE v.e IS NOT NULL),
c AS MATERIALIZED (SELECT c0.space_id, j.value AS k FROM c0, json_each(c0.ks) AS j),
`, from, terms, scopeTokenLength, SpaceCandidates)
}

func (d sqlite) rankOrg(_ string, q Query, spaces Spaces) (string, []any) {
	var args []any
	visible, vargs := spaces.subquery(dialect.SQLite, 0)
	// The spaces' predicates number their parameters from 1: they come
	// first.
	args = append(args, vargs...)
	with := d.spaceCandidates(q, visible, &args)
	with += d.scored(q, &args)
	return with + fmt.Sprintf(`SELECT space_id, page_id, r FROM (
	SELECT space_id, page_id, r, ROW_NUMBER() OVER (PARTITION BY space_id ORDER BY r DESC, page_id) AS n FROM r)
	WHERE n <= %d ORDER BY space_id, n`, MaxPagesPerSpace), args
}

func (sqlite) stored(hits []Ranked) (string, []any) {
	args := make([]any, 0, 2*len(hits))
	for _, h := range hits {
		args = append(args, h.SpaceID, h.PageID)
	}
	// A join, which SQLite answers from the index on the pair; it scans
	// the table for a row value IN a list.
	return `SELECT p.space_id, p.page_id, p.stored FROM (VALUES ` + strings.Repeat("(?, ?), ", len(hits)-1) + `(?, ?)) AS h
	JOIN search_pages p ON p.space_id = h.column1 AND p.page_id = h.column2`, args
}
