package e2e

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/useridentity"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/server/servertest"
)

// TestOIDCSignInInBrowser signs in to Bindery with OpenID Connect in
// headless Chromium, against node-oidc-provider run on this machine:
// Bindery's sign-in page (screenshot, axe-core), the provider's login and
// consent pages, and back at Bindery with a session whose viewer is the
// provider's account (see oidc.mjs).
func TestOIDCSignInInBrowser(t *testing.T) {
	dir := prepare(t)
	bin := chromium(t, dir)
	const (
		email    = "ada@example.com"
		clientID = "bindery"
		secret   = "e2e-client-secret"
	)
	// Bindery's public URL names a host Chromium maps to the test server:
	// the provider needs the redirect URI before the server exists.
	public := "http://bindery.test"
	issuer := serveOIDC(t, dir, "OIDC_REDIRECT_URI="+public+"/auth/oidc/acme-id/callback", "OIDC_CLIENT_ID="+clientID,
		"OIDC_CLIENT_SECRET="+secret, "OIDC_EMAIL="+email)
	e := servertest.New(t, func(c *config.Config) {
		c.PublicURL = public
		c.OIDCProviders = []config.OIDCProvider{{Name: "Acme ID", Issuer: issuer, ClientID: clientID, ClientSecret: secret}}
	})
	ada := e.User(email)

	shot := filepath.Join(screenshots(t), "sign-in.png")
	u, err := url.Parse(e.HTTP.URL)
	require.NoError(t, err)
	runNodeArgs(t, dir, []string{"oidc.mjs", "browse"},
		"BINDERY_URL="+public,
		"BINDERY_ADDR="+u.Host,
		"OIDC_ISSUER="+issuer,
		"OIDC_NAME=Acme ID",
		"OIDC_EMAIL="+email,
		"SCREENSHOT="+shot,
		"CHROMIUM="+bin,
	)
	t.Logf("screenshot of the sign-in page: %s", shot)
	info, err := os.Stat(shot)
	require.NoError(t, err)
	assert.Positive(t, info.Size())

	// The provider's account is linked to the user its address found.
	linked, err := e.Client.UserIdentity.Query().Where(useridentity.Issuer(issuer)).QueryUser().OnlyID(t.Context())
	require.NoError(t, err)
	assert.Equal(t, ada.ID, linked)
}

// screenshots is where a test's screenshots go: BINDERY_E2E_SCREENSHOTS,
// for a person to look at them after the run, or the test's own temporary
// directory.
func screenshots(t *testing.T) string {
	if dir := os.Getenv("BINDERY_E2E_SCREENSHOTS"); dir != "" {
		return dir
	}
	return t.TempDir()
}

// TestEmailSignInInBrowser signs in with an email link in headless
// Chromium and checks each page on the way with axe-core (see signin.mjs).
// The link is made here, as the server makes the one it mails.
func TestEmailSignInInBrowser(t *testing.T) {
	dir := prepare(t)
	bin := chromium(t, dir)
	e := servertest.New(t)
	secret := "bnl_" + id.Random(40)
	require.NoError(t, e.Server.Resolver().BeginFlow(t.Context(), secret, graph.Flow{Kind: enum.SignInKindEmail,
		Email: e.Owner.Email, ReturnTo: "/playground", ExpiresAt: time.Now().Add(15 * time.Minute)}))
	shots := screenshots(t)
	runNode(t, dir, "signin.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"EMAIL="+e.Owner.Email,
		"LINK="+e.HTTP.URL+"/auth/email/confirm?token="+secret,
		"APP_PAGES="+strings.Join(appPages(t, e), " "),
		"SCREENSHOTS="+shots,
		"CHROMIUM="+bin,
	)
	t.Logf("screenshots of the sign-in pages: %s", shots)
}

// appPages makes a space with a page and a change request that edits it,
// and returns the addresses of the app's views of them, with the start
// page's and the organization's.
func appPages(t *testing.T, e *servertest.Env) []string {
	t.Helper()
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Guide"},
		http.StatusCreated)["id"].(string)
	e.Client.Space.UpdateOneID(space).SetEditMode(enum.EditModeLive).ExecX(t.Context())
	var page struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "title": "Install", "markdown": "Install it.\n\n```sh\nmake run\n```\n"}}).
		Into(t, &page)
	var cr struct {
		CreateChangeRequest struct{ ChangeRequest struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { changeRequest { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "subject": "Troubleshooting"}}).Into(t, &cr)
	e.GraphQL(e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"changeRequestId": cr.CreateChangeRequest.ChangeRequest.ID,
			"pageId": page.CreatePage.Page.ID, "markdown": "Install it.\n\n## Troubleshooting\n\nSet BINDERY_ADDR.\n"}}).
		Into(t, &struct{}{})
	return []string{"/", "/o/" + e.Org.ID, "/s/" + space, "/s/" + space + "/install", "/s/" + space + "/~/changes/1"}
}

// serveOIDC starts node-oidc-provider (oidc.mjs serve) for the test and
// returns its issuer.
func serveOIDC(t *testing.T, dir string, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", "oidc.mjs", "serve")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out := &lineLogger{t: t, prefix: "oidc-provider: "}
	cmd.Stderr = out
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	issuer := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "issuer "); ok {
				issuer <- u
				continue
			}
			_, _ = out.Write(append(sc.Bytes(), '\n'))
		}
		close(issuer)
	}()
	select {
	case u, ok := <-issuer:
		require.True(t, ok, "oidc.mjs serve ended before it listened (its output is above)")
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("oidc.mjs serve did not listen within 30 s")
		return ""
	}
}
