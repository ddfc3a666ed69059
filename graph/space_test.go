package graph_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// spGQL is the shape the tests read a space in.
type spGQL struct {
	ID           string
	Title        string
	Emoji        string
	Visibility   string
	EditMode     *string
	DefaultLevel *string
	Language     *string
	DeletedAt    *string
	Organization *struct{ ID, Title string }
	Parent       *struct{ ID string }
	Revision     *struct {
		ID      string
		Message *string
	}
	Urls                    struct{ Location, App string }
	Permissions             map[string]any
	CommentCount            int
	ChangeRequestCount      int
	OpenChangeRequestCount  int
	DraftChangeRequestCount int
}

const spFields = `id title emoji visibility editMode defaultLevel language deletedAt
  organization { id title } parent { id } revision { id message } urls { location app }
  permissions { ` + spPermissionFields + ` }
  commentCount changeRequestCount openChangeRequestCount draftChangeRequestCount`

// spQuery reads a space through GraphQL.
func spQuery(t *testing.T, e *servertest.Env, tok, id string, shareKey *string) (*spGQL, *servertest.GQLResponse) {
	t.Helper()
	vars := map[string]any{"id": id}
	if shareKey != nil {
		vars["key"] = *shareKey
	}
	g := e.GraphQL(tok, `query($id: ID!, $key: String) { space(id: $id, shareKey: $key) { `+spFields+` } }`, vars)
	if len(g.Errors) > 0 {
		return nil, g
	}
	var out struct{ Space *spGQL }
	g.Into(t, &out)
	return out.Space, g
}

// spMutate runs a mutation with one input and returns the payload's space,
// or the response when it failed.
func spMutate(t *testing.T, e *servertest.Env, tok, name string, input map[string]any) (*spGQL, *servertest.GQLResponse) {
	t.Helper()
	g := e.GraphQL(tok, `mutation($in: `+strings.ToUpper(name[:1])+name[1:]+`Input!) { `+name+`(input: $in) { space { `+
		spFields+` } clientMutationId } }`, map[string]any{"in": input})
	if len(g.Errors) > 0 {
		return nil, g
	}
	var out map[string]struct {
		Space            *spGQL
		ClientMutationID *string
	}
	g.Into(t, &out)
	return out[name].Space, g
}

// spMustMutate is spMutate that requires success.
func spMustMutate(t *testing.T, e *servertest.Env, tok, name string, input map[string]any) *spGQL {
	t.Helper()
	s, g := spMutate(t, e, tok, name, input)
	require.Empty(t, g.Errors, "%s: %+v", name, g.Errors)
	return s
}

// spWantCode requires a failed mutation or query with the code.
func spWantCode(t *testing.T, g *servertest.GQLResponse, code string) {
	t.Helper()
	require.NotEmpty(t, g.Errors, "want %s", code)
	assert.Equal(t, code, g.Code(), "%+v", g.Errors)
}

