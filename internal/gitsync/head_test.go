package gitsync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHead(t *testing.T) {
	t.Parallel()
	s := newGitServer(t)
	r := s.bare("docs.git")
	head, err := Head(local(t), r)
	require.NoError(t, err)
	assert.Empty(t, head, "an empty repository")

	c := s.commit("docs.git", map[string]string{"README.md": "# Docs\n"}, "First", "A <a@example.com>", when)
	head, err = Head(local(t), r)
	require.NoError(t, err)
	assert.Equal(t, c, head)

	other := r
	other.Ref = "refs/heads/elsewhere"
	head, err = Head(local(t), other)
	require.NoError(t, err)
	assert.Empty(t, head, "a missing branch")

	wrong := r
	wrong.Password = "wrong"
	_, err = Head(local(t), wrong)
	require.ErrorIs(t, err, ErrAuth)
	assert.NotContains(t, err.Error(), "wrong")
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	r, err := Normalize(Remote{URL: "https://ann:s3cret@git.example.com/team/docs.git", Ref: "main"})
	require.NoError(t, err)
	assert.Equal(t, Remote{URL: "https://git.example.com/team/docs.git", Ref: "refs/heads/main", Username: "ann", Password: "s3cret"}, r)

	r, err = Normalize(Remote{URL: "https://ann:s3cret@git.example.com/docs.git", Ref: "refs/heads/v2", Username: "bot", Password: "tok"})
	require.NoError(t, err)
	assert.Equal(t, Remote{URL: "https://git.example.com/docs.git", Ref: "refs/heads/v2", Username: "bot", Password: "tok"}, r, "given credentials win")

	r, err = Normalize(Remote{URL: "git@github.com:team/docs.git", Ref: "main"})
	require.NoError(t, err)
	assert.Equal(t, Remote{URL: "git@github.com:team/docs.git", Ref: "refs/heads/main"}, r, "SSH: no credentials, github.com's keys built in")

	for _, bad := range []Remote{
		{URL: "git@git.example.com:team/docs.git", Ref: "main"},
		{URL: "ssh://ann:s3cret@github.com/team/docs.git", Ref: "main"},
		{URL: "file:///srv/docs.git", Ref: "main"},
		{URL: "https://git.example.com/docs.git", Ref: "bad..name"},
		{URL: "https:///docs.git", Ref: "main"},
	} {
		_, err := Normalize(bad)
		assert.Error(t, err, bad.URL)
	}

	// An IPv6 host: the ssh:// form is read, the scp-like one is refused
	// with the form to use.
	known := "[2001:db8::1]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
	r, err = Normalize(Remote{URL: "ssh://git@[2001:db8::1]:2222/team/docs.git", Ref: "main", KnownHosts: known})
	require.NoError(t, err)
	assert.Equal(t, "ssh://git@[2001:db8::1]:2222/team/docs.git", r.URL)
	for _, url := range []string{"git@[2001:db8::1]:team/docs.git", "[2001:db8::1]:team/docs.git"} {
		_, err = Normalize(Remote{URL: url, Ref: "main", KnownHosts: known})
		require.Error(t, err, url)
		assert.Contains(t, err.Error(), "needs the ssh:// form", url)
	}
}
