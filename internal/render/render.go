// Package render writes a page's document (package document's GitBook JSON
// document) as HTML for a published site, with the stylesheet it is written
// against (CSS).
//
// It is the only way a page's content reaches HTML: every text is escaped,
// element and attribute names are the renderer's own, and a URL becomes an
// href or src only after the check in url.go, whoever supplied it. What it
// does not know, it degrades to text rather than failing, so that any
// document gives a page.
package render

import (
	"html/template"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/internal/document"
)

// Ref is a content reference of a link, an image or a file block.
type Ref struct{ Kind, URL, Page, Anchor, File string }

// Image is a resolved image: where to load it and its size (0 when unknown).
type Image struct {
	Src           string
	Width, Height int
}

// Options resolve a document's references for the page being rendered.
type Options struct {
	// Link returns the href of a link's ref (a page of the site, a file, an
	// anchor, a URL); ok false renders the link's content without a link.
	Link func(ref Ref) (href string, ok bool)
	// Image returns an image's source and size; ok false renders its alt text.
	Image func(ref Ref) (img Image, ok bool)
}

// Heading is a heading of the page, for its outline: ID is its anchor.
type Heading struct {
	ID, Text string
	Level    int // 1 for heading-1, 2 for heading-2, 3 for heading-3
}

// Result is a rendered document.
type Result struct {
	HTML     template.HTML // html/template's type
	Headings []Heading
	// Summary is the text of the document's first paragraph, at most
	// about 160 characters: a description for a page that has none.
	Summary string
}

// Document renders doc as HTML. A nil Options function is treated as ok false.
//
// Only the document's top-level headings get an id and a place in
// Headings: they are the headings Sections knows (it reads the top level of
// markdown), so that every id is an anchor that search and link analysis
// agree on.
func Document(doc *document.Document, opt Options) Result {
	r := &renderer{opt: opt, prev: 1, shift: 0}
	summary := ""
	if doc != nil {
		r.shift = topLevel(doc.Nodes) - 1
		summary = firstParagraph(doc.Nodes)
		r.b.Grow(256 * len(doc.Nodes))
		r.blocks(doc.Nodes, true)
	}
	r.noteList()
	return Result{HTML: template.HTML(r.b.String()), Headings: r.headings, Summary: summary}
}

// renderer holds the state of one Document call.
type renderer struct {
	b        strings.Builder
	opt      Options
	anchors  document.Anchors
	headings []Heading
	// notes are annotations' bodies, listed after the document.
	notes []*document.Node
	// inLink counts the links (or summaries) being written, in which HTML
	// allows no further link.
	inLink int
	// shift is how many levels the document's headings move up, so that
	// its highest heading is an <h2>; prev is the last heading's HTML level
	// (the page's title, 1, at first). Together they keep the levels from
	// skipping one, which screen readers navigate by.
	shift, prev int
}

// topLevel is the highest level (1 for heading-1) of the headings of a
// document, 1 when it has none.
func topLevel(nodes []*document.Node) int {
	top := 4
	var walk func(nodes []*document.Node)
	walk = func(nodes []*document.Node) {
		for _, n := range nodes {
			if n == nil {
				continue
			}
			switch n.Type {
			case "heading-1", "heading-2", "heading-3":
				top = min(top, int(n.Type[len(n.Type)-1]-'0'))
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(nodes)
	if top == 4 {
		return 1
	}
	return top
}

// summaryLength is about how long a summary may be, in characters.
const summaryLength = 160

// firstParagraph is the text of the first top-level paragraph that has
// some, cut at a word near summaryLength characters.
func firstParagraph(nodes []*document.Node) string {
	for _, n := range nodes {
		if n == nil || n.Type != "paragraph" {
			continue
		}
		text := collapseSpace(plainText(n.Nodes))
		if text == "" {
			continue
		}
		if utf8.RuneCountInString(text) <= summaryLength {
			return text
		}
		cut := []rune(text)[:summaryLength]
		if i := strings.LastIndexByte(string(cut), ' '); i > summaryLength/2 {
			return string(cut)[:i] + "…"
		}
		return string(cut) + "…"
	}
	return ""
}

// link resolves ref to a checked href.
func (r *renderer) link(ref Ref) (string, bool) {
	if r.opt.Link == nil {
		return "", false
	}
	href, ok := r.opt.Link(ref)
	if !ok {
		return "", false
	}
	return safeHref(href)
}

// image resolves ref to an image with a checked source.
func (r *renderer) image(ref Ref) (Image, bool) {
	if r.opt.Image == nil {
		return Image{}, false
	}
	img, ok := r.opt.Image(ref)
	if !ok {
		return Image{}, false
	}
	src, ok := safeSrc(img.Src)
	if !ok {
		return Image{}, false
	}
	img.Src = src
	return img, true
}

// text writes s escaped for HTML text.
func (r *renderer) text(s string) { escape(&r.b, s, false) }

// attr writes s escaped for an attribute value in double quotes.
func (r *renderer) attr(s string) { escape(&r.b, s, true) }

// escape writes s to b with the characters that HTML gives a meaning to
// replaced by references ('"' only in an attribute, which the renderer
// always quotes so), and NUL, which parsers drop or replace, by U+FFFD.
func escape(b *strings.Builder, s string, attr bool) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '"':
			if !attr {
				continue
			}
			rep = "&#34;"
		case 0:
			rep = "\uFFFD"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		last = i + 1
	}
	b.WriteString(s[last:])
}
