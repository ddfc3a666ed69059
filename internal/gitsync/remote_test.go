package gitsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

	for _, url := range []string{"git@github.com:org/repo.git", "ssh://git@example.com/repo.git", "file:///etc", "git://example.com/r.git"} {
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
