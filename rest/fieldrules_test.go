package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A field's limits are its ent validator's, and reach both APIs as the same
// error: /v1's 400 whose message starts with the member's name, and
// GraphQL's BAD_USER_INPUT with that name as extensions.field and the same
// message. One row per (resource, field, bad value), each a documented
// limit; each sends the bad value through both APIs, unless /v1 has no
// such operation or a limit of its own comes first. A few rules are not a
// column's: page fields live in a revision's document, and a translation's
// languages and instructions and an invite's emails are checked by the
// resolver; they are rows too, since a client sees them alike.
func TestFieldRulesInBothAPIs(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	org := e.Org.ID
	space, coll := e.space("Guide", ""), e.collection("Guides", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{space}})["id"].(string)
	siteBase := "/v1/orgs/" + org + "/sites/" + site
	toURL := map[string]any{"kind": "url", "url": "https://example.com/new"}
	sec := e.MustDo(http.MethodPost, siteBase+"/sections", e.OwnerToken, map[string]any{"spaceId": e.space("Blog", ""), "title": "Blog"},
		http.StatusCreated)["id"].(string)
	long := func(n int) string { return strings.Repeat("a", n) }
	ids := func(n, size int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = long(size)
		}
		return out
	}
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	var d map[string]any
	e.GraphQL(e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "title": "Intro", "markdown": "Hello."}}).Into(t, &d)
	pageID := ctAt(d, "createPage", "page", "id").(string)
	// An installation of an integration that selects the space.
	e.MustDo(http.MethodPost, "/v1/integrations/rules-tool", e.OwnerToken,
		map[string]any{"organization": org, "title": "Rules", "description": "", "script": "x", "scopes": []string{}}, http.StatusOK)
	e.GraphQL(e.OwnerToken, `mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation { id } } }`,
		map[string]any{"in": map[string]any{"integrationName": "rules-tool", "organizationId": org, "spaceSelection": "SELECTED",
			"spaces": []string{space}}}).Into(t, &d)
	installation := ctAt(d, "installIntegration", "installation", "id").(string)
	spaceInstallation := "/v1/integrations/rules-tool/installations/" + installation + "/spaces/" + space

	type call struct {
		method, path string
		body         map[string]any
	}
	rows := []struct {
		resource, field, bad string
		// rest is the /v1 request; none when /v1 has no such operation.
		rest call
		// restStatus is what /v1 answers when a limit of its own comes
		// first (0: the rule's 400).
		restStatus int
		// mutation is the GraphQL field; input its argument.
		mutation, inputType string
		input               map[string]any
	}{
		{resource: "organization", field: "title", bad: "1 character",
			rest:     call{http.MethodPatch, "/v1/orgs/" + org, map[string]any{"title": "x"}},
			mutation: "updateOrganization", inputType: "UpdateOrganizationInput", input: map[string]any{"id": org, "title": "x"}},
		{resource: "collection", field: "title", bad: "51 characters",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/collections", map[string]any{"title": long(51)}},
			mutation: "createCollection", inputType: "CreateCollectionInput", input: map[string]any{"organizationId": org, "title": long(51)}},
		{resource: "collection", field: "description", bad: "101 characters",
			rest:     call{http.MethodPatch, "/v1/collections/" + coll, map[string]any{"description": long(101)}},
			mutation: "updateCollection", inputType: "UpdateCollectionInput", input: map[string]any{"id": coll, "description": long(101)}},
		{resource: "space", field: "title", bad: "51 characters",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/spaces", map[string]any{"title": long(51)}},
			mutation: "createSpace", inputType: "CreateSpaceInput", input: map[string]any{"organizationId": org, "title": long(51)}},
		{resource: "change request", field: "subject", bad: "101 characters",
			rest:     call{http.MethodPost, "/v1/spaces/" + space + "/change-requests", map[string]any{"subject": long(101)}},
			mutation: "createChangeRequest", inputType: "CreateChangeRequestInput", input: map[string]any{"spaceId": space, "subject": long(101)}},
		{resource: "comment", field: "markdown", bad: "blank",
			rest:     call{http.MethodPost, "/v1/spaces/" + space + "/comments", map[string]any{"body": map[string]any{"markdown": "  "}}},
			mutation: "postComment", inputType: "PostCommentInput", input: map[string]any{"spaceId": space, "markdown": "  "}},
		{resource: "team", field: "title", bad: "65 characters",
			rest:     call{http.MethodPut, "/v1/orgs/" + org + "/teams", map[string]any{"title": long(65)}},
			mutation: "createTeam", inputType: "CreateTeamInput", input: map[string]any{"organizationId": org, "title": long(65)}},
		{resource: "SAML provider", field: "label", bad: "31 characters",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/saml", map[string]any{"label": long(31)}},
			mutation: "createSAMLProvider", inputType: "CreateSAMLProviderInput", input: map[string]any{"organizationId": org, "label": long(31)}},
		{resource: "site", field: "title", bad: "1 character",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/sites", map[string]any{"title": "x"}},
			mutation: "createSite", inputType: "CreateSiteInput", input: map[string]any{"organizationId": org, "title": "x"}},
		{resource: "site", field: "proxy", bad: "a host without a path",
			rest:     call{http.MethodPatch, siteBase, map[string]any{"proxy": "company.com"}},
			mutation: "updateSite", inputType: "UpdateSiteInput", input: map[string]any{"id": site, "proxy": "company.com"}},
		{resource: "site", field: "basename", bad: "101 characters",
			rest:     call{http.MethodPatch, siteBase, map[string]any{"basename": long(101)}},
			mutation: "updateSite", inputType: "UpdateSiteInput", input: map[string]any{"id": site, "basename": long(101)}},
		{resource: "section", field: "title", bad: "1 character",
			rest:     call{http.MethodPatch, siteBase + "/sections/" + sec, map[string]any{"title": "x"}},
			mutation: "updateSiteSection", inputType: "UpdateSiteSectionInput", input: map[string]any{"id": sec, "title": "x"}},
		{resource: "section group", field: "title", bad: "101 characters",
			rest:     call{http.MethodPost, siteBase + "/section-groups", map[string]any{"title": long(101)}},
			mutation: "createSiteSectionGroup", inputType: "CreateSiteSectionGroupInput", input: map[string]any{"siteId": site, "title": long(101)}},
		{resource: "redirect", field: "source", bad: "no leading slash",
			rest:     call{http.MethodPost, siteBase + "/redirects", map[string]any{"source": "old", "destination": toURL}},
			mutation: "createSiteRedirect", inputType: "CreateSiteRedirectInput", input: map[string]any{"siteId": site, "source": "old", "destination": toURL}},
		{resource: "redirect", field: "source", bad: "513 characters",
			rest:     call{http.MethodPost, siteBase + "/redirects", map[string]any{"source": "/" + long(512), "destination": toURL}},
			mutation: "createSiteRedirect", inputType: "CreateSiteRedirectInput", input: map[string]any{"siteId": site, "source": "/" + long(512), "destination": toURL}},
		{resource: "share link", field: "name", bad: "51 characters",
			rest:     call{http.MethodPost, siteBase + "/share-links", map[string]any{"name": long(51)}},
			mutation: "createShareLink", inputType: "CreateShareLinkInput", input: map[string]any{"siteId": site, "name": long(51)}},
		{resource: "OpenAPI spec", field: "slug", bad: "upper case and a space",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/openapi", map[string]any{"slug": "Bad Slug", "source": map[string]any{"url": "https://example.com/a.json"}}},
			mutation: "createOpenAPISpec", inputType: "CreateOpenAPISpecInput",
			input: map[string]any{"organizationId": org, "slug": "Bad Slug", "source": map[string]any{"url": "https://example.com/a.json"}}},
		{resource: "OpenAPI spec", field: "source.url", bad: "not http",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/openapi", map[string]any{"slug": "api", "source": map[string]any{"url": "ftp://example.com/a.json"}}},
			mutation: "createOpenAPISpec", inputType: "CreateOpenAPISpecInput",
			input: map[string]any{"organizationId": org, "slug": "api", "source": map[string]any{"url": "ftp://example.com/a.json"}}},
		{resource: "webhook", field: "url", bad: "2049 characters",
			rest: call{http.MethodPost, "/v1/orgs/" + org + "/webhooks",
				map[string]any{"url": "https://example.com/" + long(2029), "eventTypes": []string{"comment.posted"}}},
			mutation: "createWebhookEndpoint", inputType: "CreateWebhookEndpointInput",
			input: map[string]any{"organizationId": org, "url": "https://example.com/" + long(2029), "eventTypes": []string{"COMMENT_POSTED"}}},
		{resource: "webhook", field: "description", bad: "257 characters",
			rest: call{http.MethodPost, "/v1/orgs/" + org + "/webhooks",
				map[string]any{"url": "https://example.com/hook", "eventTypes": []string{"comment.posted"}, "description": long(257)}},
			mutation: "createWebhookEndpoint", inputType: "CreateWebhookEndpointInput",
			input: map[string]any{"organizationId": org, "url": "https://example.com/hook", "eventTypes": []string{"COMMENT_POSTED"}, "description": long(257)}},
		{resource: "integration", field: "title", bad: "1 character",
			rest: call{http.MethodPost, "/v1/integrations/acme-tool",
				map[string]any{"organization": org, "title": "x", "description": "", "script": "x", "scopes": []string{}}},
			mutation: "publishIntegration", inputType: "PublishIntegrationInput",
			input: map[string]any{"name": "acme-tool", "organization": org, "title": "x", "description": "", "script": "x", "scopes": []string{}}},
		{resource: "integration", field: "description", bad: "101 characters",
			rest: call{http.MethodPost, "/v1/integrations/acme-tool",
				map[string]any{"organization": org, "title": "Acme", "description": long(101), "script": "x", "scopes": []string{}}},
			mutation: "publishIntegration", inputType: "PublishIntegrationInput",
			input: map[string]any{"name": "acme-tool", "organization": org, "title": "Acme", "description": long(101), "script": "x", "scopes": []string{}}},
		{resource: "integration", field: "name", bad: "a space",
			rest: call{http.MethodPost, "/v1/integrations/acme%20tool",
				map[string]any{"organization": org, "title": "Acme", "description": "", "script": "x", "scopes": []string{}}},
			mutation: "publishIntegration", inputType: "PublishIntegrationInput",
			input: map[string]any{"name": "acme tool", "organization": org, "title": "Acme", "description": "", "script": "x", "scopes": []string{}}},
		{resource: "translation", field: "title", bad: "101 characters",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/translations", map[string]any{"title": long(101)}},
			mutation: "createTranslationSettings", inputType: "CreateTranslationSettingsInput",
			input: map[string]any{"organizationId": org, "title": long(101)}},
		{resource: "translation", field: "languages", bad: "a repeat",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/translations", map[string]any{"title": "French", "languages": []string{"fr", "fr"}}},
			mutation: "createTranslationSettings", inputType: "CreateTranslationSettingsInput",
			input: map[string]any{"organizationId": org, "title": "French", "languages": []string{"FR", "FR"}}},
		{resource: "translation", field: "instructions", bad: "over 64 KiB",
			rest: call{http.MethodPost, "/v1/orgs/" + org + "/translations", map[string]any{"title": "French",
				"instructions": map[string]any{"object": "document", "data": map[string]any{"x": long(64 << 10)}, "nodes": []any{}}}},
			mutation: "createTranslationSettings", inputType: "CreateTranslationSettingsInput",
			input: map[string]any{"organizationId": org, "title": "French",
				"instructions": map[string]any{"object": "document", "data": map[string]any{"x": long(64 << 10)}, "nodes": []any{}}}},
		// Page content is edited through GraphQL alone.
		{resource: "page", field: "title", bad: "101 characters",
			mutation: "createPage", inputType: "CreatePageInput", input: map[string]any{"spaceId": space, "title": long(101)}},
		{resource: "page", field: "slug", bad: "upper case",
			mutation: "createPage", inputType: "CreatePageInput", input: map[string]any{"spaceId": space, "title": "Intro", "slug": "Intro"}},
		{resource: "page", field: "description", bad: "1001 characters",
			mutation: "createPage", inputType: "CreatePageInput",
			input: map[string]any{"spaceId": space, "title": "Intro", "description": long(1001)}},
		{resource: "page", field: "markdown", bad: "over 1 MiB",
			mutation: "setPageMarkdown", inputType: "SetPageMarkdownInput",
			input: map[string]any{"spaceId": space, "pageId": pageID, "markdown": long(1<<20 + 1)}},
		{resource: "invite", field: "emails", bad: "an address without a domain",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/invites", map[string]any{"emails": []string{"ann@localhost"}}},
			mutation: "inviteMembers", inputType: "InviteMembersInput",
			input: map[string]any{"organizationId": org, "emails": []map[string]any{{"email": "ann@localhost"}}}},
		{resource: "comment", field: "node", bad: "256 characters",
			rest: call{http.MethodPost, "/v1/spaces/" + space + "/comments",
				map[string]any{"body": map[string]any{"markdown": "Typo"}, "page": pageID, "node": long(256)}},
			mutation: "postComment", inputType: "PostCommentInput",
			input: map[string]any{"spaceId": space, "markdown": "Typo", "pageId": pageID, "nodeId": long(256)}},
		{resource: "space installation", field: "externalIds", bad: "6 IDs",
			rest:     call{http.MethodPatch, spaceInstallation, map[string]any{"externalIds": ids(6, 1)}},
			mutation: "updateIntegrationSpaceInstallation", inputType: "UpdateIntegrationSpaceInstallationInput",
			input: map[string]any{"installationId": installation, "spaceId": space, "externalIds": ids(6, 1)}},
		{resource: "space installation", field: "externalIds", bad: "an ID of 257 bytes",
			rest:     call{http.MethodPatch, spaceInstallation, map[string]any{"externalIds": ids(1, 257)}},
			mutation: "updateIntegrationSpaceInstallation", inputType: "UpdateIntegrationSpaceInstallationInput",
			input: map[string]any{"installationId": installation, "spaceId": space, "externalIds": ids(1, 257)}},
		// /v1 has no update of an installation itself.
		{resource: "installation", field: "externalIds", bad: "6 IDs",
			mutation: "updateIntegrationInstallation", inputType: "UpdateIntegrationInstallationInput",
			input: map[string]any{"id": installation, "externalIds": ids(6, 1)}},
		// Through /v1 the 1 MiB body limit comes first (docs/api/openapi-specs.md).
		{resource: "OpenAPI spec", field: "source.text", bad: "over 1 MiB",
			rest: call{http.MethodPost, "/v1/orgs/" + org + "/openapi",
				map[string]any{"slug": "big", "source": map[string]any{"text": long(1<<20 + 1)}}},
			restStatus: http.StatusRequestEntityTooLarge,
			mutation:   "createOpenAPISpec", inputType: "CreateOpenAPISpecInput",
			input: map[string]any{"organizationId": org, "slug": "big", "source": map[string]any{"text": long(1<<20 + 1)}}},
		{resource: "OpenAPI spec", field: "source.text", bad: "empty",
			rest:     call{http.MethodPost, "/v1/orgs/" + org + "/openapi", map[string]any{"slug": "empty", "source": map[string]any{"text": ""}}},
			mutation: "createOpenAPISpec", inputType: "CreateOpenAPISpecInput",
			input: map[string]any{"organizationId": org, "slug": "empty", "source": map[string]any{"text": ""}}},
	}
	for _, row := range rows {
		t.Run(row.resource+"/"+row.field+"/"+row.bad, func(t *testing.T) {
			msg := ""
			switch {
			case row.rest.method == "":
			case row.restStatus != 0:
				res := e.Do(row.rest.method, row.rest.path, e.OwnerToken, row.rest.body)
				require.Equal(t, row.restStatus, res.Status, string(res.Body))
			default:
				res := e.Do(row.rest.method, row.rest.path, e.OwnerToken, row.rest.body)
				require.Equal(t, http.StatusBadRequest, res.Status, string(res.Body))
				msg = res.ErrorMessage()
				assert.True(t, strings.HasPrefix(msg, row.field+": "), "/v1 names %s: %q", row.field, msg)
			}

			g := e.GraphQL(e.OwnerToken, "mutation($in: "+row.inputType+"!) { "+row.mutation+"(input: $in) { __typename } }",
				map[string]any{"in": row.input})
			require.NotEmpty(t, g.Errors, "GraphQL accepted %s", row.bad)
			assert.Equal(t, "BAD_USER_INPUT", g.Code(), g.Errors[0].Message)
			assert.Equal(t, row.field, g.Errors[0].Extensions["field"])
			if msg == "" {
				assert.True(t, strings.HasPrefix(g.Errors[0].Message, row.field+": "), g.Errors[0].Message)
			} else {
				assert.Equal(t, msg, g.Errors[0].Message, "the same message in both APIs")
			}
		})
	}
}

// A field's validator runs when the row is saved, inside the mutation's
// transaction: what the mutation changed before it is rolled back with it.
func TestFieldRuleRollsBackTheMutation(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	space := e.space("Guide", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{space}})["id"].(string)
	path := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	sec := e.MustDo(http.MethodPost, path+"/sections", e.OwnerToken, map[string]any{"spaceId": e.space("Blog", ""), "title": "Blog"},
		http.StatusCreated)["id"].(string)
	before := e.MustDo(http.MethodGet, path, e.OwnerToken, nil, http.StatusOK)

	// The default section is written before the site's row, whose proxy
	// its validator refuses.
	res := e.Do(http.MethodPatch, path, e.OwnerToken, map[string]any{"title": "Renamed", "defaultSiteSection": sec,
		"proxy": "company.com"})
	require.Equal(t, http.StatusBadRequest, res.Status, string(res.Body))
	assert.True(t, strings.HasPrefix(res.ErrorMessage(), "proxy: "), res.ErrorMessage())
	after := e.MustDo(http.MethodGet, path, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, before, after, "nothing of the refused update is kept")
}
