package reader

import (
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// toc is a site-space's pages in reading order: each page before its
// nested pages.
type toc struct {
	entries []entry
	byPath  map[string]int
	byID    map[string]int
}

// entry is a page of a toc.
type entry struct {
	node *content.Node
	// path is the page's path in its space.
	path string
	// parent is the index of the page's parent, -1 at the top level.
	parent int
}

func newTOC(pages []*model.RevisionPage) *toc {
	t := &toc{byPath: map[string]int{}, byID: map[string]int{}}
	var walk func(nodes []*content.Node, prefix string, parent int)
	walk = func(nodes []*content.Node, prefix string, parent int) {
		for _, n := range nodes {
			p := prefix + n.Page.Slug
			t.byPath[p] = len(t.entries)
			t.byID[n.Page.ID] = len(t.entries)
			t.entries = append(t.entries, entry{node: n, path: p, parent: parent})
			walk(n.Children, p+"/", len(t.entries)-1)
		}
	}
	for _, p := range pages {
		t.byPath[p.Node.Page.Slug] = len(t.entries)
		t.byID[p.Node.Page.ID] = len(t.entries)
		t.entries = append(t.entries, entry{node: p.Node, path: p.Node.Page.Slug, parent: -1})
		walk(p.Node.Children, p.Node.Page.Slug+"/", len(t.entries)-1)
	}
	return t
}

// readable reports whether entry i is a page a reader reads in order: a
// document that is not hidden, under parents that are not hidden.
func (t *toc) readable(i int) bool {
	if t.entries[i].node.Page.Type != enum.PageTypeDocument {
		return false
	}
	for j := i; j >= 0; j = t.entries[j].parent {
		if t.entries[j].node.Page.Hidden {
			return false
		}
	}
	return true
}

// first is the index of the first readable page at or after i; -1 when
// there is none.
func (t *toc) first(from int) int {
	for i := max(from, 0); i < len(t.entries); i++ {
		if t.readable(i) {
			return i
		}
	}
	return -1
}

// firstUnder is the first readable page nested under entry i; -1 when there
// is none.
func (t *toc) firstUnder(i int) int {
	for j := i + 1; j < len(t.entries) && t.under(j, i); j++ {
		if t.readable(j) {
			return j
		}
	}
	return -1
}

// under reports whether entry j is nested under entry i.
func (t *toc) under(j, i int) bool {
	for p := t.entries[j].parent; p >= 0; p = t.entries[p].parent {
		if p == i {
			return true
		}
	}
	return false
}

// prev and next are the readable pages before and after entry i; -1 when
// there is none.
func (t *toc) prev(i int) int {
	for j := i - 1; j >= 0; j-- {
		if t.readable(j) {
			return j
		}
	}
	return -1
}

func (t *toc) next(i int) int { return t.first(i + 1) }
