package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// createSite creates a site as the owner.
func (e *mbEnv) createSite(body map[string]any) map[string]any {
	e.T.Helper()
	return e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites", e.OwnerToken, body, http.StatusCreated)
}

func TestSites(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	sites := "/v1/orgs/" + e.Org.ID + "/sites"
	guide, api := e.space("Guide", ""), e.space("API", "")
	docs := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide, api, guide}})
	servertest.AssertContains(t, map[string]any{"object": "site", "title": "Docs", "type": "basic", "visibility": "public",
		"published": false, "siteSpaces": 2, "features": []any{}, "adaptiveContent": map[string]any{"enabled": false},
		"agentsContext": "included"}, docs)
	d := docs["id"].(string)
	site := sites + "/" + d
	assert.NotContains(t, docs["urls"], "published", "no published address while unpublished")
	otherSite := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/sites", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	otherSpace := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/spaces", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)

	e.Run(t, []servertest.Scenario{
		{Name: "create: defaults", Method: http.MethodPost, Path: sites, Token: e.OwnerToken, Body: map[string]any{},
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": "Docs", "type": "basic", "siteSpaces": 0},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+sites+"/"+res.JSON()["id"].(string), res.Header.Get("Location"))
			}},
		{Name: "create: title of 128, premium, share-link", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body:       map[string]any{"title": strings.Repeat("t", 128), "type": "premium", "visibility": "share-link"},
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"type": "premium", "visibility": "share-link"}},
		{Name: "create: title of 129", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 129)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: title of 2", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body: map[string]any{"title": "ab"}, WantStatus: http.StatusCreated},
		{Name: "create: title of 1", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body: map[string]any{"title": "a"}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: unknown type", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body: map[string]any{"type": "gold"}, WantStatus: http.StatusBadRequest, WantError: "type"},
		{Name: "create: another organization's space", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body: map[string]any{"spaces": []string{guide, otherSpace}}, WantStatus: http.StatusBadRequest, WantError: otherSpace},
		{Name: "create: the create-a-space form", Method: http.MethodPost, Path: sites, Token: e.OwnerToken,
			Body: map[string]any{"spaces": map[string]any{"title": "New"}}, WantStatus: http.StatusBadRequest, WantError: "spaces"},
		{Name: "create: as an editor", Method: http.MethodPost, Path: sites, Token: e.editTok,
			Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPost, Path: sites, Token: e.otherTok,
			Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPost, Path: sites, Body: map[string]any{}, WantStatus: http.StatusUnauthorized},
		{Name: "get: as a reader", Method: http.MethodGet, Path: site, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": d, "siteSpaces": 2}},
		{Name: "get: as a guest", Method: http.MethodGet, Path: site, Token: e.guestTok, WantStatus: http.StatusNotFound},
		{Name: "get: another organization's", Method: http.MethodGet, Path: sites + "/" + otherSite, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: sites + "/site_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: site, WantStatus: http.StatusUnauthorized},
		{Name: "update: as an editor", Method: http.MethodPatch, Path: site, Token: e.editTok,
			Body: map[string]any{"title": "Ours"}, WantStatus: http.StatusForbidden},
		{Name: "update: another organization's", Method: http.MethodPatch, Path: sites + "/" + otherSite, Token: e.OwnerToken,
			Body: map[string]any{"title": "Ours"}, WantStatus: http.StatusNotFound},
		{Name: "update: basename of 101", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"basename": strings.Repeat("b", 101)}, WantStatus: http.StatusBadRequest, WantError: "basename"},
		{Name: "update: empty basename", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"basename": ""}, WantStatus: http.StatusBadRequest, WantError: "basename"},
		{Name: "update: a proxy that is no host and path", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"proxy": "https://company.com/docs"}, WantStatus: http.StatusBadRequest, WantError: "proxy"},
		{Name: "update: a proxy of 513", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"proxy": "company.com/" + strings.Repeat("d", 501)}, WantStatus: http.StatusBadRequest, WantError: "proxy"},
		{Name: "update: adaptiveContent without enabled", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"adaptiveContent": map[string]any{}}, WantStatus: http.StatusBadRequest, WantError: "enabled"},
		{Name: "update: a default site-space of another site", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"defaultSiteSpace": "sitesp_nope"}, WantStatus: http.StatusBadRequest, WantError: "defaultSiteSpace"},
		{Name: "update: title of 129 changes nothing", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"basename": "docs", "title": strings.Repeat("t", 129)}, WantStatus: http.StatusBadRequest,
			Check: func(t *testing.T, _ *servertest.Response) {
				assert.NotContains(t, e.MustDo(http.MethodGet, site, e.OwnerToken, nil, http.StatusOK), "basename")
			}},
		{Name: "update", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"title": "Handbook", "visibility": "unlisted", "basename": strings.Repeat("b", 100),
				"adaptiveContent": map[string]any{"enabled": true}, "proxy": "company.com/" + strings.Repeat("d", 500),
				"agentsContext": "excluded"},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"title": "Handbook", "visibility": "unlisted",
				"basename": strings.Repeat("b", 100), "adaptiveContent": map[string]any{"enabled": true},
				"proxy":         map[string]any{"origin": "company.com/" + strings.Repeat("d", 500), "target": "http://bindery.test/sites/" + d},
				"agentsContext": "excluded"}},
		{Name: "update: remove the proxy", Method: http.MethodPatch, Path: site, Token: e.OwnerToken,
			Body: map[string]any{"proxy": nil}, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "proxy") }},
		{Name: "publish: as an editor", Method: http.MethodPost, Path: site + "/publish", Token: e.editTok, WantStatus: http.StatusForbidden},
		{Name: "publish: another organization's", Method: http.MethodPost, Path: sites + "/" + otherSite + "/publish",
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "publish", Method: http.MethodPost, Path: site + "/publish", Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"published": true, "urls": map[string]any{"published": "http://bindery.test/sites/" + d}}},
		{Name: "list: published", Method: http.MethodGet, Path: sites + "?published=true", Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": 1, "items": []any{map[string]any{"id": d}}}},
		{Name: "list: by space", Method: http.MethodGet, Path: sites + "?space=" + api, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": 1, "items": []any{map[string]any{"id": d}}}},
		{Name: "list: by title", Method: http.MethodGet, Path: sites + "?title=HANDB", Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": 1}},
		{Name: "list: by types", Method: http.MethodGet, Path: sites + "?type=premium&type=ultimate", Token: e.readTok,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"count": 1}},
		{Name: "list: an unknown type", Method: http.MethodGet, Path: sites + "?type=gold", Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "type"},
		{Name: "list: published is no boolean", Method: http.MethodGet, Path: sites + "?published=maybe", Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "published"},
		{Name: "list: limit 1000", Method: http.MethodGet, Path: sites + "?limit=1000", Token: e.readTok, WantStatus: http.StatusOK},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: sites + "?limit=1001", Token: e.readTok, WantStatus: http.StatusBadRequest},
		{Name: "list: as a guest", Method: http.MethodGet, Path: sites, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: sites, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: sites, WantStatus: http.StatusUnauthorized},
		{Name: "unpublish", Method: http.MethodPost, Path: site + "/unpublish", Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"published": false}},
		{Name: "delete: as a reader", Method: http.MethodDelete, Path: site, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "delete: another organization's", Method: http.MethodDelete, Path: sites + "/" + otherSite, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
	})
	all := e.Walk(t, sites, e.readTok, 1)
	require.Len(t, all, 4)
	assert.Equal(t, d, all[0], "oldest first")
	e.MustDo(http.MethodDelete, site, e.OwnerToken, nil, http.StatusNoContent)
	e.MustDo(http.MethodGet, site, e.OwnerToken, nil, http.StatusNotFound)
	e.MustDo(http.MethodDelete, site, e.OwnerToken, nil, http.StatusNotFound)
	assert.Len(t, e.Walk(t, sites, e.OwnerToken, 2), 3)
	assert.Empty(t, e.Walk(t, sites+"?space="+guide, e.OwnerToken, 2), "its site-spaces went with it")
}

