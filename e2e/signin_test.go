package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
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

	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/user"
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

// TestSAMLSignInInBrowser signs in to Bindery through SAML in headless
// Chromium, against cmd/testidp (crewjam's samlidp) run on this machine as
// docs/sign-in.md shows: the organization's provider is made with the
// identity provider's certificate, Bindery's metadata is registered with
// the identity provider, and the person who signs in on its login form
// becomes an SSO member with the provider's default role (see saml.mjs).
func TestSAMLSignInInBrowser(t *testing.T) {
	dir := prepare(t)
	bin := chromium(t, dir)
	const email, login, password = "saml.jackson@example.com", "saml.jackson", "e2e-password"
	// Bindery and the identity provider are on one site, as the SAML flow
	// cookie needs over http (see signin/saml.go): Chromium maps their host
	// names to the test servers.
	const idpURL = "http://idp.bindery.test"
	idpAddr, certFile := serveTestIdP(t, idpURL, email, password)
	e := servertest.New(t)
	binderyAddr := strings.TrimPrefix(e.HTTP.URL, "http://")
	cert, err := os.ReadFile(certFile)
	require.NoError(t, err)
	var made struct {
		CreateSAMLProvider struct {
			SAMLProvider struct {
				Service struct{ EntityID, StartURL string }
			} `json:"samlProvider"`
		}
	}
	e.GraphQL(e.OwnerToken, `mutation($in: CreateSAMLProviderInput!) { createSAMLProvider(input: $in) {
	  samlProvider { service { entityID startURL } } } }`, map[string]any{"in": map[string]any{
		"organizationId": e.Org.ID, "label": "Test IdP", "ssoURL": idpURL + "/sso", "entityID": idpURL + "/metadata",
		"certificate": string(cert), "defaultRole": "EDIT"}}).Into(t, &made)
	service := made.CreateSAMLProvider.SAMLProvider.Service

	// Bindery's entity ID is its metadata's address.
	res, err := http.Get(strings.Replace(service.EntityID, e.Config.PublicURL, e.HTTP.URL, 1))
	require.NoError(t, err)
	metadata, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(metadata))
	req, err := http.NewRequest(http.MethodPut, "http://"+idpAddr+"/services/bindery", bytes.NewReader(metadata))
	require.NoError(t, err)
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Less(t, res.StatusCode, 300, "the identity provider takes Bindery's metadata")

	shot := filepath.Join(screenshots(t), "saml-signed-in.png")
	runNode(t, dir, "saml.mjs",
		"BINDERY_URL="+e.Config.PublicURL,
		"BINDERY_ADDR="+binderyAddr,
		"START_URL="+service.StartURL,
		"IDP_URL="+idpURL,
		"IDP_ADDR="+idpAddr,
		"IDP_USER="+login,
		"IDP_PASSWORD="+password,
		"EMAIL="+email,
		"SCREENSHOT="+shot,
		"CHROMIUM="+bin,
	)
	u, err := e.Client.User.Query().Where(user.Email(email)).Only(t.Context())
	require.NoError(t, err)
	m, err := e.Client.Member.Query().Where(member.OrganizationID(e.Org.ID), member.UserID(u.ID)).Only(t.Context())
	require.NoError(t, err)
	require.NotNil(t, m.Role)
	assert.Equal(t, enum.RoleEdit, *m.Role, "the provider's default role")
	assert.True(t, m.SSO)
}

// serveTestIdP builds and starts cmd/testidp for the test, reached by
// browsers at public, with one person, and returns the address it listens
// at and the file of its certificate.
func serveTestIdP(t *testing.T, public, email, password string) (addr, certFile string) {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "testidp")
	build := exec.Command("go", "build", "-o", bin, "../cmd/testidp")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building cmd/testidp: %s", out)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr = ln.Addr().String()
	require.NoError(t, ln.Close())

	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--addr", addr, "--url", public, "--dir", filepath.Join(tmp, "keys"),
		"--email", email, "--password", password)
	cmd.WaitDelay = 5 * time.Second
	logs := &lineLogger{t: t, prefix: "testidp: "}
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get("http://" + addr + "/metadata")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		require.True(t, time.Now().Before(deadline), "cmd/testidp did not answer within 30 s (its output is above)")
		time.Sleep(100 * time.Millisecond)
	}
	return addr, filepath.Join(tmp, "keys", "idp-cert.pem")
}
