package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

const ocCollectionFields = `id title description defaultLevel parent { id } organization { id }
  urls { location app } permissions { view admin viewInviteLinks create }`

const (
	ocCollectionQuery = `query($id: ID!) { collection(id: $id) { ` + ocCollectionFields + ` } }`
	ocCreateFull      = `mutation($input: CreateCollectionInput!) { createCollection(input: $input) { clientMutationId collection { ` + ocCollectionFields + ` } } }`
	ocUpdate          = `mutation($input: UpdateCollectionInput!) { updateCollection(input: $input) { collection { ` + ocCollectionFields + ` } } }`
	ocDelete          = `mutation($id: ID!) { deleteCollection(input: {id: $id, clientMutationId: "d"}) { deletedCollectionId clientMutationId } }`
	ocMove            = `mutation($input: MoveCollectionInput!) { moveCollection(input: $input) { collection { id parent { id } } } }`
	ocTransfer        = `mutation($id: ID!, $org: ID!) { transferCollection(input: {id: $id, organizationId: $org}) {
	  collection { id parent { id } organization { id } collections { nodes { id } } spaces { nodes { id } } } } }`
	// ocTopLevel lists an organization's top-level collections in order.
	ocTopLevel = `query($id: ID!) { organization(id: $id) { collections(first: 1000, nested: false) { nodes { id } } } }`
	// ocChildren lists a collection's collections and spaces in order.
	ocChildren = `query($id: ID!) { collection(id: $id) { collections(first: 1000) { nodes { id } } spaces(first: 1000) { nodes { id } } } }`
)

// data runs an operation that must succeed and returns its data as a
// generic value.
func (e ocEnv) data(t *testing.T, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	res := e.GraphQL(token, query, vars)
	require.Empty(t, res.Errors, "errors: %+v", res.Errors)
	return ocDecode(t, res.Data).(map[string]any)
}

// topLevel returns the IDs of an organization's top-level collections.
func (e ocEnv) topLevel(t *testing.T, orgID string) []string {
	t.Helper()
	var out struct {
		Organization struct {
			Collections struct{ Nodes []struct{ ID string } }
		}
	}
	e.must(e.OwnerToken, ocTopLevel, map[string]any{"id": orgID}, &out)
	return ocIDs(out.Organization.Collections.Nodes)
}

// children returns the IDs of the collections and spaces in a collection.
func (e ocEnv) children(t *testing.T, token, id string) (collections, spaces []string) {
	t.Helper()
	var out struct {
		Collection struct {
			Collections, Spaces struct{ Nodes []struct{ ID string } }
		}
	}
	e.must(token, ocChildren, map[string]any{"id": id}, &out)
	return ocIDs(out.Collection.Collections.Nodes), ocIDs(out.Collection.Spaces.Nodes)
}

// ocIDs returns the IDs of nodes, never nil.
func ocIDs(nodes []struct{ ID string }) []string {
	out := []string{}
	for _, n := range nodes {
		out = append(out, n.ID)
	}
	return out
}

