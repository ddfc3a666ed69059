package gitsync

import (
	"net"
	"strings"
	"testing"

	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
)

func TestParseRemote(t *testing.T) {
	t.Parallel()
	ep, err := parseRemote(Remote{URL: "https://tok%40en:s3cret@example.com/org/repo.git?x=1", Ref: "refs/heads/main"})
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/org/repo.git?x=1", ep.url, "credentials stripped")
	assert.Equal(t, "https://example.com/org/repo.git", ep.shown)
	assert.Equal(t, "refs/heads/main", ep.ref.String())
	assert.Contains(t, ep.auth.String(), "tok@en")

	ep, err = parseRemote(Remote{URL: "https://a:b@example.com/r.git", Ref: "main", Username: "c", Password: "d"})
	require.NoError(t, err)
	assert.Contains(t, ep.auth.String(), "c:", "the fields win")

	for _, url := range []string{"file:///etc", "git://example.com/r.git"} {
		_, err := parseRemote(Remote{URL: url, Ref: "main"})
		assert.ErrorIs(t, err, ErrUnsupported, url)
	}
	for _, url := range []string{"", "/srv/repo.git", "https:///r.git"} {
		_, err := parseRemote(Remote{URL: url, Ref: "main"})
		assert.Error(t, err, url)
	}
	for _, ref := range []string{"", "a..b", "refs/heads/"} {
		_, err := parseRemote(Remote{URL: "https://example.com/r.git", Ref: ref})
		assert.Error(t, err, ref)
	}
}

