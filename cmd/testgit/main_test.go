package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
)

func TestRefusesOtherThanLoopback(t *testing.T) {
	err := run("0.0.0.0:7001", t.TempDir(), "u", "p")
	require.ErrorContains(t, err, "not a loopback address")
}

// A repository is made, bare and open to pushes, at the first request for
// it; other paths make nothing.
func TestEnsureRepository(t *testing.T) {
	git := gitsynctest.Git(t)
	root := t.TempDir()
	require.NoError(t, ensureRepository(git, root, "/team/docs.git/info/refs"))
	config, err := os.ReadFile(filepath.Join(root, "team", "docs.git", "config"))
	require.NoError(t, err)
	assert.Contains(t, string(config), "receivepack = true")
	assert.Contains(t, string(config), "bare = true")
	require.NoError(t, ensureRepository(git, root, "/team/docs.git/info/refs"), "again: nothing to do")

	for _, p := range []string{"/", "/../x.git/info/refs", "/.hidden.git/HEAD", "/plain/path"} {
		require.NoError(t, ensureRepository(git, root, p))
	}
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "only team/")
}
