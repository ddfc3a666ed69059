package content

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/bindery/bindery/internal/enum"
)

// Object is a content-addressed object: its Hash is the SHA-256 of its kind
// and data, so equal content has one hash and is stored once.
type Object struct {
	Hash string
	Kind enum.ObjectKind
	Data []byte
}

// NewObject returns the object of the given kind holding data.
func NewObject(kind enum.ObjectKind, data []byte) Object {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write(data)
	return Object{Hash: hex.EncodeToString(h.Sum(nil)), Kind: kind, Data: data}
}

// Store reads and writes objects. Get returns the objects it has among the
// hashes; Put stores objects and ignores the ones it already has.
type Store interface {
	Get(ctx context.Context, hashes []string) (map[string]Object, error)
	Put(ctx context.Context, objs []Object) error
}

// Roots are the hashes a revision points at; "" is empty content.
type Roots struct {
	Pages, Files, Reusable string
}

// treeEntry is one page in a tree object: the page's ID, its page object and
// the tree object of its children ("" for none).
type treeEntry struct {
	ID       string `json:"id"`
	Page     string `json:"page"`
	Children string `json:"children,omitempty"`
}

// Loaded is content read from a store, with the hashes it was read from, so
// that saving an edited copy writes only the objects that changed.
type Loaded struct {
	*Content
	known map[string]bool
	// hashes are the hashes the pages were read from.
	hashes PageHashes
	// bytes is the size of the objects it was decoded from.
	bytes int
}

// PageHashes returns the hashes of the objects the pages were read from,
// by page ID. An edited copy of the content does not change them.
func (l *Loaded) PageHashes() PageHashes { return l.hashes }

// Load reads the content under roots. The page tree is read level by level:
// one Get per depth level, whatever the number of pages.
func Load(ctx context.Context, s Store, roots Roots) (*Loaded, error) {
	return load(ctx, s, roots, nil)
}

// decodedPage is a page as decoded from its object, with the object's size.
type decodedPage struct {
	page *Page
	size int
}

// load is Load, taking the pages it finds in pages (by their object's
// hash) instead of reading and decoding them again, and keeping there the
// ones it decodes: pages are shared between the contents that hold them,
// and never changed (a Clone copies them).
func load(ctx context.Context, s Store, roots Roots, pages *lru[decodedPage]) (*Loaded, error) {
	out := &Loaded{Content: &Content{}, known: map[string]bool{}, hashes: PageHashes{}}
	first := []string{}
	for _, h := range []string{roots.Pages, roots.Files, roots.Reusable} {
		if h != "" {
			first = append(first, h)
		}
	}
	if len(first) == 0 {
		return out, nil
	}
	objs, err := get(ctx, s, first)
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		out.known[o.Hash] = true
		out.bytes += len(o.Data)
	}
	if roots.Files != "" {
		if err := json.Unmarshal(objs[roots.Files].Data, &out.Files); err != nil {
			return nil, fmt.Errorf("decode files %s: %w", roots.Files, err)
		}
	}
	if roots.Reusable != "" {
		if err := json.Unmarshal(objs[roots.Reusable].Data, &out.Reusable); err != nil {
			return nil, fmt.Errorf("decode reusable contents %s: %w", roots.Reusable, err)
		}
	}
	if roots.Pages == "" {
		out.freeze()
		return out, nil
	}

	// pending are the tree objects of one level, each with the slice its
	// nodes go into.
	type slot struct {
		tree string
		dst  *[]*Node
	}
	pending := []slot{{roots.Pages, &out.Pages}}
	trees := map[string]Object{roots.Pages: objs[roots.Pages]}
	for len(pending) > 0 {
		var pageHashes, childTrees []string
		entries := make([][]treeEntry, len(pending))
		decoded := map[string]decodedPage{}
		for i, p := range pending {
			if err := json.Unmarshal(trees[p.tree].Data, &entries[i]); err != nil {
				return nil, fmt.Errorf("decode tree %s: %w", p.tree, err)
			}
			for _, e := range entries[i] {
				if d, ok := pages.getOK(e.Page); ok {
					decoded[e.Page] = d
				} else {
					pageHashes = append(pageHashes, e.Page)
				}
				if e.Children != "" {
					childTrees = append(childTrees, e.Children)
				}
			}
		}
		level, err := get(ctx, s, append(pageHashes, childTrees...))
		if err != nil {
			return nil, err
		}
		var next []slot
		for i, p := range pending {
			nodes := make([]*Node, len(entries[i]))
			for j, e := range entries[i] {
				d, ok := decoded[e.Page]
				if ok {
					// Read before by a content that holds it: it exists
					// wherever these roots do.
					out.known[e.Page] = true
					out.bytes += d.size
				} else {
					d = decodedPage{page: new(Page), size: len(level[e.Page].Data)}
					if err := json.Unmarshal(level[e.Page].Data, d.page); err != nil {
						return nil, fmt.Errorf("decode page %s: %w", e.Page, err)
					}
					decoded[e.Page] = d
					pages.putOK(e.Page, d, d.size)
				}
				nodes[j] = &Node{Page: d.page}
				out.hashes[e.ID] = e.Page
				if e.Children != "" {
					next = append(next, slot{e.Children, &nodes[j].Children})
				}
			}
			*p.dst = nodes
		}
		for h, o := range level {
			out.known[h] = true
			out.bytes += len(o.Data)
			if o.Kind == enum.ObjectKindTree {
				trees[h] = o
			}
		}
		pending = next
	}
	out.freeze()
	return out, nil
}

