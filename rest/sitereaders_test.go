package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// publishSite publishes a site with the visibility given.
func (e *mbEnv) publishSite(site, visibility string) {
	e.T.Helper()
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	e.MustDo(http.MethodPatch, base, e.OwnerToken, map[string]any{"visibility": visibility}, http.StatusOK)
	e.MustDo(http.MethodPost, base+"/publish", e.OwnerToken, nil, http.StatusOK)
}

func TestSiteShareLinks(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide}})["id"].(string)
	other := e.createSite(map[string]any{"title": "Other", "spaces": []string{guide}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	links := base + "/share-links"
	e.publishSite(site, "share-link")
	e.publishSite(other, "share-link")

	res := e.Do(http.MethodPost, links, e.OwnerToken, map[string]any{"name": "Partners"})
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	created := res.JSON()
	id := created["id"].(string)
	assert.Equal(t, e.Config.PublicURL+links+"/"+id, res.Header.Get("Location"))
	published := created["urls"].(map[string]any)["published"].(string)
	u, err := url.Parse(published)
	require.NoError(t, err)
	key := u.Query().Get("shareKey")
	require.Len(t, key, 32, "the key is in the published URL")
	servertest.AssertContains(t, map[string]any{"object": "share-link", "name": "Partners", "active": true}, created)
	otherKey := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+other+"/share-links", e.OwnerToken,
		map[string]any{"name": ""}, http.StatusCreated)["urls"].(map[string]any)["published"].(string)
	otherKey = otherKey[strings.Index(otherKey, "shareKey=")+len("shareKey="):]
	revoked := e.MustDo(http.MethodPost, links, e.OwnerToken, map[string]any{"name": "Old"}, http.StatusCreated)
	revokedKey := revoked["urls"].(map[string]any)["published"].(string)
	revokedKey = revokedKey[strings.Index(revokedKey, "shareKey=")+len("shareKey="):]
	e.MustDo(http.MethodDelete, links+"/"+revoked["id"].(string), e.OwnerToken, nil, http.StatusResetContent)
	paused := e.MustDo(http.MethodPost, links, e.OwnerToken, map[string]any{"name": "Paused"}, http.StatusCreated)
	pausedKey := paused["urls"].(map[string]any)["published"].(string)
	pausedKey = pausedKey[strings.Index(pausedKey, "shareKey=")+len("shareKey="):]
	e.MustDo(http.MethodPatch, links+"/"+paused["id"].(string), e.OwnerToken, map[string]any{"active": false}, http.StatusOK)

	published2 := base + "/published?shareKey="
	e.Run(t, []servertest.Scenario{
		{Name: "create with a name of 50", Method: http.MethodPost, Path: links, Token: e.OwnerToken,
			Body: map[string]any{"name": strings.Repeat("n", 50)}, WantStatus: http.StatusCreated},
		{Name: "create with a name of 51", Method: http.MethodPost, Path: links, Token: e.OwnerToken,
			Body: map[string]any{"name": strings.Repeat("n", 51)}, WantStatus: http.StatusBadRequest, WantError: "name"},
		{Name: "create without a name", Method: http.MethodPost, Path: links, Token: e.OwnerToken,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "name"},
		{Name: "create as a reader", Method: http.MethodPost, Path: links, Token: e.readTok,
			Body: map[string]any{"name": "x"}, WantStatus: http.StatusForbidden},
		{Name: "create without a token", Method: http.MethodPost, Path: links, Body: map[string]any{"name": "x"},
			WantStatus: http.StatusUnauthorized},
		{Name: "list as a reader", Method: http.MethodGet, Path: links, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "list as an outsider", Method: http.MethodGet, Path: links, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list with the key is still for admins", Method: http.MethodGet, Path: links + "?shareKey=" + key,
			Token: e.otherTok, WantStatus: http.StatusForbidden},
		{Name: "rename", Method: http.MethodPatch, Path: links + "/" + id, Token: e.OwnerToken,
			Body: map[string]any{"name": "Partners 2"}, WantStatus: http.StatusOK, WantJSON: map[string]any{"name": "Partners 2", "active": true}},
		{Name: "update with nothing", Method: http.MethodPatch, Path: links + "/" + id, Token: e.OwnerToken,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest},
		{Name: "update another site's link", Method: http.MethodPatch,
			Path: "/v1/orgs/" + e.Org.ID + "/sites/" + other + "/share-links/" + id, Token: e.OwnerToken,
			Body: map[string]any{"active": false}, WantStatus: http.StatusNotFound},
		{Name: "delete an unknown link", Method: http.MethodDelete, Path: links + "/shl_nope", Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},

		{Name: "a stranger with the key reads the published site", Method: http.MethodGet, Path: published2 + key,
			Token: e.otherTok, WantStatus: http.StatusOK, WantJSON: map[string]any{"object": "published-content-site"}},
		{Name: "a stranger with the key lists its site-spaces", Method: http.MethodGet,
			Path: base + "/site-spaces?shareKey=" + key, Token: e.otherTok, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				items := res.JSON()["items"].([]any)
				require.Len(t, items, 1)
				assert.Equal(t, guide, items[0].(map[string]any)["space"].(map[string]any)["id"], "the site publishes its space")
			}},
		{Name: "a stranger with the key reads the site", Method: http.MethodGet, Path: base + "?shareKey=" + key,
			Token: e.otherTok, WantStatus: http.StatusOK},
		{Name: "a stranger with the key cannot change it", Method: http.MethodPatch, Path: base + "?shareKey=" + key,
			Token: e.otherTok, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusForbidden},
		{Name: "a stranger without a key", Method: http.MethodGet, Path: base + "/published", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "a wrong key", Method: http.MethodGet, Path: published2 + "nope", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "another site's key", Method: http.MethodGet, Path: published2 + otherKey, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "a deleted link's key", Method: http.MethodGet, Path: published2 + revokedKey, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "an inactive link's key", Method: http.MethodGet, Path: published2 + pausedKey, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "the key in another organization's path", Method: http.MethodGet,
			Path: "/v1/orgs/" + e.otherOrg + "/sites/" + site + "/published?shareKey=" + key, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
	})
	assert.Len(t, e.Walk(t, links, e.OwnerToken, 1), 3, "the list walks page by page")

	// Unpublished, the key admits nobody; members still read it.
	e.MustDo(http.MethodPost, base+"/unpublish", e.OwnerToken, nil, http.StatusOK)
	e.Run(t, []servertest.Scenario{
		{Name: "an unpublished site's key", Method: http.MethodGet, Path: published2 + key, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "a member reads the unpublished site", Method: http.MethodGet, Path: base + "/published", Token: e.readTok,
			WantStatus: http.StatusOK},
		{Name: "the share link shows no published URL", Method: http.MethodGet, Path: links, Token: e.OwnerToken,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				for _, it := range res.JSON()["items"].([]any) {
					assert.Empty(t, it.(map[string]any)["urls"])
				}
			}},
		{Name: "delete", Method: http.MethodDelete, Path: links + "/" + id, Token: e.OwnerToken, WantStatus: http.StatusResetContent},
	})
}

