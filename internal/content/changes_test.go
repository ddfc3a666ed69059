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
