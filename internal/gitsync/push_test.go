package gitsync

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bot = Signature{Name: "Bindery Bot", Email: "bot@example.com", When: time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)}

func TestPushIntoAnEmptyRepository(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	files := map[string][]byte{
		"README.md":        []byte("# Site\n"),
		"guide/install.md": []byte("# Install\n"),
		"guide/a/b.md":     []byte("deep"),
		"guide-notes.md":   []byte("sorts between guide and guide/"),
	}
	head, err := Push(local(t), r, "", "", files, "Export the site", bot, Limits{})
	require.NoError(t, err)

	repo := s.dir("site.git")
	assert.Equal(t, head, s.head("site.git"))
	log := s.run(repo, "log", "--format=%H|%an|%ae|%at|%cn|%s|%P")
	assert.Equal(t, head+"|Bindery Bot|bot@example.com|"+unix(bot.When)+"|Bindery Bot|Export the site|\n", log, "one root commit")
	assert.Equal(t, "# Site\n", s.run(repo, "show", "HEAD:README.md"))
	assert.Equal(t, "deep", s.run(repo, "show", "HEAD:guide/a/b.md"))
	assert.ElementsMatch(t, []string{"README.md", "guide/install.md", "guide/a/b.md", "guide-notes.md"}, lsTree(s, repo))
	// Git's own check of the objects: trees sorted as Git sorts them.
	s.run(repo, "fsck", "--strict", "--no-dangling")
}

func TestPushIntoADirectoryKeepsTheRest(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("code.git")
	parent := s.commit("code.git", map[string]string{
		"README.md":    "# Code\n",
		"src/main.go":  "package main\n",
		"docs/old.md":  "old",
		"docs/keep.md": "keep",
		"docsite.md":   "not under docs/",
	}, "Code", "A <a@example.com>", when)

	head, err := Push(local(t), r, parent, "docs", map[string][]byte{
		"keep.md":     []byte("kept, edited"),
		"new/page.md": []byte("new"),
	}, "Sync the docs", bot, Limits{})
	require.NoError(t, err)

	repo := s.dir("code.git")
	assert.Equal(t, head, s.head("code.git"))
	assert.Equal(t, parent+"\n", s.run(repo, "rev-parse", "HEAD^"), "a child of parent")
	assert.ElementsMatch(t, []string{"README.md", "src/main.go", "docsite.md", "docs/keep.md", "docs/new/page.md"}, lsTree(s, repo))
	assert.Equal(t, "# Code\n", s.run(repo, "show", "HEAD:README.md"))
	assert.Equal(t, "kept, edited", s.run(repo, "show", "HEAD:docs/keep.md"))
	s.run(repo, "fsck", "--strict", "--no-dangling")

	snap, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, snap.Commit)
	assert.Equal(t, "Sync the docs", snap.Message)
}

func TestPushOfAnUnchangedTreeMakesNoCommit(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	parent := s.commit("site.git", map[string]string{
		"README.md": "# Site\n", "docs/a.md": "a", "docs/b/c.md": "c", "docs-x.md": "x",
	}, "Site", "A <a@example.com>", when)

	head, err := Push(local(t), r, parent, "docs", map[string][]byte{"a.md": []byte("a"), "b/c.md": []byte("c")}, "Nothing", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, parent, head)
	assert.Equal(t, parent, s.head("site.git"))

	// The same holds for a tree Push made.
	head, err = Push(local(t), r, parent, "", map[string][]byte{"a.md": []byte("a")}, "One file", bot, Limits{})
	require.NoError(t, err)
	again, err := Push(local(t), r, head, "", map[string][]byte{"a.md": []byte("a")}, "One file again", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, again)
	assert.Equal(t, head, s.head("site.git"))
}

func TestPushFromAStaleParentIsErrMoved(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	first := s.commit("site.git", map[string]string{"a.md": "one"}, "One", "A <a@example.com>", when)
	second := s.commit("site.git", map[string]string{"a.md": "two"}, "Two", "B <b@example.com>", when)

	files := map[string][]byte{"a.md": []byte("mine")}
	_, err := Push(local(t), r, first, "", files, "Mine", bot, Limits{})
	assert.ErrorIs(t, err, ErrMoved, "a parent behind the head")
	_, err = Push(local(t), r, "", "", files, "Mine", bot, Limits{})
	assert.ErrorIs(t, err, ErrMoved, "no parent, but a branch")
	other := r
	other.Ref = "drafts"
	_, err = Push(local(t), other, second, "", files, "Mine", bot, Limits{})
	assert.ErrorIs(t, err, ErrMoved, "a parent on a branch that does not exist")
	assert.Equal(t, second, s.head("site.git"), "nothing pushed")

	// From the head, the push goes through; a new branch needs no parent.
	head, err := Push(local(t), r, second, "", files, "Mine", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, s.head("site.git"))
	drafts, err := Push(local(t), other, "", "", files, "Drafts", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, drafts+"\n", s.run(s.dir("site.git"), "rev-parse", "drafts"))
}

