package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/openapi/openapitest"
	"github.com/bindery/bindery/internal/openapi/worker"
	"github.com/bindery/bindery/server/servertest"
)

// The parity test holds /v1 and GraphQL equal for every resource type and
// every kind of viewer, generically: every object a /v1 call returns is
// fetched with node(id:) (or space(id:, shareKey:)) with a selection built
// from the GraphQL schema, and every member both APIs have must be equal.
// Lists are compared both ways with the GraphQL connection of the same list.
// A new resource type is covered by adding its calls to the fixture.

// pyAliases are GraphQL fields whose /v1 member has another name.
var pyAliases = map[string]string{
	"commentCount": "comments", "changeRequestCount": "changeRequests",
	"openChangeRequestCount": "changeRequestsOpen", "draftChangeRequestCount": "changeRequestsDraft",
	"replyCount": "replies", "memberCount": "members", "spaceCount": "spaces",
	"siteSpaceCount": "siteSpaces",
	// An installation's selections, spelt as the official API spells them.
	"spaceSelection": "space_selection", "siteSelection": "site_selection",
}

// pyRESTOnly are /v1 members GraphQL has no field for, by object.
var pyRESTOnly = map[string][]string{
	"organization":   {"object", "defaultContent", "mergeRules", "trial"},
	"collection":     {"object"},
	"space":          {"object", "mergeRules"},
	"change-request": {"object"},
	"revision":       {"object", "pages", "files", "reusableContents", "git"},
	"user":           {"object"},
	// Reactions are a list of plain objects, which the selection leaves
	// out; TestCommentsInGraphQL and the /v1 tests hold them.
	"comment":       {"object", "reactions"},
	"comment-reply": {"object", "reactions"},
	"team":          {"object"},
	"invite":        {"object"},
	// /v1 shows a provider's unset settings as empty strings, GraphQL as
	// null; they are set in the fixture.
	"saml-provider":        {"object"},
	"translation-settings": {"object"},
	// GraphQL has no visibility (Bindery's specs are private), and the
	// errors are a list of plain objects, held by graph/openapi_test.go.
	"openapi-spec": {"object", "visibility", "lastProcessedErrors"},
	// A site's features are always empty: Bindery gates nothing on a plan.
	"site":          {"object", "features"},
	"site-section":  {"object"},
	"site-space":    {"object"},
	"site-redirect": {"object"},
	"share-link":    {"object"},
	// Groups do not nest: children repeats sections.
	"site-section-group": {"object", "children"},
	"webhook-endpoint":   {"object"},
	// External links are a list of plain objects, which the selection
	// leaves out; rest/integrations_test.go holds them.
	"integration": {"object", "externalLinks"},
	// target is {organization}, the installation's organization { id }.
	"integration-installation": {"object", "target"},
	// integration is the installation's integration's name, which
	// GraphQL shows under installation { integration { name } }.
	"integration-space-installation": {"object", "integration"},
	"integration-site-installation":  {"object", "integration"},
}

// pyAdminOnly are the fields only an admin (or, for a space's deploy key,
// an editor) may read, which every other viewer gets as an error; /v1
// shows the first in admins' operations of their own
// (getSitePublishingAuthById), and has no deploy keys.
var pyAdminOnly = map[string]bool{"Site.visitorAuthKey": true, "Space.gitDeployKey": true}

// pySelection builds the selection of a GraphQL type: its scalars and enums,
// an { id } for each related node (users whole, as /v1 embeds them), and
// nested plain objects (urls, permissions). Fields that take a required
// argument, connections and lists of plain objects are left out: lists have
// their own comparison.
func pySelection(s *ast.Schema, typeName string, depth int) string {
	var b strings.Builder
	for _, f := range s.Types[typeName].Fields {
		if strings.HasPrefix(f.Name, "__") || requiresArgs(f) || pyAdminOnly[typeName+"."+f.Name] {
			continue
		}
		t := s.Types[f.Type.Name()]
		name := f.Name
		if alias, ok := pyAliases[name]; ok {
			name = alias + ": " + f.Name
		}
		switch {
		case t.Kind == ast.Scalar || t.Kind == ast.Enum:
			b.WriteString(name + " ")
		case strings.HasSuffix(t.Name, "Connection"):
		case slices.Contains(t.Interfaces, "Node") && t.Name == "User" && depth > 0:
			b.WriteString(name + " { " + pySelection(s, t.Name, depth-1) + "} ")
		case slices.Contains(t.Interfaces, "Node"):
			b.WriteString(name + " { id } ")
		case f.Type.Elem != nil:
		case depth > 0:
			b.WriteString(name + " { " + pySelection(s, t.Name, depth-1) + "} ")
		}
	}
	return b.String()
}

