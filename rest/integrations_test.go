package rest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/internal/enum"
	integ "github.com/bindery/bindery/internal/integration"
	"github.com/bindery/bindery/server/servertest"
)

// pngBase64 is a 1x1 PNG in base64.
func pngBase64(t testing.TB) string {
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 1, 1))))
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// pngOfSize is n bytes that sniff as a PNG, in base64.
func pngOfSize(n int) string {
	data := make([]byte, n)
	copy(data, "\x89PNG\r\n\x1a\n")
	return base64.StdEncoding.EncodeToString(data)
}

// publishBody is a valid publish of the organization, with changes.
func publishBody(org string, changes map[string]any) map[string]any {
	b := map[string]any{"organization": org, "title": "Slack", "description": "Post updates to Slack",
		"script": "export default {}", "scopes": []string{"space:content:read"}}
	for k, v := range changes {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

func TestIntegrationsPublish(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	adminTok, _ := e.join(enum.RoleAdmin, "admin2@example.com")
	base := "/v1/integrations/"
	img := pngBase64(t)
	full := publishBody(e.Org.ID, map[string]any{
		"icon": img, "summary": "# Slack\nPosts.", "previewImages": []string{img, img, img}, "visibility": "public",
		"target": "organization", "categories": []string{"collaboration", "content"},
		"blocks":         []any{map[string]any{"id": "msg", "title": "Message", "urlUnfurl": []string{"https://app.slack.com/client/**"}}},
		"contentSources": []any{map[string]any{"id": "chan", "title": "Channel", "configuration": map[string]any{"componentId": "cfg"}}},
		"externalLinks":  []any{map[string]any{"url": "https://example.com/docs", "label": "Docs"}},
		"configurations": map[string]any{"account": map[string]any{
			"properties": map[string]any{"channel": map[string]any{"type": "string", "title": "Channel"},
				"count": map[string]any{"type": "number"}},
			"required": []string{"channel"}}},
		"secrets":               map[string]any{"TOKEN": "xoxb-never-shown"},
		"contentSecurityPolicy": map[string]any{"script-src": "'self'"},
	})
	got := e.MustDo(http.MethodPost, base+"slack", adminTok, full, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"object": "integration", "name": "slack", "version": float64(1), "title": "Slack",
		"visibility": "public", "target": "organization", "verified": false, "scopes": []any{"space:content:read"},
		"categories": []any{"collaboration", "content"}, "owner": map[string]any{"id": e.Org.ID},
		"permissions":           map[string]any{"admin": true, "install": true},
		"contentSecurityPolicy": map[string]any{"script-src": "'self'"},
		"urls":                  map[string]any{"location": "http://bindery.test/v1/integrations/slack"}}, got)
	assert.Equal(t, "data:image/png;base64,"+img, got["previewImages"].([]any)[0])
	assert.NotContains(t, got, "secrets")
	assert.NotContains(t, got, "script")

	// A publish of the same name is a new version; a subdomain names the
	// organization too.
	_, err := e.Client.Organization.UpdateOneID(e.Org.ID).SetHostname("acme").Save(context.Background())
	require.NoError(t, err)
	again := e.MustDo(http.MethodPost, base+"slack", e.OwnerToken, publishBody("acme", map[string]any{"visibility": "public"}),
		http.StatusOK)
	assert.Equal(t, float64(2), again["version"])
	assert.NotContains(t, again, "blocks", "a publish gives the whole definition")

	e.MustDo(http.MethodPost, "/v1/integrations/theirs", e.otherTok, publishBody(e.otherOrg, map[string]any{"visibility": "private"}),
		http.StatusOK)

	long := func(n int) string { return strings.Repeat("a", n) }
	pub := func(name string, changes map[string]any) string { return base + name }
	links := func(n int) []any {
		out := []any{}
		for range n {
			out = append(out, map[string]any{"url": "https://example.com", "label": "x"})
		}
		return out
	}
	ok := func(name, title string, changes map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: title, Method: http.MethodPost, Path: pub(name, changes), Token: e.OwnerToken,
			Body: publishBody(e.Org.ID, changes), WantStatus: http.StatusOK}
	}
	bad := func(title, field string, changes map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: title, Method: http.MethodPost, Path: base + "refused", Token: e.OwnerToken,
			Body: publishBody(e.Org.ID, changes), WantStatus: http.StatusBadRequest, WantError: field}
	}
	e.Run(t, []servertest.Scenario{
		ok("t2", "title of 2", map[string]any{"title": "ab"}),
		bad("title of 1", "title", map[string]any{"title": "a"}),
		ok("t30", "title of 30", map[string]any{"title": long(30)}),
		bad("title of 31", "title", map[string]any{"title": long(31)}),
		ok("d100", "description of 100", map[string]any{"description": long(100)}),
		bad("description of 101", "description", map[string]any{"description": long(101)}),
		ok("s2048", "summary of 2048", map[string]any{"summary": long(2048)}),
		bad("summary of 2049", "summary", map[string]any{"summary": long(2049)}),
		ok("p3", "3 preview images", map[string]any{"previewImages": []string{img, img, img}}),
		bad("4 preview images", "previewImages", map[string]any{"previewImages": []string{img, img, img, img}}),
		ok("pbig", "a preview image at the size limit", map[string]any{"previewImages": []string{pngOfSize(integ.MaxPreviewImageBytes)}}),
		bad("a preview image one byte over", "previewImages", map[string]any{"previewImages": []string{pngOfSize(integ.MaxPreviewImageBytes + 1)}}),
		ok("ibig", "an icon at the size limit", map[string]any{"icon": pngOfSize(integ.MaxIconBytes)}),
		bad("an icon one byte over", "icon", map[string]any{"icon": pngOfSize(integ.MaxIconBytes + 1)}),
		bad("an icon that is no image", "icon", map[string]any{"icon": base64.StdEncoding.EncodeToString([]byte("hello"))}),
		bad("an icon that is no base64", "icon", map[string]any{"icon": "***"}),
		ok("l5", "5 external links", map[string]any{"externalLinks": links(5)}),
		bad("6 external links", "externalLinks", map[string]any{"externalLinks": links(6)}),
		bad("a relative link", "externalLinks.url", map[string]any{"externalLinks": []any{map[string]any{"url": "/x", "label": "x"}}}),
		bad("an unknown scope", "scopes", map[string]any{"scopes": []string{"space:everything"}}),
		bad("a repeated scope", "scopes", map[string]any{"scopes": []string{"openapi:read", "openapi:read"}}),
		bad("an unknown category", "categories", map[string]any{"categories": []string{"games"}}),
		bad("an unknown visibility", "visibility", map[string]any{"visibility": "secret"}),
		bad("an unknown target", "target", map[string]any{"target": "page"}),
		ok("sbig", "a script at the size limit", map[string]any{"script": strings.Repeat("x", integ.MaxScriptBytes)}),
		bad("a script one byte over", "script", map[string]any{"script": strings.Repeat("x", integ.MaxScriptBytes+1)}),
		bad("a content security policy over 8 KiB", "contentSecurityPolicy",
			map[string]any{"contentSecurityPolicy": map[string]any{"script-src": strings.Repeat("x", integ.MaxContentSecurityPolicyBytes)}}),
		bad("no scopes", "scopes", map[string]any{"scopes": nil}),
		bad("no script", "script", map[string]any{"script": nil}),
		bad("no organization", "organization", map[string]any{"organization": nil}),
		bad("a block with a short title", "blocks", map[string]any{"blocks": []any{map[string]any{"id": "b", "title": "x"}}}),
		bad("a content source without configuration", "contentSources",
			map[string]any{"contentSources": []any{map[string]any{"id": "s", "title": "Source"}}}),
		bad("a configuration property of an unknown type", "configurations",
			map[string]any{"configurations": map[string]any{"account": map[string]any{"properties": map[string]any{"when": map[string]any{"type": "date"}}}}}),
		bad("a configuration requiring an unknown property", "configurations.account",
			map[string]any{"configurations": map[string]any{"account": map[string]any{"properties": map[string]any{}, "required": []string{"x"}}}}),
		bad("a secret that is no string", "secrets", map[string]any{"secrets": map[string]any{"N": 1}}),
		bad("a content security policy of a number", "contentSecurityPolicy", map[string]any{"contentSecurityPolicy": 3}),
		bad("the runtime", "runtime", map[string]any{"runtime": "v2"}),
		ok(long(100), "a name of 100", nil),
		{Name: "a name of 101", Method: http.MethodPost, Path: base + long(101), Token: e.OwnerToken,
			Body: publishBody(e.Org.ID, nil), WantStatus: http.StatusBadRequest, WantError: "name"},
		{Name: "a name off the pattern", Method: http.MethodPost, Path: base + "sl%40ck", Token: e.OwnerToken,
			Body: publishBody(e.Org.ID, nil), WantStatus: http.StatusBadRequest, WantError: "name"},
		{Name: "without a token", Method: http.MethodPost, Path: base + "mine", Body: publishBody(e.Org.ID, nil),
			WantStatus: http.StatusUnauthorized},
		{Name: "as an editor", Method: http.MethodPost, Path: base + "mine", Token: e.editTok, Body: publishBody(e.Org.ID, nil),
			WantStatus: http.StatusForbidden},
		{Name: "in an organization the caller does not see", Method: http.MethodPost, Path: base + "mine", Token: e.otherTok,
			Body: publishBody(e.Org.ID, nil), WantStatus: http.StatusNotFound},
		{Name: "an unknown subdomain", Method: http.MethodPost, Path: base + "mine", Token: e.OwnerToken,
			Body: publishBody("nowhere", nil), WantStatus: http.StatusNotFound},
		{Name: "another organization's name", Method: http.MethodPost, Path: base + "slack", Token: e.otherTok,
			Body: publishBody(e.otherOrg, nil), WantStatus: http.StatusConflict, WantError: `The name "slack" is not available`},
	})
	n, err := e.Client.Integration.Query().Where(integration.Name("refused")).Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "refused publishes wrote nothing")
	mine, err := e.Client.Integration.Query().Where(integration.Name("mine")).Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, mine)
	theirs, err := e.Client.Integration.Query().Where(integration.Name("slack")).Only(context.Background())
	require.NoError(t, err)
	assert.Equal(t, e.Org.ID, theirs.OrganizationID, "the other organization did not take the name")
}

