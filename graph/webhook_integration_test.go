package graph_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/webhook/deliver"
	"github.com/bindery/bindery/server/servertest"
)

// An integration's endpoint receives the events of the organizations where
// the integration is installed: only while the installation is active,
// for the spaces it covers, and for the event types its scopes allow; each
// delivery names the integration and the installation.
func TestWebhookIntegrationEndpoint(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	other := e.User("customer@example.com")
	otherOrg, err := graph.CreateOrganization(context.Background(), e.Client, "Customer", other.ID)
	require.NoError(t, err)
	otherTok := e.Token(other)
	gql := func(tok, q string, vars map[string]any) map[string]any {
		t.Helper()
		return lsGQL(t, e, tok, q, vars)
	}
	gql(e.OwnerToken, publishIntegration, publishInput(e.Org.ID, map[string]any{
		"scopes": []string{"SPACE_CONTENT_READ", "SPACE_METADATA_READ"}, "secrets": nil}))
	gql(otherTok, publishIntegration, publishInput(otherOrg.ID, map[string]any{"name": "theirs", "secrets": nil}))

	rc := newReceiver(t, e.Clock.Now, 200)
	hook := func(integration string, types ...string) *servertest.GQLResponse {
		return e.GraphQL(e.OwnerToken, `mutation($in: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $in) {
		  webhookEndpoint { id integration { name } } secret } }`, map[string]any{"in": map[string]any{"organizationId": e.Org.ID,
			"url": rc.srv.URL + "/hook", "eventTypes": types, "integration": integration}})
	}
	for _, c := range []struct {
		name, integration, field string
		types                    []string
	}{
		{"integrations receive no member events", "notify", "eventTypes", []string{"MEMBER_ADDED"}},
		{"site events need site:metadata:read", "notify", "eventTypes", []string{"SITE_PUBLISHED"}},
		{"an unknown integration", "nope", "integration", []string{"SPACE_CREATED"}},
		{"another organization's integration", "theirs", "integration", []string{"SPACE_CREATED"}},
	} {
		res := hook(c.integration, c.types...)
		assert.Equal(t, "BAD_USER_INPUT", res.Code(), c.name)
		if assert.NotEmpty(t, res.Errors, c.name) {
			assert.Equal(t, c.field, res.Errors[0].Extensions["field"], c.name)
		}
	}
	var created struct {
		CreateWebhookEndpoint struct {
			WebhookEndpoint struct {
				ID          string
				Integration struct{ Name string }
			}
			Secret string
		}
	}
	hook("notify", "SPACE_CREATED", "CHANGE_REQUEST_CREATED").Into(t, &created)
	rc.secret = created.CreateWebhookEndpoint.Secret
	assert.Equal(t, "notify", created.CreateWebhookEndpoint.WebhookEndpoint.Integration.Name)
	endpoint := created.CreateWebhookEndpoint.WebhookEndpoint.ID
	res := e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateWebhookEndpoint(input: {id: $id, eventTypes: [MEMBER_REMOVED]}) {
	  webhookEndpoint { id } } }`, map[string]any{"id": endpoint})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "an update keeps to the integration's scopes too")

	w := hookWorker(t, e, deliver.Options{})
	space := func(tok, org, title string) string {
		t.Helper()
		return lsAt(gql(tok, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { space { id } } }`,
			map[string]any{"in": map[string]any{"organizationId": org, "title": title}}), "createSpace.space.id").(string)
	}
	changeRequest := func(spaceID string) string {
		t.Helper()
		return lsAt(gql(otherTok, `mutation($s: ID!) { createChangeRequest(input: {spaceId: $s, subject: "Fix"}) {
		  changeRequest { id } } }`, map[string]any{"s": spaceID}), "createChangeRequest.changeRequest.id").(string)
	}

	selected := space(otherTok, otherOrg.ID, "Selected")
	assert.Equal(t, 0, drain(t, w), "not installed yet")
	install := gql(otherTok, `mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation { id status } } }`,
		map[string]any{"in": map[string]any{"integrationName": "notify", "organizationId": otherOrg.ID,
			"configuration": map[string]any{"channel": "#docs"}, "spaceSelection": "SELECTED", "spaces": []string{selected}}})
	installation := lsAt(install, "installIntegration.installation.id").(string)
	require.Equal(t, "ACTIVE", lsAt(install, "installIntegration.installation.status"))

	unselected := space(otherTok, otherOrg.ID, "Not selected")
	changeRequest(unselected)
	space(e.OwnerToken, e.Org.ID, "The publisher's own")
	assert.Equal(t, 0, drain(t, w), "spaces the installation does not cover, and an organization it is not installed in")

	cr := changeRequest(selected)
	require.Equal(t, 1, drain(t, w))
	got := rc.got()
	require.Len(t, got, 1)
	require.NoError(t, got[0].verified)
	ev := got[0].event
	assert.Equal(t, "change-request.created", ev.Type)
	assert.Equal(t, otherOrg.ID, ev.Organization)
	assert.Equal(t, "notify", ev.Integration)
	assert.Equal(t, installation, ev.Installation)
	assert.Equal(t, cr, ev.Data["object"].(map[string]any)["id"])

	gql(otherTok, `mutation($in: UpdateIntegrationInstallationInput!) { updateIntegrationInstallation(input: $in) {
	  installation { id } } }`, map[string]any{"in": map[string]any{"id": installation, "spaceSelection": "ALL"}})
	all := space(otherTok, otherOrg.ID, "Covered by all")
	require.Equal(t, 1, drain(t, w))
	last := rc.got()[len(rc.got())-1].event
	assert.Equal(t, "space.created", last.Type)
	assert.Equal(t, all, last.Data["object"].(map[string]any)["id"])

	// Unpublished, the integration's installations pause: nothing more.
	gql(e.OwnerToken, `mutation { unpublishIntegration(input: {name: "notify"}) { clientMutationId } }`, nil)
	space(otherTok, otherOrg.ID, "While paused")
	assert.Equal(t, 0, drain(t, w))
}

// An event's object is presented as an admin of the organization sees it,
// whoever made the change: a space a creator creates shows an admin's
// permissions.
func TestWebhookObjectAsAnAdminSeesIt(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	rc.register(e, "SPACE_CREATED")
	creator, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	made := lsGQL(t, e, creator, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { space { id permissions { admin } } } }`,
		map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": "A creator's"}})
	assert.Equal(t, false, lsAt(made, "createSpace.space.permissions.admin"), "the creator is no admin of it")
	require.Equal(t, 1, drain(t, hookWorker(t, e, deliver.Options{})))
	obj := rc.got()[0].event.Data["object"].(map[string]any)
	assert.Equal(t, "A creator's", obj["title"])
	assert.Equal(t, true, obj["permissions"].(map[string]any)["admin"], "presented to an admin")
}
