package reader_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// cookieOf returns the Set-Cookie of a response named name.
func cookieOf(t *testing.T, p page, name string) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: p.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no cookie %s in %v", name, p.header.Values("Set-Cookie"))
	return nil
}

// TestShareLink: a share-link site admits the holder of an active key,
// kept in a cookie of the site once the address has given it.
func TestShareLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityShareLink)
	ctx := context.Background()
	const key = "k3yk3yk3yk3yk3yk3yk3yk3yk3yk3yk3"
	f.e.Client.ShareLink.Create().SetSiteID(f.site.ID).SetKey(key).SetName("Partners").ExecX(ctx)
	f.e.Client.ShareLink.Create().SetSiteID(f.site.ID).SetKey("offoffoffoffoffoffoffoffoffoffof").SetActive(false).ExecX(ctx)
	v := f.visitor(t)

	assert.Equal(t, http.StatusNotFound, v.get(f.root()).status, "no key: as if there were no site")
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"?shareKey=wrong").status)
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"?shareKey=offoffoffoffoffoffoffoffoffoffof").status, "an inactive key")

	arrive := v.get(f.root() + "install?shareKey=" + key + "&x=1")
	require.Equal(t, http.StatusSeeOther, arrive.status, arrive.body)
	assert.Equal(t, f.root()+"install?x=1", arrive.location(t, f.e.HTTP.URL), "the key leaves the address")
	c := cookieOf(t, arrive, "bindery-share-key")
	assert.Equal(t, key, c.Value)
	assert.Equal(t, f.root(), c.Path, "the cookie is the site's")
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteLaxMode, c.SameSite)

	p := v.get(f.root() + "install")
	require.Equal(t, http.StatusOK, p.status, "the cookie admits")
	assert.Contains(t, p.body, "Install it.")
	assert.Equal(t, "private, no-cache", p.header.Get("Cache-Control"), "a page for a key holder is not shared")
	assert.Equal(t, "noindex", p.header.Get("X-Robots-Tag"))
	assert.Equal(t, "User-agent: *\nDisallow: /\n", v.get(f.root()+"robots.txt").body)

	f.e.Client.ShareLink.Update().SetActive(false).ExecX(ctx)
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"install").status, "a key made inactive admits no more")
}

// visitorToken signs a visitor JWT with key.
func visitorToken(t *testing.T, key string, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(key))
	require.NoError(t, err)
	return s
}

// TestVisitorAuth: a visitor-auth site admits a visitor with a valid JWT,
// sends one without to its fallback URL, and signs one out on an empty
// token.
func TestVisitorAuth(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityVisitorAuth)
	ctx := context.Background()
	const key = "visitor-signing-key-0123456789abcdefghijklmnop"
	f.site = f.e.Client.Site.UpdateOne(f.site).SetVisitorAuthPrivateKey(key).
		SetVisitorAuthFallbackURL("https://login.example.com/docs?app=1").SaveX(ctx)
	v := f.visitor(t)

	out := v.get(f.root() + "install")
	require.Equal(t, http.StatusFound, out.status, out.body)
	assert.Equal(t, "https://login.example.com/docs?app=1&location="+strings.ReplaceAll(
		"http%3A%2F%2Fbindery.test/sites/"+f.site.ID+"/install", "/", "%2F"), out.header.Get("Location"))

	exp := f.e.Clock.Now().Add(time.Hour)
	token := visitorToken(t, key, jwt.MapClaims{"exp": exp.Unix(), "plan": "pro"})
	arrive := v.get(f.root() + "install?jwt_token=" + token)
	require.Equal(t, http.StatusSeeOther, arrive.status, arrive.body)
	assert.Equal(t, f.root()+"install", arrive.location(t, f.e.HTTP.URL))
	c := cookieOf(t, arrive, "bindery-visitor-token")
	assert.Equal(t, token, c.Value)
	assert.WithinDuration(t, exp, c.Expires, time.Second, "the cookie lasts as long as the token")
	p := v.get(f.root() + "install")
	require.Equal(t, http.StatusOK, p.status)
	assert.Equal(t, "private, no-cache", p.header.Get("Cache-Control"))

	forged := visitorToken(t, "another-key-that-is-long-enough-0123456789", jwt.MapClaims{"exp": exp.Unix()})
	assert.Equal(t, http.StatusFound, f.visitor(t).get(f.root()+"?jwt_token="+forged).status, "a token of another key")
	expired := visitorToken(t, key, jwt.MapClaims{"exp": f.e.Clock.Now().Add(-time.Minute).Unix()})
	assert.Equal(t, http.StatusFound, f.visitor(t).get(f.root()+"?jwt_token="+expired).status, "an expired token")
	noExp := visitorToken(t, key, jwt.MapClaims{"plan": "pro"})
	assert.Equal(t, http.StatusFound, f.visitor(t).get(f.root()+"?jwt_token="+noExp).status, "a token without exp")

	signOut := v.get(f.root() + "?jwt_token=")
	assert.Equal(t, http.StatusFound, signOut.status, "signed out, the visitor is sent to sign in")
	assert.Equal(t, -1, cookieOf(t, signOut, "bindery-visitor-token").MaxAge)
	assert.Equal(t, http.StatusFound, v.get(f.root()+"install").status)

	f.e.Client.Site.UpdateOne(f.site).ClearVisitorAuthFallbackURL().ExecX(ctx)
	assert.Equal(t, http.StatusNotFound, f.visitor(t).get(f.root()).status, "without a fallback URL: as if there were no site")
}