// intEnv has published integrations of every visibility.
type intEnv struct {
	*mbEnv
}

func newIntEnv(t *testing.T) intEnv {
	e := intEnv{newMbEnv(t)}
	for _, p := range []struct {
		name    string
		changes map[string]any
	}{
		{"alpha", map[string]any{"visibility": "public", "categories": []string{"analytics"}, "scopes": []string{"site:views:read"},
			"blocks": []any{map[string]any{"id": "b", "title": "Block", "urlUnfurl": []string{"https://www.Figma.com/file/*"}}}}},
		{"beta", map[string]any{"visibility": "public", "title": "Beta Search", "target": "site",
			"contentSources": []any{map[string]any{"id": "s", "title": "Source", "configuration": map[string]any{"componentId": "c"}}}}},
		{"gamma", map[string]any{"visibility": "unlisted"}},
		{"delta", map[string]any{"visibility": "private", "configurations": map[string]any{"account": map[string]any{
			"properties": map[string]any{"channel": map[string]any{"type": "string"}}, "required": []string{"channel"}}}}},
	} {
		e.MustDo(http.MethodPost, "/v1/integrations/"+p.name, e.OwnerToken, publishBody(e.Org.ID, p.changes), http.StatusOK)
		// Lists are ordered by creation time, to the millisecond, then by
		// ID: the tests below expect the order of publication.
		time.Sleep(2 * time.Millisecond)
	}
	e.MustDo(http.MethodPost, "/v1/integrations/theirs", e.otherTok, publishBody(e.otherOrg, map[string]any{"visibility": "private"}),
		http.StatusOK)
	return e
}

