// Package e2e runs Bindery against third-party clients: GitBook's official
// JavaScript API client @gitbook/api, which must work against /v1
// unchanged; graphql-http's GraphQL-over-HTTP audit suite, which checks
// /graphql; and headless Chromium, which drives the playground and calls
// the APIs across origins (browser_test.go).
//
// The Node.js dependencies are pinned in package.json and package-lock.json
// next to this file and installed with `npm ci` on first use. The tests skip
// on a machine without node and npm. Like every server test, they run on
// SQLite, or on PostgreSQL when BINDERY_TEST_DATABASE_URL is set.
package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"image"
	pngenc "image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// scriptTimeout bounds one run of a Node.js script.
const scriptTimeout = 3 * time.Minute

// TestGitBookClient drives /v1 with GitBook's official JavaScript client,
// @gitbook/api, through every organization, collection and space operation
// Bindery serves.
func TestGitBookClient(t *testing.T) {
	dir := prepare(t)
	e := servertest.New(t)
	org2, err := graph.CreateOrganization(context.Background(), e.Client, "Second Org", e.Owner.ID)
	require.NoError(t, err)
	runNode(t, dir, "gitbook-client.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"BINDERY_TOKEN="+e.OwnerToken,
		"BINDERY_ORG="+e.Org.ID,
		"BINDERY_ORG2="+org2.ID,
	)
}

// TestGitBookClientFlows runs, with the official client, the flows a new user
// tries first: filling a new space by import and reading its pages and files;
// reading a public space of another organization as a stranger, with /v1
// and GraphQL showing the same organization, parent and authors, and no
// email; finding a broken link, fixing it in a change request and merging
// it; administering the organization: invites by email (each accepted by
// its invitee) and by link, a team's access, the last admin, a SAML
// provider with the certificate of IdP metadata; publishing a site with
// sections, a group, a redirect, visitor authentication, adaptive content
// and a share link, read by a stranger; and a translation in the official
// form.
func TestGitBookClientFlows(t *testing.T) {
	dir := prepare(t)
	e := servertest.New(t, func(c *config.Config) { c.ImportAllowPrivate = true })
	ctx := context.Background()

	// The document to import, with its image, served from this machine.
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var png bytes.Buffer
	require.NoError(t, pngenc.Encode(&png, img))
	mux := http.NewServeMux()
	mux.HandleFunc("/doc.md", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		_, _ = io.WriteString(w, "# Getting started\n\nHello from the import.\n\n![diagram](diagram.png)\n")
	})
	mux.HandleFunc("/diagram.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(png.Bytes())
	})
	// Markdown documents that link to each other, one to a missing page.
	var archive bytes.Buffer
	zw := zip.NewWriter(&archive)
	for name, md := range map[string]string{
		"getting-started.md": "# Getting started\n\nRead [the setup](setup.md#steps) and [the FAQ](faq.md).\n",
		"setup.md":           "# Setup\n\n## Steps\n\nFirst read [Getting started](getting-started.md).\n",
	} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = io.WriteString(w, md)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	mux.HandleFunc("/docs.zip", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(archive.Bytes())
	})
	src := httptest.NewServer(mux)
	t.Cleanup(src.Close)

	// Another organization with a public space in a collection its members
	// see only at the guest level, and a change request by its owner.
	other := e.User("other-owner@else.example")
	otherOrg, err := graph.CreateOrganization(ctx, e.Client, "Other Org", other.ID)
	require.NoError(t, err)
	otherTok := e.Token(other)
	col := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg.ID+"/collections", otherTok, map[string]any{"title": "Hidden"},
		http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, "/v1/collections/"+col, otherTok, map[string]any{"defaultLevel": nil}, http.StatusOK)
	public := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg.ID+"/spaces", otherTok,
		map[string]any{"title": "Public docs", "parent": col}, http.StatusCreated)["id"].(string)
	require.NoError(t, e.Client.Space.UpdateOneID(public).SetVisibility(enum.VisibilityPublic).Exec(ctx))
	e.MustDo(http.MethodPost, "/v1/spaces/"+public+"/change-requests", otherTok, map[string]any{"subject": "Typos"},
		http.StatusCreated)

	runNode(t, dir, "gitbook-flows.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"BINDERY_TOKEN="+e.OwnerToken,
		"BINDERY_ORG="+e.Org.ID,
		"BINDERY_IMPORT="+src.URL+"/doc.md",
		"BINDERY_PUBLIC="+public,
		"BINDERY_STRANGER="+e.Token(e.User("stranger@nowhere.example")),
		"BINDERY_IMPORT_LINKS="+src.URL+"/docs.zip",
		// The people the flow invites, who have accounts, and their tokens,
		// which the test issues as `bindery token create` would: each
		// accepts their invitation with theirs.
		"BINDERY_INVITEES=ann@acme.example,bob@acme.example",
		"BINDERY_INVITEE_TOKENS="+e.Token(e.User("ann@acme.example"))+","+e.Token(e.User("bob@acme.example")),
		"BINDERY_JOINER="+e.Token(e.User("carol@else.example")),
		"BINDERY_SAML_CERT="+bareDER(t, servertest.Certificate(t)),
	)
}

