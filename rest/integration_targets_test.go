package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// An installation's spaces and sites, each with its configuration: read by
// whoever sees the installation, changed by the installing organization's
// admins, validated against the integration's space and site schemas.
func TestIntegrationTargetInstallations(t *testing.T) {
	t.Parallel()
	e := newIntEnv(t)
	ctx := context.Background()
	e.MustDo(http.MethodPost, "/v1/integrations/targets", e.OwnerToken, publishBody(e.Org.ID, map[string]any{
		"visibility": "public",
		"configurations": map[string]any{
			"space": map[string]any{"properties": map[string]any{"channel": map[string]any{"type": "string"}}, "required": []string{"channel"}},
			"site":  map[string]any{"properties": map[string]any{"theme": map[string]any{"type": "string", "enum": []string{"light", "dark"}}}},
		},
	}), http.StatusOK)
	otherEditTok, _ := e.Member(e.otherOrg, enum.RoleEdit, "other-editor@example.com")
	var spaces []string
	for k := range 3 {
		spaces = append(spaces, e.Client.Space.Create().SetOrganizationID(e.otherOrg).SetTitle(fmt.Sprintf("S%d", k)).SaveX(ctx).ID)
	}
	sort.Strings(spaces)
	site := e.Client.Site.Create().SetOrganizationID(e.otherOrg).SetTitle("Docs").SaveX(ctx).ID
	ownSpace := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle("Ours").SaveX(ctx).ID

	install := `mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation { id } } }`
	res := e.GraphQL(e.otherTok, install, map[string]any{"in": map[string]any{"integrationName": "targets", "organizationId": e.otherOrg,
		"spaceSelection": "SELECTED", "spaces": spaces[:2], "siteSelection": "SELECTED", "sites": []string{site}}})
	require.Empty(t, res.Errors, "%v", res.Errors)
	var out struct {
		InstallIntegration struct{ Installation struct{ ID string } }
	}
	res.Into(t, &out)
	x := out.InstallIntegration.Installation.ID
	base := "/v1/integrations/targets/installations/" + x
	alpha := e.MustDo(http.MethodPost, "/v1/integrations/alpha/installations", e.otherTok, map[string]any{"organization": e.otherOrg},
		http.StatusCreated)["id"].(string)

	listed := e.MustDo(http.MethodGet, base+"/spaces", e.otherTok, nil, http.StatusOK)
	assert.EqualValues(t, 2, listed["count"])
	items := listed["items"].([]any)
	require.Len(t, items, 2)
	servertest.AssertContains(t, map[string]any{"object": "integration-space-installation", "integration": "targets",
		"installation": x, "space": spaces[0], "status": "pending", "configuration": map[string]any{}, "externalIds": []any{},
		"urls": map[string]any{"location": "http://bindery.test" + base + "/spaces/" + spaces[0]}}, items[0])
	assert.Equal(t, spaces[1], items[1].(map[string]any)["space"], "in the order of their IDs")
	first := e.MustDo(http.MethodGet, base+"/spaces?limit=1", e.otherTok, nil, http.StatusOK)
	assert.Len(t, first["items"], 1)
	assert.NotNil(t, first["next"])

	space0 := base + "/spaces/" + spaces[0]
	e.Run(t, []servertest.Scenario{
		{Name: "list: by the integration's admin, who reads", Method: http.MethodGet, Path: base + "/spaces", Token: e.OwnerToken,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(2)}},
		{Name: "list: by an editor of the organization", Method: http.MethodGet, Path: base + "/spaces", Token: otherEditTok,
			WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: base + "/spaces", WantStatus: http.StatusUnauthorized},
		{Name: "list: an unknown installation", Method: http.MethodGet, Path: "/v1/integrations/targets/installations/ins_nope/spaces",
			Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: under another integration's name", Method: http.MethodGet,
			Path: "/v1/integrations/alpha/installations/" + x + "/spaces", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: base + "/spaces?limit=1001", Token: e.otherTok,
			WantStatus: http.StatusBadRequest},
		{Name: "get", Method: http.MethodGet, Path: space0, Token: e.otherTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"space": spaces[0], "status": "pending"}},
		{Name: "get: a space it does not select", Method: http.MethodGet, Path: base + "/spaces/" + spaces[2], Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "get: another organization's space", Method: http.MethodGet, Path: base + "/spaces/" + ownSpace, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "get: an unknown space", Method: http.MethodGet, Path: base + "/spaces/spc_nope", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: space0, WantStatus: http.StatusUnauthorized},
		{Name: "patch: by the integration's admin", Method: http.MethodPatch, Path: space0, Token: e.OwnerToken,
			Body: map[string]any{"configuration": map[string]any{"channel": "#x"}}, WantStatus: http.StatusForbidden},
		{Name: "patch: by an editor of the organization", Method: http.MethodPatch, Path: space0, Token: otherEditTok,
			Body: map[string]any{"configuration": map[string]any{"channel": "#x"}}, WantStatus: http.StatusNotFound},
		{Name: "patch: without a token", Method: http.MethodPatch, Path: space0,
			Body: map[string]any{"configuration": map[string]any{"channel": "#x"}}, WantStatus: http.StatusUnauthorized},
		{Name: "patch: a space it does not select", Method: http.MethodPatch, Path: base + "/spaces/" + spaces[2], Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"channel": "#x"}}, WantStatus: http.StatusNotFound},
		{Name: "patch: another organization's space", Method: http.MethodPatch, Path: base + "/spaces/" + ownSpace, Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"channel": "#x"}}, WantStatus: http.StatusNotFound},
		{Name: "patch: a configuration of the wrong type", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"channel": 3}}, WantStatus: http.StatusBadRequest, WantError: "configuration"},
		{Name: "patch: a property the space schema lacks", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"theme": "dark"}}, WantStatus: http.StatusBadRequest,
			WantError: "space configuration"},
		{Name: "patch: a configuration that is no object", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"configuration": []any{}}, WantStatus: http.StatusBadRequest, WantError: "configuration"},
		{Name: "patch: a null configuration", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"configuration": nil}, WantStatus: http.StatusBadRequest, WantError: "configuration"},
		{Name: "patch: 6 external IDs", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"externalIds": []string{"a", "b", "c", "d", "e", "f"}}, WantStatus: http.StatusBadRequest,
			WantError: "externalIds"},
		{Name: "patch: an external ID of 257 bytes", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"externalIds": []string{strings.Repeat("x", 257)}}, WantStatus: http.StatusBadRequest,
			WantError: "externalIds"},
		{Name: "patch: an unknown member", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"space": spaces[1]}, WantStatus: http.StatusBadRequest},
		{Name: "patch: 5 external IDs, no configuration yet", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"externalIds": []string{"a", "b", "c", "d", "e"}}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"status": "pending", "externalIds": []any{"a", "b", "c", "d", "e"}}},
		{Name: "patch: the required configuration", Method: http.MethodPatch, Path: space0, Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"channel": "#docs"}}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"status": "active", "configuration": map[string]any{"channel": "#docs"},
				"externalIds": []any{"a", "b", "c", "d", "e"}}},
		{Name: "get: as changed", Method: http.MethodGet, Path: space0, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"status": "active", "configuration": map[string]any{"channel": "#docs"}}},
		{Name: "sites: list", Method: http.MethodGet, Path: base + "/sites", Token: e.otherTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": float64(1), "items": []any{map[string]any{"site": site, "status": "active",
				"object": "integration-site-installation"}}}},
		{Name: "sites: get", Method: http.MethodGet, Path: base + "/sites/" + site, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"site": site, "configuration": map[string]any{}}},
		{Name: "sites: get an unknown site", Method: http.MethodGet, Path: base + "/sites/sit_nope", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "sites: patch outside the enum", Method: http.MethodPatch, Path: base + "/sites/" + site, Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"theme": "blue"}}, WantStatus: http.StatusBadRequest,
			WantError: "site configuration"},
		{Name: "sites: patch by the integration's admin", Method: http.MethodPatch, Path: base + "/sites/" + site, Token: e.OwnerToken,
			Body: map[string]any{"configuration": map[string]any{"theme": "dark"}}, WantStatus: http.StatusForbidden},
		{Name: "sites: patch without a token", Method: http.MethodPatch, Path: base + "/sites/" + site,
			Body: map[string]any{"configuration": map[string]any{"theme": "dark"}}, WantStatus: http.StatusUnauthorized},
		{Name: "sites: patch", Method: http.MethodPatch, Path: base + "/sites/" + site, Token: e.otherTok,
			Body: map[string]any{"configuration": map[string]any{"theme": "dark"}}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"site": site, "status": "active", "configuration": map[string]any{"theme": "dark"}}},
		// alpha declares no configuration schema: any object is accepted,
		// as for the account.
		{Name: "no schema: any object", Method: http.MethodGet, Path: "/v1/integrations/alpha/installations/" + alpha + "/spaces",
			Token: e.otherTok, WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(0)}},
	})

	// A new selection keeps the configuration of a space selected still,
	// and drops the others'.
	update := `mutation($in: UpdateIntegrationInstallationInput!) { updateIntegrationInstallation(input: $in) { installation { id } } }`
	res = e.GraphQL(e.otherTok, update, map[string]any{"in": map[string]any{"id": x, "spaces": []string{spaces[0], spaces[2]}}})
	require.Empty(t, res.Errors, "%v", res.Errors)
	e.MustDo(http.MethodGet, base+"/spaces/"+spaces[1], e.otherTok, nil, http.StatusNotFound)
	kept := e.MustDo(http.MethodGet, space0, e.otherTok, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"channel": "#docs"}, kept["configuration"])
	added := e.MustDo(http.MethodGet, base+"/spaces/"+spaces[2], e.otherTok, nil, http.StatusOK)
	assert.Equal(t, map[string]any{}, added["configuration"])
	res = e.GraphQL(e.otherTok, update, map[string]any{"in": map[string]any{"id": alpha, "spaceSelection": "SELECTED",
		"spaces": []string{spaces[1]}}})
	require.Empty(t, res.Errors, "%v", res.Errors)
	free := e.MustDo(http.MethodPatch, "/v1/integrations/alpha/installations/"+alpha+"/spaces/"+spaces[1], e.otherTok,
		map[string]any{"configuration": map[string]any{"anything": []any{1, "two"}}}, http.StatusOK)
	assert.Equal(t, "active", free["status"])
	// With all spaces, none carries a configuration of its own.
	res = e.GraphQL(e.otherTok, update, map[string]any{"in": map[string]any{"id": x, "spaceSelection": "ALL"}})
	require.Empty(t, res.Errors, "%v", res.Errors)
	all := e.MustDo(http.MethodGet, base+"/spaces", e.otherTok, nil, http.StatusOK)
	assert.EqualValues(t, 0, all["count"])
	e.MustDo(http.MethodPatch, space0, e.otherTok, map[string]any{"configuration": map[string]any{"channel": "#x"}}, http.StatusNotFound)
}