// get reads hashes and fails when one is missing: a revision never points at
// an object that is not stored.
func get(ctx context.Context, s Store, hashes []string) (map[string]Object, error) {
	objs, err := s.Get(ctx, dedupe(hashes))
	if err != nil {
		return nil, err
	}
	for _, h := range hashes {
		if _, ok := objs[h]; !ok {
			return nil, fmt.Errorf("content object %s is missing", h)
		}
	}
	return objs, nil
}

func dedupe(hashes []string) []string {
	seen := make(map[string]bool, len(hashes))
	out := hashes[:0:0]
	for _, h := range hashes {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// PageHashes maps the ID of each page of a content to the hash of the
// object that stores it.
type PageHashes map[string]string

// Encode turns c into objects and returns its roots and its pages' hashes.
// Objects come children first, so a store never holds a tree whose
// children it lacks.
func Encode(c *Content) (Roots, []Object, PageHashes, error) {
	var objs []Object
	var roots Roots
	hashes := PageHashes{}
	var encodeTree func(nodes []*Node) (string, error)
	encodeTree = func(nodes []*Node) (string, error) {
		if len(nodes) == 0 {
			return "", nil
		}
		entries := make([]treeEntry, len(nodes))
		for i, n := range nodes {
			children, err := encodeTree(n.Children)
			if err != nil {
				return "", err
			}
			data, err := json.Marshal(n.Page)
			if err != nil {
				return "", err
			}
			o := NewObject(enum.ObjectKindPage, data)
			objs = append(objs, o)
			hashes[n.Page.ID] = o.Hash
			entries[i] = treeEntry{ID: n.Page.ID, Page: o.Hash, Children: children}
		}
		data, err := json.Marshal(entries)
		if err != nil {
			return "", err
		}
		o := NewObject(enum.ObjectKindTree, data)
		objs = append(objs, o)
		return o.Hash, nil
	}
	var err error
	if roots.Pages, err = encodeTree(c.Pages); err != nil {
		return Roots{}, nil, nil, err
	}
	if len(c.Files) > 0 {
		data, err := json.Marshal(c.Files)
		if err != nil {
			return Roots{}, nil, nil, err
		}
		o := NewObject(enum.ObjectKindFiles, data)
		objs = append(objs, o)
		roots.Files = o.Hash
	}
	if len(c.Reusable) > 0 {
		data, err := json.Marshal(c.Reusable)
		if err != nil {
			return Roots{}, nil, nil, err
		}
		o := NewObject(enum.ObjectKindReusableContents, data)
		objs = append(objs, o)
		roots.Reusable = o.Hash
	}
	return roots, objs, hashes, nil
}

// Save stores c and returns its roots and its pages' hashes. Objects that c was loaded from (when
// it is the Content of a Loaded, or a clone of one passed with from) are not
// written again: an edit to one page of a large tree writes that page and
// the tree objects on its path to the root.
func Save(ctx context.Context, s Store, c *Content, from *Loaded) (Roots, PageHashes, error) {
	roots, objs, hashes, err := Encode(c)
	if err != nil {
		return Roots{}, nil, err
	}
	var fresh []Object
	seen := map[string]bool{}
	for _, o := range objs {
		if seen[o.Hash] || (from != nil && from.known[o.Hash]) {
			continue
		}
		seen[o.Hash] = true
		fresh = append(fresh, o)
	}
	if len(fresh) > 0 {
		if err := s.Put(ctx, fresh); err != nil {
			return Roots{}, nil, err
		}
	}
	return roots, hashes, nil
}

// PageHash is the hash of the object that stores p, as a git blob ID names
// a file's content.
func PageHash(p *Page) string {
	data, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	return NewObject(enum.ObjectKindPage, data).Hash
}
