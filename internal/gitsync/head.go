package gitsync

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Normalize checks r as Fetch and Push would, and returns it with the
// credentials of its URL moved into Username and Password (those given
// there win) and Ref spelled refs/heads/<name>: the URL can then be kept
// and shown, and the credentials kept apart. An SSH remote's URL holds no
// credentials; its known hosts are checked and kept, its key is not
// needed here (nor returned).
func Normalize(r Remote) (Remote, error) {
	ep, err := parseRemote(r)
	if err != nil {
		return Remote{}, err
	}
	if ep.ssh {
		return Remote{URL: ep.url, Ref: ep.ref.String(), KnownHosts: strings.TrimSpace(r.KnownHosts)}, nil
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
	ep, release, err := open(ctx, r)
	if err != nil {
		return "", err
	}
	defer release()
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{ep.url}})
	refs, err := remote.ListContext(ctx, &git.ListOptions{Auth: ep.auth, ProxyOptions: ep.proxy})
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
