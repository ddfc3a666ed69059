package gitsync

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// SSH: a Remote signs in with its private key (a deploy key), and trusts
// only the host keys its KnownHosts pin for the URL's host and port, or
// those built in for github.com, gitlab.com and bitbucket.org. Nothing of
// the server's own SSH configuration takes part: neither ~/.ssh/known_hosts
// nor an agent nor ~/.ssh/config (see transport.go).

// schemeOf matches a URL's scheme.
var schemeOf = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://`)

// sshSchemes are the schemes Git reads as SSH.
var sshSchemes = map[string]bool{"ssh": true, "git+ssh": true, "ssh+git": true}

// IsSSH reports whether a remote URL is SSH: ssh:// (or git+ssh://,
// ssh+git://), or Git's scp-like [user@]host:path as go-git reads it.
func IsSSH(rawURL string) bool {
	if m := schemeOf.FindStringSubmatch(rawURL); m != nil {
		return sshSchemes[strings.ToLower(m[1])]
	}
	e, err := transport.NewEndpoint(rawURL)
	return err == nil && e.Protocol == "ssh"
}

// RepoPath is the path of a repository's URL, without its host: for an
// scp-like SSH URL, what follows the colon.
func RepoPath(rawURL string) string {
	if IsSSH(rawURL) {
		if e, err := transport.NewEndpoint(sshURL(rawURL)); err == nil {
			return e.Path
		}
	}
	if u, err := url.Parse(rawURL); err == nil {
		return u.Path
	}
	return rawURL
}

// sshURL spells an SSH URL as go-git reads it: ssh:// for the other
// schemes Git accepts.
func sshURL(rawURL string) string {
	if m := schemeOf.FindStringSubmatch(rawURL); m != nil {
		return "ssh://" + rawURL[len(m[0]):]
	}
	return rawURL
}

// scpBracketed matches an scp-like SSH URL whose host is in brackets.
var scpBracketed = regexp.MustCompile(`^(?:[^@/]+@)?\[`)

var errSSHPassword = errors.New("gitsync: an SSH URL holds no password: over SSH, Bindery signs in with the space's deploy key")

// parseSSH fills ep for an SSH remote. The private key is optional here,
// so that a URL and its known hosts can be checked before the key is at
// hand (Normalize); a call without one fails (open).
func parseSSH(r Remote, ep endpoint) (endpoint, error) {
	raw := sshURL(r.URL)
	if !strings.Contains(raw, "://") && scpBracketed.MatchString(raw) {
		// go-git reads the host of user@[2001:db8::1]:path as "[2001".
		return ep, errors.New("gitsync: an IPv6 address needs the ssh:// form of the URL: ssh://git@[2001:db8::1]/owner/docs.git")
	}
	if strings.Contains(raw, "://") {
		// url.Parse's error quotes the URL: it is not passed on.
		u, err := url.Parse(raw)
		if err != nil {
			return ep, errors.New("gitsync: the SSH URL cannot be read")
		}
		if _, ok := u.User.Password(); ok {
			return ep, errSSHPassword
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return ep, errors.New("gitsync: an SSH URL has no query or fragment")
		}
	}
	e, err := transport.NewEndpoint(raw)
	switch {
	case err != nil || e.Protocol != "ssh":
		return ep, errors.New("gitsync: the SSH URL cannot be read")
	case e.Password != "" || strings.Contains(e.User, ":"):
		return ep, errSSHPassword
	case e.Host == "":
		return ep, errors.New("gitsync: the remote URL has no host")
	case strings.Trim(e.Path, "/") == "":
		return ep, errors.New("gitsync: the SSH URL names no repository")
	case r.Username != "" || r.Password != "":
		return ep, errors.New("gitsync: a username and password are not used over SSH: the remote signs in with its key")
	}
	port := e.Port
	if port <= 0 {
		port = gitssh.DefaultPort
	}
	// The address go-git dials, as known_hosts names it: host, or
	// [host]:port.
	host := knownhosts.Normalize(net.JoinHostPort(strings.Trim(e.Host, "[]"), strconv.Itoa(port)))
	keys, err := trustedKeys(r.KnownHosts, host)
	if err != nil {
		return ep, err
	}
	ep.ssh, ep.url, ep.shown = true, raw, raw
	if len(r.SSHKey) == 0 {
		return ep, nil
	}
	signer, err := ssh.ParsePrivateKey(r.SSHKey)
	if err != nil {
		// The parser's error is not passed on: it could quote the key.
		return ep, errors.New("gitsync: the SSH private key cannot be read (it must be a PEM key without a passphrase)")
	}
	user := e.User
	if user == "" {
		user = gitssh.DefaultUsername
	}
	ep.auth = &gitssh.PublicKeys{User: user, Signer: signer, HostKeyCallbackHelper: gitssh.HostKeyCallbackHelper{
		HostKeyCallback:   pinned(host, keys),
		HostKeyAlgorithms: hostKeyAlgorithms(keys),
	}}
	return ep, nil
}