func TestGraphQLCreateCollection(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.collection(otherTok, otherOrg, "Theirs", "")
	in := func(fields map[string]any) map[string]any {
		if _, ok := fields["organizationId"]; !ok {
			fields["organizationId"] = e.Org.ID
		}
		return map[string]any{"input": fields}
	}

	d := e.data(t, e.OwnerToken, ocCreateFull, in(map[string]any{"title": " Guides ", "description": "All of them", "clientMutationId": "c1"}))
	created := d["createCollection"].(map[string]any)
	assert.Equal(t, "c1", created["clientMutationId"])
	c := created["collection"].(map[string]any)
	id := c["id"].(string)
	servertest.AssertContains(t, map[string]any{"title": "Guides", "description": "All of them", "defaultLevel": "INHERIT", "parent": nil,
		"organization": map[string]any{"id": e.Org.ID},
		"urls":         map[string]any{"location": "http://bindery.test/v1/collections/" + id},
		"permissions":  map[string]any{"view": true, "admin": true, "viewInviteLinks": true, "create": true}}, c)

	t.Run("nested", func(t *testing.T) {
		d := e.data(t, e.OwnerToken, ocCreateFull, in(map[string]any{"parentId": id}))
		c := d["createCollection"].(map[string]any)["collection"].(map[string]any)
		assert.Equal(t, map[string]any{"id": id}, c["parent"])
		assert.Equal(t, "Untitled", c["title"])
		cols, _ := e.children(t, e.OwnerToken, id)
		assert.Equal(t, []string{c["id"].(string)}, cols)
	})
	t.Run("limits", func(t *testing.T) {
		e.data(t, e.OwnerToken, ocCreateFull, in(map[string]any{"title": strings.Repeat("é", 50), "description": strings.Repeat("é", 100)}))
		assert.Equal(t, "title", e.badInput(t, e.OwnerToken, ocCreateFull, in(map[string]any{"title": strings.Repeat("é", 51)})))
		assert.Equal(t, "description", e.badInput(t, e.OwnerToken, ocCreateFull, in(map[string]any{"description": strings.Repeat("é", 101)})))
	})
	t.Run("parent elsewhere", func(t *testing.T) {
		e.badInput(t, e.OwnerToken, ocCreateFull, in(map[string]any{"parentId": otherCol}))
		e.badInput(t, e.OwnerToken, ocCreateFull, in(map[string]any{"parentId": "col_doesnotexist"}))
	})
	t.Run("roles", func(t *testing.T) {
		e.fails(t, readTok, "FORBIDDEN", ocCreateFull, in(map[string]any{"title": "x"}))
		e.fails(t, editTok, "FORBIDDEN", ocCreateFull, in(map[string]any{"title": "x"}))
		e.data(t, createTok, ocCreateFull, in(map[string]any{"title": "By creator"}))
	})
	t.Run("not visible", func(t *testing.T) {
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocCreateFull, in(map[string]any{"organizationId": otherOrg}))
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocCreateFull, in(map[string]any{"organizationId": "org_doesnotexist"}))
	})
	t.Run("without a token", func(t *testing.T) {
		assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocCreateFull, in(map[string]any{})).Code())
	})
	// Guides, its child, the one at the limits and the creator's.
	assert.Len(t, e.Walk(t, "/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken, 100), 4)
}

func TestGraphQLUpdateCollection(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.collection(otherTok, otherOrg, "Theirs", "")
	id := e.collection(e.OwnerToken, e.Org.ID, "Guides", "")
	update := func(t *testing.T, fields map[string]any) map[string]any {
		t.Helper()
		fields["id"] = id
		return e.data(t, e.OwnerToken, ocUpdate, map[string]any{"input": fields})["updateCollection"].(map[string]any)["collection"].(map[string]any)
	}
	in := func(fields map[string]any) map[string]any {
		if _, ok := fields["id"]; !ok {
			fields["id"] = id
		}
		return map[string]any{"input": fields}
	}

	c := update(t, map[string]any{"title": "Handbook", "description": "What we do"})
	assert.Equal(t, "Handbook", c["title"])
	assert.Equal(t, "What we do", c["description"])
	c = update(t, map[string]any{"title": strings.Repeat("é", 50), "description": strings.Repeat("é", 100)})
	assert.Equal(t, strings.Repeat("é", 100), c["description"])
	c = update(t, map[string]any{"description": nil})
	assert.Nil(t, c["description"])
	assert.Equal(t, strings.Repeat("é", 50), c["title"], "an absent title stays")
	e.fails(t, readTok, "FORBIDDEN", ocUpdate, in(map[string]any{"title": "x"}))
	e.fails(t, createTok, "FORBIDDEN", ocUpdate, in(map[string]any{"title": "x"}))
	for _, v := range enum.DefaultLevelValues() {
		c = update(t, map[string]any{"defaultLevel": enum.GQLName(string(v))})
		assert.Equal(t, enum.GQLName(string(v)), c["defaultLevel"])
		rest := e.MustDo(http.MethodGet, "/v1/collections/"+id, e.OwnerToken, nil, http.StatusOK)
		assert.Equal(t, string(v), rest["defaultLevel"])
	}
	c = update(t, map[string]any{"defaultLevel": nil})
	assert.Nil(t, c["defaultLevel"])
	assert.Contains(t, e.MustDo(http.MethodGet, "/v1/collections/"+id, e.OwnerToken, nil, http.StatusOK), "defaultLevel")

	assert.Equal(t, "title", e.badInput(t, e.OwnerToken, ocUpdate, in(map[string]any{"title": strings.Repeat("é", 51)})))
	assert.Equal(t, "description", e.badInput(t, e.OwnerToken, ocUpdate, in(map[string]any{"description": strings.Repeat("é", 101)})))
	res := e.GraphQL(e.OwnerToken, ocUpdate, in(map[string]any{"defaultLevel": "OWNER"}))
	require.NotEmpty(t, res.Errors)
	assert.Contains(t, []string{"BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED"}, res.Code())
	res = e.GraphQL(e.OwnerToken, ocUpdate, in(map[string]any{"defaultLevel": "owner"}))
	require.NotEmpty(t, res.Errors, "a /v1 spelling is not a GraphQL enum value")

	e.fails(t, e.OwnerToken, "NOT_FOUND", ocUpdate, in(map[string]any{"id": otherCol, "title": "x"}))
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocUpdate, in(map[string]any{"id": "col_doesnotexist", "title": "x"}))
	assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocUpdate, in(map[string]any{"title": "x"})).Code())

	got := e.data(t, e.OwnerToken, ocCollectionQuery, map[string]any{"id": id})["collection"].(map[string]any)
	assert.Equal(t, strings.Repeat("é", 50), got["title"])
	assert.Nil(t, got["defaultLevel"])
	assert.Equal(t, "Theirs", e.MustDo(http.MethodGet, "/v1/collections/"+otherCol, otherTok, nil, http.StatusOK)["title"])
}

