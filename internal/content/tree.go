package content

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/benbjohnson/immutable"
	"golang.org/x/text/unicode/norm"

	"github.com/bindery/bindery/internal/enum"
)

// ErrNotFound is returned when a page or file is not in the content.
var ErrNotFound = errors.New("not found")

// InvalidError is an edit that would break the tree's rules.
type InvalidError struct {
	Field string
	Msg   string
}

func (e *InvalidError) Error() string { return e.Msg }

func invalid(field, format string, args ...any) error {
	return &InvalidError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Clone returns a deep copy of c: editing the copy never changes c, whose
// pages may be shared with a cache.
func (c *Content) Clone() *Content {
	out := &Content{Pages: cloneNodes(c.Pages)}
	for _, f := range c.Files {
		cp := *f
		out.Files = append(out.Files, &cp)
	}
	for _, r := range c.Reusable {
		cp := *r
		out.Reusable = append(out.Reusable, &cp)
	}
	return out
}

func cloneNodes(nodes []*Node) []*Node {
	if nodes == nil {
		return nil
	}
	out := make([]*Node, len(nodes))
	for i, n := range nodes {
		out[i] = &Node{Page: copyPage(n.Page), Children: cloneNodes(n.Children)}
	}
	return out
}

// Walk calls fn for every page, parents before children, in tree order.
// parent is nil for top-level pages; path is the page's derived path.
func (c *Content) Walk(fn func(n, parent *Node, path string)) {
	var walk func(nodes []*Node, parent *Node, prefix string)
	walk = func(nodes []*Node, parent *Node, prefix string) {
		for _, n := range nodes {
			path := n.Page.Slug
			if prefix != "" {
				path = prefix + "/" + path
			}
			fn(n, parent, path)
			walk(n.Children, n, path)
		}
	}
	walk(c.Pages, nil, "")
}

// Count returns the number of pages.
func (c *Content) Count() int {
	n := 0
	c.Walk(func(*Node, *Node, string) { n++ })
	return n
}

// index finds the pages of a content that no longer changes (see
// Loaded.freeze) by ID and by path without walking the tree. Its maps are
// persistent: the index of an edited content is its source's with the
// changes applied, sharing the rest (see Loaded.follow), so that an edit
// costs what it changed, not a copy of every entry.
type index struct {
	byID   *immutable.Map[string, indexEntry]
	byPath *immutable.Map[string, *Node]
}

// indexEntry is where a page sits, and the hashes of its object and of its
// children's tree object ("" for none).
type indexEntry struct {
	n, parent  *Node
	index      int
	path       string
	hash, tree string
}

func (x *index) entry(id string) (indexEntry, bool) { return x.byID.Get(id) }

// freeze indexes the pages of a loaded content, which is shared and never
// changes (edits work on a Fork), with their hashes and trees.
func (l *Loaded) freeze(hashes, trees map[string]string) {
	byID := immutable.NewMapBuilder[string, indexEntry](nil)
	byPath := immutable.NewMapBuilder[string, *Node](nil)
	var walk func(nodes []*Node, parent *Node, prefix string)
	walk = func(nodes []*Node, parent *Node, prefix string) {
		for i, n := range nodes {
			path := joinPath(prefix, n.Page.Slug)
			id := n.Page.ID
			if _, seen := byID.Get(id); !seen {
				byID.Set(id, indexEntry{n: n, parent: parent, index: i, path: path, hash: hashes[id], tree: trees[id]})
			}
			if _, seen := byPath.Get(path); !seen {
				byPath.Set(path, n)
			}
			walk(n.Children, n, path)
		}
	}
	walk(l.Pages, nil, "")
	l.index, l.own = &index{byID: byID.Map(), byPath: byPath.Map()}, frozen
}

// Find returns the page with the given ID, its parent (nil at the top) and its
// index among its siblings.
func (c *Content) Find(id string) (n, parent *Node, index int, err error) {
	if c.index != nil {
		if e, ok := c.index.entry(id); ok {
			return e.n, e.parent, e.index, nil
		}
		return nil, nil, 0, fmt.Errorf("page %q: %w", id, ErrNotFound)
	}
	var found bool
	var search func(nodes []*Node, p *Node) bool
	search = func(nodes []*Node, p *Node) bool {
		for i, x := range nodes {
			if x.Page.ID == id {
				n, parent, index, found = x, p, i, true
				return true
			}
			if search(x.Children, x) {
				return true
			}
		}
		return false
	}
	search(c.Pages, nil)
	if !found {
		return nil, nil, 0, fmt.Errorf("page %q: %w", id, ErrNotFound)
	}
	return n, parent, index, nil
}

// Path returns the derived path of the page with the given ID.
func (c *Content) Path(id string) (string, error) {
	if c.index != nil {
		if e, ok := c.index.entry(id); ok {
			return e.path, nil
		}
		return "", fmt.Errorf("page %q: %w", id, ErrNotFound)
	}
	var out string
	found := false
	c.Walk(func(n, _ *Node, path string) {
		if !found && n.Page.ID == id {
			out, found = path, true
		}
	})
	if !found {
		return "", fmt.Errorf("page %q: %w", id, ErrNotFound)
	}
	return out, nil
}

// ByPath returns the page whose derived path is path. Leading and trailing
// slashes are ignored.
func (c *Content) ByPath(path string) (*Node, error) {
	path = strings.Trim(path, "/")
	if c.index != nil {
		if n, ok := c.index.byPath.Get(path); ok {
			return n, nil
		}
		return nil, fmt.Errorf("page at path %q: %w", path, ErrNotFound)
	}
	var out *Node
	c.Walk(func(n, _ *Node, p string) {
		if out == nil && p == path {
			out = n
		}
	})
	if out == nil {
		return nil, fmt.Errorf("page at path %q: %w", path, ErrNotFound)
	}
	return out, nil
}

// siblings returns the slice holding the children of parentID ("" for the
// top level), as c's own, for reading and for replacing.
func (c *Content) siblings(parentID string) (*[]*Node, *Node, error) {
	if parentID == "" {
		c.ownTop()
		return &c.Pages, nil, nil
	}
	p, _, err := c.Edit(parentID)
	if err != nil {
		return nil, nil, err
	}
	return &p.Children, p, nil
}

// Insert places n at index among the children of parentID ("" for the top
// level). index -1 appends. The page's slug is made unique among its new
// siblings.
func (c *Content) Insert(parentID string, index int, n *Node) error {
	c.changed()
	sibs, parent, err := c.siblings(parentID)
	if err != nil {
		return err
	}
	if err := canHold(parent, n); err != nil {
		return err
	}
	if index == -1 {
		index = len(*sibs)
	}
	if index < 0 || index > len(*sibs) {
		return invalid("position", "position %d is out of range: the parent has %d pages", index, len(*sibs))
	}
	c.adopt(n)
	n.Page.Slug = UniqueSlug(*sibs, n.Page.Slug, n.Page.ID)
	s := append(*sibs, nil)
	copy(s[index+1:], s[index:])
	s[index] = n
	*sibs = s
	return nil
}

// canHold says whether parent (nil for the top level) may hold n: groups only
// sit at the top level, and only documents and groups have children.
func canHold(parent, n *Node) error {
	if parent == nil {
		return nil
	}
	if n.Page.Type == enum.PageTypeGroup {
		return invalid("parent", "a group page can only be at the top level")
	}
	if parent.Page.Type == enum.PageTypeLink {
		return invalid("parent", "a link page cannot have child pages")
	}
	return nil
}

// Remove takes the page with the given ID, and its children, out of the tree.
func (c *Content) Remove(id string) (*Node, error) {
	c.changed()
	n, parent, index, err := c.Find(id)
	if err != nil {
		return nil, err
	}
	sibs, _, err := c.siblings(parentIDOf(parent))
	if err != nil {
		return nil, err
	}
	*sibs = append((*sibs)[:index:index], (*sibs)[index+1:]...)
	return n, nil
}

// ReplacePages makes pages c's whole tree. Every node of pages, down to
// the last descendant, is c's own from then on, so that saving c encodes
// each page again: pages that reuse the IDs of c's old pages (an import
// over a space) must not be taken for those pages unchanged, as Insert
// takes the children of the node it is given, which a move brings along.
func (c *Content) ReplacePages(pages []*Node) {
	c.ownTop()
	c.Pages = pages
	var adopt func(nodes []*Node)
	adopt = func(nodes []*Node) {
		for _, n := range nodes {
			c.adopt(n)
			adopt(n.Children)
		}
	}
	adopt(pages)
}

// parentIDOf is the ID of parent, "" for the top level.
func parentIDOf(parent *Node) string {
	if parent == nil {
		return ""
	}
	return parent.Page.ID
}

// Move puts the page at index among the children of parentID ("" for the top
// level); index -1 appends. A page cannot move into itself or its
// descendants. index counts the new siblings without the moved page. A move
// that breaks a rule changes nothing: the rules are checked first.
func (c *Content) Move(id, parentID string, index int) error {
	c.changed()
	n, from, _, err := c.Find(id)
	if err != nil {
		return err
	}
	var parent *Node
	sibs := c.Pages
	if parentID != "" {
		if parentID == id {
			return invalid("parent", "a page cannot be its own parent")
		}
		inside := &Content{Pages: n.Children}
		if _, _, _, err := inside.Find(parentID); err == nil {
			return invalid("parent", "a page cannot move under one of its own descendants")
		}
		if parent, _, _, err = c.Find(parentID); err != nil {
			return err
		}
		sibs = parent.Children
	}
	if err := canHold(parent, n); err != nil {
		return err
	}
	count := len(sibs)
	if parentIDOf(from) == parentID {
		count--
	}
	if index < -1 || index > count {
		return invalid("position", "position %d is out of range: the parent has %d pages", index, count)
	}
	if _, err := c.Remove(id); err != nil {
		return err
	}
	if !c.owns(n) {
		n = copyNode(n) // Insert changes its slug
	}
	return c.Insert(parentID, index, n)
}

// UniqueSlug returns slug, or slug with the first free numeric suffix ("-2",
// "-3", ...) when another sibling than the page except already has it. An
// empty slug becomes "page".
func UniqueSlug(siblings []*Node, slug, except string) string {
	if slug == "" {
		slug = "page"
	}
	taken := make(map[string]bool, len(siblings))
	for _, s := range siblings {
		if s.Page.ID != except {
			taken[s.Page.Slug] = true
		}
	}
	if !taken[slug] {
		return slug
	}
	for i := 2; ; i++ {
		if cand := slug + "-" + strconv.Itoa(i); !taken[cand] {
			return cand
		}
	}
}

// Slugify makes a URL slug of a title: lower-case letters and digits joined by
// single dashes, accents removed. It returns "page" when nothing is left.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(title) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
	}
	if b.Len() == 0 {
		return "page"
	}
	s := b.String()
	if len(s) > 100 {
		s = strings.TrimRight(s[:100], "-")
	}
	return s
}

// File returns the file with the given ID.
func (c *Content) File(id string) (*File, error) {
	for _, f := range c.Files {
		if f.ID == id {
			return f, nil
		}
	}
	return nil, fmt.Errorf("file %q: %w", id, ErrNotFound)
}

// PutFile adds f, or replaces the file with the same ID, keeping Files
// ordered by ID.
func (c *Content) PutFile(f *File) {
	c.ownFiles()
	for i, x := range c.Files {
		if x.ID == f.ID {
			c.Files[i] = f
			return
		}
	}
	c.Files = append(c.Files, f)
	sort.Slice(c.Files, func(i, j int) bool { return c.Files[i].ID < c.Files[j].ID })
}

// RemoveFile takes the file with the given ID out of the content.
func (c *Content) RemoveFile(id string) error {
	c.ownFiles()
	for i, x := range c.Files {
		if x.ID == id {
			c.Files = append(c.Files[:i:i], c.Files[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("file %q: %w", id, ErrNotFound)
}
