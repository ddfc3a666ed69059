package merge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
)

// benchTree returns 10 top-level pages with 9 children each with 10
// children each: 1000 pages of 20 paragraphs.
func benchTree() *content.Content {
	var paras []string
	for i := 0; i < 20; i++ {
		paras = append(paras, fmt.Sprintf("Paragraph %d of the page, with a line of text.\n", i))
	}
	md := strings.Join(paras, "\n")
	page := func(id string, children ...*content.Node) *content.Node {
		return withMarkdown(doc(id, children...), md)
	}
	c := &content.Content{}
	for i := 0; i < 10; i++ {
		top := page(fmt.Sprintf("t%d", i))
		for j := 0; j < 9; j++ {
			mid := page(fmt.Sprintf("t%d-%d", i, j))
			for k := 0; k < 10; k++ {
				mid.Children = append(mid.Children, page(fmt.Sprintf("t%d-%d-%d", i, j, k)))
			}
			top.Children = append(top.Children, mid)
		}
		c.Pages = append(c.Pages, top)
	}
	return c
}

// replaceLine edits one paragraph of a page.
func replaceLine(id string, para int) edit {
	return change(id, 1, func(p *content.Page) {
		old := fmt.Sprintf("Paragraph %d of", para)
		p.Markdown = strings.Replace(p.Markdown, old, old+" (edited)", 1)
	})
}

func BenchmarkMerge1000Pages(b *testing.B) {
	base := benchTree()
	var ours, theirs []edit
	for i := 0; i < 50; i++ {
		id := fmt.Sprintf("t%d-%d-%d", i%10, i%9, i%10)
		ours = append(ours, replaceLine(id, 2))
		theirs = append(theirs, replaceLine(id, 15), replaceLine(fmt.Sprintf("t%d-%d", i%10, i%9), 7))
	}
	for i := 0; i < 10; i++ {
		ours = append(ours, add(fmt.Sprintf("t%d", i), 0, doc(fmt.Sprintf("new-ours-%d", i))))
		theirs = append(theirs, remove(fmt.Sprintf("t%d-8-9", i)), move(fmt.Sprintf("t%d-7-0", i), "", -1))
	}
	o, t := apply(base, ours...), apply(base, theirs...)
	got, conflicts := Merge(base, o, t, Options{})
	require.Empty(b, conflicts)
	require.Equal(b, 1000, got.Count(), "10 pages added, 10 removed")

	b.ReportAllocs()
	for b.Loop() {
		Merge(base, o, t, Options{})
	}
}