func TestGraphQLSpaceFields(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	col := spCollection(t, e, e.OwnerToken, nil)
	id := spCreate(t, e, e.OwnerToken, "Handbook", &col)
	root := spCreate(t, e, e.OwnerToken, "Root", nil)
	for _, st := range []enum.ChangeRequestStatus{enum.ChangeRequestStatusOpen, enum.ChangeRequestStatusOpen,
		enum.ChangeRequestStatusDraft, enum.ChangeRequestStatusMerged, enum.ChangeRequestStatusArchived} {
		spAddChangeRequest(t, e, id, st)
	}
	spAddComment(t, e, id, enum.CommentStatusOpen)
	spAddComment(t, e, id, enum.CommentStatusOpen)
	spAddComment(t, e, id, enum.CommentStatusResolved)
	// A comment inside a change request is not a comment of the space.
	cr, err := e.Client.ChangeRequest.Query().First(ctx)
	require.NoError(t, err)
	require.NoError(t, e.Client.Comment.Create().SetSpaceID(id).SetChangeRequestID(cr.ID).SetBody("x").Exec(ctx))
	spAddChangeRequest(t, e, root, enum.ChangeRequestStatusDraft)

	t.Run("owner", func(t *testing.T) {
		s, g := spQuery(t, e, e.OwnerToken, id, nil)
		require.Empty(t, g.Errors)
		stored, err := e.Client.Space.Get(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, "Handbook", s.Title)
		assert.Equal(t, "PRIVATE", s.Visibility)
		assert.Equal(t, "INHERIT", *s.DefaultLevel)
		assert.Nil(t, s.DeletedAt)
		require.NotNil(t, s.Organization)
		assert.Equal(t, e.Org.ID, s.Organization.ID)
		assert.Equal(t, "Acme Docs", s.Organization.Title)
		require.NotNil(t, s.Parent)
		assert.Equal(t, col, s.Parent.ID)
		require.NotNil(t, s.Revision)
		assert.Equal(t, *stored.RevisionID, s.Revision.ID)
		assert.Equal(t, "http://bindery.test/v1/spaces/"+id, s.Urls.Location)
		assert.Equal(t, true, s.Permissions["admin"])
		assert.Equal(t, 2, s.CommentCount)
		assert.Equal(t, 5, s.ChangeRequestCount)
		assert.Equal(t, 2, s.OpenChangeRequestCount)
		assert.Equal(t, 1, s.DraftChangeRequestCount)

		r, g := spQuery(t, e, e.OwnerToken, root, nil)
		require.Empty(t, g.Errors)
		assert.Nil(t, r.Parent)
		assert.Equal(t, 1, r.ChangeRequestCount)
		assert.Equal(t, 1, r.DraftChangeRequestCount)
		assert.Zero(t, r.CommentCount)
	})
	t.Run("the same values as /v1", func(t *testing.T) {
		s, _ := spQuery(t, e, e.OwnerToken, id, nil)
		body := e.MustDo(http.MethodGet, "/v1/spaces/"+id, e.OwnerToken, nil, http.StatusOK)
		assert.Equal(t, body["revision"], s.Revision.ID)
		assert.Equal(t, body["parent"], s.Parent.ID)
		assert.Equal(t, body["organization"], s.Organization.ID)
		assert.Equal(t, body["permissions"], s.Permissions)
		for k, v := range map[string]int{"comments": s.CommentCount, "changeRequests": s.ChangeRequestCount,
			"changeRequestsOpen": s.OpenChangeRequestCount, "changeRequestsDraft": s.DraftChangeRequestCount} {
			assert.EqualValues(t, body[k], v, k)
		}
	})
	t.Run("a guest with a grant does not see the collection", func(t *testing.T) {
		tok, u := e.Member(e.Org.ID, "", "guest@example.com")
		require.NoError(t, e.Client.Collection.UpdateOneID(col).ClearDefaultLevel().Exec(ctx))
		require.NoError(t, e.Client.Space.UpdateOneID(id).SetDefaultLevel(enum.DefaultLevelRead).Exec(ctx))
		require.NoError(t, e.Client.ContentGrant.Create().SetSpaceID(id).SetUserID(u.ID).SetRole(enum.RoleComment).Exec(ctx))
		s, g := spQuery(t, e, tok, id, nil)
		require.Empty(t, g.Errors)
		assert.Nil(t, s.Parent, "the parent collection is hidden from the guest")
		assert.Equal(t, true, s.Permissions["comment"])
		assert.Equal(t, false, s.Permissions["edit"])
	})
	t.Run("unknown and hidden spaces", func(t *testing.T) {
		stranger := e.Token(e.User("stranger@example.com"))
		for _, c := range []struct{ tok, id string }{{e.OwnerToken, "spc_doesnotexist"}, {stranger, id}, {e.OwnerToken, "nonsense"}} {
			s, g := spQuery(t, e, c.tok, c.id, nil)
			assert.Nil(t, s)
			spWantCode(t, g, "NOT_FOUND")
			assert.JSONEq(t, `{"space": null}`, string(g.Data))
		}
	})
	t.Run("no token", func(t *testing.T) {
		g := e.GraphQL("", `{ space(id: "`+id+`") { id } }`, nil)
		assert.Equal(t, http.StatusUnauthorized, g.Status)
		spWantCode(t, g, "UNAUTHENTICATED")
	})
	t.Run("share key", func(t *testing.T) {
		require.NoError(t, e.Client.Space.UpdateOneID(root).SetVisibility(enum.VisibilityShareLink).Exec(ctx))
		require.NoError(t, e.Client.ShareLink.Create().SetSpaceID(root).SetKey("sesame").Exec(ctx))
		stranger := e.Token(e.User("stranger@example.com"))
		_, g := spQuery(t, e, stranger, root, nil)
		spWantCode(t, g, "NOT_FOUND")
		wrong := "wrong"
		_, g = spQuery(t, e, stranger, root, &wrong)
		spWantCode(t, g, "NOT_FOUND")
		key := "sesame"
		s, g := spQuery(t, e, stranger, root, &key)
		require.Empty(t, g.Errors)
		assert.Equal(t, "SHARE_LINK", s.Visibility)
		assert.Equal(t, true, s.Permissions["view"])
		assert.Equal(t, false, s.Permissions["access"])
		if assert.NotNil(t, s.Organization, "whoever sees a space sees who owns it") {
			assert.Equal(t, e.Org.ID, s.Organization.ID)
		}
		require.NotNil(t, s.Revision, "the key opens the content")
	})
}

