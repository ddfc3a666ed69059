package content

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/internal/enum"
)

// Saving. A content edited from a Loaded (a Fork of it, or a merge's result
// built with Sharing) shares the nodes it did not change with it, and those
// nodes have the hashes the Loaded read them from. Save encodes only the
// nodes the content owns, the pages it changed and the pages above them, and
// so does what follows: the saved content's lookups are the Loaded's with
// the changes applied, and Diff names the pages to index again. A content
// that is not a fork owns every node and is encoded whole.

// hashPair is a page's object hash and its children's tree hash.
type hashPair struct{ page, tree string }

// encoder encodes the nodes a content owns.
type encoder struct {
	c    *Content
	from *Loaded
	objs []Object
	// pairs are the hashes of the nodes it met: the ones it encoded and
	// the shared ones it did not descend into.
	pairs map[string]hashPair
}

// shared returns the hashes of n when it is the unchanged node of from.
func (e *encoder) shared(n *Node) (hashPair, bool) {
	if e.from == nil || e.c.owns(n) {
		return hashPair{}, false
	}
	f, ok := e.from.index.entry(n.Page.ID)
	if !ok {
		return hashPair{}, false
	}
	return hashPair{f.hash, f.tree}, true
}

// tree encodes nodes, children first, so a store never holds a tree whose
// children it lacks, and returns the hash of their tree object.
func (e *encoder) tree(nodes []*Node) (string, error) {
	if len(nodes) == 0 {
		return "", nil
	}
	entries := make([]treeEntry, len(nodes))
	for i, n := range nodes {
		pair, ok := e.shared(n)
		if !ok {
			children, err := e.tree(n.Children)
			if err != nil {
				return "", err
			}
			data, err := json.Marshal(n.Page)
			if err != nil {
				return "", err
			}
			o := NewObject(enum.ObjectKindPage, data)
			e.objs = append(e.objs, o)
			pair = hashPair{o.Hash, children}
		}
		e.pairs[n.Page.ID] = pair
		entries[i] = treeEntry{ID: n.Page.ID, Page: pair.page, Children: pair.tree}
	}
	return e.object(enum.ObjectKindTree, entries)
}

// object encodes v as an object of the given kind and returns its hash.
func (e *encoder) object(kind enum.ObjectKind, v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	o := NewObject(kind, data)
	e.objs = append(e.objs, o)
	return o.Hash, nil
}

// Diff is what changed between two contents, for what indexes pages.
type Diff struct {
	// Pages are the pages that are new, changed or at a new path.
	Pages []PageAt
	// Removed are the IDs of the pages that are gone.
	Removed []string
	// Existed are the IDs among Pages that the earlier content held.
	Existed []string
}

// PageAt is a page with the hash of its object and its path.
type PageAt struct {
	Page       *Page
	Hash, Path string
}

// Save stores c, edited from the loaded content from (nil for none), and
// returns it as loaded from its new roots, with what changed since from.
// The objects c shares with from are not encoded or written again: an edit
// of one page writes that page and the tree objects on its path to the
// root. c must not change afterwards: it is the returned content's.
func Save(ctx context.Context, s Store, c *Content, from *Loaded) (*Loaded, Diff, error) {
	if from != nil && from.index == nil {
		from = nil // not a loaded content: encode c whole
	}
	e := &encoder{c: c, from: from, pairs: map[string]hashPair{}}
	var roots Roots
	var err error
	if roots.Pages, err = e.tree(c.Pages); err != nil {
		return nil, Diff{}, err
	}
	if len(c.Files) > 0 {
		if roots.Files, err = e.object(enum.ObjectKindFiles, c.Files); err != nil {
			return nil, Diff{}, err
		}
	}
	if len(c.Reusable) > 0 {
		if roots.Reusable, err = e.object(enum.ObjectKindReusableContents, c.Reusable); err != nil {
			return nil, Diff{}, err
		}
	}
	var fresh []Object
	seen := map[string]bool{}
	for _, o := range e.objs {
		if !seen[o.Hash] {
			seen[o.Hash] = true
			fresh = append(fresh, o)
		}
	}
	if len(fresh) > 0 {
		if err := s.Put(ctx, fresh); err != nil {
			return nil, Diff{}, err
		}
	}
	out := &Loaded{Content: c, roots: roots}
	for _, o := range fresh {
		out.bytes += len(o.Data)
	}
	if from == nil {
		hashes, trees := map[string]string{}, map[string]string{}
		for id, p := range e.pairs {
			hashes[id], trees[id] = p.page, p.tree
		}
		out.freeze(hashes, trees)
		var d Diff
		c.Walk(func(n, _ *Node, path string) {
			d.Pages = append(d.Pages, PageAt{Page: n.Page, Hash: hashes[n.Page.ID], Path: path})
		})
		return out, d, nil
	}
	out.bytes += from.bytes
	d := out.follow(from, e.pairs)
	return out, d, nil
}

// follow sets l's index to from's with the changes of l's content applied,
// and returns them. It visits the nodes the encoder met, and descends into
// a shared node only when its path changed: the rest of the index is
// from's, shared.
func (l *Loaded) follow(from *Loaded, pairs map[string]hashPair) Diff {
	c := l.Content
	byID, byPath := from.index.byID, from.index.byPath
	var d Diff
	present := map[string]bool{}
	var walk func(nodes []*Node, parent *Node, prefix string)
	walk = func(nodes []*Node, parent *Node, prefix string) {
		for i, n := range nodes {
			id := n.Page.ID
			path := joinPath(prefix, n.Page.Slug)
			old, had := from.index.entry(id)
			pair, ok := pairs[id]
			if !ok { // beneath a shared node: from's, unchanged
				pair = hashPair{old.hash, old.tree}
			}
			present[id] = true
			moved := had && old.path != path
			if !had || moved || old.hash != pair.page {
				d.Pages = append(d.Pages, PageAt{Page: n.Page, Hash: pair.page, Path: path})
				if had {
					d.Existed = append(d.Existed, id)
				}
			}
			e := indexEntry{n: n, parent: parent, index: i, path: path, hash: pair.page, tree: pair.tree}
			if cur, _ := byID.Get(id); cur != e {
				byID = byID.Set(id, e)
			}
			if moved {
				if at, _ := byPath.Get(old.path); at == old.n {
					byPath = byPath.Delete(old.path)
				}
			}
			if at, _ := byPath.Get(path); at != n {
				byPath = byPath.Set(path, n)
			}
			if c.owns(n) || moved || !had {
				walk(n.Children, n, path)
			}
		}
	}
	walk(c.Pages, nil, "")
	// The pages of from that are gone: a node c shares holds what it held.
	var gone func(nodes []*Node)
	gone = func(nodes []*Node) {
		for _, m := range nodes {
			id := m.Page.ID
			if e, ok := byID.Get(id); present[id] && ok && !c.owns(e.n) {
				continue
			}
			if !present[id] {
				d.Removed = append(d.Removed, id)
				byID = byID.Delete(id)
				old, _ := from.index.entry(id)
				if at, _ := byPath.Get(old.path); at == old.n {
					byPath = byPath.Delete(old.path)
				}
			}
			gone(m.Children)
		}
	}
	gone(from.Pages)
	c.index, c.own = &index{byID: byID, byPath: byPath}, frozen
	return d
}

// joinPath is the path of a page with the given slug under prefix.
func joinPath(prefix, slug string) string {
	if prefix == "" {
		return slug
	}
	return prefix + "/" + slug
}