// visitorJWT signs claims with a site's visitor key, expiring in ttl.
func visitorJWT(t *testing.T, key string, ttl time.Duration, claims map[string]any) string {
	t.Helper()
	c := jwt.MapClaims{"exp": time.Now().Add(ttl).Unix()}
	for k, v := range claims {
		c[k] = v
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(key))
	require.NoError(t, err)
	return s
}

// rotateVisitorKey gives a site a visitor signing key through GraphQL, the
// only API that shows it.
func (e *mbEnv) rotateVisitorKey(site string) string {
	e.T.Helper()
	var out struct {
		RotateSiteVisitorAuthKey struct {
			Key  string
			Site struct{ HasVisitorAuthKey bool }
		}
	}
	e.GraphQL(e.OwnerToken, `mutation($site: ID!) { rotateSiteVisitorAuthKey(input: {siteId: $site}) {
		key site { hasVisitorAuthKey } } }`, map[string]any{"site": site}).Into(e.T, &out)
	require.True(e.T, out.RotateSiteVisitorAuthKey.Site.HasVisitorAuthKey)
	return out.RotateSiteVisitorAuthKey.Key
}

const plansSchema = `{
  "type": "object",
  "properties": {
    "isBetaUser": {"type": "boolean", "description": "In the beta programme"},
    "plan": {"type": "string", "enum": ["free", "enterprise"], "description": "Their plan"}
  },
  "additionalProperties": false
}`

