package document

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// scope is where blocks are placed. The spec allows fewer kinds of blocks
// inside quotes and list items than at the top level; a block a scope does
// not allow is rendered as the closest block it does.
type scope int

const (
	// scopeTop allows every block.
	scopeTop scope = iota
	// scopeListItem allows everything but image blocks.
	scopeListItem
	// scopeQuote allows paragraphs, headings, lists, dividers and quotes.
	scopeQuote
)

type converter struct {
	source []byte
	opt    Options
}

func (c *converter) blocks(parent ast.Node, s scope) []*Node {
	var out []*Node
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		out = append(out, c.block(n, s)...)
	}
	return out
}

func (c *converter) block(n ast.Node, s scope) []*Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if s == scopeTop && onlyImages(n, c.source) {
			return []*Node{c.images(n)}
		}
		return []*Node{paragraph(c.inlines(n))}
	case *ast.Heading:
		typ := "heading-3"
		switch n.Level {
		case 1:
			typ = "heading-1"
		case 2:
			typ = "heading-2"
		}
		return []*Node{block(typ, map[string]any{}, c.inlines(n))}
	case *ast.ThematicBreak:
		return []*Node{voidBlock("divider", map[string]any{})}
	case *ast.FencedCodeBlock:
		lang := ""
		if l := n.Language(c.source); l != nil {
			lang = string(unescape(l))
		}
		return []*Node{c.code(c.lines(n), lang, s)}
	case *ast.CodeBlock:
		return []*Node{c.code(c.lines(n), "", s)}
	case *ast.HTMLBlock:
		// Raw HTML is kept verbatim, as code, rather than interpreted.
		lines := c.lines(n)
		if n.HasClosure() {
			lines += string(n.ClosureLine.Value(c.source))
		}
		return []*Node{c.code(lines, "html", s)}
	case *ast.Blockquote:
		return []*Node{block("blockquote", nil, nonEmpty(c.blocks(n, scopeQuote)))}
	case *ast.List:
		return []*Node{c.list(n)}
	case *east.Table:
		if s == scopeQuote {
			return c.tableParagraphs(n)
		}
		return []*Node{c.table(n)}
	default:
		// A container this converter does not know: keep its content.
		return c.blocks(n, s)
	}
}

// lines returns the raw text of a block's lines, each ending in a newline.
func (c *converter) lines(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(c.source))
	}
	return b.String()
}

// code is a code block of one code line per line of src. In a quote, which
// does not allow code blocks, it is a paragraph of code-marked text.
func (c *converter) code(src, lang string, s scope) *Node {
	src = strings.TrimSuffix(src, "\n")
	if s == scopeQuote {
		return paragraph([]*Node{textNode(newLeaf(src, []*Mark{mark("code")}))})
	}
	data := map[string]any{}
	if lang != "" {
		data["syntax"] = lang
	}
	var lines []*Node
	for line := range strings.SplitSeq(src, "\n") {
		lines = append(lines, block("code-line", map[string]any{}, []*Node{plainText(line)}))
	}
	return block("code", data, lines)
}

func (c *converter) list(n *ast.List) *Node {
	tasks := !n.IsOrdered() && allTasks(n)
	var items []*Node
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		var data map[string]any
		if tasks {
			box := taskBox(it)
			data = map[string]any{"checked": box.IsChecked}
			box.Parent().RemoveChild(box.Parent(), box)
		}
		items = append(items, block("list-item", data, nonEmpty(c.blocks(it, scopeListItem))))
	}
	switch {
	case tasks:
		return block("list-tasks", nil, items)
	case n.IsOrdered():
		data := map[string]any{}
		if n.Start != 1 {
			data["start"] = n.Start
		}
		return block("list-ordered", data, items)
	default:
		return block("list-unordered", nil, items)
	}
}

// allTasks reports whether every item of the list starts with a task
// checkbox, which makes it a task list. A list mixing tasks and plain items
// stays a plain list, its checkboxes kept as text.
func allTasks(list *ast.List) bool {
	if list.FirstChild() == nil {
		return false
	}
	for it := list.FirstChild(); it != nil; it = it.NextSibling() {
		if taskBox(it) == nil {
			return false
		}
	}
	return true
}

func taskBox(item ast.Node) *east.TaskCheckBox {
	first := item.FirstChild()
	if first == nil {
		return nil
	}
	box, _ := first.FirstChild().(*east.TaskCheckBox)
	return box
}

// onlyImages reports whether a paragraph holds images and nothing but
// white space, which makes it an image block rather than text.
func onlyImages(p ast.Node, source []byte) bool {
	images := 0
	for n := p.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Image:
			images++
		case *ast.Text:
			if strings.TrimSpace(string(n.Segment.Value(source))) != "" {
				return false
			}
		default:
			return false
		}
	}
	return images > 0
}

func (c *converter) images(p ast.Node) *Node {
	var images []*Node
	for n := p.FirstChild(); n != nil; n = n.NextSibling() {
		if img, ok := n.(*ast.Image); ok {
			im := voidBlock("image", c.imageData(img))
			im.Fragments = []*Node{}
			images = append(images, im)
		}
	}
	return &Node{Object: "block", Type: "images", IsVoid: new(false), Data: map[string]any{}, Nodes: images}
}

func (c *converter) imageData(img *ast.Image) map[string]any {
	data := map[string]any{"ref": c.imageRef(string(unescape(img.Destination)))}
	if alt := c.plain(img); alt != "" {
		data["alt"] = alt
	}
	return data
}

// nonEmpty returns blocks, or a single empty paragraph for none: a block
// that holds blocks needs at least one.
func nonEmpty(blocks []*Node) []*Node {
	if len(blocks) == 0 {
		return []*Node{paragraph(nil)}
	}
	return blocks
}

func block(typ string, data map[string]any, nodes []*Node) *Node {
	if nodes == nil {
		nodes = []*Node{}
	}
	return &Node{Object: "block", Type: typ, IsVoid: new(false), Data: data, Nodes: nodes}
}

func voidBlock(typ string, data map[string]any) *Node {
	return &Node{Object: "block", Type: typ, IsVoid: new(true), Data: data}
}

func paragraph(inlines []*Node) *Node {
	if len(inlines) == 0 {
		inlines = []*Node{plainText("")}
	}
	return block("paragraph", nil, inlines)
}
