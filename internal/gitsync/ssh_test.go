package gitsync

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
)

// Over SSH, as over HTTP: a fetch reads what git pushed, a push makes a
// commit git reads, and the head is read without fetching.
func TestFetchAndPushOverSSH(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r, _ := s.sshBare(t, "site.git")
	head := s.commit("site.git", map[string]string{"README.md": "# Site\n", "guide/a.md": "a"}, "Start", "Ada <ada@example.com>", when)

	got, err := Head(local(t), r)
	require.NoError(t, err)
	assert.Equal(t, head, got)
	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, snap.Commit)
	assert.Equal(t, "Start", snap.Message)
	assert.Equal(t, map[string][]byte{"README.md": []byte("# Site\n"), "guide/a.md": []byte("a")}, snap.Files)

	pushed, err := Push(local(t), r, head, "guide", map[string][]byte{"a.md": []byte("a, over SSH")}, "Over SSH", bot, Limits{})
	require.NoError(t, err)
	repo := s.dir("site.git")
	assert.Equal(t, pushed, s.head("site.git"))
	assert.Equal(t, head+"\n", s.run(repo, "rev-parse", "main^"))
	assert.Equal(t, "a, over SSH", s.run(repo, "show", "main:guide/a.md"))
	assert.Equal(t, "Over SSH|Bindery Bot\n", s.run(repo, "log", "-1", "--format=%s|%an", "main"))
	s.run(repo, "fsck", "--strict", "--no-dangling")

	// A branch that moved is ErrMoved over SSH too.
	_, err = Push(local(t), r, head, "", map[string][]byte{"b.md": nil}, "Stale", bot, Limits{})
	assert.ErrorIs(t, err, ErrMoved)
	missing := r
	missing.URL = strings.Replace(r.URL, "/site.git", "/nowhere.git", 1)
	_, err = Fetch(local(t), missing, Limits{})
	assert.ErrorIs(t, err, ErrNotFound)
}

// An SSH URL whose host is an IPv6 address reaches it, and its key is
// checked against the known hosts' [address]:port: go-git spells the
// address it dials with the URL's brackets kept (dialedAddress).
func TestFetchAndPushOverSSHToAnIPv6Address(t *testing.T) {
	t.Parallel()
	if ln, err := net.Listen("tcp", "[::1]:0"); err != nil {
		t.Skip("no IPv6 loopback:", err)
	} else {
		ln.Close()
	}
	s := newGitServer(t)
	s.Bare("site.git")
	key, authorized := gitsynctest.NewSSHKey(t)
	x := s.ServeSSHAt("[::1]:0", authorized)
	require.True(t, strings.HasPrefix(x.URL("site.git"), "ssh://git@[::1]:"))
	r := Remote{URL: x.URL("site.git"), Ref: "main", SSHKey: key, KnownHosts: x.KnownHosts}
	head := s.commit("site.git", map[string]string{"README.md": "# Site\n"}, "Start", "Ada <ada@example.com>", when)

	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, snap.Commit)
	pushed, err := Push(local(t), r, head, "", map[string][]byte{"a.md": []byte("over IPv6")}, "Over IPv6", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, pushed, s.head("site.git"))

	_, other := gitsynctest.NewSSHKey(t)
	r.KnownHosts = strings.Fields(x.KnownHosts)[0] + " " + other
	_, err = Fetch(local(t), r, Limits{})
	assert.ErrorIs(t, err, ErrHostKey)
}

func TestDialedAddress(t *testing.T) {
	for in, want := range map[string]string{
		"[[::1]]:2222":        "[::1]:2222",
		"[[2001:db8::1]]:22":  "[2001:db8::1]:22",
		"[::1]:22":            "[::1]:22",
		"git.example.com:22":  "git.example.com:22",
		"127.0.0.1:2222":      "127.0.0.1:2222",
		"[[fe80::1%eth0]]:22": "[fe80::1%eth0]:22",
	} {
		assert.Equal(t, want, dialedAddress(in), in)
	}
}