// Installing on one more space or site, and uninstalling from one: the
// official POST and DELETE, which change the installation's selection.
func TestIntegrationInstallOnSpaceAndSite(t *testing.T) {
	t.Parallel()
	e := newIntEnv(t)
	ctx := context.Background()
	e.MustDo(http.MethodPost, "/v1/integrations/targets", e.OwnerToken, publishBody(e.Org.ID, map[string]any{"visibility": "public",
		"configurations": map[string]any{"space": map[string]any{"properties": map[string]any{"channel": map[string]any{"type": "string"}},
			"required": []string{"channel"}}}}), http.StatusOK)
	otherEditTok, _ := e.Member(e.otherOrg, enum.RoleEdit, "other-editor@example.com")
	spaces := e.Client.Space.MapCreateBulk(make([]int, graph.MaxInstallationSelection+1), func(c *ent.SpaceCreate, i int) {
		c.SetOrganizationID(e.otherOrg).SetTitle(fmt.Sprintf("S%d", i))
	}).SaveX(ctx)
	site := e.Client.Site.Create().SetOrganizationID(e.otherOrg).SetTitle("Docs").SaveX(ctx).ID
	ownSpace := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle("Ours").SaveX(ctx).ID
	res := e.GraphQL(e.otherTok, `mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation { id } } }`,
		map[string]any{"in": map[string]any{"integrationName": "targets", "organizationId": e.otherOrg, "spaceSelection": "SELECTED",
			"spaces": []string{spaces[0].ID}, "siteSelection": "SELECTED"}})
	require.Empty(t, res.Errors, "%v", res.Errors)
	var out struct {
		InstallIntegration struct{ Installation struct{ ID string } }
	}
	res.Into(t, &out)
	x := out.InstallIntegration.Installation.ID
	base := "/v1/integrations/targets/installations/" + x
	alpha := e.MustDo(http.MethodPost, "/v1/integrations/alpha/installations", e.otherTok, map[string]any{"organization": e.otherOrg},
		http.StatusCreated)["id"].(string)

	s1 := spaces[1].ID
	created := e.Do(http.MethodPost, base+"/spaces", e.otherTok, map[string]any{"space": s1})
	require.Equal(t, http.StatusCreated, created.Status, string(created.Body))
	assert.Equal(t, "http://bindery.test"+base+"/spaces/"+s1, created.Header.Get("Location"))
	servertest.AssertContains(t, map[string]any{"space": s1, "status": "pending", "configuration": map[string]any{},
		"installation": x, "integration": "targets"}, created.JSON())
	e.Run(t, []servertest.Scenario{
		{Name: "post: selected already", Method: http.MethodPost, Path: base + "/spaces", Token: e.otherTok,
			Body: map[string]any{"space": s1}, WantStatus: http.StatusConflict},
		{Name: "post: another organization's space", Method: http.MethodPost, Path: base + "/spaces", Token: e.otherTok,
			Body: map[string]any{"space": ownSpace}, WantStatus: http.StatusBadRequest, WantError: "space: "},
		{Name: "post: an unknown space", Method: http.MethodPost, Path: base + "/spaces", Token: e.otherTok,
			Body: map[string]any{"space": "spc_nope"}, WantStatus: http.StatusBadRequest, WantError: "space: "},
		{Name: "post: no space", Method: http.MethodPost, Path: base + "/spaces", Token: e.otherTok,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "space"},
		{Name: "post: by the integration's admin", Method: http.MethodPost, Path: base + "/spaces", Token: e.OwnerToken,
			Body: map[string]any{"space": spaces[2].ID}, WantStatus: http.StatusForbidden},
		{Name: "post: by an editor of the organization", Method: http.MethodPost, Path: base + "/spaces", Token: otherEditTok,
			Body: map[string]any{"space": spaces[2].ID}, WantStatus: http.StatusNotFound},
		{Name: "post: without a token", Method: http.MethodPost, Path: base + "/spaces",
			Body: map[string]any{"space": spaces[2].ID}, WantStatus: http.StatusUnauthorized},
		{Name: "post: an installation for all spaces", Method: http.MethodPost,
			Path: "/v1/integrations/alpha/installations/" + alpha + "/spaces", Token: e.otherTok,
			Body: map[string]any{"space": spaces[2].ID}, WantStatus: http.StatusConflict},
		{Name: "post: under another integration's name", Method: http.MethodPost,
			Path: "/v1/integrations/alpha/installations/" + x + "/spaces", Token: e.otherTok,
			Body: map[string]any{"space": spaces[2].ID}, WantStatus: http.StatusNotFound},
		{Name: "delete: by the integration's admin", Method: http.MethodDelete, Path: base + "/spaces/" + s1, Token: e.OwnerToken,
			WantStatus: http.StatusForbidden},
		{Name: "delete: by an editor of the organization", Method: http.MethodDelete, Path: base + "/spaces/" + s1, Token: otherEditTok,
			WantStatus: http.StatusNotFound},
		{Name: "delete: without a token", Method: http.MethodDelete, Path: base + "/spaces/" + s1, WantStatus: http.StatusUnauthorized},
		{Name: "delete", Method: http.MethodDelete, Path: base + "/spaces/" + s1, Token: e.otherTok, WantStatus: http.StatusNoContent},
		{Name: "delete: again", Method: http.MethodDelete, Path: base + "/spaces/" + s1, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "get: deleted", Method: http.MethodGet, Path: base + "/spaces/" + s1, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "sites: post", Method: http.MethodPost, Path: base + "/sites", Token: e.otherTok, Body: map[string]any{"siteId": site},
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"site": site, "status": "active"}},
		{Name: "sites: post again", Method: http.MethodPost, Path: base + "/sites", Token: e.otherTok, Body: map[string]any{"siteId": site},
			WantStatus: http.StatusConflict},
		{Name: "sites: post an unknown site", Method: http.MethodPost, Path: base + "/sites", Token: e.otherTok,
			Body: map[string]any{"siteId": "site_nope"}, WantStatus: http.StatusBadRequest, WantError: "siteId"},
		{Name: "sites: delete by the integration's admin", Method: http.MethodDelete, Path: base + "/sites/" + site, Token: e.OwnerToken,
			WantStatus: http.StatusForbidden},
		{Name: "sites: delete", Method: http.MethodDelete, Path: base + "/sites/" + site, Token: e.otherTok,
			WantStatus: http.StatusNoContent},
		{Name: "sites: delete again", Method: http.MethodDelete, Path: base + "/sites/" + site, Token: e.otherTok,
			WantStatus: http.StatusNotFound},
	})

	// The selection's limit: the 1,000th space is added, the 1,001st not.
	e.Client.IntegrationSpaceInstallation.MapCreateBulk(spaces[1:graph.MaxInstallationSelection-1], func(c *ent.IntegrationSpaceInstallationCreate, i int) {
		c.SetIntegrationInstallationID(x).SetSpaceID(spaces[1+i].ID)
	}).ExecX(ctx)
	e.MustDo(http.MethodPost, base+"/spaces", e.otherTok, map[string]any{"space": spaces[graph.MaxInstallationSelection-1].ID}, http.StatusCreated)
	res2 := e.Do(http.MethodPost, base+"/spaces", e.otherTok, map[string]any{"space": spaces[graph.MaxInstallationSelection].ID})
	assert.Equal(t, http.StatusBadRequest, res2.Status, string(res2.Body))
	assert.Contains(t, string(res2.Body), `"space: `, "the error names the body's member")
	assert.NotContains(t, string(res2.Body), "spaceId")
}
