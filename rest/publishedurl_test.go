package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
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

// searchSpaces is the IDs of a site search's spaces, in order.
func searchSpaces(t *testing.T, res *servertest.Response) []string {
	t.Helper()
	var ids []string
	for _, it := range res.JSON()["items"].([]any) {
		m := it.(map[string]any)
		require.NotEmpty(t, m["pages"], "a space comes with its pages")
		ids = append(ids, m["id"].(string))
	}
	return ids
}

func TestSiteSearch(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	search := f.sites + "/search"
	// The organization's search ranks the same spaces in the same order:
	// a site's search ranks as Space.search ranks pages.
	var ranked []string
	for _, id := range searchSpaces(t, f.Do(http.MethodGet, "/v1/orgs/"+f.Org.ID+"/search?query=quokka", f.OwnerToken, nil)) {
		if id != f.beta {
			ranked = append(ranked, id)
		}
	}
	require.ElementsMatch(t, []string{f.api, f.old, f.guide}, ranked)
	// found checks that the search found the spaces given, in the
	// organization's order.
	found := func(spaces ...string) func(t *testing.T, res *servertest.Response) {
		want := []string{}
		for _, id := range ranked {
			if slices.Contains(spaces, id) {
				want = append(want, id)
			}
		}
		return func(t *testing.T, res *servertest.Response) {
			assert.Equal(t, want, append([]string{}, searchSpaces(t, res)...))
		}
	}
	post := func(name, token string, body map[string]any, status int, check func(*testing.T, *servertest.Response), wantError string) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPost, Path: search, Token: token, Body: body, WantStatus: status,
			Check: check, WantError: wantError}
	}
	q := func(extra map[string]any) map[string]any {
		out := map[string]any{"query": "quokka"}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	f.Run(t, []servertest.Scenario{
		post("all the site-spaces a stranger sees", f.otherTok, q(nil), http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("a member sees what a visitor without claims sees", f.readTok, q(map[string]any{"scope": map[string]any{"mode": "all"}}),
			http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("the defaults of each section", f.otherTok, q(map[string]any{"scope": map[string]any{"mode": "default"}}),
			http.StatusOK, found(f.api, f.guide), ""),
		post("the defaults and the current site-space", f.otherTok,
			q(map[string]any{"scope": map[string]any{"mode": "default", "currentSiteSpace": f.v1.ID}}),
			http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("the defaults and included site-spaces", f.otherTok,
			q(map[string]any{"scope": map[string]any{"mode": "default", "includedSiteSpaces": []string{f.v1.ID}}}),
			http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("specific site-spaces", f.otherTok,
			q(map[string]any{"scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{f.v1.ID, f.v2.ID}}}),
			http.StatusOK, found(f.old, f.guide), ""),
		post("the deprecated specific form", f.otherTok, q(map[string]any{"siteSpaceIds": []string{f.apiSS.ID}}),
			http.StatusOK, found(f.api), ""),
		post("the deprecated current form", f.otherTok, q(map[string]any{"mode": "current", "siteSpaceId": f.v1.ID}),
			http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("the deprecated all form", f.otherTok, q(map[string]any{"mode": "all"}), http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("nothing matches", f.otherTok, map[string]any{"query": "zebra"}, http.StatusOK, found(), ""),

		post("a site-space the visitor does not see", f.otherTok,
			q(map[string]any{"scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{f.betaSS.ID}}}),
			http.StatusBadRequest, nil, "scope.siteSpaceIds"),
		post("an unknown site-space in the deprecated form", f.otherTok, q(map[string]any{"siteSpaceIds": []string{"sitesp_nope"}}),
			http.StatusBadRequest, nil, "siteSpaceIds"),
		post("an unknown current site-space", f.otherTok, q(map[string]any{"mode": "current", "siteSpaceId": "sitesp_nope"}),
			http.StatusBadRequest, nil, "siteSpaceId"),
		post("an unknown included site-space", f.otherTok,
			q(map[string]any{"scope": map[string]any{"mode": "default", "includedSiteSpaces": []string{"sitesp_nope"}}}),
			http.StatusBadRequest, nil, "scope.includedSiteSpaces"),
		post("specific without site-spaces", f.otherTok, q(map[string]any{"scope": map[string]any{"mode": "specific"}}),
			http.StatusBadRequest, nil, "scope.siteSpaceIds"),
		post("an unknown mode", f.otherTok, q(map[string]any{"scope": map[string]any{"mode": "deep"}}),
			http.StatusBadRequest, nil, "scope.mode"),
		post("an unknown member of the scope", f.otherTok, q(map[string]any{"scope": map[string]any{"mode": "all", "deep": true}}),
			http.StatusBadRequest, nil, "scope"),
		post("scope and a deprecated form", f.otherTok,
			q(map[string]any{"scope": map[string]any{"mode": "all"}, "mode": "all"}), http.StatusBadRequest, nil, "scope"),
		post("without a query", f.otherTok, map[string]any{}, http.StatusBadRequest, nil, "query"),
		post("a query of 513 characters", f.otherTok, map[string]any{"query": strings.Repeat("q", 513)},
			http.StatusBadRequest, nil, "query"),
		{Name: "an unknown site", Method: http.MethodPost, Path: "/v1/orgs/" + f.Org.ID + "/sites/site_nope/search",
			Token: f.OwnerToken, Body: q(nil), WantStatus: http.StatusNotFound},
		{Name: "another organization's path", Method: http.MethodPost, Path: "/v1/orgs/" + f.otherOrg + "/sites/" + f.site.ID + "/search",
			Token: f.OwnerToken, Body: q(nil), WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPost, Path: search, Body: q(nil), WantStatus: http.StatusUnauthorized},
	})
	// A page at a time, with the list's cursor.
	var walked []string
	for next := search + "?limit=1"; ; {
		res := f.MustDo(http.MethodPost, next, f.otherTok, q(nil), http.StatusOK)
		assert.EqualValues(t, 3, res["count"])
		require.Len(t, res["items"], 1)
		walked = append(walked, res["items"].([]any)[0].(map[string]any)["id"].(string))
		n, ok := res["next"].(map[string]any)
		if !ok {
			break
		}
		next = search + "?limit=1&page=" + n["page"].(string)
	}
	assert.Equal(t, ranked, walked)

	// Unpublished, the site is its members' to search.
	f.Client.Site.UpdateOneID(f.site.ID).SetPublished(false).ExecX(context.Background())
	f.Run(t, []servertest.Scenario{
		post("an unpublished site, for a member", f.readTok, q(nil), http.StatusOK, found(f.api, f.old, f.guide), ""),
		post("an unpublished site, for a stranger", f.otherTok, q(nil), http.StatusNotFound, nil, ""),
		post("a guest", f.guestTok, q(nil), http.StatusNotFound, nil, ""),
	})
}

// Both APIs find the same spaces and pages for a visitor.
func TestSiteSearchParity(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityVisitorAuth)
	beta := visitorJWT(t, f.rotateVisitorKey(f.site.ID), time.Hour, map[string]any{"isBetaUser": true})
	var out struct {
		Site struct {
			Search struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						Space struct{ ID string }
						Pages []struct{ ID, Path string }
					}
				}
			}
		}
	}
	f.GraphQL(f.otherTok, `query($id: ID!, $token: String, $current: ID) { site(id: $id, visitorAuthToken: $token) {
	  search(query: "quokka", scope: {mode: DEFAULT, currentSiteSpace: $current}) {
	    totalCount edges { node { space { id } pages { id path } } } } } }`,
		map[string]any{"id": f.site.ID, "token": beta, "current": f.v1.ID}).Into(t, &out)
	body := f.MustDo(http.MethodPost, f.sites+"/search?visitorAuthToken="+beta, f.otherTok,
		map[string]any{"query": "quokka", "scope": map[string]any{"mode": "default", "currentSiteSpace": f.v1.ID}}, http.StatusOK)
	items := body["items"].([]any)
	require.Len(t, out.Site.Search.Edges, len(items))
	assert.EqualValues(t, body["count"], out.Site.Search.TotalCount)
	assert.Len(t, items, 4, "a beta visitor's search finds the beta space")
	for i, it := range items {
		m := it.(map[string]any)
		node := out.Site.Search.Edges[i].Node
		assert.Equal(t, m["id"], node.Space.ID)
		pages := m["pages"].([]any)
		require.Len(t, node.Pages, len(pages))
		for j, p := range pages {
			assert.Equal(t, p.(map[string]any)["id"], node.Pages[j].ID)
			assert.Equal(t, p.(map[string]any)["path"], node.Pages[j].Path)
		}
	}
}

// sizedSite is a published public site of n spaces at its root, each with
// a page "page" that says quokka: the path of its site-spaces, the address
// of the last one, and a server with empty caches to measure on.
type sizedSite struct {
	*mbEnv
	sites, last string
	fresh       *servertest.Env
}

func newSizedSite(t *testing.T, n int) *sizedSite {
	e := newMbEnv(t)
	spaces := make([]string, n)
	for i := range spaces {
		spaces[i] = e.space(fmt.Sprintf("Space %d", i), "")
		e.Client.Space.UpdateOneID(spaces[i]).SetEditMode(enum.EditModeLive).ExecX(context.Background())
		e.GraphQL(e.OwnerToken, `mutation($s: ID!) { createPage(input: {spaceId: $s, title: "Page", markdown: "A quokka."}) {
		  page { id } } }`, map[string]any{"s": spaces[i]}).Into(t, &struct{}{})
	}
	site := e.createSite(map[string]any{"title": "Docs", "spaces": spaces})["id"].(string)
	s := &sizedSite{mbEnv: e, sites: "/v1/orgs/" + e.Org.ID + "/sites/" + site}
	e.MustDo(http.MethodPost, s.sites+"/publish", e.OwnerToken, nil, http.StatusOK)
	items := e.MustDo(http.MethodGet, s.sites+"/site-spaces", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	s.last = items[len(items)-1].(map[string]any)["urls"].(map[string]any)["published"].(string)
	s.fresh = servertest.Reuse(t, e.Env, graph.WithBatchWait(25*time.Millisecond))
	return s
}

// measure counts the statements of a request, sent once before to record
// the token's use and read the content once.
func (s *sizedSite) measure(do func()) int64 {
	do()
	before := s.fresh.Statements.Load()
	do()
	return s.fresh.Statements.Load() - before
}

// A search costs the same whatever the number of site-spaces and of spaces
// found: the site, its site-spaces, its sections, their spaces, the ranking
// and the best pages (the token was read by the search before, and a
// search writes nothing).
func TestSiteSearchStatements(t *testing.T) {
	t.Parallel()
	cost := func(n int) int64 {
		s := newSizedSite(t, n)
		return s.measure(func() {
			res := s.fresh.MustDo(http.MethodPost, s.sites+"/search", s.otherTok, map[string]any{"query": "quokka"}, http.StatusOK)
			require.Len(t, res["items"], n)
		})
	}
	few, many := cost(3), cost(30)
	t.Logf("a search: %d statements at 3 site-spaces, %d at 30", few, many)
	assert.Equal(t, few, many)
	assert.Equal(t, int64(6), few)
}

// lookupPath is GET /v1/urls/published for an address; extra adds query
// parameters.
func lookupPath(address, extra string) string {
	return "/v1/urls/published?url=" + url.QueryEscape(address) + extra
}

// content is the answer of a lookup that shows content, as its members.
func (f *puFixture) content(section *ent.SiteSection, ss *ent.SiteSpace, pathname, basePath, canonical string, complete bool) map[string]any {
	out := map[string]any{"site": f.site.ID, "siteSpace": ss.ID, "space": ss.SpaceID, "organization": f.Org.ID,
		"pathname": pathname, "basePath": basePath, "siteBasePath": f.homeInstance, "complete": complete, "canonicalUrl": canonical}
	if section != nil {
		out["siteSection"] = section.ID
	}
	return out
}

func TestPublishedContentByURL(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	at := func(p string) string { return lookupPath(f.home+p, "") }
	revision := f.MustDo(http.MethodGet, "/v1/spaces/"+f.guide, f.OwnerToken, nil, http.StatusOK)["revision"]
	root := f.content(f.guides, f.v2, "", f.homeInstance, f.home, false)
	root["revision"] = revision
	lookup := func(name, path string, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: path, Token: f.otherTok, WantStatus: http.StatusOK,
			WantJSON: want, BinderySpec: true, Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.JSON(), "apiToken", "Bindery mints no short-lived tokens")
			}}
	}
	f.Run(t, []servertest.Scenario{
		lookup("the site's root", at(""), root),
		lookup("the site's root without its slash", lookupPath(strings.TrimSuffix(f.home, "/"), ""), root),
		lookup("a nested page", at("install/linux"),
			f.content(f.guides, f.v2, "install/linux", f.homeInstance, f.home+"install/linux", true)),
		lookup("a page's markdown", at("install/linux.md"),
			f.content(f.guides, f.v2, "install/linux", f.homeInstance, f.home+"install/linux", true)),
		lookup("the first page by its path", at("welcome"), f.content(f.guides, f.v2, "welcome", f.homeInstance, f.home, true)),
		lookup("a hidden page the reader still shows", at("secret"),
			f.content(f.guides, f.v2, "secret", f.homeInstance, f.home+"secret", true)),
		lookup("another section", at("api/"), f.content(f.apiSec, f.apiSS, "", f.homeInstance+"api/", f.home+"api/", true)),
		lookup("another section's page", at("api/overview"),
			f.content(f.apiSec, f.apiSS, "overview", f.homeInstance+"api/", f.home+"api/", true)),
		lookup("the default section by its path", at("guides/"),
			f.content(f.guides, f.v2, "", f.homeInstance+"guides/", f.home, false)),
		lookup("a site-space of the default section", at("v1/old-welcome"),
			f.content(f.guides, f.v1, "old-welcome", f.homeInstance+"v1/", f.home+"v1/", true)),
		lookup("a site-space named in full", at("guides/v1/"),
			f.content(f.guides, f.v1, "", f.homeInstance+"guides/v1/", f.home+"v1/", true)),
		lookup("a page that does not exist still resolves", at("nope/deeper"),
			f.content(f.guides, f.v2, "nope/deeper", f.homeInstance, f.home+"nope/deeper", true)),
		lookup("a redirect's source that is a page: the page wins", at("install"),
			f.content(f.guides, f.v2, "install", f.homeInstance, f.home+"install", true)),
		lookup("a redirect to a page of the site", at("old-install"),
			map[string]any{"target": "content", "redirect": f.home + "guides/v2/install"}),
		lookup("a redirect with a trailing slash", at("old-install/"),
			map[string]any{"target": "content", "redirect": f.home + "guides/v2/install"}),
		lookup("a redirect to a URL", at("elsewhere"), map[string]any{"target": "external", "redirect": "https://example.org/x"}),
		lookup("a section the visitor does not see is a path of the default site-space", at("beta/beta"),
			f.content(f.guides, f.v2, "beta/beta", f.homeInstance, f.home+"beta/beta", true)),
		{Name: "the owner is an anonymous visitor too", Method: http.MethodGet, Path: at("beta/"), Token: f.OwnerToken,
			WantStatus: http.StatusOK, BinderySpec: true,
			WantJSON: f.content(f.guides, f.v2, "beta", f.homeInstance, f.home+"beta/", true)},

		{Name: "without a url", Method: http.MethodGet, Path: "/v1/urls/published", Token: f.otherTok,
			WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "a url that is not absolute", Method: http.MethodGet, Path: lookupPath("sites/x/", ""), Token: f.otherTok,
			WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "a url of 2049 characters", Method: http.MethodGet, Path: lookupPath(f.home+strings.Repeat("a", 2049-len(f.home)), ""),
			Token: f.otherTok, WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "redirectOnError that is no boolean", Method: http.MethodGet, Path: lookupPath(f.home, "&redirectOnError=maybe"),
			Token: f.otherTok, WantStatus: http.StatusBadRequest, WantError: "redirectOnError"},
		{Name: "an unknown site", Method: http.MethodGet, Path: lookupPath(f.Config.PublicURL+"/sites/site_nope/", ""),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "another host", Method: http.MethodGet, Path: lookupPath("https://example.com/sites/"+f.site.ID+"/", ""),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "an address of the dashboard", Method: http.MethodGet, Path: lookupPath(f.Config.PublicURL+"/s/"+f.guide, ""),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "without an API token", Method: http.MethodGet, Path: at(""), WantStatus: http.StatusUnauthorized},
		{Name: "POST", Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok, BinderySpec: true,
			Body:       map[string]any{"url": f.home + "api/overview", "redirectOnError": true, "visitor": map[string]any{}},
			WantStatus: http.StatusOK, WantJSON: f.content(f.apiSec, f.apiSS, "overview", f.homeInstance+"api/", f.home+"api/", true)},
		{Name: "POST with empty unsigned claims", Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok,
			BinderySpec: true, Body: map[string]any{"url": f.home, "visitor": map[string]any{"unsignedClaims": map[string]any{}}},
			WantStatus: http.StatusOK},
		{Name: "POST with unsigned claims no schema describes: ignored", Method: http.MethodPost, Path: "/v1/urls/published",
			Token: f.otherTok, BinderySpec: true,
			Body:       map[string]any{"url": f.home + "beta/", "visitor": map[string]any{"unsignedClaims": map[string]any{"isBetaUser": true}}},
			WantStatus: http.StatusOK, WantJSON: f.content(f.guides, f.v2, "beta", f.homeInstance, f.home+"beta/", true)},
		{Name: "POST with unsigned claims that are no object", Method: http.MethodPost, Path: "/v1/urls/published",
			Token: f.otherTok, Body: map[string]any{"url": f.home, "visitor": map[string]any{"unsignedClaims": []any{1}}},
			WantStatus: http.StatusBadRequest, WantError: "visitor.unsignedClaims"},
		{Name: "POST without a url", Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "POST with an unknown member", Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok,
			Body: map[string]any{"url": f.home, "apiToken": "x"}, WantStatus: http.StatusBadRequest, WantError: "apiToken"},
		{Name: "POST with a token that is not valid, of a public site", Method: http.MethodPost, Path: "/v1/urls/published",
			Token: f.otherTok, Body: map[string]any{"url": f.home, "visitor": map[string]any{"jwtToken": "not.a.jwt"}},
			WantStatus: http.StatusBadRequest, WantError: "visitor.jwtToken"},
	})

	// Unpublished, the site is nobody's to look up: not even its owner's.
	f.Client.Site.UpdateOneID(f.site.ID).SetPublished(false).ExecX(context.Background())
	f.Run(t, []servertest.Scenario{
		{Name: "an unpublished site, for its owner", Method: http.MethodGet, Path: at(""), Token: f.OwnerToken,
			WantStatus: http.StatusNotFound},
	})
}

// The reader answers each address as the lookup says: the page it shows, its
// not-found page, or the redirect.
func TestPublishedLookupAgreesWithTheReader(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	client := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path string
		// status is the reader's; redirect the lookup's target, "" for
		// content.
		status   int
		redirect string
	}{
		{"", http.StatusOK, ""},
		{"install/linux", http.StatusOK, ""},
		{"install/linux.md", http.StatusOK, ""},
		{"secret", http.StatusOK, ""},
		{"advanced", http.StatusFound, ""},
		{"website", http.StatusFound, ""},
		{"api/overview", http.StatusOK, ""},
		{"guides/v1/", http.StatusOK, ""},
		{"install", http.StatusOK, ""},
		{"nope", http.StatusNotFound, ""},
		{"advanced.md", http.StatusNotFound, ""},
		{"old-install", http.StatusMovedPermanently, "content"},
		{"elsewhere", http.StatusMovedPermanently, "external"},
	} {
		t.Run(c.path, func(t *testing.T) {
			res, err := client.Get(f.HTTP.URL + f.homeInstance + c.path)
			require.NoError(t, err)
			res.Body.Close()
			assert.Equal(t, c.status, res.StatusCode, "the reader")
			got := f.DoBindery(http.MethodGet, lookupPath(f.home+c.path, ""), f.otherTok, nil)
			require.Equal(t, http.StatusOK, got.Status, string(got.Body))
			body := got.JSON()
			if c.redirect == "" {
				assert.NotContains(t, body, "redirect")
				return
			}
			assert.Equal(t, c.redirect, body["target"])
			assert.Equal(t, res.Header.Get("Location"), body["redirect"], "the reader sends the visitor where the lookup says")
		})
	}
}

func TestPublishedContentByURLAtHostname(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	f.Client.Site.UpdateOneID(f.site.ID).SetHostname("docs.acme.test").SetBasename("help").ExecX(context.Background())
	home := "https://docs.acme.test/help/"
	content := func(section *ent.SiteSection, ss *ent.SiteSpace, pathname, basePath, canonical string) map[string]any {
		out := f.content(section, ss, pathname, basePath, canonical, pathname != "" || section != f.guides)
		out["siteBasePath"] = "/help/"
		return out
	}
	ok := func(name, address string, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: lookupPath(address, ""), Token: f.otherTok,
			WantStatus: http.StatusOK, WantJSON: want, BinderySpec: true}
	}
	f.Run(t, []servertest.Scenario{
		ok("a page", home+"install/linux", content(f.guides, f.v2, "install/linux", "/help/", home+"install/linux")),
		ok("the basename alone", "https://docs.acme.test/help", content(f.guides, f.v2, "", "/help/", home)),
		ok("a port is no other host", "https://docs.acme.test:8443/help/api/overview",
			content(f.apiSec, f.apiSS, "overview", "/help/api/", "https://docs.acme.test:8443/help/api/")),
		ok("a redirect stays at the hostname", home+"old-install",
			map[string]any{"target": "content", "redirect": home + "guides/v2/install"}),
		ok("the address at /sites/ still works", f.home+"api/overview",
			f.content(f.apiSec, f.apiSS, "overview", f.homeInstance+"api/", f.home+"api/", true)),
		{Name: "outside the basename", Method: http.MethodGet, Path: lookupPath("https://docs.acme.test/other/", ""),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "another hostname", Method: http.MethodGet, Path: lookupPath("https://nope.acme.test/help/", ""),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
	})
}

func TestPublishedContentByURLForItsVisitors(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityShareLink)
	key := shareKeyOf(t, f.MustDo(http.MethodPost, f.sites+"/share-links", f.OwnerToken, map[string]any{"name": "Partners"},
		http.StatusCreated))
	withKey := func(p string) string { return f.home + p + "?shareKey=" + key }
	apiContent := f.content(f.apiSec, f.apiSS, "overview", f.homeInstance+"api/", f.home+"api/", true)
	apiContent["shareKey"] = key
	f.Run(t, []servertest.Scenario{
		{Name: "the share key in the address", Method: http.MethodGet, Path: lookupPath(withKey("api/overview"), ""),
			Token: f.otherTok, WantStatus: http.StatusOK, WantJSON: apiContent, BinderySpec: true},
		{Name: "a redirect keeps the key", Method: http.MethodGet, Path: lookupPath(withKey("old-install"), ""),
			Token: f.otherTok, WantStatus: http.StatusOK, BinderySpec: true,
			WantJSON: map[string]any{"target": "content", "redirect": f.home + "guides/v2/install?shareKey=" + key}},
		{Name: "the same redirect by its source", Method: http.MethodGet, Path: f.sites + "/redirect?source=/old-install&shareKey=" + key,
			Token: f.otherTok, WantStatus: http.StatusOK, WantJSON: map[string]any{"target": f.home + "guides/v2/install",
				"redirect": map[string]any{"object": "site-redirect", "source": "/old-install"}}},
		{Name: "a redirect by its source without the key", Method: http.MethodGet, Path: f.sites + "/redirect?source=/old-install",
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "without the key", Method: http.MethodGet, Path: lookupPath(f.home+"api/overview", ""), Token: f.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "the owner without the key", Method: http.MethodGet, Path: lookupPath(f.home+"api/overview", ""),
			Token: f.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "a wrong key", Method: http.MethodGet, Path: lookupPath(f.home+"?shareKey=nope", ""), Token: f.otherTok,
			WantStatus: http.StatusNotFound},
	})

	// Visitor authentication, with a fallback URL.
	f.Client.Site.UpdateOneID(f.site.ID).SetVisibility(enum.SiteVisibilityVisitorAuth).ExecX(context.Background())
	sign := f.rotateVisitorKey(f.site.ID)
	f.MustDo(http.MethodPatch, f.sites+"/publishing/auth", f.OwnerToken,
		map[string]any{"backend": "custom", "fallbackURL": "https://login.acme.test/sso?app=docs"}, http.StatusOK)
	beta := visitorJWT(t, sign, time.Hour, map[string]any{"isBetaUser": true})
	plain := visitorJWT(t, sign, time.Hour, map[string]any{"plan": "free"})
	expired := visitorJWT(t, sign, -time.Minute, nil)
	address := f.home + "beta/preview"
	signIn := "https://login.acme.test/sso?app=docs&location=" + url.QueryEscape(address)
	betaContent := f.content(f.betaSec, f.betaSS, "preview", f.homeInstance+"beta/", f.home+"beta/", true)
	f.Run(t, []servertest.Scenario{
		{Name: "a beta visitor", Method: http.MethodGet, Path: lookupPath(address, "&visitorAuthToken="+beta), Token: f.otherTok,
			WantStatus: http.StatusOK, WantJSON: betaContent, BinderySpec: true},
		{Name: "a beta visitor's token in the address", Method: http.MethodGet, Path: lookupPath(address+"?jwt_token="+beta, ""),
			Token: f.otherTok, WantStatus: http.StatusOK, WantJSON: betaContent, BinderySpec: true},
		{Name: "a beta visitor, POST", Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok,
			Body: map[string]any{"url": address, "visitor": map[string]any{"jwtToken": beta}}, WantStatus: http.StatusOK,
			WantJSON: betaContent, BinderySpec: true},
		{Name: "another visitor does not see the section", Method: http.MethodGet,
			Path: lookupPath(address, "&visitorAuthToken="+plain), Token: f.otherTok, WantStatus: http.StatusOK, BinderySpec: true,
			WantJSON: f.content(f.guides, f.v2, "beta/preview", f.homeInstance, address, true)},
		{Name: "no token", Method: http.MethodGet, Path: lookupPath(address, ""), Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "an expired token", Method: http.MethodGet, Path: lookupPath(address, "&visitorAuthToken="+expired),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "no token, redirected", Method: http.MethodGet, Path: lookupPath(address, "&redirectOnError=true"),
			Token: f.otherTok, WantStatus: http.StatusOK, WantJSON: map[string]any{"target": "external", "redirect": signIn}},
		{Name: "an expired token, redirected", Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok,
			Body:       map[string]any{"url": address, "redirectOnError": true, "visitor": map[string]any{"jwtToken": expired}},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"target": "external", "redirect": signIn}},
		{Name: "the owner without a token", Method: http.MethodGet, Path: lookupPath(address, ""), Token: f.OwnerToken,
			WantStatus: http.StatusNotFound},
	})

	// A new key: the old one's tokens stop admitting.
	f.MustDo(http.MethodPost, f.sites+"/publishing/auth/regenerate", f.OwnerToken, nil, http.StatusOK)
	f.Run(t, []servertest.Scenario{
		{Name: "a token of the old key", Method: http.MethodGet, Path: lookupPath(address, "&visitorAuthToken="+beta),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
	})

	// Without a fallback URL, redirectOnError has nowhere to send anyone.
	f.MustDo(http.MethodPatch, f.sites+"/publishing/auth", f.OwnerToken, map[string]any{"fallbackURL": nil}, http.StatusOK)
	f.Run(t, []servertest.Scenario{
		{Name: "no fallback URL", Method: http.MethodGet, Path: lookupPath(address, "&redirectOnError=true"), Token: f.otherTok,
			WantStatus: http.StatusNotFound},
	})
}

// shareKeyOf is the key of a share link, from its published URL.
func shareKeyOf(t *testing.T, link map[string]any) string {
	t.Helper()
	u, err := url.Parse(link["urls"].(map[string]any)["published"].(string))
	require.NoError(t, err)
	return u.Query().Get("shareKey")
}

// Three visitors, anonymous, with a share key and with a token whose
// claims show a conditional section: each site-space the published
// structure shows them resolves to itself, and one it does not show
// resolves to none of them.
func TestPublishedLookupAgreesWithPublishedStructure(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	// agree checks a visitor: keys is the query of .../published, and of
	// the lookups (shareKey in the address, visitorAuthToken apart).
	agree := func(t *testing.T, shareKey, token string, wantBeta bool) {
		published := f.sites + "/published?shareKey=" + shareKey + "&visitorAuthToken=" + token
		structure := f.MustDo(http.MethodGet, published, f.otherTok, nil, http.StatusOK)["structure"].(map[string]any)
		shown := map[string]string{}
		for _, sec := range structure["structure"].([]any) {
			for _, ss := range sec.(map[string]any)["siteSpaces"].([]any) {
				m := ss.(map[string]any)
				shown[m["id"].(string)] = m["urls"].(map[string]any)["published"].(string)
			}
		}
		_, sawBeta := shown[f.betaSS.ID]
		require.Equal(t, wantBeta, sawBeta, "the published structure shows the beta section: %v", shown)
		resolve := func(address string) string {
			u := address + "/"
			if shareKey != "" {
				u += "?shareKey=" + shareKey
			}
			res := f.DoBindery(http.MethodGet, lookupPath(u, "&visitorAuthToken="+token), f.otherTok, nil)
			require.Equal(t, http.StatusOK, res.Status, string(res.Body))
			return res.JSON()["siteSpace"].(string)
		}
		for id, address := range shown {
			assert.Equal(t, id, resolve(address), "%s resolves to its site-space", address)
		}
		if !wantBeta {
			assert.Equal(t, f.v2.ID, resolve(strings.TrimSuffix(f.home, "/")+"/beta/beta"),
				"a section the visitor does not see is a page path of the default site-space")
		}
	}
	t.Run("anonymous", func(t *testing.T) { agree(t, "", "", false) })

	f.Client.Site.UpdateOneID(f.site.ID).SetVisibility(enum.SiteVisibilityShareLink).ExecX(context.Background())
	key := shareKeyOf(t, f.MustDo(http.MethodPost, f.sites+"/share-links", f.OwnerToken, map[string]any{"name": "Partners"},
		http.StatusCreated))
	t.Run("with a share key", func(t *testing.T) { agree(t, key, "", false) })

	f.Client.Site.UpdateOneID(f.site.ID).SetVisibility(enum.SiteVisibilityVisitorAuth).ExecX(context.Background())
	sign := f.rotateVisitorKey(f.site.ID)
	t.Run("with a beta visitor's token", func(t *testing.T) {
		agree(t, "", visitorJWT(t, sign, time.Hour, map[string]any{"isBetaUser": true}), true)
	})
}

// gqlLookup is publishedContentByUrl in GraphQL, in the /v1 answer's form,
// or the code of its error.
func (f *puFixture) gqlLookup(t *testing.T, token, address, visitorToken string) (map[string]any, string) {
	t.Helper()
	res := f.GraphQL(token, `query($url: String!, $token: String) { publishedContentByUrl(url: $url, visitorAuthToken: $token) {
	  __typename
	  ... on PublishedContent { siteId siteSectionId siteSpaceId spaceId revisionId organizationId pathname basePath
	    siteBasePath complete shareKey canonicalUrl }
	  ... on PublishedContentRedirect { target redirect } } }`, map[string]any{"url": address, "token": visitorToken})
	if code := res.Code(); code != "" {
		return nil, code
	}
	var raw struct {
		PublishedContentByURL map[string]any `json:"publishedContentByUrl"`
	}
	res.Into(t, &raw)
	names := map[string]string{"siteId": "site", "siteSectionId": "siteSection", "siteSpaceId": "siteSpace", "spaceId": "space",
		"revisionId": "revision", "organizationId": "organization"}
	out := map[string]any{}
	for k, v := range raw.PublishedContentByURL {
		switch {
		case k == "__typename" || v == nil:
		case k == "target":
			out[k] = strings.ToLower(v.(string))
		case names[k] != "":
			out[names[k]] = v
		default:
			out[k] = v
		}
	}
	return out, ""
}

// Both APIs answer the same lookups, and fail them alike.
func TestPublishedLookupParity(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityVisitorAuth)
	beta := visitorJWT(t, f.rotateVisitorKey(f.site.ID), time.Hour, map[string]any{"isBetaUser": true})
	codes := map[int]string{http.StatusNotFound: "NOT_FOUND", http.StatusBadRequest: "BAD_USER_INPUT"}
	for _, c := range []struct{ address, token string }{
		{f.home, beta}, {f.home + "install/linux", beta}, {f.home + "beta/preview", beta}, {f.home + "guides/v1/", beta},
		{f.home + "nope", beta}, {f.home + "old-install", beta}, {f.home + "elsewhere", beta},
		{f.home + "beta/preview", ""}, {f.home, "not.a.token"}, {"not a url", beta},
		{f.Config.PublicURL + "/sites/site_nope/", beta},
	} {
		t.Run(c.address+" "+c.token[:min(len(c.token), 8)], func(t *testing.T) {
			res := f.DoBindery(http.MethodGet, lookupPath(c.address, "&visitorAuthToken="+c.token), f.otherTok, nil)
			gql, code := f.gqlLookup(t, f.otherTok, c.address, c.token)
			if res.Status != http.StatusOK {
				assert.Equal(t, codes[res.Status], code, "%d %s", res.Status, res.Body)
				return
			}
			require.Empty(t, code)
			assert.Equal(t, res.JSON(), gql)
		})
	}
}

// A lookup costs the same whatever the site's size: the site, its
// site-spaces, its sections, their spaces and the revision (the token was
// read by the lookup before, and nothing was written since); a path that
// names no page looks for a redirect, and a share key is checked, one
// statement more each.
func TestPublishedLookupStatements(t *testing.T) {
	t.Parallel()
	cost := func(n int) (page, missing, shared int64) {
		s := newSizedSite(t, n)
		lookup := func(address, pathname string) func() {
			return func() {
				res := s.fresh.DoBindery(http.MethodGet, lookupPath(address, ""), s.otherTok, nil)
				require.Equal(t, http.StatusOK, res.Status, string(res.Body))
				require.Equal(t, pathname, res.JSON()["pathname"])
			}
		}
		page = s.measure(lookup(s.last+"/page", "page"))
		missing = s.measure(lookup(s.last+"/nope", "nope"))
		s.MustDo(http.MethodPatch, s.sites, s.OwnerToken, map[string]any{"visibility": "share-link"}, http.StatusOK)
		key := shareKeyOf(t, s.MustDo(http.MethodPost, s.sites+"/share-links", s.OwnerToken, map[string]any{"name": "Partners"},
			http.StatusCreated))
		shared = s.measure(lookup(s.last+"/page?shareKey="+key, "page"))
		return page, missing, shared
	}
	page3, missing3, shared3 := cost(3)
	page30, missing30, shared30 := cost(30)
	t.Logf("a lookup: %d statements at 3 site-spaces, %d at 30; of no page: %d and %d; with a share key: %d and %d",
		page3, page30, missing3, missing30, shared3, shared30)
	assert.Equal(t, page3, page30)
	assert.Equal(t, missing3, missing30)
	assert.Equal(t, shared3, shared30)
	assert.Equal(t, int64(5), page3)
	assert.Equal(t, page3+1, missing3)
	assert.Equal(t, page3+1, shared3)
}

func TestContentByURL(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	app := f.Config.AppURL
	collection := f.collection("Handbook", "")
	cr := f.MustDo(http.MethodPost, "/v1/spaces/"+f.guide+"/change-requests", f.OwnerToken, map[string]any{"subject": "Typos"},
		http.StatusCreated)
	revision := f.MustDo(http.MethodGet, "/v1/spaces/"+f.guide, f.OwnerToken, nil, http.StatusOK)["revision"].(string)
	at := func(u string) string { return "/v1/urls/content?url=" + url.QueryEscape(u) }
	space := func(id string) map[string]any {
		return map[string]any{"space": map[string]any{"object": "space", "id": id}}
	}
	withPage := func(id, path string) map[string]any {
		out := space(id)
		out["page"] = map[string]any{"path": path}
		return out
	}
	f.Run(t, []servertest.Scenario{
		{Name: "a collection", Method: http.MethodGet, Path: at(app + "/c/" + collection), Token: f.readTok,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"collection": map[string]any{"object": "collection", "id": collection}},
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "space") }},
		{Name: "a space", Method: http.MethodGet, Path: at(app + "/s/" + f.guide), Token: f.readTok,
			WantStatus: http.StatusOK, WantJSON: space(f.guide),
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "page") }},
		{Name: "a page", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/install/linux"), Token: f.readTok,
			WantStatus: http.StatusOK, WantJSON: withPage(f.guide, "install/linux")},
		{Name: "a group", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/advanced"), Token: f.readTok,
			WantStatus: http.StatusOK, WantJSON: withPage(f.guide, "advanced")},
		{Name: "a link names its space alone", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/website"), Token: f.readTok,
			WantStatus: http.StatusOK, WantJSON: space(f.guide),
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "page") }},
		{Name: "a change request", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/~/changes/1/install"),
			Token: f.readTok, WantStatus: http.StatusOK, WantJSON: map[string]any{"space": map[string]any{"id": f.guide},
				"changeRequest": map[string]any{"id": cr["id"], "number": 1}, "page": map[string]any{"path": "install"}}},
		{Name: "a revision", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/~/revisions/" + revision + "/welcome"),
			Token: f.readTok, WantStatus: http.StatusOK, WantJSON: withPage(f.guide, "welcome")},
		{Name: "a published address", Method: http.MethodGet, Path: at(f.home + "api/overview"), Token: f.otherTok,
			WantStatus: http.StatusOK, WantJSON: withPage(f.api, "overview")},
		{Name: "a published site-space's root", Method: http.MethodGet, Path: at(f.home + "v1/"), Token: f.otherTok,
			WantStatus: http.StatusOK, WantJSON: space(f.old)},

		{Name: "a missing page", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/nope"), Token: f.readTok,
			WantStatus: http.StatusNotFound},
		{Name: "a missing published page", Method: http.MethodGet, Path: at(f.home + "nope"), Token: f.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "an unknown change request", Method: http.MethodGet, Path: at(app + "/s/" + f.guide + "/~/changes/9"),
			Token: f.readTok, WantStatus: http.StatusNotFound},
		{Name: "a space a stranger cannot see", Method: http.MethodGet, Path: at(app + "/s/" + f.guide), Token: f.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "a collection a stranger cannot see", Method: http.MethodGet, Path: at(app + "/c/" + collection),
			Token: f.otherTok, WantStatus: http.StatusNotFound},
		{Name: "an organization names no content", Method: http.MethodGet, Path: at(app + "/o/" + f.Org.ID), Token: f.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "an unknown space", Method: http.MethodGet, Path: at(app + "/s/spc_nope"), Token: f.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "another host", Method: http.MethodGet, Path: at("https://example.com/s/" + f.guide), Token: f.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "not a URL", Method: http.MethodGet, Path: at("/s/" + f.guide), Token: f.OwnerToken,
			WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "without a url", Method: http.MethodGet, Path: "/v1/urls/content", Token: f.OwnerToken,
			WantStatus: http.StatusBadRequest, WantError: "url"},
	})
	// A member reads an unpublished site's addresses; a stranger does not.
	f.Client.Site.UpdateOneID(f.site.ID).SetPublished(false).ExecX(context.Background())
	f.Run(t, []servertest.Scenario{
		{Name: "an unpublished site, for a member", Method: http.MethodGet, Path: at(f.home + "api/overview"), Token: f.readTok,
			WantStatus: http.StatusOK, WantJSON: withPage(f.api, "overview")},
		{Name: "an unpublished site, for a stranger", Method: http.MethodGet, Path: at(f.home + "api/overview"), Token: f.otherTok,
			WantStatus: http.StatusNotFound},
	})
}

