package gitsync

import (
	"context"
	"errors"
	"net/url"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Normalize checks r as Fetch and Push would, and returns it with the
// credentials of its URL moved into Username and Password (those given
// there win) and Ref spelled refs/heads/<name>: the URL can then be kept
// and shown, and the credentials kept apart.
func Normalize(r Remote) (Remote, error) {
	ep, err := parseRemote(r)
	if err != nil {
		return Remote{}, err
	}
	out := Remote{URL: ep.url, Ref: ep.ref.String(), Username: r.Username, Password: r.Password}
	if out.Username == "" && out.Password == "" {
		if u, err := url.Parse(r.URL); err == nil && u.User != nil {
			out.Username = u.User.Username()
			out.Password, _ = u.User.Password()
		}
	}
	return out, nil
}

// Head returns the commit r's branch points at, without fetching it: ""
// when the branch does not exist or the repository is empty.
func Head(ctx context.Context, r Remote) (string, error) {
	ep, err := parseRemote(r)
	if err != nil {
		return "", err
	}
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{ep.url}})
	refs, err := remote.ListContext(ctx, &git.ListOptions{Auth: ep.auth})
	switch {
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return "", nil
	case err != nil:
		return "", ep.fail(ctx, "read the head of", nil, err)
	}
	for _, ref := range refs {
		if ref.Name() == ep.ref {
			return ref.Hash().String(), nil
		}
	}
	return "", nil
}