func requiresArgs(f *ast.FieldDefinition) bool {
	for _, a := range f.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			return true
		}
	}
	return false
}

// pyCompare compares a GraphQL object with the /v1 object of the same
// resource and returns the /v1 members it compared. A GraphQL null matches an
// absent or null member; an object holding only an id matches a /v1 ID; enum
// values are compared in their /v1 spelling.
func pyCompare(t *testing.T, path string, gql, rest map[string]any, enums map[string]bool) []string {
	t.Helper()
	var compared []string
	for k, g := range gql {
		p := path + "." + k
		r, inREST := rest[k]
		if g == nil {
			assert.True(t, !inREST || r == nil, "%s: GraphQL null, /v1 %v", p, r)
			compared = append(compared, k)
			continue
		}
		if !inREST {
			continue // a member only GraphQL has
		}
		compared = append(compared, k)
		switch gv := g.(type) {
		case map[string]any:
			if id, ok := gv["id"]; ok && len(gv) == 1 {
				// A related node, which /v1 names by ID; an object of
				// /v1 that has only an id is compared as an object.
				if _, object := r.(map[string]any); !object {
					assert.Equal(t, id, r, "%s: GraphQL %v, /v1 %v", p, id, r)
					break
				}
			}
			rm, ok := r.(map[string]any)
			if assert.True(t, ok, "%s: GraphQL object, /v1 %v", p, r) {
				pyCompare(t, p, gv, rm, enums)
			}
		case []any:
			var ids []any
			for _, x := range gv {
				if m, ok := x.(map[string]any); ok && len(m) == 1 {
					ids = append(ids, m["id"])
				}
			}
			if len(ids) == len(gv) && len(gv) > 0 {
				// /v1 names related nodes by ID, or embeds them whole (a
				// section's site-spaces): their IDs are compared.
				if rs, ok := r.([]any); ok && len(rs) > 0 {
					if _, embedded := rs[0].(map[string]any); embedded {
						var restIDs []any
						for _, x := range rs {
							restIDs = append(restIDs, x.(map[string]any)["id"])
						}
						r = restIDs
					}
				}
				assert.Equal(t, ids, r, p)
			} else if rl, ok := r.([]any); ok && enums[k] {
				// A list of enum values, compared in their /v1 spelling.
				names := make([]any, len(rl))
				for i, x := range rl {
					xs, _ := x.(string)
					names[i] = enum.GQLName(xs)
				}
				assert.Equal(t, g, names, p)
			} else {
				assert.Equal(t, g, r, p)
			}
		case string:
			// enums holds field names, and a String field may share its
			// name with another type's enum field (a redirect's source and
			// destination kind): equal strings are equal either way, since
			// an enum's GraphQL spelling is never its /v1 one.
			if rs, _ := r.(string); enums[k] && gv != rs {
				assert.Equal(t, gv, enum.GQLName(rs), "%s: GraphQL %q, /v1 %q", p, gv, r)
			} else {
				assert.Equal(t, gv, r, p)
			}
		default:
			assert.Equal(t, g, r, p)
		}
	}
	return compared
}

// pyEnums returns the fields of the schema whose type is an enumeration.
func pyEnums(s *ast.Schema) map[string]bool {
	out := map[string]bool{}
	for _, def := range s.Types {
		for _, f := range def.Fields {
			if t := s.Types[f.Type.Name()]; t != nil && t.Kind == ast.Enum {
				out[f.Name] = true
				if alias, ok := pyAliases[f.Name]; ok {
					out[alias] = true // the name the selection gives it
				}
			}
		}
	}
	return out
}

// pyList is a /v1 list and the GraphQL connection of the same items.
type pyList struct {
	path     string // the /v1 path
	parent   string // the node holding the connection
	typeName string
	field    string // the connection, with its arguments
}

// pyViewer is a kind of viewer and what the fixture says they must see.
type pyViewer struct {
	name, token, shareKey string
	// nonEmpty are the lists (by /v1 path) that must hold items for them.
	nonEmpty []string
	// noEmail is true when no email but their own (email) may reach them.
	noEmail bool
	email   string
}

