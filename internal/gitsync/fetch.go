package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
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
	snap := &Snapshot{
		Commit:  b.head.Hash.String(),
		Message: strings.TrimSuffix(b.head.Message, "\n"),
		Author:  Signature{Name: b.head.Author.Name, Email: b.head.Author.Email, When: b.head.Author.When},
	}
	var files map[string][]byte
	var d *differ
	if b.base != nil {
		if d, err = changes(b.repo.Storer, b.base, b.head); err != nil {
			return nil, ep.fail(ctx, "fetch", nil, err)
		}
		snap.Base, snap.Changed, snap.Before = b.base.Hash.String(), d.paths, d.before
		if b.kept.files != nil {
			// The kept files with what changed: only those are read.
			if files, err = d.apply(b.kept.files, b.kept.fileBytes, l); err != nil {
				return nil, ep.fail(ctx, "fetch", nil, err)
			}
		}
	}
	if files == nil {
		if files, err = readFiles(b.repo, b.head, l); err != nil {
			return nil, ep.fail(ctx, "fetch", nil, err)
		}
	}
	// The caller may change its map, the one kept may not change.
	snap.Files = maps.Clone(files)
	if d != nil {
		r.Cache.keepChanged(cacheKey(ep), b.repo.Storer, b.kept, b.head, d, files)
	} else {
		r.Cache.keep(cacheKey(ep), b.repo.Storer, b.head, files)
	}
	return snap, nil
}

// changes lists the paths whose entries differ between the trees of base
// and head, and reads base's regular files at them. Only the trees that
// differ are read: the work follows the change, not the repository.
func changes(s storer.EncodedObjectStorer, base, head *object.Commit) (*differ, error) {
	d := &differ{s: s, before: map[string][]byte{}, after: map[string][]byte{}}
	if err := d.trees("", base.TreeHash, head.TreeHash); err != nil {
		return nil, err
	}
	slices.Sort(d.paths)
	d.paths = slices.Compact(d.paths)
	return d, nil
}

// differ compares two trees (changes): the paths whose entries differ,
// and the regular files at them before and after.
type differ struct {
	s             storer.EncodedObjectStorer
	paths         []string
	before, after map[string][]byte
	// added are the objects of the second tree where it differs (its
	// trees there, and the entries at the paths); dropped is the size of
	// the first tree's.
	added   []plumbing.Hash
	dropped int64
}

// apply returns files, the regular files of the first tree (of total
// bytes), as the second tree has them, after checking that they fit l.
func (d *differ) apply(files map[string][]byte, total int64, l Limits) (map[string][]byte, error) {
	out := maps.Clone(files)
	for _, p := range d.paths {
		total -= int64(len(out[p]))
		delete(out, p)
	}
	for p, data := range d.after {
		out[p] = data
		total += int64(len(data))
	}
	if len(out) > l.MaxFiles || total > l.MaxBytes {
		return nil, fmt.Errorf("%w: over %d files or %d bytes", ErrTooLarge, l.MaxFiles, l.MaxBytes)
	}
	return out, nil
}

// trees compares the trees from and to (ZeroHash for none) at dir.
func (d *differ) trees(dir string, from, to plumbing.Hash) error {
	if from == to {
		return nil
	}
	d.note(from, to)
	a, err := d.entries(from)
	if err != nil {
		return err
	}
	b, err := d.entries(to)
	if err != nil {
		return err
	}
	for name, ea := range a {
		eb, ok := b[name]
		if ok && ea.Mode == eb.Mode && ea.Hash == eb.Hash {
			continue
		}
		if !ok {
			eb = object.TreeEntry{}
		}
		if err := d.entry(join(dir, name), ea, eb); err != nil {
			return err
		}
	}
	for name, eb := range b {
		if _, ok := a[name]; !ok {
			if err := d.entry(join(dir, name), object.TreeEntry{}, eb); err != nil {
				return err
			}
		}
	}
	return nil
}

