package merge

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/content/contenttest"
	"github.com/bindery/bindery/internal/enum"
)

// gen makes random contents and random edits of them. Every edit goes
// through the content package's own operations, so every content it makes
// is a valid tree.
type gen struct {
	r *rand.Rand
	// clock is the minute after t0 of the next edit: edits only move
	// UpdatedAt forward.
	clock int
	// added counts the pages added, for unique IDs.
	added int
}

var slugPool = []string{"intro", "guide", "setup", "faq", "api"}

func newGen(seed int64) *gen {
	return &gen{r: rand.New(rand.NewSource(seed)), clock: 1}
}

// content returns a random content of about n pages, a few files and
// reusable contents.
func (g *gen) content(n int) *content.Content {
	c := &content.Content{}
	for i := 0; i < n; i++ {
		g.addPage(c, fmt.Sprintf("p%02d", i), t0)
	}
	for i := g.r.Intn(4); i > 0; i-- {
		c.PutFile(file(fmt.Sprintf("f%d", i), "file.png", fmt.Sprintf("blob%d", g.r.Intn(3))))
	}
	for i := 0; i < g.r.Intn(3); i++ {
		c.Reusable = append(c.Reusable, &content.Reusable{ID: fmt.Sprintf("r%d", i), Title: "Snippet", Markdown: randomText(g.r)})
	}
	return c
}

// addPage inserts a new page with the given ID at a random place that can
// hold it.
func (g *gen) addPage(c *content.Content, id string, at time.Time) {
	p := &content.Page{
		ID: id, Type: enum.PageTypeDocument, Title: "Page " + id, Slug: slugPool[g.r.Intn(len(slugPool))],
		Markdown: randomText(g.r), CreatedAt: at, UpdatedAt: at,
	}
	switch g.r.Intn(8) {
	case 0:
		p.Type = enum.PageTypeGroup
	case 1:
		p.Type, p.Target = enum.PageTypeLink, &content.Ref{Kind: "url", URL: "https://example.com/" + id}
	}
	parent := ""
	if p.Type != enum.PageTypeGroup {
		parent = g.pick(append(g.holders(c), ""))
	}
	n := len(c.Pages)
	if parent != "" {
		node, _, _, err := c.Find(parent)
		must(err)
		n = len(node.Children)
	}
	must(c.Insert(parent, g.r.Intn(n+1), &content.Node{Page: p}))
}

// holders returns the IDs of the pages that can have children.
func (g *gen) holders(c *content.Content) []string {
	var out []string
	c.Walk(func(n, _ *content.Node, _ string) {
		if n.Page.Type != enum.PageTypeLink {
			out = append(out, n.Page.ID)
		}
	})
	return out
}

func pageIDs(c *content.Content) []string {
	var out []string
	c.Walk(func(n, _ *content.Node, _ string) { out = append(out, n.Page.ID) })
	return out
}

func (g *gen) pick(ids []string) string {
	return ids[g.r.Intn(len(ids))]
}

// edits returns a copy of c with n random edits made by side.
func (g *gen) edits(c *content.Content, side string, n int) *content.Content {
	out := c.Clone()
	for i := 0; i < n; i++ {
		g.edit(out, side)
		g.clock++
	}
	return out
}

func (g *gen) edit(c *content.Content, side string) {
	ids := pageIDs(c)
	now := t0.Add(time.Duration(g.clock) * time.Minute)
	op := g.r.Intn(12)
	if len(ids) == 0 && op < 9 {
		op = 6
	}
	switch op {
	case 0, 1, 2:
		g.changePage(c, g.pick(ids), now, func(p *content.Page) { p.Markdown = mutateText(g.r, p.Markdown) })
	case 3:
		g.changePage(c, g.pick(ids), now, func(p *content.Page) { p.Title = fmt.Sprintf("Title %d", g.r.Intn(4)) })
	case 4:
		g.renamePage(c, g.pick(ids), now)
	case 5:
		g.changePage(c, g.pick(ids), now, func(p *content.Page) {
			p.Emoji, p.Hidden = []string{"", "🚀", "📘"}[g.r.Intn(3)], g.r.Intn(2) == 0
		})
	case 6:
		g.added++
		id := fmt.Sprintf("%s%d", side, g.added)
		if g.r.Intn(5) == 0 {
			id = fmt.Sprintf("s%d", g.r.Intn(3)) // both sides may add this one
		}
		if _, _, _, err := c.Find(id); err != nil {
			g.addPage(c, id, now)
		}
	case 7:
		_, err := c.Remove(g.pick(ids))
		must(err)
	case 8:
		g.movePage(c, g.pick(ids))
	case 9:
		g.editFile(c)
	case 10:
		g.editReusable(c)
	case 11:
		if len(ids) > 0 {
			g.retypePage(c, g.pick(ids), now)
		}
	}
}