func TestPushRefusesUnsafePaths(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("site.git")
	for _, p := range []string{"../a.md", "/a.md", ".git/config", "a/.GIT/hooks/x", "a//b.md", "a\\b.md", ""} {
		_, err := Push(local(t), r, "", "", map[string][]byte{p: nil}, "Bad", bot, Limits{})
		assert.ErrorIs(t, err, ErrInvalidPath, "%q", p)
	}
	_, err := Push(local(t), r, "", "../up", map[string][]byte{"a.md": nil}, "Bad", bot, Limits{})
	assert.ErrorIs(t, err, ErrInvalidPath, "dir")
	_, err = Push(local(t), r, "", "", map[string][]byte{"a": nil, "a/b": nil}, "Bad", bot, Limits{})
	assert.ErrorIs(t, err, ErrInvalidPath, "a file and a directory of one name")
}

func lsTree(s *gitServer, repo string) []string {
	return strings.Fields(s.run(repo, "ls-tree", "-r", "--name-only", "HEAD"))
}

func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

func TestPushEdits(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("edits.git")
	r.Cache = NewCache(1 << 20)
	files := map[string][]byte{"a.md": []byte("a"), "docs/b.md": []byte("b"), "docs/deep/c.md": []byte("c"),
		"docs/guide-notes.md": []byte("sorts between guide and guide/"), "docs/guide/x.md": []byte("x")}
	head, err := Push(local(t), r, "", "", files, "First", bot, Limits{})
	require.NoError(t, err)
	repo := s.dir("edits.git")
	// Fetched, the head's files are kept beside its objects.
	_, err = Fetch(local(t), r, Limits{})
	require.NoError(t, err)

	var read []string
	head, err = PushEdits(local(t), r, head, func(get func(string) ([]byte, bool)) (map[string][]byte, error) {
		for _, p := range []string{"docs/b.md", "docs/missing.md", "docs/deep"} {
			if data, ok := get(p); ok {
				read = append(read, p+"="+string(data))
			}
		}
		return map[string][]byte{"docs/b.md": []byte("b2"), "docs/deep/new.md": []byte("n"), "top.md": []byte("t"),
			"docs/guide/x.md": []byte("x2")}, nil
	}, "Edit", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/b.md=b"}, read, "a file reads; a missing path and a folder do not")
	assert.Equal(t, head, s.head("edits.git"))
	s.run(repo, "fsck", "--strict", "--no-dangling")
	for p, want := range map[string]string{"a.md": "a", "docs/b.md": "b2", "docs/deep/c.md": "c", "docs/deep/new.md": "n",
		"top.md": "t", "docs/guide/x.md": "x2", "docs/guide-notes.md": "sorts between guide and guide/"} {
		assert.Equal(t, want, s.run(repo, "show", "HEAD:"+p), p)
	}

	// A fetch from the pushed commit, whose files were kept from the head's
	// and the edits, reads what a fetch of the whole branch reads.
	kept, err := Fetch(local(t), r, Limits{})
	require.NoError(t, err)
	plain := r
	plain.Cache = nil
	whole, err := Fetch(local(t), plain, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, kept.Base)
	assert.Equal(t, whole.Files, kept.Files)

	// The same bytes: no commit.
	same, err := PushEdits(local(t), r, head, func(func(string) ([]byte, bool)) (map[string][]byte, error) {
		return map[string][]byte{"docs/b.md": []byte("b2")}, nil
	}, "Nothing", bot, Limits{})
	require.NoError(t, err)
	assert.Equal(t, head, same)

	// An edit that cannot be one pushes nothing, and says why.
	_, err = PushEdits(local(t), r, head, func(func(string) ([]byte, bool)) (map[string][]byte, error) {
		return nil, ErrNotEdits
	}, "No", bot, Limits{})
	require.ErrorIs(t, err, ErrNotEdits)
	for _, bad := range []string{"a.md/under.md", "docs", "../out.md", ".git/config"} {
		_, err = PushEdits(local(t), r, head, func(func(string) ([]byte, bool)) (map[string][]byte, error) {
			return map[string][]byte{bad: []byte("x")}, nil
		}, "Bad", bot, Limits{})
		require.ErrorIs(t, err, ErrInvalidPath, bad)
	}
	assert.Equal(t, head, s.head("edits.git"))

	// A branch moved since: ErrMoved, as Push.
	s.commit("edits.git", map[string]string{"other.md": "o"}, "Elsewhere", "B <b@example.com>", when)
	_, err = PushEdits(local(t), r, head, func(func(string) ([]byte, bool)) (map[string][]byte, error) {
		return map[string][]byte{"a.md": []byte("a2")}, nil
	}, "Late", bot, Limits{})
	require.ErrorIs(t, err, ErrMoved)
}