func TestIntegrationsRead(t *testing.T) {
	t.Parallel()
	e := newIntEnv(t)
	base := "/v1/integrations"
	assert.Equal(t, []string{"alpha", "beta", "gamma", "delta"}, e.Walk(t, base, e.readTok, 1),
		"a member with a role lists the organization's integrations, unlisted and private ones included")
	assert.Equal(t, []string{"alpha", "beta"}, e.Walk(t, base, e.guestTok, 1),
		"a guest, without a role, lists what strangers list")
	assert.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, base+"/delta", e.guestTok, nil).Status,
		"a guest does not read a private integration")
	assert.Equal(t, http.StatusOK, e.Do(http.MethodGet, base+"/gamma", e.guestTok, nil).Status,
		"an unlisted one is read by anyone who knows its name")
	assert.Equal(t, []string{"alpha", "beta", "theirs"}, e.Walk(t, base, e.otherTok, 2),
		"an outsider lists the public ones and their own")
	names := func(q string) []string { return e.Walk(t, base+q, e.otherTok, 1000) }
	assert.Equal(t, []string{"beta"}, names("?search=SEARCH"))
	assert.Equal(t, []string{"alpha"}, names("?category=analytics"))
	assert.Empty(t, names("?blockDomain=figma.com"), "host names are whole")
	assert.Equal(t, []string{"alpha"}, names("?blockDomain=www.figma.com"))
	assert.Equal(t, []string{"alpha"}, names("?blocks=true"))
	assert.Equal(t, []string{"beta", "theirs"}, names("?blocks=false"))
	assert.Equal(t, []string{"beta"}, names("?contentSources=true"))
	assert.Equal(t, []string{"alpha", "beta"}, names("?owner="+e.Org.ID))
	assert.Equal(t, []string{"alpha"}, names("?scope=site:views:read"))
	assert.Equal(t, []string{"beta"}, names("?target=site"))
	e.Run(t, []servertest.Scenario{
		{Name: "list: limit 1000", Method: http.MethodGet, Path: base + "?limit=1000", Token: e.readTok, WantStatus: http.StatusOK},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: base + "?limit=1001", Token: e.readTok, WantStatus: http.StatusBadRequest},
		{Name: "list: an unknown category", Method: http.MethodGet, Path: base + "?category=games", Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "category"},
		{Name: "list: a block domain of 101", Method: http.MethodGet, Path: base + "?blockDomain=" + strings.Repeat("a", 101),
			Token: e.readTok, WantStatus: http.StatusBadRequest, WantError: "blockDomain"},
		{Name: "list: without a token", Method: http.MethodGet, Path: base, WantStatus: http.StatusUnauthorized},
		{Name: "get: public, by an outsider", Method: http.MethodGet, Path: base + "/alpha", Token: e.otherTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"name": "alpha", "owner": map[string]any{"id": e.Org.ID},
				"permissions": map[string]any{"admin": false, "install": true}}},
		{Name: "get: unlisted, by an outsider", Method: http.MethodGet, Path: base + "/gamma", Token: e.otherTok, WantStatus: http.StatusOK},
		{Name: "get: private, by an outsider", Method: http.MethodGet, Path: base + "/delta", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "get: private, by a reader", Method: http.MethodGet, Path: base + "/delta", Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"permissions": map[string]any{"admin": false, "install": false}}},
		{Name: "get: unknown", Method: http.MethodGet, Path: base + "/nope", Token: e.readTok, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: base + "/alpha", WantStatus: http.StatusUnauthorized},
	})
}

