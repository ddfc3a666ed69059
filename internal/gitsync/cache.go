package gitsync

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/bindery/bindery/internal/lru"
)

// go-git does not ask for thin packs by default, but its parser resolves
// a thin pack's deltas against the objects the storage holds, which are
// what a fetch from a kept commit says it has. Git's upload-pack needs the
// request: without it, a shallow fetch gets every object of the new head,
// the ones the client said it has included. This is go-git's documented
// switch; gitsync is the only user of go-git in the server.
func init() {
	transport.UnsupportedCapabilities = slices.DeleteFunc(slices.Clone(transport.UnsupportedCapabilities),
		func(c capability.Capability) bool { return c == capability.ThinPack })
}

// Cache keeps, between calls, the objects of the commit each branch was
// last seen at: its tree and files. A Fetch or Push of that branch then
// tells the remote it has that commit, and the remote sends only the
// objects it lacks, which for an edit of one page is that page's file and
// the trees above it, whatever the repository's size. Git's objects are
// named by their hashes, so what is kept is never stale: a branch that
// moved elsewhere (a force push) costs what a call without a cache does.
//
// A branch is named by its URL, without credentials, and its ref. A call
// still reaches the remote with its own credentials before it reads
// anything kept, so a caller without access to a repository learns
// nothing from another's entry. Entries are used by one call at a time:
// a call takes its branch's entry out and puts the new one back.
//
// The objects kept are bounded by bytes (their sizes inflated), the least
// recently used going first; a branch over half the bound is not kept.
// A nil *Cache keeps nothing.
type Cache struct {
	l   *lru.Cache[*cached]
	max int64
}

// cached is a branch's commit and the objects reachable from it, and when
// known its regular files by path (Snapshot.Files), so that a fetch from
// it reads only the files that changed. Neither map is changed once kept:
// a call that needs another copies it.
type cached struct {
	head    plumbing.Hash
	objects map[plumbing.Hash]plumbing.EncodedObject
	// size is the objects' sizes together, garbage a bound on those of
	// objects no longer reachable (see keepChanged).
	size, garbage int64
	files         map[string][]byte
	// fileBytes is the files' bytes together.
	fileBytes int64
}

// NewCache returns a cache of at most maxBytes of objects; nil, which
// keeps nothing, when maxBytes is not positive.
func NewCache(maxBytes int64) *Cache {
	if maxBytes <= 0 {
		return nil
	}
	return &Cache{l: lru.New[*cached](int(maxBytes), int(maxBytes/2)), max: maxBytes}
}

func cacheKey(ep endpoint) string { return ep.url + "\x00" + ep.ref.String() }

// take removes the entry of key and returns it; nil when there is none.
func (c *Cache) take(key string) *cached {
	if c == nil {
		return nil
	}
	e, _ := c.l.Take(key)
	return e
}

// keep makes head, and the objects of s reachable from it, key's entry,
// with head's files when not nil (which the entry then owns). An entry
// that cannot be read whole is not kept.
func (c *Cache) keep(key string, s storer.EncodedObjectStorer, head *object.Commit, files map[string][]byte) {
	if c == nil || head == nil {
		return
	}
	e, err := reachable(s, head, c.max/2)
	if err != nil {
		return
	}
	c.put(key, e, files)
}

// keepChanged makes head key's entry from base, the entry of the commit
// that d compared head with: base's objects with the ones d met on
// head's side, and base's files with d's changes (files, when not nil,
// are those already). What it costs follows the change. The objects of
// base that head no longer reaches stay, counted as garbage; past half
// the entry, keep reads it anew.
func (c *Cache) keepChanged(key string, s storer.EncodedObjectStorer, base *cached, head *object.Commit, d *differ, files map[string][]byte) {
	if c == nil || head == nil {
		return
	}
	if base.garbage+d.dropped > base.size/2 {
		c.keep(key, s, head, files)
		return
	}
	e := &cached{head: head.Hash, objects: maps.Clone(base.objects), size: base.size, garbage: base.garbage + d.dropped}
	for _, h := range append(d.added, head.Hash, head.TreeHash) {
		if _, ok := e.objects[h]; ok {
			continue
		}
		o, err := s.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return
		}
		e.objects[h] = o
		if e.size += o.Size(); e.size > c.max/2 {
			return
		}
	}
	if files == nil && base.files != nil {
		files, _ = d.apply(base.files, base.fileBytes, Limits{}.withDefaults())
	}
	c.put(key, e, files)
}

// reuse keeps e again under key, unchanged.
func (c *Cache) reuse(key string, e *cached) {
	if c != nil && e != nil {
		c.l.Replace(key, e, int(e.size+e.fileBytes))
	}
}

// put keeps e, with files when they fit in half the bound beside its
// objects.
func (c *Cache) put(key string, e *cached, files map[string][]byte) {
	if files != nil {
		var n int64
		for _, b := range files {
			n += int64(len(b))
		}
		if e.size+n <= c.max/2 {
			e.files, e.fileBytes = files, n
		}
	}
	c.l.Replace(key, e, int(e.size+e.fileBytes))
}

// errTooLargeToKeep is a commit whose objects exceed what an entry may hold.
var errTooLargeToKeep = errors.New("gitsync: too large to keep")

// reachable collects head's commit and the trees and files of its tree, in
// at most max bytes. Submodules are commits of other repositories, not
// here; the same object met twice is kept once.
func reachable(s storer.EncodedObjectStorer, head *object.Commit, max int64) (*cached, error) {
	e := &cached{head: head.Hash, objects: map[plumbing.Hash]plumbing.EncodedObject{}}
	seen := map[plumbing.Hash]bool{}
	add := func(h plumbing.Hash) error {
		if seen[h] {
			return nil
		}
		seen[h] = true
		o, err := s.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return err
		}
		e.objects[h] = o
		if e.size += o.Size(); e.size > max {
			return errTooLargeToKeep
		}
		return nil
	}
	if err := add(head.Hash); err != nil {
		return nil, err
	}
	if err := add(head.TreeHash); err != nil {
		return nil, err
	}
	tree, err := head.Tree()
	if err != nil {
		return nil, err
	}
	walker := object.NewTreeWalker(tree, true, seen)
	defer walker.Close()
	for {
		_, entry, err := walker.Next()
		if errors.Is(err, io.EOF) {
			return e, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the tree: %w", err)
		}
		if entry.Mode == filemode.Submodule {
			continue
		}
		if err := add(entry.Hash); err != nil {
			return nil, err
		}
	}
}

// seed puts e's objects into s, with e's commit as the local branch ref and
// as the shallow boundary: a fetch then says it has that commit (and not
// its parents, which it lacks), and the remote leaves out what it holds.
func (e *cached) seed(s *limitedStorage, ref plumbing.ReferenceName) error {
	for _, o := range e.objects {
		if _, err := s.Storage.SetEncodedObject(o); err != nil {
			return err
		}
	}
	if err := s.SetReference(plumbing.NewHashReference(ref, e.head)); err != nil {
		return err
	}
	return s.SetShallow([]plumbing.Hash{e.head})
}
