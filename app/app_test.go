package app_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
)

func TestSignedOutIsSentToSignIn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, path := range []string{"/o/" + f.e.Org.ID, "/s/" + f.space, "/s/" + f.space + "/install/linux?x=1",
		"/c/col_x", "/s/" + f.space + "/~/changes/1"} {
		for _, session := range []string{"", "bnd_s_not-a-session"} {
			res := f.get(t, path, session)
			require.Equal(t, http.StatusSeeOther, res.status, path)
			assert.Equal(t, "/auth/sign-in?return_to="+url.QueryEscape(path), res.header.Get("Location"), path)
		}
	}
}

func TestStartPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res := f.get(t, "/", "")
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, res.body, `href="/auth/sign-in"`)
	assert.Contains(t, res.body, `href="/playground"`)
	assert.Contains(t, res.body, `href="/v1/openapi.json"`)
	assert.NotContains(t, res.body, "Acme Docs")
	assert.Equal(t, "no-store", res.header.Get("Cache-Control"))
	assert.Contains(t, res.header.Get("Content-Security-Policy"), "default-src 'none'")
	assert.NotContains(t, res.body, "<script")

	res = f.get(t, "/", f.session)
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, res.body, `href="/o/`+f.e.Org.ID+`">Acme Docs</a>`)
	assert.Contains(t, res.body, `href="/auth/sign-out"`)
	assert.Equal(t, 1, strings.Count(res.body, "<h1"), "one heading")

	// HEAD answers as GET does, without the body.
	for _, path := range []string{"/", "/auth/sign-in"} {
		head, err := http.Head(f.e.HTTP.URL + path)
		require.NoError(t, err)
		head.Body.Close()
		assert.Equal(t, http.StatusOK, head.StatusCode, path)
		assert.Equal(t, "text/html; charset=utf-8", head.Header.Get("Content-Type"), path)
		assert.Equal(t, "no-store", head.Header.Get("Cache-Control"), path)
	}
}

func TestViews(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	c := f.e.Client
	col := c.Collection.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Handbook").SaveX(ctx)
	inCol := f.newSpace("Policies")
	c.Space.UpdateOneID(inCol).SetParentID(col.ID).ExecX(ctx)
	site := c.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Acme Site").SetPublished(true).SaveX(ctx)
	sec := c.SiteSection.Create().SetSiteID(site.ID).SetTitle("Guides").SetPath("guides").SetIsDefault(true).SaveX(ctx)
	c.SiteSpace.Create().SetSiteID(site.ID).SetSectionID(sec.ID).SetSpaceID(f.space).SetPath("v2").SetIsDefault(true).SaveX(ctx)
	rev := c.Space.GetX(ctx, f.space).RevisionID

	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"organization", "/o/" + f.e.Org.ID, []string{`<h1>Acme Docs</h1>`, `href="/s/` + f.space + `">Guide</a>`,
			`href="/c/` + col.ID + `">Handbook</a>`, `href="/o/` + f.e.Org.ID + `/sites/` + site.ID + `">Acme Site</a>`}},
		{"site", "/o/" + f.e.Org.ID + "/sites/" + site.ID, []string{`<h1>Acme Site</h1>`, `Guides`,
			`href="/s/` + f.space + `">`, `http://bindery.test/sites/` + site.ID}},
		{"collection", "/c/" + col.ID, []string{`<h1>Handbook</h1>`, `href="/s/` + inCol + `">Policies</a>`}},
		{"space", "/s/" + f.space, []string{`<h1>Guide</h1>`, `aria-label="Pages"`, `href="/s/` + f.space + `/install/linux">Linux`,
			`href="/s/` + f.space + `/welcome">`, `No open change requests.`}},
		{"page", "/s/" + f.space + "/welcome", []string{`<h1><span class="emoji" aria-hidden="true">👋</span> Welcome</h1>`,
			`<strong>quokka</strong>`, `aria-current="page"`, `<a href="/s/` + f.space + `/install">the install page</a>`, `href="/s/` + f.space + `">Guide</a>`}},
		{"nested page", "/s/" + f.space + "/install/linux", []string{`<h1>Linux</h1>`, `On Linux, run the installer.`,
			`href="/s/` + f.space + `/install">Install</a></li>`}},
		{"revision", "/s/" + f.space + "/~/revisions/" + *rev, []string{`<h1>Revision ` + *rev + `</h1>`,
			`href="/s/` + f.space + `/~/revisions/` + *rev + `/welcome">`}},
		{"page of a revision", "/s/" + f.space + "/~/revisions/" + *rev + "/install/linux", []string{`On Linux, run the installer.`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.get(t, tc.path, f.session)
			require.Equal(t, http.StatusOK, res.status, res.body)
			for _, w := range tc.want {
				assert.Contains(t, res.body, w)
			}
			assert.Equal(t, 1, strings.Count(res.body, "<h1"), "one heading")
			assert.Equal(t, "no-store", res.header.Get("Cache-Control"))
		})
	}
}

