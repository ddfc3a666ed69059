package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// ctEnv is a test's organization with a member of each role and a space
// whose main content is edited live.
type ctEnv struct {
	*servertest.Env
	t testing.TB
	// Tokens of members of Env.Org by role.
	admin, editor, commenter, reader, guest string
	// editorID is the editor's user ID.
	editorID string
	// stranger is a user of no organization but their own.
	stranger string
	// space is a private space of Env.Org whose editMode is live.
	space string
}

func newCtEnv(t *testing.T, opts ...servertest.Option) *ctEnv {
	e := servertest.New(t, opts...)
	c := &ctEnv{Env: e, t: t, admin: e.OwnerToken}
	editor, u := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	c.editor, c.editorID = editor, u.ID
	c.commenter, _ = e.Member(e.Org.ID, enum.RoleComment, "commenter@example.com")
	c.reader, _ = e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	c.guest, _ = e.Member(e.Org.ID, "", "guest@example.com")
	c.stranger = e.Token(e.User("stranger@example.com"))
	c.space = c.newSpace("Handbook", true)
	return c
}

// newSpace creates a space of the test organization; live makes its main
// content editable without change requests.
func (c *ctEnv) newSpace(title string, live bool) string {
	c.t.Helper()
	id := c.MustDo(http.MethodPost, "/v1/orgs/"+c.Org.ID+"/spaces", c.admin, map[string]any{"title": title},
		http.StatusCreated)["id"].(string)
	if live {
		c.MustDo(http.MethodPatch, "/v1/spaces/"+id, c.admin, map[string]any{"editMode": "live"}, http.StatusOK)
	}
	return id
}

// otherSpace creates a private space of another organization.
func (c *ctEnv) otherSpace() string {
	c.t.Helper()
	owner := c.User("other-owner@example.com")
	tok := c.Token(owner)
	org := c.GraphQL(tok, `mutation { createOrganization(input: {title: "Other Org"}) { organization { id } } }`, nil)
	var data struct {
		CreateOrganization struct{ Organization struct{ ID string } }
	}
	org.Into(c.t, &data)
	return c.MustDo(http.MethodPost, "/v1/orgs/"+data.CreateOrganization.Organization.ID+"/spaces", tok,
		map[string]any{"title": "Secret"}, http.StatusCreated)["id"].(string)
}

// spaceRevision is the current revision of a space's main content.
func (c *ctEnv) spaceRevision(spaceID string) string {
	c.t.Helper()
	return c.MustDo(http.MethodGet, "/v1/spaces/"+spaceID, c.admin, nil, http.StatusOK)["revision"].(string)
}

// gql runs a GraphQL operation as tok and returns its data.
func (c *ctEnv) gql(tok, query string, vars map[string]any) map[string]any {
	c.t.Helper()
	var data map[string]any
	c.GraphQL(tok, query, vars).Into(c.t, &data)
	return data
}

// ctInSpace and ctInCR name the content a GraphQL edit applies to.
func ctInSpace(id string) map[string]any { return map[string]any{"spaceId": id} }
func ctInCR(id string) map[string]any    { return map[string]any{"changeRequestId": id} }

func ctWith(target map[string]any, fields map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range target {
		out[k] = v
	}
	for k, v := range fields {
		out[k] = v
	}
	return out
}

