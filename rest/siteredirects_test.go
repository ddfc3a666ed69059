package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

func TestSiteRedirects(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, blog := e.space("Guide", ""), e.space("Blog", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	redirects := base + "/redirects"
	sec := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": blog, "title": "Blog"},
		http.StatusCreated)
	blogSec := sec["id"].(string)
	blogSS := sec["siteSpaces"].([]any)[0].(map[string]any)["id"].(string)
	otherSite := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/sites", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	mine := e.createSite(map[string]any{"title": "Mine", "spaces": []string{guide}})["id"].(string)
	mineSS := e.Walk(t, "/v1/orgs/"+e.Org.ID+"/sites/"+mine+"/site-spaces", e.OwnerToken, 10)[0]

	toSection := map[string]any{"kind": "site-section", "siteSectionId": blogSec}
	toSiteSpace := map[string]any{"kind": "site-space", "siteSpaceId": blogSS}
	first := e.MustDo(http.MethodPost, redirects, e.OwnerToken, map[string]any{"source": "/old/blog", "destination": toSection},
		http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"object": "site-redirect", "source": "/old/blog", "destination": toSection}, first)
	firstID := first["id"].(string)

	long := "/" + strings.Repeat("a", 511)
	e.Run(t, []servertest.Scenario{
		{Name: "create to a site-space", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/old/space", "destination": toSiteSpace}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"source": "/old/space", "destination": toSiteSpace}},
		{Name: "create with a source of 512", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": long, "destination": toSection}, WantStatus: http.StatusCreated},
		{Name: "create with a source of 513", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": long + "a", "destination": toSection}, WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create with a source without a leading slash", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "old", "destination": toSection}, WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create with a trailing slash", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/old/", "destination": toSection}, WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create with a query string", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/old?a=1", "destination": toSection}, WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create with an escape", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/caf%C3%A9", "destination": toSection}, WantStatus: http.StatusCreated},
		{Name: "create with another redirect's source", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/old/blog", "destination": toSiteSpace}, WantStatus: http.StatusConflict, WantError: "/old/blog"},
		{Name: "create without source", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"destination": toSection}, WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create without destination", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x"}, WantStatus: http.StatusBadRequest, WantError: "destination"},
		{Name: "create to an unknown kind", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body:       map[string]any{"source": "/x", "destination": map[string]any{"kind": "space", "siteSectionId": blogSec}},
			WantStatus: http.StatusBadRequest, WantError: "destination.kind"},
		{Name: "create to a section without its ID", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body:       map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-section", "siteSpaceId": blogSS}},
			WantStatus: http.StatusBadRequest, WantError: "destination"},
		{Name: "create to another site's site-space", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body:       map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-space", "siteSpaceId": mineSS}},
			WantStatus: http.StatusBadRequest, WantError: "destination.siteSpaceId"},
		{Name: "create to an unknown page", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-page", "siteSpaceId": blogSS,
				"pageId": "nope"}}, WantStatus: http.StatusBadRequest, WantError: "destination.pageId"},
		{Name: "create as an editor", Method: http.MethodPost, Path: redirects, Token: e.editTok,
			Body: map[string]any{"source": "/x", "destination": toSection}, WantStatus: http.StatusForbidden},
		{Name: "create without a token", Method: http.MethodPost, Path: redirects,
			Body: map[string]any{"source": "/x", "destination": toSection}, WantStatus: http.StatusUnauthorized},
		{Name: "list as an outsider", Method: http.MethodGet, Path: redirects, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list another organization's site", Method: http.MethodGet,
			Path: "/v1/orgs/" + e.Org.ID + "/sites/" + otherSite + "/redirects", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "update the destination", Method: http.MethodPatch, Path: redirects + "/" + firstID, Token: e.OwnerToken,
			Body: map[string]any{"destination": toSiteSpace}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"source": "/old/blog", "destination": toSiteSpace}},
		{Name: "update to another redirect's source", Method: http.MethodPatch, Path: redirects + "/" + firstID, Token: e.OwnerToken,
			Body: map[string]any{"source": "/old/space"}, WantStatus: http.StatusConflict},
		{Name: "update to a bad source, with a good destination", Method: http.MethodPatch, Path: redirects + "/" + firstID,
			Token: e.OwnerToken, Body: map[string]any{"source": "nope", "destination": toSection},
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "update with a null source", Method: http.MethodPatch, Path: redirects + "/" + firstID, Token: e.OwnerToken,
			Body: map[string]any{"source": nil}, WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "update as an editor", Method: http.MethodPatch, Path: redirects + "/" + firstID, Token: e.editTok,
			Body: map[string]any{"source": "/y"}, WantStatus: http.StatusForbidden},
		{Name: "update through another site", Method: http.MethodPatch,
			Path: "/v1/orgs/" + e.Org.ID + "/sites/" + mine + "/redirects/" + firstID, Token: e.OwnerToken,
			Body: map[string]any{"source": "/y"}, WantStatus: http.StatusNotFound},
		{Name: "update the source", Method: http.MethodPatch, Path: redirects + "/" + firstID, Token: e.OwnerToken,
			Body: map[string]any{"source": "/old/blog2"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"source": "/old/blog2", "destination": toSiteSpace}},
		{Name: "resolve as a reader, normalized", Method: http.MethodGet,
			Path: base + "/redirect?source=" + "old/blog2/%3Fa%3D1&shareKey=anything", Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"redirect": map[string]any{"id": firstID, "source": "/old/blog2"},
				"target": e.Config.PublicURL + "/sites/" + site + "/blog/blog"}},
		{Name: "resolve to a section", Method: http.MethodGet, Path: base + "/redirect?source=/caf%25C3%25A9", Token: e.readTok,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"target": e.Config.PublicURL + "/sites/" + site + "/blog"}},
		{Name: "resolve an unknown source", Method: http.MethodGet, Path: base + "/redirect?source=/nope", Token: e.readTok,
			WantStatus: http.StatusNotFound},
		{Name: "resolve another case", Method: http.MethodGet, Path: base + "/redirect?source=/OLD/blog2", Token: e.readTok,
			WantStatus: http.StatusNotFound},
		{Name: "resolve without a source", Method: http.MethodGet, Path: base + "/redirect", Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "resolve a source of 513", Method: http.MethodGet, Path: base + "/redirect?source=" + long + "a", Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "resolve as an outsider", Method: http.MethodGet, Path: base + "/redirect?source=/old/blog2", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "delete as an editor", Method: http.MethodDelete, Path: redirects + "/" + firstID, Token: e.editTok,
			WantStatus: http.StatusForbidden},
		{Name: "delete", Method: http.MethodDelete, Path: redirects + "/" + firstID, Token: e.OwnerToken,
			WantStatus: http.StatusNoContent},
		{Name: "delete again", Method: http.MethodDelete, Path: redirects + "/" + firstID, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
	})

	// Nothing half-written: the failed creates and updates left 3 redirects.
	got := e.Walk(t, redirects, e.readTok, 1)
	assert.Len(t, got, 3)

	// Deleting the site deletes its redirects.
	e.MustDo(http.MethodDelete, base, e.OwnerToken, nil, http.StatusNoContent)
	n, err := e.Client.SiteRedirect.Query().Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestSiteRedirectToURL: a destination of kind url, Bindery's beyond the