// TestAdaptiveContent: a section whose condition is false for the
// visitor's claims is absent for them, everywhere.
func TestAdaptiveContent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	const key = "visitor-signing-key-0123456789abcdefghijklmnop"
	f.site = f.e.Client.Site.UpdateOne(f.site).SetAdaptiveContent(true).SetVisitorAuthPrivateKey(key).SaveX(ctx)
	f.e.Client.SiteSection.UpdateOne(f.apiSec).SetCondition(`visitor.claims.plan == "pro"`).ExecX(ctx)
	f.e.Client.SiteSpace.UpdateOne(f.v1).SetCondition(`visitor.claims.legacy == true`).ExecX(ctx)

	anon := f.visitor(t)
	home := anon.get(f.root())
	require.Equal(t, http.StatusOK, home.status)
	assert.NotContains(t, home.body, "API reference", "the section is not in the navigation")
	assert.NotContains(t, home.body, "Guide v1", "nor the site-space")
	assert.Equal(t, http.StatusNotFound, anon.get(f.root()+"api/").status, "its addresses are not found")
	assert.NotContains(t, anon.get(f.root()+"search?q=quokka").body, "answers")
	assert.NotContains(t, anon.get(f.root()+"llms.txt").body, "Overview")
	assert.NotContains(t, anon.get(f.root()+"sitemap.xml").body, "/api/")

	pro := f.visitor(t)
	token := visitorToken(t, key, jwt.MapClaims{"exp": f.e.Clock.Now().Add(time.Hour).Unix(), "plan": "pro"})
	require.Equal(t, http.StatusSeeOther, pro.get(f.root()+"?jwt_token="+token).status)
	home = pro.get(f.root())
	assert.Contains(t, home.body, "API reference")
	assert.NotContains(t, home.body, "Guide v1")
	api := pro.get(f.root() + "api/")
	require.Equal(t, http.StatusOK, api.status)
	assert.Contains(t, api.body, "The API answers quokka questions.")
	assert.Equal(t, "private, no-cache", api.header.Get("Cache-Control"))
	assert.Contains(t, pro.get(f.root()+"search?q=quokka").body, "answers")
	assert.NotEqual(t, anon.get(f.root()+"install").header.Get("ETag"), pro.get(f.root()+"install").header.Get("ETag"),
		"who the visitor is is part of the ETag")
}

// TestSignedClaimsTheSchemaRefuses: a visitor token's claim that the
// adaptive schema refuses is left out, and only it: the token still
// admits the visitor to a visitor-auth site, and its other claims count.
func TestSignedClaimsTheSchemaRefuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityVisitorAuth)
	ctx := context.Background()
	const key = "visitor-signing-key-0123456789abcdefghijklmnop"
	schema := map[string]any{
		"type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"plan": map[string]any{"type": "string", "enum": []any{"free", "pro"}, "description": "Plan"},
			"beta": map[string]any{"type": "boolean", "description": "In the beta"},
		},
	}
	f.site = f.e.Client.Site.UpdateOne(f.site).SetVisitorAuthPrivateKey(key).SetAdaptiveContent(true).
		SetAdaptiveSchema(schema).SetAdaptiveSchemaUpdatedAt(f.e.Clock.Now()).
		SetVisitorAuthFallbackURL("https://login.example.com/docs").SaveX(ctx)
	f.e.Client.SiteSection.UpdateOne(f.apiSec).SetCondition(`visitor.claims.plan == "gold"`).ExecX(ctx)
	f.e.Client.SiteSpace.UpdateOne(f.v1).SetCondition(`visitor.claims.beta == true`).ExecX(ctx)

	v := f.visitor(t)
	token := visitorToken(t, key, jwt.MapClaims{"exp": f.e.Clock.Now().Add(time.Hour).Unix(), "plan": "gold", "beta": true})
	require.Equal(t, http.StatusSeeOther, v.get(f.root()+"?jwt_token="+token).status)
	home := v.get(f.root())
	require.Equal(t, http.StatusOK, home.status, "the token admits the visitor")
	assert.Contains(t, home.body, "Guide v1", "the claim the schema accepts counts")
	assert.NotContains(t, home.body, "API reference", "the claim it refuses does not")
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"api/").status)
}

