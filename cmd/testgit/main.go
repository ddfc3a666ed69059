// Command testgit is a Git server for trying Bindery's Git sync on one
// machine: git http-backend, the git command's own smart HTTP server,
// serving the bare repositories of a directory to one user with a
// password. A repository it does not have yet is made, empty, at the first
// request for it. It is a development tool: it listens on loopback only.
// See docs/api/git-sync.md.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7001", "where to listen: a loopback address")
	dir := flag.String("dir", "testgit", "the directory of the bare repositories (made when missing)")
	user := flag.String("user", "bindery", "the user that may read and push")
	password := flag.String("password", "bindery", "that user's password")
	flag.Parse()
	if err := run(*addr, *dir, *user, *password); err != nil {
		log.Fatal("testgit: ", err)
	}
}

func run(addr, dir, user, password string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not a loopback address: testgit is for one machine", addr)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return fmt.Errorf("git is not installed: %w", err)
	}
	out, err := exec.Command(git, "--exec-path").Output()
	if err != nil {
		return fmt.Errorf("git --exec-path: %w", err)
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	backend := gitsynctest.Handler(strings.TrimSpace(string(out)), root, user, password, os.Stderr)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); ok && u == user && p == password {
			if err := ensureRepository(git, root, r.URL.Path); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		backend.ServeHTTP(w, r)
	})
	log.Printf("testgit: serving %s at http://%s:%s@%s/<name>.git", root, user, password, addr)
	srv := &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	return srv.ListenAndServe()
}

// ensureRepository makes the bare repository a request's path names, with
// its branch main to come and pushes allowed, when it does not exist.
func ensureRepository(git, root, path string) error {
	name, _, ok := strings.Cut(strings.TrimPrefix(path, "/"), ".git/")
	if !ok || name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, ".") {
		return nil // not a repository's path: the backend answers
	}
	repo := filepath.Join(root, filepath.FromSlash(name)+".git")
	if _, err := os.Stat(repo); err == nil {
		return nil
	}
	for _, args := range [][]string{{"init", "-q", "--bare", "-b", "main", repo}, {"-C", repo, "config", "http.receivepack", "true"}} {
		if out, err := exec.Command(git, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("making %s.git: %v: %s", name, err, out)
		}
	}
	log.Printf("testgit: made %s.git", name)
	return nil
}