func (g *gen) changePage(c *content.Content, id string, now time.Time, fn func(p *content.Page)) {
	p := find(c, id)
	fn(p)
	p.UpdatedAt = now
}

// renamePage gives the page a slug from the pool, unique among its siblings.
func (g *gen) renamePage(c *content.Content, id string, now time.Time) {
	_, parent, _, err := c.Find(id)
	must(err)
	siblings := c.Pages
	if parent != nil {
		siblings = parent.Children
	}
	g.changePage(c, id, now, func(p *content.Page) {
		p.Slug = content.UniqueSlug(siblings, slugPool[g.r.Intn(len(slugPool))], id)
	})
}

// movePage moves the page to a random parent and position; a move the
// content refuses is skipped.
func (g *gen) movePage(c *content.Content, id string) {
	parent := g.pick(append(g.holders(c), "", ""))
	n := len(c.Pages)
	if parent != "" {
		node, _, _, err := c.Find(parent)
		must(err)
		n = len(node.Children)
	}
	_ = c.Move(id, parent, g.r.Intn(n+1)-1)
}

// retypePage switches a page between document and link (when it has no
// children) or between document and group (at the top level).
func (g *gen) retypePage(c *content.Content, id string, now time.Time) {
	n, parent, _, err := c.Find(id)
	must(err)
	p := n.Page
	switch {
	case p.Type == enum.PageTypeLink:
		g.changePage(c, id, now, func(p *content.Page) { p.Type, p.Target = enum.PageTypeDocument, nil })
	case p.Type == enum.PageTypeGroup:
		g.changePage(c, id, now, func(p *content.Page) { p.Type = enum.PageTypeDocument })
	case parent == nil && g.r.Intn(2) == 0:
		g.changePage(c, id, now, func(p *content.Page) { p.Type = enum.PageTypeGroup })
	case len(n.Children) == 0:
		g.changePage(c, id, now, func(p *content.Page) {
			p.Type, p.Target = enum.PageTypeLink, &content.Ref{Kind: "url", URL: "https://example.com"}
		})
	}
}

func (g *gen) editFile(c *content.Content) {
	id := fmt.Sprintf("f%d", g.r.Intn(5))
	if _, err := c.File(id); err == nil && g.r.Intn(3) == 0 {
		must(c.RemoveFile(id))
		return
	}
	c.PutFile(file(id, "file.png", fmt.Sprintf("blob%d", g.r.Intn(3))))
}

func (g *gen) editReusable(c *content.Content) {
	id := fmt.Sprintf("r%d", g.r.Intn(3))
	for i, r := range c.Reusable {
		if r.ID != id {
			continue
		}
		if g.r.Intn(3) == 0 {
			c.Reusable = append(c.Reusable[:i:i], c.Reusable[i+1:]...)
			return
		}
		r.Markdown = mutateText(g.r, r.Markdown)
		return
	}
	c.Reusable = append(c.Reusable, &content.Reusable{ID: id, Title: "New", Markdown: randomText(g.r)})
	sortReusable(c)
}

func sortReusable(c *content.Content) {
	slices.SortFunc(c.Reusable, func(a, b *content.Reusable) int { return strings.Compare(a.ID, b.ID) })
}

// TestMergeUnchangedSide: merging with a side that did not change returns
// the other side, and merging a content with itself returns it.
func TestMergeUnchangedSide(t *testing.T) {
	for seed := int64(0); seed < 400; seed++ {
		g := newGen(seed)
		base := g.content(g.r.Intn(25))
		x := g.edits(base, "x", 1+g.r.Intn(8))
		for _, tc := range []struct {
			name         string
			ours, theirs *content.Content
		}{{"base, x", base, x}, {"x, base", x, base}, {"x, x", x, x}} {
			got, conflicts := Merge(base, tc.ours, tc.theirs, Options{})
			require.Empty(t, conflicts, "seed %d, %s", seed, tc.name)
			require.Equal(t, canon(x), canon(got), "seed %d, %s: base %s, x %s", seed, tc.name, outline(base), outline(x))
		}
	}
}

