package content

import "github.com/bindery/bindery/internal/enum"

// PageChange is a page that differs between two contents of a space.
type PageChange struct {
	Kind enum.PageChangeKind
	// Node is the page as the newer content holds it; as the older one
	// held it when it was removed.
	Node *Node
	// Path is the page's path there; PreviousPath its path in the older
	// content, when it moved.
	Path, PreviousPath string
}

// Changes lists the pages that now adds, changes, moves or removes since
// was: those of now in reading order, then those it removed in was's. A
// page changed when the object that stores it did (its title, markdown or
// any other field, not its nested pages), and moved when only its path
// did, as when a page above it is renamed.
func Changes(was, now *Loaded) []PageChange {
	before, after := NewOrder(was.Pages), NewOrder(now.Pages)
	var out []PageChange
	for _, e := range after.Entries {
		id := e.Node.Page.ID
		j, existed := before.ByID[id]
		c := PageChange{Node: e.Node, Path: e.Path}
		if existed && before.Entries[j].Path != e.Path {
			c.PreviousPath = before.Entries[j].Path
		}
		switch {
		case !existed:
			c.Kind = enum.PageChangeKindAdded
		case was.PageHash(id) != now.PageHash(id):
			c.Kind = enum.PageChangeKindModified
		case c.PreviousPath != "":
			c.Kind = enum.PageChangeKindMoved
		default:
			continue
		}
		out = append(out, c)
	}
	for _, e := range before.Entries {
		if _, kept := after.ByID[e.Node.Page.ID]; !kept {
			out = append(out, PageChange{Kind: enum.PageChangeKindRemoved, Node: e.Node, Path: e.Path})
		}
	}
	return out
}

// PageEdit is a page at the same place in two contents, whose object
// differs: Was and Now hold it, at Path in both.
type PageEdit struct {
	Was, Now *Node
	Path     string
}

// Edited lists the pages whose objects differ between was and now, when
// now holds was's pages in the same places: the
// same IDs in the same order at every level, under the same slugs. It
// returns false when it does not. Only the subtrees whose tree objects
// differ are read, so what it costs follows the pages edited, not the
// content's size.
func Edited(was, now *Loaded) ([]PageEdit, bool) {
	if was.index == nil || now.index == nil {
		return nil, false
	}
	var out []PageEdit
	var walk func(a, b []*Node, prefix string) bool
	walk = func(a, b []*Node, prefix string) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			x, y := a[i].Page, b[i].Page
			if x.ID != y.ID || x.Slug != y.Slug {
				return false
			}
			ex, _ := was.index.entry(x.ID)
			ey, _ := now.index.entry(y.ID)
			path := joinPath(prefix, y.Slug)
			if ex.hash != ey.hash {
				out = append(out, PageEdit{Was: a[i], Now: b[i], Path: path})
			}
			if ex.tree != ey.tree && !walk(a[i].Children, b[i].Children, path) {
				return false
			}
		}
		return true
	}
	if was.roots.Pages != now.roots.Pages && !walk(was.Pages, now.Pages, "") {
		return nil, false
	}
	return out, true
}