func TestGraphQLDeleteCollection(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.collection(otherTok, otherOrg, "Theirs", "")
	top := e.collection(e.OwnerToken, e.Org.ID, "Top", "")
	mid := e.collection(e.OwnerToken, e.Org.ID, "Middle", top)
	inTop := e.space(e.OwnerToken, e.Org.ID, "In top", top)
	inMid := e.space(e.OwnerToken, e.Org.ID, "In middle", mid)
	kept := e.space(e.OwnerToken, e.Org.ID, "Kept", "")

	e.fails(t, readTok, "FORBIDDEN", ocDelete, map[string]any{"id": top})
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocDelete, map[string]any{"id": otherCol})
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocDelete, map[string]any{"id": "col_doesnotexist"})
	assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocDelete, map[string]any{"id": top}).Code())

	d := e.data(t, e.OwnerToken, ocDelete, map[string]any{"id": top})
	assert.Equal(t, map[string]any{"deletedCollectionId": top, "clientMutationId": "d"}, d["deleteCollection"])
	for _, id := range []string{top, mid} {
		e.fails(t, e.OwnerToken, "NOT_FOUND", ocCollectionQuery, map[string]any{"id": id})
	}
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocDelete, map[string]any{"id": top})

	const deleted = `query($id: ID!) { organization(id: $id) {
	  live: spaces(first: 100) { nodes { id } }
	  deleted: spaces(first: 100, deleted: true) { totalCount nodes { id deletedAt parent { id } } } } }`
	var out struct {
		Organization struct {
			Live    struct{ Nodes []struct{ ID string } }
			Deleted struct {
				TotalCount int
				Nodes      []struct {
					ID        string
					DeletedAt *string
					Parent    *struct{ ID string }
				}
			}
		}
	}
	e.must(e.OwnerToken, deleted, map[string]any{"id": e.Org.ID}, &out)
	assert.Equal(t, []string{kept}, ocIDs(out.Organization.Live.Nodes))
	require.Equal(t, 2, out.Organization.Deleted.TotalCount)
	var gone []string
	for _, n := range out.Organization.Deleted.Nodes {
		gone = append(gone, n.ID)
		assert.NotNil(t, n.DeletedAt)
		assert.Nil(t, n.Parent)
	}
	assert.ElementsMatch(t, []string{inTop, inMid}, gone)
	e.fails(t, readTok, "FORBIDDEN", deleted, map[string]any{"id": e.Org.ID})

	var restored struct {
		RestoreSpace struct {
			Space struct {
				DeletedAt *string
				Parent    *struct{ ID string }
			}
		}
	}
	e.must(e.OwnerToken, `mutation($id: ID!) { restoreSpace(input: {id: $id}) { space { deletedAt parent { id } } } }`, map[string]any{"id": inMid}, &restored)
	assert.Nil(t, restored.RestoreSpace.Space.DeletedAt)
	assert.Nil(t, restored.RestoreSpace.Space.Parent)
	e.must(readTok, deleted[:strings.Index(deleted, "deleted:")]+"} }", map[string]any{"id": e.Org.ID}, &out)
	assert.ElementsMatch(t, []string{kept, inMid}, ocIDs(out.Organization.Live.Nodes))
}

