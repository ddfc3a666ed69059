package graph_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

const updateSpaceInstallation = `mutation($in: UpdateIntegrationSpaceInstallationInput!) {
  updateIntegrationSpaceInstallation(input: $in) { spaceInstallation { spaceId space { id } status configuration externalIds
    installation { id } urls { location publicEndpoint } } clientMutationId } }`

const updateSiteInstallation = `mutation($in: UpdateIntegrationSiteInstallationInput!) {
  updateIntegrationSiteInstallation(input: $in) { siteInstallation { siteId site { id } status configuration externalIds
    installation { id } } clientMutationId } }`

// An installation's spaces and sites in GraphQL: configured by the
// installing organization's admins against the integration's space and
// site schemas, read by whoever sees the installation, their status
// following the integration.
func TestIntegrationTargetInstallationsInGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	other := e.User("other@example.com")
	otherOrg, err := graph.CreateOrganization(ctx, e.Client, "Other", other.ID)
	require.NoError(t, err)
	otherTok := e.Token(other)
	editTok, _ := e.Member(otherOrg.ID, enum.RoleEdit, "editor@example.com")
	space := map[string]any{"properties": map[string]any{"channel": map[string]any{"type": "string"}}, "required": []string{"channel"}}
	site := map[string]any{"properties": map[string]any{"theme": map[string]any{"type": "string", "enum": []string{"light", "dark"}}}}
	lsGQL(t, e, e.OwnerToken, publishIntegration, publishInput(e.Org.ID, map[string]any{
		"configurations": map[string]any{"space": space, "site": site}}))
	sp := e.Client.Space.Create().SetOrganizationID(otherOrg.ID).SetTitle("Theirs").SaveX(ctx).ID
	unselected := e.Client.Space.Create().SetOrganizationID(otherOrg.ID).SetTitle("Not selected").SaveX(ctx).ID
	st := e.Client.Site.Create().SetOrganizationID(otherOrg.ID).SetTitle("Docs").SaveX(ctx).ID
	in := lsGQL(t, e, otherTok, `mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation { id } } }`,
		map[string]any{"in": map[string]any{"integrationName": "notify", "organizationId": otherOrg.ID, "spaceSelection": "SELECTED",
			"spaces": []string{sp}, "siteSelection": "SELECTED", "sites": []string{st}}})
	x := lsAt(in, "installIntegration.installation.id").(string)

	read := `query($id: ID!, $s: ID!) { node(id: $id) { ... on IntegrationInstallation {
	  spaceInstallations { totalCount nodes { spaceId space { id } status configuration } }
	  siteInstallations { totalCount nodes { siteId status configuration } }
	  spaceInstallation(spaceId: $s) { status configuration externalIds } } } }`
	d := lsGQL(t, e, otherTok, read, map[string]any{"id": x, "s": sp})
	assert.EqualValues(t, 1, lsAt(d, "node.spaceInstallations.totalCount"))
	assert.Equal(t, []any{map[string]any{"spaceId": sp, "space": map[string]any{"id": sp}, "status": "PENDING",
		"configuration": map[string]any{}}}, lsAt(d, "node.spaceInstallations.nodes"), "channel is required")
	assert.Equal(t, []any{map[string]any{"siteId": st, "status": "ACTIVE", "configuration": map[string]any{}}},
		lsAt(d, "node.siteInstallations.nodes"))
	res := e.GraphQL(otherTok, read, map[string]any{"id": x, "s": unselected})
	assert.Equal(t, "NOT_FOUND", res.Code(), "a space the installation does not select")

	// The integration's admins read, without seeing the space.
	d = lsGQL(t, e, e.OwnerToken, read, map[string]any{"id": x, "s": sp})
	first := lsAt(d, "node.spaceInstallations.nodes").([]any)[0]
	assert.Nil(t, lsAt(first, "space"))
	assert.Equal(t, sp, lsAt(first, "spaceId"))

	set := func(extra map[string]any) map[string]any {
		in := map[string]any{"installationId": x, "spaceId": sp, "configuration": map[string]any{"channel": "#docs"},
			"clientMutationId": "c1"}
		for k, v := range extra {
			in[k] = v
		}
		return map[string]any{"in": in}
	}
	for _, c := range []struct {
		name, token string
		vars        map[string]any
		code, field string
	}{
		{"without a token", "", set(nil), "UNAUTHENTICATED", ""},
		{"by the integration's admin, who only reads", e.OwnerToken, set(nil), "FORBIDDEN", ""},
		{"by an editor of the organization", editTok, set(nil), "NOT_FOUND", ""},
		{"an unknown installation", otherTok, set(map[string]any{"installationId": "ins_nope"}), "NOT_FOUND", ""},
		{"a space it does not select", otherTok, set(map[string]any{"spaceId": unselected}), "NOT_FOUND", ""},
		{"another organization's space", otherTok,
			set(map[string]any{"spaceId": e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle("Ours").SaveX(ctx).ID}),
			"NOT_FOUND", ""},
		{"a number for a string", otherTok, set(map[string]any{"configuration": map[string]any{"channel": 1}}), "BAD_USER_INPUT",
			"configuration"},
		{"a property of no schema", otherTok, set(map[string]any{"configuration": map[string]any{"verbose": true}}), "BAD_USER_INPUT",
			"configuration"},
		{"not an object", otherTok, set(map[string]any{"configuration": "#docs"}), "BAD_USER_INPUT", "configuration"},
		{"6 external IDs", otherTok, set(map[string]any{"externalIds": []string{"1", "2", "3", "4", "5", "6"}}), "BAD_USER_INPUT",
			"externalIds"},
	} {
		res := e.GraphQL(c.token, updateSpaceInstallation, c.vars)
		assert.Equal(t, c.code, res.Code(), c.name)
		if c.field != "" && assert.NotEmpty(t, res.Errors, c.name) {
			assert.Equal(t, c.field, res.Errors[0].Extensions["field"], c.name)
		}
	}
	u := lsGQL(t, e, otherTok, updateSpaceInstallation, set(map[string]any{"externalIds": []string{"1", "2", "3", "4", "5"}}))
	assert.Equal(t, map[string]any{"spaceInstallation": map[string]any{"spaceId": sp, "space": map[string]any{"id": sp},
		"status": "ACTIVE", "configuration": map[string]any{"channel": "#docs"}, "externalIds": []any{"1", "2", "3", "4", "5"},
		"installation": map[string]any{"id": x},
		"urls": map[string]any{"location": "http://bindery.test/v1/integrations/notify/installations/" + x + "/spaces/" + sp,
			"publicEndpoint": "http://bindery.test/integrations/notify/installations/" + x + "/spaces/" + sp + "/endpoint"}},
		"clientMutationId": "c1"}, lsAt(u, "updateIntegrationSpaceInstallation"))
	res = e.GraphQL(otherTok, updateSiteInstallation, map[string]any{"in": map[string]any{"installationId": x, "siteId": st,
		"configuration": map[string]any{"theme": "blue"}}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "outside the site schema's enum")
	assert.Contains(t, res.Errors[0].Message, "site configuration")
	u = lsGQL(t, e, otherTok, updateSiteInstallation, map[string]any{"in": map[string]any{"installationId": x, "siteId": st,
		"configuration": map[string]any{"theme": "dark"}, "clientMutationId": "c2"}})
	assert.Equal(t, map[string]any{"theme": "dark"}, lsAt(u, "updateIntegrationSiteInstallation.siteInstallation.configuration"))
	assert.Equal(t, "c2", lsAt(u, "updateIntegrationSiteInstallation.clientMutationId"))

	// One more space, then one less.
	add := `mutation($in: InstallIntegrationOnSpaceInput!) { installIntegrationOnSpace(input: $in) {
	  spaceInstallation { spaceId status configuration } clientMutationId } }`
	remove := `mutation($in: UninstallIntegrationFromSpaceInput!) { uninstallIntegrationFromSpace(input: $in) {
	  installation { id } uninstalledSpaceId clientMutationId } }`
	one := map[string]any{"in": map[string]any{"installationId": x, "spaceId": unselected, "clientMutationId": "a"}}
	assert.Equal(t, "FORBIDDEN", e.GraphQL(e.OwnerToken, add, one).Code())
	assert.Equal(t, "NOT_FOUND", e.GraphQL(editTok, add, one).Code())
	a := lsGQL(t, e, otherTok, add, one)
	assert.Equal(t, map[string]any{"spaceInstallation": map[string]any{"spaceId": unselected, "status": "PENDING",
		"configuration": map[string]any{}}, "clientMutationId": "a"}, lsAt(a, "installIntegrationOnSpace"))
	assert.Equal(t, "CONFLICT", e.GraphQL(otherTok, add, one).Code())
	assert.Equal(t, "FORBIDDEN", e.GraphQL(e.OwnerToken, remove, one).Code())
	r := lsGQL(t, e, otherTok, remove, one)
	assert.Equal(t, map[string]any{"installation": map[string]any{"id": x}, "uninstalledSpaceId": unselected, "clientMutationId": "a"},
		lsAt(r, "uninstallIntegrationFromSpace"))
	assert.Equal(t, "NOT_FOUND", e.GraphQL(otherTok, remove, one).Code())
	d = lsGQL(t, e, otherTok, read, map[string]any{"id": x, "s": sp})
	assert.EqualValues(t, 1, lsAt(d, "node.spaceInstallations.totalCount"))

	// A new version that requires more: pending until configured; an
	// unpublished integration: paused.
	space["properties"].(map[string]any)["mention"] = map[string]any{"type": "boolean"}
	space["required"] = []string{"channel", "mention"}
	lsGQL(t, e, e.OwnerToken, publishIntegration, publishInput(e.Org.ID, map[string]any{
		"configurations": map[string]any{"space": space, "site": site}}))
	d = lsGQL(t, e, otherTok, read, map[string]any{"id": x, "s": sp})
	assert.Equal(t, "PENDING", lsAt(d, "node.spaceInstallation.status"))
	lsGQL(t, e, e.OwnerToken, `mutation { unpublishIntegration(input: {name: "notify"}) { unpublishedIntegrationName } }`, nil)
	d = lsGQL(t, e, otherTok, read, map[string]any{"id": x, "s": sp})
	assert.Equal(t, "PAUSED", lsAt(d, "node.spaceInstallation.status"))
	assert.Equal(t, "PAUSED", lsAt(lsAt(d, "node.siteInstallations.nodes").([]any)[0], "status"))
	// Still configurable while paused, as the installation is.
	u = lsGQL(t, e, otherTok, updateSpaceInstallation, set(map[string]any{"configuration": map[string]any{"channel": "#x", "mention": true}}))
	assert.Equal(t, "PAUSED", lsAt(u, "updateIntegrationSpaceInstallation.spaceInstallation.status"))

	// Uninstalling removes its spaces' and sites' rows with it.
	lsGQL(t, e, otherTok, `mutation($id: ID!) { uninstallIntegration(input: {id: $id}) { uninstalledInstallationId } }`,
		map[string]any{"id": x})
	assert.Zero(t, e.Client.IntegrationSpaceInstallation.Query().CountX(ctx))
	assert.Zero(t, e.Client.IntegrationSiteInstallation.Query().CountX(ctx))
}
