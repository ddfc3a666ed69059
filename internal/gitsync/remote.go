package gitsync

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// endpoint is a Remote made ready for go-git: the URL without
// credentials, the auth method, and what to keep out of error messages.
type endpoint struct {
	url     string
	shown   string // url without its query, for messages
	ref     plumbing.ReferenceName
	auth    transport.AuthMethod // nil when anonymous
	secrets []string
	ssh     bool
	// proxy makes go-git's SSH transport dial through the call's dialer
	// (open, transport.go); empty over HTTP(S).
	proxy transport.ProxyOptions
}

func parseRemote(r Remote) (endpoint, error) {
	var ep endpoint
	name := strings.TrimPrefix(r.Ref, "refs/heads/")
	ep.ref = plumbing.NewBranchReferenceName(name)
	if name == "" || ep.ref.Validate() != nil {
		return ep, fmt.Errorf("gitsync: %q is not a branch name", r.Ref)
	}
	if IsSSH(r.URL) {
		return parseSSH(r, ep)
	}
	// url.Parse's error quotes the URL, credentials and all: it is not
	// passed on.
	u, err := url.Parse(r.URL)
	if err != nil || u.Scheme == "" {
		return ep, errors.New("gitsync: the remote URL is not an http(s) or SSH URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return ep, fmt.Errorf("%w: %s:// URLs; use http(s):// or ssh://", ErrUnsupported, u.Scheme)
	}
	if u.Host == "" {
		return ep, errors.New("gitsync: the remote URL has no host")
	}

	username := u.User.Username()
	password, _ := u.User.Password()
	if r.Username != "" || r.Password != "" {
		username, password = r.Username, r.Password
	}
	if u.User != nil {
		ep.secrets = append(ep.secrets, u.User.String())
	}
	u.User = nil
	if username != "" || password != "" {
		ep.auth = &githttp.BasicAuth{Username: username, Password: password}
	}
	if password != "" {
		ep.secrets = append(ep.secrets, password)
	} else if username != "" {
		// A username alone is often a token (https://TOKEN@host/...).
		ep.secrets = append(ep.secrets, username)
	}
	ep.url = u.String()
	u.RawQuery, u.Fragment = "", ""
	ep.shown = u.String()
	return ep, nil
}

// open is parseRemote for a call on the remote: over SSH, it needs the
// private key, and it gives the call its own dialer, bound to ctx (see
// sshCall); release ends it, once the call is over.
func open(ctx context.Context, r Remote) (ep endpoint, release func(), err error) {
	if ep, err = parseRemote(r); err != nil {
		return ep, nil, err
	}
	if !ep.ssh {
		return ep, func() {}, nil
	}
	if ep.auth == nil {
		return ep, nil, ep.fail(ctx, "reach", ErrAuth, errors.New("an SSH remote needs a private key"))
	}
	ep.proxy, release = sshCall(ctx)
	return ep, release, nil
}

// gitError is a failure of an operation on a remote. Its message is
// redacted; it unwraps to the kind (ErrAuth, ...) and to go-git's error.
type gitError struct {
	msg   string
	kind  error
	cause error
}

func (e *gitError) Error() string { return e.msg }

func (e *gitError) Unwrap() []error {
	var errs []error
	for _, err := range []error{e.kind, e.cause} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// fail wraps err from op on the branch. kind is the error the caller tells
// apart; when nil, fail finds it from go-git's error.
func (ep endpoint) fail(ctx context.Context, op string, kind, err error) error {
	if kind == nil {
		kind = classify(ctx, err)
	}
	var parts []string
	if kind != nil && (err == nil || !errors.Is(err, kind)) {
		parts = append(parts, kind.Error())
	}
	if err != nil {
		parts = append(parts, strings.TrimSpace(err.Error()))
	}
	// One "gitsync:" at the front, not one for every error wrapped.
	tail := strings.ReplaceAll(strings.Join(parts, ": "), "gitsync: ", "")
	msg := fmt.Sprintf("gitsync: %s %s (branch %s): %s", op, ep.shown, ep.ref.Short(), tail)
	for _, s := range ep.secrets {
		msg = strings.ReplaceAll(msg, s, "***")
	}
	return &gitError{msg: msg, kind: kind, cause: err}
}

func classify(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		// go-git does not always wrap the context's error.
		return ctx.Err()
	case errors.Is(err, ErrHostKey):
		return ErrHostKey
	case errors.Is(err, transport.ErrAuthenticationRequired),
		errors.Is(err, transport.ErrAuthorizationFailed),
		errors.Is(err, transport.ErrInvalidAuthMethod),
		sshRefused(err):
		return ErrAuth
	case errors.Is(err, transport.ErrRepositoryNotFound),
		errors.Is(err, plumbing.ErrReferenceNotFound):
		return ErrNotFound
	case errors.Is(err, ErrTooLarge):
		return ErrTooLarge
	}
	return nil
}

// sshRefused reports whether err is an SSH host refusing the key:
// golang.org/x/crypto/ssh says so in words only, after the host key was
// accepted.
func sshRefused(err error) bool {
	return err != nil && strings.Contains(err.Error(), "ssh: unable to authenticate")
}