func TestGraphQLSpaceCreateUpdate(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	col := spCollection(t, e, e.OwnerToken, nil)
	editor, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	reader, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")

	s := spMustMutate(t, e, e.OwnerToken, "createSpace", map[string]any{
		"organizationId": e.Org.ID, "title": strings.Repeat("日", 50), "emoji": strings.Repeat("🎉", 50),
		"parentId": col, "editMode": "LOCKED", "language": "JA", "clientMutationId": "m1",
	})
	assert.Equal(t, strings.Repeat("日", 50), s.Title)
	assert.Equal(t, strings.Repeat("🎉", 50), s.Emoji)
	assert.Equal(t, "LOCKED", *s.EditMode)
	assert.Equal(t, "JA", *s.Language)
	assert.Equal(t, col, s.Parent.ID)
	require.NotNil(t, s.Revision)
	id := s.ID

	for name, c := range map[string]struct {
		tok   string
		input map[string]any
		code  string
	}{
		"title over the limit":     {e.OwnerToken, map[string]any{"organizationId": e.Org.ID, "title": strings.Repeat("日", 51)}, "BAD_USER_INPUT"},
		"emoji over the limit":     {e.OwnerToken, map[string]any{"organizationId": e.Org.ID, "emoji": strings.Repeat("🎉", 51)}, "BAD_USER_INPUT"},
		"unknown edit mode":        {e.OwnerToken, map[string]any{"organizationId": e.Org.ID, "editMode": "FROZEN"}, "GRAPHQL_VALIDATION_FAILED"},
		"unknown input field":      {e.OwnerToken, map[string]any{"organizationId": e.Org.ID, "visibility": "PUBLIC"}, "GRAPHQL_VALIDATION_FAILED"},
		"unknown organization":     {e.OwnerToken, map[string]any{"organizationId": "org_doesnotexist"}, "NOT_FOUND"},
		"parent of another org":    {e.OwnerToken, map[string]any{"organizationId": e.Org.ID, "parentId": "col_doesnotexist"}, "BAD_USER_INPUT"},
		"editor at the top level":  {editor, map[string]any{"organizationId": e.Org.ID}, "FORBIDDEN"},
		"reader in the collection": {reader, map[string]any{"organizationId": e.Org.ID, "parentId": col}, "FORBIDDEN"},
	} {
		t.Run("create: "+name, func(t *testing.T) {
			_, g := spMutate(t, e, c.tok, "createSpace", c.input)
			spWantCode(t, g, c.code)
		})
	}

	s = spMustMutate(t, e, editor, "updateSpace", map[string]any{"id": id, "title": "Guide", "emoji": nil, "language": "EN"})
	assert.Equal(t, "Guide", s.Title)
	assert.Equal(t, "", s.Emoji)
	assert.Equal(t, "EN", *s.Language)
	s = spMustMutate(t, e, e.OwnerToken, "updateSpace", map[string]any{"id": id, "editMode": nil, "defaultLevel": nil})
	assert.Nil(t, s.EditMode)
	assert.Nil(t, s.DefaultLevel)
	assert.Equal(t, true, s.Permissions["admin"])
	s = spMustMutate(t, e, e.OwnerToken, "updateSpace", map[string]any{"id": id, "defaultLevel": "EDIT", "editMode": "LIVE"})
	assert.Equal(t, "EDIT", *s.DefaultLevel)

	for name, c := range map[string]struct {
		tok   string
		input map[string]any
		code  string
	}{
		"title over the limit":          {editor, map[string]any{"id": id, "title": strings.Repeat("日", 51)}, "BAD_USER_INPUT"},
		"emoji over the limit":          {editor, map[string]any{"id": id, "emoji": strings.Repeat("🎉", 51)}, "BAD_USER_INPUT"},
		"editor changes the edit mode":  {editor, map[string]any{"id": id, "editMode": "LOCKED"}, "FORBIDDEN"},
		"editor changes the level":      {editor, map[string]any{"id": id, "defaultLevel": "ADMIN"}, "FORBIDDEN"},
		"reader with the default level": {reader, map[string]any{"id": id, "title": "x", "defaultLevel": "READ"}, "FORBIDDEN"},
		"unknown space":                 {e.OwnerToken, map[string]any{"id": "spc_doesnotexist", "title": "x"}, "NOT_FOUND"},
		"unknown level":                 {e.OwnerToken, map[string]any{"id": id, "defaultLevel": "OWNER"}, "GRAPHQL_VALIDATION_FAILED"},
	} {
		t.Run("update: "+name, func(t *testing.T) {
			_, g := spMutate(t, e, c.tok, "updateSpace", c.input)
			spWantCode(t, g, c.code)
		})
	}
	// The reader edits now that the space's level says so.
	s = spMustMutate(t, e, reader, "updateSpace", map[string]any{"id": id, "title": "By the reader"})
	assert.Equal(t, "By the reader", s.Title)
}

