// Package gitsynctest runs a Git server for tests: git http-backend (the
// git command's smart HTTP server) behind Go's net/http/cgi, serving bare
// repositories over basic auth, and (ServeSSH) an SSH server on
// golang.org/x/crypto/ssh that runs git upload-pack and receive-pack on the
// same repositories for one key, with the git command line to write and
// read them as a person would. It installs Debian's git when it is missing
// and the tests run as root, and skips the test otherwise.
package gitsynctest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// User is the user the server lets in, with Server.Password.
const User = "writer"

var (
	gitOnce sync.Once
	gitPath string
	gitSkip string
	gitErr  error
)

// Git returns the path of git, installing Debian's package with
// install-git.sh when it is missing. Where it cannot be installed, the
// test skips and says why.
func Git(t testing.TB) string {
	t.Helper()
	gitOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", filepath.Join(filepath.Dir(file), "install-git.sh"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			gitPath = strings.TrimSpace(stdout.String())
		case errors.As(err, &exit) && exit.ExitCode() == 3:
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			gitSkip = lines[len(lines)-1]
		default:
			gitErr = fmt.Errorf("install-git.sh: %v\n%s", err, stderr.String())
		}
	})
	if gitSkip != "" {
		t.Skipf("skipping: these tests need git: %s", gitSkip)
	}
	if gitErr != nil {
		t.Fatal(gitErr)
	}
	return gitPath
}

// Server is git http-backend serving bare repositories over smart HTTP,
// behind basic auth for User.
type Server struct {
	t        testing.TB
	git      string
	root     string // GIT_PROJECT_ROOT
	URL      string
	Password string
	// sent and received count the packfile traffic: the bodies of
	// upload-pack's answers, and of receive-pack's requests; pushes counts
	// the pushes begun.
	sent, received, pushes atomic.Int64

	mu       sync.Mutex
	nextRefs func()
}

// Pushes is how many pushes the server has seen begin (ref listings for
// git-receive-pack, with credentials), whether or not they went on to send
// anything.
func (s *Server) Pushes() int64 { return s.pushes.Load() }

// BeforeNextRefs has the server run f, once, before it next lists its
// refs to a reader (GET info/refs?service=git-upload-pack: the start of a
// fetch, or an ls-remote), so that a test can move a branch between two
// readings of it.
func (s *Server) BeforeNextRefs(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextRefs = f
}

// takeNextRefs returns what BeforeNextRefs set, and forgets it.
func (s *Server) takeNextRefs() func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.nextRefs
	s.nextRefs = nil
	return f
}

// Sent is how many bytes the server has sent in answer to fetches (the
// bodies of git-upload-pack's responses).
func (s *Server) Sent() int64 { return s.sent.Load() }

// Received is how many bytes the server has received in pushes (the bodies
// of git-receive-pack's requests).
func (s *Server) Received() int64 { return s.received.Load() }

// NewServer starts a server with no repositories; the test's end stops it.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, git: Git(t), root: t.TempDir(), Password: "pw-" + strings.ReplaceAll(t.Name(), "/", "-")}
	execPath := strings.TrimSpace(s.Run("", "--exec-path"))
	h := Handler(execPath, s.root, User, s.Password, logWriter{t})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/info/refs") &&
			r.URL.Query().Get("service") == "git-upload-pack":
			if f := s.takeNextRefs(); f != nil {
				f()
			}
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack"):
			w = &countingWriter{ResponseWriter: w, n: &s.sent}
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/info/refs") &&
			r.URL.Query().Get("service") == "git-receive-pack":
			if _, _, ok := r.BasicAuth(); ok { // not git's first try, without credentials
				s.pushes.Add(1)
			}
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-receive-pack"):
			r.Body = &countingReader{ReadCloser: r.Body, n: &s.received}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Handler serves the bare repositories under root over smart HTTP with
// git http-backend (found in execPath, git --exec-path), to user and
// password alone; the backend's complaints go to errors.
func Handler(execPath, root, user, password string, errors io.Writer) http.Handler {
	backend := &cgi.Handler{
		Path:   filepath.Join(execPath, "git-http-backend"),
		Env:    []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root},
		Stderr: errors,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != user || p != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	})
}

// Run runs git in dir, with no configuration but the test's, and returns
// its output.
func (s *Server) Run(dir string, args ...string) string {
	s.t.Helper()
	home := s.t.TempDir()
	cmd := exec.Command(s.git, append([]string{
		"-c", "user.name=Test Seeder", "-c", "user.email=seeder@example.com",
		"-c", "init.defaultBranch=main",
		// Whole bodies, not chunked: http-backend under CGI wants a length.
		"-c", "http.postBuffer=104857600",
	}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// Bare makes an empty repository with the branch main to come, which the
// server lets User push to, and returns its URL (without credentials).
func (s *Server) Bare(name string) string {
	s.t.Helper()
	s.Run("", "init", "--bare", "-b", "main", s.Dir(name))
	s.Run(s.Dir(name), "config", "http.receivepack", "true")
	return s.URL + "/" + name
}

// Dir is the directory of a repository on the server's disk.
func (s *Server) Dir(name string) string { return filepath.Join(s.root, name) }

// Clone checks out a repository of the server into a temporary directory.
func (s *Server) Clone(name string) string {
	s.t.Helper()
	dir := filepath.Join(s.t.TempDir(), "clone")
	u := strings.Replace(s.URL, "http://", "http://"+User+":"+s.Password+"@", 1)
	s.Run("", "clone", "-q", u+"/"+name, dir)
	return dir
}

// Deleted, as the content of a file given to Commit, deletes the file.
const Deleted = "\x00deleted"

// Commit writes files into a clone of the repository (Deleted deletes),
// commits them as author at when, pushes, and returns the commit's hash.
func (s *Server) Commit(name string, files map[string]string, message, author string, when time.Time) string {
	s.t.Helper()
	dir := s.Clone(name)
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if data == Deleted {
			require.NoError(s.t, os.Remove(full))
			continue
		}
		require.NoError(s.t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(s.t, os.WriteFile(full, []byte(data), 0o644))
	}
	s.Run(dir, "add", "-A")
	s.Run(dir, "commit", "-q", "-m", message, "--author", author, "--date", when.Format(time.RFC3339))
	s.Run(dir, "push", "-q", "origin", "HEAD:main")
	return strings.TrimSpace(s.Run(dir, "rev-parse", "HEAD"))
}

// Head returns the hash of the repository's branch main.
func (s *Server) Head(name string) string {
	s.t.Helper()
	return strings.TrimSpace(s.Run(s.Dir(name), "rev-parse", "main"))
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n.Add(int64(n))
	return n, err
}

type countingReader struct {
	io.ReadCloser
	n *atomic.Int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.n.Add(int64(n))
	return n, err
}

// logWriter sends http-backend's complaints to the test's log.
type logWriter struct{ t testing.TB }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
