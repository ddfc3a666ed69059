package gitsync

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
)

// gitServer is gitsynctest's server with the Remotes of this package.
type gitServer struct{ *gitsynctest.Server }

func newGitServer(t *testing.T) *gitServer { return &gitServer{gitsynctest.NewServer(t)} }

func (s *gitServer) run(dir string, args ...string) string { return s.Run(dir, args...) }

// bare makes an empty repository and returns the Remote of its branch
// main, with the right credentials.
func (s *gitServer) bare(name string) Remote {
	return Remote{URL: s.Bare(name), Ref: "main", Username: gitsynctest.User, Password: s.Password}
}

func (s *gitServer) dir(name string) string   { return s.Dir(name) }
func (s *gitServer) clone(name string) string { return s.Clone(name) }
func (s *gitServer) head(name string) string  { return s.Head(name) }

func (s *gitServer) commit(name string, files map[string]string, message, author string, when time.Time) string {
	return s.Commit(name, files, message, author, when)
}

// newStuckServer returns the URL of a server that holds every request
// until stuck is closed.
func newStuckServer(t *testing.T, stuck <-chan struct{}) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stuck:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// local is the test's context, allowed to reach the Git server the test
// runs on loopback.
func local(t *testing.T) context.Context { return WithPrivateAddresses(t.Context()) }

// sshBare makes an empty repository and serves the server's repositories
// over SSH to a key of its own: it returns the Remote of the branch main
// over SSH, with that key and the server's host key, and the SSH server.
func (s *gitServer) sshBare(t *testing.T, name string) (Remote, *gitsynctest.SSHServer) {
	s.Bare(name)
	key, authorized := gitsynctest.NewSSHKey(t)
	x := s.ServeSSH(authorized)
	return Remote{URL: x.URL(name), Ref: "main", SSHKey: key, KnownHosts: x.KnownHosts}, x
}
