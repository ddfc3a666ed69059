// Package lru is a least-recently-used map bounded by the sizes of its
// values, for the caches a server keeps across requests: values that a key
// names exactly (a hash, a version), so that a cache is right on every
// replica without invalidation.
package lru

import (
	"container/list"
	"sync"
)

// Cache is a least-recently-used map bounded by the sizes of its values.
// It is safe for concurrent use; a nil Cache holds nothing.
type Cache[V any] struct {
	mu  sync.Mutex
	max int
	// largest is the size of the largest value kept: one larger would
	// flush too much else.
	largest int
	size    int
	order   *list.List // front is most recent
	byKey   map[string]*list.Element
}

type entry[V any] struct {
	key   string
	value V
	size  int
}

// New returns a cache of at most maxSize, which keeps no value larger than
// largest.
func New[V any](maxSize, largest int) *Cache[V] {
	return &Cache[V]{max: maxSize, largest: largest, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the value of key, if kept.
func (c *Cache[V]) Get(key string) (V, bool) {
	if c == nil {
		var zero V
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(entry[V]).value, true
}

// Put keeps value under key, dropping the least recently used values
// beyond the bound. A value larger than the largest is not kept; nor is a
// second value for a key already kept.
func (c *Cache[V]) Put(key string, value V, size int) {
	if c == nil || size > c.largest {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(entry[V]{key: key, value: value, size: size})
	c.size += size
	for c.size > c.max {
		last := c.order.Back()
		old := last.Value.(entry[V])
		c.order.Remove(last)
		delete(c.byKey, old.key)
		c.size -= old.size
	}
}

// Replace keeps value under key in place of the value kept, for a key
// whose value is good only for a while (see graph.Generation).
func (c *Cache[V]) Replace(key string, value V, size int) {
	c.Take(key)
	c.Put(key, value, size)
}

// Take removes the value of key and returns it, if kept: for a value that
// one user at a time may hold (see gitsync.Cache).
func (c *Cache[V]) Take(key string) (V, bool) {
	var zero V
	if c == nil {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return zero, false
	}
	c.order.Remove(e)
	delete(c.byKey, key)
	kept := e.Value.(entry[V])
	c.size -= kept.size
	return kept.value, true
}

// Size is the sum of the sizes of the values kept.
func (c *Cache[V]) Size() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}
