package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	gitOnce sync.Once
	gitPath string
	gitSkip string
	gitErr  error
)

// gitBinary returns the path of git, installing Debian's package with
// install-git.sh when it is missing. Where it cannot be installed, the
// test skips and says why.
func gitBinary(t *testing.T) string {
	t.Helper()
	gitOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "install-git.sh")
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

// gitServer is git http-backend serving bare repositories over smart
// HTTP, behind basic auth for the user "writer".
type gitServer struct {
	t        *testing.T
	git      string
	root     string // GIT_PROJECT_ROOT
	URL      string
	Password string
}

func newGitServer(t *testing.T) *gitServer {
	t.Helper()
	s := &gitServer{t: t, git: gitBinary(t), root: t.TempDir(), Password: "pw-" + t.Name()}
	execPath := strings.TrimSpace(s.run("", "--exec-path"))
	backend := &cgi.Handler{
		Path:   filepath.Join(execPath, "git-http-backend"),
		Env:    []string{"GIT_PROJECT_ROOT=" + s.root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + s.root},
		Stderr: logWriter{t},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user, pass, ok := r.BasicAuth(); !ok || user != "writer" || pass != s.Password {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// run runs git in dir, with no configuration but the test's, and returns
// its output.
func (s *gitServer) run(dir string, args ...string) string {
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

// bare makes an empty repository and returns the Remote of its branch
// main, with the right credentials.
func (s *gitServer) bare(name string) Remote {
	s.t.Helper()
	s.run("", "init", "--bare", "-b", "main", s.dir(name))
	s.run(s.dir(name), "config", "http.receivepack", "true")
	return Remote{URL: s.URL + "/" + name, Ref: "main", Username: "writer", Password: s.Password}
}

func (s *gitServer) dir(name string) string { return filepath.Join(s.root, name) }

// clone checks out a repository of the server into a temporary directory.
func (s *gitServer) clone(name string) string {
	s.t.Helper()
	dir := filepath.Join(s.t.TempDir(), "clone")
	u := strings.Replace(s.URL, "http://", "http://writer:"+s.Password+"@", 1)
	s.run("", "clone", "-q", u+"/"+name, dir)
	return dir
}

// commit writes files into a clone of the repository (nil deletes), commits
// them as author at when, pushes, and returns the commit's hash.
func (s *gitServer) commit(name string, files map[string]string, message, author string, when time.Time) string {
	s.t.Helper()
	dir := s.clone(name)
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(s.t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(s.t, os.WriteFile(full, []byte(data), 0o644))
	}
	s.run(dir, "add", "-A")
	s.run(dir, "commit", "-q", "-m", message, "--author", author, "--date", when.Format(time.RFC3339))
	s.run(dir, "push", "-q", "origin", "HEAD:main")
	return strings.TrimSpace(s.run(dir, "rev-parse", "HEAD"))
}

// head returns the hash of the repository's branch main.
func (s *gitServer) head(name string) string {
	s.t.Helper()
	return strings.TrimSpace(s.run(s.dir(name), "rev-parse", "main"))
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

// logWriter sends http-backend's complaints to the test's log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// local is the test's context, allowed to reach the Git server the test
// runs on loopback.
func local(t *testing.T) context.Context { return WithPrivateAddresses(t.Context()) }
