package gitsync

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
)

// bulky returns n files of 4 kB that do not compress, so that what a
// fetch sends follows what it has to.
func bulky(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		b := make([]byte, 2048)
		_, _ = rand.Read(b)
		files[fmt.Sprintf("pages/page-%03d.md", i)] = hex.EncodeToString(b)
	}
	return files
}

func text(files map[string][]byte) map[string]string {
	out := map[string]string{}
	for p, b := range files {
		out[p] = string(b)
	}
	return out
}

func TestCachedFetchBringsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("big.git")
	files := bulky(200)
	s.commit("big.git", files, "Many pages", "A <a@example.com>", when)
	cached := r
	cached.Cache = NewCache(64 << 20)

	before := s.Sent()
	snap, err := Fetch(local(t), cached, Limits{})
	require.NoError(t, err)
	whole := s.Sent() - before
	first := snap.Commit
	assert.Empty(t, snap.Base, "nothing was kept")
	assert.Greater(t, whole, int64(200*2048), "the first fetch brings every file")

	// Nothing new: nothing comes.
	before = s.Sent()
	snap, err = Fetch(local(t), cached, Limits{})
	require.NoError(t, err)
	assert.Less(t, s.Sent()-before, int64(2048), "a fetch of an unchanged branch sends no pack")
	assert.Equal(t, files, text(snap.Files))
	assert.Equal(t, first, snap.Base)
	assert.Empty(t, snap.Changed)

	// A file edited a little comes as a delta against the kept one (a
	// thin pack), a new file whole.
	was := map[string]string{"pages/page-007.md": files["pages/page-007.md"], "pages/page-010.md": files["pages/page-010.md"],
		"pages/page-042.md": files["pages/page-042.md"]}
	edited := files["pages/page-010.md"] + "\nMore."
	files["pages/page-010.md"] = edited
	files["pages/page-042.md"] = "Changed."
	files["pages/new.md"] = "New."
	delete(files, "pages/page-007.md")
	head := s.commit("big.git", map[string]string{"pages/page-010.md": edited, "pages/page-042.md": "Changed.",
		"pages/new.md": "New.", "pages/page-007.md": "\x00deleted"}, "Edit", "A <a@example.com>", when)
	before = s.Sent()
	snap, err = Fetch(local(t), cached, Limits{})
	require.NoError(t, err)
	assert.Less(t, s.Sent()-before, int64(4096), "a change of three files sends about them (%d of %d bytes)", s.Sent()-before, whole)
	assert.Equal(t, head, snap.Commit)
	assert.Equal(t, files, text(snap.Files))
	assert.Equal(t, first, snap.Base)
	assert.Equal(t, []string{"pages/new.md", "pages/page-007.md", "pages/page-010.md", "pages/page-042.md"}, snap.Changed)
	assert.Equal(t, was, text(snap.Before))

	// The same as a fetch that keeps nothing.
	plain, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, plain.Files, snap.Files)
}

// A file brought back to what an older commit held is a blob the kept
// commit lacks: the remote must send it, since a shallow fetch does not
// hold the kept commit's history.
func TestCachedFetchOfAFileRevertedToAnOlderVersion(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("revert.git")
	r.Cache = NewCache(1 << 20)
	s.commit("revert.git", map[string]string{"a.md": "first", "b.md": "b"}, "One", "A <a@example.com>", when)
	s.commit("revert.git", map[string]string{"a.md": "second"}, "Two", "A <a@example.com>", when)
	_, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	s.commit("revert.git", map[string]string{"a.md": "first", "c.md": "second"}, "Three", "A <a@example.com>", when)
	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a.md": "first", "b.md": "b", "c.md": "second"}, text(snap.Files))
}

func TestCachedPushSendsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("push.git")
	r.Cache = NewCache(64 << 20)
	files := bulky(200)
	first := map[string][]byte{}
	for p, b := range files {
		first[p] = []byte(b)
	}
	before := s.Received()
	head, err := Push(local(t), r, "", "", first, "First", Signature{Name: "A", Email: "a@example.com", When: when}, Limits{})
	require.NoError(t, err)
	whole := s.Received() - before

	// The pushed commit is kept: the next push fetches nothing and sends
	// the changed file and the trees above it.
	first["pages/page-042.md"] = []byte("Changed.")
	sent, received := s.Sent(), s.Received()
	head, err = Push(local(t), r, head, "", first, "Second", Signature{Name: "A", Email: "a@example.com", When: when}, Limits{})
	require.NoError(t, err)
	assert.Less(t, s.Sent()-sent, int64(2048), "nothing is fetched")
	assert.Less(t, s.Received()-received, whole/20, "a change of one file sends about it (%d of %d bytes)", s.Received()-received, whole)
	assert.Equal(t, head, s.head("push.git"))
	s.run(s.dir("push.git"), "fsck", "--full", "--strict")
	clone := s.clone("push.git")
	got, err := os.ReadFile(clone + "/pages/page-042.md")
	require.NoError(t, err)
	assert.Equal(t, "Changed.", string(got))
}

// A repository made anew at the same URL holds none of what was kept: a
// push onto it sends everything its commit needs.
func TestCachedPushToARepositoryMadeAnew(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("anew.git")
	r.Cache = NewCache(1 << 20)
	sig := Signature{Name: "A", Email: "a@example.com", When: when}
	files := map[string][]byte{"a.md": []byte("a"), "dir/b.md": []byte("b")}
	_, err := Push(local(t), r, "", "", files, "First", sig, Limits{})
	require.NoError(t, err)

	// Empty, then with a commit that shares nothing with the first.
	require.NoError(t, os.RemoveAll(s.dir("anew.git")))
	s.bare("anew.git")
	_, err = Push(local(t), r, "", "", files, "Again", sig, Limits{})
	require.NoError(t, err)
	s.run(s.dir("anew.git"), "fsck", "--full", "--strict")

	require.NoError(t, os.RemoveAll(s.dir("anew.git")))
	s.bare("anew.git")
	other := s.commit("anew.git", map[string]string{"c.md": "c"}, "Other", "B <b@example.com>", when)
	_, err = Push(local(t), r, other, "", files, "Onto the other", sig, Limits{})
	require.NoError(t, err)
	s.run(s.dir("anew.git"), "fsck", "--full", "--strict")
	assert.Equal(t, "a", strings.TrimSpace(s.run(s.dir("anew.git"), "show", "main:a.md")))
	assert.Equal(t, "b", strings.TrimSpace(s.run(s.dir("anew.git"), "show", "main:dir/b.md")))
}

func TestCacheBounds(t *testing.T) {
	t.Parallel()
	assert.Nil(t, NewCache(0), "a cache of no bytes keeps nothing")
	s := newGitServer(t)
	sig := Signature{Name: "A", Email: "a@example.com", When: when}
	c := NewCache(10_000)
	kept := func(r Remote) bool {
		ep, err := parseRemote(r)
		require.NoError(t, err)
		e, ok := c.l.Get(cacheKey(ep))
		return ok && e != nil
	}
	var remotes []Remote
	for _, name := range []string{"one.git", "two.git", "three.git"} {
		r := s.bare(name)
		r.Cache = c
		_, err := Push(local(t), r, "", "", map[string][]byte{"a.md": []byte(strings.Repeat(name, 500))}, "One", sig, Limits{})
		require.NoError(t, err)
		remotes = append(remotes, r)
	}
	// Each branch is 3.5 to 4.5 kB: two fit, and the oldest went first.
	assert.False(t, kept(remotes[0]))
	assert.True(t, kept(remotes[1]))
	assert.True(t, kept(remotes[2]))
	assert.LessOrEqual(t, c.l.Size(), 10_000)

	// A branch over half the bound is not kept.
	r := s.bare("large.git")
	r.Cache = c
	_, err := Push(local(t), r, "", "", map[string][]byte{"a.md": []byte(strings.Repeat("x", 6000))}, "One", sig, Limits{})
	require.NoError(t, err)
	assert.False(t, kept(r))
}

