package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Push makes one commit on r's branch and pushes it. The commit's tree is
// the branch's tree with everything under dir ("" for the whole
// repository) replaced by files, whose paths are relative to dir.
//
// parent is the commit the caller last saw on the branch, "" when it has
// seen none. When the branch is elsewhere (or was deleted), Push pushes
// nothing and returns ErrMoved: the caller fetches, merges and tries
// again. The check holds up to the push itself, as the remote only moves
// the branch from parent. An empty repository, or a missing branch with
// parent "", gets the branch with a root commit.
//
// When the tree would not change, Push makes no commit and returns the
// head. Otherwise it returns the new head's hash.
func Push(ctx context.Context, r Remote, parent string, dir string, files map[string][]byte,
	message string, author Signature, l Limits) (string, error) {
	dir, err := cleanDir(dir)
	if err != nil {
		return "", err
	}
	for p := range files {
		if err := checkPath(p); err != nil {
			return "", err
		}
	}
	return push(ctx, r, parent, message, author, l, func(b *branch, l Limits) (plumbing.Hash, error) {
		return newTree(b.repo.Storer, b.head, dir, files, l)
	})
}

// ErrNotEdits is what an edit of PushEdits returns for a change it cannot
// make as edits of files: the caller pushes with Push instead.
var ErrNotEdits = errors.New("gitsync: not a change of a few files")

// PushEdits is Push for a change of a few files. edit reads the files of
// the branch's head (by path from the repository's root; false for a path
// that is no file there) and returns the files to write over them or
// beside them; the commit's tree is the head's with those written, made
// reading only the trees on their paths. When edit fails, nothing is
// pushed and PushEdits returns its error. The branch must have a head.
func PushEdits(ctx context.Context, r Remote, parent string,
	edit func(read func(path string) ([]byte, bool)) (map[string][]byte, error),
	message string, author Signature, l Limits) (string, error) {
	return push(ctx, r, parent, message, author, l, func(b *branch, l Limits) (plumbing.Hash, error) {
		if b.head == nil {
			return plumbing.ZeroHash, ErrNotEdits
		}
		tree, err := b.head.Tree()
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading the tree: %w", err)
		}
		files, err := edit(func(p string) ([]byte, bool) {
			e, err := tree.FindEntry(p)
			if err != nil || !regular(e.Mode) {
				return nil, false
			}
			data, err := readBlob(b.repo.Storer, e.Hash)
			return data, err == nil
		})
		if err != nil {
			return plumbing.ZeroHash, err
		}
		for p := range files {
			if err := checkPath(p); err != nil {
				return plumbing.ZeroHash, err
			}
		}
		return editTree(b.repo.Storer, b.head.TreeHash, files)
	})
}

// push makes one commit on r's branch, whose tree build writes, and pushes
// it (see Push).
func push(ctx context.Context, r Remote, parent, message string, author Signature, l Limits,
	build func(b *branch, l Limits) (plumbing.Hash, error)) (string, error) {
	ep, release, err := open(ctx, r)
	if err != nil {
		return "", err
	}
	defer release()
	l = l.withDefaults()
	if parent != "" && !plumbing.IsHash(parent) {
		return "", fmt.Errorf("gitsync: parent %q is not a commit hash", parent)
	}

	b, err := fetchBranch(ctx, ep, l, r.Cache)
	if err != nil {
		return "", err
	}
	head := ""
	if b.head != nil {
		head = b.head.Hash.String()
	}
	// What was fetched is kept whatever becomes of the push; the new
	// commit instead once pushed.
	kept := b.head
	defer func() { b.keep(r.Cache, cacheKey(ep), kept) }()
	if head != parent {
		return "", ep.fail(ctx, "push", ErrMoved, nil)
	}

	tree, err := build(b, l)
	if errors.Is(err, ErrNotEdits) {
		return "", err
	}
	if err != nil {
		return "", ep.fail(ctx, "push", nil, err)
	}
	if b.head != nil && tree == b.head.TreeHash {
		return head, nil
	}
	commit, err := writeCommit(b.repo.Storer, b.head, tree, message, author)
	if err != nil {
		return "", ep.fail(ctx, "push", nil, err)
	}
	if err := b.repo.Storer.SetReference(plumbing.NewHashReference(ep.ref, commit)); err != nil {
		return "", fmt.Errorf("gitsync: setting the branch in memory: %w", err)
	}

	opts := &git.PushOptions{
		RefSpecs:     []config.RefSpec{config.RefSpec(ep.ref + ":" + ep.ref)},
		Auth:         ep.auth,
		ProxyOptions: ep.proxy,
	}
	if parent != "" {
		opts.RequireRemoteRefs = []config.RefSpec{config.RefSpec(parent + ":" + ep.ref.String())}
	}
	if err := b.remote.PushContext(ctx, opts); err != nil {
		// go-git reports a branch moved since the fetch in several ways
		// (a required ref, a non-fast-forward, the remote's refusal): see
		// where the branch is rather than read the message.
		if classify(ctx, err) == nil && moved(ctx, ep, b.remote, parent) {
			return "", ep.fail(ctx, "push", ErrMoved, err)
		}
		return "", ep.fail(ctx, "push", nil, err)
	}
	kept, _ = b.repo.CommitObject(commit)
	return commit.String(), nil
}