// createPage creates a page through GraphQL as tok and returns its ID.
func (c *ctEnv) createPage(tok string, target, fields map[string]any) string {
	c.t.Helper()
	data := c.gql(tok, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": ctWith(target, fields)})
	return ctAt(data, "createPage", "page", "id").(string)
}

// setMarkdown replaces a page's markdown through GraphQL as tok.
func (c *ctEnv) setMarkdown(tok string, target map[string]any, pageID, markdown string) {
	c.t.Helper()
	c.gql(tok, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
		map[string]any{"in": ctWith(target, map[string]any{"pageId": pageID, "markdown": markdown})})
}

// updatePage changes a page through GraphQL.
func (c *ctEnv) updatePage(target map[string]any, pageID string, fields map[string]any) {
	c.t.Helper()
	c.gql(c.admin, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { id } } }`,
		map[string]any{"in": ctWith(target, ctWith(map[string]any{"pageId": pageID}, fields))})
}

// upload uploads a file through a GraphQL multipart request and returns its
// ID.
func (c *ctEnv) upload(target map[string]any, name, contentType string, data []byte) string {
	c.t.Helper()
	g := c.Upload(c.admin, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
		map[string]any{"in": ctWith(target, map[string]any{"file": nil})}, "in.file", name, contentType, data)
	var out map[string]any
	g.Into(c.t, &out)
	return ctAt(out, "uploadFile", "file", "id").(string)
}

// fetch gets a URL the API handed out, without credentials, from the test
// server, which answers for the configured public URL.
func (c *ctEnv) fetch(u string) (int, []byte) {
	c.t.Helper()
	rest, ok := strings.CutPrefix(u, c.Config.PublicURL)
	require.True(c.t, ok, "%s is not under the public URL", u)
	res, err := c.HTTP.Client().Get(c.HTTP.URL + rest)
	require.NoError(c.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(c.t, err)
	return res.StatusCode, b
}

// ctPNG is a PNG image of the given size.
func ctPNG(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))))
	return b.Bytes()
}

// ctAt walks a decoded JSON value along object members and array indexes.
func ctAt(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// ctIDs returns the id members of a JSON array.
func ctIDs(v any) []string {
	var out []string
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

// ctDecode decodes a response body.
func ctDecode(t testing.TB, res *servertest.Response) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(res.Body, &v), string(res.Body))
	return v
}

// ctTree is a space with every kind of page and a file:
//
//	guide (document, emoji, description, an image of logo.png)
//	  install (document)
//	    linux (document)
//	reference (group)
//	  api (document)
//	example (link to https://example.com)
//	to-guide (link to guide)
type ctTree struct {
	guide, install, linux, reference, api, example, toGuide string
	logo                                                    string
}

const ctGuideMarkdown = "# Guide\n\nRead *this*.\n\n![Logo](.gitbook/assets/logo.png)\n"

func (c *ctEnv) tree(target map[string]any) ctTree {
	c.t.Helper()
	var tr ctTree
	tr.logo = c.upload(target, "logo.png", "image/png", ctPNG(c.t, 3, 2))
	tr.guide = c.createPage(c.admin, target, map[string]any{"title": "Guide", "emoji": "📘",
		"description": "How to start", "markdown": ctGuideMarkdown})
	tr.install = c.createPage(c.admin, target, map[string]any{"title": "Install", "parentPageId": tr.guide,
		"markdown": "Run it."})
	tr.linux = c.createPage(c.admin, target, map[string]any{"title": "Linux", "parentPageId": tr.install})
	tr.reference = c.createPage(c.admin, target, map[string]any{"title": "Reference", "type": "GROUP"})
	tr.api = c.createPage(c.admin, target, map[string]any{"title": "API", "parentPageId": tr.reference,
		"markdown": "Calls."})
	tr.example = c.createPage(c.admin, target, map[string]any{"title": "Example", "type": "LINK",
		"href": "https://example.com"})
	tr.toGuide = c.createPage(c.admin, target, map[string]any{"title": "To guide", "type": "LINK",
		"targetPageId": tr.guide})
	return tr
}

// ctContentErrors are the scenarios every content read of a space shares.
func (c *ctEnv) ctContentErrors(prefix, suffix string) []servertest.Scenario {
	other := c.otherSpace()
	path := func(space string) string { return "/v1/spaces/" + space + prefix + suffix }
	get := func(name, p, tok string, status int) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: p, Token: tok, WantStatus: status}
	}
	return []servertest.Scenario{
		get("no token", path(c.space), "", http.StatusUnauthorized),
		get("unknown space", path("spc_doesnotexist"), c.admin, http.StatusNotFound),
		get("space of another organization", path(other), c.admin, http.StatusNotFound),
		get("stranger", path(c.space), c.stranger, http.StatusNotFound),
		get("guest", path(c.space), c.guest, http.StatusNotFound),
		get("bad metadata", path(c.space)+ctQuery(suffix, "metadata=nope"), c.admin, http.StatusBadRequest),
		get("bad computed", path(c.space)+ctQuery(suffix, "computed=2"), c.admin, http.StatusBadRequest),
	}
}

// ctQuery is the separator and the query to append to a path.
func ctQuery(path, q string) string {
	if strings.Contains(path, "?") {
		return "&" + q
	}
	return "?" + q
}

func TestContentRevision(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	empty := c.spaceRevision(c.space)
	c.Run(t, []servertest.Scenario{{Name: "an empty space", Method: http.MethodGet, Path: "/v1/spaces/" + c.space + "/content",
		Token: c.reader, WantStatus: http.StatusOK, WantJSON: map[string]any{
			"object": "revision", "id": empty, "parents": []any{}, "pages": []any{}, "files": []any{},
			"reusableContents": []any{}, "type": "edits",
			"urls": map[string]any{"location": "http://bindery.test/v1/spaces/" + c.space + "/revisions/" + empty},
		}}})

	tr := c.tree(ctInSpace(c.space))
	c.updatePage(ctInSpace(c.space), tr.install, map[string]any{"layout": map[string]any{"width": "WIDE"},
		"cover": map[string]any{"fileId": tr.logo, "yPos": 12.5}, "hidden": true})
	rev := c.spaceRevision(c.space)
	app := "http://bindery.test/s/" + c.space
	res := c.Do(http.MethodGet, "/v1/spaces/"+c.space+"/content", c.reader, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	body := ctDecode(t, res)
	assert.Equal(t, rev, body["id"])
	assert.Equal(t, "edits", body["type"])
	assert.Len(t, body["parents"], 1)
	assert.NotContains(t, body, "git", "a revision does not record a commit: Git sync operations do")
	assert.Equal(t, []string{tr.guide, tr.reference, tr.example, tr.toGuide}, ctIDs(body["pages"]))
	servertest.AssertContains(t, map[string]any{
		"id": tr.guide, "title": "Guide", "type": "document", "kind": "sheet", "emoji": "📘", "slug": "guide",
		"path": "guide", "description": "How to start", "markdown": ctGuideMarkdown, "hidden": false,
		"urls":   map[string]any{"app": app + "/guide"},
		"layout": map[string]any{"width": "default", "cover": true, "coverSize": "hero", "title": true},
		"git":    map[string]any{"path": "README.md"}, // the space's first page, as a Git export writes it
	}, ctAt(body, "pages", 0))
	assert.NotContains(t, ctAt(body, "pages", 0), "document", "a tree carries markdown only")
	assert.Len(t, ctAt(body, "pages", 0, "git", "oid"), 64)
	servertest.AssertContains(t, map[string]any{
		"id": tr.install, "path": "guide/install", "markdown": "Run it.", "hidden": true,
		"urls":   map[string]any{"app": app + "/guide/install"},
		"layout": map[string]any{"width": "wide", "cover": true},
		"cover":  map[string]any{"ref": map[string]any{"kind": "file", "file": tr.logo}, "yPos": 12.5},
		"git":    map[string]any{"path": "guide/install/README.md"},
		"pages": []any{map[string]any{"id": tr.linux, "path": "guide/install/linux", "markdown": "", "git": map[string]any{"path": "guide/install/linux.md"},
			"pages": []any{}}},
	}, ctAt(body, "pages", 0, "pages", 0))
	group := ctAt(body, "pages", 1).(map[string]any)
	servertest.AssertContains(t, map[string]any{"id": tr.reference, "type": "group", "kind": "group", "path": "reference",
		"pages": []any{map[string]any{"id": tr.api, "path": "reference/api", "markdown": "Calls."}}}, group)
	for _, m := range []string{"markdown", "document", "layout", "git"} {
		assert.NotContains(t, group, m, "a group has no %s", m)
	}
	servertest.AssertContains(t, map[string]any{"id": tr.example, "type": "link", "kind": "link",
		"target": map[string]any{"kind": "url", "url": "https://example.com"}, "href": "https://example.com"},
		ctAt(body, "pages", 2))
	servertest.AssertContains(t, map[string]any{"id": tr.toGuide, "type": "link",
		"target": map[string]any{"kind": "page", "page": tr.guide}}, ctAt(body, "pages", 3))
	assert.NotContains(t, ctAt(body, "pages", 3), "pages", "a link has no nested pages")
	servertest.AssertContains(t, []any{map[string]any{
		"id": tr.logo, "name": "logo.png", "contentType": "image/png", "size": len(ctPNG(t, 3, 2)),
		"dimensions": map[string]any{"width": 3, "height": 2},
		"git":        map[string]any{"path": ".gitbook/assets/logo.png"},
	}}, body["files"])

	// Without metadata, no git members.
	noMeta := ctDecode(t, c.Do(http.MethodGet, "/v1/spaces/"+c.space+"/content?metadata=false&computed=false", c.admin, nil))
	assert.NotContains(t, ctAt(noMeta, "pages", 0), "git")
	assert.NotContains(t, ctAt(noMeta, "pages", 0, "pages", 0), "git")
	assert.NotContains(t, ctAt(noMeta, "files", 0), "git")
	assert.Equal(t, ctAt(body, "pages", 0, "markdown"), ctAt(noMeta, "pages", 0, "markdown"))

	c.Run(t, c.ctContentErrors("/content", ""))
}

func TestContentPages(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	tr := c.tree(ctInSpace(c.space))
	whole := ctDecode(t, c.Do(http.MethodGet, "/v1/spaces/"+c.space+"/content", c.admin, nil))
	c.Run(t, append([]servertest.Scenario{
		{Name: "the tree of the revision", Method: http.MethodGet, Path: "/v1/spaces/" + c.space + "/content/pages",
			Token: c.reader, WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				body := ctDecode(t, res)
				assert.Equal(t, []string{"pages"}, ctKeys(body))
				assert.Equal(t, whole["pages"], body["pages"])
				assert.Equal(t, []string{tr.install}, ctIDs(ctAt(body, "pages", 0, "pages")))
			}},
		{Name: "metadata=false", Method: http.MethodGet, Path: "/v1/spaces/" + c.space + "/content/pages?metadata=false",
			Token: c.reader, WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, ctAt(ctDecode(t, res), "pages", 0), "git")
			}},
	}, c.ctContentErrors("/content/pages", "")...))
}

func ctKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ctDocumentRefs collects the content references of a JSON document: the
// data.ref of its nodes.
func ctDocumentRefs(v any) []map[string]any {
	var out []map[string]any
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := ctAt(x, "data", "ref").(map[string]any); ok {
				out = append(out, ref)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return out
}

func TestContentPage(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	tr := c.tree(ctInSpace(c.space))
	page := func(id, query string) string { return "/v1/spaces/" + c.space + "/content/page/" + id + query }
	get := func(name, path, tok string, status int, want map[string]any, check func(*testing.T, map[string]any)) servertest.Scenario {
		sc := servertest.Scenario{Name: name, Method: http.MethodGet, Path: path, Token: tok, WantStatus: status, WantJSON: want}
		if check != nil {
			sc.Check = func(t *testing.T, res *servertest.Response) { check(t, ctDecode(t, res)) }
		}
		return sc
	}
	asDocument := func(t *testing.T, body map[string]any) {
		assert.NotContains(t, body, "markdown", "a page carries one of markdown and document")
		assert.Equal(t, "document", ctAt(body, "document", "object"))
		assert.Contains(t, ctDocumentRefs(body["document"]), map[string]any{"kind": "file", "file": tr.logo},
			"the image refers to the revision's file")
		// Nested pages carry markdown.
		assert.Equal(t, "Run it.", ctAt(body, "pages", 0, "markdown"))
		assert.NotContains(t, ctAt(body, "pages", 0), "document")
	}
	scenarios := []servertest.Scenario{
		get("a document as a JSON document by default", page(tr.guide, ""), c.reader, http.StatusOK,
			map[string]any{"id": tr.guide, "type": "document", "kind": "sheet", "path": "guide", "title": "Guide",
				"git": map[string]any{"path": "README.md"}}, asDocument),
		get("format=document", page(tr.guide, "?format=document"), c.reader, http.StatusOK, nil, asDocument),
		get("format=markdown", page(tr.guide, "?format=markdown"), c.reader, http.StatusOK,
			map[string]any{"id": tr.guide, "markdown": ctGuideMarkdown}, func(t *testing.T, body map[string]any) {
				assert.NotContains(t, body, "document")
			}),
		get("an empty document", page(tr.linux, ""), c.reader, http.StatusOK,
			map[string]any{"id": tr.linux, "path": "guide/install/linux", "document": map[string]any{"object": "document"}}, nil),
		get("a nested document", page(tr.install, "?format=markdown"), c.reader, http.StatusOK,
			map[string]any{"id": tr.install, "path": "guide/install", "markdown": "Run it.",
				"pages": []any{map[string]any{"id": tr.linux}}}, nil),
		get("a group", page(tr.reference, ""), c.reader, http.StatusOK,
			map[string]any{"id": tr.reference, "type": "group", "pages": []any{map[string]any{"id": tr.api, "markdown": "Calls."}}},
			func(t *testing.T, body map[string]any) {
				assert.NotContains(t, body, "document")
				assert.NotContains(t, body, "markdown")
			}),
		get("a link", page(tr.example, "?format=markdown"), c.reader, http.StatusOK,
			map[string]any{"id": tr.example, "type": "link", "target": map[string]any{"kind": "url", "url": "https://example.com"}}, nil),
		get("metadata=false", page(tr.guide, "?metadata=false"), c.reader, http.StatusOK, nil,
			func(t *testing.T, body map[string]any) { assert.NotContains(t, body, "git") }),
		get("unknown format", page(tr.guide, "?format=html"), c.reader, http.StatusBadRequest, nil, nil),
		get("unknown page", page("pg_doesnotexist", ""), c.reader, http.StatusNotFound, nil, nil),
		get("a file ID is not a page", page(tr.logo, ""), c.reader, http.StatusNotFound, nil, nil),
	}
	scenarios = append(scenarios, c.ctContentErrors("/content/page/"+tr.guide, "?format=markdown")...)
	c.Run(t, scenarios)
}

// TestPageDocumentIsTheSameInBothAPIs reads each page's JSON document over
// /v1 (format=document) and GraphQL (RevisionPage.document): they are equal,
// asset links to the revision's files included.
func TestPageDocumentIsTheSameInBothAPIs(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	tr := c.tree(ctInSpace(c.space))
	c.setMarkdown(c.admin, ctInSpace(c.space), tr.install,
		"# Install\n\nStep 1: ![one](../.gitbook/assets/logo.png)\n\n"+
			"Get [the logo](./.gitbook/assets/logo.png) or [a missing one](.gitbook/assets/missing.png).\n")
	const q = `query($s: ID!, $p: ID!) { space(id: $s) { revision { page(id: $p) { id document } } } }`
	for _, tc := range []struct {
		name, page string
		refs       int
	}{
		{"an image", tr.guide, 1}, {"relative asset links", tr.install, 2}, {"an empty document", tr.linux, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v1 := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content/page/"+tc.page+"?format=document",
				c.reader, nil, http.StatusOK)["document"]
			require.NotNil(t, v1)
			gql := ctAt(c.gql(c.reader, q, map[string]any{"s": c.space, "p": tc.page}), "space", "revision", "page", "document")
			assert.Equal(t, v1, gql, "GraphQL gives the /v1 document")
			var files int
			for _, ref := range ctDocumentRefs(gql) {
				if ref["kind"] == "file" {
					assert.Equal(t, tr.logo, ref["file"])
					files++
				}
			}
			assert.Equal(t, tc.refs, files, "references to the revision's file")
		})
	}
	t.Run("groups and links have none", func(t *testing.T) {
		for _, id := range []string{tr.reference, tr.example} {
			page := ctAt(c.gql(c.reader, q, map[string]any{"s": c.space, "p": id}), "space", "revision", "page").(map[string]any)
			assert.Contains(t, page, "document")
			assert.Nil(t, page["document"])
			assert.NotContains(t, c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content/page/"+id, c.reader, nil,
				http.StatusOK), "document")
		}
	})
}

func TestContentPath(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	tr := c.tree(ctInSpace(c.space))
	path := func(p string) string { return "/v1/spaces/" + c.space + "/content/path/" + p }
	get := func(name, p string, status int, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: p, Token: c.reader, WantStatus: status, WantJSON: want}
	}
	c.Run(t, append([]servertest.Scenario{
		get("a top-level page", path("guide"), http.StatusOK, map[string]any{"id": tr.guide, "path": "guide",
			"document": map[string]any{"object": "document"}}),
		get("a nested page", path("guide/install?format=markdown"), http.StatusOK,
			map[string]any{"id": tr.install, "path": "guide/install", "markdown": "Run it."}),
		get("a page two levels down", path("guide/install/linux"), http.StatusOK, map[string]any{"id": tr.linux}),
		get("a page in a group", path("reference/api?format=markdown"), http.StatusOK,
			map[string]any{"id": tr.api, "markdown": "Calls."}),
		get("an escaped path", path("guide%2Finstall"), http.StatusOK, map[string]any{"id": tr.install}),
		get("a trailing slash", path("guide/install/"), http.StatusOK, map[string]any{"id": tr.install}),
		get("a group", path("reference"), http.StatusOK, map[string]any{"id": tr.reference, "type": "group"}),
		get("unknown path", path("guide/uninstall"), http.StatusNotFound, nil),
		get("a path under a leaf", path("guide/install/linux/more"), http.StatusNotFound, nil),
		get("no path", path(""), http.StatusNotFound, nil),
		get("unknown format", path("guide?format=pdf"), http.StatusBadRequest, nil),
	}, c.ctContentErrors("/content/path/guide", "")...))
}

func TestContentFiles(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	data := map[string][]byte{}
	var ids []string
	for i := 0; i < 5; i++ {
		name := fmt.Sprintf("notes-%d.txt", i)
		data[name] = []byte(fmt.Sprintf("note %d", i))
		ids = append(ids, c.upload(ctInSpace(c.space), name, "text/plain", data[name]))
	}
	img := ctPNG(t, 4, 5)
	ids = append(ids, c.upload(ctInSpace(c.space), "photo.png", "image/png", img))
	want := append([]string(nil), ids...)
	slices.Sort(want)

	files := "/v1/spaces/" + c.space + "/content/files"
	for _, limit := range []int{1, 2, 6, 1000} {
		t.Run(fmt.Sprintf("walk with limit %d", limit), func(t *testing.T) {
			assert.Equal(t, want, c.Walk(t, files, c.reader, limit), "files are listed by ID")
		})
	}
	first := c.MustDo(http.MethodGet, files+"?limit=2", c.reader, nil, http.StatusOK)
	assert.EqualValues(t, 6, first["count"])
	next := ctAt(first, "next", "page").(string)
	crCursor := func() string {
		for i := 0; i < 2; i++ {
			c.MustDo(http.MethodPost, "/v1/spaces/"+c.space+"/change-requests", c.editor, nil, http.StatusCreated)
		}
		return ctAt(c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/change-requests?limit=1", c.reader, nil, http.StatusOK),
			"next", "page").(string)
	}()
	get := func(name, p, tok string, status int) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: p, Token: tok, WantStatus: status}
	}
	downloads := map[string]string{}
	scenarios := []servertest.Scenario{
		{Name: "default limit", Method: http.MethodGet, Path: files, Token: c.reader, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				body := ctDecode(t, res)
				assert.Equal(t, want, ctIDs(body["items"]))
				assert.NotContains(t, body, "next")
				for _, it := range body["items"].([]any) {
					f := it.(map[string]any)
					downloads[f["name"].(string)] = f["downloadURL"].(string)
					assert.Equal(t, ".gitbook/assets/"+f["name"].(string), ctAt(f, "git", "path"))
				}
			}},
		{Name: "a cursor continues the list", Method: http.MethodGet, Path: files + "?limit=2&page=" + next, Token: c.reader,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, want[2:4], ctIDs(ctDecode(t, res)["items"]))
			}},
		{Name: "metadata=false", Method: http.MethodGet, Path: files + "?metadata=false", Token: c.reader,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, ctAt(ctDecode(t, res), "items", 0), "git")
			}},
		get("malformed page cursor", files+"?page=garbage", c.reader, http.StatusBadRequest),
		get("a cursor of another list", files+"?page="+crCursor, c.reader, http.StatusBadRequest),
		get("limit over the maximum", files+"?limit=1001", c.reader, http.StatusBadRequest),
		get("negative limit", files+"?limit=-1", c.reader, http.StatusBadRequest),
		{Name: "a file", Method: http.MethodGet, Path: files + "/" + ids[5], Token: c.reader, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": ids[5], "name": "photo.png", "contentType": "image/png", "size": len(img),
				"dimensions": map[string]any{"width": 4, "height": 5}, "git": map[string]any{"path": ".gitbook/assets/photo.png"}}},
		{Name: "a file without dimensions", Method: http.MethodGet, Path: files + "/" + ids[0] + "?metadata=false",
			Token: c.reader, WantStatus: http.StatusOK, WantJSON: map[string]any{"id": ids[0], "contentType": "text/plain"},
			Check: func(t *testing.T, res *servertest.Response) {
				body := ctDecode(t, res)
				assert.NotContains(t, body, "dimensions")
				assert.NotContains(t, body, "git")
			}},
		get("unknown file", files+"/file_doesnotexist", c.reader, http.StatusNotFound),
	}
	scenarios = append(scenarios, c.ctContentErrors("/content/files", "")...)
	scenarios = append(scenarios, c.ctContentErrors("/content/files/"+ids[0], "")...)
	c.Run(t, scenarios)

	// The download URLs serve the bytes.
	data["photo.png"] = img
	require.Len(t, downloads, 6)
	for name, u := range downloads {
		status, b := c.fetch(u)
		require.Equal(t, http.StatusOK, status, u)
		assert.Equal(t, data[name], b, name)
	}
}

// Revisions are read like the current content, by ID: an older revision
// keeps the content it had.
func TestContentRevisions(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "v1"})
	old := c.spaceRevision(c.space)
	c.setMarkdown(c.admin, ctInSpace(c.space), guide, "v2")
	later := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Later", "parentPageId": guide})
	logo := c.upload(ctInSpace(c.space), "logo.png", "image/png", ctPNG(t, 1, 1))
	current := c.spaceRevision(c.space)
	otherSpace := c.newSpace("Other", false)
	otherRev := c.spaceRevision(otherSpace)

	rev := func(id string, suffix string) string { return "/v1/spaces/" + c.space + "/revisions/" + id + suffix }
	get := func(name, p string, status int, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: p, Token: c.reader, WantStatus: status, WantJSON: want}
	}
	c.Run(t, []servertest.Scenario{
		get("the current revision", rev(current, ""), http.StatusOK, map[string]any{"object": "revision", "id": current,
			"type": "edits", "pages": []any{map[string]any{"id": guide, "markdown": "v2", "pages": []any{map[string]any{"id": later}}}},
			"files": []any{map[string]any{"id": logo}}}),
		get("an older revision", rev(old, ""), http.StatusOK, map[string]any{"id": old,
			"pages": []any{map[string]any{"id": guide, "markdown": "v1", "pages": []any{}}}, "files": []any{}}),
		get("the pages of an older revision", rev(old, "/pages"), http.StatusOK,
			map[string]any{"pages": []any{map[string]any{"id": guide, "markdown": "v1"}}}),
		get("a page of an older revision", rev(old, "/page/"+guide+"?format=markdown"), http.StatusOK,
			map[string]any{"id": guide, "markdown": "v1"}),
		get("a page by path", rev(current, "/path/guide/later"), http.StatusOK, map[string]any{"id": later}),
		get("a page by path in an older revision", rev(old, "/path/guide/later"), http.StatusNotFound, nil),
		get("a page not yet made", rev(old, "/page/"+later), http.StatusNotFound, nil),
		get("the files of an older revision", rev(old, "/files"), http.StatusOK, map[string]any{"items": []any{}, "count": 0}),
		get("the files", rev(current, "/files"), http.StatusOK, map[string]any{"items": []any{map[string]any{"id": logo}}, "count": 1}),
		get("a file", rev(current, "/files/"+logo), http.StatusOK, map[string]any{"id": logo, "name": "logo.png"}),
		get("a file not yet uploaded", rev(old, "/files/"+logo), http.StatusNotFound, nil),
		get("unknown revision", rev("rev_doesnotexist", ""), http.StatusNotFound, nil),
		get("unknown revision's pages", rev("rev_doesnotexist", "/pages"), http.StatusNotFound, nil),
		get("a revision of another space", rev(otherRev, ""), http.StatusNotFound, nil),
		get("a revision of another space's files", rev(otherRev, "/files"), http.StatusNotFound, nil),
		{Name: "a revision through another space", Method: http.MethodGet,
			Path: "/v1/spaces/" + otherSpace + "/revisions/" + current, Token: c.admin, WantStatus: http.StatusNotFound},
	})
	for _, suffix := range []string{"", "/pages", "/files", "/files/" + logo, "/page/" + guide, "/path/guide"} {
		c.Run(t, c.ctContentErrors("/revisions/"+current+suffix, ""))
	}
}

// ctImportServer serves a markdown document with an image.
func ctImportServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/doc.md", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		_, _ = io.WriteString(w, "# Imported\n\nHello from afar.\n\n![pic](pic.png)\n")
	})
	img := ctPNG(t, 2, 2)
	mux.HandleFunc("/pic.png", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func TestImportContent(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t, func(cfg *config.Config) { cfg.ImportAllowPrivate = true })
	src := ctImportServer(t).URL + "/doc.md"
	locked := c.newSpace("Locked", false)
	c.MustDo(http.MethodPatch, "/v1/spaces/"+locked, c.admin, map[string]any{"editMode": "locked"}, http.StatusOK)
	viaCR := c.newSpace("Via change requests", false)
	reviewed := c.newSpace("Reviewed", false)
	reviewedBefore := c.spaceRevision(reviewed)
	before := c.spaceRevision(c.space)
	path := "/v1/spaces/" + c.space + "/content/import"
	post := func(name, p, tok string, body any, status int, wantError string) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPost, Path: p, Token: tok, Body: body,
			WantStatus: status, WantError: wantError}
	}
	good := map[string]any{"url": src, "source": "markdown"}
	var imported string
	scenarios := []servertest.Scenario{
		{Name: "an editor imports", Method: http.MethodPost, Path: path, Token: c.editor, Body: good,
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"importedResources": 2, "totalResources": 2},
			Check: func(t *testing.T, res *servertest.Response) {
				imported = ctDecode(t, res)["revision"].(string)
				assert.NotEqual(t, before, imported)
				assert.Equal(t, "http://bindery.test/v1/spaces/"+c.space+"/revisions/"+imported, res.Header.Get("Location"))
			}},
		post("missing url", path, c.editor, map[string]any{"source": "markdown"}, http.StatusBadRequest, "url"),
		post("missing source", path, c.editor, map[string]any{"url": src}, http.StatusBadRequest, "source"),
		post("unknown source", path, c.editor, map[string]any{"url": src, "source": "pdf"}, http.StatusBadRequest, "source"),
		post("unsupported source", path, c.editor, map[string]any{"url": src, "source": "notion"}, http.StatusBadRequest, "source"),
		post("not a URL", path, c.editor, map[string]any{"url": "not a url", "source": "markdown"}, http.StatusBadRequest, "url"),
		post("unknown member", path, c.editor, map[string]any{"url": src, "source": "markdown", "into": "x"},
			http.StatusBadRequest, "into"),
		post("null url", path, c.editor, map[string]any{"url": nil, "source": "markdown"}, http.StatusBadRequest, "url"),
		post("no token", path, "", good, http.StatusUnauthorized, ""),
		post("stranger", path, c.stranger, good, http.StatusNotFound, ""),
		post("unknown space", "/v1/spaces/spc_doesnotexist/content/import", c.editor, good, http.StatusNotFound, ""),
		post("locked space", "/v1/spaces/"+locked+"/content/import", c.admin, good, http.StatusPreconditionFailed, ""),
		{Name: "a space edited through change requests takes an import", Method: http.MethodPost,
			Path: "/v1/spaces/" + reviewed + "/content/import", Token: c.editor, Body: good, WantStatus: http.StatusCreated,
			Check: func(t *testing.T, res *servertest.Response) {
				rev := ctDecode(t, res)["revision"].(string)
				assert.NotEqual(t, reviewedBefore, rev)
				assert.Equal(t, rev, c.spaceRevision(reviewed), "the import moved the main content")
			}},
	}
	c.Run(t, append(scenarios, c.refusedRoles(http.MethodPost, path, good)...))
	require.NotEmpty(t, imported)
	assert.Equal(t, imported, c.spaceRevision(c.space), "the import moved the main content")
	res := c.Do(http.MethodGet, "/v1/spaces/"+c.space+"/revisions/"+imported, c.reader, nil)
	require.Equal(t, http.StatusOK, res.Status)
	body := ctDecode(t, res)
	servertest.AssertContains(t, map[string]any{"title": "Imported", "path": "imported"}, ctAt(body, "pages", 0))
	assert.Contains(t, ctAt(body, "pages", 0, "markdown"), "Hello from afar.")
	require.Len(t, body["files"], 1)
	fileID := ctAt(body, "files", 0, "id")
	page := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content/path/imported", c.reader, nil, http.StatusOK)
	assert.Contains(t, ctDocumentRefs(page["document"]), map[string]any{"kind": "file", "file": fileID},
		"the imported image refers to the imported file")

	// Into a change request, by number: the main content does not change.
	crNumber := fmt.Sprint(c.MustDo(http.MethodPost, "/v1/spaces/"+viaCR+"/change-requests", c.editor, nil,
		http.StatusCreated)["number"])
	mainBefore := c.spaceRevision(viaCR)
	ctCRPath := "/v1/spaces/" + viaCR + "/change-requests/" + crNumber
	out := c.MustDo(http.MethodPost, ctCRPath+"/content/import", c.editor, good, http.StatusCreated)
	assert.Equal(t, mainBefore, c.spaceRevision(viaCR))
	cr := c.MustDo(http.MethodGet, ctCRPath, c.reader, nil, http.StatusOK)
	assert.Equal(t, out["revision"], cr["revision"])
	assert.Equal(t, []string{"imported"}, ctPaths(c.MustDo(http.MethodGet, ctCRPath+"/content/pages", c.reader, nil, http.StatusOK)["pages"]))
	assert.Empty(t, c.MustDo(http.MethodGet, "/v1/spaces/"+viaCR+"/content/pages", c.reader, nil, http.StatusOK)["pages"])
	c.Run(t, append(c.refusedRoles(http.MethodPost, ctCRPath+"/content/import", good), []servertest.Scenario{
		post("unknown change request", "/v1/spaces/"+viaCR+"/change-requests/99/content/import", c.editor, good,
			http.StatusNotFound, ""),
		post("a change request of another space", "/v1/spaces/"+c.space+"/change-requests/"+cr["id"].(string)+"/content/import",
			c.editor, good, http.StatusNotFound, ""),
		post("bad body into a change request", ctCRPath+"/content/import", c.editor, map[string]any{"url": src},
			http.StatusBadRequest, "source"),
	}...))
}

// TestImportFillsANewSpace is how a /v1 client fills a space it has just
// created: the space changes through change requests, as a new space does,
// and the import writes its main content all the same.
func TestImportFillsANewSpace(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t, func(cfg *config.Config) { cfg.ImportAllowPrivate = true })
	src := ctImportServer(t)
	space := c.MustDo(http.MethodPost, "/v1/orgs/"+c.Org.ID+"/spaces", c.admin, map[string]any{"title": "Fresh"},
		http.StatusCreated)
	id := space["id"].(string)
	require.NotContains(t, space, "editMode", "a new space changes through change requests")
	empty := space["revision"].(string)

	out := c.MustDo(http.MethodPost, "/v1/spaces/"+id+"/content/import", c.editor,
		map[string]any{"url": src.URL + "/doc.md", "source": "markdown"}, http.StatusCreated)
	imported := out["revision"].(string)
	assert.NotEqual(t, empty, imported)
	assert.EqualValues(t, 2, out["importedResources"], "the document and its image")

	assert.Equal(t, imported, c.MustDo(http.MethodGet, "/v1/spaces/"+id, c.reader, nil, http.StatusOK)["revision"],
		"the space's revision is the imported one")
	rev := c.MustDo(http.MethodGet, "/v1/spaces/"+id+"/revisions/"+imported, c.reader, nil, http.StatusOK)
	assert.Equal(t, []any{empty}, rev["parents"], "the import's parent is the space's first revision")

	pages := c.MustDo(http.MethodGet, "/v1/spaces/"+id+"/content/pages", c.reader, nil, http.StatusOK)["pages"]
	require.Len(t, pages, 1)
	servertest.AssertContains(t, map[string]any{"title": "Imported", "path": "imported", "type": "document"}, ctAt(pages, 0))
	pageID := ctAt(pages, 0, "id").(string)

	files := c.MustDo(http.MethodGet, "/v1/spaces/"+id+"/content/files", c.reader, nil, http.StatusOK)
	require.EqualValues(t, 1, files["count"])
	fileID := ctAt(files, "items", 0, "id").(string)
	name := ctAt(files, "items", 0, "name").(string)

	page := c.MustDo(http.MethodGet, "/v1/spaces/"+id+"/content/page/"+pageID+"?format=markdown", c.reader, nil, http.StatusOK)
	assert.Equal(t, pageID, page["id"])
	assert.NotContains(t, page, "document")
	assert.Contains(t, page["markdown"], "Hello from afar.")
	assert.Contains(t, page["markdown"], "](.gitbook/assets/"+name+")", "the image is the imported file")

	file := c.MustDo(http.MethodGet, "/v1/spaces/"+id+"/content/files/"+fileID, c.reader, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"id": fileID, "name": name, "contentType": "image/png",
		"dimensions": map[string]any{"width": 2, "height": 2}}, file)
	status, b := c.fetch(file["downloadURL"].(string))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, ctPNG(t, 2, 2), b, "the image's bytes are the ones served")

	// Interactive edits of the same space still go through change requests.
	g := c.GraphQL(c.editor, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": id, "title": "Direct"}})
	assert.Equal(t, "PRECONDITION_FAILED", g.Code())
}

// ctPaths returns the path members of a JSON array of pages.
func ctPaths(v any) []string {
	var out []string
	for _, it := range v.([]any) {
		out = append(out, it.(map[string]any)["path"].(string))
	}
	return out
}

// TestReadingARevisionTakesBoundedStatements reads merge revisions of a space
// with 3 and with 30 merged change requests, some merged without an edit of
// their own: finding the change request a merge came from is one query,
// whatever the space holds.
func TestReadingARevisionTakesBoundedStatements(t *testing.T) {
	t.Parallel()
	cost := func(n int) int64 {
		c := newCtEnv(t)
		space := c.newSpace("Reviewed", false)
		var merges []string
		for i := range n {
			cr := c.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", c.editor, nil, http.StatusCreated)
			if i%2 == 1 {
				c.createPage(c.editor, ctInCR(cr["id"].(string)), map[string]any{"title": fmt.Sprint("Page ", i)})
			}
			out := c.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests/"+cr["id"].(string)+"/merge",
				c.editor, nil, http.StatusOK)
			merges = append(merges, out["revision"].(string))
		}
		// A fresh server: nothing cached. Its first request records the
		// token's use; measure the ones after it.
		fresh := servertest.Reuse(t, c.Env)
		fresh.MustDo(http.MethodGet, "/v1/user", c.reader, nil, http.StatusOK)
		var most int64
		for _, rev := range []string{merges[0], merges[1], merges[n-1]} {
			before := fresh.Statements.Load()
			body := fresh.MustDo(http.MethodGet, "/v1/spaces/"+space+"/revisions/"+rev, c.reader, nil, http.StatusOK)
			most = max(most, fresh.Statements.Load()-before)
			require.NotNil(t, body["mergedFrom"], "a merge names its change request")
		}
		return most
	}
	small, large := cost(3), cost(30)
	t.Logf("statements to read a merge revision: 3 merged change requests %d, 30 %d", small, large)
	assert.Equal(t, small, large, "reading a merge costs the same however many change requests were merged")
	// The token and its user, the space, the viewer's memberships, teams
	// and grants, the organization's collections, the revision and its
	// parents (through the resolver GraphQL uses, never the row's list of
	// IDs), the change request it was merged from and its revisions, and the
	// change request's author, their visibility and its comment count.
	// One more when a batch splits on a busy machine (timed loaders; see the
	// request-path issue).
	assert.LessOrEqual(t, large, int64(16))
}
