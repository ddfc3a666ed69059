package merge

import (
	"slices"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// settle decides the pages that one side deleted and enforces the tree's
// rules, until nothing changes: deciding one page can orphan another or
// break a rule elsewhere. It ends because every step locks a page, moves
// an orphan back once, or uses a resolution or reports a conflict once.
func (m *merger) settle() {
	for {
		changed := m.rehomeOrphans()
		changed = m.settleDeletions(vOurs) || changed
		changed = m.settleDeletions(vTheirs) || changed
		changed = m.breakCycles() || changed
		changed = m.checkPlacement() || changed
		if !changed {
			return
		}
	}
}

// rehomeOrphans handles the pages whose parent was removed for good.
func (m *merger) rehomeOrphans() bool {
	changed := false
	for _, id := range m.ids {
		st := m.pages[id]
		if !st.present || st.parent == "" {
			continue
		}
		if p := m.pages[st.parent]; !p.present && p.locked {
			m.rehome(st, p.removedBy)
			changed = true
		}
	}
	return changed
}

// rehome puts an orphan back where content w has it. A page that w lacks,
// or that was already put back once, is removed with its orphan children.
func (m *merger) rehome(st *pageState, w which) {
	if at := st.at[w]; at != nil && !st.rehomed {
		st.parent = at.parent
		st.rehomed = true
		return
	}
	st.present, st.locked, st.removedBy = false, true, w
}

// deletedBy says whether page st is one that side d deleted, the other side
// kept, and that is not decided yet.
func (m *merger) deletedBy(st *pageState, d which) bool {
	return !st.locked && st.at[vBase] != nil && st.at[d] == nil && st.at[other(d)] != nil
}

// settleDeletions decides the pages side d deleted, by group: a group is a
// deleted page and the deleted pages beneath it in the other side's tree. A
// group is removed unless the other side changed it (a field, its markdown
// or its parent) or something now sits beneath it (a page added or moved
// there); then it is a "delete" conflict on the group's top page.
func (m *merger) settleDeletions(d which) bool {
	k := other(d)
	parents := m.presentParents()
	changed := false
	for _, id := range m.ids {
		st := m.pages[id]
		if !m.deletedBy(st, d) {
			continue
		}
		if kp := st.at[k].parent; kp != "" && m.deletedBy(m.pages[kp], d) {
			continue
		}
		group := m.deletionGroup(st, d)
		if m.contested(group, k, parents) {
			m.decideGroup(group, d)
			changed = true
		}
	}
	return changed
}

// presentParents returns the IDs that present pages have as parent.
func (m *merger) presentParents() map[string]bool {
	out := map[string]bool{}
	for _, st := range m.pages {
		if st.present {
			out[st.parent] = true
		}
	}
	return out
}

// deletionGroup returns root and the pages beneath it in the keeping side's
// tree that side d deleted too.
func (m *merger) deletionGroup(root *pageState, d which) []*pageState {
	k := other(d)
	group := []*pageState{root}
	for i := 0; i < len(group); i++ {
		for _, child := range group[i].at[k].node.Children {
			if st := m.pages[child.Page.ID]; m.deletedBy(st, d) {
				group = append(group, st)
			}
		}
	}
	return group
}

// contested says whether side k changed the deleted group or put something
// beneath it.
func (m *merger) contested(group []*pageState, k which, parents map[string]bool) bool {
	for _, st := range group {
		b, kept := st.at[vBase], st.at[k]
		if parents[st.id] || b.parent != kept.parent || !samePage(b.node.Page, kept.node.Page) {
			return true
		}
	}
	return false
}

// decideGroup settles a contested deletion with its resolution, or reports
// it. While the conflict is open the group is kept, so that the rest of the
// tree can still be checked.
func (m *merger) decideGroup(group []*pageState, d which) {
	root := group[0]
	c := m.deleteConflict(root)
	w, ok := m.take(c.Key())
	if !ok {
		m.record(c)
		w = other(d)
	}
	for _, st := range group {
		st.present, st.locked, st.removedBy = w != d, true, d
	}
}

// breakCycles finds pages that the merged parents put inside themselves
// (ours moved A under B while theirs moved B under A). Each cycle is a
// "move" conflict on the page of the cycle whose ID sorts first; taking a
// side puts every page of the cycle where that side has it.
func (m *merger) breakCycles() bool {
	const (
		onWalk = 1
		done   = 2
	)
	state := map[string]int{}
	changed := false
	for _, id := range m.ids {
		var walk []string
		cur := id
		for cur != "" && state[cur] == 0 && m.pages[cur].present {
			state[cur] = onWalk
			walk = append(walk, cur)
			cur = m.pages[cur].parent
		}
		if cur != "" && state[cur] == onWalk {
			m.breakCycle(walk[slices.Index(walk, cur):])
			changed = true
		}
		for _, w := range walk {
			state[w] = done
		}
	}
	return changed
}

func (m *merger) breakCycle(cycle []string) {
	st := m.pages[slices.Min(cycle)]
	c := m.moveConflict(st)
	key := c.Key()
	if w, ok := m.take(key); ok && !m.applied[key] {
		m.applied[key] = true
		for _, id := range cycle {
			if at := m.pages[id].at[w]; at != nil {
				m.pages[id].parent = at.parent
			}
		}
		return
	}
	m.record(c)
	st.parent = ""
}

// checkPlacement enforces what content.Insert enforces: groups only at the
// top level, no pages beneath a link. A page the merge would put there is a
// "move" conflict (one side made the parent a link while the other added or
// moved a page beneath it, say). Taking a side puts the page where that side
// has it, with that side's type for the page and its parent, which is valid
// since that side is; the page is removed when that side lacks it.
func (m *merger) checkPlacement() bool {
	changed := false
	for _, id := range m.ids {
		st := m.pages[id]
		if !st.present || st.parent == "" {
			continue
		}
		p := m.pages[st.parent]
		if !p.present || (st.page.Type != enum.PageTypeGroup && p.page.Type != enum.PageTypeLink) {
			continue
		}
		m.fixPlacement(st)
		changed = true
	}
	return changed
}

func (m *merger) fixPlacement(st *pageState) {
	c := m.moveConflict(st)
	key := c.Key()
	if w, ok := m.take(key); ok && !m.applied[key] {
		m.applied[key] = true
		m.placeAs(st, w)
		return
	}
	m.record(c)
	st.parent = ""
}

// placeAs puts page st where content w has it, with w's type for it and its
// parent, or removes it when w lacks it.
func (m *merger) placeAs(st *pageState, w which) {
	at := st.at[w]
	if at == nil {
		st.present, st.locked, st.removedBy = false, true, w
		return
	}
	st.parent = at.parent
	retype(st.page, at.node.Page)
	if at.parent != "" {
		retype(m.pages[at.parent].page, m.v[w].at[at.parent].node.Page)
	}
}

// retype gives dst the type (and link target) of src.
func retype(dst, src *content.Page) {
	dst.Type, dst.Target = src.Type, clonePtr(src.Target)
}