// moved reports whether the remote's branch is known not to be at parent.
func moved(ctx context.Context, ep endpoint, remote *git.Remote, parent string) bool {
	refs, err := remote.ListContext(ctx, &git.ListOptions{Auth: ep.auth, ProxyOptions: ep.proxy})
	if err != nil {
		return false
	}
	head := ""
	for _, ref := range refs {
		if ref.Name() == ep.ref {
			head = ref.Hash().String()
		}
	}
	return head != parent
}

// node is a directory of the tree being built.
type node struct {
	entries map[string]object.TreeEntry // files, links and submodules
	dirs    map[string]*node
}

func newNode() *node {
	return &node{entries: map[string]object.TreeEntry{}, dirs: map[string]*node{}}
}

// add places an entry at path p, creating directories on the way.
func (n *node) add(p string, e object.TreeEntry) error {
	dirs := strings.Split(p, "/")
	name := dirs[len(dirs)-1]
	for _, d := range dirs[:len(dirs)-1] {
		if _, ok := n.entries[d]; ok {
			return fmt.Errorf("%w: %q is under a file", ErrInvalidPath, p)
		}
		if n.dirs[d] == nil {
			n.dirs[d] = newNode()
		}
		n = n.dirs[d]
	}
	if n.dirs[name] != nil {
		return fmt.Errorf("%w: %q is a directory", ErrInvalidPath, p)
	}
	e.Name = name
	n.entries[name] = e
	return nil
}

// newTree writes the tree of head (nil for none) with everything under
// dir replaced by files, and returns its hash.
func newTree(s storer.EncodedObjectStorer, head *object.Commit, dir string, files map[string][]byte, l Limits) (plumbing.Hash, error) {
	root := newNode()
	count, total := len(files), int64(0)
	// The files under dir the head has, to keep the blob of a file that
	// did not change rather than hash it again.
	had := map[string]plumbing.Hash{}
	if head != nil {
		tree, err := head.Tree()
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading the tree: %w", err)
		}
		// Everything outside dir is kept as it is, links and submodules
		// too: they are not Bindery's to drop.
		walker := object.NewTreeWalker(tree, true, nil)
		defer walker.Close()
		for {
			name, entry, err := walker.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("reading the tree: %w", err)
			}
			if entry.Mode == filemode.Regular && under(name, dir) {
				had[name] = entry.Hash
			}
			if entry.Mode == filemode.Dir || under(name, dir) {
				continue
			}
			if err := root.add(name, entry); err != nil {
				return plumbing.ZeroHash, err
			}
			count++
			if size, err := s.EncodedObjectSize(entry.Hash); err == nil {
				total += size
			}
		}
	}
	for _, data := range files {
		total += int64(len(data))
	}
	if count > l.MaxFiles || total > l.MaxBytes {
		return plumbing.ZeroHash, fmt.Errorf("%w: the tree would have %d files and %d bytes", ErrTooLarge, count, total)
	}
	for p, data := range files {
		full := p
		if dir != "" {
			full = dir + "/" + p
		}
		if h, ok := had[full]; ok && sameBlob(s, h, data) {
			if err := root.add(full, object.TreeEntry{Mode: filemode.Regular, Hash: h}); err != nil {
				return plumbing.ZeroHash, err
			}
			continue
		}
		hash, err := writeBlob(s, data)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("storing %s: %w", p, err)
		}
		if err := root.add(full, object.TreeEntry{Mode: filemode.Regular, Hash: hash}); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return writeTree(s, root)
}

