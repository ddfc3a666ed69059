package mdtext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFirstHeading(t *testing.T) {
	for _, tt := range []struct {
		src   string
		index int
		text  string
	}{
		{"# Title\n\nBody", 0, "Title"},
		{"Intro\n## Two\n# One ##\n", 2, "One"},
		{"```\n# not a title\n```\n# Title", 3, "Title"},
		{"~~~\n# fenced\n```\n# still fenced\n~~~\n#\n", 5, ""},
		{"No heading", -1, ""},
	} {
		i, text := FirstHeading(strings.Split(tt.src, "\n"))
		assert.Equal(t, tt.index, i, tt.src)
		assert.Equal(t, tt.text, text, tt.src)
	}
}

func TestRewrite(t *testing.T) {
	up := func(ref string, image bool) string {
		if image {
			return "../" + ref
		}
		return ref
	}
	for _, tt := range []struct{ src, want string }{
		{"![a](x.png) and [link](x.png)", "![a](../x.png) and [link](x.png)"},
		{`![a](<my x.png> "title")`, `![a](<../my x.png> "title")`},
		{"![a](x(1).png)", "![a](<../x(1).png>)"},
		{`<img src='a&amp;b.png' alt="x">`, `<img src='../a&amp;b.png' alt="x">`},
		{"```\n![a](x.png)\n```\n![b](y.png)", "```\n![a](x.png)\n```\n![b](../y.png)"},
		{"![empty]()", "![empty]()"},
	} {
		assert.Equal(t, tt.want, Rewrite(tt.src, up), tt.src)
	}
	same := "![a](<x y.png>) <img src='a&amp;b.png'> [l](u \"t\")"
	assert.Equal(t, same, Rewrite(same, func(ref string, _ bool) string { return ref }), "unchanged stays byte for byte")
}
