package merge

import (
	"cmp"
	"slices"

	"github.com/bindery/bindery/internal/content"
)

// build assembles the merged page tree from the decided pages.
func (m *merger) build() []*content.Node {
	children := map[string][]string{}
	for _, id := range m.ids {
		if st := m.pages[id]; st.present {
			children[st.parent] = append(children[st.parent], id)
		}
	}
	return m.buildChildren("", children)
}

func (m *merger) buildChildren(parent string, children map[string][]string) []*content.Node {
	ids := children[parent]
	if len(ids) == 0 {
		return nil
	}
	ordered := orderSiblings(ids, m.siblings(vBase, parent), m.siblings(vOurs, parent), m.siblings(vTheirs, parent))
	nodes := make([]*content.Node, len(ordered))
	for i, id := range ordered {
		nodes[i] = &content.Node{Page: m.pages[id].page, Children: m.buildChildren(id, children)}
	}
	uniqueSlugs(nodes)
	return nodes
}

// siblings returns the IDs of the children of parent ("" for the top level)
// in content w.
func (m *merger) siblings(w which, parent string) []string {
	nodes := m.v[w].content.Pages
	if parent != "" {
		at := m.v[w].at[parent]
		if at == nil {
			return nil
		}
		nodes = at.node.Children
	}
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.Page.ID
	}
	return ids
}

// orderSiblings orders the merged children of one parent, given the order
// each content has them in.
//
// The pages base has under the parent are ordered first (see orderKept).
// Then each page new under the parent (added, or moved in from elsewhere)
// goes right after the page before it in the side that put it there,
// wherever that page ended up; pages that end up after the same page come
// in ID order. So pages both sides inserted at the same place come in ID
// order, and the result does not depend on which side is which.
func orderSiblings(members, base, ours, theirs []string) []string {
	in := toSet(members)
	o, a, b := keep(base, in), keep(ours, in), keep(theirs, in)
	old := toSet(o)
	kept := orderKept(o, keep(a, old), keep(b, old))
	return insertNew(kept, members, old, a, b)
}

// orderKept orders the pages that base has under the parent.
//
// The pages that keep their place relative to each other in base, ours and
// theirs (those in a longest common subsequence of base with each side) are
// stable and keep their order. Every other page was moved by a side, and
// goes into the gap between stable pages where that side put it; when both
// sides moved it to different gaps, the first gap wins. Within a gap, a
// side that left the gap as in base gives way to the other; when both
// changed it, the side whose IDs sort first leads and the other side's
// pages are inserted after their predecessor in that side, or at the end.
func orderKept(o, a, b []string) []string {
	ids := interner{}
	oi, ai, bi := ids.ints(o), ids.ints(a), ids.ints(b)
	keptA, keptB := matched(o, lcs(oi, ai)), matched(o, lcs(oi, bi))
	var stable []string
	for _, id := range o {
		if keptA[id] && keptB[id] {
			stable = append(stable, id)
		}
	}
	isStable := toSet(stable)
	gapO, gapA, gapB := gaps(o, isStable), gaps(a, isStable), gaps(b, isStable)
	gap := map[string]int{}
	for _, id := range o {
		if !isStable[id] {
			gap[id] = chooseGap(id, keptA, keptB, gapO, gapA, gapB, len(stable))
		}
	}
	var out []string
	for g := 0; g <= len(stable); g++ {
		run := mergeRuns(inGap(o, gapO, gap, g), inGap(a, gapA, gap, g), inGap(b, gapB, gap, g))
		out = append(out, run...)
		if g < len(stable) {
			out = append(out, stable[g])
		}
	}
	return appendMissing(out, o)
}

// insertNew places the members that base lacks under the parent into kept.
// A page both sides put there follows its predecessor in the side whose
// IDs sort first, so that the predecessors never form a loop.
func insertNew(kept, members []string, old map[string]bool, a, b []string) []string {
	both := a
	if slices.Compare(b, a) < 0 {
		both = b
	}
	predA, predB, predBoth := predecessors(a), predecessors(b), predecessors(both)
	after := map[string][]string{}
	for _, id := range members {
		if old[id] {
			continue
		}
		_, inA := predA[id]
		_, inB := predB[id]
		anchor := predBoth[id]
		switch {
		case inA && !inB:
			anchor = predA[id]
		case inB && !inA:
			anchor = predB[id]
		}
		after[anchor] = append(after[anchor], id)
	}
	var out []string
	placed := map[string]bool{}
	var place func(id string)
	place = func(id string) {
		if id != "" {
			out = append(out, id)
		}
		placed[id] = true
		next := after[id]
		slices.Sort(next)
		for _, n := range next {
			if !placed[n] {
				place(n)
			}
		}
	}
	place("")
	for _, id := range kept {
		place(id)
	}
	return appendMissing(out, members)
}