func TestGraphQLMoveCollection(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.collection(otherTok, otherOrg, "Theirs", "")
	a := e.collection(e.OwnerToken, e.Org.ID, "A", "")
	b := e.collection(e.OwnerToken, e.Org.ID, "B", "")
	c := e.collection(e.OwnerToken, e.Org.ID, "C", "")
	s := e.space(e.OwnerToken, e.Org.ID, "S", "")
	move := func(fields map[string]any) map[string]any { return map[string]any{"input": fields} }

	e.must(e.OwnerToken, ocMove, move(map[string]any{"id": c, "position": map[string]any{"before": a}}), nil)
	assert.Equal(t, []string{c, a, b}, e.topLevel(t, e.Org.ID))
	e.must(e.OwnerToken, ocMove, move(map[string]any{"id": c, "position": map[string]any{"after": s}}), nil)
	assert.Equal(t, []string{a, b, c}, e.topLevel(t, e.Org.ID))
	e.fails(t, e.OwnerToken, "CONFLICT", ocMove, move(map[string]any{"id": c, "position": map[string]any{"after": s}}))
	e.fails(t, e.OwnerToken, "CONFLICT", ocMove, move(map[string]any{"id": c}))
	e.fails(t, e.OwnerToken, "CONFLICT", ocMove, move(map[string]any{"id": a, "position": map[string]any{"before": b}}))
	e.must(e.OwnerToken, ocMove, move(map[string]any{"id": a, "position": map[string]any{"after": b}}), nil)
	assert.Equal(t, []string{b, a, c}, e.topLevel(t, e.Org.ID))

	// Into a collection, next to what is there, and back out.
	var out struct {
		MoveCollection struct {
			Collection struct {
				ID     string
				Parent *struct{ ID string }
			}
		}
	}
	e.must(e.OwnerToken, ocMove, move(map[string]any{"id": c, "parentId": a}), &out)
	require.NotNil(t, out.MoveCollection.Collection.Parent)
	assert.Equal(t, a, out.MoveCollection.Collection.Parent.ID)
	e.must(e.OwnerToken, ocMove, move(map[string]any{"id": b, "parentId": a, "position": map[string]any{"before": c}}), nil)
	cols, _ := e.children(t, e.OwnerToken, a)
	assert.Equal(t, []string{b, c}, cols)
	assert.Equal(t, []string{a}, e.topLevel(t, e.Org.ID))

	assert.Equal(t, "parent", e.badInput(t, e.OwnerToken, ocMove, move(map[string]any{"id": a, "parentId": a})))
	assert.Equal(t, "parent", e.badInput(t, e.OwnerToken, ocMove, move(map[string]any{"id": a, "parentId": c})))
	assert.Equal(t, "parent", e.badInput(t, e.OwnerToken, ocMove, move(map[string]any{"id": a, "parentId": otherCol})))
	e.badInput(t, e.OwnerToken, ocMove, move(map[string]any{"id": a, "position": map[string]any{"before": otherCol}}))
	e.badInput(t, e.OwnerToken, ocMove, move(map[string]any{"id": b, "position": map[string]any{"before": s}}))
	e.fails(t, readTok, "FORBIDDEN", ocMove, move(map[string]any{"id": c, "parentId": nil}))
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocMove, move(map[string]any{"id": otherCol, "parentId": nil}))
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocMove, move(map[string]any{"id": "col_doesnotexist", "parentId": nil}))
	assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocMove, move(map[string]any{"id": c, "parentId": nil})).Code())

	e.must(e.OwnerToken, ocMove, move(map[string]any{"id": c, "parentId": nil, "position": map[string]any{"before": a}}), &out)
	assert.Nil(t, out.MoveCollection.Collection.Parent)
	assert.Equal(t, []string{c, a}, e.topLevel(t, e.Org.ID))
	cols, _ = e.children(t, e.OwnerToken, a)
	assert.Equal(t, []string{b}, cols)
}