func TestParity(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	schema := gqlSchema()
	enums := pyEnums(schema)

	// The fixture: an organization with a collection its members see, a
	// guest-level collection holding a public space, a share-link space,
	// spaces at the top, change requests by a member, a deleted space.
	org := e.Org.ID
	e.MustDo(http.MethodPatch, "/v1/orgs/"+org, e.OwnerToken, map[string]any{
		"hostname": "acme", "emailDomains": []string{"acme.example"}, "defaultRole": "review",
		"logo": "https://cdn.example.com/acme.png", "sso": true,
	}, http.StatusOK)
	col := spCollection(t, e, e.OwnerToken, nil)
	e.MustDo(http.MethodPatch, "/v1/collections/"+col, e.OwnerToken, map[string]any{"description": "All the guides"}, http.StatusOK)
	guestCol := spCollection(t, e, e.OwnerToken, nil)
	e.MustDo(http.MethodPatch, "/v1/collections/"+guestCol, e.OwnerToken, map[string]any{"defaultLevel": nil}, http.StatusOK)
	handbook := spCreate(t, e, e.OwnerToken, "Handbook", &col)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+handbook, e.OwnerToken, map[string]any{
		"emoji": "🚀", "editMode": "live", "language": "pt-br", "icon": "https://cdn.example.com/h.png",
	}, http.StatusOK)
	top := spCreate(t, e, e.OwnerToken, "Top", nil)
	public := spCreate(t, e, e.OwnerToken, "Public", &guestCol)
	require.NoError(t, e.Client.Space.UpdateOneID(public).SetVisibility(enum.VisibilityPublic).Exec(ctx))
	shared := spCreate(t, e, e.OwnerToken, "Shared", nil)
	require.NoError(t, e.Client.Space.UpdateOneID(shared).SetVisibility(enum.VisibilityShareLink).Exec(ctx))
	require.NoError(t, e.Client.ShareLink.Create().SetSpaceID(shared).SetKey("sesame").Exec(ctx))
	gone := spCreate(t, e, e.OwnerToken, "Gone", &col)
	e.MustDo(http.MethodDelete, "/v1/spaces/"+gone, e.OwnerToken, nil, http.StatusNoContent)

	viewers := []pyViewer{{name: "owner", token: e.OwnerToken}}
	var editTok string
	for _, role := range enum.RoleValues() {
		tok, _ := e.Member(org, role, string(role)+"@acme.example")
		viewers = append(viewers, pyViewer{name: string(role), token: tok})
		if role == enum.RoleEdit {
			editTok = tok
		}
	}
	guestTok, _ := e.Member(org, "", "guest@acme.example")
	crs := map[string][]string{}
	for _, c := range []struct{ space, token string }{
		{handbook, e.OwnerToken}, {handbook, editTok}, {public, e.OwnerToken}, {shared, e.OwnerToken},
	} {
		cr := e.MustDo(http.MethodPost, "/v1/spaces/"+c.space+"/change-requests", c.token,
			map[string]any{"subject": "Fix typos"}, http.StatusCreated)
		crs[c.space] = append(crs[c.space], cr["id"].(string))
	}
	viewers = append(viewers,
		pyViewer{name: "guest", token: guestTok},
		pyViewer{name: "stranger", token: e.Token(e.User("stranger@else.example")), noEmail: true,
			email: "stranger@else.example"},
		pyViewer{name: "share-key reader", token: e.Token(e.User("friend@else.example")), shareKey: "sesame",
			noEmail: true, email: "friend@else.example"},
		pyViewer{name: "anonymous"},
	)
	members := []string{"/v1/orgs/" + org + "/spaces", "/v1/orgs/" + org + "/collections",
		"/v1/collections/" + col + "/spaces", "/v1/collections/" + guestCol + "/spaces",
		"/v1/spaces/" + handbook + "/change-requests", "/v1/spaces/" + public + "/change-requests"}
	for i := range viewers {
		switch viewers[i].name {
		case "owner", "admin", "create", "review", "edit", "comment", "read":
			viewers[i].nonEmpty = members
		case "guest", "stranger":
			viewers[i].nonEmpty = []string{"/v1/orgs/" + org + "/spaces", "/v1/spaces/" + public + "/change-requests"}
		}
	}

	lists := []pyList{
		{"/v1/orgs/" + org + "/spaces", org, "Organization", "spaces(first: 1000)"},
		{"/v1/orgs/" + org + "/collections", org, "Organization", "collections(first: 1000)"},
		{"/v1/collections/" + col + "/spaces", col, "Collection", "spaces(first: 1000)"},
		{"/v1/collections/" + guestCol + "/spaces", guestCol, "Collection", "spaces(first: 1000)"},
	}
	objects := []string{"/v1/orgs/" + org, "/v1/collections/" + col, "/v1/collections/" + guestCol, "/v1/user"}
	// Members and teams: a team with the editor, with a role on the
	// handbook.
	team := e.MustDo(http.MethodPut, "/v1/orgs/"+org+"/teams", e.OwnerToken,
		map[string]any{"title": "Writers", "members": []string{userOf(t, e, editTok)}}, http.StatusCreated)["id"].(string)
	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($t: ID!, $s: ID!) { setTeamContentRole(input: {teamId: $t, contentId: $s,
	  role: ADMIN}) { team { id } } }`, map[string]any{"t": team, "s": handbook}).Errors)
	// Members are named by their users' IDs, which node(id:) resolves to
	// users: their lists are compared in rest/members_test.go and
	// graph/member_test.go instead.
	lists = append(lists, pyList{"/v1/orgs/" + org + "/teams", org, "Organization", "teams(first: 1000)"})
	objects = append(objects, "/v1/orgs/"+org+"/teams/"+team)
	// Invite links and a SAML provider with the team as its default: their
	// admins see them, everyone else gets a 404 for one and a 403 or 404
	// for the list.
	for _, role := range []any{"comment", nil} {
		inv := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/link-invites", e.OwnerToken, map[string]any{"role": role},
			http.StatusCreated)["id"].(string)
		objects = append(objects, "/v1/orgs/"+org+"/link-invites/"+inv)
	}
	saml := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/saml", e.OwnerToken, map[string]any{"label": "Okta",
		"ssoURL": "https://idp.example.com/sso", "entityID": "https://idp.example.com", "certificate": servertest.Certificate(t),
		"defaultTeam": team, "defaultRole": "edit"}, http.StatusCreated)["id"].(string)
	objects = append(objects, "/v1/orgs/"+org+"/saml/"+saml)
	lists = append(lists, pyList{"/v1/orgs/" + org + "/link-invites", org, "Organization", "invites(first: 1000)"},
		pyList{"/v1/orgs/" + org + "/saml", org, "Organization", "samlProviders(first: 1000)"})
	// Translation settings: members with a role see them, admins edit them.
	for _, title := range []string{"Docs", "Blog"} {
		tr := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/translations", e.OwnerToken,
			map[string]any{"title": title, "languages": []string{"fr", "pt-br"}}, http.StatusCreated)["id"].(string)
		objects = append(objects, "/v1/orgs/"+org+"/translations/"+tr)
	}
	lists = append(lists, pyList{"/v1/orgs/" + org + "/translations", org, "Organization", "translationSettings(first: 1000)"})
	// OpenAPI specs, processed by the worker: one with a version, one that
	// failed, one not processed yet.
	for slug, text := range map[string]string{"pets": openapitest.V30, "broken": openapitest.Unparsable} {
		e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/openapi", e.OwnerToken, map[string]any{"slug": slug, "source": map[string]any{"text": text}},
			http.StatusCreated)
		objects = append(objects, "/v1/orgs/"+org+"/openapi/"+slug)
	}
	w := worker.New(e.DB.Client, worker.Options{Now: e.Clock.Now})
	for did := true; did; {
		var err error
		did, err = w.Step(context.Background())
		require.NoError(t, err)
	}
	e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/openapi", e.OwnerToken, map[string]any{"slug": "later",
		"source": map[string]any{"url": "https://api.example.com/openapi.json"}}, http.StatusCreated)
	objects = append(objects, "/v1/orgs/"+org+"/openapi/later")
	lists = append(lists, pyList{"/v1/orgs/" + org + "/openapi", org, "Organization", "openAPISpecs(first: 1000)"})
	// Webhook endpoints: their organization's admins only. Deliveries are
	// held by graph/webhook_test.go and rest/webhooks_test.go.
	for _, types := range [][]string{{"space.created", "change-request.merged"}, {"site.published"}} {
		hook := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/webhooks", e.OwnerToken, map[string]any{
			"url": "https://hooks.example.com/bindery", "eventTypes": types, "description": "Parity"}, http.StatusCreated)["id"].(string)
		objects = append(objects, "/v1/orgs/"+org+"/webhooks/"+hook)
	}
	lists = append(lists, pyList{"/v1/orgs/" + org + "/webhooks", org, "Organization", "webhookEndpoints(first: 1000)"})
	// Sites: a published one with a proxy over two spaces, and an empty
	// one; members with a role see them, nobody else does.
	site := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites", e.OwnerToken, map[string]any{"title": "Docs",
		"spaces": []string{handbook, top}, "visibility": "unlisted"}, http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, "/v1/orgs/"+org+"/sites/"+site, e.OwnerToken, map[string]any{"basename": "docs",
		"proxy": "acme.example/docs", "adaptiveContent": map[string]any{"enabled": true}}, http.StatusOK)
	e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/publish", e.OwnerToken, nil, http.StatusOK)
	empty := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites", e.OwnerToken, map[string]any{"type": "premium"},
		http.StatusCreated)["id"].(string)
	objects = append(objects, "/v1/orgs/"+org+"/sites/"+site, "/v1/orgs/"+org+"/sites/"+empty)
	lists = append(lists, pyList{"/v1/orgs/" + org + "/sites", org, "Organization", "sites(first: 1000)"})
	// Its structure: a section from the public space (the site-spaces at
	// its root move into a default section), with a condition.
	sec := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/sections", e.OwnerToken,
		map[string]any{"spaceId": public, "title": "Public"}, http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, "/v1/orgs/"+org+"/sites/"+site+"/sections/"+sec, e.OwnerToken,
		map[string]any{"condition": "visitor.claims.isBetaUser", "description": "For everyone", "icon": "gear"}, http.StatusOK)
	lists = append(lists, pyList{"/v1/orgs/" + org + "/sites/" + site + "/sections", site, "Site", "sections(first: 1000)"},
		pyList{"/v1/orgs/" + org + "/sites/" + site + "/site-spaces", site, "Site", "siteSpaces(first: 1000)"})
	// A section group holding that section.
	e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/section-groups", e.OwnerToken,
		map[string]any{"title": "Products", "icon": "box", "sections": []string{sec}}, http.StatusCreated)
	lists = append(lists, pyList{"/v1/orgs/" + org + "/sites/" + site + "/section-groups", site, "Site", "sectionGroups(first: 1000)"})
	// Its redirects: to the section, and to one of its site-spaces.
	ss := e.Walk(t, "/v1/orgs/"+org+"/sites/"+site+"/site-spaces", e.OwnerToken, 10)[0]
	e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/redirects", e.OwnerToken, map[string]any{"source": "/old/public",
		"destination": map[string]any{"kind": "site-section", "siteSectionId": sec}}, http.StatusCreated)
	e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/redirects", e.OwnerToken, map[string]any{"source": "/old/space",
		"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}}, http.StatusCreated)
	lists = append(lists, pyList{"/v1/orgs/" + org + "/sites/" + site + "/redirects", site, "Site", "redirects(first: 1000)"})
	// Its share links: a named one and an inactive one; its admins see
	// them, nobody else does.
	e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/share-links", e.OwnerToken, map[string]any{"name": "Partners"},
		http.StatusCreated)
	off := e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/sites/"+site+"/share-links", e.OwnerToken, map[string]any{"name": ""},
		http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, "/v1/orgs/"+org+"/sites/"+site+"/share-links/"+off, e.OwnerToken, map[string]any{"active": false},
		http.StatusOK)
	lists = append(lists, pyList{"/v1/orgs/" + org + "/sites/" + site + "/share-links", site, "Site", "shareLinks(first: 1000)"})
	// An integration, public, installed in the organization for two of
	// its spaces and the site, the handbook and the site configured: its
	// admins see the installation, its spaces and sites; everyone sees
	// the integration.
	e.MustDo(http.MethodPost, "/v1/integrations/parity", e.OwnerToken, map[string]any{"organization": org, "title": "Parity",
		"description": "Compares", "summary": "# Parity", "script": "export default {}", "scopes": []string{"space:content:read"},
		"visibility": "public", "categories": []string{"analytics"},
		"externalLinks": []any{map[string]any{"url": "https://example.com", "label": "Home"}},
		"configurations": map[string]any{
			"account": map[string]any{"properties": map[string]any{"team": map[string]any{"type": "string"}}},
			"space": map[string]any{"properties": map[string]any{"channel": map[string]any{"type": "string"}},
				"required": []string{"channel"}},
			"site": map[string]any{"properties": map[string]any{"theme": map[string]any{"type": "string"}}},
		}}, http.StatusOK)
	installation := e.MustDo(http.MethodPost, "/v1/integrations/parity/installations", e.OwnerToken, map[string]any{"organization": org},
		http.StatusCreated)["id"].(string)
	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($in: UpdateIntegrationInstallationInput!) {
	  updateIntegrationInstallation(input: $in) { installation { id } } }`, map[string]any{"in": map[string]any{"id": installation,
		"configuration": map[string]any{"team": "docs"}, "externalIds": []string{"acme"}, "spaceSelection": "SELECTED",
		"spaces": []string{handbook, top}, "siteSelection": "SELECTED", "sites": []string{site}}}).Errors)
	installed := "/v1/integrations/parity/installations/" + installation
	e.MustDo(http.MethodPatch, installed+"/spaces/"+handbook, e.OwnerToken, map[string]any{
		"configuration": map[string]any{"channel": "#handbook"}, "externalIds": []string{"hb"}}, http.StatusOK)
	e.MustDo(http.MethodPatch, installed+"/sites/"+site, e.OwnerToken, map[string]any{
		"configuration": map[string]any{"theme": "dark"}}, http.StatusOK)
	objects = append(objects, "/v1/integrations/parity", installed+"/spaces/"+handbook, installed+"/spaces/"+top,
		installed+"/sites/"+site)
	parityID := lsAt(lsGQL(t, e, e.OwnerToken, `{ integration(name: "parity") { id } }`, nil), "integration.id").(string)
	lists = append(lists, pyList{"/v1/integrations/parity/installations", parityID, "Integration", "installations(first: 1000)"},
		pyList{installed + "/spaces", installation, "IntegrationInstallation", "spaceInstallations(first: 1000)"},
		pyList{installed + "/sites", installation, "IntegrationInstallation", "siteInstallations(first: 1000)"})
	for _, s := range []string{handbook, top, public, shared, gone} {
		objects = append(objects, "/v1/spaces/"+s, "/v1/spaces/"+s+"/content")
		lists = append(lists, pyList{"/v1/spaces/" + s + "/change-requests", s, "Space", "changeRequests(first: 1000)"})
		for _, cr := range crs[s] {
			objects = append(objects, "/v1/spaces/"+s+"/change-requests/"+cr)
		}
	}
	for _, v := range viewers[1:] {
		objects = append(objects, "/v1/users/"+userOf(t, e, v.token))
	}
	// Discussions: on the main content (on a page of the handbook) and on
	// a change request of each space that has one, each with a reply and
	// reactions; one resolved.
	guide := lsAt(lsGQL(t, e, e.OwnerToken, `mutation($s: ID!) { createPage(input: {spaceId: $s, title: "Guide", markdown: "Hi"}) {
	  page { id } } }`, map[string]any{"s": handbook}), "createPage.page.id").(string)
	for _, s := range []string{handbook, public, shared} {
		bases := []string{"/v1/spaces/" + s + "/comments"}
		for _, cr := range crs[s] {
			bases = append(bases, "/v1/spaces/"+s+"/change-requests/"+cr+"/comments")
		}
		for i, base := range bases {
			body := map[string]any{"body": map[string]any{"markdown": "Is this **right**? @edit@acme.example"}}
			if s == handbook && i == 0 {
				body["page"], body["node"] = guide, "n1"
			}
			c := e.MustDo(http.MethodPost, base, e.OwnerToken, body, http.StatusOK)["id"].(string)
			// The editor comments in the handbook only: elsewhere they are
			// a reader (public) or nobody (shared).
			other := e.OwnerToken
			if s == handbook {
				other = editTok
			}
			e.MustDo(http.MethodPut, base+"/"+c, other, map[string]any{"addedReactions": []string{"👍"}, "resolved": i == 0},
				http.StatusOK)
			r := e.MustDo(http.MethodPost, base+"/"+c+"/replies", other, map[string]any{"body": map[string]any{"markdown": "Yes."}},
				http.StatusOK)["id"].(string)
			objects = append(objects, base+"/"+c, base+"/"+c+"/replies/"+r)
			parent, typ := s, "Space"
			if i > 0 {
				parent, typ = crs[s][i-1], "ChangeRequest"
			}
			lists = append(lists, pyList{base, parent, typ, "comments(first: 1000)"},
				pyList{base + "/" + c + "/replies", c, "Comment", "replies(first: 1000)"})
		}
	}

	for _, v := range viewers {
		t.Run(v.name, func(t *testing.T) {
			p := pyParity{t: t, e: e, v: v, schema: schema, enums: enums, shared: shared}
			for _, path := range objects {
				p.object(path)
			}
			for _, l := range lists {
				p.list(l)
			}
			if v.token != "" {
				assert.Greater(t, p.compared, 0, "nothing was compared")
			}
		})
	}
}