// trustedKeys returns the keys the known hosts give for host (host or
// [host]:port, as known_hosts names it); the built-in ones when the text
// is empty. Names are compared as written, so a hashed name or a pattern
// matches nothing: an SSH remote trusts the keys named for its host and no
// others.
func trustedKeys(text, host string) ([]ssh.PublicKey, error) {
	given := strings.TrimSpace(text) != ""
	if !given {
		text = builtInKnownHosts
	}
	var keys []ssh.PublicKey
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		marker, hosts, key, _, _, err := ssh.ParseKnownHosts([]byte(line))
		if errors.Is(err, io.EOF) {
			err = errors.New("not hosts, a key type and a key")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: line %d of the known hosts cannot be read: %v", ErrKnownHosts, i+1, err)
		}
		if marker != "" {
			return nil, fmt.Errorf("%w: line %d: @%s lines are not supported", ErrKnownHosts, i+1, marker)
		}
		for _, h := range hosts {
			if strings.EqualFold(knownhosts.Normalize(h), host) {
				keys = append(keys, key)
				break
			}
		}
	}
	if len(keys) > 0 {
		return keys, nil
	}
	scan := "ssh-keyscan " + host
	if h, port, err := net.SplitHostPort(host); err == nil {
		scan = "ssh-keyscan -p " + port + " " + h
	}
	if !given {
		return nil, fmt.Errorf("%w: no host key is built in for %s: give its known hosts, the lines `%s` prints", ErrKnownHosts, host, scan)
	}
	return nil, fmt.Errorf("%w: the known hosts have no key for %s: give the lines `%s` prints (hashed names and patterns are not matched)",
		ErrKnownHosts, host, scan)
}

// pinned is the host key callback of host: the key shown must be one of
// keys, compared whole (ssh.FixedHostKey compares the keys' wire forms).
func pinned(host string, keys []ssh.PublicKey) ssh.HostKeyCallback {
	return func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		// The address dialed is the URL's: the server's ~/.ssh/config
		// cannot send it elsewhere (transport.go), but a key is only
		// ever checked against its own host's.
		if strings.EqualFold(knownhosts.Normalize(dialedAddress(hostname)), host) {
			for _, k := range keys {
				if ssh.FixedHostKey(k)(hostname, remote, key) == nil {
					return nil
				}
			}
		}
		return &HostKeyError{Host: host, KeyType: key.Type(), Fingerprint: ssh.FingerprintSHA256(key)}
	}
}

