package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// ocEnv is a test server with the shortcuts the organization, user and
// collection tests share.
type ocEnv struct {
	*servertest.Env
}

// newOCEnv starts a server on a fresh database.
func newOCEnv(t *testing.T) ocEnv {
	return ocEnv{servertest.New(t)}
}

// must runs an operation that must succeed and decodes its data into out.
func (e ocEnv) must(token, query string, vars map[string]any, out any) {
	e.T.Helper()
	res := e.GraphQL(token, query, vars)
	require.Equal(e.T, http.StatusOK, res.Status)
	require.Empty(e.T, res.Errors, "GraphQL errors of %s", query)
	if out != nil {
		require.NoError(e.T, json.Unmarshal(res.Data, out))
	}
}

// fails runs an operation that must fail with the code, and returns its
// first error's message.
func (e ocEnv) fails(t *testing.T, token, code, query string, vars map[string]any) string {
	t.Helper()
	res := e.GraphQL(token, query, vars)
	require.NotEmpty(t, res.Errors, "want %s, got data %s", code, res.Data)
	assert.Equal(t, code, res.Code(), "errors: %+v", res.Errors)
	return res.Errors[0].Message
}

// badInput runs an operation that must fail with BAD_USER_INPUT and returns
// its first error's extensions.field.
func (e ocEnv) badInput(t *testing.T, token, query string, vars map[string]any) string {
	t.Helper()
	res := e.GraphQL(token, query, vars)
	require.NotEmpty(t, res.Errors, "want BAD_USER_INPUT, got data %s", res.Data)
	require.Equal(t, "BAD_USER_INPUT", res.Code(), "errors: %+v", res.Errors)
	f, _ := res.Errors[0].Extensions["field"].(string)
	return f
}

// otherOrg creates a second organization owned by a new user and returns the
// organization's ID and its owner's token.
func (e ocEnv) otherOrg(email string) (orgID, token string) {
	e.T.Helper()
	u := e.User(email)
	o, err := graph.CreateOrganization(context.Background(), e.Client, "Other Org "+email, u.ID)
	require.NoError(e.T, err)
	return o.ID, e.Token(u)
}

const ocCreateCollection = `mutation($input: CreateCollectionInput!) {
  createCollection(input: $input) { collection { id title description defaultLevel parent { id } organization { id } } }
}`

// collection creates a collection with the token and returns its ID.
func (e ocEnv) collection(token, orgID, title, parent string) string {
	e.T.Helper()
	in := map[string]any{"organizationId": orgID, "title": title}
	if parent != "" {
		in["parentId"] = parent
	}
	var out struct {
		CreateCollection struct{ Collection struct{ ID string } }
	}
	e.must(token, ocCreateCollection, map[string]any{"input": in}, &out)
	return out.CreateCollection.Collection.ID
}

// space creates a space with the token and returns its ID.
func (e ocEnv) space(token, orgID, title, parent string) string {
	e.T.Helper()
	in := map[string]any{"organizationId": orgID, "title": title}
	if parent != "" {
		in["parentId"] = parent
	}
	var out struct {
		CreateSpace struct{ Space struct{ ID string } }
	}
	e.must(token, `mutation($input: CreateSpaceInput!) { createSpace(input: $input) { space { id } } }`, map[string]any{"input": in}, &out)
	return out.CreateSpace.Space.ID
}

// ocConn is a connection as the tests select it.
type ocConn struct {
	Edges []struct {
		Cursor string
		Node   struct{ ID string }
	}
	Nodes    []struct{ ID string }
	PageInfo struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
	TotalCount int
}

// ocConnFields selects an ocConn.
const ocConnFields = `edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount`

// conn runs a query and returns the connection at path in its data.
func (e ocEnv) conn(t *testing.T, token, query string, vars map[string]any, path ...string) ocConn {
	t.Helper()
	res := e.GraphQL(token, query, vars)
	require.Empty(t, res.Errors, "GraphQL errors")
	var v any
	require.NoError(t, json.Unmarshal(res.Data, &v))
	for _, p := range path {
		m, ok := v.(map[string]any)
		require.True(t, ok, "no %s in %s", p, res.Data)
		v = m[p]
	}
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var c ocConn
	require.NoError(t, json.Unmarshal(raw, &c))
	return c
}

