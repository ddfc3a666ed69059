package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// ocOrgPermissions is the permissions object of an organization with the
// members set to true and all others false.
func ocOrgPermissions(trueMembers ...string) map[string]any {
	p := map[string]any{}
	for _, k := range []string{"view", "admin", "ownTeam", "createContent", "createOpenAPISpec", "ingestConversations",
		"viewBilling", "listMembers", "listTeams", "listIntegrations", "listInstallations", "installIntegration"} {
		p[k] = false
	}
	for _, k := range trueMembers {
		p[k] = true
	}
	return p
}

func TestOrganizationGet(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	adminTok, _ := e.Member(e.Org.ID, enum.RoleAdmin, "admin@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	guestTok, _ := e.Member(e.Org.ID, "", "guest@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	path := "/v1/orgs/" + e.Org.ID

	all := ocOrgPermissions("view", "admin", "ownTeam", "createContent", "createOpenAPISpec", "ingestConversations",
		"viewBilling", "listMembers", "listTeams", "listIntegrations", "listInstallations", "installIntegration")
	e.Run(t, []servertest.Scenario{
		{Name: "owner", Method: http.MethodGet, Path: path, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "organization", "id": e.Org.ID, "title": "Acme Docs",
				"createdAt": e.Org.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"), "emailDomains": []string{},
				"type": "business", "inviteLinks": true, "sso": false, "ai": false, "defaultRole": nil,
				"urls":        map[string]any{"location": "http://bindery.test/v1/orgs/" + e.Org.ID},
				"permissions": all},
			Check: func(t *testing.T, res *servertest.Response) {
				j := res.JSON()
				assert.NotContains(t, j, "hostname")
				assert.NotContains(t, j["urls"], "logo")
				assert.NotEmpty(t, j["urls"].(map[string]any)["app"])
			}},
		{Name: "another admin", Method: http.MethodGet, Path: path, Token: adminTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"permissions": all}},
		{Name: "creator", Method: http.MethodGet, Path: path, Token: createTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"permissions": ocOrgPermissions("view", "ownTeam", "createContent", "createOpenAPISpec",
				"listMembers", "listTeams", "listIntegrations")}},
		{Name: "reader", Method: http.MethodGet, Path: path, Token: readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"permissions": ocOrgPermissions("view", "listMembers", "listTeams", "listIntegrations")}},
		{Name: "guest", Method: http.MethodGet, Path: path, Token: guestTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": e.Org.ID, "permissions": ocOrgPermissions("view")}},
		{Name: "without a token", Method: http.MethodGet, Path: path, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodGet, Path: path, Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
		{Name: "with an unknown token", Method: http.MethodGet, Path: path, Token: ocUnknownToken(), WantStatus: http.StatusUnauthorized},
		{Name: "unknown", Method: http.MethodGet, Path: "/v1/orgs/org_doesnotexist", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "of someone else", Method: http.MethodGet, Path: "/v1/orgs/" + otherOrg, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "outsider", Method: http.MethodGet, Path: path, Token: otherTok, WantStatus: http.StatusNotFound},
	})
	t.Run("a valid token under another scheme", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, e.HTTP.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Basic "+e.OwnerToken)
		res, err := e.HTTP.Client().Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	})
	hidden := e.Do(http.MethodGet, "/v1/orgs/"+otherOrg, e.OwnerToken, nil)
	missing := e.Do(http.MethodGet, "/v1/orgs/org_doesnotexist", e.OwnerToken, nil)
	assert.Equal(t, missing.Body, hidden.Body, "a hidden organization must read like a missing one")
}

