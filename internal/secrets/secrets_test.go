package secrets_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/secrets"
)

func box(t *testing.T) *secrets.Box {
	t.Helper()
	k, err := secrets.NewKey()
	require.NoError(t, err)
	b, err := secrets.FromBase64(k)
	require.NoError(t, err)
	return b
}

func TestSealOpen(t *testing.T) {
	b := box(t)
	s1, err := b.Seal("hunter2", "itg_1/token")
	require.NoError(t, err)
	s2, err := b.Seal("hunter2", "itg_1/token")
	require.NoError(t, err)
	assert.NotEqual(t, s1, s2, "a random nonce per value")
	assert.NotContains(t, s1, "hunter2")
	v, err := b.Open(s1, "itg_1/token")
	require.NoError(t, err)
	assert.Equal(t, "hunter2", v)

	_, err = b.Open(s1, "itg_2/token")
	assert.ErrorIs(t, err, secrets.ErrOpen, "another row's identity")
	_, err = b.Open(s1, "itg_1/other")
	assert.ErrorIs(t, err, secrets.ErrOpen, "another member's identity")
	_, err = box(t).Open(s1, "itg_1/token")
	assert.ErrorIs(t, err, secrets.ErrOpen, "the wrong key")
	tampered := s1[:len(s1)-2] + "AA"
	if tampered == s1 {
		tampered = s1[:len(s1)-2] + "BB"
	}
	_, err = b.Open(tampered, "itg_1/token")
	assert.ErrorIs(t, err, secrets.ErrOpen)
	_, err = b.Open("hunter2", "itg_1/token")
	assert.ErrorIs(t, err, secrets.ErrOpen, "not a sealed value")
}

func TestReseal(t *testing.T) {
	old, next := box(t), box(t)
	s, err := old.Seal("v", "ad")
	require.NoError(t, err)
	r, err := old.Reseal(next, s, "ad")
	require.NoError(t, err)
	v, err := next.Open(r, "ad")
	require.NoError(t, err)
	assert.Equal(t, "v", v)
	_, err = old.Open(r, "ad")
	assert.ErrorIs(t, err, secrets.ErrOpen)
}

func TestParseKey(t *testing.T) {
	for name, s := range map[string]string{"not base64": "***", "16 bytes": "AAAAAAAAAAAAAAAAAAAAAA==", "empty": ""} {
		_, err := secrets.ParseKey(s)
		assert.Error(t, err, name)
	}
	k, err := secrets.NewKey()
	require.NoError(t, err)
	_, err = secrets.ParseKey(k + "\n")
	assert.NoError(t, err)
}

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := secrets.KeyFilePath(filepath.Join(dir, "bindery.db"))
	assert.Equal(t, filepath.Join(dir, secrets.KeyFileName), path)
	k1, created, err := secrets.LoadOrCreateKeyFile(path)
	require.NoError(t, err)
	assert.True(t, created)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	k2, created, err := secrets.LoadOrCreateKeyFile(path)
	require.NoError(t, err)
	assert.False(t, created)
	assert.Equal(t, k1, k2)
	require.NoError(t, os.WriteFile(path, []byte("short"), 0o600))
	_, _, err = secrets.LoadOrCreateKeyFile(path)
	assert.True(t, err != nil && strings.Contains(err.Error(), path))
}