// walk pages through a connection, forwards with first and after or
// backwards with last and before, checks every page, and returns the node IDs
// in list order. query must declare $first, $after, $last and $before.
func (e ocEnv) walk(t *testing.T, token, query string, vars map[string]any, size int, backward bool, path ...string) []string {
	t.Helper()
	var ids []string
	seen := map[string]bool{}
	var cursor *string
	total := -1
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "the walk does not end")
		v := map[string]any{}
		for k, x := range vars {
			v[k] = x
		}
		if backward {
			v["last"], v["before"] = size, cursor
		} else {
			v["first"], v["after"] = size, cursor
		}
		c := e.conn(t, token, query, v, path...)
		require.LessOrEqual(t, len(c.Edges), size)
		require.Len(t, c.Nodes, len(c.Edges))
		if total >= 0 {
			require.Equal(t, total, c.TotalCount, "totalCount changed during the walk")
		}
		total = c.TotalCount
		var page []string
		for i, edge := range c.Edges {
			require.Equal(t, edge.Node.ID, c.Nodes[i].ID, "edges and nodes differ")
			require.NotEmpty(t, edge.Cursor)
			require.False(t, seen[edge.Node.ID], "%s seen twice", edge.Node.ID)
			seen[edge.Node.ID] = true
			page = append(page, edge.Node.ID)
		}
		if len(c.Edges) > 0 {
			require.NotNil(t, c.PageInfo.StartCursor)
			require.NotNil(t, c.PageInfo.EndCursor)
			assert.Equal(t, c.Edges[0].Cursor, *c.PageInfo.StartCursor)
			assert.Equal(t, c.Edges[len(c.Edges)-1].Cursor, *c.PageInfo.EndCursor)
		}
		more := c.PageInfo.HasNextPage
		if backward {
			more = c.PageInfo.HasPreviousPage
			ids = append(page, ids...)
			cursor = c.PageInfo.StartCursor
			assert.Equal(t, pages > 0, c.PageInfo.HasNextPage, "hasNextPage of a backward page")
		} else {
			ids = append(ids, page...)
			cursor = c.PageInfo.EndCursor
			assert.Equal(t, pages > 0, c.PageInfo.HasPreviousPage, "hasPreviousPage of a forward page")
		}
		if !more {
			break
		}
		require.NotEmpty(t, page, "a page with more after it must not be empty")
	}
	require.Equal(t, total, len(ids), "totalCount differs from the nodes walked")
	return ids
}

const ocOrganizationFields = `id title createdAt updatedAt emailDomains hostname type defaultRole sso ai inviteLinks plan viewerRole
  urls { location app logo }
  permissions { view admin ownTeam createContent createOpenAPISpec ingestConversations viewBilling listMembers listTeams listIntegrations listInstallations installIntegration }`