// entry records what differs between two entries at p (a zero entry for
// none): a directory is compared below, a file is a path changed.
func (d *differ) entry(p string, a, b object.TreeEntry) error {
	var from, to plumbing.Hash
	if a.Mode == filemode.Dir {
		from = a.Hash
	}
	if b.Mode == filemode.Dir {
		to = b.Hash
	}
	if !from.IsZero() || !to.IsZero() {
		if err := d.trees(p, from, to); err != nil {
			return err
		}
	}
	if a.Mode != filemode.Dir && a.Mode != filemode.Empty || b.Mode != filemode.Dir && b.Mode != filemode.Empty {
		d.paths = append(d.paths, p)
	}
	// A submodule's commit is another repository's: no object here.
	if a.Mode == filemode.Dir || a.Mode == filemode.Submodule {
		a.Hash = plumbing.ZeroHash
	}
	if b.Mode == filemode.Dir || b.Mode == filemode.Submodule {
		b.Hash = plumbing.ZeroHash
	}
	d.note(a.Hash, b.Hash)
	for _, side := range []struct {
		e     object.TreeEntry
		files map[string][]byte
	}{{a, d.before}, {b, d.after}} {
		if !regular(side.e.Mode) {
			continue
		}
		if err := checkPath(p); err != nil {
			return err
		}
		data, err := readBlob(d.s, side.e.Hash)
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		side.files[p] = data
	}
	return nil
}

// note counts the object from (ZeroHash for none) as dropped and to as
// added.
func (d *differ) note(from, to plumbing.Hash) {
	if !from.IsZero() {
		if n, err := d.s.EncodedObjectSize(from); err == nil {
			d.dropped += n
		}
	}
	if !to.IsZero() {
		d.added = append(d.added, to)
	}
}

// entries are the entries of the tree h by name; none for ZeroHash.
func (d *differ) entries(h plumbing.Hash) (map[string]object.TreeEntry, error) {
	out := map[string]object.TreeEntry{}
	if h.IsZero() {
		return out, nil
	}
	t, err := object.GetTree(d.s, h)
	if err != nil {
		return nil, fmt.Errorf("reading the tree: %w", err)
	}
	for _, e := range t.Entries {
		// What go-git's walk refuses (readFiles): a name is one segment.
		if e.Name == "" || strings.ContainsAny(e.Name, "/\x00") {
			return nil, fmt.Errorf("%w: a tree entry named %q", ErrInvalidPath, e.Name)
		}
		out[e.Name] = e
	}
	return out, nil
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// branch is a branch fetched at depth 1 into memory.
type branch struct {
	repo   *git.Repository
	remote *git.Remote
	head   *object.Commit // nil when the branch or the repository is empty
	// base is the kept commit the fetch started from, when the branch is
	// still there; nil otherwise. kept is what was kept of it.
	base *object.Commit
	kept *cached
}

// keep puts c in the branch's entry for commit: the kept one again when
// commit is the kept commit, else made from it when commit's parent is
// (what a push makes), else read whole.
func (b *branch) keep(c *Cache, key string, commit *object.Commit) {
	switch {
	case commit == nil:
	case b.kept != nil && commit.Hash == b.kept.head:
		c.reuse(key, b.kept)
	case b.kept != nil && b.head != nil && b.head.Hash == b.kept.head && commit.NumParents() == 1 && commit.ParentHashes[0] == b.kept.head:
		d, err := changes(b.repo.Storer, b.head, commit)
		if err != nil {
			return
		}
		c.keepChanged(key, b.repo.Storer, b.kept, commit, d, nil)
	default:
		c.keep(key, b.repo.Storer, commit, nil)
	}
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
		b.kept = kept
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

// readBlob reads the file hash names, into a slice of its size.
func readBlob(s storer.EncodedObjectStorer, hash plumbing.Hash) ([]byte, error) {
	o, err := s.EncodedObject(plumbing.BlobObject, hash)
	if err != nil {
		return nil, err
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data := make([]byte, o.Size())
	if _, err := io.ReadFull(rd, data); err != nil {
		return nil, err
	}
	return data, nil
}
