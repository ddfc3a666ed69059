package search

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/enum"
)

// Limits of results.
const (
	// MaxSections is the number of matching sections a page result shows.
	MaxSections = 5
	// MaxPagesPerSpace is the number of matching pages a space result of
	// an organization search shows.
	MaxPagesPerSpace = 5
	// excerptLength is the length of a section's excerpt, in characters.
	excerptLength = 200
	// excerptLead is how much of the excerpt comes before the first match.
	excerptLead = 60
)

// Doc is a page as the index holds it.
type Doc struct {
	PageID string
	// Version changes when anything the index holds of the page changes:
	// its content (the page object's hash) or its path, which a parent's
	// new slug changes.
	Version string
	Title   string
	Path    string
	// Description is indexed with the headings.
	Description string
	// Markdown is split into sections only when the page is indexed, not
	// when its Version is indexed already.
	Markdown string
}

// Indexable reports whether search indexes p: document pages, except those
// marked noIndex. Groups and links have no content.
func Indexable(p *content.Page) bool {
	return p.Type == enum.PageTypeDocument && !p.NoIndex
}

// NewDoc returns the document of page p at path; hash is p's object hash.
func NewDoc(p *content.Page, hash, path string) Doc {
	return Doc{
		PageID: p.ID, Version: hash + " " + path, Title: p.Title, Path: path,
		Description: p.Description, Markdown: p.Markdown,
	}
}

// maxBody is how much of a page's body text is indexed, in bytes of folded
// words: a tsvector holds at most 1 MiB, and the words past it are rarely
// what a page is found by.
const maxBody = 256 << 10

// columns returns the three indexed columns of a page of the given
// sections, in folded words: the title (ranked highest), the description
// and headings, and the first maxBody bytes of the body.
func (d Doc) columns(sections []document.Section) (title, headings, body string) {
	var h, b strings.Builder
	h.WriteString(Words(d.Description))
	for _, s := range sections {
		for _, part := range []struct {
			to   *strings.Builder
			text string
		}{{&h, s.Title}, {&b, s.Text}} {
			if w := Words(part.text); w != "" {
				if part.to.Len() > 0 {
					part.to.WriteByte(' ')
				}
				part.to.WriteString(w)
			}
		}
	}
	body = b.String()
	if len(body) > maxBody {
		body = body[:strings.LastIndexByte(body[:maxBody+1], ' ')]
	}
	return Words(d.Title), h.String(), body
}

// stored is what the index keeps of a page to present it: its title, path
// and sections as written.
type stored struct {
	Title    string          `json:"t"`
	Path     string          `json:"p"`
	Sections []storedSection `json:"s,omitempty"`
}

type storedSection struct {
	Anchor string `json:"a,omitempty"`
	Title  string `json:"t,omitempty"`
	Text   string `json:"x,omitempty"`
}

func (d Doc) stored(sections []document.Section) ([]byte, error) {
	s := stored{Title: d.Title, Path: d.Path}
	for _, sec := range sections {
		s.Sections = append(s.Sections, storedSection{Anchor: sec.Anchor, Title: sec.Title, Text: sec.Text})
	}
	return json.Marshal(s)
}

// PageHit is a page that matches a query.
type PageHit struct {
	SpaceID, PageID string
	Title, Path     string
	// Rank orders hits, highest first (see rank in index.go).
	Rank     float64
	Sections []SectionHit
}

// SectionHit is a section of a page that matches a query.
type SectionHit struct {
	// Anchor is "" for the text before the page's first heading.
	Anchor string
	// Title is the heading's; the page's for the text before the first
	// heading.
	Title string
	// Excerpt is the section's text around the first word that matches.
	Excerpt string
}

// SpaceHit is a space that matches a query, with its best pages.
type SpaceHit struct {
	SpaceID string
	// Rank is the rank of the space's best page.
	Rank float64
	// Pages is the space's best matching pages, at most
	// MaxPagesPerSpace, best first.
	Pages []PageHit
}

// hit presents a stored page for q: its title and path, and its matching
// sections, those matching more terms first, then in page order.
func (q Query) hit(spaceID, pageID string, rank float64, data []byte) (PageHit, error) {
	var s stored
	if err := json.Unmarshal(data, &s); err != nil {
		return PageHit{}, err
	}
	h := PageHit{SpaceID: spaceID, PageID: pageID, Title: s.Title, Path: s.Path, Rank: rank}
	type scored struct {
		SectionHit
		terms, at int
	}
	var found []scored
	for i, sec := range s.Sections {
		title := sec.Title
		if title == "" {
			title = s.Title
		}
		terms, first := q.match(sec.Title + "\n" + sec.Text)
		if terms == 0 {
			continue
		}
		// first is an offset in title+"\n"+text: the excerpt shows the
		// text, from its start when the match is in the heading.
		first = max(0, first-len(sec.Title)-1)
		found = append(found, scored{SectionHit{Anchor: sec.Anchor, Title: title, Excerpt: excerpt(sec.Text, first)}, terms, i})
	}
	slices.SortStableFunc(found, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.terms, a.terms), cmp.Compare(a.at, b.at))
	})
	for _, f := range found[:min(len(found), MaxSections)] {
		h.Sections = append(h.Sections, f.SectionHit)
	}
	return h, nil
}

// match returns the number of q's terms that text has, and the offset of
// the first word that matches one.
func (q Query) match(text string) (terms, first int) {
	first = -1
	seen := make([]bool, len(q.Terms))
	for tok := range tokens(text) {
		for i, t := range q.Terms {
			if t.matches(tok.folded) {
				if !seen[i] {
					seen[i] = true
					terms++
				}
				if first < 0 {
					first = tok.start
				}
			}
		}
		if terms == len(q.Terms) {
			break // the rest of the text changes neither
		}
	}
	return terms, first
}

// excerpt is about excerptLength characters of text around offset at,
// cut at spaces, with "…" where text goes on.
func excerpt(text string, at int) string {
	start := at
	for n := 0; start > 0 && n < excerptLead; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	if start > 0 {
		if i := strings.IndexAny(text[start:at], " \n"); i >= 0 {
			start += i + 1
		}
	}
	end := start
	for n := 0; end < len(text) && n < excerptLength; n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	if end < len(text) {
		if i := strings.LastIndexAny(text[start:end], " \n"); i > at-start {
			end = start + i
		}
	}
	out := strings.Join(strings.Fields(text[start:end]), " ")
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
