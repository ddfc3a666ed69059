package app_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
	"github.com/bindery/bindery/signin"
)

// fixture is a server whose organization has a space of pages, with a
// change request that edits one page and adds another, like the demo's.
type fixture struct {
	e *servertest.Env
	// space is the Guide; welcome, install and linux (under install) its
	// pages; cr the change request's number.
	space, welcome, install, linux string
	crID                           string
	// session is the owner's session secret.
	session string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := servertest.New(t)
	f := &fixture{e: e}
	f.space = f.newSpace("Guide")
	f.welcome = f.page(f.space, "", map[string]any{"title": "Welcome", "emoji": "👋",
		"markdown": "Welcome to the **quokka** guide.\n\nRead [the install page](install.md).\n"})
	f.install = f.page(f.space, "", map[string]any{"title": "Install", "markdown": "Install it.\n"})
	f.linux = f.page(f.space, f.install, map[string]any{"title": "Linux", "markdown": "On Linux, run the installer.\n"})
	f.session = f.signIn(e.Owner.Email)
	return f
}

// newSpace creates a space through /v1 whose main content is edited
// directly.
func (f *fixture) newSpace(title string) string {
	f.e.T.Helper()
	id := f.e.MustDo(http.MethodPost, "/v1/orgs/"+f.e.Org.ID+"/spaces", f.e.OwnerToken,
		map[string]any{"title": title}, http.StatusCreated)["id"].(string)
	f.e.Client.Space.UpdateOneID(id).SetEditMode(enum.EditModeLive).ExecX(context.Background())
	return id
}

// page creates a page of a space through GraphQL, under parent when it is
// not "", and returns its ID.
func (f *fixture) page(space, parent string, in map[string]any) string {
	f.e.T.Helper()
	in["spaceId"] = space
	if parent != "" {
		in["parentPageId"] = parent
	}
	var out struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": in}).Into(f.e.T, &out)
	return out.CreatePage.Page.ID
}

// changeRequest opens the Guide's change request #1: it adds a
// troubleshooting section to Install, as the demo's does, and a page FAQ.
func (f *fixture) changeRequest() {
	f.e.T.Helper()
	var out struct {
		CreateChangeRequest struct{ ChangeRequest struct{ ID string } }
	}
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { changeRequest { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": f.space, "subject": "Add a troubleshooting section"}}).Into(f.e.T, &out)
	f.crID = out.CreateChangeRequest.ChangeRequest.ID
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"changeRequestId": f.crID, "pageId": f.install,
			"markdown": "Install it.\n\n## Troubleshooting\n\nIf the port is taken, set BINDERY_ADDR.\n"}}).Into(f.e.T, &struct{}{})
	var page struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"changeRequestId": f.crID, "title": "FAQ", "markdown": "Questions.\n"}}).Into(f.e.T, &page)
}

// signIn starts a session for the person with email, as sign-in does.
func (f *fixture) signIn(email string) string {
	f.e.T.Helper()
	res := f.e.Server.Resolver()
	s, err := res.SignIn(res.WithLoaders(context.Background()), graph.Person{Method: enum.SignInKindEmail, Email: email}, "test")
	require.NoError(f.e.T, err)
	return s.Secret
}

// response is an answer as a browser gets it, without following
// redirects.
type response struct {
	status int
	header http.Header
	body   string
}

// get fetches path with the session secret in the cookie ("": none).
func (f *fixture) get(t testing.TB, path, session string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.e.HTTP.URL+path, nil)
	require.NoError(t, err)
	if session != "" {
		req.AddCookie(&http.Cookie{Name: signin.SessionCookie(false), Value: session})
	}
	client := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}