func TestGraphQLTransferCollection(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	target, targetTok := e.otherOrg("target@example.com")
	col := e.collection(e.OwnerToken, e.Org.ID, "Moving", "")
	nested := e.collection(e.OwnerToken, e.Org.ID, "Nested", col)
	spc := e.space(e.OwnerToken, e.Org.ID, "Space", col)
	deep := e.space(e.OwnerToken, e.Org.ID, "Deep", nested)
	vars := map[string]any{"id": col, "org": target}

	e.fails(t, e.OwnerToken, "CONFLICT", ocTransfer, map[string]any{"id": col, "org": e.Org.ID})
	assert.Equal(t, "organization", e.badInput(t, e.OwnerToken, ocTransfer, vars), "an organization the owner is not in")
	e.Member(target, enum.RoleReview, "owner@example.com")
	e.fails(t, e.OwnerToken, "FORBIDDEN", ocTransfer, vars)
	e.fails(t, readTok, "FORBIDDEN", ocTransfer, vars)
	e.fails(t, e.OwnerToken, "NOT_FOUND", ocTransfer, map[string]any{"id": "col_doesnotexist", "org": target})
	assert.Equal(t, "UNAUTHENTICATED", e.GraphQL("", ocTransfer, vars).Code())

	e.Member(target, enum.RoleCreate, "owner@example.com")
	d := e.data(t, e.OwnerToken, ocTransfer, vars)
	servertest.AssertContains(t, map[string]any{"transferCollection": map[string]any{"collection": map[string]any{
		"id": col, "parent": nil, "organization": map[string]any{"id": target},
		"collections": map[string]any{"nodes": []any{map[string]any{"id": nested}}},
		"spaces":      map[string]any{"nodes": []any{map[string]any{"id": spc}}},
	}}}, d)
	var sp struct {
		Space struct {
			Organization struct{ ID string }
			Parent       struct{ ID string }
		}
	}
	e.must(targetTok, `query($id: ID!) { space(id: $id) { organization { id } parent { id } } }`, map[string]any{"id": deep}, &sp)
	assert.Equal(t, target, sp.Space.Organization.ID)
	assert.Equal(t, nested, sp.Space.Parent.ID)
	assert.Equal(t, []string{col}, e.topLevel(t, target)[len(e.topLevel(t, target))-1:])
	assert.Empty(t, e.topLevel(t, e.Org.ID))
	e.fails(t, readTok, "NOT_FOUND", ocCollectionQuery, map[string]any{"id": nested})
}

func TestGraphQLCollectionConnections(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	col := e.collection(e.OwnerToken, e.Org.ID, "Guides", "")
	var spaces, cols []string
	for i := 0; i < 5; i++ {
		spaces = append(spaces, e.space(e.OwnerToken, e.Org.ID, "Space", col))
		cols = append(cols, e.collection(e.OwnerToken, e.Org.ID, "Child", col))
	}
	e.collection(e.OwnerToken, e.Org.ID, "Grandchild", cols[0])
	e.space(e.OwnerToken, e.Org.ID, "Elsewhere", "")
	const q = `query($id: ID!, $first: Int, $after: Cursor, $last: Int, $before: Cursor) { collection(id: $id) {
	  spaces(first: $first, after: $after, last: $last, before: $before) { ` + ocConnFields + ` } } }`
	vars := map[string]any{"id": col}

	for _, size := range []int{1, 2, 5} {
		assert.Equal(t, spaces, e.walk(t, readTok, q, vars, size, false, "collection", "spaces"), "first %d", size)
		assert.Equal(t, spaces, e.walk(t, readTok, q, vars, size, true, "collection", "spaces"), "last %d", size)
	}
	const colsOnly = `query($id: ID!, $first: Int, $after: Cursor, $last: Int, $before: Cursor) { collection(id: $id) {
	  collections(first: $first, after: $after, last: $last, before: $before) { ` + ocConnFields + ` } } }`
	assert.Equal(t, cols, e.walk(t, readTok, colsOnly, vars, 2, false, "collection", "collections"))
	assert.Equal(t, cols, e.walk(t, readTok, colsOnly, vars, 2, true, "collection", "collections"))

	// /v1 lists the same spaces in the same order, and its cursors work here.
	assert.Equal(t, spaces, e.Walk(t, "/v1/collections/"+col+"/spaces", readTok, 2))
	page := e.MustDo(http.MethodGet, "/v1/collections/"+col+"/spaces?limit=2", readTok, nil, http.StatusOK)
	next := page["next"].(map[string]any)["page"].(string)
	c := e.conn(t, readTok, `query($id: ID!, $after: Cursor) { collection(id: $id) { spaces(first: 2, after: $after) { `+ocConnFields+` } } }`,
		map[string]any{"id": col, "after": next}, "collection", "spaces")
	assert.Equal(t, spaces[2:4], ocIDs(c.Nodes))
	assert.Equal(t, 5, c.TotalCount)
	assert.True(t, c.PageInfo.HasPreviousPage)
	assert.True(t, c.PageInfo.HasNextPage)
	// A cursor of the collections list is refused by the spaces list.
	colCursor := e.conn(t, readTok, colsOnly, map[string]any{"id": col, "first": 1}, "collection", "collections").PageInfo.EndCursor
	e.badInput(t, readTok, `query($id: ID!, $after: Cursor) { collection(id: $id) { spaces(after: $after) { totalCount } } }`,
		map[string]any{"id": col, "after": *colCursor})
}

