package links

import (
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/bindery/bindery/internal/content"
)

// Key names the content an analysis is of: the roots of a revision's pages
// and files. Roots are content hashes, so the content under a key never
// changes and neither does its analysis.
type Key struct {
	Pages, Files string
}

// KeyOf is the key of content under roots.
func KeyOf(r content.Roots) Key { return Key{Pages: r.Pages, Files: r.Files} }

// Cache holds the analyses of recently read revisions, so that reading the
// links of an unchanged revision costs no parse. It is bounded in entries
// and safe for concurrent use. Nothing in it needs to be shared between
// replicas: each computes what it misses.
type Cache struct {
	lru    *lru.Cache[Key, *Analysis]
	opt    Options
	parses atomic.Int64
}

// NewCache returns a cache of at most size analyses made with opt.
func NewCache(size int, opt Options) *Cache {
	l, err := lru.New[Key, *Analysis](size)
	if err != nil {
		panic("links: " + err.Error()) // only for a size below 1
	}
	return &Cache{lru: l, opt: opt}
}

// Get returns the analysis of the content under key, analysing what load
// returns when the cache does not hold it.
func (c *Cache) Get(key Key, load func() (*content.Content, error)) (*Analysis, error) {
	if a, ok := c.lru.Get(key); ok {
		return a, nil
	}
	cc, err := load()
	if err != nil {
		return nil, err
	}
	c.parses.Add(1)
	a := Analyze(cc, c.opt)
	c.lru.Add(key, a)
	return a, nil
}

// Parses is the number of analyses the cache has made: one per content it
// missed.
func (c *Cache) Parses() int64 { return c.parses.Load() }
