package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// puFixture is a published site of four spaces in three sections, with
// three redirects:
//
//	Guides (default section, path guides)  v2 (default): Guide   v1: Guide v1
//	API (path api)                          api: API
//	Beta (path beta, shown to visitor.claims.isBetaUser)   beta: Beta
//
// Guide holds Welcome (its first page), Install with Linux under it, a
// group Advanced with Tuning, a hidden page Secret and a link page Website.
// Redirects: /old-install to Install, /elsewhere to a URL, /install (a page
// of the default site-space, which wins) to the API section.
type puFixture struct {
	*mbEnv
	site                      *ent.Site
	guide, old, api, beta     string
	guides, apiSec, betaSec   *ent.SiteSection
	v2, v1, apiSS, betaSS     *ent.SiteSpace
	install                   string
	sites, home, homeInstance string
}

func newPUFixture(t *testing.T, visibility enum.SiteVisibility) *puFixture {
	t.Helper()
	f := &puFixture{mbEnv: newMbEnv(t)}
	f.guide, f.old, f.api, f.beta = f.liveSpace("Guide"), f.liveSpace("Guide v1"), f.liveSpace("API"), f.liveSpace("Beta")
	f.page(f.guide, "", map[string]any{"title": "Welcome", "markdown": "Welcome to the guide.\n"})
	f.install = f.page(f.guide, "", map[string]any{"title": "Install", "markdown": "Install it.\n"})
	f.page(f.guide, f.install, map[string]any{"title": "Linux", "markdown": "On Linux, run the installer.\n"})
	group := f.page(f.guide, "", map[string]any{"title": "Advanced", "type": "GROUP"})
	f.page(f.guide, group, map[string]any{"title": "Tuning", "markdown": "Tune the quokka cache.\n"})
	f.page(f.guide, "", map[string]any{"title": "Secret", "hidden": true, "markdown": "A hidden page.\n"})
	f.page(f.guide, "", map[string]any{"title": "Website", "type": "LINK", "href": "https://example.com/"})
	f.page(f.old, "", map[string]any{"title": "Old welcome", "markdown": "The first quokka version.\n"})
	f.page(f.api, "", map[string]any{"title": "Overview", "markdown": "The API answers quokka questions, quokka first.\n"})
	f.page(f.beta, "", map[string]any{"title": "Preview", "markdown": "A quokka preview.\n"})

	ctx := context.Background()
	c := f.Client
	f.site = c.Site.Create().SetOrganizationID(f.Org.ID).SetTitle("Acme Docs").SetVisibility(visibility).
		SetPublished(true).SetAdaptiveContent(true).SaveX(ctx)
	f.guides = c.SiteSection.Create().SetSiteID(f.site.ID).SetTitle("Guides").SetPath("guides").SetIsDefault(true).SaveX(ctx)
	f.apiSec = c.SiteSection.Create().SetSiteID(f.site.ID).SetTitle("API").SetPath("api").SetPosition(1).SaveX(ctx)
	f.betaSec = c.SiteSection.Create().SetSiteID(f.site.ID).SetTitle("Beta").SetPath("beta").SetPosition(2).
		SetCondition("visitor.claims.isBetaUser").SaveX(ctx)
	f.v2 = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.guides.ID).SetSpaceID(f.guide).SetPath("v2").
		SetIsDefault(true).SaveX(ctx)
	f.v1 = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.guides.ID).SetSpaceID(f.old).SetPath("v1").
		SetPosition(1).SaveX(ctx)
	f.apiSS = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.apiSec.ID).SetSpaceID(f.api).SetPath("api").
		SetIsDefault(true).SaveX(ctx)
	f.betaSS = c.SiteSpace.Create().SetSiteID(f.site.ID).SetSectionID(f.betaSec.ID).SetSpaceID(f.beta).SetPath("beta").
		SetIsDefault(true).SaveX(ctx)
	f.sites = "/v1/orgs/" + f.Org.ID + "/sites/" + f.site.ID
	f.home = f.Config.PublicURL + "/sites/" + f.site.ID + "/"
	f.homeInstance = "/sites/" + f.site.ID + "/"
	// A redirect to a URL is Bindery's extension of the official
	// destinations: its answer validates against Bindery's document.
	redirect := func(source string, destination map[string]any) {
		res := f.DoBindery(http.MethodPost, f.sites+"/redirects", f.OwnerToken, map[string]any{"source": source, "destination": destination})
		require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	}
	redirect("/old-install", map[string]any{"kind": "site-page", "siteSpaceId": f.v2.ID, "pageId": f.install})
	redirect("/elsewhere", map[string]any{"kind": "url", "url": "https://example.org/x"})
	redirect("/install", map[string]any{"kind": "site-section", "siteSectionId": f.apiSec.ID})
	return f
}

