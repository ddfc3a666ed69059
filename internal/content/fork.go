package content

import (
	"fmt"
	"slices"
)

// Forks. An edit changes a few pages of a content that may hold thousands,
// and the content it starts from is shared (decoded once, read by every
// request), so it must not change. A fork (Content.Fork) is a copy that
// shares every node with its source until it changes one: a change through
// the content's methods copies the node and the nodes above it, as a
// persistent tree does, so an edit costs the depth of the page and the
// width of the levels above it, not the size of the content. What a fork
// did not copy is the source's, unchanged, which is how Save knows what to
// encode again (see Encode).

// owner is what a fork owns: the nodes it copied or was given, whose pages
// and children slices it may change in place, and whether its top-level,
// files and reusable slices are its own.
type owner struct {
	nodes                map[*Node]bool
	top, files, reusable bool
}

// frozen owns nothing: the content of a Loaded, which never changes.
var frozen = &owner{}

// owns reports whether c may change n in place. A content that is not a
// fork owns all it holds.
func (c *Content) owns(n *Node) bool { return c.own == nil || c.own.nodes[n] }

// Fork returns a copy of c to edit through its methods (Insert, Remove,
// Move, Edit, PutFile, RemoveFile), which never change c: it shares c's
// nodes and copies those it changes. Pages found with Find must not be
// changed in place: Edit returns a page's own copy. c must not change
// while the fork is used; from now on c copies what it changes, too.
func (c *Content) Fork() *Content {
	if c.own != frozen {
		c.own = &owner{nodes: map[*Node]bool{}}
	}
	return &Content{Pages: c.Pages, Files: c.Files, Reusable: c.Reusable, own: &owner{nodes: map[*Node]bool{}}}
}

// Sharing makes c a fork that owns every node it holds except shared and
// what lies beneath them: those came unchanged from the content c is saved
// against (see Encode). Merges build their result this way.
func (c *Content) Sharing(shared map[*Node]bool) *Content {
	c.own = &owner{nodes: map[*Node]bool{}, top: true, files: true, reusable: true}
	var walk func(nodes []*Node)
	walk = func(nodes []*Node) {
		for _, n := range nodes {
			if !shared[n] {
				c.own.nodes[n] = true
				walk(n.Children)
			}
		}
	}
	walk(c.Pages)
	return c
}

// adopt makes n, a node given to c, c's own.
func (c *Content) adopt(n *Node) {
	if c.own != nil && c.own != frozen {
		c.own.nodes[n] = true
	}
}

// changed is called before any change: it drops the index, which holds
// only for a content that never changes, and panics on a change to a loaded
// content, a bug that would change what every request reads.
func (c *Content) changed() {
	if c.own == frozen {
		panic("content: a loaded content is shared and never changes: edit a Fork of it")
	}
	c.index = nil
}

// ownTop makes c's top-level slice its own.
func (c *Content) ownTop() {
	c.changed()
	if c.own != nil && !c.own.top {
		c.Pages = slices.Clone(c.Pages)
		c.own.top = true
	}
}

// ownFiles makes c's files slice its own.
func (c *Content) ownFiles() {
	c.changed()
	if c.own != nil && !c.own.files {
		c.Files = slices.Clone(c.Files)
		c.own.files = true
	}
}

// copyNode returns a copy of n that shares nothing c may change: its page
// and its children slice are copies, its children are n's.
func copyNode(n *Node) *Node {
	return &Node{Page: copyPage(n.Page), Children: slices.Clone(n.Children)}
}

// copyPage returns a copy of p that shares nothing with it.
func copyPage(p *Page) *Page {
	out := *p
	if p.Layout != nil {
		l := *p.Layout
		out.Layout = &l
	}
	if p.Cover != nil {
		cv := *p.Cover
		out.Cover = &cv
	}
	if p.Target != nil {
		t := *p.Target
		out.Target = &t
	}
	return &out
}

// Edit returns the page with the given ID as c's own, to change in place,
// with its parent (nil at the top). In a fork it copies the page and the
// pages above it that the fork does not own yet.
func (c *Content) Edit(id string) (n, parent *Node, err error) {
	c.changed()
	path, err := c.pathTo(id)
	if err != nil {
		return nil, nil, err
	}
	c.ownTop()
	sibs := c.Pages
	for _, i := range path {
		if !c.owns(sibs[i]) {
			sibs[i] = copyNode(sibs[i])
			c.adopt(sibs[i])
		}
		parent, n = n, sibs[i]
		sibs = n.Children
	}
	return n, parent, nil
}

// pathTo returns the indexes that lead from the top level to the page with
// the given ID.
func (c *Content) pathTo(id string) ([]int, error) {
	var path []int
	var search func(nodes []*Node) bool
	search = func(nodes []*Node) bool {
		for i, x := range nodes {
			path = append(path, i)
			if x.Page.ID == id || search(x.Children) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if !search(c.Pages) {
		return nil, fmt.Errorf("page %q: %w", id, ErrNotFound)
	}
	return path, nil
}
