package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/secrets/rekey"
	"github.com/bindery/bindery/server/servertest"
)

const integrationSecret = "xoxb-9f1c-SECRET-never-shown"

const publishIntegration = `mutation($in: PublishIntegrationInput!) { publishIntegration(input: $in) {
  integration { id name version title visibility scopes categories permissions { admin install } owner { id }
    configurations urls { location } } clientMutationId } }`

func publishInput(org string, extra map[string]any) map[string]any {
	in := map[string]any{"name": "notify", "organization": org, "title": "Notify", "description": "Notifies",
		"scopes": []string{"SPACE_CONTENT_READ"}, "script": "export default {}", "visibility": "PUBLIC",
		"categories": []string{"COLLABORATION"}, "secrets": map[string]any{"API_TOKEN": integrationSecret},
		"configurations": map[string]any{"account": map[string]any{
			"properties": map[string]any{"channel": map[string]any{"type": "string"}, "verbose": map[string]any{"type": "boolean"}},
			"required":   []string{"channel"}}},
		"clientMutationId": "p1"}
	for k, v := range extra {
		in[k] = v
	}
	return map[string]any{"in": in}
}

// The whole scenario: an integration published with a secret and
// installed in another organization, configured step by step, then
// uninstalled; the secret is in no response, and stored only encrypted.
func TestIntegrationScenario(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	other := e.User("other@example.com")
	otherOrg, err := graph.CreateOrganization(ctx, e.Client, "Other", other.ID)
	require.NoError(t, err)
	otherTok := e.Token(other)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	var bodies []string
	gql := func(tok, q string, vars map[string]any) map[string]any {
		t.Helper()
		res := e.GraphQL(tok, q, vars)
		require.Empty(t, res.Errors, "%v", res.Errors)
		bodies = append(bodies, string(res.Data))
		var out map[string]any
		res.Into(t, &out)
		return out
	}

	p := gql(e.OwnerToken, publishIntegration, publishInput(e.Org.ID, nil))
	assert.EqualValues(t, 1, lsAt(p, "publishIntegration.integration.version"))
	assert.Equal(t, "p1", lsAt(p, "publishIntegration.clientMutationId"))
	assert.Equal(t, e.Org.ID, lsAt(p, "publishIntegration.integration.owner.id"))
	assert.Equal(t, []any{"SPACE_CONTENT_READ"}, lsAt(p, "publishIntegration.integration.scopes"))

	res := e.GraphQL(readTok, publishIntegration, publishInput(e.Org.ID, map[string]any{"name": "readers"}))
	assert.Equal(t, "FORBIDDEN", res.Code(), "a reader publishes nothing")
	res = e.GraphQL(e.OwnerToken, publishIntegration, publishInput(e.Org.ID, map[string]any{"title": "N"}))
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "title", res.Errors[0].Extensions["field"])

	install := `mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation {
	  id status spaceSelection spaces configuration integration { name } organization { id } urls { location } } } }`
	in := gql(otherTok, install, map[string]any{"in": map[string]any{"integrationName": "notify", "organizationId": otherOrg.ID,
		"configuration": map[string]any{"verbose": true}}})
	insID := lsAt(in, "installIntegration.installation.id").(string)
	assert.Equal(t, "PENDING", lsAt(in, "installIntegration.installation.status"), "channel is required")
	assert.Equal(t, "http://bindery.test/v1/integrations/notify/installations/"+insID, lsAt(in, "installIntegration.installation.urls.location"))
	res = e.GraphQL(otherTok, install, map[string]any{"in": map[string]any{"integrationName": "notify", "organizationId": otherOrg.ID}})
	assert.Equal(t, "CONFLICT", res.Code())

	update := `mutation($in: UpdateIntegrationInstallationInput!) { updateIntegrationInstallation(input: $in) { installation {
	  status configuration spaceSelection spaces selectedSpaces { id } } } }`
	res = e.GraphQL(otherTok, update, map[string]any{"in": map[string]any{"id": insID, "configuration": map[string]any{"channel": 3}}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "channel is a string")
	assert.Equal(t, "configuration", res.Errors[0].Extensions["field"])
	res = e.GraphQL(otherTok, update, map[string]any{"in": map[string]any{"id": insID, "configuration": map[string]any{"colour": "red"}}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "no such property")
	u := gql(otherTok, update, map[string]any{"in": map[string]any{"id": insID, "configuration": map[string]any{"channel": "#docs"}}})
	assert.Equal(t, "ACTIVE", lsAt(u, "updateIntegrationInstallation.installation.status"))
	res = e.GraphQL(e.OwnerToken, update, map[string]any{"in": map[string]any{"id": insID, "configuration": map[string]any{}}})
	assert.Equal(t, "FORBIDDEN", res.Code(), "the integration's admins read installations, and change none")
	res = e.GraphQL(readTok, update, map[string]any{"in": map[string]any{"id": insID, "configuration": map[string]any{}}})
	assert.Equal(t, "NOT_FOUND", res.Code())

	// Spaces: all of the organization's, or a selection of its own.
	sp := gql(otherTok, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { space { id } } }`,
		map[string]any{"in": map[string]any{"organizationId": otherOrg.ID, "title": "Theirs"}})
	spaceID := lsAt(sp, "createSpace.space.id").(string)
	u = gql(otherTok, update, map[string]any{"in": map[string]any{"id": insID}})
	assert.EqualValues(t, 1, lsAt(u, "updateIntegrationInstallation.installation.spaces"), "all: the organization's one space")
	u = gql(otherTok, update, map[string]any{"in": map[string]any{"id": insID, "spaceSelection": "SELECTED", "spaces": []string{spaceID}}})
	assert.Equal(t, []any{map[string]any{"id": spaceID}}, lsAt(u, "updateIntegrationInstallation.installation.selectedSpaces"))
	assert.EqualValues(t, 1, lsAt(u, "updateIntegrationInstallation.installation.spaces"))
	ownSpace := lsAt(gql(e.OwnerToken, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { space { id } } }`,
		map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": "Ours"}}), "createSpace.space.id")
	res = e.GraphQL(otherTok, update, map[string]any{"in": map[string]any{"id": insID, "spaces": []any{ownSpace}}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "another organization's space")

	listed := gql(otherTok, `query($org: ID!) { organization(id: $org) { installations { totalCount nodes { id status } } } }`,
		map[string]any{"org": otherOrg.ID})
	assert.EqualValues(t, 1, lsAt(listed, "organization.installations.totalCount"))
	byOwner := gql(e.OwnerToken, `{ integration(name: "notify") { version installations { totalCount nodes { id organization { id } } } } }`, nil)
	assert.EqualValues(t, 1, lsAt(byOwner, "integration.installations.totalCount"))
	node := gql(otherTok, `query($id: ID!) { node(id: $id) { ... on IntegrationInstallation { status } } }`, map[string]any{"id": insID})
	assert.Equal(t, "ACTIVE", lsAt(node, "node.status"))

	// A new version: the secret stays when not given.
	p = gql(e.OwnerToken, publishIntegration, publishInput(e.Org.ID, map[string]any{"secrets": nil}))
	assert.EqualValues(t, 2, lsAt(p, "publishIntegration.integration.version"))
	stored, err := e.Client.Integration.Query().Where(integration.Name("notify")).Only(ctx)
	require.NoError(t, err)
	v, err := rekey.OpenSecret(servertest.TestSecretKey, stored, "API_TOKEN")
	require.NoError(t, err)
	assert.Equal(t, integrationSecret, v)
	wrong, _ := secrets.NewKey()
	_, err = rekey.OpenSecret(wrong, stored, "API_TOKEN")
	assert.ErrorIs(t, err, secrets.ErrOpen, "the wrong key cannot decrypt")

	un := gql(otherTok, `mutation($in: UninstallIntegrationInput!) { uninstallIntegration(input: $in) { uninstalledInstallationId } }`,
		map[string]any{"in": map[string]any{"id": insID}})
	assert.Equal(t, insID, lsAt(un, "uninstallIntegration.uninstalledInstallationId"))

	// Every response, GraphQL and /v1, and the stored row, hold no secret.
	for _, path := range []string{"/v1/integrations/notify", "/v1/integrations", "/v1/integrations/notify/installations"} {
		r := e.Do(http.MethodGet, path, e.OwnerToken, nil)
		require.Equal(t, http.StatusOK, r.Status)
		bodies = append(bodies, string(r.Body))
	}
	for _, b := range bodies {
		assert.NotContains(t, b, integrationSecret)
	}
	assert.NotContains(t, stored.String(), integrationSecret, "ent's String hides the sensitive field")
	assertNotStored(t, e, integrationSecret)
}

// assertNotStored checks that no stored byte holds the value: the SQLite
// file and its WAL, or on PostgreSQL the text of every row of the
// integrations table (pg_dump need not be installed).
func assertNotStored(t *testing.T, e *servertest.Env, value string) {
	t.Helper()
	if servertest.IsPostgres() {
		rows, err := e.DB.SQL.Query(`SELECT t::text FROM integrations t`)
		require.NoError(t, err)
		defer rows.Close()
		n := 0
		for rows.Next() {
			var text string
			require.NoError(t, rows.Scan(&text))
			assert.NotContains(t, text, value)
			n++
		}
		require.NoError(t, rows.Err())
		require.Positive(t, n)
		return
	}
	var seq int
	var name, file string
	require.NoError(t, e.DB.SQL.QueryRow(`PRAGMA database_list`).Scan(&seq, &name, &file))
	_, err := e.DB.SQL.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	require.NoError(t, err)
	for _, f := range []string{file, file + "-wal"} {
		data, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		assert.False(t, bytes.Contains(data, []byte(value)), "%s holds the secret", f)
		assert.True(t, f != file || bytes.Contains(data, []byte("notify")), "the check reads the database file")
	}
}

// Without a key, a publish with secrets is refused with a clear error,
// and one without secrets works.
func TestIntegrationSecretsNeedAKey(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.SecretKey = "" })
	res := e.GraphQL(e.OwnerToken, publishIntegration, publishInput(e.Org.ID, nil))
	assert.Equal(t, "PRECONDITION_FAILED", res.Code())
	require.NotEmpty(t, res.Errors)
	assert.Contains(t, res.Errors[0].Message, "BINDERY_SECRET_KEY")
	r := e.Do(http.MethodPost, "/v1/integrations/notify", e.OwnerToken, map[string]any{"organization": e.Org.ID, "title": "Notify",
		"description": "", "script": "x", "scopes": []string{}, "secrets": map[string]string{"A": "b"}})
	assert.Equal(t, http.StatusPreconditionFailed, r.Status)
	p := lsGQL(t, e, e.OwnerToken, publishIntegration, publishInput(e.Org.ID, map[string]any{"secrets": nil}))
	assert.EqualValues(t, 1, lsAt(p, "publishIntegration.integration.version"))
	raw, err := json.Marshal(p)
	require.NoError(t, err)
	assert.Contains(t, string(raw), "notify")
}