// gqlSchema returns the GraphQL schema, as the server serves it.
func gqlSchema() *ast.Schema {
	cfg := config.Default()
	cfg.SigningSecret = "schema-test-signing-secret-0123456789"
	return graph.New(ent.NewClient(), cfg).Schema().Schema()
}

// userOf returns the ID of a token's user.
func userOf(t *testing.T, e *servertest.Env, token string) string {
	t.Helper()
	if token == "" {
		return "usr_unknown"
	}
	return e.MustDo(http.MethodGet, "/v1/user", token, nil, http.StatusOK)["id"].(string)
}

// pyParity compares the two APIs for one viewer.
type pyParity struct {
	t        *testing.T
	e        *servertest.Env
	v        pyViewer
	schema   *ast.Schema
	enums    map[string]bool
	shared   string
	compared int
}

// get calls /v1 as the viewer, with the share key on the shared space.
func (p *pyParity) get(path string) *servertest.Response {
	if p.v.shareKey != "" && strings.HasPrefix(path, "/v1/spaces/"+p.shared) {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "shareKey=" + p.v.shareKey
	}
	res := p.e.Do(http.MethodGet, path, p.v.token, nil)
	p.checkEmails(path, res.Body)
	return res
}

// gql runs a query as the viewer and returns its data.
func (p *pyParity) gql(query string, vars map[string]any) map[string]any {
	g := p.e.GraphQL(p.v.token, query, vars)
	if p.v.token == "" {
		assert.Equal(p.t, "UNAUTHENTICATED", g.Code(), "GraphQL without a token")
		return nil
	}
	require.Empty(p.t, g.Errors, "%s: %s", query, g.Data)
	p.checkEmails(query, g.Data)
	var data map[string]any
	require.NoError(p.t, json.Unmarshal(g.Data, &data))
	return data
}

