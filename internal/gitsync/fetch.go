package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Fetch reads the head commit of r's branch and its files. An empty
// repository, like a missing branch, is ErrNotFound.
func Fetch(ctx context.Context, r Remote, l Limits) (*Snapshot, error) {
	ep, release, err := open(ctx, r)
	if err != nil {
		return nil, err
	}
	defer release()
	l = l.withDefaults()
	b, err := fetchBranch(ctx, ep, l, r.Cache)
	if err != nil {
		return nil, err
	}
	if b.head == nil {
		return nil, ep.fail(ctx, "fetch", ErrNotFound, nil)
	}
	files, err := readFiles(b.repo, b.head, l)
	if err != nil {
		return nil, ep.fail(ctx, "fetch", nil, err)
	}
	snap := &Snapshot{
		Commit:  b.head.Hash.String(),
		Message: strings.TrimSuffix(b.head.Message, "\n"),
		Author:  Signature{Name: b.head.Author.Name, Email: b.head.Author.Email, When: b.head.Author.When},
		Files:   files,
	}
	if b.base != nil {
		if snap.Changed, snap.Before, err = changes(ctx, b.repo.Storer, b.base, b.head); err != nil {
			return nil, ep.fail(ctx, "fetch", nil, err)
		}
		snap.Base = b.base.Hash.String()
	}
	r.Cache.keep(cacheKey(ep), b.repo.Storer, b.head)
	return snap, nil
}

// changes lists the paths whose entries differ between the trees of base
// and head, and reads base's regular files at them. Only the subtrees that
// differ are read.
func changes(ctx context.Context, s storer.EncodedObjectStorer, base, head *object.Commit) ([]string, map[string][]byte, error) {
	before := map[string][]byte{}
	if base.TreeHash == head.TreeHash {
		return nil, before, nil
	}
	from, err := base.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the tree: %w", err)
	}
	to, err := head.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the tree: %w", err)
	}
	diff, err := object.DiffTreeWithOptions(ctx, from, to, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("comparing the trees: %w", err)
	}
	var paths []string
	for _, c := range diff {
		for _, name := range []string{c.From.Name, c.To.Name} {
			if name != "" {
				paths = append(paths, name)
			}
		}
		if c.From.Name == "" || !regular(c.From.TreeEntry.Mode) {
			continue
		}
		if err := checkPath(c.From.Name); err != nil {
			return nil, nil, err
		}
		data, err := readBlob(s, c.From.TreeEntry.Hash)
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", c.From.Name, err)
		}
		before[c.From.Name] = data
	}
	slices.Sort(paths)
	return slices.Compact(paths), before, nil
}

// branch is a branch fetched at depth 1 into memory.
type branch struct {
	repo   *git.Repository
	remote *git.Remote
	head   *object.Commit // nil when the branch or the repository is empty
	// base is the kept commit the fetch started from, when the branch is
	// still there; nil otherwise.
	base *object.Commit
}

// fetchBranch fetches the branch's head at depth 1, starting from what
// cache keeps of it: then only the objects that are not kept come.
func fetchBranch(ctx context.Context, ep endpoint, l Limits, cache *Cache) (*branch, error) {
	kept := cache.take(cacheKey(ep))
	b, err := newBranch(ep, l, kept)
	if err != nil {
		return nil, err
	}
	err = b.remote.FetchContext(ctx, &git.FetchOptions{
		RefSpecs:     []config.RefSpec{config.RefSpec("+" + ep.ref + ":" + ep.ref)},
		Depth:        1,
		Auth:         ep.auth,
		Tags:         git.NoTags,
		ProxyOptions: ep.proxy,
	})
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.Is(err, transport.ErrEmptyRemoteRepository), errors.Is(err, git.NoMatchingRefSpecError{}):
		if kept == nil {
			return b, nil
		}
		// No branch: what was kept of it is not the remote's to rely on,
		// and a push must send every object.
		return newBranch(ep, l, nil)
	default:
		return nil, ep.fail(ctx, "fetch", nil, err)
	}
	ref, err := b.repo.Reference(ep.ref, false)
	if err != nil {
		return nil, ep.fail(ctx, "fetch", nil, err)
	}
	if b.head, err = b.repo.CommitObject(ref.Hash()); err != nil {
		return nil, ep.fail(ctx, "fetch", nil, fmt.Errorf("reading the head commit: %w", err))
	}
	if kept != nil {
		if b.base, err = b.repo.CommitObject(kept.head); err != nil {
			return nil, fmt.Errorf("gitsync: reading the kept commit: %w", err)
		}
	}
	// The head is all the remote surely holds: a push must not count on
	// the commit that was kept, which a force push may have dropped.
	if err := b.repo.Storer.SetShallow([]plumbing.Hash{b.head.Hash}); err != nil {
		return nil, fmt.Errorf("gitsync: setting the shallow boundary: %w", err)
	}
	return b, nil
}

// newBranch is an empty repository in memory with the branch's remote,
// holding what was kept of the branch (when not nil).
func newBranch(ep endpoint, l Limits, kept *cached) (*branch, error) {
	s := newLimitedStorage(l)
	if kept != nil {
		if err := kept.seed(s, ep.ref); err != nil {
			return nil, fmt.Errorf("gitsync: seeding the repository in memory: %w", err)
		}
	}
	repo, err := git.Init(s, nil)
	if err != nil {
		return nil, fmt.Errorf("gitsync: making a repository in memory: %w", err)
	}
	remote, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{ep.url}})
	if err != nil {
		return nil, fmt.Errorf("gitsync: adding the remote: %w", err)
	}
	return &branch{repo: repo, remote: remote}, nil
}

// readFiles returns the regular files of c's tree, after checking that
// they fit l. Symbolic links and submodules are skipped (see Snapshot).
func readFiles(repo *git.Repository, c *object.Commit, l Limits) (map[string][]byte, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading the tree: %w", err)
	}
	type file struct {
		path string
		hash plumbing.Hash
	}
	var (
		found []file
		total int64
	)
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		name, entry, err := walker.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && entry.Name != "" {
			// go-git checks each name as it walks, as checkPath does.
			return nil, fmt.Errorf("%w: %v", ErrInvalidPath, err)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the tree: %w", err)
		}
		if !regular(entry.Mode) {
			continue
		}
		if err := checkPath(name); err != nil {
			return nil, err
		}
		size, err := repo.Storer.EncodedObjectSize(entry.Hash)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		total += size
		found = append(found, file{name, entry.Hash})
		if len(found) > l.MaxFiles || total > l.MaxBytes {
			return nil, fmt.Errorf("%w: over %d files or %d bytes", ErrTooLarge, l.MaxFiles, l.MaxBytes)
		}
	}
	files := make(map[string][]byte, len(found))
	for _, f := range found {
		data, err := readBlob(repo.Storer, f.hash)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f.path, err)
		}
		files[f.path] = data
	}
	return files, nil
}

// regular reports whether a tree entry of mode m is a file (not a link, a
// submodule or a directory).
func regular(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// readBlob reads the file hash names.
func readBlob(s storer.EncodedObjectStorer, hash plumbing.Hash) ([]byte, error) {
	blob, err := object.GetBlob(s, hash)
	if err != nil {
		return nil, err
	}
	rd, err := blob.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}
