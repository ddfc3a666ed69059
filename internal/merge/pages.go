package merge

import (
	"github.com/bindery/bindery/internal/content"
)

// which is one of the three contents of a merge.
type which int

const (
	vBase which = iota
	vOurs
	vTheirs
)

// other returns the other side: ours for theirs and theirs for ours.
func other(w which) which { return vOurs + vTheirs - w }

// sideWhich returns the content a Side names.
func sideWhich(s Side) which {
	if s == Theirs {
		return vTheirs
	}
	return vOurs
}

// placement is where a page sits in one content.
type placement struct {
	node   *content.Node
	parent string // "" at the top level
	path   string
}

// version is one of the three contents with its pages indexed by ID.
type version struct {
	content *content.Content
	at      map[string]*placement
	order   []string // page IDs in tree order
}

func indexVersion(c *content.Content) version {
	if c == nil {
		c = &content.Content{}
	}
	v := version{content: c, at: map[string]*placement{}}
	c.Walk(func(n, parent *content.Node, path string) {
		p := &placement{node: n, path: path}
		if parent != nil {
			p.parent = parent.Page.ID
		}
		v.at[n.Page.ID] = p
		v.order = append(v.order, n.Page.ID)
	})
	return v
}

// pageState is what the merge decided so far about one page ID.
type pageState struct {
	id string
	at [3]*placement // nil where the content lacks the page
	// present says the page is in the result, under parent, as page.
	present bool
	parent  string
	page    *content.Page
	// locked says present is final. Pages one side deleted stay unlocked
	// until settleDeletions decides them.
	locked bool
	// removedBy is the content whose choice removed the page: its child
	// pages go back where that content has them.
	removedBy which
	// rehomed says the page was already moved back once for an orphan.
	rehomed bool
}

// pageIn returns the page as content w has it, or nil.
func (st *pageState) pageIn(w which) *content.Page {
	if st.at[w] == nil {
		return nil
	}
	return st.at[w].node.Page
}

// merger holds the state of one Merge call.
type merger struct {
	v   [3]version
	opt Options
	// pages holds every page ID of the three contents; ids lists them in
	// tree order of base, then the pages new in ours, then in theirs, so
	// that every loop over pages is deterministic.
	pages     map[string]*pageState
	ids       []string
	rank      map[string]int
	conflicts map[string]Conflict
	// applied are the resolutions used by a step that may run again, so
	// that each is used once.
	applied map[string]bool
}

func newMerger(cs [3]*content.Content, opt Options) *merger {
	m := &merger{
		opt: opt, pages: map[string]*pageState{}, rank: map[string]int{},
		conflicts: map[string]Conflict{}, applied: map[string]bool{},
	}
	for w, c := range cs {
		m.v[w] = indexVersion(c)
		for _, id := range m.v[w].order {
			st := m.pages[id]
			if st == nil {
				st = &pageState{id: id}
				m.pages[id] = st
				m.rank[id] = len(m.ids)
				m.ids = append(m.ids, id)
			}
			st.at[w] = m.v[w].at[id]
		}
	}
	return m
}

// take returns the side a resolution for key takes, if it takes one.
func (m *merger) take(key string) (which, bool) {
	r, ok := m.opt.Resolutions[key]
	if !ok || (r.Take != Ours && r.Take != Theirs) {
		return 0, false
	}
	return sideWhich(r.Take), true
}

// decidePages merges every page that both sides have or one side added.
// Pages that one side deleted keep the other side's version for now and
// are left to settleDeletions.
func (m *merger) decidePages() {
	for _, id := range m.ids {
		st := m.pages[id]
		b, o, t := st.at[vBase], st.at[vOurs], st.at[vTheirs]
		switch {
		case o == nil && t == nil:
			st.locked = true
		case b != nil && (o == nil || t == nil):
			kept := t
			if o != nil {
				kept = o
			}
			st.page = clonePage(kept.node.Page)
			st.parent = kept.parent
		default:
			st.present = true
			st.page = m.mergePage(st)
			st.parent = m.mergeParent(st)
		}
	}
}

// mergePage merges the fields of a page, field by field. A page both sides
// added merges against an empty page.
func (m *merger) mergePage(st *pageState) *content.Page {
	o, t := st.pageIn(vOurs), st.pageIn(vTheirs)
	if o == nil {
		return clonePage(t)
	}
	if t == nil {
		return clonePage(o)
	}
	b := st.pageIn(vBase)
	if b == nil {
		b = &content.Page{}
	}
	merged := clonePage(o)
	for _, f := range pageFields {
		m.mergeField(st, f, merged, b, o, t)
	}
	mergeTimes(merged, st.pageIn(vBase), o, t)
	return merged
}