func TestFailRedacts(t *testing.T) {
	t.Parallel()
	ep, err := parseRemote(Remote{URL: "https://TOKEN123@example.com/r.git", Ref: "main"})
	require.NoError(t, err)
	err = ep.fail(t.Context(), "fetch", nil, assert.AnError)
	assert.NotContains(t, ep.fail(t.Context(), "fetch", ErrAuth, errorString("refused TOKEN123")).Error(), "TOKEN123")
	assert.ErrorIs(t, err, assert.AnError)
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestIsSSH(t *testing.T) {
	t.Parallel()
	for url, want := range map[string]bool{
		"git@github.com:acme/docs.git":           true,
		"github.com:acme/docs.git":               true,
		"ssh://git@github.com/acme/docs.git":     true,
		"SSH://git@github.com/acme/docs.git":     true,
		"git+ssh://git@github.com/acme/docs.git": true,
		"ssh+git://github.com/acme/docs.git":     true,
		"https://github.com/acme/docs.git":       false,
		"file:///srv/docs.git":                   false,
		"/srv/docs.git":                          false,
		"./docs:x":                               false,
	} {
		assert.Equal(t, want, IsSSH(url), url)
	}
	assert.Equal(t, "acme/docs.git", RepoPath("git@github.com:acme/docs.git"))
	assert.Equal(t, "/acme/docs.git", RepoPath("ssh://git@github.com:2222/acme/docs.git"))
	assert.Equal(t, "/acme/docs.git", RepoPath("https://github.com/acme/docs.git"))
}

func TestParseSSHRemote(t *testing.T) {
	t.Parallel()
	key, authorized := gitsynctest.NewSSHKey(t)
	_, other := gitsynctest.NewSSHKey(t)

	// github.com's keys are built in; the user is git unless the URL says.
	ep, err := parseRemote(Remote{URL: "git@github.com:acme/docs.git", Ref: "main", SSHKey: key})
	require.NoError(t, err)
	assert.True(t, ep.ssh)
	assert.Equal(t, "git@github.com:acme/docs.git", ep.url)
	auth := ep.auth.(*gitssh.PublicKeys)
	assert.Equal(t, "git", auth.User)
	assert.Equal(t, []string{ssh.KeyAlgoED25519, ssh.KeyAlgoECDSA256, ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256},
		auth.HostKeyAlgorithms, "the algorithms of the pinned keys, RSA with SHA-2")
	ep, err = parseRemote(Remote{URL: "git+ssh://github.com/acme/docs.git", Ref: "main"})
	require.NoError(t, err)
	assert.Equal(t, "ssh://github.com/acme/docs.git", ep.url, "go-git reads ssh://")
	assert.Nil(t, ep.auth, "no key yet")

	// Another host needs its known hosts, for its port.
	const url = "ssh://deploy@git.example.com:2222/srv/docs.git"
	ep, err = parseRemote(Remote{URL: url, Ref: "main", SSHKey: key, KnownHosts: "# from ssh-keyscan\n\n[git.example.com]:2222 " + authorized + "\n"})
	require.NoError(t, err)
	assert.Equal(t, "deploy", ep.auth.(*gitssh.PublicKeys).User)
	norm, err := Normalize(Remote{URL: url, Ref: "main", KnownHosts: " [git.example.com]:2222 " + authorized + "\n"})
	require.NoError(t, err)
	assert.Equal(t, Remote{URL: url, Ref: "refs/heads/main", KnownHosts: "[git.example.com]:2222 " + authorized}, norm)

	for name, c := range map[string]struct{ url, knownHosts, want string }{
		"no known hosts":     {url, "", "no host key is built in for [git.example.com]:2222: give its known hosts, the lines `ssh-keyscan -p 2222 git.example.com` prints"},
		"another port":       {url, "git.example.com " + authorized, "the known hosts have no key for [git.example.com]:2222"},
		"another host":       {url, "[gitlab.example.com]:2222 " + authorized, "no key for [git.example.com]:2222"},
		"hashed":             {url, "|1|F1E1KeoE/eEWhi10WpGv4OdiO6Y=|3988QV0VE8wmZL7suNrYQLITLCg= " + authorized, "hashed names and patterns are not matched"},
		"pattern":            {url, "*.example.com " + authorized, "no key for [git.example.com]:2222"},
		"a marker":           {url, "@cert-authority [git.example.com]:2222 " + authorized, "line 1: @cert-authority lines are not supported"},
		"a line that breaks": {url, "[git.example.com]:2222 " + authorized + "\nnot a line", "line 2 of the known hosts cannot be read"},
		"a host of no port":  {"git@git.example.com:docs.git", "[git.example.com]:2222 " + authorized, "no key for git.example.com:"},
	} {
		_, err := parseRemote(Remote{URL: c.url, Ref: "main", KnownHosts: c.knownHosts})
		require.ErrorIs(t, err, ErrKnownHosts, name)
		assert.Contains(t, err.Error(), c.want, name)
	}
	assert.Contains(t, func() string {
		_, err := parseRemote(Remote{URL: "git@git.example.com:docs.git", Ref: "main", KnownHosts: "git.example.org " + other})
		return err.Error()
	}(), "ssh-keyscan git.example.com", "port 22 is the host alone")

	for name, r := range map[string]Remote{
		"a password":          {URL: "ssh://git:hunter2@github.com/acme/docs.git", Ref: "main"},
		"a password, scp":     {URL: "git:hunter2@github.com:acme/docs.git", Ref: "main"},
		"no path":             {URL: "ssh://git@github.com/", Ref: "main"},
		"a query":             {URL: "ssh://git@github.com/acme/docs.git?hunter2", Ref: "main"},
		"a username":          {URL: "ssh://git@github.com/acme/docs.git", Ref: "main", Username: "git", Password: "hunter2"},
		"a key that is not":   {URL: "ssh://git@github.com/acme/docs.git", Ref: "main", SSHKey: []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nhunter2\n-----END OPENSSH PRIVATE KEY-----\n")},
		"a bad branch name":   {URL: "ssh://git@github.com/acme/docs.git", Ref: "a..b"},
		"a known hosts error": {URL: "ssh://git@github.com/acme/docs.git", Ref: "main", KnownHosts: "hunter2"},
	} {
		_, err := parseRemote(r)
		require.Error(t, err, name)
		assert.NotContains(t, err.Error(), "hunter2", name)
	}
	_, err = parseRemote(Remote{URL: "ssh://git:hunter2@github.com/acme/docs.git", Ref: "main"})
	assert.Contains(t, err.Error(), "holds no password")
}

// The host keys built in are those the hosts publish: each matches the
// SHA-256 fingerprint its host's documentation gives.
func TestBuiltInKnownHosts(t *testing.T) {
	t.Parallel()
	published := map[string][]string{
		// docs.github.com: GitHub's SSH key fingerprints.
		"github.com": {
			"SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s", // RSA
			"SHA256:p2QAMXNIC1TJYWeIOttrVc98/R1BUFWu3/LiyKgUfQM", // ECDSA
			"SHA256:+DiY3wvvV6TuJJhbpZisF/zLDA0zPMSvHdkr4UvCOqU", // Ed25519
		},
		// docs.gitlab.com: GitLab.com settings, SSH host keys fingerprints.
		"gitlab.com": {
			"SHA256:eUXGGm1YGsMAS7vkcx6JOJdOGHPem5gQp4taiCfCLB8", // ED25519
			"SHA256:ROQFvPThGrW4RuWLoL9tq9I9zJ42fK4XywyRtbOz/EQ", // RSA
			"SHA256:HbW3g8zUjNSksFbqTiUWPWg2Bq1x8xdGUrliXFzSnUw", // ECDSA
		},
		// bitbucket.org/blog/ssh-host-key-changes.
		"bitbucket.org": {
			"SHA256:FC73VB6C4OQLSCrjEayhMp9UMxS97caD/Yyi2bhW/J0", // ECDSA
			"SHA256:ybgmFkzwOSotHTHLJgHO0QN8L0xErw6vd0VhFA9m3SM", // ED25519
		},
	}
	for host, want := range published {
		keys, err := trustedKeys("", host)
		require.NoError(t, err, host)
		var got []string
		for _, k := range keys {
			got = append(got, ssh.FingerprintSHA256(k))
		}
		assert.ElementsMatch(t, want, got, host)
	}
	_, err := trustedKeys("", "[github.com]:443")
	assert.ErrorIs(t, err, ErrKnownHosts, "a key is pinned for its port")
	n := 0
	for _, line := range strings.Split(builtInKnownHosts, "\n") {
		if strings.TrimSpace(line) != "" {
			n++
		}
	}
	assert.Equal(t, 8, n, "every line is one of the keys above")
}

// The callback takes the pinned keys of its host, and no other key, nor a
// pinned key shown for another host.
func TestPinnedHostKeys(t *testing.T) {
	t.Parallel()
	_, a := gitsynctest.NewSSHKey(t)
	_, b := gitsynctest.NewSSHKey(t)
	keys, err := trustedKeys("[git.example.com]:2222 "+a, "[git.example.com]:2222")
	require.NoError(t, err)
	cb := pinned("[git.example.com]:2222", keys)
	parse := func(line string) ssh.PublicKey {
		k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
		require.NoError(t, err)
		return k
	}
	addr := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 2222}
	assert.NoError(t, cb("git.example.com:2222", addr, parse(a)))
	err = cb("git.example.com:2222", addr, parse(b))
	require.ErrorIs(t, err, ErrHostKey)
	assert.Equal(t, "gitsync: [git.example.com]:2222 showed the SSH host key ssh-ed25519 "+ssh.FingerprintSHA256(parse(b))+
		", which is not one trusted for it", err.Error())
	assert.ErrorIs(t, cb("other.example.com:2222", addr, parse(a)), ErrHostKey)
}
