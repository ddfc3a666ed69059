package merge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// t0 is the time every test page was created and last updated in base.
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// doc returns a document page whose slug is its ID.
func doc(id string, children ...*content.Node) *content.Node {
	return &content.Node{
		Page: &content.Page{
			ID: id, Type: enum.PageTypeDocument, Title: "Page " + id, Slug: id,
			Markdown: "# " + id + "\n", CreatedAt: t0, UpdatedAt: t0,
		},
		Children: children,
	}
}

// withSlug sets the node's slug.
func withSlug(n *content.Node, slug string) *content.Node {
	n.Page.Slug = slug
	return n
}

// withMarkdown sets the node's markdown.
func withMarkdown(n *content.Node, md string) *content.Node {
	n.Page.Markdown = md
	return n
}

func tree(nodes ...*content.Node) *content.Content {
	return &content.Content{Pages: nodes}
}

// edit is a change applied to a copy of base to make one side.
type edit func(c *content.Content)

// apply returns a copy of c with the edits applied.
func apply(c *content.Content, edits ...edit) *content.Content {
	out := c.Clone()
	for _, e := range edits {
		e(out)
	}
	return out
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func find(c *content.Content, id string) *content.Page {
	n, _, _, err := c.Find(id)
	must(err)
	return n.Page
}

// change edits one page and marks it updated at the given minute after t0.
func change(id string, minute int, fn func(p *content.Page)) edit {
	return func(c *content.Content) {
		p := find(c, id)
		fn(p)
		p.UpdatedAt = t0.Add(time.Duration(minute) * time.Minute)
	}
}

func setMarkdown(id, md string) edit {
	return change(id, 1, func(p *content.Page) { p.Markdown = md })
}

func setTitle(id, title string) edit {
	return change(id, 1, func(p *content.Page) { p.Title = title })
}

func add(parent string, index int, n *content.Node) edit {
	return func(c *content.Content) { must(c.Insert(parent, index, n)) }
}

func remove(id string) edit {
	return func(c *content.Content) {
		_, err := c.Remove(id)
		must(err)
	}
}

func move(id, parent string, index int) edit {
	return func(c *content.Content) { must(c.Move(id, parent, index)) }
}

// outline renders the page tree as IDs, children in parentheses, with the
// slug after a colon when it differs from the ID: "a(b c:c-2) d".
func outline(c *content.Content) string {
	var b strings.Builder
	var walk func(nodes []*content.Node)
	walk = func(nodes []*content.Node) {
		for i, n := range nodes {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(n.Page.ID)
			if n.Page.Slug != n.Page.ID {
				b.WriteString(":" + n.Page.Slug)
			}
			if len(n.Children) > 0 {
				b.WriteByte('(')
				walk(n.Children)
				b.WriteByte(')')
			}
		}
	}
	walk(c.Pages)
	return b.String()
}

// keys returns the conflicts as "kind key" strings.
func keys(cs []Conflict) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c.Kind) + " " + c.Key()
	}
	return out
}

// canon returns a copy of c where empty lists are nil, so that equal
// contents compare equal.
func canon(c *content.Content) *content.Content {
	if c == nil {
		return nil
	}
	out := c.Clone()
	out.Pages = canonNodes(out.Pages)
	if len(out.Files) == 0 {
		out.Files = nil
	}
	if len(out.Reusable) == 0 {
		out.Reusable = nil
	}
	return out
}

func canonNodes(nodes []*content.Node) []*content.Node {
	if len(nodes) == 0 {
		return nil
	}
	for _, n := range nodes {
		n.Children = canonNodes(n.Children)
	}
	return nodes
}

// requireValid checks the rules of a page tree: unique page IDs, unique
// slugs among siblings, groups only at the top level, no children under
// links, files and reusable contents ordered by unique ID.
func requireValid(t *testing.T, c *content.Content) {
	t.Helper()
	seen := map[string]bool{}
	var check func(nodes []*content.Node, parent *content.Node)
	check = func(nodes []*content.Node, parent *content.Node) {
		slugs := map[string]string{}
		for _, n := range nodes {
			p := n.Page
			require.False(t, seen[p.ID], "page %s appears twice", p.ID)
			seen[p.ID] = true
			require.Empty(t, slugs[p.Slug], "pages %s and %s share slug %q", slugs[p.Slug], p.ID, p.Slug)
			slugs[p.Slug] = p.ID
			if parent != nil {
				require.NotEqual(t, enum.PageTypeGroup, p.Type, "group %s below the top level", p.ID)
				require.NotEqual(t, enum.PageTypeLink, parent.Page.Type, "page %s beneath link %s", p.ID, parent.Page.ID)
			}
			check(n.Children, n)
		}
	}
	check(c.Pages, nil)
	require.True(t, slices.IsSortedFunc(c.Files, func(a, b *content.File) int { return strings.Compare(a.ID, b.ID) }))
	require.True(t, slices.IsSortedFunc(c.Reusable, func(a, b *content.Reusable) int { return strings.Compare(a.ID, b.ID) }))
	for i := 1; i < len(c.Files); i++ {
		require.NotEqual(t, c.Files[i-1].ID, c.Files[i].ID)
	}
	for i := 1; i < len(c.Reusable); i++ {
		require.NotEqual(t, c.Reusable[i-1].ID, c.Reusable[i].ID)
	}
}

// lines joins lines with "\n" after each.
func lines(ls ...string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

func ptr[T any](v T) *T { return &v }

func file(id, name, blob string) *content.File {
	return &content.File{ID: id, Name: name, ContentType: "image/png", Size: int64(len(blob)), Blob: blob}
}

func fileJSON(f *content.File) string {
	return fmt.Sprintf(`{"id":%q,"name":%q,"contentType":"image/png","size":%d,"blob":%q}`, f.ID, f.Name, f.Size, f.Blob)
}