// mergeField merges one field into merged, which starts as ours.
func (m *merger) mergeField(st *pageState, f fieldSpec, merged, b, o, t *content.Page) {
	switch {
	case f.equal(o, t), f.equal(t, b):
	case f.equal(o, b):
		f.set(merged, t)
	case f.text:
		c := m.pageConflict(st, KindText, f.name)
		merged.Markdown = m.mergeTextValue(c, b.Markdown, o.Markdown, t.Markdown)
	default:
		c := m.pageConflict(st, KindField, f.name)
		c.Base, c.Ours, c.Theirs = f.render(b), f.render(o), f.render(t)
		m.resolveField(c, f, merged, o, t)
	}
}

// mergeTextValue merges a text that both sides changed. c names the
// conflict to report when the lines conflict and no resolution is given;
// the result is then ours.
func (m *merger) mergeTextValue(c Conflict, base, ours, theirs string) string {
	merged, hunks := mergeText(base, ours, theirs, "")
	if len(hunks) == 0 {
		return merged
	}
	r, ok := m.resolution(c.Key())
	switch {
	case ok && r.Text != nil:
		return *r.Text
	case ok:
		merged, _ = mergeText(base, ours, theirs, r.Take)
		return merged
	}
	c.Base, c.Ours, c.Theirs, c.Hunks = base, ours, theirs, hunks
	m.record(c)
	return ours
}

// resolveField settles a field both sides changed, or reports c. merged
// keeps ours while the conflict is open.
func (m *merger) resolveField(c Conflict, f fieldSpec, merged, o, t *content.Page) {
	r, ok := m.resolution(c.Key())
	switch {
	case ok && r.Text != nil:
		if f.parse(merged, *r.Text) == nil {
			return
		}
	case ok && r.Take == Theirs:
		f.set(merged, t)
		return
	case ok:
		return
	}
	m.record(c)
}

// mergeTimes sets the timestamps of a page both sides have: CreatedAt is
// base's (or the earliest when both sides added the page), UpdatedAt the
// later of the two sides.
func mergeTimes(dst, b, o, t *content.Page) {
	switch {
	case b != nil:
		dst.CreatedAt = b.CreatedAt
	case t.CreatedAt.Before(o.CreatedAt):
		dst.CreatedAt = t.CreatedAt
	default:
		dst.CreatedAt = o.CreatedAt
	}
	dst.UpdatedAt = o.UpdatedAt
	if t.UpdatedAt.After(o.UpdatedAt) {
		dst.UpdatedAt = t.UpdatedAt
	}
}

// mergeParent is the three-way merge of a page's parent. A page only one
// side has stays where that side put it.
func (m *merger) mergeParent(st *pageState) string {
	b, o, t := st.at[vBase], st.at[vOurs], st.at[vTheirs]
	switch {
	case o == nil:
		return t.parent
	case t == nil, o.parent == t.parent:
		return o.parent
	case b != nil && o.parent == b.parent:
		return t.parent
	case b != nil && t.parent == b.parent:
		return o.parent
	}
	c := m.moveConflict(st)
	if w, ok := m.take(c.Key()); ok {
		m.applied[c.Key()] = true
		return st.at[w].parent
	}
	m.record(c)
	return o.parent
}

// pageConflict starts a conflict about page st.
func (m *merger) pageConflict(st *pageState, kind Kind, field string) Conflict {
	c := Conflict{Kind: kind, PageID: st.id, Field: field}
	for _, w := range []which{vOurs, vTheirs, vBase} {
		if p := st.pageIn(w); p != nil {
			c.Title = p.Title
			break
		}
	}
	return c
}

// moveConflict is the conflict about where page st goes.
func (m *merger) moveConflict(st *pageState) Conflict {
	c := m.pageConflict(st, KindMove, "parent")
	c.Base, c.Ours, c.Theirs = m.parentPath(st, vBase), m.parentPath(st, vOurs), m.parentPath(st, vTheirs)
	return c
}

// deleteConflict is the conflict about a page one side deleted.
func (m *merger) deleteConflict(st *pageState) Conflict {
	c := m.pageConflict(st, KindDelete, "")
	c.Base, c.Ours, c.Theirs = markdownIn(st, vBase), markdownIn(st, vOurs), markdownIn(st, vTheirs)
	return c
}

func markdownIn(st *pageState, w which) string {
	if p := st.pageIn(w); p != nil {
		return p.Markdown
	}
	return ""
}

// parentPath is the path of the page's parent in content w: "/" at the top
// level, "" when w lacks the page.
func (m *merger) parentPath(st *pageState, w which) string {
	at := st.at[w]
	switch {
	case at == nil:
		return ""
	case at.parent == "":
		return "/"
	}
	return "/" + m.v[w].at[at.parent].path
}