func TestOrganizationList(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	ctx := context.Background()
	want := []string{e.Org.ID}
	for _, title := range []string{"Second", "Third", "Fourth", "Fifth", "Sixth"} {
		o, err := graph.CreateOrganization(ctx, e.Client, title, e.Owner.ID)
		require.NoError(t, err)
		want = append(want, o.ID)
	}
	joined, otherTok := e.otherOrg("other@example.com")
	e.Member(joined, enum.RoleRead, "owner@example.com")
	want = append(want, joined)
	notJoined, _ := e.otherOrg("third@example.com")
	path := "/v1/orgs"

	t.Run("walk", func(t *testing.T) {
		first := e.Walk(t, path, e.OwnerToken, 1000)
		assert.ElementsMatch(t, want, first)
		for _, limit := range []int{1, 2, 3, 7, 8} {
			assert.Equal(t, first, e.Walk(t, path, e.OwnerToken, limit), "limit %d", limit)
		}
	})
	t.Run("items carry the viewer's permissions", func(t *testing.T) {
		res := e.MustDo(http.MethodGet, path+"?limit=1000", e.OwnerToken, nil, http.StatusOK)
		assert.EqualValues(t, len(want), res["count"])
		items := res["items"].([]any)
		require.Len(t, items, len(want))
		byID := map[string]map[string]any{}
		for _, it := range items {
			byID[it.(map[string]any)["id"].(string)] = it.(map[string]any)
		}
		assert.Equal(t, true, byID[e.Org.ID]["permissions"].(map[string]any)["admin"])
		assert.Equal(t, ocOrgPermissions("view", "listMembers", "listTeams", "listIntegrations"), byID[joined]["permissions"])
		assert.NotContains(t, byID, notJoined)
	})
	t.Run("only the viewer's", func(t *testing.T) {
		assert.Equal(t, []string{joined}, e.Walk(t, path, otherTok, 1))
	})
	t.Run("not where the membership is disabled", func(t *testing.T) {
		_, reader := e.Member(joined, enum.RoleRead, "reader@example.com")
		readTok := e.Token(reader)
		assert.Equal(t, []string{joined}, e.Walk(t, path, readTok, 1))
		n, err := e.Client.Member.Update().Where(member.UserID(reader.ID)).SetDisabled(true).Save(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		assert.Empty(t, e.Walk(t, path, readTok, 1))
		e.MustDo(http.MethodGet, "/v1/orgs/"+joined, readTok, nil, http.StatusNotFound)
		e.MustDo(http.MethodGet, "/v1/orgs/"+joined+"/collections", readTok, nil, http.StatusNotFound)
	})
	e.Run(t, []servertest.Scenario{
		{Name: "limit 1000", Method: http.MethodGet, Path: path + "?limit=1000", Token: e.OwnerToken, WantStatus: http.StatusOK},
		{Name: "limit 1001", Method: http.MethodGet, Path: path + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "limit"},
		{Name: "limit 0", Method: http.MethodGet, Path: path + "?limit=0", Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"items": []any{}, "count": len(want)}},
		{Name: "garbage page", Method: http.MethodGet, Path: path + "?page=garbage", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "without a token", Method: http.MethodGet, Path: path, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodGet, Path: path, Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
	})
}

func TestOrganizationUpdate(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	adminTok, _ := e.Member(e.Org.ID, enum.RoleAdmin, "admin@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	guestTok, _ := e.Member(e.Org.ID, "", "guest@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	e.MustDo(http.MethodPatch, "/v1/orgs/"+otherOrg, otherTok, map[string]any{"hostname": "taken"}, http.StatusOK)
	path := "/v1/orgs/" + e.Org.ID
	patch := func(name string, body any, status int, want map[string]any) servertest.Scenario {
		sc := servertest.Scenario{Name: name, Method: http.MethodPatch, Path: path, Token: e.OwnerToken, Body: body,
			WantStatus: status, WantJSON: want}
		if status >= 400 && want != nil {
			sc.WantJSON, sc.WantError = nil, want["error"].(string)
		}
		return sc
	}
	// fails expects an error that names the member first, in its /v1
	// spelling.
	fails := func(member string) map[string]any { return map[string]any{"error": member + ": "} }

	e.Run(t, []servertest.Scenario{
		patch("title", map[string]any{"title": "  Acme Handbook "}, http.StatusOK, map[string]any{"id": e.Org.ID, "title": "Acme Handbook"}),
		patch("title of 2 characters", map[string]any{"title": "éé"}, http.StatusOK, map[string]any{"title": "éé"}),
		patch("title of 1 character", map[string]any{"title": "é"}, http.StatusBadRequest,
			map[string]any{"error": "title: must be at least 2 characters"}),
		patch("title blank", map[string]any{"title": "   "}, http.StatusBadRequest, fails("title")),
		patch("title of 255 characters", map[string]any{"title": strings.Repeat("é", 255)}, http.StatusOK, map[string]any{"title": strings.Repeat("é", 255)}),
		patch("title of 256 characters", map[string]any{"title": strings.Repeat("é", 256)}, http.StatusBadRequest, fails("title")),
		patch("title null", map[string]any{"title": nil}, http.StatusBadRequest, fails("title")),
		patch("title of the wrong type", map[string]any{"title": false}, http.StatusBadRequest, fails("title")),

		patch("100 email domains", map[string]any{"emailDomains": ocDomains(100)}, http.StatusOK, nil),
		patch("101 email domains", map[string]any{"emailDomains": ocDomains(101)}, http.StatusBadRequest, fails("emailDomains")),
		patch("email domains normalised", map[string]any{"emailDomains": []string{" Example.COM", "example.com", "Docs.Example.org"}},
			http.StatusOK, map[string]any{"emailDomains": []string{"example.com", "docs.example.org"}}),
		patch("invalid email domain", map[string]any{"emailDomains": []string{"example.com", "not a domain"}}, http.StatusBadRequest, fails("emailDomains")),
		patch("email address as domain", map[string]any{"emailDomains": []string{"me@example.com"}}, http.StatusBadRequest, fails("emailDomains")),
		patch("email domains of the wrong type", map[string]any{"emailDomains": "example.com"}, http.StatusBadRequest, fails("emailDomains")),
		patch("email domain of the wrong type", map[string]any{"emailDomains": []any{1}}, http.StatusBadRequest, fails("emailDomains")),
		patch("email domains null", map[string]any{"emailDomains": nil}, http.StatusBadRequest, fails("emailDomains")),

		patch("hostname", map[string]any{"hostname": "acme-docs"}, http.StatusOK, map[string]any{"hostname": "acme-docs"}),
		patch("hostname of 3 characters", map[string]any{"hostname": "a1b"}, http.StatusOK, map[string]any{"hostname": "a1b"}),
		patch("hostname of 32 characters", map[string]any{"hostname": strings.Repeat("h", 32)}, http.StatusOK, map[string]any{"hostname": strings.Repeat("h", 32)}),
		patch("hostname of 2 characters", map[string]any{"hostname": "ab"}, http.StatusBadRequest, fails("hostname")),
		patch("hostname of 33 characters", map[string]any{"hostname": strings.Repeat("h", 33)}, http.StatusBadRequest, fails("hostname")),
		patch("hostname with a leading hyphen", map[string]any{"hostname": "-acme"}, http.StatusBadRequest, fails("hostname")),
		patch("hostname with a trailing hyphen", map[string]any{"hostname": "acme-"}, http.StatusBadRequest, fails("hostname")),
		patch("hostname in upper case", map[string]any{"hostname": "Acme"}, http.StatusBadRequest, fails("hostname")),
		patch("hostname with a dot", map[string]any{"hostname": "acme.docs"}, http.StatusBadRequest, fails("hostname")),
		patch("hostname of 3 multi-byte characters", map[string]any{"hostname": "ééé"}, http.StatusBadRequest, fails("hostname")),
		patch("hostname taken by another organization", map[string]any{"hostname": "taken"}, http.StatusConflict, nil),
		patch("hostname it already has", map[string]any{"hostname": strings.Repeat("h", 32)}, http.StatusOK, map[string]any{"hostname": strings.Repeat("h", 32)}),
		patch("hostname null removes it", map[string]any{"hostname": nil}, http.StatusOK, nil),

		patch("default role", map[string]any{"defaultRole": "read"}, http.StatusOK, map[string]any{"defaultRole": "read"}),
		patch("default role null makes guests", map[string]any{"defaultRole": nil}, http.StatusOK, map[string]any{"defaultRole": nil}),
		patch("default role unknown", map[string]any{"defaultRole": "owner"}, http.StatusBadRequest, fails("defaultRole")),
		patch("default role inherit", map[string]any{"defaultRole": "inherit"}, http.StatusBadRequest, fails("defaultRole")),

		patch("logo", map[string]any{"logo": "https://cdn.example.com/logo.png"}, http.StatusOK,
			map[string]any{"urls": map[string]any{"logo": "https://cdn.example.com/logo.png"}}),
		patch("logo not a URL", map[string]any{"logo": "logo.png"}, http.StatusBadRequest, fails("logo")),
		patch("logo not http", map[string]any{"logo": "ftp://cdn.example.com/logo.png"}, http.StatusBadRequest, fails("logo")),
		patch("logo of the wrong type", map[string]any{"logo": 3}, http.StatusBadRequest, fails("logo")),

		patch("booleans", map[string]any{"sso": true, "ai": true, "inviteLinks": false}, http.StatusOK,
			map[string]any{"sso": true, "ai": true, "inviteLinks": false}),
		patch("booleans back", map[string]any{"sso": false, "ai": false, "inviteLinks": true}, http.StatusOK,
			map[string]any{"sso": false, "ai": false, "inviteLinks": true}),
		patch("sso null", map[string]any{"sso": nil}, http.StatusBadRequest, fails("sso")),
		patch("ai of the wrong type", map[string]any{"ai": "yes"}, http.StatusBadRequest, fails("ai")),
		patch("inviteLinks of the wrong type", map[string]any{"inviteLinks": 1}, http.StatusBadRequest, fails("inviteLinks")),

		patch("merge rules", map[string]any{"mergeRules": map[string]any{"type": "none"}}, http.StatusBadRequest, map[string]any{"error": "mergeRules: is not supported"}),
		patch("default content of an unknown site", map[string]any{"defaultContent": map[string]any{"type": "site", "site": "site_doesnotexist"}},
			http.StatusBadRequest, fails("defaultContent")),
		patch("default content of another kind", map[string]any{"defaultContent": map[string]any{"type": "space", "space": "spc_x"}},
			http.StatusBadRequest, fails("defaultContent")),
		patch("default content null", map[string]any{"defaultContent": nil}, http.StatusOK, nil),
		patch("unknown member", map[string]any{"billing": map[string]any{}}, http.StatusBadRequest, fails("billing")),
		patch("malformed JSON", `{"title": "x"`, http.StatusBadRequest, nil),
		patch("not an object", `"title"`, http.StatusBadRequest, nil),
		patch("empty body changes nothing", map[string]any{}, http.StatusOK, map[string]any{"title": strings.Repeat("é", 255)}),

		{Name: "without a token", Method: http.MethodPatch, Path: path, Body: map[string]any{"title": "x"}, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodPatch, Path: path, Token: ocMalformedToken, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusUnauthorized},
		{Name: "reader", Method: http.MethodPatch, Path: path, Token: readTok, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusForbidden},
		{Name: "creator", Method: http.MethodPatch, Path: path, Token: createTok, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusForbidden},
		{Name: "guest", Method: http.MethodPatch, Path: path, Token: guestTok, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusForbidden},
		{Name: "unknown", Method: http.MethodPatch, Path: "/v1/orgs/org_doesnotexist", Token: e.OwnerToken, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusNotFound},
		{Name: "of someone else", Method: http.MethodPatch, Path: "/v1/orgs/" + otherOrg, Token: e.OwnerToken, Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusNotFound},
		{Name: "another admin", Method: http.MethodPatch, Path: path, Token: adminTok, Body: map[string]any{"title": "By another admin"},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"title": "By another admin"}},
	})

	// What passed is stored, what failed changed nothing.
	got := e.MustDo(http.MethodGet, path, e.OwnerToken, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"title": "By another admin", "emailDomains": []string{"example.com", "docs.example.org"},
		"defaultRole": nil, "sso": false, "ai": false, "inviteLinks": true,
		"urls": map[string]any{"logo": "https://cdn.example.com/logo.png"}}, got)
	assert.NotContains(t, got, "hostname")
	assert.NotContains(t, got, "defaultContent")
	other := e.MustDo(http.MethodGet, "/v1/orgs/"+otherOrg, otherTok, nil, http.StatusOK)
	assert.Equal(t, "taken", other["hostname"])
	assert.Equal(t, "Other Org other@example.com", other["title"])

	t.Run("a freed hostname can be taken", func(t *testing.T) {
		e.MustDo(http.MethodPatch, "/v1/orgs/"+otherOrg, otherTok, map[string]any{"hostname": nil}, http.StatusOK)
		res := e.MustDo(http.MethodPatch, path, e.OwnerToken, map[string]any{"hostname": "taken"}, http.StatusOK)
		assert.Equal(t, "taken", res["hostname"])
		e.MustDo(http.MethodPatch, "/v1/orgs/"+otherOrg, otherTok, map[string]any{"hostname": "taken"}, http.StatusConflict)
	})
	t.Run("logo null removes it", func(t *testing.T) {
		res := e.MustDo(http.MethodPatch, path, e.OwnerToken, map[string]any{"logo": nil}, http.StatusOK)
		assert.NotContains(t, res["urls"], "logo")
	})
	t.Run("empty email domains", func(t *testing.T) {
		res := e.MustDo(http.MethodPatch, path, e.OwnerToken, map[string]any{"emailDomains": []string{}}, http.StatusOK)
		assert.Equal(t, []any{}, res["emailDomains"])
	})
}

// ocDomains returns n distinct email domains.
func ocDomains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("d%d.example.com", i)
	}
	return out
}