// liveSpace creates a space whose content is edited live.
func (f *puFixture) liveSpace(title string) string {
	f.T.Helper()
	id := f.space(title, "")
	f.Client.Space.UpdateOneID(id).SetEditMode(enum.EditModeLive).ExecX(context.Background())
	return id
}

// page creates a page of a space through GraphQL, under parent when it is
// not "", and returns its ID.
func (f *puFixture) page(space, parent string, in map[string]any) string {
	f.T.Helper()
	in["spaceId"] = space
	if parent != "" {
		in["parentPageId"] = parent
	}
	var out struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	f.GraphQL(f.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": in}).Into(f.T, &out)
	return out.CreatePage.Page.ID
}

func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityVisitorAuth)
	auth := f.sites + "/publishing/auth"
	regenerate := auth + "/regenerate"
	var key string
	f.Run(t, []servertest.Scenario{
		{Name: "no key yet", Method: http.MethodGet, Path: auth, Token: f.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "a fallback URL needs a key", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{"fallbackURL": "https://login.acme.test/"}, WantStatus: http.StatusPreconditionFailed},
		{Name: "regenerate as a reader", Method: http.MethodPost, Path: regenerate, Token: f.readTok, WantStatus: http.StatusForbidden},
		{Name: "regenerate as a stranger", Method: http.MethodPost, Path: regenerate, Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "regenerate", Method: http.MethodPost, Path: regenerate, Token: f.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "publishing-auth", "backend": "custom"},
			Check: func(t *testing.T, res *servertest.Response) {
				key, _ = res.JSON()["privateKey"].(string)
				assert.NotEmpty(t, key)
				assert.NotContains(t, res.JSON(), "fallbackURL")
			}},
	})
	f.Run(t, []servertest.Scenario{
		{Name: "read", Method: http.MethodGet, Path: auth, Token: f.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "publishing-auth", "backend": "custom", "privateKey": key}},
		{Name: "read as a reader", Method: http.MethodGet, Path: auth, Token: f.readTok, WantStatus: http.StatusForbidden},
		{Name: "read as an editor", Method: http.MethodGet, Path: auth, Token: f.editTok, WantStatus: http.StatusForbidden},
		{Name: "read as a stranger", Method: http.MethodGet, Path: auth, Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "read in another organization's path", Method: http.MethodGet,
			Path: "/v1/orgs/" + f.otherOrg + "/sites/" + f.site.ID + "/publishing/auth", Token: f.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "read without a token", Method: http.MethodGet, Path: auth, WantStatus: http.StatusUnauthorized},
		{Name: "set the fallback URL", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{"backend": "custom", "fallbackURL": "https://login.acme.test/sso"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"privateKey": key, "fallbackURL": "https://login.acme.test/sso"}},
		{Name: "an empty update changes nothing", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{}, WantStatus: http.StatusOK, WantJSON: map[string]any{"fallbackURL": "https://login.acme.test/sso"}},
		{Name: "a fallback URL that is not http", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{"fallbackURL": "ftp://login.acme.test/"}, WantStatus: http.StatusBadRequest, WantError: "fallbackURL"},
		{Name: "a fallback URL of 2049 characters", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body:       map[string]any{"fallbackURL": "https://a.test/" + strings.Repeat("a", 2049-len("https://a.test/"))},
			WantStatus: http.StatusBadRequest, WantError: "fallbackURL"},
		{Name: "the integration backend", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{"backend": "integration"}, WantStatus: http.StatusBadRequest, WantError: "backend"},
		{Name: "a null backend", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{"backend": nil}, WantStatus: http.StatusBadRequest, WantError: "backend"},
		{Name: "set as a reader", Method: http.MethodPatch, Path: auth, Token: f.readTok,
			Body: map[string]any{"fallbackURL": "https://evil.test/"}, WantStatus: http.StatusForbidden},
		{Name: "the fallback URL stayed", Method: http.MethodGet, Path: auth, Token: f.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"fallbackURL": "https://login.acme.test/sso"}},
		{Name: "a new key keeps the fallback URL", Method: http.MethodPost, Path: regenerate, Token: f.OwnerToken,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"fallbackURL": "https://login.acme.test/sso"},
			Check: func(t *testing.T, res *servertest.Response) { assert.NotEqual(t, key, res.JSON()["privateKey"]) }},
		{Name: "remove the fallback URL", Method: http.MethodPatch, Path: auth, Token: f.OwnerToken,
			Body: map[string]any{"fallbackURL": nil}, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "fallbackURL") }},
	})

	// GraphQL reads and writes the same settings.
	const settings = `query($id: ID!) { site(id: $id) { hasVisitorAuthKey visitorAuthKey visitorAuthFallbackURL } }`
	var out struct {
		Site struct {
			HasVisitorAuthKey      bool
			VisitorAuthKey         *string
			VisitorAuthFallbackURL *string
		}
	}
	res := f.GraphQL(f.OwnerToken, `mutation($id: ID!) { updateSiteVisitorAuth(input: {siteId: $id, fallbackURL: "ftp://x.test/"}) {
	  site { id } } }`, map[string]any{"id": f.site.ID})
	require.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "fallbackURL", res.Errors[0].Extensions["field"])
	var set struct {
		UpdateSiteVisitorAuth struct {
			Site             struct{ VisitorAuthFallbackURL string }
			ClientMutationID string
		}
	}
	f.GraphQL(f.OwnerToken, `mutation($id: ID!) { updateSiteVisitorAuth(input: {siteId: $id, fallbackURL: "https://sso.acme.test/",
	  clientMutationId: "m1"}) { site { visitorAuthFallbackURL } clientMutationId } }`, map[string]any{"id": f.site.ID}).Into(t, &set)
	assert.Equal(t, "https://sso.acme.test/", set.UpdateSiteVisitorAuth.Site.VisitorAuthFallbackURL)
	assert.Equal(t, "m1", set.UpdateSiteVisitorAuth.ClientMutationID)
	f.GraphQL(f.OwnerToken, settings, map[string]any{"id": f.site.ID}).Into(t, &out)
	got := f.MustDo(http.MethodGet, auth, f.OwnerToken, nil, http.StatusOK)
	assert.True(t, out.Site.HasVisitorAuthKey)
	require.NotNil(t, out.Site.VisitorAuthKey)
	assert.Equal(t, got["privateKey"], *out.Site.VisitorAuthKey, "both APIs show the same key")
	require.NotNil(t, out.Site.VisitorAuthFallbackURL)
	assert.Equal(t, got["fallbackURL"], *out.Site.VisitorAuthFallbackURL)
	res = f.GraphQL(f.readTok, `query($id: ID!) { site(id: $id) { visitorAuthKey } }`, map[string]any{"id": f.site.ID})
	assert.Equal(t, "FORBIDDEN", res.Code(), "the key is its admins'")
	var reader struct {
		Site struct{ VisitorAuthFallbackURL string }
	}
	f.GraphQL(f.readTok, `query($id: ID!) { site(id: $id) { visitorAuthFallbackURL } }`, map[string]any{"id": f.site.ID}).Into(t, &reader)
	assert.Equal(t, "https://sso.acme.test/", reader.Site.VisitorAuthFallbackURL, "where visitors are sent is no secret")
}
