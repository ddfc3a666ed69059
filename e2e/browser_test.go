package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// TestPlaygroundInBrowser drives the GraphQL playground in headless
// Chromium: it renders from Bindery's embedded assets alone, takes a token,
// loads the schema for the docs and autocompletion, runs the README's
// GraphQL example and shows the data, and keeps the token only when asked
// (see playground.mjs).
func TestPlaygroundInBrowser(t *testing.T) {
	dir := prepare(t)
	bin := chromium(t, dir)
	e := servertest.New(t)
	e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Release notes"},
		http.StatusCreated)
	runNode(t, dir, "playground.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"BINDERY_TOKEN="+e.OwnerToken,
		"BINDERY_SESSION="+signInSession(t, e),
		"BINDERY_ORG_TITLE="+e.Org.Title,
		"BINDERY_SPACE=Release notes",
		"CHROMIUM="+bin,
	)
}

// signInSession signs the owner in, as an email link does, and returns
// the session's secret.
func signInSession(t *testing.T, e *servertest.Env) string {
	t.Helper()
	r := e.Server.Resolver()
	ctx := r.WithLoaders(auth.WithViewer(t.Context(), auth.Anonymous()))
	s, err := r.SignIn(ctx, graph.Person{Method: enum.SignInKindEmail, Email: e.Owner.Email}, "e2e")
	if err != nil {
		t.Fatal(err)
	}
	return s.Secret
}

// TestCORSInBrowser calls Bindery from pages on two other origins in
// headless Chromium: the one BINDERY_CORS_ORIGINS lists reads /graphql and
// writes through /v1; the browser refuses the other's calls, which never
// reach Bindery (see cors.mjs).
func TestCORSInBrowser(t *testing.T) {
	dir := prepare(t)
	bin := chromium(t, dir)
	blank := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>A front-end</title><p>A page on another origin."))
	})
	allowed, refused := httptest.NewServer(blank), httptest.NewServer(blank)
	t.Cleanup(allowed.Close)
	t.Cleanup(refused.Close)
	e := servertest.New(t, func(c *config.Config) { c.CORSOrigins = []string{allowed.URL} })

	runNode(t, dir, "cors.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"BINDERY_TOKEN="+e.OwnerToken,
		"BINDERY_ORG="+e.Org.ID,
		"ALLOWED_ORIGIN="+allowed.URL,
		"REFUSED_ORIGIN="+refused.URL,
		"CHROMIUM="+bin,
	)

	var titles []string
	for _, s := range e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, nil, http.StatusOK)["items"].([]any) {
		titles = append(titles, s.(map[string]any)["title"].(string))
	}
	assert.Contains(t, titles, "Made on the allowed origin")
	assert.NotContains(t, titles, "Made on the refused origin")
}

// TestPlaygroundAssetsMatchNPM fetches the playground's pinned npm packages
// again and checks that the files embedded in the server are theirs, byte
// for byte, and that the registry still publishes the integrity recorded in
// server/playground/vendor/manifest.json.
func TestPlaygroundAssetsMatchNPM(t *testing.T) {
	dir := prepare(t)
	runNodeArgs(t, dir, []string{"../server/playground/assets.mjs", "--check", "--cache", filepath.Join(dir, ".npm")})
}

var (
	chromiumOnce sync.Once
	chromiumPath string
	chromiumSkip string
	chromiumErr  error
)

// chromium returns the path of a Chromium binary, installing Debian's
// package with install-chromium.sh when it is missing. Where it cannot be
// installed, the test skips and says why.
func chromium(t *testing.T, dir string) string {
	t.Helper()
	chromiumOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", filepath.Join(dir, "install-chromium.sh"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			chromiumPath = strings.TrimSpace(stdout.String())
		case errors.As(err, &exit) && exit.ExitCode() == 3:
			chromiumSkip = strings.TrimSpace(lastLine(stderr.String()))
		default:
			chromiumErr = fmt.Errorf("install-chromium.sh: %v\n%s", err, stderr.String())
		}
	})
	if chromiumSkip != "" {
		t.Skipf("skipping: the browser checks need Chromium: %s", chromiumSkip)
	}
	if chromiumErr != nil {
		t.Fatal(chromiumErr)
	}
	return chromiumPath
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