// TestUnsignedClaims: unsigned claims from the gitbook-visitor-public
// cookie and visitor.<claim> parameters choose content, when the site's
// adaptive schema describes them; others are ignored.
func TestUnsignedClaims(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	schema := map[string]any{
		"type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"plan": map[string]any{"type": "string", "enum": []any{"free", "pro"}, "description": "Plan"},
			"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
				"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "In the beta"}}},
		},
	}
	f.site = f.e.Client.Site.UpdateOne(f.site).SetAdaptiveContent(true).SetAdaptiveSchema(schema).
		SetAdaptiveSchemaUpdatedAt(f.e.Clock.Now()).SaveX(ctx)
	f.e.Client.SiteSpace.UpdateOne(f.v1).SetCondition(`visitor.claims.unsigned.beta == true`).ExecX(ctx)

	v := f.visitor(t)
	assert.NotContains(t, v.get(f.root()).body, "Guide v1")
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"v1/").status)
	beta := v.get(f.root() + "v1/?visitor.beta=true")
	require.Equal(t, http.StatusOK, beta.status, "a parameter's claim")
	assert.Contains(t, beta.body, "The first version.")
	assert.Equal(t, "private, no-cache", beta.header.Get("Cache-Control"))
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"v1/?visitor.beta=3").status, "a claim the schema refuses is ignored")
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"v1/?visitor.other=true").status)
	assert.Equal(t, http.StatusOK, v.get(f.root()+"?visitor.beta=nonsense&visitor.x=%7B").status, "never an error")

	u, err := url.Parse(f.e.HTTP.URL)
	require.NoError(t, err)
	v.client.Jar.SetCookies(u, []*http.Cookie{{Name: "gitbook-visitor-public", Value: url.QueryEscape(`{"beta":true}`), Path: "/"}})
	p := v.get(f.root() + "v1/")
	require.Equal(t, http.StatusOK, p.status, "the cookie's claim")
	assert.Contains(t, v.get(f.root()).body, "Guide v1")
}

// TestReaderAgreesWithPublishedContent: for three visitors, the site-spaces
// GET .../sites/{siteId}/published lists are the ones the HTML reader
// serves them, and the others are not found.
func TestReaderAgreesWithPublishedContent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	const key = "visitor-signing-key-0123456789abcdefghijklmnop"
	f.site = f.e.Client.Site.UpdateOne(f.site).SetAdaptiveContent(true).SetVisitorAuthPrivateKey(key).SaveX(ctx)
	f.e.Client.SiteSection.UpdateOne(f.apiSec).SetCondition(`visitor.claims.plan == "pro"`).ExecX(ctx)
	f.e.Client.SiteSpace.UpdateOne(f.v1).SetCondition(`visitor.claims.legacy == true`).ExecX(ctx)
	exp := f.e.Clock.Now().Add(time.Hour).Unix()
	all := map[string]string{f.v2.ID: "", f.v1.ID: "v1/", f.apiSpace.ID: "api/"}
	for name, token := range map[string]string{
		"anonymous": "",
		"pro":       visitorToken(t, key, jwt.MapClaims{"exp": exp, "plan": "pro"}),
		"legacy":    visitorToken(t, key, jwt.MapClaims{"exp": exp, "legacy": true}),
	} {
		t.Run(name, func(t *testing.T) {
			path := "/v1/orgs/" + f.e.Org.ID + "/sites/" + f.site.ID + "/published"
			if token != "" {
				path += "?visitorAuthToken=" + token
			}
			listed := map[string]bool{}
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case map[string]any:
					if v["object"] == "site-space" {
						listed[v["id"].(string)] = true
					}
					for _, x := range v {
						walk(x)
					}
				case []any:
					for _, x := range v {
						walk(x)
					}
				}
			}
			walk(f.e.MustDo(http.MethodGet, path, f.e.OwnerToken, nil, http.StatusOK)["structure"])
			require.NotEmpty(t, listed)
			v := f.visitor(t)
			if token != "" {
				require.Equal(t, http.StatusSeeOther, v.get(f.root()+"?jwt_token="+token).status)
			}
			for id, at := range all {
				want := http.StatusNotFound
				if listed[id] {
					want = http.StatusOK
				}
				assert.Equal(t, want, v.get(f.root()+at).status, "site-space at %q", at)
			}
		})
	}
}