// ocPerms is the organization permissions object with the named members
// true and all others false.
func ocPerms(trueMembers ...string) map[string]any {
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

func TestGraphQLViewer(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	second, err := graph.CreateOrganization(context.Background(), e.Client, "Second", e.Owner.ID)
	require.NoError(t, err)
	otherOrg, _ := e.otherOrg("other@example.com")
	e.Member(otherOrg, enum.RoleRead, "owner@example.com")
	e.otherOrg("third@example.com")

	const q = `{ viewer { id email displayName photoURL urls { location }
	  organizations(first: 10) { totalCount nodes { id viewerRole } } } }`
	res := e.GraphQL(e.OwnerToken, q, nil)
	require.Empty(t, res.Errors)
	servertest.AssertContains(t, map[string]any{"viewer": map[string]any{
		"id": e.Owner.ID, "email": "owner@example.com", "displayName": "owner", "photoURL": nil,
		"urls":          map[string]any{"location": "http://bindery.test/v1/users/" + e.Owner.ID},
		"organizations": map[string]any{"totalCount": 3},
	}}, ocDecode(t, res.Data))
	var out struct {
		Viewer struct {
			Organizations struct {
				Nodes []struct {
					ID         string
					ViewerRole *string
				}
			}
		}
	}
	res.Into(t, &out)
	roles := map[string]string{}
	for _, n := range out.Viewer.Organizations.Nodes {
		roles[n.ID] = *n.ViewerRole
	}
	assert.Equal(t, map[string]string{e.Org.ID: "ADMIN", second.ID: "ADMIN", otherOrg: "READ"}, roles)

	// The viewer is the same user as /v1/user.
	rest := e.MustDo(http.MethodGet, "/v1/user", e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, rest["id"], e.Owner.ID)

	for name, tok := range map[string]string{"without a token": "", "with a malformed token": "nope", "with a token of another scheme": "bnd_short"} {
		t.Run(name, func(t *testing.T) {
			res := e.GraphQL(tok, `{ viewer { id } }`, nil)
			assert.Equal(t, http.StatusUnauthorized, res.Status)
			assert.Equal(t, "UNAUTHENTICATED", res.Code())
		})
	}
	t.Run("another user's organizations are not readable", func(t *testing.T) {
		readTok, reader := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
		var out struct {
			Node struct {
				ID            string
				Organizations *struct{ TotalCount int }
			}
		}
		e.must(readTok, `query($id: ID!) { node(id: $id) { id ... on User { organizations { totalCount } } } }`, map[string]any{"id": e.Owner.ID}, &out)
		assert.Equal(t, e.Owner.ID, out.Node.ID)
		assert.Nil(t, out.Node.Organizations)
		res := e.GraphQL(readTok, `query($id: ID!) { node(id: $id) { ... on User { apiTokens { totalCount } } } }`, map[string]any{"id": e.Owner.ID})
		assert.Empty(t, res.Errors)
		assert.JSONEq(t, `{"node": {"apiTokens": null}}`, string(res.Data))
		e.must(readTok, `query($id: ID!) { node(id: $id) { id ... on User { organizations { totalCount } } } }`, map[string]any{"id": reader.ID}, &out)
		require.NotNil(t, out.Node.Organizations)
		assert.Equal(t, 1, out.Node.Organizations.TotalCount)
	})
}

// ocDecode decodes JSON into a generic value.
func ocDecode(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	return v
}

func TestGraphQLOrganization(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	guestTok, _ := e.Member(e.Org.ID, "", "guest@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	q := `query($id: ID!) { organization(id: $id) { ` + ocOrganizationFields + ` } }`
	vars := map[string]any{"id": e.Org.ID}

	for _, tc := range []struct {
		name  string
		token string
		role  any
		perms map[string]any
	}{
		{"admin", e.OwnerToken, "ADMIN", ocPerms("view", "admin", "ownTeam", "createContent", "createOpenAPISpec", "ingestConversations",
			"viewBilling", "listMembers", "listTeams", "listIntegrations", "listInstallations", "installIntegration")},
		{"creator", createTok, "CREATE", ocPerms("view", "ownTeam", "createContent", "createOpenAPISpec", "listMembers", "listTeams", "listIntegrations")},
		{"reader", readTok, "READ", ocPerms("view", "listMembers", "listTeams", "listIntegrations")},
		{"guest", guestTok, nil, ocPerms("view")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := e.GraphQL(tc.token, q, vars)
			require.Empty(t, res.Errors, "errors: %+v", res.Errors)
			servertest.AssertContains(t, map[string]any{"organization": map[string]any{
				"id": e.Org.ID, "title": "Acme Docs", "type": "BUSINESS", "plan": "ENTERPRISE_2024", "emailDomains": []any{},
				"hostname": nil, "defaultRole": nil, "sso": false, "ai": false, "inviteLinks": true, "viewerRole": tc.role,
				"urls":        map[string]any{"location": "http://bindery.test/v1/orgs/" + e.Org.ID, "logo": nil},
				"permissions": tc.perms,
			}}, ocDecode(t, res.Data))
		})
	}
	t.Run("of another organization", func(t *testing.T) {
		e.fails(t, e.OwnerToken, "NOT_FOUND", q, map[string]any{"id": otherOrg})
		e.fails(t, otherTok, "NOT_FOUND", q, vars)
	})
	t.Run("unknown", func(t *testing.T) {
		hidden := e.fails(t, e.OwnerToken, "NOT_FOUND", q, map[string]any{"id": otherOrg})
		missing := e.fails(t, e.OwnerToken, "NOT_FOUND", q, map[string]any{"id": "org_doesnotexist"})
		assert.Equal(t, missing, hidden)
	})
	t.Run("without a token", func(t *testing.T) {
		res := e.GraphQL("", q, vars)
		assert.Equal(t, http.StatusUnauthorized, res.Status)
		assert.Equal(t, "UNAUTHENTICATED", res.Code())
	})
}

const ocCreateOrganization = `mutation($title: String!) { createOrganization(input: {title: $title, clientMutationId: "m1"}) {
  clientMutationId organization { id title viewerRole permissions { admin } } } }`

func TestGraphQLCreateOrganization(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	lonely := e.User("lonely@example.com")
	lonelyTok := e.Token(lonely)

	var out struct {
		CreateOrganization struct {
			ClientMutationID string
			Organization     struct {
				ID, Title   string
				ViewerRole  string
				Permissions struct{ Admin bool }
			}
		}
	}
	e.must(lonelyTok, ocCreateOrganization, map[string]any{"title": "  Lonely Docs "}, &out)
	o := out.CreateOrganization
	assert.Equal(t, "m1", o.ClientMutationID)
	assert.Equal(t, "Lonely Docs", o.Organization.Title)
	assert.Equal(t, "ADMIN", o.Organization.ViewerRole)
	assert.True(t, o.Organization.Permissions.Admin)
	// The creator can use it at once, through both APIs.
	assert.Equal(t, []string{o.Organization.ID}, e.Walk(t, "/v1/orgs", lonelyTok, 10))
	e.MustDo(http.MethodPost, "/v1/orgs/"+o.Organization.ID+"/collections", lonelyTok, map[string]any{"title": "First"}, http.StatusCreated)
	// Others cannot see it.
	e.fails(t, e.OwnerToken, "NOT_FOUND", `query($id: ID!) { organization(id: $id) { id } }`, map[string]any{"id": o.Organization.ID})

	e.must(lonelyTok, ocCreateOrganization, map[string]any{"title": "éé"}, nil)
	e.must(lonelyTok, ocCreateOrganization, map[string]any{"title": strings.Repeat("é", 255)}, nil)
	for name, title := range map[string]string{"one character": "é", "blank": "   ", "256 characters": strings.Repeat("é", 256)} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, "title", e.badInput(t, lonelyTok, ocCreateOrganization, map[string]any{"title": title}))
		})
	}
	assert.Len(t, e.Walk(t, "/v1/orgs", lonelyTok, 10), 3, "a refused creation left an organization behind")
	t.Run("without a token", func(t *testing.T) {
		res := e.GraphQL("", ocCreateOrganization, map[string]any{"title": "Anonymous"})
		assert.Equal(t, "UNAUTHENTICATED", res.Code())
	})
}

