package gitsync

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var when = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func TestFetchGitBookLayout(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("handbook.git")
	png := "\x89PNG\r\n\x1a\n\x00\x00binary"
	files := map[string]string{
		"README.md":                "# Handbook\n",
		"SUMMARY.md":               "# Summary\n\n* [Handbook](README.md)\n* [Install](guide/install.md)\n",
		".gitbook.yaml":            "root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n",
		"guide/install.md":         "# Install\n\n![logo](../.gitbook/assets/logo.png)\n",
		".gitbook/assets/logo.png": png,
	}
	// A link is no page, and could point anywhere: it is left out.
	dir := s.clone("handbook.git")
	require.NoError(t, os.Symlink("README.md", filepath.Join(dir, "link.md")))
	s.run(dir, "add", "link.md")
	s.run(dir, "commit", "-q", "-m", "A link")
	s.run(dir, "push", "-q", "origin", "HEAD:main")
	head := s.commit("handbook.git", files, "Write the handbook", "Ada Lovelace <ada@example.com>", when)

	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, snap.Commit)
	assert.Equal(t, "Write the handbook", snap.Message)
	assert.Equal(t, "Ada Lovelace", snap.Author.Name)
	assert.Equal(t, "ada@example.com", snap.Author.Email)
	assert.True(t, when.Equal(snap.Author.When), "%v", snap.Author.When)
	got := map[string]string{}
	for p, data := range snap.Files {
		got[p] = string(data)
	}
	assert.Equal(t, files, got)
}

func TestFetchFollowsAForcePush(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)
	s.commit("site.git", map[string]string{"a.md": "two"}, "Two", "A <a@example.com>", when)
	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, "two", string(snap.Files["a.md"]))

	// Rewrite the history: the branch now holds a commit unrelated to the
	// one fetched.
	dir := s.clone("site.git")
	s.run(dir, "checkout", "-q", "--orphan", "rewritten")
	s.run(dir, "rm", "-q", "-rf", ".")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.md"), []byte("rewritten"), 0o644))
	s.run(dir, "add", "b.md")
	s.run(dir, "commit", "-q", "-m", "Start again")
	s.run(dir, "push", "-q", "--force", "origin", "HEAD:main")
	rewritten := strings.TrimSpace(s.run(dir, "rev-parse", "HEAD"))

	snap, err = Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, rewritten, snap.Commit)
	assert.Equal(t, "Start again", snap.Message)
	assert.Equal(t, map[string][]byte{"b.md": []byte("rewritten")}, snap.Files)
}

func TestWrongPasswordIsErrAuth(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	head := s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)
	const secret = "not-the-password-4711"

	inURL := Remote{URL: strings.Replace(r.URL, "http://", "http://writer:"+secret+"@", 1), Ref: "main"}
	inFields := r
	inFields.Password = secret
	anonymous := Remote{URL: r.URL, Ref: "main"}
	for name, r := range map[string]Remote{"in the URL": inURL, "in the fields": inFields, "none": anonymous} {
		_, err := Fetch(local(t), r, Limits{})
		require.ErrorIs(t, err, ErrAuth, name)
		assert.NotContains(t, err.Error(), secret, name)

		_, err = Push(local(t), r, head, "", map[string][]byte{"a.md": []byte("two")}, "Two", Signature{Name: "A"}, Limits{})
		require.ErrorIs(t, err, ErrAuth, name)
		assert.NotContains(t, err.Error(), secret, name)
	}
	assert.Equal(t, head, s.head("site.git"), "nothing pushed")

	// The right password in the URL works, as the official API allows.
	good := Remote{URL: strings.Replace(r.URL, "http://", "http://writer:"+s.Password+"@", 1), Ref: "main"}
	snap, err := Fetch(local(t), good, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, snap.Commit)
}

func TestUnknownRepositoryOrBranchIsErrNotFound(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	s.bare("empty.git")
	s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)

	noRepo := r
	noRepo.URL = s.URL + "/nowhere.git"
	noBranch := r
	noBranch.Ref = "drafts"
	empty := r
	empty.URL = s.URL + "/empty.git"
	for name, r := range map[string]Remote{"repository": noRepo, "branch": noBranch, "empty repository": empty} {
		_, err := Fetch(local(t), r, Limits{})
		assert.ErrorIs(t, err, ErrNotFound, name)
	}
	_, err := Push(local(t), noRepo, "", "", map[string][]byte{"a.md": nil}, "One", Signature{Name: "A"}, Limits{})
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestLimits(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	big := strings.Repeat("0123456789abcdef", 64<<10) // 1 MiB
	s.commit("site.git", map[string]string{"a.md": "one", "b.md": "two", "c.md": "three", "big.bin": big}, "One", "A <a@example.com>", when)

	_, err := Fetch(local(t), r, Limits{MaxFiles: 3})
	assert.ErrorIs(t, err, ErrTooLarge, "files")
	_, err = Fetch(local(t), r, Limits{MaxBytes: 1 << 20})
	assert.ErrorIs(t, err, ErrTooLarge, "bytes")
	snap, err := Fetch(local(t), r, Limits{MaxFiles: 4, MaxBytes: 2 << 20})
	require.NoError(t, err)
	assert.Len(t, snap.Files, 4)

	// Random bytes do not compress: the packfile itself is over the bound,
	// and the fetch stops while it arrives.
	noise := make([]byte, 4<<20)
	_, _ = rand.Read(noise)
	s.commit("site.git", map[string]string{"noise.bin": string(noise)}, "Noise", "A <a@example.com>", when)
	_, err = Fetch(local(t), r, Limits{MaxFiles: 10, MaxBytes: 1 << 20})
	require.ErrorIs(t, err, ErrTooLarge, "packfile")
	assert.Contains(t, err.Error(), "packfile", "refused while it arrived, not once in memory")

	_, err = Push(local(t), r, s.head("site.git"), "docs", map[string][]byte{"x.md": nil}, "More", Signature{Name: "A"}, Limits{MaxFiles: 5})
	assert.ErrorIs(t, err, ErrTooLarge, "push")
}

func TestCancelledContextReturnsPromptly(t *testing.T) {
	t.Parallel()
	// A server that never answers.
	stuck := make(chan struct{})
	t.Cleanup(func() { close(stuck) })
	srv := newStuckServer(t, stuck)
	r := Remote{URL: srv + "/site.git", Ref: "main"}

	ctx, cancel := context.WithTimeout(local(t), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Fetch(ctx, r, Limits{})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)

	ctx, cancel = context.WithCancel(local(t))
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	start = time.Now()
	_, err = Push(ctx, r, "", "", map[string][]byte{"a.md": nil}, "One", Signature{Name: "A"}, Limits{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// Loopback and private addresses are refused unless the context allows
// them, so that a URL a user gives cannot reach the server's own network.
func TestPrivateAddressesNeedConsent(t *testing.T) {
	s := newGitServer(t)
	r := s.bare("site.git")
	s.commit("site.git", map[string]string{"README.md": "# Home\n"}, "Start", "Ada <ada@example.com>", time.Now())
	_, err := Fetch(t.Context(), r, Limits{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a permitted destination")
	_, err = Push(t.Context(), r, "", "", map[string][]byte{"README.md": []byte("# Changed\n")}, "Change",
		Signature{Name: "A", Email: "a@example.com"}, Limits{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a permitted destination")
	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, "# Home\n", string(snap.Files["README.md"]))
}