// TestGraphQLCollectionGuestLevel holds that a null default level hides a
// collection and what inherits from it from members, but not from admins,
// through every way GraphQL reaches it.
func TestGraphQLCollectionGuestLevel(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	adminTok, _ := e.Member(e.Org.ID, enum.RoleAdmin, "admin@example.com")
	hidden := e.collection(e.OwnerToken, e.Org.ID, "Hidden", "")
	nested := e.collection(e.OwnerToken, e.Org.ID, "Nested", hidden)
	inheriting := e.space(e.OwnerToken, e.Org.ID, "Inheriting", hidden)
	own := e.space(e.OwnerToken, e.Org.ID, "Own level", hidden)
	e.must(e.OwnerToken, `mutation($id: ID!) { updateSpace(input: {id: $id, defaultLevel: READ}) { space { id } } }`, map[string]any{"id": own}, nil)
	open := e.collection(e.OwnerToken, e.Org.ID, "Open", "")
	e.must(e.OwnerToken, ocUpdate, map[string]any{"input": map[string]any{"id": hidden, "defaultLevel": nil}}, nil)

	for _, id := range []string{hidden, nested} {
		e.fails(t, editTok, "NOT_FOUND", ocCollectionQuery, map[string]any{"id": id})
		e.data(t, adminTok, ocCollectionQuery, map[string]any{"id": id})
	}
	e.fails(t, editTok, "NOT_FOUND", `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": inheriting})
	res := e.GraphQL(editTok, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": []string{hidden, nested, inheriting, open}})
	assert.Empty(t, res.Errors)
	assert.JSONEq(t, `{"nodes": [null, null, null, {"id": "`+open+`"}]}`, string(res.Data))

	// The space with its own level is visible, but not its parent.
	var sp struct {
		Space struct {
			ID     string
			Parent *struct{ ID string }
		}
	}
	e.must(editTok, `query($id: ID!) { space(id: $id) { id parent { id } } }`, map[string]any{"id": own}, &sp)
	assert.Nil(t, sp.Space.Parent)
	e.must(adminTok, `query($id: ID!) { space(id: $id) { id parent { id } } }`, map[string]any{"id": own}, &sp)
	require.NotNil(t, sp.Space.Parent)
	assert.Equal(t, hidden, sp.Space.Parent.ID)

	const lists = `query($id: ID!) { organization(id: $id) {
	  collections(first: 100) { totalCount nodes { id } } spaces(first: 100) { totalCount nodes { id } } } }`
	var out struct {
		Organization struct {
			Collections, Spaces struct {
				TotalCount int
				Nodes      []struct{ ID string }
			}
		}
	}
	e.must(editTok, lists, map[string]any{"id": e.Org.ID}, &out)
	assert.Equal(t, []string{open}, ocIDs(out.Organization.Collections.Nodes))
	assert.Equal(t, 1, out.Organization.Collections.TotalCount)
	assert.Equal(t, []string{own}, ocIDs(out.Organization.Spaces.Nodes))
	e.must(adminTok, lists, map[string]any{"id": e.Org.ID}, &out)
	assert.ElementsMatch(t, []string{hidden, nested, open}, ocIDs(out.Organization.Collections.Nodes))
	assert.ElementsMatch(t, []string{inheriting, own}, ocIDs(out.Organization.Spaces.Nodes))
	e.fails(t, editTok, "NOT_FOUND", ocUpdate, map[string]any{"input": map[string]any{"id": hidden, "title": "Found"}})
	e.fails(t, editTok, "NOT_FOUND", ocDelete, map[string]any{"id": nested})
}