// predecessors maps each ID of seq to the one before it, "" for the first.
func predecessors(seq []string) map[string]string {
	out := make(map[string]string, len(seq))
	prev := ""
	for _, id := range seq {
		out[id] = prev
		prev = id
	}
	return out
}

// chooseGap picks the gap of a child that is not stable: where the side
// that moved or added it put it.
func chooseGap(id string, keptA, keptB map[string]bool, gapO, gapA, gapB map[string]int, end int) int {
	ga, inA := gapA[id]
	gb, inB := gapB[id]
	movedA, movedB := inA && !keptA[id], inB && !keptB[id]
	switch {
	case movedA && movedB:
		return min(ga, gb)
	case movedA, inA && !movedB:
		return ga
	case inB:
		return gb
	}
	if g, ok := gapO[id]; ok {
		return g
	}
	return end
}

// mergeRuns merges the children that one gap holds in base, ours and
// theirs.
func mergeRuns(o, a, b []string) []string {
	lead, follow := a, b
	switch {
	case slices.Equal(a, o):
		lead, follow = b, a
	case slices.Equal(b, o):
	case slices.Compare(b, a) < 0:
		lead, follow = b, a
	}
	out := slices.Clone(lead)
	for i, id := range follow {
		if !slices.Contains(out, id) {
			out = slices.Insert(out, insertionPoint(out, follow, i), id)
		}
	}
	return out
}

// insertionPoint is where follow[i] goes in out: after the nearest page
// before it in follow that out holds, else before the nearest one after it,
// else at the end.
func insertionPoint(out, follow []string, i int) int {
	for j := i - 1; j >= 0; j-- {
		if k := slices.Index(out, follow[j]); k >= 0 {
			return k + 1
		}
	}
	for j := i + 1; j < len(follow); j++ {
		if k := slices.Index(out, follow[j]); k >= 0 {
			return k
		}
	}
	return len(out)
}

// appendMissing appends to out, by ID, the members it lacks. The runs and
// predecessors place every page a content has under the parent, so this
// only guards against losing a page.
func appendMissing(out, members []string) []string {
	have := toSet(out)
	var missing []string
	for _, id := range members {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	slices.Sort(missing)
	return append(out, missing...)
}

// inGap returns the IDs of seq that sit in gap g of seq and belong there.
func inGap(seq []string, seqGap, gap map[string]int, g int) []string {
	var out []string
	for _, id := range seq {
		if pg, ok := gap[id]; ok && pg == g && seqGap[id] == g {
			out = append(out, id)
		}
	}
	return out
}

// gaps returns, for each ID of seq, how many stable IDs come before it.
func gaps(seq []string, stable map[string]bool) map[string]int {
	out := make(map[string]int, len(seq))
	n := 0
	for _, id := range seq {
		if stable[id] {
			n++
			continue
		}
		out[id] = n
	}
	return out
}

// matched returns the IDs of base that the matches pair with the other
// sequence.
func matched(base []string, pairs []pair) map[string]bool {
	out := make(map[string]bool, len(pairs))
	for _, p := range pairs {
		out[base[p.i]] = true
	}
	return out
}

func keep(ids []string, in map[string]bool) []string {
	var out []string
	for _, id := range ids {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

func toSet(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// uniqueSlugs gives siblings that share a slug distinct slugs: the page whose
// ID sorts first keeps it, the others get the first free numeric suffix
// (content.UniqueSlug), in ID order.
func uniqueSlugs(nodes []*content.Node) {
	byID := slices.Clone(nodes)
	slices.SortFunc(byID, func(a, b *content.Node) int { return cmp.Compare(a.Page.ID, b.Page.ID) })
	seen := make(map[string]bool, len(nodes))
	for _, n := range byID {
		if seen[n.Page.Slug] {
			n.Page.Slug = content.UniqueSlug(nodes, n.Page.Slug, n.Page.ID)
		}
		seen[n.Page.Slug] = true
	}
}
