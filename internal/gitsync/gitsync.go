// Package gitsync moves a space's files to and from a branch of a Git
// repository. It knows Git and nothing of Bindery: Fetch reads a branch's
// head as a map of files, and Push makes one commit on a branch from such a
// map. Importing, exporting and merging are the caller's.
//
// # Transport
//
// Smart HTTP(S) is spoken with basic auth from the Remote or from the URL's
// userinfo, and SSH (ssh://[user@]host[:port]/path, or Git's
// user@host:path) with a private key (Remote.SSHKey) and the host keys to
// trust (Remote.KnownHosts, or the keys built in for github.com, gitlab.com
// and bitbucket.org; see ssh.go): a host that shows another key fails with
// ErrHostKey before the key signs in. Any other scheme (file://, git://)
// fails with ErrUnsupported; a local path in particular must never reach
// the server's own disk. The package never runs the git command. Loopback,
// private and other special-purpose addresses are refused at dial time,
// over HTTP(S) and SSH alike, unless the call's context allows them
// (WithPrivateAddresses; see transport.go).
//
// # Storage
//
// Everything happens in memory, without a working tree: Fetch and Push
// fetch the branch's head at depth 1, which is all a snapshot needs and
// enough to make a child commit. Limits bound both the packfile received
// and the files of the tree, so a large repository fails with ErrTooLarge
// rather than exhausting memory. With a Cache, the commit a branch was last
// seen at is kept between calls, and a call fetches only what is new since
// (see Cache).
package gitsync

import (
	"errors"
	"time"
)

// Remote names a branch of a repository. URL is http://, https:// or an
// SSH URL (ssh://[user@]host[:port]/path, or user@host:path; the user is
// "git" when none is given).
//
// Over HTTP(S), credentials may be in the URL's userinfo (as the official
// API allows) or in Username and Password, which win when set. They are
// stripped from the URL before use and never appear in an error.
//
// Over SSH, the remote signs in with SSHKey and trusts the host keys of
// KnownHosts; an SSH URL holds no password, and Username and Password are
// not used.
type Remote struct {
	URL      string
	Ref      string // the branch's name, e.g. "main" (or "refs/heads/main")
	Username string
	Password string
	// SSHKey is the private key an SSH remote signs in with, in PEM
	// (OpenSSH's format or PKCS#8, without a passphrase): a deploy key.
	SSHKey []byte
	// KnownHosts are the host keys an SSH remote may show, as OpenSSH
	// known_hosts lines (what ssh-keyscan prints): those naming the URL's
	// host (and port) are trusted. When empty, the keys github.com,
	// gitlab.com and bitbucket.org publish are trusted for those hosts,
	// and any other host fails with ErrKnownHosts.
	KnownHosts string
	// Cache, when not nil, keeps the branch's objects between calls, so
	// that a call fetches only what changed since the last one.
	Cache *Cache
}

// Signature is who made a commit, and when.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

// Limits bound a repository's size. A zero field takes its default.
type Limits struct {
	MaxFiles int   // files in the tree
	MaxBytes int64 // bytes of those files together
}

// Default limits: a large documentation site, far from a monorepo.
const (
	DefaultMaxFiles       = 20_000
	DefaultMaxBytes int64 = 200 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// Snapshot is a branch's head commit and its files.
type Snapshot struct {
	Commit  string // the head commit's hash
	Message string // without the trailing newline Git stores
	Author  Signature
	// Files holds every regular file of the commit's tree, by its path
	// with '/'. Symbolic links and submodules are left out: neither is a
	// page, and a link could point outside the repository. The map is
	// the caller's; the bytes may be a Cache's, and are not to be changed.
	Files map[string][]byte
	// Base is the commit a Cache kept of the branch, which the fetch
	// started from; "" when none was kept. Changed then lists the paths
	// whose entries differ between Base's tree and the head's (files
	// added, changed or removed, links and submodules too), sorted, and
	// Before holds the regular files Base had at those paths.
	Base    string
	Changed []string
	Before  map[string][]byte
}

// Errors a caller tells apart. The errors returned wrap one of them (when
// one applies) together with go-git's error.
var (
	// ErrAuth is credentials refused or missing: HTTP 401 or 403, or an
	// SSH key the host does not let in.
	ErrAuth = errors.New("gitsync: the remote refused the credentials, or needs some")
	// ErrHostKey is an SSH host that showed a key other than those trusted
	// for it: another server in its place, or a host that changed its
	// keys. The key did not sign in. The error is a *HostKeyError.
	ErrHostKey = errors.New("gitsync: the SSH host key is not one trusted for the host")
	// ErrKnownHosts is host keys an SSH remote cannot use: a line that does
	// not parse, or no key for the remote's host (and none built in).
	ErrKnownHosts = errors.New("gitsync: no SSH host key to trust")
	// ErrNotFound is no such repository, or (for Fetch) no such branch or
	// an empty repository.
	ErrNotFound = errors.New("gitsync: no such repository or branch")
	// ErrMoved is a branch that is not at the commit the caller last saw:
	// it fetches, merges and tries again.
	ErrMoved = errors.New("gitsync: the branch has moved")
	// ErrTooLarge is a repository beyond the Limits.
	ErrTooLarge = errors.New("gitsync: the repository exceeds the limits")
	// ErrUnsupported is a URL this package cannot use: a scheme other than
	// http(s) and ssh.
	ErrUnsupported = errors.New("gitsync: unsupported remote")
	// ErrInvalidPath is a path that could escape its directory or write
	// into .git: absolute, with "..", "." or empty segments, or with a
	// ".git" segment. From a repository or from the caller.
	ErrInvalidPath = errors.New("gitsync: invalid path")
)
