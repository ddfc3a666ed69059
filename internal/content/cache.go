package content

import (
	"context"
	"strings"

	"github.com/bindery/bindery/internal/lru"
)

// Cache is a least-recently-used cache of objects, bounded in bytes. An
// object is named by its hash and never changes, so a cache is right on
// every replica without invalidation. An object read inside a transaction
// that then rolls back may stay cached: that is harmless, because no
// committed revision points at it and its hash still names exactly its
// bytes.
type Cache struct{ l *lru.Cache[Object] }

// NewCache returns a cache that holds at most maxBytes of objects' data.
func NewCache(maxBytes int) *Cache { return &Cache{l: lru.New[Object](maxBytes, maxBytes/16)} }

// Get returns the object of hash, if cached.
func (c *Cache) Get(hash string) (Object, bool) { return c.l.Get(hash) }

// Put caches o, dropping the least recently used objects beyond the bound.
// An object larger than a sixteenth of the bound is not cached.
func (c *Cache) Put(o Object) { c.l.Put(o.Hash, o, len(o.Data)) }

// Decoded is a least-recently-used cache of decoded contents, keyed by
// their roots and bounded by the bytes of the objects they were decoded
// from. Roots name their content exactly, as an object's hash does, so a
// content decoded once serves every request, on every replica, without
// invalidation. What it returns is shared and must not be changed: edits
// work on a Fork.
//
// It keeps the decoded pages too, by their object's hash, within the same
// bound: the first read of a revision decodes only the pages that no
// revision read before it holds, such as the one an edit changed.
type Decoded struct {
	l     *lru.Cache[*Loaded]
	pages *lru.Cache[decodedPage]
}

// NewDecoded returns a cache of contents decoded from at most maxBytes of
// objects, and of pages decoded from at most as much. A content of up to
// half of that is kept: the contents worth keeping most are the large ones.
func NewDecoded(maxBytes int) *Decoded {
	return &Decoded{l: lru.New[*Loaded](maxBytes, maxBytes/2), pages: lru.New[decodedPage](maxBytes, maxBytes/16)}
}

// Load returns the content under roots, decoded once (see Load).
func (d *Decoded) Load(ctx context.Context, s Store, roots Roots) (*Loaded, error) {
	key := roots.key()
	if l, ok := d.l.Get(key); ok {
		return l, nil
	}
	l, err := load(ctx, s, roots, d.pages)
	if err != nil {
		return nil, err
	}
	d.l.Put(key, l, l.bytes)
	return l, nil
}

// Keep adds a content Save returned, so that the first read of the
// revision it is saved as needs no decoding. Its roots name it, whether or
// not the revision is committed.
func (d *Decoded) Keep(l *Loaded) { d.l.Put(l.roots.key(), l, l.bytes) }

// key is the cache key of roots.
func (r Roots) key() string { return strings.Join([]string{r.Pages, r.Files, r.Reusable}, "/") }