// hostKeyAlgorithms are the host key algorithms the client offers: those
// of the trusted keys only, so that a host with keys of several types
// shows one that can be checked rather than one that was not pinned. An
// RSA key signs with SHA-2 (RFC 8332).
func hostKeyAlgorithms(keys []ssh.PublicKey) []string {
	var out []string
	for _, k := range keys {
		algos := []string{k.Type()}
		if k.Type() == ssh.KeyAlgoRSA {
			algos = []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256}
		}
		for _, a := range algos {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// HostKeyError is ErrHostKey with what the host showed. A host key's
// fingerprint is no secret: it is what ssh prints, to compare with the
// ones the host publishes.
type HostKeyError struct {
	Host        string // host, or [host]:port, as known_hosts names it
	KeyType     string // such as ssh-ed25519
	Fingerprint string // SHA256:…, as ssh-keygen -l prints it
}

func (e *HostKeyError) Error() string {
	return fmt.Sprintf("gitsync: %s showed the SSH host key %s %s, which is not one trusted for it", e.Host, e.KeyType, e.Fingerprint)
}

// Is makes a HostKeyError ErrHostKey.
func (e *HostKeyError) Is(target error) bool { return target == ErrHostKey }

// builtInKnownHosts are the host keys github.com, gitlab.com and
// bitbucket.org publish, trusted for those hosts when a Remote gives none.
// Each matches the SHA-256 fingerprint its host publishes beside it
// (TestBuiltInKnownHosts):
//
//   - github.com: docs.github.com, "GitHub's SSH key fingerprints"
//     (authentication/keeping-your-account-and-data-secure/githubs-ssh-key-fingerprints);
//   - gitlab.com: docs.gitlab.com, "GitLab.com settings", SSH known_hosts
//     entries (user/gitlab_com);
//   - bitbucket.org: bitbucket.org/blog/ssh-host-key-changes, its ECDSA and
//     Ed25519 keys. Its RSA key (served at bitbucket.org/site/ssh) has no
//     published fingerprint to check it against, so it is left out: the
//     client offers only the algorithms of the trusted keys
//     (hostKeyAlgorithms), and the host shows one of the other two.
const builtInKnownHosts = `
github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl
github.com ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg=
github.com ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQCj7ndNxQowgcQnjshcLrqPEiiphnt+VTTvDP6mHBL9j1aNUkY4Ue1gvwnGLVlOhGeYrnZaMgRK6+PKCUXaDbC7qtbW8gIkhL7aGCsOr/C56SJMy/BCZfxd1nWzAOxSDPgVsmerOBYfNqltV9/hWCqBywINIR+5dIg6JTJ72pcEpEjcYgXkE2YEFXV1JHnsKgbLWNlhScqb2UmyRkQyytRLtL+38TGxkxCflmO+5Z8CSSNY7GidjMIZ7Q4zMjA2n1nGrlTDkzwDCsw+wqFPGQA179cnfGWOWRVruj16z6XyvxvjJwbz0wQZ75XK5tKSb7FNyeIEs4TT4jk+S4dhPeAUC5y+bDYirYgM4GC7uEnztnZyaVWQ7B381AK4Qdrwt51ZqExKbQpTUNn+EjqoTwvqNj4kqx5QUCI0ThS/YkOxJCXmPUWZbhjpCg56i+2aB6CmK2JGhn57K5mj0MNdBXA4/WnwH6XoPWJzK5Nyu2zB3nAZp+S5hpQs+p1vN1/wsjk=
gitlab.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAfuCHKVTjquxvt6CM6tdG4SLp1Btn/nOeHHE5UOzRdf
gitlab.com ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBFSMqzJeV9rUzU4kWitGjeR4PWSa29SPqJ1fVkhtj3Hw9xjLVXVYrU9QlYWrOLXBpQ6KWjbjTDTdDkoohFzgbEY=
gitlab.com ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCsj2bNKTBSpIYDEGk9KxsGh3mySTRgMtXL583qmBpzeQ+jqCMRgBqB98u3z++J1sKlXHWfM9dyhSevkMwSbhoR8XIq/U0tCNyokEi/ueaBMCvbcTHhO7FcwzY92WK4Yt0aGROY5qX2UKSeOvuP4D6TPqKF1onrSzH9bx9XUf2lEdWT/ia1NEKjunUqu1xOB/StKDHMoX4/OKyIzuS0q/T1zOATthvasJFoPrAjkohTyaDUz2LN5JoH839hViyEG82yB+MjcFV5MU3N1l1QL3cVUCh93xSaua1N85qivl+siMkPGbO5xR/En4iEY6K2XPASUEMaieWVNTRCtJ4S8H+9
bitbucket.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIazEu89wgQZ4bqs3d63QSMzYVa0MuJ2e2gKTKqu+UUO
bitbucket.org ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBPIQmuzMBuKdWeF4+a2sjSSpBK0iqitSQ+5BM9KhpexuGt20JpTVM7u5BDZngncgrqDMbWdxMWWOGtZ9UgbqgZE=
`