// A key the host does not let in is ErrAuth, and no error shows the key.
func TestSSHWrongKeyIsErrAuth(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r, _ := s.sshBare(t, "site.git")
	head := s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)
	r.SSHKey, _ = gitsynctest.NewSSHKey(t)
	body := strings.Split(string(r.SSHKey), "\n")[1] // a line of the key's base64

	_, err := Fetch(local(t), r, Limits{})
	require.ErrorIs(t, err, ErrAuth)
	assert.NotContains(t, err.Error(), body)
	_, err = Head(local(t), r)
	require.ErrorIs(t, err, ErrAuth)
	_, err = Push(local(t), r, head, "", map[string][]byte{"a.md": []byte("two")}, "Two", bot, Limits{})
	require.ErrorIs(t, err, ErrAuth)
	assert.NotContains(t, err.Error(), body)
	assert.Equal(t, head, s.head("site.git"), "nothing pushed")

	r.SSHKey = nil
	_, err = Fetch(local(t), r, Limits{})
	assert.ErrorIs(t, err, ErrAuth, "no key")
}

// A host that shows a key other than the one pinned for it is ErrHostKey,
// with what it showed; the key never signs in, and nothing is pushed.
func TestSSHWrongHostKeyIsErrHostKey(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r, x := s.sshBare(t, "site.git")
	head := s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)
	_, other := gitsynctest.NewSSHKey(t)
	r.KnownHosts = "[127.0.0.1]:" + port(t, x.Addr) + " " + other

	_, err := Fetch(local(t), r, Limits{})
	require.ErrorIs(t, err, ErrHostKey)
	var hk *HostKeyError
	require.ErrorAs(t, err, &hk)
	assert.Equal(t, "[127.0.0.1]:"+port(t, x.Addr), hk.Host)
	assert.Equal(t, ssh.FingerprintSHA256(x.HostKey), hk.Fingerprint)
	assert.Contains(t, err.Error(), ssh.FingerprintSHA256(x.HostKey), "the message names what the host showed")
	_, err = Push(local(t), r, head, "", map[string][]byte{"a.md": []byte("two")}, "Two", bot, Limits{})
	require.ErrorIs(t, err, ErrHostKey)
	assert.Equal(t, head, s.head("site.git"), "nothing pushed")

	// The server's key pinned for another port of the host is no key for
	// this one.
	r.KnownHosts = strings.Replace(x.KnownHosts, "]:"+port(t, x.Addr), "]:1", 1)
	_, err = Fetch(local(t), r, Limits{})
	assert.ErrorIs(t, err, ErrKnownHosts)
}

// Loopback is refused over SSH as over HTTP, at dial time, unless the
// context allows it.
func TestSSHPrivateAddressesNeedConsent(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r, _ := s.sshBare(t, "site.git")
	s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)
	_, err := Fetch(t.Context(), r, Limits{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a permitted destination")
	_, err = Head(t.Context(), r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a permitted destination")
	_, err = Fetch(local(t), r, Limits{})
	assert.NoError(t, err)
}

// A host that accepts the connection and never speaks holds a call no
// longer than its context: go-git's SSH handshake has no deadline of its
// own.
func TestSSHStuckHostEndsWithTheContext(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
		}
	}()
	key, authorized := gitsynctest.NewSSHKey(t)
	r := Remote{URL: "ssh://git@" + ln.Addr().String() + "/site.git", Ref: "main", SSHKey: key,
		KnownHosts: "[127.0.0.1]:" + port(t, ln.Addr().String()) + " " + authorized}
	ctx, cancel := context.WithTimeout(local(t), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Fetch(ctx, r, Limits{})
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	assert.Less(t, time.Since(start), 5*time.Second)
}

func port(t *testing.T, addr string) string {
	_, p, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	return p
}