func TestIntegrationInstallationsAndUnpublish(t *testing.T) {
	t.Parallel()
	e := newIntEnv(t)
	ctx := context.Background()
	base := "/v1/integrations"
	// The other organization installs alpha through /v1, the owner's
	// delta (private, its own) and alpha through GraphQL.
	inst := e.MustDo(http.MethodPost, base+"/alpha/installations", e.otherTok, map[string]any{"organization": e.otherOrg},
		http.StatusCreated)
	assert.Equal(t, "active", inst["status"])
	assert.Equal(t, map[string]any{"organization": e.otherOrg}, inst["target"])
	e.MustDo(http.MethodPost, base+"/alpha/installations", e.otherTok, map[string]any{"organization": e.otherOrg}, http.StatusConflict)
	e.MustDo(http.MethodPost, base+"/delta/installations", e.otherTok, map[string]any{"organization": e.otherOrg}, http.StatusNotFound)
	e.MustDo(http.MethodPost, base+"/alpha/installations", e.readTok, map[string]any{"organization": e.Org.ID}, http.StatusForbidden)
	mine := e.MustDo(http.MethodPost, base+"/delta/installations", e.OwnerToken, map[string]any{"organization": e.Org.ID},
		http.StatusCreated)
	assert.Equal(t, "pending", mine["status"], "delta requires a channel")
	_, err := e.Client.IntegrationInstallation.UpdateOneID(mine["id"].(string)).SetExternalIds([]string{"team-1"}).Save(ctx)
	require.NoError(t, err)

	e.Run(t, []servertest.Scenario{
		{Name: "installations: by the owner's admin", Method: http.MethodGet, Path: base + "/alpha/installations", Token: e.OwnerToken,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(1)}},
		{Name: "installations: by an external ID", Method: http.MethodGet, Path: base + "/delta/installations?externalId=team-1",
			Token: e.OwnerToken, WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(1)}},
		{Name: "installations: by another external ID", Method: http.MethodGet, Path: base + "/delta/installations?externalId=team-2",
			Token: e.OwnerToken, WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(0)}},
		{Name: "installations: by a reader", Method: http.MethodGet, Path: base + "/alpha/installations", Token: e.readTok,
			WantStatus: http.StatusForbidden},
		{Name: "installations: by the installer, who is no admin of the integration", Method: http.MethodGet,
			Path: base + "/alpha/installations", Token: e.otherTok, WantStatus: http.StatusForbidden},
		{Name: "installations: of a private integration, by an outsider", Method: http.MethodGet, Path: base + "/delta/installations",
			Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "installations: limit 1001", Method: http.MethodGet, Path: base + "/alpha/installations?limit=1001", Token: e.OwnerToken,
			WantStatus: http.StatusBadRequest},
		{Name: "installations: without a token", Method: http.MethodGet, Path: base + "/alpha/installations",
			WantStatus: http.StatusUnauthorized},
		{Name: "unpublish: by an editor", Method: http.MethodDelete, Path: base + "/alpha", Token: e.editTok, WantStatus: http.StatusForbidden},
		{Name: "unpublish: by another organization", Method: http.MethodDelete, Path: base + "/alpha", Token: e.otherTok,
			WantStatus: http.StatusForbidden},
		{Name: "unpublish: a private one, by an outsider", Method: http.MethodDelete, Path: base + "/delta", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "unpublish: without a token", Method: http.MethodDelete, Path: base + "/alpha", WantStatus: http.StatusUnauthorized},
		{Name: "unpublish", Method: http.MethodDelete, Path: base + "/alpha", Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "unpublish: again", Method: http.MethodDelete, Path: base + "/alpha", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: unpublished", Method: http.MethodGet, Path: base + "/alpha", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "publish the name from elsewhere", Method: http.MethodPost, Path: base + "/alpha", Token: e.otherTok,
			Body: publishBody(e.otherOrg, nil), WantStatus: http.StatusConflict, WantError: `The name "alpha" is not available`},
	})
	assert.Equal(t, []string{"beta", "gamma", "delta"}, e.Walk(t, base, e.OwnerToken, 1))
	x, err := e.Client.IntegrationInstallation.Query().Where(integrationinstallation.OrganizationID(e.otherOrg)).Only(ctx)
	require.NoError(t, err, "the installation stays")
	assert.Equal(t, enum.InstallationStatusPaused, x.Status)

	again := e.MustDo(http.MethodPost, base+"/alpha", e.OwnerToken, publishBody(e.Org.ID, map[string]any{"visibility": "public"}),
		http.StatusOK)
	assert.Equal(t, float64(2), again["version"])
	x, err = e.Client.IntegrationInstallation.Query().Where(integrationinstallation.OrganizationID(e.otherOrg)).Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, enum.InstallationStatusActive, x.Status, "publishing again resumes it")
	assert.Len(t, e.Walk(t, base+"/alpha/installations", e.OwnerToken, 1), 1)
}