func TestChangeRequestMarksItsChanges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.changeRequest()
	base := "/s/" + f.space + "/~/changes/1"
	res := f.get(t, base, f.session)
	require.Equal(t, http.StatusOK, res.status, res.body)
	assert.Contains(t, res.body, `<h1>Add a troubleshooting section</h1>`)
	assert.Contains(t, res.body, `<dd>open</dd>`)
	changes := section(t, res.body, "changes")
	assert.Contains(t, changes, `<span class="badge mark-Modified">Modified</span> <a href="`+base+`/install">Install</a>`)
	assert.Contains(t, changes, `<span class="badge mark-Added">Added</span> <a href="`+base+`/faq">FAQ</a>`)
	assert.NotContains(t, changes, "Welcome", "an unchanged page is no change")
	assert.NotContains(t, changes, "Linux")

	res = f.get(t, base+"/install", f.session)
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, res.body, "Troubleshooting", "the change request's content")
	assert.Contains(t, res.body, "Modified in this change request")
	res = f.get(t, "/s/"+f.space+"/install", f.session)
	assert.NotContains(t, res.body, "Troubleshooting", "the main content")
	res = f.get(t, "/s/"+f.space, f.session)
	assert.Contains(t, res.body, `href="`+base+`">#1 Add a troubleshooting section</a>`, "the space lists it")

	// Removing a page is a change too.
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: DeletePageInput!) { deletePage(input: $in) { clientMutationId } }`,
		map[string]any{"in": map[string]any{"changeRequestId": f.crID, "pageId": f.welcome}}).Into(t, &struct{}{})
	res = f.get(t, base, f.session)
	assert.Contains(t, res.body, `<span class="badge mark-Removed">Removed</span> <span class="emoji" aria-hidden="true">👋</span> Welcome</li>`)
	assert.Equal(t, http.StatusNotFound, f.get(t, base+"/welcome", f.session).status)
	assert.Equal(t, http.StatusNotFound, f.get(t, "/s/"+f.space+"/~/changes/2", f.session).status)
	assert.Equal(t, http.StatusNotFound, f.get(t, "/s/"+f.space+"/~/changes/"+f.crID, f.session).status)
}

func TestWhatTheViewerMayNotSeeIsNotFound(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	// Another organization, with a space, a collection and a site.
	other := f.e.User("other@example.com")
	org, err := graph.CreateOrganization(ctx, f.e.Client, "Other Org", other.ID)
	require.NoError(t, err)
	otherToken := f.e.Token(other)
	spc := f.e.MustDo(http.MethodPost, "/v1/orgs/"+org.ID+"/spaces", otherToken, map[string]any{"title": "Hidden"}, http.StatusCreated)["id"].(string)
	col := f.e.Client.Collection.Create().SetOrganizationID(org.ID).SetTitle("Secret").SaveX(ctx)
	site := f.e.Client.Site.Create().SetOrganizationID(org.ID).SetTitle("Theirs").SaveX(ctx)
	rev := f.e.Client.Space.GetX(ctx, spc).RevisionID
	for _, path := range []string{"/o/" + org.ID, "/s/" + spc, "/s/" + spc + "/anything", "/c/" + col.ID,
		"/o/" + org.ID + "/sites/" + site.ID, "/o/" + f.e.Org.ID + "/sites/" + site.ID, "/s/" + spc + "/~/changes/1",
		"/s/" + spc + "/~/revisions/" + *rev, "/s/" + f.space + "/~/revisions/" + *rev, "/s/" + f.space + "/no/such/page",
		"/s/spc_missing", "/o/org_missing"} {
		res := f.get(t, path, f.session)
		assert.Equal(t, http.StatusNotFound, res.status, path)
		assert.Contains(t, res.body, "<h1>Not found</h1>", path)
		assert.NotContains(t, res.body, "Hidden", path)
	}
	// Their own space is theirs to read.
	assert.Equal(t, http.StatusOK, f.get(t, "/s/"+spc, f.signIn(other.Email)).status)
}

// section is the part of a page's body from the heading whose ID is id to
// the end of its section.
func section(t *testing.T, body, id string) string {
	t.Helper()
	i := strings.Index(body, `id="`+id+`"`)
	require.GreaterOrEqual(t, i, 0, "no section %s", id)
	j := strings.Index(body[i:], "</section>")
	require.GreaterOrEqual(t, j, 0)
	return body[i : i+j]
}

// TestEveryAppURLIsAView: the urls.app the API gives each object is a view
// of this server.
func TestEveryAppURLIsAView(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.changeRequest()
	ctx := context.Background()
	col := f.e.Client.Collection.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Handbook").SaveX(ctx)
	site := f.e.Client.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Acme Site").SaveX(ctx)
	type urls struct{ Urls struct{ App string } }
	var out struct {
		Organization urls
		Collection   urls
		Site         urls
		Space        struct {
			urls
			Revision      urls
			ChangeRequest urls
		}
	}
	f.e.GraphQL(f.e.OwnerToken, `query($org: ID!, $space: ID!, $col: ID!, $site: ID!) {
		organization(id: $org) { urls { app } }
		collection(id: $col) { urls { app } }
		site(id: $site) { urls { app } }
		space(id: $space) { urls { app } revision { urls { app } } changeRequest(number: 1) { urls { app } } }
	}`, map[string]any{"org": f.e.Org.ID, "space": f.space, "col": col.ID, "site": site.ID}).Into(t, &out)
	for _, u := range []string{out.Organization.Urls.App, out.Collection.Urls.App, out.Site.Urls.App, out.Space.Urls.App,
		out.Space.Revision.Urls.App, out.Space.ChangeRequest.Urls.App} {
		path, ok := strings.CutPrefix(u, f.e.Config.AppURL)
		require.True(t, ok, u)
		res := f.get(t, path, f.session)
		assert.Equal(t, http.StatusOK, res.status, path)
	}
}

// TestLongListsArePaged: a list shows 100 items and a link to the next
// ones.
func TestLongListsArePaged(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	for i := range 101 {
		f.e.Client.Collection.Create().SetOrganizationID(f.e.Org.ID).SetTitle(fmt.Sprintf("Collection %03d", i)).
			SetPosition(float64(i)).ExecX(ctx)
	}
	res := f.get(t, "/o/"+f.e.Org.ID, f.session)
	require.Equal(t, http.StatusOK, res.status)
	cols := section(t, res.body, "collections")
	assert.Equal(t, 100, strings.Count(cols, "<li>"))
	assert.NotContains(t, cols, "Collection 100")
	i := strings.Index(cols, `<a href="/o/`+f.e.Org.ID+`?collections=`)
	require.GreaterOrEqual(t, i, 0, "a link to the next ones")
	next := html.UnescapeString(cols[i+len(`<a href="`):])
	next = next[:strings.Index(next, `"`)]
	res = f.get(t, next, f.session)
	require.Equal(t, http.StatusOK, res.status)
	cols = section(t, res.body, "collections")
	assert.Equal(t, 1, strings.Count(cols, "<li>"))
	assert.Contains(t, cols, "Collection 100")
	assert.Equal(t, http.StatusBadRequest, f.get(t, "/o/"+f.e.Org.ID+"?collections=forged", f.session).status)
}

