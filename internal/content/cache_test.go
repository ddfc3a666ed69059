package content

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func object(hash string, size int) Object {
	return Object{Hash: hash, Data: []byte(strings.Repeat("x", size))}
}

// The cache keeps the most recently used objects within its bound, and
// leaves out an object too large to share it.
func TestCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	c := NewCache(160)
	for _, h := range []string{"a", "b", "c", "d"} {
		c.Put(object(h, 10))
	}
	_, ok := c.Get("a") // a is now the most recent
	assert.True(t, ok)
	for _, h := range strings.Split("efghijklmnopqrs", "") {
		c.Put(object(h, 10))
	}
	// 19 objects of 10 bytes in 160: the three least recently used left.
	for _, h := range []string{"b", "c", "d"} {
		_, ok = c.Get(h)
		assert.False(t, ok, "the least recently used went first: %s", h)
	}
	for _, h := range []string{"a", "e", "s"} {
		o, ok := c.Get(h)
		assert.True(t, ok, h)
		assert.Equal(t, h, o.Hash)
	}
	c.Put(object("big", 11))
	_, ok = c.Get("big")
	assert.False(t, ok, "larger than a sixteenth of the bound")
}