// TestMergeProperties merges random concurrent edits: a merge without
// conflicts is a valid tree and does not depend on the order of the sides,
// the same merge gives the same conflicts in the same order, the inputs are
// left alone, and resolving the conflicts always ends in a clean merge.
func TestMergeProperties(t *testing.T) {
	clean := 0
	const runs = 1000
	for seed := int64(0); seed < runs; seed++ {
		g := newGen(seed)
		base := g.content(g.r.Intn(25))
		a := g.edits(base, "a", 1+g.r.Intn(8))
		b := g.edits(base, "b", 1+g.r.Intn(8))
		snapshots := []*content.Content{canon(base), canon(a), canon(b)}
		msg := fmt.Sprintf("seed %d: base %s, a %s, b %s", seed, outline(base), outline(a), outline(b))

		got, conflicts := Merge(base, a, b, Options{})
		again, conflictsAgain := Merge(base, a, b, Options{})
		require.Equal(t, conflicts, conflictsAgain, msg)
		require.Equal(t, canon(got), canon(again), msg)
		require.Equal(t, snapshots, []*content.Content{canon(base), canon(a), canon(b)}, "inputs unchanged: "+msg)

		swapped, swappedConflicts := Merge(base, b, a, Options{})
		if len(conflicts) == 0 {
			clean++
			requireValid(t, got)
			require.Empty(t, swappedConflicts, msg)
			require.Equal(t, canon(got), canon(swapped), msg)
			continue
		}
		require.Nil(t, got)
		require.NotEmpty(t, swappedConflicts, msg)
		resolved := resolveAll(t, base, a, b, conflicts, msg)
		requireValid(t, resolved)
	}
	t.Logf("%d of %d random merges were clean", clean, runs)
	require.Greater(t, clean, runs/4, "the generator should make enough clean merges to test symmetry")
}

// resolveAll searches for resolutions that make the merge clean: the first
// conflict left is resolved with ours, or else with theirs, depth first. A
// conflict that comes back with a resolution given means that branch failed.
func resolveAll(t *testing.T, base, a, b *content.Content, conflicts []Conflict, msg string) *content.Content {
	t.Helper()
	budget := 500
	var search func(res map[string]Resolution, conflicts []Conflict) *content.Content
	search = func(res map[string]Resolution, conflicts []Conflict) *content.Content {
		key := conflicts[0].Key()
		if _, tried := res[key]; tried || budget == 0 {
			return nil
		}
		for _, side := range []Side{Ours, Theirs} {
			budget--
			next := maps.Clone(res)
			next[key] = Resolution{Take: side}
			got, left := Merge(base, a, b, Options{Resolutions: next})
			if len(left) == 0 {
				return got
			}
			if got := search(next, left); got != nil {
				return got
			}
		}
		return nil
	}
	got := search(map[string]Resolution{}, conflicts)
	require.NotNil(t, got, "no resolutions make the merge clean: %s: %v", msg, keys(conflicts))
	return got
}

// TestMergeConflictOrderIsStable checks the order conflicts come in on a
// merge with many of them.
func TestMergeConflictOrderIsStable(t *testing.T) {
	g := newGen(99)
	base := g.content(40)
	a := g.edits(base, "a", 40)
	b := g.edits(base, "b", 40)
	_, first := Merge(base, a, b, Options{})
	require.NotEmpty(t, first)
	for i := 0; i < 20; i++ {
		_, again := Merge(base, a, b, Options{})
		require.Equal(t, first, again)
	}
	var kinds []string
	for _, c := range first {
		kinds = append(kinds, string(c.Kind))
	}
	t.Logf("conflicts: %s", strings.Join(kinds, " "))
}

// TestMergeLeavesUnchangedSubtreesAlone merges random concurrent edits with
// and without SameBeneath, from the tree hashes of the stored contents: the
// same conflicts, in the same order, and the same result, which shares the
// subtrees no side changed with base.
func TestMergeLeavesUnchangedSubtreesAlone(t *testing.T) {
	ctx := context.Background()
	trimmed := 0
	for seed := int64(0); seed < 600; seed++ {
		g := newGen(seed)
		base := g.content(5 + g.r.Intn(40))
		a := g.edits(base, "a", 1+g.r.Intn(3))
		b := g.edits(base, "b", 1+g.r.Intn(3))
		s := contenttest.Store{}
		var loaded [3]*content.Loaded
		for i, c := range []*content.Content{base, a, b} {
			saved, _, err := content.Save(ctx, s, c.Clone(), nil)
			require.NoError(t, err)
			loaded[i], err = content.Load(ctx, s, saved.Roots())
			require.NoError(t, err)
		}
		msg := fmt.Sprintf("seed %d: base %s, a %s, b %s", seed, outline(base), outline(a), outline(b))
		want, wantConflicts := Merge(base, a, b, Options{})
		same := func(id string) bool { return content.SameBeneath(id, loaded[0], loaded[1], loaded[2]) }
		got, conflicts := Merge(loaded[0].Content, loaded[1].Content, loaded[2].Content, Options{SameBeneath: same})
		require.Equal(t, wantConflicts, conflicts, msg)
		require.Equal(t, canon(want), canon(got), msg)
		if got == nil {
			continue
		}
		saved, _, err := content.Save(ctx, s, got, loaded[2])
		require.NoError(t, err)
		whole, _, err := content.Save(ctx, s, canon(want), nil)
		require.NoError(t, err)
		require.Equal(t, whole.Roots(), saved.Roots(), "saving the shared result: "+msg)
		loaded[0].Walk(func(n, _ *content.Node, _ string) {
			if len(n.Children) > 0 && same(n.Page.ID) {
				trimmed++
			}
		})
	}
	require.Positive(t, trimmed)
	t.Logf("%d subtrees left alone", trimmed)
}