const ocUpdateOrganization = `mutation($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { organization {
  ` + ocOrganizationFields + ` } } }`

func TestGraphQLUpdateOrganization(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	guestTok, _ := e.Member(e.Org.ID, "", "guest@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	in := func(fields map[string]any) map[string]any {
		fields["id"] = e.Org.ID
		return map[string]any{"input": fields}
	}
	updated := func(t *testing.T, fields map[string]any) map[string]any {
		t.Helper()
		res := e.GraphQL(e.OwnerToken, ocUpdateOrganization, in(fields))
		require.Empty(t, res.Errors, "errors: %+v", res.Errors)
		return ocDecode(t, res.Data).(map[string]any)["updateOrganization"].(map[string]any)["organization"].(map[string]any)
	}
	e.must(otherTok, ocUpdateOrganization, map[string]any{"input": map[string]any{"id": otherOrg, "hostname": "taken"}}, nil)

	t.Run("every field", func(t *testing.T) {
		o := updated(t, map[string]any{"title": " Acme Handbook ", "emailDomains": []string{"Example.COM", " example.com ", "docs.example.org"},
			"hostname": "acme", "defaultRole": "COMMENT", "logo": "https://cdn.example.com/l.png", "sso": true, "ai": true, "inviteLinks": false})
		servertest.AssertContains(t, map[string]any{"title": "Acme Handbook", "emailDomains": []string{"example.com", "docs.example.org"},
			"hostname": "acme", "defaultRole": "COMMENT", "sso": true, "ai": true, "inviteLinks": false,
			"urls": map[string]any{"logo": "https://cdn.example.com/l.png"}}, o)
		// /v1 sees the same.
		servertest.AssertContains(t, map[string]any{"title": "Acme Handbook", "hostname": "acme", "defaultRole": "comment",
			"emailDomains": []string{"example.com", "docs.example.org"}},
			e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, e.OwnerToken, nil, http.StatusOK))
	})
	t.Run("absent fields stay, null removes", func(t *testing.T) {
		o := updated(t, map[string]any{"hostname": nil, "defaultRole": nil, "logo": nil})
		servertest.AssertContains(t, map[string]any{"title": "Acme Handbook", "hostname": nil, "defaultRole": nil, "sso": true,
			"emailDomains": []string{"example.com", "docs.example.org"}, "urls": map[string]any{"logo": nil}}, o)
		o = updated(t, map[string]any{"emailDomains": []string{}})
		assert.Equal(t, []any{}, o["emailDomains"])
	})
	t.Run("limits", func(t *testing.T) {
		updated(t, map[string]any{"title": "éé", "hostname": strings.Repeat("h", 32)})
		updated(t, map[string]any{"title": strings.Repeat("é", 255), "hostname": "abc"})
		for name, tc := range map[string]struct {
			fields map[string]any
			field  string
		}{
			"title of 1 character":      {map[string]any{"title": "é"}, "title"},
			"title of 256 characters":   {map[string]any{"title": strings.Repeat("é", 256)}, "title"},
			"hostname of 2 characters":  {map[string]any{"hostname": "ab"}, "hostname"},
			"hostname of 33 characters": {map[string]any{"hostname": strings.Repeat("h", 33)}, "hostname"},
			"hostname off the pattern":  {map[string]any{"hostname": "acme_docs"}, "hostname"},
			"invalid email domain":      {map[string]any{"emailDomains": []string{"example"}}, "emailDomains"},
			"logo not a URL":            {map[string]any{"logo": "javascript:alert(1)"}, "logo"},
			"default site unknown":      {map[string]any{"defaultSiteId": "site_doesnotexist"}, "defaultContent"},
		} {
			t.Run(name, func(t *testing.T) {
				assert.Equal(t, tc.field, e.badInput(t, e.OwnerToken, ocUpdateOrganization, in(tc.fields)))
			})
		}
		o := updated(t, map[string]any{})
		assert.Equal(t, strings.Repeat("é", 255), o["title"])
		assert.Equal(t, "abc", o["hostname"])
	})
	t.Run("unknown role", func(t *testing.T) {
		res := e.GraphQL(e.OwnerToken, ocUpdateOrganization, in(map[string]any{"defaultRole": "OWNER"}))
		require.NotEmpty(t, res.Errors)
		assert.Contains(t, []string{"BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED"}, res.Code())
		res = e.GraphQL(e.OwnerToken, `mutation { updateOrganization(input: {id: "`+e.Org.ID+`", defaultRole: OWNER}) { organization { id } } }`, nil)
		require.NotEmpty(t, res.Errors)
	})
	t.Run("hostname taken", func(t *testing.T) {
		e.fails(t, e.OwnerToken, "CONFLICT", ocUpdateOrganization, in(map[string]any{"hostname": "taken"}))
	})
	t.Run("not an admin", func(t *testing.T) {
		e.fails(t, readTok, "FORBIDDEN", ocUpdateOrganization, in(map[string]any{"title": "Mine"}))
		e.fails(t, guestTok, "FORBIDDEN", ocUpdateOrganization, in(map[string]any{"title": "Mine"}))
	})
	t.Run("not visible", func(t *testing.T) {
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocUpdateOrganization, map[string]any{"input": map[string]any{"id": otherOrg, "title": "Mine"}})
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocUpdateOrganization, map[string]any{"input": map[string]any{"id": "org_doesnotexist", "title": "Mine"}})
		e.fails(t, otherTok, "NOT_FOUND", ocUpdateOrganization, in(map[string]any{"title": "Mine"}))
	})
	t.Run("without a token", func(t *testing.T) {
		assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocUpdateOrganization, in(map[string]any{"title": "Mine"})).Code())
	})
	assert.Equal(t, "Other Org other@example.com", e.MustDo(http.MethodGet, "/v1/orgs/"+otherOrg, otherTok, nil, http.StatusOK)["title"])
}