// The GraphQL form of the same operations runs through the same resolvers.
func TestSitesInGraphQL(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	create := `mutation($in: CreateSiteInput!) { createSite(input: $in) { site { id title type visibility published siteSpaceCount
	  urls { location published } } } }`
	res := e.GraphQL(e.editTok, create, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": "Docs"}})
	assert.Equal(t, "FORBIDDEN", res.Code())
	res = e.GraphQL(e.OwnerToken, create, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": "D"}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	res = e.GraphQL(e.OwnerToken, create, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": "Docs",
		"type": "ULTIMATE", "visibility": "VISITOR_AUTH", "spaces": []string{guide}}})
	require.Empty(t, res.Errors)
	s := stAt(t, res, "createSite.site").(map[string]any)
	servertest.AssertContains(t, map[string]any{"title": "Docs", "type": "ULTIMATE", "visibility": "VISITOR_AUTH",
		"published": false, "siteSpaceCount": 1, "urls": map[string]any{"published": nil}}, s)
	id := s["id"].(string)
	res = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { publishSite(input: {id: $id}) { site { published urls { published } } } }`,
		map[string]any{"id": id})
	require.Empty(t, res.Errors)
	assert.Equal(t, true, stAt(t, res, "publishSite.site.published"))
	res = e.GraphQL(e.readTok, `query($org: ID!) { organization(id: $org) { sites(first: 10, published: true, type: [ULTIMATE]) {
	  totalCount nodes { id } } } }`, map[string]any{"org": e.Org.ID})
	require.Empty(t, res.Errors)
	assert.Equal(t, float64(1), stAt(t, res, "organization.sites.totalCount"))
	res = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateSite(input: {id: $id, proxy: "company.com/docs"}) {
	  site { proxy { origin target } } } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	assert.Equal(t, "company.com/docs", stAt(t, res, "updateSite.site.proxy.origin"))
	res = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { deleteSite(input: {id: $id}) { deletedSiteId } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	res = e.GraphQL(e.OwnerToken, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
	assert.Nil(t, stAt(t, res, "node"))
}

// stAt returns the value at a dotted path of a GraphQL response's data.
func stAt(t *testing.T, res *servertest.GQLResponse, path string) any {
	t.Helper()
	var v any
	res.Into(t, &v)
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s: no object at %q", path, k)
		v = m[k]
	}
	return v
}
