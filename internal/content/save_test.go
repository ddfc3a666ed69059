package content

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// randomContent returns a tree of about n pages, up to 4 levels deep.
func randomContent(rng *rand.Rand, n int) *Content {
	c := &Content{}
	var nodes []*Node
	for i := 0; i < n; i++ {
		p := &Node{Page: &Page{ID: fmt.Sprintf("p%d", i), Type: enum.PageTypeDocument,
			Slug: fmt.Sprintf("s%d", i), Markdown: fmt.Sprintf("text %d", i)}}
		if len(nodes) == 0 || rng.IntN(4) == 0 {
			c.Pages = append(c.Pages, p)
		} else {
			parent := nodes[rng.IntN(len(nodes))]
			parent.Children = append(parent.Children, p)
		}
		nodes = append(nodes, p)
	}
	return c
}

// randomEdit changes c, a fork, as an edit would: a page's text or slug
// changed, a page added, removed or moved.
func randomEdit(t *testing.T, rng *rand.Rand, c *Content, serial int) {
	var ids []string
	c.Walk(func(n, _ *Node, _ string) { ids = append(ids, n.Page.ID) })
	if len(ids) == 0 {
		require.NoError(t, c.Insert("", -1, &Node{Page: &Page{ID: "first", Type: enum.PageTypeDocument, Slug: "first"}}))
		return
	}
	id := ids[rng.IntN(len(ids))]
	switch rng.IntN(6) {
	case 0, 1:
		n, _, err := c.Edit(id)
		require.NoError(t, err)
		n.Page.Markdown += " edited"
	case 2:
		n, _, err := c.Edit(id)
		require.NoError(t, err)
		n.Page.Slug += "x"
	case 3:
		require.NoError(t, c.Insert(id, 0, &Node{Page: &Page{ID: fmt.Sprintf("new%d", serial), Type: enum.PageTypeDocument, Slug: "new"}}))
	case 4:
		_, err := c.Remove(id)
		require.NoError(t, err)
	case 5:
		_ = c.Move(id, ids[rng.IntN(len(ids))], 0) // may break a rule: then nothing changes
	}
}

// brief is what a test compares of a content: each page's ID, path, and
// where it sits.
func brief(l *Loaded) map[string]string {
	out := map[string]string{}
	l.Walk(func(n, parent *Node, path string) {
		out[n.Page.ID] = fmt.Sprintf("%s|%s|%s", path, parentIDOf(parent), n.Page.Markdown)
	})
	return out
}

// Saving a fork encodes only what it changed, and the content it returns
// reads exactly as the same content loaded afresh: the same hashes, trees,
// index; and its Diff names exactly the pages whose object or path changed.
func TestSaveFollowsTheEditedContent(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := &memStore{objs: map[string]Object{}}
		prev, _, err := Save(ctx, s, randomContent(rng, 60), nil)
		require.NoError(t, err)
		for step := 0; step < 8; step++ {
			before := brief(prev)
			fork := prev.Fork()
			for k := 0; k <= rng.IntN(3); k++ {
				randomEdit(t, rng, fork, step*10+k)
			}
			saved, diff, err := Save(ctx, s, fork, prev)
			require.NoError(t, err)
			assert.Equal(t, before, brief(prev), "the content it was forked from is as it was")

			fresh, err := Load(ctx, s, saved.Roots())
			require.NoError(t, err)
			require.Equal(t, fresh.index.byID.Len(), saved.index.byID.Len())
			for it := fresh.index.byID.Iterator(); !it.Done(); {
				id, e, _ := it.Next()
				got, _ := saved.index.entry(id)
				assert.Equal(t, e.hash, got.hash, "seed %d step %d: %s", seed, step, id)
				assert.Equal(t, e.tree, got.tree, id)
				assert.Equal(t, e.path, got.path, id)
				assert.Equal(t, e.index, got.index, id)
				assert.Equal(t, parentIDOf(e.parent), parentIDOf(got.parent), id)
				assert.Equal(t, e.n.Page.ID, got.n.Page.ID)
				assert.Equal(t, e.n.Page.Markdown, got.n.Page.Markdown)
			}
			assert.ElementsMatch(t, pathsOf(fresh), pathsOf(saved))

			// The diff is the pages whose object or path differ.
			var want, existed, removed []string
			fresh.Walk(func(n, _ *Node, path string) {
				id := n.Page.ID
				if old, ok := prev.index.entry(id); !ok || old.path != path || old.hash != fresh.PageHash(id) {
					want = append(want, id+" "+path)
					if ok {
						existed = append(existed, id)
					}
				}
			})
			prev.Walk(func(n, _ *Node, _ string) {
				if fresh.PageHash(n.Page.ID) == "" {
					removed = append(removed, n.Page.ID)
				}
			})
			var got []string
			for _, p := range diff.Pages {
				got = append(got, p.Page.ID+" "+p.Path)
				assert.Equal(t, fresh.PageHash(p.Page.ID), p.Hash)
			}
			assert.ElementsMatch(t, want, got, "seed %d step %d", seed, step)
			assert.ElementsMatch(t, existed, diff.Existed)
			assert.ElementsMatch(t, removed, diff.Removed)
			prev = saved
		}
	}
}