func TestSiteVisitorAuthAndAdaptiveContent(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, beta, api, enterprise := e.space("Guide", ""), e.space("Beta", ""), e.space("API", ""), e.space("Enterprise", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	schemaURL := base + "/adaptive-schema"

	// The adaptive schema.
	var schema map[string]any
	require.NoError(t, json.Unmarshal([]byte(plansSchema), &schema))
	e.Run(t, []servertest.Scenario{
		{Name: "no schema yet", Method: http.MethodGet, Path: schemaURL, Token: e.readTok, WantStatus: http.StatusNotFound},
		{Name: "a schema that is not an object schema", Method: http.MethodPut, Path: schemaURL, Token: e.OwnerToken,
			Body: map[string]any{"jsonSchema": map[string]any{"type": "string"}}, WantStatus: http.StatusBadRequest, WantError: "jsonSchema"},
		{Name: "a claim without a description", Method: http.MethodPut, Path: schemaURL, Token: e.OwnerToken,
			Body: map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false,
				"properties": map[string]any{"a": map[string]any{"type": "boolean"}}}}, WantStatus: http.StatusBadRequest,
			WantError: "/properties/a"},
		{Name: "not an object", Method: http.MethodPut, Path: schemaURL, Token: e.OwnerToken,
			Body: map[string]any{"jsonSchema": []any{1}}, WantStatus: http.StatusBadRequest, WantError: "jsonSchema"},
		{Name: "without jsonSchema", Method: http.MethodPut, Path: schemaURL, Token: e.OwnerToken,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "jsonSchema"},
		{Name: "set as an editor", Method: http.MethodPut, Path: schemaURL, Token: e.editTok,
			Body: map[string]any{"jsonSchema": schema}, WantStatus: http.StatusForbidden},
		{Name: "set", Method: http.MethodPut, Path: schemaURL, Token: e.OwnerToken, Body: map[string]any{"jsonSchema": schema},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"object": "site-adaptive-schema", "jsonSchema": schema}},
		{Name: "read", Method: http.MethodGet, Path: schemaURL, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"jsonSchema": schema}},
		{Name: "read as an outsider", Method: http.MethodGet, Path: schemaURL, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "set without a token", Method: http.MethodPut, Path: schemaURL, Body: map[string]any{"jsonSchema": schema},
			WantStatus: http.StatusUnauthorized},
		{Name: "read another organization's site", Method: http.MethodGet,
			Path: "/v1/orgs/" + e.otherOrg + "/sites/" + site + "/adaptive-schema", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})

	// Sections with conditions, one of them in a group.
	betaSec := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": beta, "title": "Beta"},
		http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, base+"/sections/"+betaSec, e.OwnerToken,
		map[string]any{"condition": "visitor.claims.isBetaUser"}, http.StatusOK)
	apiSec := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": api, "title": "API"},
		http.StatusCreated)
	entSS := e.MustDo(http.MethodPost, base+"/site-spaces", e.OwnerToken,
		map[string]any{"spaceId": enterprise, "sectionId": apiSec["id"]}, http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, base+"/site-spaces/"+entSS, e.OwnerToken,
		map[string]any{"condition": `visitor.claims.plan == "enterprise"`}, http.StatusOK)
	group := e.MustDo(http.MethodPost, base+"/section-groups", e.OwnerToken,
		map[string]any{"title": "Products", "sections": []string{apiSec["id"].(string)}}, http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, base, e.OwnerToken, map[string]any{"adaptiveContent": map[string]any{"enabled": true}}, http.StatusOK)

	key := e.rotateVisitorKey(site)
	e.publishSite(site, "visitor-auth")
	betaEnterprise := visitorJWT(t, key, time.Hour, map[string]any{"isBetaUser": true, "plan": "enterprise", "sub": "v1"})
	plain := visitorJWT(t, key, time.Hour, map[string]any{"plan": "free"})
	expired := visitorJWT(t, key, -time.Minute, map[string]any{"isBetaUser": true})
	forged := visitorJWT(t, "not-the-key", time.Hour, map[string]any{"isBetaUser": true})
	offSchema := visitorJWT(t, key, time.Hour, map[string]any{"plan": "gold", "isBetaUser": true})
	noExp, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"isBetaUser": true}).SignedString([]byte(key))
	require.NoError(t, err)

	published := base + "/published?visitorAuthToken="
	// structure lists the published structure as titles: a group's
	// sections under it, and each section's site-space titles.
	structure := func(t *testing.T, res *servertest.Response) []string {
		body := res.JSON()
		st := body["structure"].(map[string]any)
		require.Equal(t, "sections", st["type"])
		var out []string
		section := func(prefix string, s map[string]any) {
			var titles []string
			for _, ss := range s["siteSpaces"].([]any) {
				titles = append(titles, ss.(map[string]any)["title"].(string))
			}
			out = append(out, prefix+s["title"].(string)+": "+strings.Join(titles, ", "))
		}
		for _, it := range st["structure"].([]any) {
			m := it.(map[string]any)
			if m["object"] == "site-section-group" {
				assert.Equal(t, group, m["id"])
				for _, s := range m["sections"].([]any) {
					section(m["title"].(string)+" / ", s.(map[string]any))
				}
				continue
			}
			section("", m)
		}
		return out
	}
	e.Run(t, []servertest.Scenario{
		{Name: "a beta enterprise visitor", Method: http.MethodGet, Path: published + betaEnterprise, Token: e.otherTok,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, []string{"Docs: Guide", "Beta: Beta", "Products / API: API, Enterprise"}, structure(t, res))
			}},
		{Name: "a free visitor", Method: http.MethodGet, Path: published + plain, Token: e.otherTok,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, []string{"Docs: Guide", "Products / API: API"}, structure(t, res))
			}},
		{Name: "a member without a token sees what a visitor without claims sees", Method: http.MethodGet,
			Path: base + "/published", Token: e.readTok, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, []string{"Docs: Guide", "Products / API: API"}, structure(t, res))
			}},
		{Name: "an expired token", Method: http.MethodGet, Path: published + expired, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "a token of another key", Method: http.MethodGet, Path: published + forged, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "a token without exp", Method: http.MethodGet, Path: published + noExp, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "no token", Method: http.MethodGet, Path: base + "/published", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "a member with an expired token", Method: http.MethodGet, Path: published + expired, Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "visitorAuthToken"},
		{Name: "a claim the adaptive schema refuses is left out, and only it", Method: http.MethodGet,
			Path: published + offSchema, Token: e.otherTok, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, []string{"Docs: Guide", "Beta: Beta", "Products / API: API"}, structure(t, res))
			}},
		{Name: "a visitor reads the sections", Method: http.MethodGet, Path: base + "/sections?visitorAuthToken=" + plain,
			Token: e.otherTok, WantStatus: http.StatusOK},
		{Name: "a visitor cannot change the site", Method: http.MethodPut, Path: schemaURL + "?visitorAuthToken=" + plain,
			Token: e.otherTok, Body: map[string]any{"jsonSchema": schema}, WantStatus: http.StatusForbidden},
	})

	// A new key: tokens of the old one stop working.
	e.rotateVisitorKey(site)
	e.Run(t, []servertest.Scenario{
		{Name: "a token of the old key", Method: http.MethodGet, Path: published + plain, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
	})
}