// TestSiteHostnameKeepsItsRoot: at a published site's own hostname, "/"
// is the site's, not the start page.
func TestSiteHostnameKeepsItsRoot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	c := f.e.Client
	site := c.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Acme Site").SetPublished(true).
		SetHostname("docs.acme.example").SaveX(ctx)
	sec := c.SiteSection.Create().SetSiteID(site.ID).SetTitle("Guides").SetPath("guides").SetIsDefault(true).SaveX(ctx)
	c.SiteSpace.Create().SetSiteID(site.ID).SetSectionID(sec.ID).SetSpaceID(f.space).SetPath("v2").SetIsDefault(true).ExecX(ctx)
	req, err := http.NewRequest(http.MethodGet, f.e.HTTP.URL+"/", nil)
	require.NoError(t, err)
	req.Host = "docs.acme.example"
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(b), "quokka", "the site's first page")
	assert.NotContains(t, string(b), "/playground")
	assert.Contains(t, f.get(t, "/", "").body, "/playground", "the server's own host has the start page")
}

// TestMovedPageRedirects: a page's old address in a space goes to where
// the page is now.
func TestMovedPageRedirects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": f.space, "pageId": f.install, "title": "Setup", "slug": "setup"}}).
		Into(t, &struct{}{})
	res := f.get(t, "/s/"+f.space+"/install/linux", f.session)
	assert.Equal(t, http.StatusMovedPermanently, res.status)
	assert.Equal(t, "/s/"+f.space+"/setup/linux", res.header.Get("Location"))
	assert.Contains(t, f.get(t, "/s/"+f.space+"/setup/linux", f.session).body, "On Linux, run the installer.")
	assert.Equal(t, http.StatusNotFound, f.get(t, "/s/"+f.space+"/never/was", f.session).status)
}