// Both APIs name the same content for an address.
func TestContentByURLParity(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	app := f.Config.AppURL
	cr := f.MustDo(http.MethodPost, "/v1/spaces/"+f.guide+"/change-requests", f.OwnerToken, map[string]any{"subject": "Typos"},
		http.StatusCreated)["number"]
	for _, address := range []string{app + "/s/" + f.guide + "/install/linux", app + "/c/" + f.collection("Handbook", ""),
		app + "/s/" + f.api, fmt.Sprintf("%s/s/%s/~/changes/%v/install", app, f.guide, cr), f.home + "v1/old-welcome"} {
		var out struct {
			ContentByURL struct {
				Collection, Space, ChangeRequest *struct{ ID string }
				Page                             *struct{ ID, Path string }
			} `json:"contentByUrl"`
		}
		f.GraphQL(f.readTok, `query($url: String!) { contentByUrl(url: $url) { collection { id } space { id } changeRequest { id }
		  page { id path } } }`, map[string]any{"url": address}).Into(t, &out)
		body := f.MustDo(http.MethodGet, "/v1/urls/content?url="+url.QueryEscape(address), f.readTok, nil, http.StatusOK)
		member := func(name, field string) any {
			if m, ok := body[name].(map[string]any); ok {
				return m[field]
			}
			return nil
		}
		idOf := func(x *struct{ ID string }) any {
			if x == nil {
				return nil
			}
			return x.ID
		}
		got := out.ContentByURL
		assert.Equal(t, member("collection", "id"), idOf(got.Collection), address)
		assert.Equal(t, member("space", "id"), idOf(got.Space), address)
		assert.Equal(t, member("changeRequest", "id"), idOf(got.ChangeRequest), address)
		if got.Page == nil {
			assert.Nil(t, body["page"], address)
			continue
		}
		assert.Equal(t, member("page", "id"), got.Page.ID, address)
		assert.Equal(t, member("page", "path"), got.Page.Path, address)
	}
}

