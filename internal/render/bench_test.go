package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/document"
)

// longPage is a long page of about 200 blocks: 20 sections of a heading,
// paragraphs with marks and links, a list, a code block, a table, a quote
// and an image.
func longPage(tb testing.TB) *document.Document {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		fmt.Fprintf(&b, "Some **bold** and *italic* text with `code`, a [link](https://example.com/%d) and [a page](setup.md).\n\n", i)
		b.WriteString("A second paragraph, long enough to be a real one: the renderer escapes <every> text & writes marks.\n\n")
		b.WriteString("- one\n- two with **bold**\n- three\n\n")
		b.WriteString("```go\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(\"hello\", i)\n\t}\n}\n```\n\n")
		b.WriteString("| Name | Value |\n|------|------:|\n| a | 1 |\n| b | 2 |\n\n")
		b.WriteString("> A quote.\n\n")
		b.WriteString("![A diagram](.gitbook/assets/diagram.png)\n\n")
		b.WriteString("### Details\n\nClosing text.\n\n")
	}
	d, err := document.FromMarkdown(b.String(), markdownOptions)
	require.NoError(tb, err)
	return d
}

func TestLongPage(t *testing.T) {
	d := longPage(t)
	if n := len(d.Nodes); n < 190 || n > 210 {
		t.Fatalf("the benchmark's page has %d blocks, not about 200", n)
	}
	checkHTML(t, string(Document(d, siteOptions()).HTML))
}

// BenchmarkDocument renders the long page; "plain-code" renders it with
// its code blocks' language removed, which shows the renderer's own cost
// apart from chroma's lexing.
func BenchmarkDocument(b *testing.B) {
	highlighted := longPage(b)
	plain := longPage(b)
	for _, n := range plain.Nodes {
		if n.Type == "code" {
			delete(n.Data, "syntax")
		}
	}
	opt := siteOptions()
	for name, d := range map[string]*document.Document{"page": highlighted, "plain-code": plain} {
		b.Run(name, func(b *testing.B) {
			Document(d, opt) // chroma's lexers compile on first use
			b.ReportAllocs()
			for b.Loop() {
				Document(d, opt)
			}
		})
	}
}
