package content

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/lru"
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
	roots Roots
	// bytes is the size of the objects it was decoded from.
	bytes int
}

// Roots returns the roots the content was read from or saved under.
func (l *Loaded) Roots() Roots { return l.roots }

// SameBeneath reports whether the pages beneath the page with the given ID
// are the same in every content of ls: the page is in each, and its
// children's tree objects are one. A merge leaves such a subtree alone.
func SameBeneath(id string, ls ...*Loaded) bool {
	var tree string
	for i, l := range ls {
		e, ok := l.index.entry(id)
		if !ok || (i > 0 && e.tree != tree) {
			return false
		}
		tree = e.tree
	}
	return true
}

// PageHash returns the hash of the object the page with the given ID was
// read from ("" when the content has no such page), as a git blob ID names
// a file's content. An edited copy of the content does not change it.
func (l *Loaded) PageHash(id string) string {
	e, _ := l.index.entry(id)
	return e.hash
}

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
// and never changed (a Fork copies the ones it changes).
func load(ctx context.Context, s Store, roots Roots, pages *lru.Cache[decodedPage]) (*Loaded, error) {
	out := &Loaded{Content: &Content{}, roots: roots}
	hashes, subtrees := map[string]string{}, map[string]string{}
	first := []string{}
	for _, h := range []string{roots.Pages, roots.Files, roots.Reusable} {
		if h != "" {
			first = append(first, h)
		}
	}
	if len(first) == 0 {
		out.freeze(nil, nil)
		return out, nil
	}
	objs, err := get(ctx, s, first)
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
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
		out.freeze(nil, nil)
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
				if d, ok := pages.Get(e.Page); ok {
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
					out.bytes += d.size
				} else {
					d = decodedPage{page: new(Page), size: len(level[e.Page].Data)}
					if err := json.Unmarshal(level[e.Page].Data, d.page); err != nil {
						return nil, fmt.Errorf("decode page %s: %w", e.Page, err)
					}
					decoded[e.Page] = d
					pages.Put(e.Page, d, d.size)
				}
				nodes[j] = &Node{Page: d.page}
				hashes[e.ID] = e.Page
				subtrees[e.ID] = e.Children
				if e.Children != "" {
					next = append(next, slot{e.Children, &nodes[j].Children})
				}
			}
			*p.dst = nodes
		}
		for h, o := range level {
			out.bytes += len(o.Data)
			if o.Kind == enum.ObjectKindTree {
				trees[h] = o
			}
		}
		pending = next
	}
	out.freeze(hashes, subtrees)
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

// PageHash is the hash of the object that stores p, as a git blob ID names
// a file's content.
func PageHash(p *Page) string {
	data, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	return NewObject(enum.ObjectKindPage, data).Hash
}
