package content

import "github.com/bindery/bindery/internal/enum"

// Order is a content's pages in reading order, each before its nested
// pages, with the rules by which a published site shows them: a page is
// readable when it is a document that is neither hidden nor under a hidden
// page; a site-space's root shows its first readable page, a group its
// first readable page, a link what it points to.
type Order struct {
	Entries []Entry
	ByPath  map[string]int
	ByID    map[string]int
}

// Entry is a page of an Order.
type Entry struct {
	Node *Node
	// Path is the page's path in its content.
	Path string
	// Parent is the index of the page's parent, -1 at the top level.
	Parent int
}

// NewOrder puts pages (a content's top level) in reading order.
func NewOrder(pages []*Node) *Order {
	o := &Order{ByPath: map[string]int{}, ByID: map[string]int{}}
	var walk func(nodes []*Node, prefix string, parent int)
	walk = func(nodes []*Node, prefix string, parent int) {
		for _, n := range nodes {
			p := prefix + n.Page.Slug
			o.ByPath[p] = len(o.Entries)
			o.ByID[n.Page.ID] = len(o.Entries)
			o.Entries = append(o.Entries, Entry{Node: n, Path: p, Parent: parent})
			walk(n.Children, p+"/", len(o.Entries)-1)
		}
	}
	walk(pages, "", -1)
	return o
}

// Readable reports whether entry i is a page a reader reads in order.
func (o *Order) Readable(i int) bool {
	if o.Entries[i].Node.Page.Type != enum.PageTypeDocument {
		return false
	}
	for j := i; j >= 0; j = o.Entries[j].Parent {
		if o.Entries[j].Node.Page.Hidden {
			return false
		}
	}
	return true
}

// First is the index of the first readable page at or after from; -1 when
// there is none.
func (o *Order) First(from int) int {
	for i := max(from, 0); i < len(o.Entries); i++ {
		if o.Readable(i) {
			return i
		}
	}
	return -1
}

// FirstUnder is the first readable page nested under entry i; -1 when
// there is none.
func (o *Order) FirstUnder(i int) int {
	for j := i + 1; j < len(o.Entries) && o.under(j, i); j++ {
		if o.Readable(j) {
			return j
		}
	}
	return -1
}

// under reports whether entry j is nested under entry i.
func (o *Order) under(j, i int) bool {
	for p := o.Entries[j].Parent; p >= 0; p = o.Entries[p].Parent {
		if p == i {
			return true
		}
	}
	return false
}

// Prev and Next are the readable pages before and after entry i; -1 when
// there is none.
func (o *Order) Prev(i int) int {
	for j := i - 1; j >= 0; j-- {
		if o.Readable(j) {
			return j
		}
	}
	return -1
}

// Next is the readable page after entry i; -1 when there is none.
func (o *Order) Next(i int) int { return o.First(i + 1) }

// LinkTarget is where link page i points: the index of a readable page
// (url ""), or a URL (index -1); neither when it points nowhere a reader
// can go.
func (o *Order) LinkTarget(i int) (index int, url string) {
	t := o.Entries[i].Node.Page.Target
	switch {
	case t == nil:
		return -1, ""
	case t.Kind == "page":
		if j, ok := o.ByID[t.Page]; ok && o.Readable(j) {
			return j, ""
		}
		return -1, ""
	}
	return -1, t.URL
}

// Shows reports whether a reader shows something at path ("" for the
// root), as a page (markdown: the page's markdown, a document's alone), a
// group's first page or a link's target.
func (o *Order) Shows(path string, markdown bool) bool {
	if path == "" {
		return o.First(0) >= 0
	}
	i, ok := o.ByPath[path]
	if !ok {
		return false
	}
	switch o.Entries[i].Node.Page.Type {
	case enum.PageTypeDocument:
		return true
	case enum.PageTypeGroup:
		return !markdown && o.FirstUnder(i) >= 0
	case enum.PageTypeLink:
		j, url := o.LinkTarget(i)
		return !markdown && (j >= 0 || url != "")
	}
	return false
}