// TestPublishedContentByURLWithUnsignedClaims: unsigned claims, given in
// the body or as visitor.<claim> parameters of the address, choose content
// when the site's adaptive schema describes them, as in the reader.
func TestPublishedContentByURLWithUnsignedClaims(t *testing.T) {
	t.Parallel()
	f := newPUFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	f.Client.Site.UpdateOne(f.site).SetAdaptiveSchema(map[string]any{
		"type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
				"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "In the beta"}}},
		},
	}).SetAdaptiveSchemaUpdatedAt(time.Now()).ExecX(ctx)
	f.Client.SiteSection.UpdateOne(f.betaSec).SetCondition("visitor.claims.unsigned.beta == true").ExecX(ctx)
	beta := f.content(f.betaSec, f.betaSS, "", f.homeInstance+"beta/", f.home+"beta/", true)
	notBeta := f.content(f.guides, f.v2, "beta", f.homeInstance, f.home+"beta/", true)
	post := func(name string, claims any, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPost, Path: "/v1/urls/published", Token: f.otherTok,
			BinderySpec: true, Body: map[string]any{"url": f.home + "beta/", "visitor": map[string]any{"unsignedClaims": claims}},
			WantStatus: http.StatusOK, WantJSON: want}
	}
	f.Run(t, []servertest.Scenario{
		post("a claim the schema accepts", map[string]any{"beta": true}, beta),
		post("a claim of the wrong type is ignored", map[string]any{"beta": "yes"}, notBeta),
		post("a claim the schema does not describe is ignored", map[string]any{"alpha": true}, notBeta),
		{Name: "a claim of the address", Method: http.MethodGet, Path: lookupPath(f.home+"beta/?visitor.beta=true", ""),
			Token: f.otherTok, BinderySpec: true, WantStatus: http.StatusOK, WantJSON: beta},
	})
}