func TestGraphQLSpaceDeleteRestore(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	editor, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	a := spCreate(t, e, e.OwnerToken, "A", nil)
	b := spCreate(t, e, e.OwnerToken, "B", nil)
	deletedQuery := `query($org: ID!) { organization(id: $org) { spaces(deleted: true) { totalCount nodes { id deletedAt } } } }`
	listDeleted := func(tok string) ([]string, *servertest.GQLResponse) {
		g := e.GraphQL(tok, deletedQuery, map[string]any{"org": e.Org.ID})
		if len(g.Errors) > 0 {
			return nil, g
		}
		var out struct {
			Organization struct {
				Spaces struct {
					TotalCount int
					Nodes      []struct {
						ID        string
						DeletedAt *string
					}
				}
			}
		}
		g.Into(t, &out)
		ids := []string{}
		for _, n := range out.Organization.Spaces.Nodes {
			require.NotNil(t, n.DeletedAt)
			ids = append(ids, n.ID)
		}
		assert.Equal(t, len(ids), out.Organization.Spaces.TotalCount)
		return ids, g
	}

	g := e.GraphQL(editor, `mutation($id: ID!) { deleteSpace(input: {id: $id}) { deletedSpaceId } }`, map[string]any{"id": a})
	spWantCode(t, g, "FORBIDDEN")
	g = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { deleteSpace(input: {id: $id, clientMutationId: "x"}) { deletedSpaceId clientMutationId } }`,
		map[string]any{"id": a})
	require.Empty(t, g.Errors)
	assert.JSONEq(t, `{"deleteSpace": {"deletedSpaceId": "`+a+`", "clientMutationId": "x"}}`, string(g.Data))

	ids, _ := listDeleted(e.OwnerToken)
	assert.Equal(t, []string{a}, ids)
	_, g = listDeleted(editor)
	spWantCode(t, g, "FORBIDDEN")
	s, g := spQuery(t, e, e.OwnerToken, a, nil)
	require.Empty(t, g.Errors)
	assert.NotNil(t, s.DeletedAt)
	_, g = spQuery(t, e, editor, a, nil)
	spWantCode(t, g, "NOT_FOUND")
	var live struct {
		Organization struct {
			Spaces struct{ Nodes []struct{ ID string } }
		}
	}
	e.GraphQL(e.OwnerToken, `query($org: ID!) { organization(id: $org) { spaces { nodes { id } } } }`,
		map[string]any{"org": e.Org.ID}).Into(t, &live)
	require.Len(t, live.Organization.Spaces.Nodes, 1)
	assert.Equal(t, b, live.Organization.Spaces.Nodes[0].ID)

	_, g = spMutate(t, e, e.OwnerToken, "updateSpace", map[string]any{"id": a, "title": "x"})
	spWantCode(t, g, "PRECONDITION_FAILED")
	_, g = spMutate(t, e, e.OwnerToken, "restoreSpace", map[string]any{"id": b})
	spWantCode(t, g, "CONFLICT")
	_, g = spMutate(t, e, editor, "restoreSpace", map[string]any{"id": a})
	spWantCode(t, g, "NOT_FOUND")

	e.Clock.Advance(graph.SpaceRetention - time.Minute)
	s = spMustMutate(t, e, e.OwnerToken, "restoreSpace", map[string]any{"id": a})
	assert.Nil(t, s.DeletedAt)
	ids, _ = listDeleted(e.OwnerToken)
	assert.Empty(t, ids)

	// A space deleted longer ago than the retention period is gone.
	mustDelete := func(id string) {
		g := e.GraphQL(e.OwnerToken, `mutation($id: ID!) { deleteSpace(input: {id: $id}) { deletedSpaceId } }`, map[string]any{"id": id})
		require.Empty(t, g.Errors)
	}
	mustDelete(b)
	e.Clock.Advance(graph.SpaceRetention + time.Minute)
	ids, _ = listDeleted(e.OwnerToken)
	assert.Empty(t, ids, "an expired space is no longer listed as restorable")
	_, g = spMutate(t, e, e.OwnerToken, "restoreSpace", map[string]any{"id": b})
	spWantCode(t, g, "NOT_FOUND")
}

func TestGraphQLSpaceDuplicateMoveTransfer(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	col := spCollection(t, e, e.OwnerToken, nil)
	a := spCreate(t, e, e.OwnerToken, "A", &col)
	b := spCreate(t, e, e.OwnerToken, "B", &col)
	editor, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")

	cp := spMustMutate(t, e, e.OwnerToken, "duplicateSpace", map[string]any{"id": a})
	assert.Equal(t, "A (copy)", cp.Title)
	assert.Equal(t, col, cp.Parent.ID)
	require.NotNil(t, cp.Revision.Message)
	assert.Equal(t, "Duplicated from "+a, *cp.Revision.Message)
	_, g := spMutate(t, e, editor, "duplicateSpace", map[string]any{"id": a})
	spWantCode(t, g, "FORBIDDEN")

	order := func() []string {
		var out struct {
			Collection struct {
				Spaces struct{ Nodes []struct{ ID string } }
			}
		}
		e.GraphQL(e.OwnerToken, `query($id: ID!) { collection(id: $id) { spaces { nodes { id } } } }`,
			map[string]any{"id": col}).Into(t, &out)
		var ids []string
		for _, n := range out.Collection.Spaces.Nodes {
			ids = append(ids, n.ID)
		}
		return ids
	}
	assert.Equal(t, []string{a, cp.ID, b}, order())

	spMustMutate(t, e, e.OwnerToken, "moveSpace", map[string]any{"id": b, "position": map[string]any{"before": a}})
	assert.Equal(t, []string{b, a, cp.ID}, order())
	_, g = spMutate(t, e, e.OwnerToken, "moveSpace", map[string]any{"id": b, "position": map[string]any{"before": a}})
	spWantCode(t, g, "CONFLICT")
	_, g = spMutate(t, e, e.OwnerToken, "moveSpace", map[string]any{"id": b, "position": map[string]any{"after": "spc_elsewhere"}})
	spWantCode(t, g, "BAD_USER_INPUT")
	_, g = spMutate(t, e, editor, "moveSpace", map[string]any{"id": b, "parentId": nil})
	spWantCode(t, g, "FORBIDDEN")
	s := spMustMutate(t, e, e.OwnerToken, "moveSpace", map[string]any{"id": b, "parentId": nil})
	assert.Nil(t, s.Parent)
	assert.Equal(t, []string{a, cp.ID}, order())

	// Transfer into a collection of another organization: GraphQL can name
	// the parent.
	target, err := graph.CreateOrganization(ctx, e.Client, "Target", e.Owner.ID)
	require.NoError(t, err)
	targetCol, err := e.Client.Collection.Create().SetOrganizationID(target.ID).SetTitle("Inbox").Save(ctx)
	require.NoError(t, err)
	_, g = spMutate(t, e, e.OwnerToken, "transferSpace", map[string]any{"id": a, "organizationId": target.ID, "parentId": col})
	spWantCode(t, g, "BAD_USER_INPUT")
	_, g = spMutate(t, e, e.OwnerToken, "transferSpace", map[string]any{"id": a, "organizationId": e.Org.ID})
	spWantCode(t, g, "CONFLICT")
	_, g = spMutate(t, e, editor, "transferSpace", map[string]any{"id": a, "organizationId": target.ID})
	spWantCode(t, g, "FORBIDDEN")
	s = spMustMutate(t, e, e.OwnerToken, "transferSpace", map[string]any{"id": a, "organizationId": target.ID, "parentId": targetCol.ID})
	assert.Equal(t, target.ID, s.Organization.ID)
	assert.Equal(t, targetCol.ID, s.Parent.ID)
	stored, err := e.Client.Space.Query().Where(space.ID(a)).Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, target.ID, stored.OrganizationID)
}

// A /v1 page cursor continues the same list in GraphQL.
func TestGraphQLSpaceCursorFromREST(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	for i := 0; i < 7; i++ {
		spCreate(t, e, e.OwnerToken, "S", nil)
	}
	// The list's order, read whole: spaces made in the same millisecond
	// are ordered by ID, not in the order they were made.
	var ids []string
	for _, s := range e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces?limit=100", e.OwnerToken, nil,
		http.StatusOK)["items"].([]any) {
		ids = append(ids, s.(map[string]any)["id"].(string))
	}
	require.Len(t, ids, 7)
	first := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces?limit=3", e.OwnerToken, nil, http.StatusOK)
	cursor := first["next"].(map[string]any)["page"].(string)
	var out struct {
		Organization struct {
			Spaces struct {
				Nodes    []struct{ ID string }
				PageInfo struct{ HasNextPage bool }
			}
		}
	}
	e.GraphQL(e.OwnerToken, `query($org: ID!, $after: Cursor) { organization(id: $org) { spaces(first: 10, after: $after) {
		nodes { id } pageInfo { hasNextPage } } } }`, map[string]any{"org": e.Org.ID, "after": cursor}).Into(t, &out)
	var got []string
	for _, n := range out.Organization.Spaces.Nodes {
		got = append(got, n.ID)
	}
	assert.Equal(t, ids[3:], got)
	assert.False(t, out.Organization.Spaces.PageInfo.HasNextPage)
	g := e.GraphQL(e.OwnerToken, `query($org: ID!) { organization(id: $org) { spaces(first: 1001) { totalCount } } }`,
		map[string]any{"org": e.Org.ID})
	spWantCode(t, g, "BAD_USER_INPUT")
}

// TestErrorsNameAPIFields holds validation errors to the names clients send:
// a bad space icon or organization logo fails as icon or logo in both APIs,
// never as the column behind it.
func TestErrorsNameAPIFields(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	spc := spCreate(t, e, e.OwnerToken, "Icons", nil)
	bad := "not a url"
	res := e.Do(http.MethodPatch, "/v1/spaces/"+spc, e.OwnerToken, map[string]any{"icon": bad})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.JSON()["error"].(map[string]any)["message"], "icon:")
	g := e.GraphQL(e.OwnerToken, `mutation($id: ID!, $icon: String) { updateSpace(input: {id: $id, icon: $icon}) { space { id } } }`,
		map[string]any{"id": spc, "icon": bad})
	require.NotEmpty(t, g.Errors)
	assert.Equal(t, "BAD_USER_INPUT", g.Code())
	assert.Equal(t, "icon", g.Errors[0].Extensions["field"])

	res = e.Do(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{"logo": bad})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.JSON()["error"].(map[string]any)["message"], "logo:")
	g = e.GraphQL(e.OwnerToken, `mutation($id: ID!, $logo: String) { updateOrganization(input: {id: $id, logo: $logo}) { organization { id } } }`,
		map[string]any{"id": e.Org.ID, "logo": bad})
	require.NotEmpty(t, g.Errors)
	assert.Equal(t, "logo", g.Errors[0].Extensions["field"])
}

// TestUpdateSpaceVisibility: a space's admin opens a space to everyone
// through GraphQL updateSpace, and a stranger then reads it; an editor may
// not; in-collection needs a collection.
func TestUpdateSpaceVisibility(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	top := spCreate(t, e, e.OwnerToken, "Open", nil)
	col := spCollection(t, e, e.OwnerToken, nil)
	inner := spCreate(t, e, e.OwnerToken, "Inner", &col)
	stranger := e.Token(e.User("stranger@example.com"))
	editorToken, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	set := func(tok, id, v string) *servertest.GQLResponse {
		return e.GraphQL(tok, `mutation($id: ID!, $v: Visibility) { updateSpace(input: {id: $id, visibility: $v}) { space { id visibility } } }`,
			map[string]any{"id": id, "v": v})
	}

	assert.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, "/v1/spaces/"+top, stranger, nil).Status, "private by default")
	g := set(editorToken, top, "PUBLIC")
	require.NotEmpty(t, g.Errors)
	assert.Equal(t, "FORBIDDEN", g.Code(), "the admin role is needed")

	g = set(e.OwnerToken, top, "PUBLIC")
	require.Empty(t, g.Errors)
	var d map[string]any
	g.Into(t, &d)
	assert.Equal(t, "PUBLIC", lsAt(d, "updateSpace.space.visibility"))
	got := e.MustDo(http.MethodGet, "/v1/spaces/"+top, stranger, nil, http.StatusOK)
	assert.Equal(t, "public", got["visibility"])

	for _, c := range []struct{ id, v, why string }{
		{top, "IN_COLLECTION", "in-collection is only for a space in a collection"},
	} {
		g = set(e.OwnerToken, c.id, c.v)
		require.NotEmpty(t, g.Errors, c.v)
		assert.Equal(t, "BAD_USER_INPUT", g.Code(), c.v)
		assert.Equal(t, "visibility", g.Errors[0].Extensions["field"], c.v)
		assert.Contains(t, g.Errors[0].Message, c.why, c.v)
	}
	set(e.OwnerToken, inner, "IN_COLLECTION").Into(t, &d)
	assert.Equal(t, "IN_COLLECTION", lsAt(d, "updateSpace.space.visibility"))
	assert.Equal(t, "public", e.MustDo(http.MethodGet, "/v1/spaces/"+top, e.OwnerToken, nil, http.StatusOK)["visibility"],
		"a refused change leaves the space as it was")
}
