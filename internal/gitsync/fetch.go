package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
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
	b, err := fetchBranch(ctx, ep, l)
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
	return &Snapshot{
		Commit:  b.head.Hash.String(),
		Message: strings.TrimSuffix(b.head.Message, "\n"),
		Author:  Signature{Name: b.head.Author.Name, Email: b.head.Author.Email, When: b.head.Author.When},
		Files:   files,
	}, nil
}

// branch is a branch fetched at depth 1 into memory.
type branch struct {
	repo   *git.Repository
	remote *git.Remote
	head   *object.Commit // nil when the branch or the repository is empty
}

func fetchBranch(ctx context.Context, ep endpoint, l Limits) (*branch, error) {
	repo, err := git.Init(newLimitedStorage(l), nil)
	if err != nil {
		return nil, fmt.Errorf("gitsync: making a repository in memory: %w", err)
	}
	remote, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{ep.url}})
	if err != nil {
		return nil, fmt.Errorf("gitsync: adding the remote: %w", err)
	}
	b := &branch{repo: repo, remote: remote}
	err = remote.FetchContext(ctx, &git.FetchOptions{
		RefSpecs:     []config.RefSpec{config.RefSpec("+" + ep.ref + ":" + ep.ref)},
		Depth:        1,
		Auth:         ep.auth,
		Tags:         git.NoTags,
		ProxyOptions: ep.proxy,
	})
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.Is(err, transport.ErrEmptyRemoteRepository), errors.Is(err, git.NoMatchingRefSpecError{}):
		return b, nil
	default:
		return nil, ep.fail(ctx, "fetch", nil, err)
	}
	ref, err := repo.Reference(ep.ref, false)
	if err != nil {
		return nil, ep.fail(ctx, "fetch", nil, err)
	}
	if b.head, err = repo.CommitObject(ref.Hash()); err != nil {
		return nil, ep.fail(ctx, "fetch", nil, fmt.Errorf("reading the head commit: %w", err))
	}
	return b, nil
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
		switch entry.Mode {
		case filemode.Regular, filemode.Executable, filemode.Deprecated:
		default:
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
		blob, err := repo.BlobObject(f.hash)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f.path, err)
		}
		rd, err := blob.Reader()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f.path, err)
		}
		data, err := io.ReadAll(rd)
		rd.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f.path, err)
		}
		files[f.path] = data
	}
	return files, nil
}
