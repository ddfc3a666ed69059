package content

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// Changes names each kind of change once, in reading order, removed pages
// last, and leaves alone a page whose nested pages changed but not itself.
func TestChanges(t *testing.T) {
	ctx := context.Background()
	s := &memStore{objs: map[string]Object{}}
	// p0 and p1 at the top; p2, p3 under p0; p4, p5 under p1; p6 under p2.
	was, _, err := Save(ctx, s, balancedContent(7, 2), nil)
	require.NoError(t, err)

	now := was.Fork()
	n, _, err := now.Edit("p3")
	require.NoError(t, err)
	n.Page.Markdown = "changed"
	n, _, err = now.Edit("p2")
	require.NoError(t, err)
	n.Page.Slug = "renamed" // p6 moves with it
	_, err = now.Remove("p5")
	require.NoError(t, err)
	require.NoError(t, now.Insert("p1", 0, &Node{Page: &Page{ID: "new", Type: enum.PageTypeDocument, Slug: "new"}}))
	require.NoError(t, now.Move("p4", "", 0))
	saved, _, err := Save(ctx, s, now, was)
	require.NoError(t, err)

	type row struct{ kind, id, path, previous string }
	var got []row
	for _, c := range Changes(was, saved) {
		got = append(got, row{string(c.Kind), c.Node.Page.ID, c.Path, c.PreviousPath})
	}
	assert.Equal(t, []row{
		{"moved", "p4", "s4", "s1/s4"},
		{"modified", "p2", "s0/renamed", "s0/s2"},
		{"moved", "p6", "s0/renamed/s6", "s0/s2/s6"},
		{"modified", "p3", "s0/s3", ""},
		{"added", "new", "s1/new", ""},
		{"removed", "p5", "s1/s5", ""},
	}, got)
	assert.Empty(t, Changes(was, was))
}

// Edited lists the pages edited in place, with their paths, and refuses a
// content whose pages moved, came or went.
func TestEdited(t *testing.T) {
	ctx := context.Background()
	s := &memStore{objs: map[string]Object{}}
	// p0 and p1 at the top; p2, p3 under p0; p4, p5 under p1; p6 under p2.
	was, _, err := Save(ctx, s, balancedContent(7, 2), nil)
	require.NoError(t, err)
	save := func(change func(c *Content)) *Loaded {
		c := was.Fork()
		change(c)
		l, _, err := Save(ctx, s, c, was)
		require.NoError(t, err)
		return l
	}
	edit := func(c *Content, id string, f func(p *Page)) {
		n, _, err := c.Edit(id)
		require.NoError(t, err)
		f(n.Page)
	}

	edits, ok := Edited(was, was)
	assert.True(t, ok)
	assert.Empty(t, edits)

	now := save(func(c *Content) {
		edit(c, "p6", func(p *Page) { p.Markdown = "deep" })
		edit(c, "p1", func(p *Page) { p.Title = "retitled" })
	})
	edits, ok = Edited(was, now)
	require.True(t, ok)
	type row struct{ id, path, wasTitle, nowTitle, nowMarkdown string }
	var got []row
	for _, e := range edits {
		got = append(got, row{e.Now.Page.ID, e.Path, e.Was.Page.Title, e.Now.Page.Title, e.Now.Page.Markdown[:min(4, len(e.Now.Page.Markdown))]})
		assert.Equal(t, e.Was.Page.ID, e.Now.Page.ID)
	}
	assert.Equal(t, []row{{"p6", "s0/s2/s6", "", "", "deep"}, {"p1", "s1", "", "retitled", "Some"}}, got)

	for name, change := range map[string]func(c *Content){
		"a slug": func(c *Content) { edit(c, "p2", func(p *Page) { p.Slug = "renamed" }) },
		"a move": func(c *Content) { require.NoError(t, c.Move("p4", "", 0)) },
		"a page added": func(c *Content) {
			require.NoError(t, c.Insert("p6", 0, &Node{Page: &Page{ID: "new", Type: enum.PageTypeDocument, Slug: "new"}}))
		},
		"a page removed": func(c *Content) { _, err := c.Remove("p5"); require.NoError(t, err) },
	} {
		_, ok := Edited(was, save(change))
		assert.False(t, ok, name)
	}
}
