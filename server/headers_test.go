package server_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/playground"
	"github.com/bindery/bindery/server/servertest"
)

// Every response tells browsers not to sniff its type: successes and errors,
// of every route and of none.
func TestNoSniff(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	page := e.Do(http.MethodGet, "/playground", "", nil)
	require.Equal(t, http.StatusOK, page.Status)
	asset := regexp.MustCompile(`src="(playground/assets/[0-9a-f]+/graphiql\.min\.js)"`).FindSubmatch(page.Body)
	require.NotNil(t, asset, "the page loads GraphiQL")

	// A file behind a signed URL.
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Files"},
		http.StatusCreated)["id"].(string)
	g := e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateSpace(input: {id: $id, editMode: LIVE}) { space { id } } }`,
		map[string]any{"id": space})
	require.Empty(t, g.Errors)
	up := e.Upload(e.OwnerToken, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { downloadURL } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "file": nil}}, "in.file", "a.html", "text/html", []byte("<script>alert(1)</script>"))
	var out struct {
		UploadFile struct{ File struct{ DownloadURL string } }
	}
	up.Into(t, &out)

	for _, c := range []struct {
		name   string
		res    *servertest.Response
		status int
	}{
		{"health", e.Do(http.MethodGet, "/healthz", "", nil), http.StatusOK},
		{"readiness", e.Do(http.MethodGet, "/readyz", "", nil), http.StatusOK},
		{"playground", page, http.StatusOK},
		{"playground asset", e.Do(http.MethodGet, "/"+string(asset[1]), "", nil), http.StatusOK},
		{"unknown playground asset", e.Do(http.MethodGet, "/playground/assets/00/graphiql.min.js", "", nil), http.StatusNotFound},
		{"GraphQL", e.Do(http.MethodPost, "/graphql", e.OwnerToken, map[string]any{"query": "{ viewer { id } }"}), http.StatusOK},
		{"GraphQL without a token", e.Do(http.MethodPost, "/graphql", "", map[string]any{"query": "{ viewer { id } }"}), http.StatusUnauthorized},
		{"GraphQL mutation over GET", e.Do(http.MethodGet, "/graphql?query=mutation{__typename}", e.OwnerToken, nil), http.StatusMethodNotAllowed},
		{"REST", e.Do(http.MethodGet, "/v1/user", e.OwnerToken, nil), http.StatusOK},
		{"REST not found", e.Do(http.MethodGet, "/v1/spaces/spc_missing", e.OwnerToken, nil), http.StatusNotFound},
		{"no such route", e.Do(http.MethodGet, "/nowhere", "", nil), http.StatusNotFound},
		{"wrong method", e.Do(http.MethodPost, "/healthz", "", nil), http.StatusMethodNotAllowed},
		{"file", e.Get(out.UploadFile.File.DownloadURL), http.StatusOK},
		{"file with a bad signature", e.Do(http.MethodGet, "/files/"+space+"/x/a.html?sig=bad", "", nil), http.StatusForbidden},
	} {
		assert.Equal(t, c.status, c.res.Status, c.name)
		assert.Equal(t, "nosniff", c.res.Header.Get("X-Content-Type-Options"), c.name)
	}
}

// The playground is served from the embedded assets under its content
// security policy (the playground package tests the page and its
// integrity; e2e drives it in a browser).
func TestPlaygroundRoutes(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	page := e.Do(http.MethodGet, "/playground", "", nil)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Equal(t, playground.CSP, page.Header.Get("Content-Security-Policy"))
	assert.Equal(t, "text/html; charset=utf-8", page.Header.Get("Content-Type"))
	assert.NotContains(t, string(page.Body), "cdn.jsdelivr.net")
	assert.NotContains(t, string(page.Body), "unpkg.com")

	for _, a := range playground.New("graphql").Assets() {
		res := e.Do(http.MethodGet, "/"+a.URL(), "", nil)
		assert.Equal(t, http.StatusOK, res.Status, a.Name)
		assert.Equal(t, a.Body, res.Body, a.Name)
		assert.Equal(t, a.ContentType, res.Header.Get("Content-Type"), a.Name)
		assert.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"), a.Name)
	}
	assert.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, "/playground/", "", nil).Status)
}
