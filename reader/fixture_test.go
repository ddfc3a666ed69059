package reader_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// fixture is a published site of three spaces:
//
//	Guides (default section)  v2 (default): Guide   v1: Guide v1
//	API reference (path api, in the group Reference): API
//
// The Guide holds a welcome page, a page with a nested one, a group with a
// page, a hidden page and a link page.
type fixture struct {
	e                *servertest.Env
	site             *ent.Site
	guide, old, api  string
	guides, apiSec   *ent.SiteSection
	v2, v1, apiSpace *ent.SiteSpace
	// welcome is the Guide's first page; install its second.
	welcome, install string
}

func newFixture(t *testing.T, visibility enum.SiteVisibility) *fixture {
	t.Helper()
	e := servertest.New(t)
	f := &fixture{e: e}
	f.guide = f.space("Guide")
	f.old = f.space("Guide v1")
	f.api = f.space("API")
	f.welcome = f.page(f.guide, "", map[string]any{"title": "Welcome", "emoji": "👋", "description": "Start here",
		"markdown": "Welcome to the **guide**.\n\n## First steps\n\nRead [the install page](install.md) and [Linux](./install/linux.md#setup).\n\n```go\nfmt.Println(\"hi\")\n```\n"})
	f.install = f.page(f.guide, "", map[string]any{"title": "Install", "markdown": "Install it.\n\n## Requirements\n\nA computer.\n"})
	f.page(f.guide, f.install, map[string]any{"title": "Linux", "markdown": "## Setup\n\nOn Linux, run the installer.\n"})
	group := f.page(f.guide, "", map[string]any{"title": "Advanced", "type": "GROUP"})
	f.page(f.guide, group, map[string]any{"title": "Tuning", "markdown": "Tune the quokka cache.\n"})
	f.page(f.guide, "", map[string]any{"title": "Secret", "hidden": true, "markdown": "A hidden quokka page.\n"})
	f.page(f.guide, "", map[string]any{"title": "Website", "type": "LINK", "href": "https://example.com/"})
	f.page(f.old, "", map[string]any{"title": "Old welcome", "markdown": "The first version.\n"})
	f.page(f.api, "", map[string]any{"title": "Overview", "markdown": "The API answers quokka questions.\n"})

	ctx := context.Background()
	c := e.Client
	f.site = c.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Acme Docs").SetVisibility(visibility).
		SetPublished(true).SaveX(ctx)
	f.guides = c.SiteSection.Create().SetSiteID(f.site.ID).SetTitle("Guides").SetPath("guides").SetIsDefault(true).SaveX(ctx)
	group2 := c.SiteSectionGroup.Create().SetSiteID(f.site.ID).SetTitle("Reference").SetPosition(1).SaveX(ctx)
	f.apiSec = c.SiteSection.Create().SetSiteID(f.site.ID).SetTitle("API reference").SetPath("api").SetGroupID(group2.ID).
		SetPosition(1).SaveX(ctx)
	f.v2 = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.guides.ID).SetSpaceID(f.guide).SetPath("v2").
		SetIsDefault(true).SaveX(ctx)
	f.v1 = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.guides.ID).SetSpaceID(f.old).SetPath("v1").
		SetPosition(1).SaveX(ctx)
	f.apiSpace = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.apiSec.ID).SetSpaceID(f.api).SetPath("api").
		SetIsDefault(true).SaveX(ctx)
	return f
}

// space creates a space through /v1.
func (f *fixture) space(title string) string {
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

// root is the path of the site's root.
func (f *fixture) root() string { return "/sites/" + f.site.ID + "/" }

// visitor is a browser: it keeps cookies and does not follow redirects.
type visitor struct {
	t      *testing.T
	f      *fixture
	client *http.Client
}

func (f *fixture) visitor(t *testing.T) *visitor {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &visitor{t: t, f: f, client: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// page is a response as a visitor gets it.
type page struct {
	status int
	header http.Header
	body   string
}

// get fetches a path of the server, with headers as pairs of name and
// value.
func (v *visitor) get(path string, headers ...string) page {
	v.t.Helper()
	req, err := http.NewRequest(http.MethodGet, v.f.e.HTTP.URL+path, nil)
	require.NoError(v.t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := v.client.Do(req)
	require.NoError(v.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(v.t, err)
	return page{status: res.StatusCode, header: res.Header, body: string(b)}
}

// location is a redirect's target, relative to the server.
func (p page) location(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(p.header.Get("Location"))
	require.NoError(t, err)
	if u.Host != "" && !strings.HasPrefix(base, u.Scheme+"://"+u.Host) {
		return u.String()
	}
	return u.RequestURI()
}