// An edit of one page of a large content encodes that page and the trees
// above it, nothing else.
func TestSaveEncodesWhatChanged(t *testing.T) {
	ctx := context.Background()
	s := &memStore{objs: map[string]Object{}}
	prev, _, err := Save(ctx, s, randomContent(rand.New(rand.NewPCG(1, 2)), 2000), nil)
	require.NoError(t, err)
	fork := prev.Fork()
	path, err := fork.pathTo("p1999")
	require.NoError(t, err)
	n, _, err := fork.Edit("p1999")
	require.NoError(t, err)
	n.Page.Markdown = "changed"
	counting := &countingStore{Store: s}
	_, diff, err := Save(ctx, counting, fork, prev)
	require.NoError(t, err)
	assert.Equal(t, len(path)*2, counting.put, "each page on the path, and its siblings' tree")
	require.Len(t, diff.Pages, 1)
	assert.Equal(t, "p1999", diff.Pages[0].Page.ID)
}

type countingStore struct {
	Store
	put int
}

func (c *countingStore) Put(ctx context.Context, objs []Object) error {
	c.put += len(objs)
	return c.Store.Put(ctx, objs)
}

// BenchmarkSaveEdit edits one page of contents of several sizes and saves
// it: the cost follows the page's depth, plus copying the lookups.
func BenchmarkSaveEdit(b *testing.B) {
	for _, size := range []int{20, 2000, 10000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			ctx := context.Background()
			s := &memStore{objs: map[string]Object{}}
			prev, _, err := Save(ctx, s, balancedContent(size, 8), nil)
			require.NoError(b, err)
			id := fmt.Sprintf("p%d", size-1)
			for b.Loop() {
				fork := prev.Fork()
				n, _, err := fork.Edit(id)
				require.NoError(b, err)
				n.Page.Markdown += "x"
				if prev, _, err = Save(ctx, s, fork, prev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// balancedContent returns n pages, each with up to width children.
func balancedContent(n, width int) *Content {
	c := &Content{}
	nodes := make([]*Node, n)
	for i := range nodes {
		nodes[i] = &Node{Page: &Page{ID: fmt.Sprintf("p%d", i), Type: enum.PageTypeDocument,
			Slug: fmt.Sprintf("s%d", i), Markdown: strings.Repeat("Some text. ", 100)}}
		if i < width {
			c.Pages = append(c.Pages, nodes[i])
		} else {
			parent := nodes[i/width-1]
			parent.Children = append(parent.Children, nodes[i])
		}
	}
	return c
}

// pathsOf returns the paths a content's index finds pages by, with the
// page each finds.
func pathsOf(l *Loaded) []string {
	var out []string
	for it := l.index.byPath.Iterator(); !it.Done(); {
		path, n, _ := it.Next()
		out = append(out, path+" "+n.Page.ID)
	}
	return out
}

// An empty content has an index too: lookups answer, and it is refused
// changes like any loaded content.
func TestEmptyLoadedContent(t *testing.T) {
	l, err := Load(context.Background(), &memStore{objs: map[string]Object{}}, Roots{})
	require.NoError(t, err)
	assert.Empty(t, l.PageHash("p"))
	assert.False(t, SameBeneath("p", l, l))
	_, _, _, err = l.Find("p")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Panics(t, func() { _ = l.Insert("", 0, &Node{Page: &Page{ID: "p"}}) })
}

// Pages that replace a whole tree are saved as they are, even nested pages
// with the IDs of the pages they replace: nothing of the old tree is
// taken for them.
func TestSaveReplacedPages(t *testing.T) {
	ctx := context.Background()
	s := &memStore{objs: map[string]Object{}}
	prev, _, err := Save(ctx, s, balancedContent(100, 4), nil)
	require.NoError(t, err)
	fresh := balancedContent(100, 4)
	fresh.Pages[1].Children[2].Page.Markdown = "replaced"
	fork := prev.Fork()
	fork.ReplacePages(fresh.Pages)
	saved, diff, err := Save(ctx, s, fork, prev)
	require.NoError(t, err)
	n, err := saved.ByPath("s1/s10")
	require.NoError(t, err)
	assert.Equal(t, "replaced", n.Page.Markdown)
	require.Len(t, diff.Pages, 1, "the rest is the same")
	assert.Equal(t, "p10", diff.Pages[0].Page.ID)
}
