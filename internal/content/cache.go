package content

import (
	"container/list"
	"sync"
)

// Cache is a least-recently-used cache of objects, bounded in bytes. An
// object is named by its hash and never changes, so a cache is right on
// every replica without invalidation. An object read inside a transaction
// that then rolls back may stay cached: that is harmless, because no
// committed revision points at it and its hash still names exactly its
// bytes.
type Cache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // front is most recent; values are Object
	byKey map[string]*list.Element
}

// NewCache returns a cache that holds at most maxBytes of objects' data.
func NewCache(maxBytes int) *Cache {
	return &Cache{max: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the object of hash, if cached.
func (c *Cache) Get(hash string) (Object, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[hash]
	if !ok {
		return Object{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(Object), true
}

// Put caches o, dropping the least recently used objects beyond the bound.
// An object larger than a sixteenth of the bound is not cached.
func (c *Cache) Put(o Object) {
	if len(o.Data) > c.max/16 {
		return // large files would flush everything else
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[o.Hash]; ok {
		return
	}
	c.byKey[o.Hash] = c.order.PushFront(o)
	c.size += len(o.Data)
	for c.size > c.max {
		last := c.order.Back()
		old := last.Value.(Object)
		c.order.Remove(last)
		delete(c.byKey, old.Hash)
		c.size -= len(old.Data)
	}
}