// pyEmail finds the emails a body shows.
var pyEmail = regexp.MustCompile(`"email":"([^"]*)"`)

// checkEmails holds a viewer who shares no organization with anyone to
// seeing no email but their own, in either API.
func (p *pyParity) checkEmails(what string, body []byte) {
	if !p.v.noEmail {
		return
	}
	for _, m := range pyEmail.FindAllStringSubmatch(string(body), -1) {
		assert.Equal(p.t, p.v.email, m[1], "%s shows someone's email to %s", what, p.v.name)
	}
}

// fetch reads an object through GraphQL, as the viewer.
func (p *pyParity) fetch(id, typeName string) map[string]any {
	sel := pySelection(p.schema, typeName, 2)
	if typeName == "Space" && p.v.shareKey != "" && id == p.shared {
		data := p.gql(`query($id: ID!, $key: String) { space(id: $id, shareKey: $key) { `+sel+` } }`,
			map[string]any{"id": id, "key": p.v.shareKey})
		out, _ := data["space"].(map[string]any)
		return out
	}
	data := p.gql(fmt.Sprintf(`query($id: ID!) { node(id: $id) { ... on %s { %s } } }`, typeName, sel), map[string]any{"id": id})
	out, _ := data["node"].(map[string]any)
	return out
}

// pyTypes maps /v1 object names to GraphQL types.
var pyTypes = map[string]string{"organization": "Organization", "collection": "Collection", "space": "Space",
	"change-request": "ChangeRequest", "revision": "Revision", "user": "User",
	"comment": "Comment", "comment-reply": "CommentReply", "team": "Team", "invite": "Invite", "saml-provider": "SAMLProvider",
	"translation-settings": "TranslationSettings", "openapi-spec": "OpenAPISpec",
	"site": "Site", "site-section": "SiteSection", "site-space": "SiteSpace", "site-section-group": "SiteSectionGroup",
	"site-redirect": "SiteRedirect", "share-link": "ShareLink", "webhook-endpoint": "WebhookEndpoint",
	"integration": "Integration", "integration-installation": "IntegrationInstallation",
	"integration-space-installation": "IntegrationSpaceInstallation", "integration-site-installation": "IntegrationSiteInstallation"}

