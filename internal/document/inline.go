package document

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
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
	c.collect(parent, &ps)
	return assemble(ps)
}

// collect appends the pieces of parent's inline content to out.
func (c *converter) collect(parent ast.Node, out *[]piece) {
	WalkInlines(c.source, parent, Inlines{
		Text: func(s string, f Format) { *out = append(*out, piece{leaf: newLeaf(s, marks(f))}) },
		Link: func(dest string, _ Format, content func()) {
			outer := *out
			*out = nil
			content()
			outer = append(outer, piece{inline: link(c.linkRef(dest), assemble(*out))})
			*out = outer
		},
		Image: func(img *ast.Image, _ Format) {
			*out = append(*out, piece{inline: &Node{
				Object: "inline", Type: "inline-image", IsVoid: new(true), Data: c.imageData(img),
			}})
		},
	})
}

// plain returns the text of a node's inline children without formatting,
// as for an image's alternative text.
func (c *converter) plain(n ast.Node) string { return PlainText(c.source, n) }

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

// marks returns the marks of a format.
func marks(f Format) []*Mark {
	out := make([]*Mark, len(f))
	for i, typ := range f {
		out[i] = mark(typ)
	}
	return out
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
