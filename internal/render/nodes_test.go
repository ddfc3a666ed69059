package render

import "github.com/bindery/bindery/internal/document"

// The helpers below build documents node by node, for what markdown cannot
// write.

func doc(nodes ...*document.Node) *document.Document {
	return &document.Document{Object: "document", Data: map[string]any{}, Nodes: nodes}
}

func blk(typ string, data map[string]any, nodes ...*document.Node) *document.Node {
	return &document.Node{Object: "block", Type: typ, Data: data, Nodes: nodes}
}

func inl(typ string, data map[string]any, nodes ...*document.Node) *document.Node {
	return &document.Node{Object: "inline", Type: typ, Data: data, Nodes: nodes}
}

func withFragments(n *document.Node, fragments ...*document.Node) *document.Node {
	n.Fragments = fragments
	return n
}

func frag(name string, nodes ...*document.Node) *document.Node {
	return &document.Node{Object: "fragment", Fragment: name, Type: name, Nodes: nodes}
}

// txt is a text node of one leaf with marks.
func txt(s string, marks ...string) *document.Node {
	l := &document.Leaf{Object: "leaf", Text: s, Marks: []*document.Mark{}}
	for _, m := range marks {
		l.Marks = append(l.Marks, &document.Mark{Object: "mark", Type: m})
	}
	return &document.Node{Object: "text", Leaves: []*document.Leaf{l}}
}

// para is a paragraph of texts and inlines; a string is a plain text.
func para(content ...any) *document.Node {
	var nodes []*document.Node
	for _, c := range content {
		switch c := c.(type) {
		case string:
			nodes = append(nodes, txt(c))
		case *document.Node:
			nodes = append(nodes, c)
		}
	}
	return blk("paragraph", nil, nodes...)
}

func urlRef(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }

func link(u string, content ...any) *document.Node {
	return inl("link", map[string]any{"ref": urlRef(u)}, para(content...).Nodes...)
}
