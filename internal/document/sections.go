package document

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Section is a heading-delimited part of a page: the text before the first
// heading (Title and Anchor empty), or a heading and the text up to the next
// heading of any level.
type Section struct {
	// Anchor is the heading's fragment identifier (see Anchor); unique in
	// the page.
	Anchor string
	Title  string
	// Level is the heading's level, 1 to 6; 0 for the text before the first
	// heading.
	Level int
	// Text is the section's plain text: the words a reader sees, without
	// markup, one line per block.
	Text string
}

// Sections splits markdown into its sections, in order. The text before the
// first heading is a section only when it has text.
//
// Search indexes pages by section, and link analysis checks a link's
// "#anchor" against the anchors of the page it points to, so both agree on
// what a page's anchors are.
func Sections(markdown string) []Section {
	source := []byte(markdown)
	root := parse(source)
	seen := map[string]int{}
	var out []Section
	cur := Section{}
	var body strings.Builder
	flush := func() {
		cur.Text = strings.TrimSpace(body.String())
		if cur.Level > 0 || cur.Text != "" {
			out = append(out, cur)
		}
		body.Reset()
	}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			flush()
			title := strings.TrimSpace(inlineText(h, source))
			cur = Section{Title: title, Level: h.Level, Anchor: unique(Anchor(title), seen)}
			continue
		}
		writeBlock(&body, n, source)
	}
	flush()
	return out
}

// Anchor is the fragment identifier of a heading titled title, as GitHub
// and GitBook derive it: lower case, letters, digits, "-" and "_" kept,
// spaces turned into "-", everything else dropped.
func Anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(title)) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	return b.String()
}

// unique makes a repeated anchor unique as GitHub does: the second
// "setup" is "setup-1", the third "setup-2".
func unique(anchor string, seen map[string]int) string {
	n, dup := seen[anchor]
	seen[anchor] = n + 1
	if !dup {
		return anchor
	}
	for {
		candidate := anchor + "-" + strconv.Itoa(n)
		if _, taken := seen[candidate]; !taken {
			seen[candidate] = 1
			return candidate
		}
		n++
	}
}

// writeBlock appends the plain text of a block, one line per leaf block.
func writeBlock(b *strings.Builder, n ast.Node, source []byte) {
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(source))
		}
		b.WriteByte('\n')
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *east.TableCell:
		if t := strings.TrimSpace(inlineText(n, source)); t != "" {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	case *ast.ThematicBreak:
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			writeBlock(b, c, source)
		}
	}
}

// inlineText is the text of an inline container: texts, code spans, link texts
// and image descriptions, without markup.
func inlineText(n ast.Node, source []byte) string {
	var b strings.Builder
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(unescape(c.Segment.Value(source)))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.AutoLink:
				b.Write(c.Label(source))
			case *ast.RawHTML:
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}