// object compares what /v1 returns at path with the same object in GraphQL.
func (p *pyParity) object(path string) {
	t := p.t
	res := p.get(path)
	switch res.Status {
	case http.StatusUnauthorized:
		assert.Empty(t, p.v.token, "%s: 401 with a token", path)
		p.gql(`{ viewer { id } }`, nil)
		return
	case http.StatusNotFound:
		// What /v1 hides, GraphQL hides: node(id:) of the last ID is null.
		segs := strings.Split(path, "/")
		id := segs[len(segs)-1]
		if id == "content" {
			id = segs[len(segs)-2]
		}
		if len(segs) > 3 && segs[len(segs)-4] == "installations" {
			// An installation's space or site: the installation is hidden.
			id = segs[len(segs)-3]
		}
		if strings.Contains(id, "_") {
			data := p.gql(`query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
			assert.Nil(t, data["node"], "%s is a 404 in /v1 but GraphQL shows %s", path, id)
		}
		return
	}
	require.Equal(t, http.StatusOK, res.Status, "%s: %s", path, res.Body)
	body := res.JSON()
	object, _ := body["object"].(string)
	typeName := pyTypes[object]
	require.NotEmpty(t, typeName, "%s: unknown object %q", path, object)
	gql := p.fetchObject(body, typeName)
	if !assert.NotNil(t, gql, "%s: /v1 shows %s, GraphQL does not", path, pyKey(body)) {
		return
	}
	compared := pyCompare(t, path, gql, body, p.enums)
	done := map[string]bool{}
	for _, k := range append(compared, pyRESTOnly[object]...) {
		done[k] = true
	}
	for k := range body {
		assert.True(t, done[k], "%s: /v1 member %s of %s was not compared", path, k, object)
	}
	p.compared += len(compared)
}

// list compares a /v1 list with the GraphQL connection of the same items:
// the same IDs in the same order, each item equal.
func (p *pyParity) list(l pyList) {
	t := p.t
	res := p.get(l.path + "?limit=1000")
	if res.Status == http.StatusUnauthorized {
		return
	}
	query := fmt.Sprintf(`query($id: ID!) { node(id: $id) { ... on %s { items: %s { nodes { %s } } } } }`, l.typeName, l.field,
		pyKeyFields(p.schema, l.typeName, l.field))
	if res.Status == http.StatusForbidden {
		// The viewer sees the parent but may not list: so in GraphQL.
		assert.Equal(t, "FORBIDDEN", p.e.GraphQL(p.v.token, query, map[string]any{"id": l.parent}).Code(),
			"%s is a 403 in /v1", l.path)
		return
	}
	data := p.gql(query, map[string]any{"id": l.parent})
	node, _ := data["node"].(map[string]any)
	if res.Status == http.StatusNotFound {
		assert.Nil(t, node, "%s is a 404 in /v1 but GraphQL shows its parent", l.path)
		return
	}
	require.Equal(t, http.StatusOK, res.Status, "%s: %s", l.path, res.Body)
	var restIDs, gqlIDs []string
	for _, it := range res.JSON()["items"].([]any) {
		item := it.(map[string]any)
		restIDs = append(restIDs, pyKey(item))
		if gql := p.fetchObject(item, pyTypes[item["object"].(string)]); assert.NotNil(t, gql, "%s: item %s", l.path, pyKey(item)) {
			p.compared += len(pyCompare(t, l.path, gql, item, p.enums))
		}
	}
	if items, ok := node["items"].(map[string]any); assert.True(t, ok, "%s: GraphQL has no list", l.path) {
		for _, n := range items["nodes"].([]any) {
			gqlIDs = append(gqlIDs, pyKey(n.(map[string]any)))
		}
	}
	assert.Equal(t, restIDs, gqlIDs, "%s: the two lists differ", l.path)
	if slices.Contains(p.v.nonEmpty, l.path) {
		assert.NotEmpty(t, restIDs, "%s must list items for %s", l.path, p.v.name)
	}
}

// pyKey is what names an object in both APIs: its ID; an integration's
// name; the space or site of an installation's space or site (spaceId or
// siteId in GraphQL, space or site in /v1).
func pyKey(o map[string]any) string {
	for _, k := range []string{"id", "spaceId", "siteId", "space", "site", "name"} {
		if v, ok := o[k].(string); ok {
			return v
		}
	}
	return ""
}

// pyKeyFields is the selection that names the nodes of a connection of a
// type (see pyKey).
func pyKeyFields(s *ast.Schema, typeName, field string) string {
	name, _, _ := strings.Cut(field, "(")
	conn := s.Types[s.Types[typeName].Fields.ForName(name).Type.Name()]
	node := s.Types[conn.Fields.ForName("nodes").Type.Name()]
	for _, k := range []string{"id", "spaceId", "siteId"} {
		if node.Fields.ForName(k) != nil {
			return k
		}
	}
	return "id"
}

// fetchObject reads the object /v1 presented through GraphQL: by ID, an
// integration by its name, an installation's space or site through its
// installation.
func (p *pyParity) fetchObject(body map[string]any, typeName string) map[string]any {
	switch typeName {
	case "Integration":
		data := p.gql(`query($n: String!) { integration(name: $n) { `+pySelection(p.schema, typeName, 2)+` } }`,
			map[string]any{"n": body["name"]})
		out, _ := data["integration"].(map[string]any)
		return out
	case "IntegrationSpaceInstallation", "IntegrationSiteInstallation":
		field, arg, key := "spaceInstallation", "spaceId", "space"
		if typeName == "IntegrationSiteInstallation" {
			field, arg, key = "siteInstallation", "siteId", "site"
		}
		data := p.gql(fmt.Sprintf(`query($id: ID!, $t: ID!) { node(id: $id) { ... on IntegrationInstallation { %s(%s: $t) { %s } } } }`,
			field, arg, pySelection(p.schema, typeName, 2)), map[string]any{"id": body["installation"], "t": body[key]})
		node, _ := data["node"].(map[string]any)
		out, _ := node[field].(map[string]any)
		return out
	}
	return p.fetch(body["id"].(string), typeName)
}
