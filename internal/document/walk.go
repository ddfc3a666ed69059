package document

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Format is the formatting of a run of inline text: the types of its marks
// ("bold", "italic", "strikethrough", "code"), outermost first, each once.
type Format []string

// Has reports whether f has the mark typ.
func (f Format) Has(typ string) bool { return slices.Contains(f, typ) }

func (f Format) with(typ string) Format {
	if f.Has(typ) {
		return f
	}
	return append(slices.Clip(f), typ)
}

// Inlines receives what WalkInlines finds, in document order. A nil
// function skips what it would receive.
type Inlines struct {
	// Text is a run of text: a hard line break ends with "\n", a soft one
	// with a space.
	Text func(s string, f Format)
	// Link is a link to dest (escapes and references resolved; an email
	// autolink's with mailto:). Calling content walks its text, where a
	// link is text: CommonMark allows no link in a link.
	Link func(dest string, f Format, content func())
	// Image is an image; PlainText(source, img) is its description.
	Image func(img *ast.Image, f Format)
}

// WalkInlines walks the inline content of n, a node of markdown parsed
// from source, as a document shows it: texts, code spans, emphasis and
// strikethrough, links and images. Inline HTML is dropped but for a line
// break tag; a task box left outside a task list is its text.
func WalkInlines(source []byte, n ast.Node, in Inlines) {
	w := walker{source: source, in: in}
	w.walk(n, nil, false)
}

// PlainText returns the text of n's inline content without formatting,
// as for an image's description or a cell of a PDF table: an image is its
// description.
func PlainText(source []byte, n ast.Node) string {
	var b strings.Builder
	w := walker{source: source, in: Inlines{
		Text:  func(s string, _ Format) { b.WriteString(s) },
		Image: func(img *ast.Image, _ Format) { b.WriteString(PlainText(source, img)) },
	}}
	w.walk(n, nil, true)
	return strings.TrimSpace(b.String())
}

type walker struct {
	source []byte
	in     Inlines
}

func (w walker) text(s string, f Format) {
	if w.in.Text != nil {
		w.in.Text(s, f)
	}
}

func (w walker) link(dest string, f Format, content func()) {
	if w.in.Link != nil {
		w.in.Link(dest, f, content)
	} else {
		content()
	}
}

func (w walker) walk(parent ast.Node, f Format, inLink bool) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			s := n.Segment.Value(w.source)
			if !n.IsRaw() {
				s = unescape(s)
			}
			switch {
			case n.HardLineBreak():
				w.text(string(s)+"\n", f)
			case n.SoftLineBreak():
				w.text(string(s)+" ", f)
			default:
				w.text(string(s), f)
			}
		case *ast.String:
			w.text(string(n.Value), f)
		case *ast.CodeSpan:
			w.text(codeSpan(n, w.source), f.with("code"))
		case *ast.Emphasis:
			typ := "italic"
			if n.Level >= 2 {
				typ = "bold"
			}
			w.walk(n, f.with(typ), inLink)
		case *east.Strikethrough:
			w.walk(n, f.with("strikethrough"), inLink)
		case *ast.Link:
			if inLink {
				w.walk(n, f, inLink)
				continue
			}
			w.link(string(unescape(n.Destination)), f, func() { w.walk(n, f, true) })
		case *ast.AutoLink:
			label := string(n.Label(w.source))
			if inLink {
				w.text(label, f)
				continue
			}
			w.link(autoLinkURL(n, w.source), f, func() { w.text(label, f) })
		case *ast.Image:
			if w.in.Image != nil {
				w.in.Image(n, f)
			}
		case *ast.RawHTML:
			// Inline HTML tags are dropped, their content kept; a line
			// break tag is the only one with a plain-text meaning.
			if lineBreakTag.Match(rawHTML(n, w.source)) {
				w.text("\n", f)
			}
		case *east.TaskCheckBox:
			// Left in a list that is not a task list; the parser took the
			// space after it.
			if n.IsChecked {
				w.text("[x] ", f)
			} else {
				w.text("[ ] ", f)
			}
		default:
			w.walk(n, f, inLink)
		}
	}
}

var lineBreakTag = regexp.MustCompile(`(?i)^<br\s*/?>$`)

func rawHTML(n *ast.RawHTML, source []byte) []byte {
	var b []byte
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		b = append(b, seg.Value(source)...)
	}
	return b
}

func codeSpan(n *ast.CodeSpan, source []byte) string {
	var b strings.Builder
	for t := n.FirstChild(); t != nil; t = t.NextSibling() {
		if t, ok := t.(*ast.Text); ok {
			v := t.Segment.Value(source)
			if v, ok := bytes.CutSuffix(v, []byte("\n")); ok {
				b.Write(v)
				b.WriteByte(' ')
				continue
			}
			b.Write(v)
		}
	}
	return b.String()
}
