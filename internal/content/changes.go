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
