package document

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// refs collects the references of a document's links and images, in
// document order, as Links would report them.
func refs(nodes []*Node, out *[]Link) {
	for _, n := range nodes {
		if ref, ok := n.Data["ref"].(map[string]any); ok {
			dest, _ := ref["url"].(string)
			if a, ok := ref["anchor"].(string); ok {
				dest = "#" + a
			}
			*out = append(*out, Link{Destination: dest, Image: n.Type == "image" || n.Type == "inline-image"})
		}
		refs(n.Nodes, out)
		refs(n.Fragments, out)
	}
}

func TestLinksAgreeWithDocuments(t *testing.T) {
	for _, md := range []string{
		richSample,
		"[a](x.md) <https://go.dev> <ada@example.com> ![i](y.png)\n\n> [q](#z)\n\n- [l](\\_u.md)",
		"[**bold ![img](in-link.png)**](outer.md)",
		"[ref][r]\n\n[r]: a%20b.md \"title\"",
		"| [c](cell.md) |\n|---|\n| ![x](cell.png) |",
		"> | [h](head.md) |\n> |---|\n> | [b](body.md) |\n>\n> - | [l](list.md) |\n>   |---|\n>   | x |",
		"`[code](no.md)`\n\n```\n[fenced](no.md)\n```\n\n<a href=\"html.md\">html</a>",
	} {
		d, err := FromMarkdown(md, Options{})
		assert.NoError(t, err)
		var want []Link
		refs(d.Nodes, &want)
		assert.Equal(t, want, Links(md), md)
	}
	assert.Equal(t, []Link{{Destination: "_u.md"}}, Links("[l](\\_u.md)"), "escapes are resolved")
}
