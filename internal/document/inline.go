package document

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// piece is a step of inline content: a leaf of text or an inline node.
type piece struct {
	leaf   *Leaf
	inline *Node
}

// inlines converts the inline children of a block into texts and inlines.
func (c *converter) inlines(parent ast.Node) []*Node {
	var ps []piece
	c.collect(parent, nil, false, &ps)
	return assemble(ps)
}

func (c *converter) collect(parent ast.Node, marks []*Mark, inLink bool, out *[]piece) {
	leaf := func(s string, marks []*Mark) {
		*out = append(*out, piece{leaf: newLeaf(s, marks)})
	}
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			s := n.Segment.Value(c.source)
			if !n.IsRaw() {
				s = unescape(s)
			}
			switch {
			case n.HardLineBreak():
				leaf(string(s)+"\n", marks)
			case n.SoftLineBreak():
				leaf(string(s)+" ", marks)
			default:
				leaf(string(s), marks)
			}
		case *ast.String:
			leaf(string(n.Value), marks)
		case *ast.CodeSpan:
			leaf(c.codeSpan(n), withMark(marks, "code"))
		case *ast.Emphasis:
			typ := "italic"
			if n.Level >= 2 {
				typ = "bold"
			}
			c.collect(n, withMark(marks, typ), inLink, out)
		case *east.Strikethrough:
			c.collect(n, withMark(marks, "strikethrough"), inLink, out)
		case *ast.Link:
			if inLink {
				c.collect(n, marks, inLink, out)
				continue
			}
			var ps []piece
			c.collect(n, marks, true, &ps)
			ref := c.linkRef(string(unescape(n.Destination)))
			*out = append(*out, piece{inline: link(ref, assemble(ps))})
		case *ast.AutoLink:
			label := string(n.Label(c.source))
			if inLink {
				leaf(label, marks)
				continue
			}
			ps := []piece{{leaf: newLeaf(label, marks)}}
			*out = append(*out, piece{inline: link(c.linkRef(autoLinkURL(n, c.source)), assemble(ps))})
		case *ast.Image:
			*out = append(*out, piece{inline: &Node{
				Object: "inline", Type: "inline-image", IsVoid: new(true), Data: c.imageData(n),
			}})
		case *ast.RawHTML:
			// Inline HTML tags are dropped, their content kept; a line
			// break tag is the only one with a plain-text meaning.
			if lineBreakTag.Match(c.rawHTML(n)) {
				leaf("\n", marks)
			}
		case *east.TaskCheckBox:
			// Left in a list that is not a task list; the parser took the
			// space after it.
			if n.IsChecked {
				leaf("[x] ", marks)
			} else {
				leaf("[ ] ", marks)
			}
		default:
			c.collect(n, marks, inLink, out)
		}
	}
}

var lineBreakTag = regexp.MustCompile(`(?i)^<br\s*/?>$`)

func (c *converter) rawHTML(n *ast.RawHTML) []byte {
	var b []byte
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		b = append(b, seg.Value(c.source)...)
	}
	return b
}

func (c *converter) codeSpan(n *ast.CodeSpan) string {
	var b strings.Builder
	for t := n.FirstChild(); t != nil; t = t.NextSibling() {
		if t, ok := t.(*ast.Text); ok {
			v := t.Segment.Value(c.source)
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

// plain returns the text of a node's inline children without formatting,
// as for an image's alternative text.
func (c *converter) plain(n ast.Node) string {
	var ps []piece
	c.collect(n, nil, true, &ps)
	var b strings.Builder
	for _, p := range ps {
		if p.leaf != nil {
			b.WriteString(p.leaf.Text)
		} else if alt, ok := p.inline.Data["alt"].(string); ok {
			b.WriteString(alt)
		}
	}
	return strings.TrimSpace(b.String())
}

// assemble groups consecutive leaves into text nodes, merging leaves with
// the same marks, and puts a text node before, between and after inlines, as
// the editor's normal form (which GitBook's own documents follow) requires.
func assemble(ps []piece) []*Node {
	var out []*Node
	var cur *Node
	for _, p := range ps {
		if p.inline != nil {
			if cur == nil {
				out = append(out, plainText(""))
			}
			out = append(out, p.inline)
			cur = nil
			continue
		}
		if p.leaf.Text == "" {
			continue
		}
		if cur == nil {
			cur = &Node{Object: "text"}
			out = append(out, cur)
		}
		if n := len(cur.Leaves); n > 0 && sameMarks(cur.Leaves[n-1].Marks, p.leaf.Marks) {
			cur.Leaves[n-1].Text += p.leaf.Text
			continue
		}
		cur.Leaves = append(cur.Leaves, p.leaf)
	}
	if cur == nil {
		out = append(out, plainText(""))
	}
	return out
}

func sameMarks(a, b []*Mark) bool {
	return slices.EqualFunc(a, b, func(x, y *Mark) bool { return x.Type == y.Type })
}

// withMark returns marks with typ added, unless it is already there.
func withMark(marks []*Mark, typ string) []*Mark {
	for _, m := range marks {
		if m.Type == typ {
			return marks
		}
	}
	return append(slices.Clone(marks), mark(typ))
}

func mark(typ string) *Mark {
	return &Mark{Object: "mark", Type: typ}
}

// newLeaf returns a leaf of text with a copy of marks, never nil: the spec
// requires the marks of a leaf even when there are none.
func newLeaf(text string, marks []*Mark) *Leaf {
	return &Leaf{Object: "leaf", Text: text, Marks: append([]*Mark{}, marks...)}
}

func textNode(leaves ...*Leaf) *Node {
	return &Node{Object: "text", Leaves: leaves}
}

func plainText(s string) *Node {
	return textNode(newLeaf(s, nil))
}

func link(ref map[string]any, nodes []*Node) *Node {
	return &Node{Object: "inline", Type: "link", IsVoid: new(false), Data: map[string]any{"ref": ref}, Nodes: nodes}
}

// linkRef is the content reference of a link destination: an anchor of the
// page, a file or a page of the revision, or else a URL.
func (c *converter) linkRef(dest string) map[string]any {
	if anchor, ok := strings.CutPrefix(dest, "#"); ok && anchor != "" {
		return map[string]any{"kind": "anchor", "anchor": anchor}
	}
	if id, ok := c.file(dest); ok {
		return map[string]any{"kind": "file", "file": id}
	}
	if c.opt.Page != nil && dest != "" {
		href, anchor, _ := strings.Cut(dest, "#")
		if id, ok := c.opt.Page(href); ok {
			if anchor != "" {
				return map[string]any{"kind": "anchor", "anchor": anchor, "page": id}
			}
			return map[string]any{"kind": "page", "page": id}
		}
	}
	return map[string]any{"kind": "url", "url": dest}
}

// imageRef is the content reference of an image source: a file of the
// revision, or else a URL.
func (c *converter) imageRef(src string) map[string]any {
	if id, ok := c.file(src); ok {
		return map[string]any{"kind": "file", "file": id}
	}
	return map[string]any{"kind": "url", "url": src}
}

func (c *converter) file(src string) (string, bool) { return c.opt.FileID(src) }

// unescape resolves backslash escapes and character references, as a
// markdown renderer does for text and link destinations.
func unescape(b []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b)))
}