func TestPublishedSiteWithoutSections(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, api := e.space("Guide", ""), e.space("API", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide, api}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	e.Run(t, []servertest.Scenario{
		{Name: "an unpublished public site is for members", Method: http.MethodGet, Path: base + "/published",
			Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "a guest is no reader of an unpublished site", Method: http.MethodGet, Path: base + "/published",
			Token: e.guestTok, WantStatus: http.StatusNotFound},
	})
	e.MustDo(http.MethodPost, base+"/publish", e.OwnerToken, nil, http.StatusOK)
	e.Run(t, []servertest.Scenario{
		{Name: "anyone reads a published public site", Method: http.MethodGet, Path: base + "/published",
			Token: e.otherTok, WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				body := res.JSON()
				st := body["structure"].(map[string]any)
				assert.Equal(t, "siteSpaces", st["type"])
				require.Len(t, st["structure"], 2)
				assert.Equal(t, "Guide", st["structure"].([]any)[0].(map[string]any)["title"])
				assert.Equal(t, site, body["site"].(map[string]any)["id"])
				assert.Equal(t, "clean", body["customizations"].(map[string]any)["site"].(map[string]any)["styling"].(map[string]any)["theme"])
			}},
		{Name: "without a token", Method: http.MethodGet, Path: base + "/published", WantStatus: http.StatusUnauthorized},
		{Name: "an unknown site", Method: http.MethodGet, Path: "/v1/orgs/" + e.Org.ID + "/sites/site_nope/published",
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
}