// bareDER is a PEM certificate as SAML metadata carries it: the base64 of
// its DER, without the PEM lines.
func bareDER(t *testing.T, cert string) string {
	block, _ := pem.Decode([]byte(cert))
	require.NotNil(t, block)
	return base64.StdEncoding.EncodeToString(block.Bytes)
}

// TestGraphQLOverHTTPAudit runs graphql-http's server audits against
// /graphql. Any audit with status "error" or "warn" fails the test; notices
// are logged.
func TestGraphQLOverHTTPAudit(t *testing.T) {
	dir := prepare(t)
	e := servertest.New(t)
	runNode(t, dir, "graphql-audit.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"BINDERY_TOKEN="+e.OwnerToken,
	)
}

var (
	installOnce sync.Once
	installErr  error
)

// prepare skips the test without node and npm, installs the pinned Node.js
// dependencies once per test binary, and returns the directory of the
// scripts.
func prepare(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s is not on PATH; the end-to-end checks need Node.js 20+ and npm", tool)
		}
	}
	dir, err := filepath.Abs(".")
	require.NoError(t, err)
	installOnce.Do(func() { installErr = install(t, dir) })
	if installErr != nil {
		t.Fatalf("installing the Node.js dependencies: %v", installErr)
	}
	return dir
}

// install runs `npm ci` in dir when node_modules is missing or older than
// package-lock.json. npm records a completed install in
// node_modules/.package-lock.json, so its time is the one compared. A lock
// directory in the git-ignored e2e/.npm keeps two test processes (say, one
// on SQLite and one on PostgreSQL) from installing at the same time.
func install(t *testing.T, dir string) error {
	cache := filepath.Join(dir, ".npm")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	unlock, err := lockDir(filepath.Join(cache, "install.lock"), 5*time.Minute)
	if err != nil {
		return err
	}
	defer unlock()
	if fresh, err := installed(dir); err != nil || fresh {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// --ignore-scripts: none of the pinned packages needs an install script,
	// and a test should not run one. The cache stays in the (git-ignored)
	// e2e/.npm so that the install touches nothing outside the repository.
	cmd := exec.CommandContext(ctx, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund",
		"--prefer-offline", "--cache", cache)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	out := &lineLogger{t: t, prefix: "npm ci: "}
	cmd.Stdout, cmd.Stderr = out, out
	err = cmd.Run()
	out.Flush()
	if err != nil {
		return fmt.Errorf("npm ci: %w", err)
	}
	return nil
}

// installed reports whether node_modules holds an install at least as new as
// package-lock.json.
func installed(dir string) (bool, error) {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false, err
	}
	done, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !done.ModTime().Before(lock.ModTime()), nil
}

// lockDir takes a lock shared between processes by creating a directory,
// which is atomic on every platform. A lock older than stale is left over
// from a killed process and is broken.
func lockDir(path string, stale time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(stale + time.Minute)
	for {
		err := os.Mkdir(path, 0o755)
		if err == nil {
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("taking the install lock: %w", err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > stale {
			_ = os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the install lock %s is still held", path)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// runNode runs a script of dir with node and the given extra environment,
// logging its output line by line, and fails the test if it exits non-zero.
func runNode(t *testing.T, dir, script string, env ...string) {
	t.Helper()
	runNodeArgs(t, dir, []string{script}, env...)
}

// runNodeArgs is runNode with arguments after the script.
func runNodeArgs(t *testing.T, dir string, args []string, env ...string) {
	t.Helper()
	script := args[0]
	ctx, cancel := context.WithTimeout(context.Background(), scriptTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out := &lineLogger{t: t, prefix: script + ": "}
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	out.Flush()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %s", script, scriptTimeout)
	}
	if err != nil {
		t.Fatalf("%s failed: %v (its output is above)", script, err)
	}
}

// lineLogger writes each complete line to the test log. Stdout and stderr
// share one logger, so writes are serialized.
type lineLogger struct {
	t      *testing.T
	prefix string
	mu     sync.Mutex
	buf    []byte
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if line := strings.TrimRight(string(l.buf[:i]), "\r"); line != "" {
			l.t.Log(l.prefix + line)
		}
		l.buf = l.buf[i+1:]
	}
}

// Flush logs a last line without a newline.
func (l *lineLogger) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.t.Log(l.prefix + string(l.buf))
		l.buf = nil
	}
}

var _ io.Writer = (*lineLogger)(nil)
