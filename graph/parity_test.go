package graph_test

import (
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// The GraphQL selections of the parity test: every field that /v1 also has.
const (
	ocParityOrganization = `id title createdAt emailDomains hostname type useCase communityType defaultRole sso ai inviteLinks plan
	  customHostname urls { location app logo }
	  permissions { view admin ownTeam createContent createOpenAPISpec ingestConversations viewBilling listMembers listTeams
	    listIntegrations listInstallations installIntegration }`
	ocParityCollection = `id title description defaultLevel organization { id } parent { id } urls { location app }
	  permissions { view admin viewInviteLinks create }`
	ocParitySpace = `id title emoji visibility createdAt updatedAt deletedAt editMode defaultLevel language
	  organization { id } parent { id } revision { id } urls { location app published public icon }
	  permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
	  comments: commentCount changeRequests: changeRequestCount
	  changeRequestsOpen: openChangeRequestCount changeRequestsDraft: draftChangeRequestCount`
)

// ocRESTOnly are the /v1 members GraphQL has no field for, by object.
var ocRESTOnly = map[string][]string{
	"organization": {"object", "defaultContent", "mergeRules", "trial"},
	"collection":   {"object"},
	"space":        {"object", "mergeRules"},
}

// ocEnumMembers hold enumerations: GraphQL spells their values in upper
// snake case.
var ocEnumMembers = map[string]bool{"type": true, "plan": true, "useCase": true, "communityType": true, "defaultRole": true,
	"defaultLevel": true, "visibility": true, "editMode": true, "language": true}

// ocParity compares a GraphQL object with the /v1 object of the same resource
// and returns the members compared. A GraphQL null is an absent or null /v1
// member; a GraphQL object holding only an id is a /v1 ID.
func ocParity(t *testing.T, path string, gql, rest map[string]any) []string {
	t.Helper()
	var compared []string
	for k, g := range gql {
		p := path + "." + k
		r, inREST := rest[k]
		switch gv := g.(type) {
		case nil:
			assert.True(t, !inREST || r == nil, "%s: GraphQL null, /v1 %v", p, r)
		case map[string]any:
			if id, ok := gv["id"]; ok && len(gv) == 1 {
				assert.Equal(t, id, r, "%s: GraphQL %v, /v1 %v", p, id, r)
				break
			}
			rm, ok := r.(map[string]any)
			if !assert.True(t, ok, "%s: GraphQL object, /v1 %v", p, r) {
				break
			}
			ocParity(t, p, gv, rm)
		case string:
			if ocEnumMembers[k] {
				rs, _ := r.(string)
				assert.Equal(t, gv, enum.GQLName(rs), "%s: GraphQL %q, /v1 %q", p, gv, r)
			} else {
				assert.Equal(t, gv, r, p)
			}
		default:
			assert.Equal(t, g, r, p)
		}
		compared = append(compared, k)
	}
	return compared
}

// checkParity fetches a resource through both APIs as the viewer and holds
// them equal.
func (e ocEnv) checkParity(t *testing.T, token, object, id, restPath, query, field string) {
	t.Helper()
	rest := e.MustDo(http.MethodGet, restPath, token, nil, http.StatusOK)
	require.Equal(t, object, rest["object"])
	gql := e.data(t, token, query, map[string]any{"id": id})[field].(map[string]any)
	compared := ocParity(t, object, gql, rest)
	sort.Strings(compared)
	// Every /v1 member must have been compared, except those GraphQL lacks.
	skip := map[string]bool{}
	for _, k := range ocRESTOnly[object] {
		skip[k] = true
	}
	for _, k := range compared {
		skip[k] = true
	}
	for k := range rest {
		assert.True(t, skip[k], "%s: /v1 member %s has no GraphQL counterpart in the parity test", object, k)
	}
	assert.GreaterOrEqual(t, len(compared), 8, "too few members compared: %v", compared)
}

// TestParity holds /v1 and GraphQL to the same values for an organization, a
// collection and spaces, seen by members of different roles.
func TestParity(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{
		"hostname": "acme", "emailDomains": []string{"acme.example"}, "defaultRole": "review",
		"logo": "https://cdn.example.com/acme.png", "sso": true, "ai": true, "inviteLinks": false,
	}, http.StatusOK)
	parent := e.collection(e.OwnerToken, e.Org.ID, "Parent", "")
	col := e.collection(e.OwnerToken, e.Org.ID, "Guides", parent)
	e.MustDo(http.MethodPatch, "/v1/collections/"+col, e.OwnerToken, map[string]any{"description": "All the guides", "defaultLevel": "edit"}, http.StatusOK)
	spc := e.space(e.OwnerToken, e.Org.ID, "Getting started", col)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+spc, e.OwnerToken, map[string]any{
		"emoji": "🚀", "defaultLevel": "comment", "editMode": "locked", "language": "pt-br",
	}, http.StatusOK)
	top := e.space(e.OwnerToken, e.Org.ID, "Top", "")
	gone := e.space(e.OwnerToken, e.Org.ID, "Gone", col)
	e.MustDo(http.MethodDelete, "/v1/spaces/"+gone, e.OwnerToken, nil, http.StatusNoContent)

	for _, v := range []struct {
		name, token string
	}{{"admin", e.OwnerToken}, {"creator", createTok}, {"reader", readTok}} {
		t.Run(v.name, func(t *testing.T) {
			e.checkParity(t, v.token, "organization", e.Org.ID, "/v1/orgs/"+e.Org.ID,
				`query($id: ID!) { organization(id: $id) { `+ocParityOrganization+` } }`, "organization")
			for _, id := range []string{parent, col} {
				e.checkParity(t, v.token, "collection", id, "/v1/collections/"+id,
					`query($id: ID!) { collection(id: $id) { `+ocParityCollection+` } }`, "collection")
			}
			for _, id := range []string{spc, top} {
				e.checkParity(t, v.token, "space", id, "/v1/spaces/"+id,
					`query($id: ID!) { space(id: $id) { `+ocParitySpace+` } }`, "space")
			}
		})
	}
	t.Run("deleted space", func(t *testing.T) {
		e.checkParity(t, e.OwnerToken, "space", gone, "/v1/spaces/"+gone,
			`query($id: ID!) { space(id: $id) { `+ocParitySpace+` } }`, "space")
	})
	t.Run("lists", func(t *testing.T) {
		// The items of /v1 lists are the objects GraphQL connections hold.
		rest := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/collections", readTok, nil, http.StatusOK)
		gql := e.data(t, readTok, `query($id: ID!) { organization(id: $id) { collections { nodes { `+ocParityCollection+` } } } }`,
			map[string]any{"id": e.Org.ID})
		nodes := gql["organization"].(map[string]any)["collections"].(map[string]any)["nodes"].([]any)
		items := rest["items"].([]any)
		require.Len(t, nodes, len(items))
		for i := range items {
			ocParity(t, fmt.Sprintf("collections[%d]", i), nodes[i].(map[string]any), items[i].(map[string]any))
		}
		rest = e.MustDo(http.MethodGet, "/v1/collections/"+col+"/spaces", readTok, nil, http.StatusOK)
		gql = e.data(t, readTok, `query($id: ID!) { collection(id: $id) { spaces { nodes { `+ocParitySpace+` } } } }`,
			map[string]any{"id": col})
		nodes = gql["collection"].(map[string]any)["spaces"].(map[string]any)["nodes"].([]any)
		items = rest["items"].([]any)
		require.Len(t, nodes, len(items))
		for i := range items {
			ocParity(t, fmt.Sprintf("spaces[%d]", i), nodes[i].(map[string]any), items[i].(map[string]any))
		}
	})
}
