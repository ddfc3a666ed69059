package lru_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/internal/lru"
)

func TestEvictsTheLeastRecentlyUsed(t *testing.T) {
	c := lru.New[string](10, 5)
	c.Put("a", "A", 4)
	c.Put("b", "B", 4)
	_, _ = c.Get("a") // a is now more recent than b
	c.Put("c", "C", 4)
	_, okA := c.Get("a")
	_, okB := c.Get("b")
	_, okC := c.Get("c")
	assert.True(t, okA)
	assert.False(t, okB, "the least recently used goes first")
	assert.True(t, okC)
	assert.Equal(t, 8, c.Size())

	c.Put("big", "X", 6)
	_, ok := c.Get("big")
	assert.False(t, ok, "a value over the largest is not kept")
	c.Put("a", "other", 1)
	v, _ := c.Get("a")
	assert.Equal(t, "A", v, "a key keeps its first value")
	c.Replace("a", "other", 1)
	v, _ = c.Get("a")
	assert.Equal(t, "other", v, "Replace replaces")
	assert.Equal(t, 5, c.Size())

	v, ok = c.Take("a")
	assert.True(t, ok)
	assert.Equal(t, "other", v)
	_, ok = c.Get("a")
	assert.False(t, ok, "Take removes")
	assert.Equal(t, 4, c.Size())
	_, ok = c.Take("a")
	assert.False(t, ok)
}

func TestNilHoldsNothing(t *testing.T) {
	var c *lru.Cache[int]
	c.Put("a", 1, 1)
	_, ok := c.Get("a")
	assert.False(t, ok)
	_, ok = c.Take("a")
	assert.False(t, ok)
	assert.Zero(t, c.Size())
}