// TestChangedPaths checks what a fetch from a kept commit says changed:
// files added, removed and edited at any depth, whole folders, and a file
// that became a folder.
func TestChangedPaths(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("paths.git")
	r.Cache = NewCache(1 << 20)
	s.commit("paths.git", map[string]string{"a.md": "a", "keep/k.md": "k", "gone/x.md": "x", "gone/deep/y.md": "y",
		"deep/er/z.md": "z", "file": "f"}, "One", "A <a@example.com>", when)
	first, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	// Two commits: the file goes before the folder can take its name.
	s.commit("paths.git", map[string]string{"gone/x.md": "\x00deleted", "gone/deep/y.md": "\x00deleted",
		"deep/er/z.md": "z2", "new/n.md": "n", "file": "\x00deleted"}, "Two", "A <a@example.com>", when)
	s.commit("paths.git", map[string]string{"file/inside.md": "i"}, "Three", "A <a@example.com>", when)
	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, first.Commit, snap.Base)
	assert.Equal(t, []string{"deep/er/z.md", "file", "file/inside.md", "gone/deep/y.md", "gone/x.md", "new/n.md"}, snap.Changed)
	assert.Equal(t, map[string]string{"deep/er/z.md": "z", "file": "f", "gone/deep/y.md": "y", "gone/x.md": "x"}, text(snap.Before))
	// The files, read from the kept ones and the changes, are the branch's.
	assert.Equal(t, map[string]string{"a.md": "a", "keep/k.md": "k", "deep/er/z.md": "z2", "new/n.md": "n",
		"file/inside.md": "i"}, text(snap.Files))

	// The limits hold for files read that way too.
	s.commit("paths.git", map[string]string{"b.md": "b", "c.md": "c"}, "Four", "A <a@example.com>", when)
	_, err = Fetch(local(t), r, Limits{MaxFiles: 6})
	require.ErrorIs(t, err, ErrTooLarge)
}

// TestCacheStaysWholeOverManySyncs alternates commits made elsewhere,
// fetches and pushes of edits on a kept branch, each entry made from the
// one before, and checks after each that the entry holds every object of
// its commit and the files a plain fetch reads.
func TestCacheStaysWholeOverManySyncs(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("many.git")
	r.Cache = NewCache(64 << 20)
	plain := r
	plain.Cache = nil
	ep, err := parseRemote(r)
	require.NoError(t, err)
	files := map[string]string{"a.md": "a", "docs/b.md": "b", "docs/deep/c.md": "c", "docs/deep/d.md": "d", "e/f.md": "f"}
	s.commit("many.git", files, "First", "A <a@example.com>", when)
	whole := func() {
		t.Helper()
		e, ok := r.Cache.l.Get(cacheKey(ep))
		require.True(t, ok)
		st := newLimitedStorage(Limits{}.withDefaults())
		require.NoError(t, e.seed(st, ep.ref))
		head, err := object.GetCommit(st, e.head)
		require.NoError(t, err)
		_, err = reachable(st, head, 1<<30)
		require.NoError(t, err, "the entry holds every object of its commit")
		kept, err := Fetch(local(t), r, Limits{})
		require.NoError(t, err)
		read, err := Fetch(local(t), plain, Limits{})
		require.NoError(t, err)
		require.Equal(t, text(read.Files), text(kept.Files))
	}
	for i := range 12 {
		switch i % 3 {
		case 0: // elsewhere: an edit, a file added, a folder removed or made again
			change := map[string]string{"a.md": fmt.Sprintf("a%d", i), fmt.Sprintf("new/%d.md", i): "n"}
			if i%2 == 0 {
				change["docs/deep/c.md"], change["docs/deep/d.md"] = gitsynctest.Deleted, gitsynctest.Deleted
			} else {
				change["docs/deep/c.md"], change["docs/deep/d.md"] = "c", "d"
			}
			s.commit("many.git", change, "Elsewhere", "B <b@example.com>", when)
			_, err := Fetch(local(t), r, Limits{})
			require.NoError(t, err)
		case 1: // edits pushed
			_, err := PushEdits(local(t), r, s.head("many.git"), func(func(string) ([]byte, bool)) (map[string][]byte, error) {
				return map[string][]byte{"docs/b.md": []byte(fmt.Sprintf("b%d", i)), fmt.Sprintf("pushed/%d.md", i): []byte("p")}, nil
			}, "Edits", bot, Limits{})
			require.NoError(t, err)
		default: // a whole export
			snap, err := Fetch(local(t), r, Limits{})
			require.NoError(t, err)
			all := map[string][]byte{}
			for p, b := range snap.Files {
				all[p] = b
			}
			all["e/f.md"] = []byte(fmt.Sprintf("f%d", i))
			_, err = Push(local(t), r, snap.Commit, "", all, "Whole", bot, Limits{})
			require.NoError(t, err)
		}
		whole()
	}
}
