package content

import (
	"container/list"
	"context"
	"strings"
	"sync"
)

// lru is a least-recently-used map bounded by the sizes of its values.
type lru[V any] struct {
	mu  sync.Mutex
	max int
	// largest is the size of the largest value kept: one larger would
	// flush too much else.
	largest int
	size    int
	order   *list.List // front is most recent
	byKey   map[string]*list.Element
}

type lruEntry[V any] struct {
	key   string
	value V
	size  int
}

func newLRU[V any](maxSize, largest int) *lru[V] {
	return &lru[V]{max: maxSize, largest: largest, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(lruEntry[V]).value, true
}

// put keeps value under key, dropping the least recently used values
// beyond the bound. A value larger than the largest is not kept.
func (c *lru[V]) put(key string, value V, size int) {
	if size > c.largest {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(lruEntry[V]{key: key, value: value, size: size})
	c.size += size
	for c.size > c.max {
		last := c.order.Back()
		old := last.Value.(lruEntry[V])
		c.order.Remove(last)
		delete(c.byKey, old.key)
		c.size -= old.size
	}
}

// getOK is get on a cache that may be nil, which holds nothing.
func (c *lru[V]) getOK(key string) (V, bool) {
	if c == nil {
		var zero V
		return zero, false
	}
	return c.get(key)
}

// putOK is put on a cache that may be nil, which keeps nothing.
func (c *lru[V]) putOK(key string, value V, size int) {
	if c != nil {
		c.put(key, value, size)
	}
}

// Cache is a least-recently-used cache of objects, bounded in bytes. An
// object is named by its hash and never changes, so a cache is right on
// every replica without invalidation. An object read inside a transaction
// that then rolls back may stay cached: that is harmless, because no
// committed revision points at it and its hash still names exactly its
// bytes.
type Cache struct{ l *lru[Object] }

// NewCache returns a cache that holds at most maxBytes of objects' data.
func NewCache(maxBytes int) *Cache { return &Cache{l: newLRU[Object](maxBytes, maxBytes/16)} }

// Get returns the object of hash, if cached.
func (c *Cache) Get(hash string) (Object, bool) { return c.l.get(hash) }

// Put caches o, dropping the least recently used objects beyond the bound.
// An object larger than a sixteenth of the bound is not cached.
func (c *Cache) Put(o Object) { c.l.put(o.Hash, o, len(o.Data)) }

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
	l     *lru[*Loaded]
	pages *lru[decodedPage]
}

// NewDecoded returns a cache of contents decoded from at most maxBytes of
// objects, and of pages decoded from at most as much. A content of up to
// half of that is kept: the contents worth keeping most are the large ones.
func NewDecoded(maxBytes int) *Decoded {
	return &Decoded{l: newLRU[*Loaded](maxBytes, maxBytes/2), pages: newLRU[decodedPage](maxBytes, maxBytes/16)}
}

// Load returns the content under roots, decoded once (see Load).
func (d *Decoded) Load(ctx context.Context, s Store, roots Roots) (*Loaded, error) {
	key := roots.key()
	if l, ok := d.l.get(key); ok {
		return l, nil
	}
	l, err := load(ctx, s, roots, d.pages)
	if err != nil {
		return nil, err
	}
	d.l.put(key, l, l.bytes)
	return l, nil
}

// Keep adds a content Save returned, so that the first read of the
// revision it is saved as needs no decoding. Its roots name it, whether or
// not the revision is committed.
func (d *Decoded) Keep(l *Loaded) { d.l.put(l.roots.key(), l, l.bytes) }

// key is the cache key of roots.
func (r Roots) key() string { return strings.Join([]string{r.Pages, r.Files, r.Reusable}, "/") }