// official SiteRedirectDestination, is an absolute http(s) URL of at most
// 2048 characters, and resolving its source answers that URL. Its answers
// are validated against Bindery's own document (DoBindery), which
// describes the kind.
func TestSiteRedirectToURL(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	redirects := base + "/redirects"
	toURL := func(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }
	atLimit := "https://example.com/" + strings.Repeat("a", 2048-len("https://example.com/"))
	e.Run(t, []servertest.Scenario{
		{Name: "create to a url", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken, BinderySpec: true,
			Body:       map[string]any{"source": "/elsewhere", "destination": toURL("https://example.com/docs?a=1")},
			WantStatus: http.StatusCreated,
			WantJSON:   map[string]any{"object": "site-redirect", "source": "/elsewhere", "destination": toURL("https://example.com/docs?a=1")}},
		{Name: "create to a url of 2048 characters", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken, BinderySpec: true,
			Body: map[string]any{"source": "/long", "destination": toURL(atLimit)}, WantStatus: http.StatusCreated},
		{Name: "create to a url of 2049 characters", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x", "destination": toURL(atLimit + "a")}, WantStatus: http.StatusBadRequest,
			WantError: "destination.url"},
		{Name: "create to a relative url", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x", "destination": toURL("/docs/new")}, WantStatus: http.StatusBadRequest,
			WantError: "destination.url"},
		{Name: "create to a url of another scheme", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x", "destination": toURL("ftp://example.com/docs")}, WantStatus: http.StatusBadRequest,
			WantError: "destination.url"},
		{Name: "create to a javascript url", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x", "destination": toURL("javascript:alert(1)")}, WantStatus: http.StatusBadRequest,
			WantError: "destination.url"},
		{Name: "create to a url without it", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body: map[string]any{"source": "/x", "destination": map[string]any{"kind": "url"}}, WantStatus: http.StatusBadRequest,
			WantError: "destination.url"},
		{Name: "a url with another kind", Method: http.MethodPost, Path: redirects, Token: e.OwnerToken,
			Body:       map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-space", "url": "https://example.com"}},
			WantStatus: http.StatusBadRequest, WantError: "destination.url"},
		{Name: "create to a url as an editor", Method: http.MethodPost, Path: redirects, Token: e.editTok,
			Body: map[string]any{"source": "/x", "destination": toURL("https://example.com")}, WantStatus: http.StatusForbidden},
		{Name: "create to a url without a token", Method: http.MethodPost, Path: redirects,
			Body: map[string]any{"source": "/x", "destination": toURL("https://example.com")}, WantStatus: http.StatusUnauthorized},
		{Name: "resolve to the url", Method: http.MethodGet, Path: base + "/redirect?source=/elsewhere/", Token: e.readTok,
			BinderySpec: true, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"redirect": map[string]any{"source": "/elsewhere"}, "target": "https://example.com/docs?a=1"}},
		{Name: "list with a url", Method: http.MethodGet, Path: redirects, Token: e.readTok, BinderySpec: true,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(2)}},
	})
	assert.Equal(t, 2, e.Client.SiteRedirect.Query().CountX(context.Background()), "the refused creates wrote nothing")
}
