package reader

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/search"
)

// searchLimit is how many results the search page lists.
const searchLimit = 25

// search answers the search page: the pages of every site-space the visitor
// sees that match ?q=, ranked as Space.search ranks them.
func (v *visit) search() {
	text := strings.TrimSpace(v.req.URL.Query().Get("q"))
	sv := &searchView{Query: text}
	if text != "" {
		results, err := v.searchResults(text)
		if err != nil {
			v.fail(err)
			return
		}
		sv.Results = results
	}
	nv, err := v.nav(nil, -1)
	if err != nil {
		v.fail(err)
		return
	}
	title := "Search · " + v.site.Title
	if text != "" {
		title = text + " · " + title
	}
	// Results follow the content, which changes without notice.
	v.w.Header().Set("Cache-Control", "no-cache")
	v.write(http.StatusOK, &view{Title: title, NoIndex: true, Canonical: v.origin + v.base + "search",
		Nav: nv, Search: sv})
}

// searchResults ranks the visitor's pages that match text. A query the
// index refuses (too long, no word) finds nothing.
func (v *visit) searchResults(text string) ([]searchResult, error) {
	all := v.spots()
	bySpace := map[string]*spot{}
	var ids []string
	for i := range all {
		if _, ok := bySpace[all[i].SiteSpace.SpaceID]; !ok {
			bySpace[all[i].SiteSpace.SpaceID] = &all[i]
			ids = append(ids, all[i].SiteSpace.SpaceID)
		}
	}
	hits, q, err := v.x.res.SearchSpaces(v.ctx, ids, text, searchLimit)
	if apperr.KindOf(err) == apperr.InvalidArgument {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	spaces := map[string]*space{}
	out := make([]searchResult, 0, len(hits))
	for _, h := range hits {
		sp := bySpace[h.SpaceID]
		s, ok := spaces[h.SpaceID]
		if !ok {
			if s, err = v.space(sp); err != nil {
				return nil, err
			}
			spaces[h.SpaceID] = s
		}
		i, ok := s.order.ByPath[h.Path]
		if !ok || !s.order.Readable(i) {
			continue
		}
		r := searchResult{Title: h.Title, URL: s.pageURL(i), Where: v.where(s, i)}
		if len(h.Sections) > 0 {
			sec := h.Sections[0]
			if sec.Anchor != "" {
				r.URL += "#" + (&url.URL{Fragment: sec.Anchor}).EscapedFragment()
				r.Title = h.Title + " › " + sec.Title
			}
			r.Snippet = marked(q, sec.Excerpt)
		}
		out = append(out, r)
	}
	return out, nil
}

// where names where entry i of s lives: its section, its site-space when
// the section has several, and its parent pages.
func (v *visit) where(s *space, i int) string {
	var parts []string
	if s.spot.Section != nil && len(v.pub.Sections) > 1 {
		parts = append(parts, s.spot.Section.Title)
	}
	if v.pub.Siblings(s.spot.Section) > 1 {
		parts = append(parts, s.spot.Title)
	}
	var up []string
	for j := s.order.Entries[i].Parent; j >= 0; j = s.order.Entries[j].Parent {
		up = append(up, s.order.Entries[j].Node.Page.Title)
	}
	for k := len(up) - 1; k >= 0; k-- {
		parts = append(parts, up[k])
	}
	return strings.Join(parts, " › ")
}

// marked is text, escaped, with the words that match q in <mark>.
func marked(q search.Query, text string) template.HTML {
	var b strings.Builder
	at := 0
	for _, m := range q.Marks(text) {
		b.WriteString(template.HTMLEscapeString(text[at:m[0]]))
		b.WriteString("<mark>")
		b.WriteString(template.HTMLEscapeString(text[m[0]:m[1]]))
		b.WriteString("</mark>")
		at = m[1]
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String()) //nolint:gosec // every piece of text is escaped above
}