// sameBlob reports whether the blob hash names holds data. Comparing is
// cheaper than hashing data, and most files of an export are unchanged.
func sameBlob(s storer.EncodedObjectStorer, hash plumbing.Hash, data []byte) bool {
	if size, err := s.EncodedObjectSize(hash); err != nil || size != int64(len(data)) {
		return false
	}
	held, err := readBlob(s, hash)
	return err == nil && bytes.Equal(held, data)
}

// writeBlob stores data as a blob and returns its hash.
func writeBlob(s storer.EncodedObjectStorer, data []byte) (plumbing.Hash, error) {
	blob := s.NewEncodedObject()
	blob.SetType(plumbing.BlobObject)
	w, err := blob.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(blob)
}

// editTree writes the tree h (ZeroHash for none) with files, by path
// relative to it, written over or beside its entries, and returns its
// hash. Only the trees on the files' paths are read and written again.
func editTree(s storer.EncodedObjectStorer, h plumbing.Hash, files map[string][]byte) (plumbing.Hash, error) {
	entries := map[string]object.TreeEntry{}
	if !h.IsZero() {
		t, err := object.GetTree(s, h)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading the tree: %w", err)
		}
		for _, e := range t.Entries {
			entries[e.Name] = e
		}
	}
	below := map[string]map[string][]byte{}
	for p, data := range files {
		name, rest, nested := strings.Cut(p, "/")
		e, exists := entries[name]
		if nested {
			if exists && e.Mode != filemode.Dir {
				return plumbing.ZeroHash, fmt.Errorf("%w: %q is under a file", ErrInvalidPath, p)
			}
			if below[name] == nil {
				below[name] = map[string][]byte{}
			}
			below[name][rest] = data
			continue
		}
		mode := filemode.Regular
		switch {
		case exists && e.Mode == filemode.Dir:
			return plumbing.ZeroHash, fmt.Errorf("%w: %q is a directory", ErrInvalidPath, p)
		case exists && e.Mode == filemode.Executable:
			mode = e.Mode
		}
		hash, err := writeBlob(s, data)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("storing %s: %w", p, err)
		}
		entries[name] = object.TreeEntry{Name: name, Mode: mode, Hash: hash}
	}
	for name, sub := range below {
		hash, err := editTree(s, entries[name].Hash, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: hash}
	}
	return storeTree(s, slices.Collect(maps.Values(entries)))
}

// writeTree stores n and the directories below it.
func writeTree(s storer.EncodedObjectStorer, n *node) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	for _, e := range n.entries {
		entries = append(entries, e)
	}
	for name, sub := range n.dirs {
		hash, err := writeTree(s, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: hash})
	}
	return storeTree(s, entries)
}

// storeTree stores a tree of entries, in Git's order.
func storeTree(s storer.EncodedObjectStorer, entries []object.TreeEntry) (plumbing.Hash, error) {
	t := object.Tree{Entries: entries}
	// Git's order: names compared bytewise, a directory's as if it ended
	// in '/'. Another order would make a tree Git calls malformed, and
	// change the hash of a tree that did not change.
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	slices.SortFunc(t.Entries, func(a, b object.TreeEntry) int { return strings.Compare(key(a), key(b)) })
	obj := s.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encoding a tree: %w", err)
	}
	return s.SetEncodedObject(obj)
}

func writeCommit(s storer.EncodedObjectStorer, head *object.Commit, tree plumbing.Hash, message string, author Signature) (plumbing.Hash, error) {
	when := author.When
	if when.IsZero() {
		when = time.Now()
	}
	sig := object.Signature{Name: author.Name, Email: author.Email, When: when}
	c := &object.Commit{
		Author:    sig,
		Committer: sig,
		Message:   strings.TrimSuffix(message, "\n") + "\n",
		TreeHash:  tree,
	}
	if head != nil {
		c.ParentHashes = []plumbing.Hash{head.Hash}
	}
	obj := s.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encoding the commit: %w", err)
	}
	return s.SetEncodedObject(obj)
}