func TestGraphQLOrganizationConnections(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	var top, all, spaces []string
	for i := 0; i < 4; i++ {
		c := e.collection(e.OwnerToken, e.Org.ID, "Top", "")
		top = append(top, c)
		all = append(all, c)
		all = append(all, e.collection(e.OwnerToken, e.Org.ID, "Child", c))
		spaces = append(spaces, e.space(e.OwnerToken, e.Org.ID, "Space", c))
	}
	const cols = `query($id: ID!, $first: Int, $after: Cursor, $last: Int, $before: Cursor, $nested: Boolean) {
	  organization(id: $id) { collections(first: $first, after: $after, last: $last, before: $before, nested: $nested) { ` + ocConnFields + ` } } }`
	const spcs = `query($id: ID!, $first: Int, $after: Cursor, $last: Int, $before: Cursor) {
	  organization(id: $id) { spaces(first: $first, after: $after, last: $last, before: $before) { ` + ocConnFields + ` } } }`
	vars := map[string]any{"id": e.Org.ID}
	path := []string{"organization", "collections"}

	t.Run("collections forward and backward", func(t *testing.T) {
		rest := e.Walk(t, "/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken, 1000)
		assert.ElementsMatch(t, all, rest)
		for _, size := range []int{1, 3, len(all)} {
			assert.Equal(t, rest, e.walk(t, e.OwnerToken, cols, vars, size, false, path...), "first %d", size)
			assert.Equal(t, rest, e.walk(t, e.OwnerToken, cols, vars, size, true, path...), "last %d", size)
		}
		assert.Equal(t, rest, e.walk(t, readTok, cols, vars, 2, false, path...))
	})
	t.Run("top-level collections", func(t *testing.T) {
		v := map[string]any{"id": e.Org.ID, "nested": false}
		assert.Equal(t, top, e.walk(t, e.OwnerToken, cols, v, 3, false, path...))
		assert.Equal(t, top, e.walk(t, e.OwnerToken, cols, v, 3, true, path...))
	})
	t.Run("spaces", func(t *testing.T) {
		rest := e.Walk(t, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, 1000)
		assert.ElementsMatch(t, spaces, rest)
		assert.Equal(t, rest, e.walk(t, e.OwnerToken, spcs, vars, 3, false, "organization", "spaces"))
		assert.Equal(t, rest, e.walk(t, e.OwnerToken, spcs, vars, 3, true, "organization", "spaces"))
	})
	t.Run("a /v1 cursor works as after", func(t *testing.T) {
		page := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/collections?limit=3", e.OwnerToken, nil, http.StatusOK)
		restNext := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/collections?limit=3&page="+
			page["next"].(map[string]any)["page"].(string), e.OwnerToken, nil, http.StatusOK)
		c := e.conn(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": 3, "after": page["next"].(map[string]any)["page"]}, path...)
		var got, want []string
		for _, n := range c.Nodes {
			got = append(got, n.ID)
		}
		for _, it := range restNext["items"].([]any) {
			want = append(want, it.(map[string]any)["id"].(string))
		}
		assert.Equal(t, want, got)
		// And a GraphQL cursor works as a /v1 page.
		first := e.conn(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": 3}, path...)
		assert.Equal(t, page["next"].(map[string]any)["page"], *first.PageInfo.EndCursor)
	})
	t.Run("limits", func(t *testing.T) {
		e.must(e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": 1000}, nil)
		e.must(e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "last": 1000}, nil)
		assert.Equal(t, "first", e.badInput(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": 1001}))
		assert.Equal(t, "last", e.badInput(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "last": 1001}))
		e.badInput(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": -1})
		e.badInput(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": 1, "last": 1})
		e.badInput(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "after": "garbage"})
		spaceCursor := *e.conn(t, e.OwnerToken, spcs, map[string]any{"id": e.Org.ID, "first": 1}, "organization", "spaces").PageInfo.EndCursor
		e.badInput(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "after": spaceCursor})
	})
	t.Run("empty page", func(t *testing.T) {
		c := e.conn(t, e.OwnerToken, cols, map[string]any{"id": e.Org.ID, "first": 0}, path...)
		assert.Empty(t, c.Edges)
		assert.Equal(t, len(all), c.TotalCount)
		assert.False(t, c.PageInfo.HasNextPage)
		assert.Nil(t, c.PageInfo.EndCursor)
	})
}

func TestGraphQLNode(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, reader := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	outsider := e.User("other@example.com")
	col := e.collection(e.OwnerToken, e.Org.ID, "Guides", "")
	spc := e.space(e.OwnerToken, e.Org.ID, "Space", col)
	hiddenCol := e.collection(e.OwnerToken, e.Org.ID, "Hidden", "")
	e.must(e.OwnerToken, `mutation($id: ID!) { updateCollection(input: {id: $id, defaultLevel: null}) { collection { id } } }`, map[string]any{"id": hiddenCol}, nil)
	otherCol := e.collection(otherTok, otherOrg, "Theirs", "")
	otherSpc := e.space(otherTok, otherOrg, "Theirs", "")
	var tok struct {
		CreateAPIToken struct{ APIToken struct{ ID string } }
	}
	e.must(e.OwnerToken, `mutation { createAPIToken(input: {label: "ci"}) { apiToken { id } } }`, nil, &tok)
	tokenID := tok.CreateAPIToken.APIToken.ID

	const q = `query($id: ID!) { node(id: $id) { __typename id } }`
	for _, tc := range []struct {
		name, token, id, typename string
	}{
		{"organization", e.OwnerToken, e.Org.ID, "Organization"},
		{"collection", readTok, col, "Collection"},
		{"space", readTok, spc, "Space"},
		{"self", readTok, reader.ID, "User"},
		{"co-member", readTok, e.Owner.ID, "User"},
		{"own token", e.OwnerToken, tokenID, "APIToken"},
		{"hidden collection for an admin", e.OwnerToken, hiddenCol, "Collection"},
		{"collection of another organization", e.OwnerToken, otherCol, ""},
		{"space of another organization", e.OwnerToken, otherSpc, ""},
		{"another organization", e.OwnerToken, otherOrg, ""},
		{"user sharing no organization", e.OwnerToken, outsider.ID, ""},
		{"another user's token", readTok, tokenID, ""},
		{"guest-level collection for an editor", editTok, hiddenCol, ""},
		{"unknown", e.OwnerToken, "col_doesnotexist", ""},
		{"unknown prefix", e.OwnerToken, "zzz_doesnotexist", ""},
		{"not an ID", e.OwnerToken, "hello", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := e.GraphQL(tc.token, q, map[string]any{"id": tc.id})
			require.Empty(t, res.Errors, "node must not fail: %+v", res.Errors)
			if tc.typename == "" {
				assert.JSONEq(t, `{"node": null}`, string(res.Data))
				return
			}
			assert.JSONEq(t, `{"node": {"__typename": "`+tc.typename+`", "id": "`+tc.id+`"}}`, string(res.Data))
		})
	}
	t.Run("nodes", func(t *testing.T) {
		res := e.GraphQL(readTok, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
			map[string]any{"ids": []string{col, otherCol, spc, "spc_doesnotexist", e.Org.ID}})
		require.Empty(t, res.Errors)
		assert.JSONEq(t, `{"nodes": [{"id": "`+col+`"}, null, {"id": "`+spc+`"}, null, {"id": "`+e.Org.ID+`"}]}`, string(res.Data))
		ids := make([]string, 101)
		for i := range ids {
			ids[i] = col
		}
		e.badInput(t, readTok, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids})
	})
	t.Run("without a token", func(t *testing.T) {
		assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", q, map[string]any{"id": col}).Code())
	})
}

const (
	ocCreateToken = `mutation($label: String!, $expiresAt: DateTime) { createAPIToken(input: {label: $label, expiresAt: $expiresAt}) {
	  token apiToken { id label createdAt expiresAt lastUsedAt } } }`
	ocRevokeToken = `mutation($id: ID!) { revokeAPIToken(input: {id: $id}) { revokedAPITokenId } }`
	ocTokens      = `{ viewer { apiTokens(first: 100) { totalCount nodes { id label } } } }`
)

func TestGraphQLAPITokens(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")

	var created struct {
		CreateAPIToken struct {
			Token    string
			APIToken struct {
				ID, Label  string
				ExpiresAt  *string
				LastUsedAt *string
			}
		}
	}
	e.must(e.OwnerToken, ocCreateToken, map[string]any{"label": " deploy "}, &created)
	token, rec := created.CreateAPIToken.Token, created.CreateAPIToken.APIToken
	require.True(t, strings.HasPrefix(token, "bnd_"), token)
	assert.Equal(t, "deploy", rec.Label)
	assert.Nil(t, rec.ExpiresAt)
	assert.Nil(t, rec.LastUsedAt)

	// The new token works in both APIs, as its owner.
	assert.Equal(t, e.Owner.ID, e.MustDo(http.MethodGet, "/v1/user", token, nil, http.StatusOK)["id"])
	var viewer struct{ Viewer struct{ ID string } }
	e.must(token, `{ viewer { id } }`, nil, &viewer)
	assert.Equal(t, e.Owner.ID, viewer.Viewer.ID)

	// It is never shown again: not in the list, not by node, and the type
	// has no field for it.
	for _, q := range []string{ocTokens, `query($id: ID!) { node(id: $id) { ... on APIToken { id label lastUsedAt } } }`} {
		res := e.GraphQL(e.OwnerToken, q, map[string]any{"id": rec.ID})
		assert.Empty(t, res.Errors)
		assert.NotContains(t, string(res.Data), token[len("bnd_"):])
	}
	// Its use is recorded.
	var used struct {
		Viewer struct {
			APITokens struct {
				Nodes []struct {
					ID         string
					LastUsedAt *string
				}
			}
		}
	}
	e.must(e.OwnerToken, `{ viewer { apiTokens { nodes { id lastUsedAt } } } }`, nil, &used)
	for _, n := range used.Viewer.APITokens.Nodes {
		if n.ID == rec.ID {
			assert.NotNil(t, n.LastUsedAt, "lastUsedAt of a token just used")
		}
	}
	res := e.GraphQL(e.OwnerToken, `{ viewer { apiTokens { nodes { id token } } } }`, nil)
	require.NotEmpty(t, res.Errors)
	assert.Equal(t, "GRAPHQL_VALIDATION_FAILED", res.Code())
	var list struct {
		Viewer struct {
			APITokens struct {
				TotalCount int
				Nodes      []struct{ ID, Label string }
			}
		}
	}
	e.must(e.OwnerToken, ocTokens, nil, &list)
	assert.Equal(t, 2, list.Viewer.APITokens.TotalCount, "the harness's token and the new one")
	assert.Contains(t, list.Viewer.APITokens.Nodes, struct{ ID, Label string }{rec.ID, "deploy"})
	// Another user sees neither the list nor the token.
	e.must(readTok, ocTokens, nil, &list)
	assert.Equal(t, 1, list.Viewer.APITokens.TotalCount)
	res = e.GraphQL(readTok, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": rec.ID})
	assert.Empty(t, res.Errors)
	assert.JSONEq(t, `{"node": null}`, string(res.Data))

	t.Run("invalid input", func(t *testing.T) {
		assert.Equal(t, "label", e.badInput(t, e.OwnerToken, ocCreateToken, map[string]any{"label": strings.Repeat("é", 51)}))
		assert.Equal(t, "label", e.badInput(t, e.OwnerToken, ocCreateToken, map[string]any{"label": "  "}))
		assert.Equal(t, "expiresAt", e.badInput(t, e.OwnerToken, ocCreateToken, map[string]any{"label": "old", "expiresAt": "2001-01-01T00:00:00Z"}))
		e.badInput(t, e.OwnerToken, ocCreateToken, map[string]any{"label": "bad date", "expiresAt": "tomorrow"})
		e.must(e.OwnerToken, ocCreateToken, map[string]any{"label": strings.Repeat("é", 50), "expiresAt": "2999-01-01T00:00:00Z"}, nil)
	})
	t.Run("revoke", func(t *testing.T) {
		e.fails(t, readTok, "NOT_FOUND", ocRevokeToken, map[string]any{"id": rec.ID})
		e.MustDo(http.MethodGet, "/v1/user", token, nil, http.StatusOK)
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocRevokeToken, map[string]any{"id": "tok_doesnotexist"})

		var out struct {
			RevokeAPIToken struct{ RevokedAPITokenID string }
		}
		e.must(e.OwnerToken, ocRevokeToken, map[string]any{"id": rec.ID}, &out)
		assert.Equal(t, rec.ID, out.RevokeAPIToken.RevokedAPITokenID)
		e.MustDo(http.MethodGet, "/v1/user", token, nil, http.StatusUnauthorized)
		g := e.GraphQL(token, `{ viewer { id } }`, nil)
		assert.Equal(t, http.StatusUnauthorized, g.Status)
		assert.Equal(t, "UNAUTHENTICATED", g.Code())
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocRevokeToken, map[string]any{"id": rec.ID})
		// The other tokens still work.
		e.MustDo(http.MethodGet, "/v1/user", e.OwnerToken, nil, http.StatusOK)
	})
	t.Run("a token can revoke itself", func(t *testing.T) {
		e.must(e.OwnerToken, ocCreateToken, map[string]any{"label": "self"}, &created)
		self := created.CreateAPIToken
		e.must(self.Token, ocRevokeToken, map[string]any{"id": self.APIToken.ID}, nil)
		assert.Equal(t, "UNAUTHENTICATED", e.GraphQL(self.Token, `{ viewer { id } }`, nil).Code())
	})
	t.Run("without a token", func(t *testing.T) {
		assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocCreateToken, map[string]any{"label": "x"}).Code())
		assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocRevokeToken, map[string]any{"id": rec.ID}).Code())
	})
}
