package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/auth"
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

// ocMalformedToken has the shape of a bearer token but not of a Bindery token.
const ocMalformedToken = "not-a-token"

// ocUnknownToken is a well-formed token that was never issued.
func ocUnknownToken() string {
	tok, _ := auth.NewToken()
	return tok
}

// collection creates a collection in the owner's organization, under parent
// when it is not empty, and returns its ID.
func (e ocEnv) collection(title, parent string) string {
	e.T.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken, body, http.StatusCreated)["id"].(string)
}

// space creates a space in the owner's organization, under parent when it is
// not empty, and returns its ID.
func (e ocEnv) space(title, parent string) string {
	e.T.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, body, http.StatusCreated)["id"].(string)
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

// ids lists a /v1 list whole and returns the IDs in order.
func (e ocEnv) ids(path, token string) []string {
	e.T.Helper()
	return e.Walk(e.T, path, token, 1000)
}

// position builds a move position pointing at an item.
func ocPosition(where, id string) map[string]any {
	typ := "collection"
	if strings.HasPrefix(id, "spc_") {
		typ = "space"
	}
	return map[string]any{where: map[string]any{"type": typ, typ: id}}
}

var ocOwnerCollectionPerms = map[string]any{"view": true, "admin": true, "viewInviteLinks": true, "create": true}

func TestCollectionCreate(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)["id"].(string)
	parent := e.collection("Parent", "")
	readOnly := e.collection("Read only", "")
	e.MustDo(http.MethodPatch, "/v1/collections/"+readOnly, e.OwnerToken, map[string]any{"defaultLevel": "read"}, http.StatusOK)
	path := "/v1/orgs/" + e.Org.ID + "/collections"

	e.Run(t, []servertest.Scenario{
		{Name: "top level", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"title": "Guides"},
			WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"object": "collection", "title": "Guides", "organization": e.Org.ID,
				"defaultLevel": "inherit", "permissions": ocOwnerCollectionPerms},
			Check: func(t *testing.T, res *servertest.Response) {
				j := res.JSON()
				assert.NotContains(t, j, "parent")
				assert.True(t, strings.HasPrefix(j["id"].(string), "col_"))
				urls := j["urls"].(map[string]any)
				assert.Equal(t, "http://bindery.test/v1/collections/"+j["id"].(string), urls["location"])
				assert.Equal(t, urls["location"], res.Header.Get("Location"))
				assert.NotEmpty(t, urls["app"])
			}},
		{Name: "nested", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"title": "Child", "parent": parent},
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"parent": parent, "organization": e.Org.ID}},
		{Name: "without a title", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{},
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": "Untitled"}},
		{Name: "without a body", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": "Untitled"}},
		{Name: "title of 50 characters", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("é", 50)}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"title": strings.Repeat("é", 50)}},
		{Name: "title of 51 characters", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("é", 51)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "null title", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": nil}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "title of the wrong type", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": 12}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "parent of the wrong type", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"parent": []string{parent}}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "unknown member", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": "x", "colour": "red"}, WantStatus: http.StatusBadRequest, WantError: "colour"},
		{Name: "malformed JSON", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: `{"title": "x"`, WantStatus: http.StatusBadRequest},
		{Name: "body not an object", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: `["title"]`, WantStatus: http.StatusBadRequest},
		{Name: "unknown parent", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"parent": "col_doesnotexist"}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "parent in another organization", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"parent": otherCol}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "without a token", Method: http.MethodPost, Path: path, Body: map[string]any{"title": "x"}, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodPost, Path: path, Token: ocMalformedToken,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusUnauthorized},
		{Name: "with an unknown token", Method: http.MethodPost, Path: path, Token: ocUnknownToken(),
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusUnauthorized},
		{Name: "reader", Method: http.MethodPost, Path: path, Token: readTok, Body: map[string]any{"title": "x"}, WantStatus: http.StatusForbidden},
		{Name: "editor", Method: http.MethodPost, Path: path, Token: editTok, Body: map[string]any{"title": "x"}, WantStatus: http.StatusForbidden},
		{Name: "creator", Method: http.MethodPost, Path: path, Token: createTok, Body: map[string]any{"title": "By creator"},
			WantStatus: http.StatusCreated,
			WantJSON:   map[string]any{"permissions": map[string]any{"view": true, "admin": false, "viewInviteLinks": false, "create": true}}},
		{Name: "creator, in a collection where they only read", Method: http.MethodPost, Path: path, Token: createTok,
			Body: map[string]any{"title": "x", "parent": readOnly}, WantStatus: http.StatusForbidden},
		{Name: "unknown organization", Method: http.MethodPost, Path: "/v1/orgs/org_doesnotexist/collections", Token: e.OwnerToken,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
		{Name: "organization of someone else", Method: http.MethodPost, Path: "/v1/orgs/" + otherOrg + "/collections", Token: e.OwnerToken,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
	})

	// Nothing that failed left a collection behind: the parent, its child,
	// the read-only one, the four created at the top level, and the
	// creator's.
	assert.Len(t, e.ids(path, e.OwnerToken), 8)
	assert.Len(t, e.ids("/v1/orgs/"+otherOrg+"/collections", otherTok), 1)
}

func TestCollectionGet(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)["id"].(string)
	parent := e.collection("Parent", "")
	child := e.collection("Child", parent)
	e.MustDo(http.MethodPatch, "/v1/collections/"+child, e.OwnerToken, map[string]any{"description": "About the child"}, http.StatusOK)

	e.Run(t, []servertest.Scenario{
		{Name: "owner", Method: http.MethodGet, Path: "/v1/collections/" + child, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "collection", "id": child, "title": "Child", "description": "About the child",
				"organization": e.Org.ID, "parent": parent, "defaultLevel": "inherit", "permissions": ocOwnerCollectionPerms,
				"urls": map[string]any{"location": "http://bindery.test/v1/collections/" + child}}},
		{Name: "reader", Method: http.MethodGet, Path: "/v1/collections/" + child, Token: readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": child, "permissions": map[string]any{"view": true, "admin": false, "viewInviteLinks": false, "create": false}}},
		{Name: "without a token", Method: http.MethodGet, Path: "/v1/collections/" + child, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodGet, Path: "/v1/collections/" + child, Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
		{Name: "unknown", Method: http.MethodGet, Path: "/v1/collections/col_doesnotexist", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "of another organization", Method: http.MethodGet, Path: "/v1/collections/" + otherCol, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "by an outsider", Method: http.MethodGet, Path: "/v1/collections/" + child, Token: otherTok, WantStatus: http.StatusNotFound},
	})

	// A hidden collection answers exactly like a missing one.
	hidden := e.Do(http.MethodGet, "/v1/collections/"+otherCol, e.OwnerToken, nil)
	missing := e.Do(http.MethodGet, "/v1/collections/col_doesnotexist", e.OwnerToken, nil)
	assert.Equal(t, missing.Body, hidden.Body)
}

func TestCollectionUpdate(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	createTok, _ := e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)["id"].(string)
	col := e.collection("Guides", "")
	path := "/v1/collections/" + col

	scenarios := []servertest.Scenario{
		{Name: "title", Method: http.MethodPatch, Path: path, Token: e.OwnerToken, Body: map[string]any{"title": "  Handbook  "},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"id": col, "title": "Handbook", "defaultLevel": "inherit"}},
		{Name: "title of 50 characters", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("é", 50)}, WantStatus: http.StatusOK, WantJSON: map[string]any{"title": strings.Repeat("é", 50)}},
		{Name: "title of 51 characters", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("é", 51)}, WantStatus: http.StatusBadRequest,
			WantError: "title: must be at most 50 characters",
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.ErrorMessage(), "ent:", "the message leaks the storage layer")
			}},
		{Name: "null title", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"title": nil}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "description of 100 characters", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"description": strings.Repeat("é", 100)}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"description": strings.Repeat("é", 100), "title": strings.Repeat("é", 50)}},
		{Name: "description of 101 characters", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"description": strings.Repeat("é", 101)}, WantStatus: http.StatusBadRequest, WantError: "description"},
		{Name: "null description removes it", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"description": nil}, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "description") }},
		{Name: "unknown default level", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"defaultLevel": "owner"}, WantStatus: http.StatusBadRequest, WantError: "defaultLevel"},
		{Name: "default level of the wrong type", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"defaultLevel": 3}, WantStatus: http.StatusBadRequest, WantError: "defaultLevel"},
		{Name: "description of the wrong type", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"description": true}, WantStatus: http.StatusBadRequest, WantError: "description"},
		{Name: "unknown member", Method: http.MethodPatch, Path: path, Token: e.OwnerToken,
			Body: map[string]any{"emoji": "📚"}, WantStatus: http.StatusBadRequest, WantError: "emoji"},
		{Name: "malformed JSON", Method: http.MethodPatch, Path: path, Token: e.OwnerToken, Body: `{"title": }`, WantStatus: http.StatusBadRequest},
		{Name: "not JSON", Method: http.MethodPatch, Path: path, Token: e.OwnerToken, Body: `title=x`, WantStatus: http.StatusBadRequest},
		{Name: "without a token", Method: http.MethodPatch, Path: path, Body: map[string]any{"title": "x"}, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodPatch, Path: path, Token: ocMalformedToken, Body: map[string]any{"title": "x"}, WantStatus: http.StatusUnauthorized},
		{Name: "reader", Method: http.MethodPatch, Path: path, Token: readTok, Body: map[string]any{"title": "x"}, WantStatus: http.StatusForbidden},
		{Name: "creator", Method: http.MethodPatch, Path: path, Token: createTok, Body: map[string]any{"title": "x"}, WantStatus: http.StatusForbidden},
		{Name: "unknown", Method: http.MethodPatch, Path: "/v1/collections/col_doesnotexist", Token: e.OwnerToken,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
		{Name: "of another organization", Method: http.MethodPatch, Path: "/v1/collections/" + otherCol, Token: e.OwnerToken,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
	}
	for _, level := range []string{"admin", "create", "review", "edit", "comment", "read", "inherit"} {
		scenarios = append(scenarios, servertest.Scenario{Name: "default level " + level, Method: http.MethodPatch, Path: path,
			Token: e.OwnerToken, Body: map[string]any{"defaultLevel": level}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"defaultLevel": level}})
	}
	scenarios = append(scenarios, servertest.Scenario{Name: "null default level is the guest level", Method: http.MethodPatch, Path: path,
		Token: e.OwnerToken, Body: map[string]any{"defaultLevel": nil}, WantStatus: http.StatusOK,
		WantJSON: map[string]any{"defaultLevel": nil}})
	e.Run(t, scenarios)

	// What failed changed nothing; what passed is stored.
	got := e.MustDo(http.MethodGet, path, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, strings.Repeat("é", 50), got["title"])
	assert.NotContains(t, got, "description")
	assert.Nil(t, got["defaultLevel"])
	assert.Equal(t, "Theirs", e.MustDo(http.MethodGet, "/v1/collections/"+otherCol, otherTok, nil, http.StatusOK)["title"])
}

func TestCollectionDelete(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)["id"].(string)

	top := e.collection("Top", "")
	mid := e.collection("Middle", top)
	leaf := e.collection("Leaf", mid)
	keep := e.collection("Kept", "")
	inTop := e.space("In top", top)
	inLeaf := e.space("In leaf", leaf)
	inKeep := e.space("In kept", keep)
	path := "/v1/collections/" + top

	e.Run(t, []servertest.Scenario{
		{Name: "without a token", Method: http.MethodDelete, Path: path, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodDelete, Path: path, Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
		{Name: "reader", Method: http.MethodDelete, Path: path, Token: readTok, WantStatus: http.StatusForbidden},
		{Name: "unknown", Method: http.MethodDelete, Path: "/v1/collections/col_doesnotexist", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "of another organization", Method: http.MethodDelete, Path: "/v1/collections/" + otherCol, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "owner", Method: http.MethodDelete, Path: path, Token: e.OwnerToken, WantStatus: http.StatusNoContent,
			Check: func(t *testing.T, res *servertest.Response) { assert.Empty(t, res.Body) }},
		{Name: "again", Method: http.MethodDelete, Path: path, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})

	// The nested collections went with it; the other collection stays.
	for _, id := range []string{top, mid, leaf} {
		e.MustDo(http.MethodGet, "/v1/collections/"+id, e.OwnerToken, nil, http.StatusNotFound)
	}
	assert.Equal(t, []string{keep}, e.ids("/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken))
	e.MustDo(http.MethodGet, "/v1/collections/"+otherCol, otherTok, nil, http.StatusOK)

	// Their spaces are deleted, hidden from lists and members, and still
	// there for an admin to restore.
	assert.Equal(t, []string{inKeep}, e.ids("/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken))
	e.MustDo(http.MethodGet, "/v1/spaces/"+inLeaf, readTok, nil, http.StatusNotFound)
	for _, id := range []string{inTop, inLeaf} {
		s := e.MustDo(http.MethodGet, "/v1/spaces/"+id, e.OwnerToken, nil, http.StatusOK)
		assert.NotEmpty(t, s["deletedAt"], "space %s", id)
	}
	e.MustDo(http.MethodGet, "/v1/spaces/"+inKeep, e.OwnerToken, nil, http.StatusOK)

	// Restored, a space comes back at the top level.
	restored := e.MustDo(http.MethodPost, "/v1/spaces/"+inLeaf+"/restore", e.OwnerToken, nil, http.StatusOK)
	assert.NotContains(t, restored, "deletedAt")
	assert.NotContains(t, restored, "parent")
	assert.ElementsMatch(t, []string{inKeep, inLeaf}, e.ids("/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken))
	got := e.MustDo(http.MethodGet, "/v1/spaces/"+inLeaf, readTok, nil, http.StatusOK)
	assert.NotContains(t, got, "parent")
}

func TestCollectionList(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)

	var top, all []string
	for i := 0; i < 5; i++ {
		c := e.collection(fmt.Sprintf("Top %d", i), "")
		top = append(top, c)
		all = append(all, c)
		if i%2 == 0 {
			all = append(all, e.collection(fmt.Sprintf("Child %d", i), c))
		}
	}
	path := "/v1/orgs/" + e.Org.ID + "/collections"

	t.Run("nested by default", func(t *testing.T) {
		got := e.Walk(t, path, e.OwnerToken, 2)
		assert.ElementsMatch(t, all, got)
		assert.Equal(t, got, e.Walk(t, path+"?nested=true", e.OwnerToken, 3))
	})
	t.Run("top level only, in order", func(t *testing.T) {
		assert.Equal(t, top, e.Walk(t, path+"?nested=false", e.OwnerToken, 2))
	})
	t.Run("walks with every limit", func(t *testing.T) {
		for limit := 1; limit <= len(all)+1; limit++ {
			assert.ElementsMatch(t, all, e.Walk(t, path, e.OwnerToken, limit), "limit %d", limit)
		}
	})
	t.Run("reader sees them", func(t *testing.T) {
		assert.ElementsMatch(t, all, e.Walk(t, path, readTok, 4))
	})
	t.Run("count is the total", func(t *testing.T) {
		res := e.MustDo(http.MethodGet, path+"?limit=1", e.OwnerToken, nil, http.StatusOK)
		assert.EqualValues(t, len(all), res["count"])
		assert.Len(t, res["items"], 1)
		assert.NotEmpty(t, res["next"])
		res = e.MustDo(http.MethodGet, path+"?nested=false&limit=1", e.OwnerToken, nil, http.StatusOK)
		assert.EqualValues(t, len(top), res["count"])
	})
	t.Run("statements do not grow with the page", func(t *testing.T) {
		count := func(limit int) int64 {
			before := e.Statements.Load()
			e.MustDo(http.MethodGet, fmt.Sprintf("%s?limit=%d", path, limit), readTok, nil, http.StatusOK)
			return e.Statements.Load() - before
		}
		// A page that holds a nested collection resolves the parents in one
		// more batch than a page of top-level ones, so the short page
		// compared ends with the first nested one of the list. (Its place
		// is read from the list: collections made in the same millisecond
		// are ordered by ID, not in the order they were made.)
		full := e.MustDo(http.MethodGet, path+"?limit=1000", readTok, nil, http.StatusOK)["items"].([]any)
		short := slices.IndexFunc(full, func(c any) bool { _, nested := c.(map[string]any)["parent"]; return nested }) + 1
		require.Positive(t, short, "the list holds a nested collection")
		count(short) // warm: the token's last use is recorded once a minute
		few, many := count(short), count(1000)
		assert.Positive(t, few)
		assert.Equal(t, few, many, "listing %d collections took %d statements, listing %d took %d", short, few, len(all), many)
	})
	t.Run("the last page has no next", func(t *testing.T) {
		res := e.MustDo(http.MethodGet, path+"?limit=1000", e.OwnerToken, nil, http.StatusOK)
		assert.Len(t, res["items"], len(all))
		assert.NotContains(t, res, "next")
	})
	nextOfTop := e.MustDo(http.MethodGet, path+"?nested=false&limit=1", e.OwnerToken, nil, http.StatusOK)["next"].(map[string]any)["page"].(string)
	spacesPage := func() string {
		e.space("A", "")
		e.space("B", "")
		return e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces?limit=1", e.OwnerToken, nil, http.StatusOK)["next"].(map[string]any)["page"].(string)
	}()
	e.Run(t, []servertest.Scenario{
		{Name: "limit 1000", Method: http.MethodGet, Path: path + "?limit=1000", Token: e.OwnerToken, WantStatus: http.StatusOK},
		{Name: "limit 1001", Method: http.MethodGet, Path: path + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "limit"},
		{Name: "negative limit", Method: http.MethodGet, Path: path + "?limit=-1", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "limit"},
		{Name: "limit not a number", Method: http.MethodGet, Path: path + "?limit=ten", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "limit"},
		{Name: "garbage page", Method: http.MethodGet, Path: path + "?page=garbage!", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "page of the other order", Method: http.MethodGet, Path: path + "?page=" + nextOfTop, Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "page of another list", Method: http.MethodGet, Path: path + "?page=" + spacesPage, Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "nested not a boolean", Method: http.MethodGet, Path: path + "?nested=maybe", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "nested"},
		{Name: "without a token", Method: http.MethodGet, Path: path, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodGet, Path: path, Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
		{Name: "unknown organization", Method: http.MethodGet, Path: "/v1/orgs/org_doesnotexist/collections", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "organization of someone else", Method: http.MethodGet, Path: "/v1/orgs/" + otherOrg + "/collections", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
}

func TestCollectionSpaces(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)["id"].(string)
	col := e.collection("Guides", "")
	child := e.collection("Nested", col)
	e.space("In the nested collection", child)
	e.space("At the top", "")
	var want []string
	for i := 0; i < 7; i++ {
		want = append(want, e.space(fmt.Sprintf("Space %d", i), col))
	}
	deleted := e.space("Deleted", col)
	e.MustDo(http.MethodDelete, "/v1/spaces/"+deleted, e.OwnerToken, nil, http.StatusNoContent)
	path := "/v1/collections/" + col + "/spaces"

	t.Run("walk in order", func(t *testing.T) {
		for _, limit := range []int{1, 2, 3, 7, 8} {
			assert.Equal(t, want, e.Walk(t, path, e.OwnerToken, limit), "limit %d", limit)
		}
	})
	t.Run("items are spaces of the collection", func(t *testing.T) {
		res := e.MustDo(http.MethodGet, path+"?limit=2", readTok, nil, http.StatusOK)
		assert.EqualValues(t, len(want), res["count"])
		for _, it := range res["items"].([]any) {
			s := it.(map[string]any)
			assert.Equal(t, "space", s["object"])
			assert.Equal(t, col, s["parent"])
			assert.Equal(t, e.Org.ID, s["organization"])
		}
	})
	t.Run("move reorders", func(t *testing.T) {
		e.MustDo(http.MethodPost, "/v1/spaces/"+want[6]+"/move", e.OwnerToken, map[string]any{"position": ocPosition("before", want[0])}, http.StatusOK)
		assert.Equal(t, append([]string{want[6]}, want[:6]...), e.Walk(t, path, e.OwnerToken, 3))
	})
	e.Run(t, []servertest.Scenario{
		{Name: "limit 1000", Method: http.MethodGet, Path: path + "?limit=1000", Token: e.OwnerToken, WantStatus: http.StatusOK},
		{Name: "limit 1001", Method: http.MethodGet, Path: path + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "limit"},
		{Name: "garbage page", Method: http.MethodGet, Path: path + "?page=%21%21%21", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "garbage base64 page", Method: http.MethodGet, Path: path + "?page=bm90IGEgY3Vyc29y", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "without a token", Method: http.MethodGet, Path: path, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodGet, Path: path, Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
		{Name: "unknown collection", Method: http.MethodGet, Path: "/v1/collections/col_doesnotexist/spaces", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "collection of another organization", Method: http.MethodGet, Path: "/v1/collections/" + otherCol + "/spaces", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
}

// order returns the top-level collections of the owner's organization in
// order.
func (e ocEnv) order(t *testing.T) []string {
	return e.Walk(t, "/v1/orgs/"+e.Org.ID+"/collections?nested=false", e.OwnerToken, 1000)
}

func TestCollectionMove(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	otherCol := e.MustDo(http.MethodPost, "/v1/orgs/"+otherOrg+"/collections", otherTok, map[string]any{"title": "Theirs"}, http.StatusCreated)["id"].(string)
	a, b, c := e.collection("A", ""), e.collection("B", ""), e.collection("C", "")
	s := e.space("S", "") // after C
	d := e.collection("D", "")
	moveOf := func(id string) string { return "/v1/collections/" + id + "/move" }
	require.Equal(t, []string{a, b, c, d}, e.order(t))

	steps := []struct {
		name string
		id   string
		body any
		want []string
	}{
		{"before the first", c, map[string]any{"position": ocPosition("before", a)}, []string{c, a, b, d}},
		{"after the last", c, map[string]any{"position": ocPosition("after", d)}, []string{a, b, d, c}},
		{"after a middle one", a, map[string]any{"position": ocPosition("after", b)}, []string{b, a, d, c}},
		{"to the end without a position", b, map[string]any{"parent": nil}, []string{a, d, c, b}},
		{"to the end with an empty position", a, map[string]any{"position": map[string]any{}}, []string{d, c, b, a}},
		{"between two adjacent items", a, map[string]any{"position": map[string]any{"after": ocPosition("after", d)["after"], "before": ocPosition("before", c)["before"]}}, []string{d, a, c, b}},
		{"before a space", b, map[string]any{"position": ocPosition("before", s)}, []string{b, d, a, c}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res := e.MustDo(http.MethodPost, moveOf(st.id), e.OwnerToken, st.body, http.StatusOK)
			assert.Equal(t, st.id, res["id"])
			assert.NotContains(t, res, "parent")
			assert.Equal(t, st.want, e.order(t))
		})
	}

	// The siblings are now b, s, d, a, c: the space sits between b and d,
	// which only a move that changes nothing can show.
	e.Run(t, []servertest.Scenario{
		{Name: "no change: after the item it follows", Method: http.MethodPost, Path: moveOf(d), Token: e.OwnerToken,
			Body: map[string]any{"position": ocPosition("after", s)}, WantStatus: http.StatusConflict},
		{Name: "no change: before the item it precedes", Method: http.MethodPost, Path: moveOf(b), Token: e.OwnerToken,
			Body: map[string]any{"position": ocPosition("before", s)}, WantStatus: http.StatusConflict},
		{Name: "no change: last to the end", Method: http.MethodPost, Path: moveOf(c), Token: e.OwnerToken,
			Body: map[string]any{"parent": nil}, WantStatus: http.StatusConflict},
		{Name: "no change: before its own successor", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"position": ocPosition("before", c)}, WantStatus: http.StatusConflict},
		{Name: "relative to itself", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"position": ocPosition("before", a)}, WantStatus: http.StatusBadRequest},
		{Name: "relative to an item elsewhere", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"position": ocPosition("before", otherCol)}, WantStatus: http.StatusBadRequest, WantError: "position"},
		{Name: "before and after not adjacent", Method: http.MethodPost, Path: moveOf(d), Token: e.OwnerToken,
			Body:       map[string]any{"position": map[string]any{"after": ocPosition("after", a)["after"], "before": ocPosition("before", b)["before"]}},
			WantStatus: http.StatusBadRequest, WantError: "position"},
		{Name: "pointer type that does not match the ID", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": c}}}, WantStatus: http.StatusBadRequest, WantError: "position"},
		{Name: "pointer of an unknown type", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"position": map[string]any{"before": map[string]any{"type": "page", "page": c}}}, WantStatus: http.StatusBadRequest, WantError: "position"},
		{Name: "position of the wrong type", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"position": "first"}, WantStatus: http.StatusBadRequest, WantError: "position"},
		{Name: "parent of the wrong type", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"parent": 1}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "empty body", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken, Body: map[string]any{}, WantStatus: http.StatusBadRequest},
		{Name: "unknown member", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"parent": nil, "index": 2}, WantStatus: http.StatusBadRequest, WantError: "index"},
		{Name: "malformed JSON", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken, Body: `{"parent": null,}`, WantStatus: http.StatusBadRequest},
		{Name: "into a collection of another organization", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"parent": otherCol}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "into an unknown collection", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"parent": "col_doesnotexist"}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "into itself", Method: http.MethodPost, Path: moveOf(a), Token: e.OwnerToken,
			Body: map[string]any{"parent": a}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "without a token", Method: http.MethodPost, Path: moveOf(a), Body: map[string]any{"parent": b}, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodPost, Path: moveOf(a), Token: ocMalformedToken, Body: map[string]any{"parent": b}, WantStatus: http.StatusUnauthorized},
		{Name: "reader", Method: http.MethodPost, Path: moveOf(a), Token: readTok, Body: map[string]any{"parent": b}, WantStatus: http.StatusForbidden},
		{Name: "unknown", Method: http.MethodPost, Path: moveOf("col_doesnotexist"), Token: e.OwnerToken, Body: map[string]any{"parent": nil}, WantStatus: http.StatusNotFound},
		{Name: "of another organization", Method: http.MethodPost, Path: moveOf(otherCol), Token: e.OwnerToken, Body: map[string]any{"parent": nil}, WantStatus: http.StatusNotFound},
	})
	assert.Equal(t, []string{b, d, a, c}, e.order(t), "a refused move changed the order")

	t.Run("into a collection and out again", func(t *testing.T) {
		res := e.MustDo(http.MethodPost, moveOf(c), e.OwnerToken, map[string]any{"parent": a}, http.StatusOK)
		assert.Equal(t, a, res["parent"])
		assert.Equal(t, []string{b, d, a}, e.order(t))
		assert.Equal(t, a, e.MustDo(http.MethodGet, "/v1/collections/"+c, e.OwnerToken, nil, http.StatusOK)["parent"])

		// b goes into a, before c.
		res = e.MustDo(http.MethodPost, moveOf(b), e.OwnerToken, map[string]any{"parent": a, "position": ocPosition("before", c)}, http.StatusOK)
		assert.Equal(t, a, res["parent"])
		e.MustDo(http.MethodPost, moveOf(b), e.OwnerToken, map[string]any{"position": ocPosition("before", c)}, http.StatusConflict)
		e.MustDo(http.MethodPost, moveOf(b), e.OwnerToken, map[string]any{"parent": a, "position": ocPosition("before", c)}, http.StatusConflict)

		// Back to the top, before d.
		res = e.MustDo(http.MethodPost, moveOf(c), e.OwnerToken, map[string]any{"parent": nil, "position": ocPosition("before", d)}, http.StatusOK)
		assert.NotContains(t, res, "parent")
		assert.Equal(t, []string{c, d, a}, e.order(t))
	})
	t.Run("into its own descendant", func(t *testing.T) {
		// a holds b; b gets a child.
		grandchild := e.collection("Grandchild", b)
		for _, target := range []string{b, grandchild} {
			res := e.Do(http.MethodPost, moveOf(a), e.OwnerToken, map[string]any{"parent": target})
			assert.Equal(t, http.StatusBadRequest, res.Status, string(res.Body))
			assert.Contains(t, res.ErrorMessage(), "parent")
		}
		assert.Equal(t, b, e.MustDo(http.MethodGet, "/v1/collections/"+grandchild, e.OwnerToken, nil, http.StatusOK)["parent"])
		assert.NotContains(t, e.MustDo(http.MethodGet, "/v1/collections/"+a, e.OwnerToken, nil, http.StatusOK), "parent")
	})
	t.Run("to where the mover cannot create", func(t *testing.T) {
		// The reader becomes admin of d and what it holds through its
		// default level: they may reorder inside d, but not move content
		// to the top level, where they cannot create.
		e.MustDo(http.MethodPatch, "/v1/collections/"+d, e.OwnerToken, map[string]any{"defaultLevel": "admin"}, http.StatusOK)
		inner := e.collection("Inner", d)
		res := e.Do(http.MethodPost, moveOf(inner), readTok, map[string]any{"parent": nil})
		assert.Equal(t, http.StatusForbidden, res.Status, string(res.Body))
		e.MustDo(http.MethodPost, moveOf(inner), readTok, map[string]any{"position": map[string]any{}}, http.StatusConflict)
	})
}

func TestCollectionTransfer(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	target, targetTok := e.otherOrg("target@example.com")
	targetCol := e.MustDo(http.MethodPost, "/v1/orgs/"+target+"/collections", targetTok, map[string]any{"title": "Already there"}, http.StatusCreated)["id"].(string)
	third, _ := e.otherOrg("third@example.com")

	col := e.collection("Moving", "")
	nested := e.collection("Nested", col)
	deep := e.collection("Deep", nested)
	stay := e.collection("Stays", "")
	s1 := e.space("In moving", col)
	s2 := e.space("In deep", deep)
	s3 := e.space("Stays too", stay)
	path := "/v1/collections/" + col + "/transfer"

	// The owner is only an editor of the target organization for now.
	editTok, _ := e.Member(target, enum.RoleEdit, "owner@example.com")
	require.NotEmpty(t, editTok)

	e.Run(t, []servertest.Scenario{
		{Name: "without a token", Method: http.MethodPost, Path: path, Body: map[string]any{"organization": target}, WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodPost, Path: path, Token: ocMalformedToken, Body: map[string]any{"organization": target}, WantStatus: http.StatusUnauthorized},
		{Name: "organization missing", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "organization"},
		{Name: "organization null", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": nil}, WantStatus: http.StatusBadRequest, WantError: "organization"},
		{Name: "organization of the wrong type", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": 7}, WantStatus: http.StatusBadRequest, WantError: "organization"},
		{Name: "unknown member", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": target, "parent": targetCol}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "malformed JSON", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: `{"organization"`, WantStatus: http.StatusBadRequest},
		{Name: "to its own organization", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": e.Org.ID}, WantStatus: http.StatusConflict},
		{Name: "to an unknown organization", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": "org_doesnotexist"}, WantStatus: http.StatusBadRequest, WantError: "organization"},
		{Name: "to an organization the caller is not in", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": third}, WantStatus: http.StatusBadRequest, WantError: "organization"},
		{Name: "without create in the target", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"organization": target}, WantStatus: http.StatusForbidden},
		{Name: "reader of the source", Method: http.MethodPost, Path: path, Token: readTok, Body: map[string]any{"organization": target}, WantStatus: http.StatusForbidden},
		{Name: "unknown collection", Method: http.MethodPost, Path: "/v1/collections/col_doesnotexist/transfer", Token: e.OwnerToken, Body: map[string]any{"organization": target}, WantStatus: http.StatusNotFound},
		{Name: "collection of another organization", Method: http.MethodPost, Path: "/v1/collections/" + targetCol + "/transfer", Token: readTok, Body: map[string]any{"organization": e.Org.ID}, WantStatus: http.StatusNotFound},
	})
	// Nothing moved.
	assert.Equal(t, e.Org.ID, e.MustDo(http.MethodGet, "/v1/collections/"+deep, e.OwnerToken, nil, http.StatusOK)["organization"])
	assert.Equal(t, []string{targetCol}, e.ids("/v1/orgs/"+target+"/collections", targetTok))

	// With create in the target, it moves with everything in it.
	e.Member(target, enum.RoleCreate, "owner@example.com")
	res := e.MustDo(http.MethodPost, path, e.OwnerToken, map[string]any{"organization": target}, http.StatusOK)
	assert.Equal(t, target, res["organization"])
	assert.Equal(t, col, res["id"])
	assert.NotContains(t, res, "parent")

	assert.Equal(t, []string{targetCol, col}, e.Walk(t, "/v1/orgs/"+target+"/collections?nested=false", targetTok, 1))
	assert.ElementsMatch(t, []string{targetCol, col, nested, deep}, e.ids("/v1/orgs/"+target+"/collections", targetTok))
	assert.ElementsMatch(t, []string{s1, s2}, e.ids("/v1/orgs/"+target+"/spaces", targetTok))
	assert.Equal(t, []string{stay}, e.ids("/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken))
	assert.Equal(t, []string{s3}, e.ids("/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken))
	assert.Equal(t, nested, e.MustDo(http.MethodGet, "/v1/collections/"+deep, targetTok, nil, http.StatusOK)["parent"])
	sp := e.MustDo(http.MethodGet, "/v1/spaces/"+s2, targetTok, nil, http.StatusOK)
	assert.Equal(t, target, sp["organization"])
	assert.Equal(t, deep, sp["parent"])

	// Members of the source organization lost access to it.
	e.MustDo(http.MethodGet, "/v1/collections/"+col, readTok, nil, http.StatusNotFound)
	e.MustDo(http.MethodGet, "/v1/spaces/"+s1, readTok, nil, http.StatusNotFound)
	// Again is no change.
	e.MustDo(http.MethodPost, path, targetTok, map[string]any{"organization": target}, http.StatusConflict)
}

// TestCollectionGuestLevel holds that a null default level (the guest level)
// hides a collection, what it contains and what inherits from it from
// members, but not from admins.
func TestCollectionGuestLevel(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	adminTok, _ := e.Member(e.Org.ID, enum.RoleAdmin, "admin@example.com")
	guestTok, _ := e.Member(e.Org.ID, "", "guest@example.com")

	hidden := e.collection("Hidden", "")
	nested := e.collection("Nested", hidden)
	inheriting := e.space("Inheriting", hidden)
	deepSpace := e.space("Deep", nested)
	ownLevel := e.space("Own level", hidden)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+ownLevel, e.OwnerToken, map[string]any{"defaultLevel": "read"}, http.StatusOK)
	open := e.collection("Open", "")
	openSpace := e.space("Open space", open)
	topSpace := e.space("Top", "")

	res := e.MustDo(http.MethodPatch, "/v1/collections/"+hidden, e.OwnerToken, map[string]any{"defaultLevel": nil}, http.StatusOK)
	require.Contains(t, res, "defaultLevel")
	require.Nil(t, res["defaultLevel"])

	for _, id := range []string{hidden, nested} {
		e.MustDo(http.MethodGet, "/v1/collections/"+id, editTok, nil, http.StatusNotFound)
		e.MustDo(http.MethodGet, "/v1/collections/"+id+"/spaces", editTok, nil, http.StatusNotFound)
		e.MustDo(http.MethodGet, "/v1/collections/"+id, guestTok, nil, http.StatusNotFound)
		e.MustDo(http.MethodGet, "/v1/collections/"+id, adminTok, nil, http.StatusOK)
	}
	for _, id := range []string{inheriting, deepSpace} {
		e.MustDo(http.MethodGet, "/v1/spaces/"+id, editTok, nil, http.StatusNotFound)
		e.MustDo(http.MethodGet, "/v1/spaces/"+id, adminTok, nil, http.StatusOK)
	}
	// A space with its own level is not hidden by its collection's.
	e.MustDo(http.MethodGet, "/v1/spaces/"+ownLevel, editTok, nil, http.StatusOK)
	// Nor can the editor write to what they cannot see.
	e.MustDo(http.MethodPatch, "/v1/collections/"+hidden, editTok, map[string]any{"title": "Found"}, http.StatusNotFound)

	cols := "/v1/orgs/" + e.Org.ID + "/collections"
	spaces := "/v1/orgs/" + e.Org.ID + "/spaces"
	assert.Equal(t, []string{open}, e.Walk(t, cols, editTok, 1))
	assert.ElementsMatch(t, []string{ownLevel, openSpace, topSpace}, e.Walk(t, spaces, editTok, 1))
	assert.ElementsMatch(t, []string{hidden, nested, open}, e.Walk(t, cols, adminTok, 1))
	assert.ElementsMatch(t, []string{inheriting, deepSpace, ownLevel, openSpace, topSpace}, e.Walk(t, spaces, adminTok, 1))

	// Back to inherit, the editor sees it all again.
	e.MustDo(http.MethodPatch, "/v1/collections/"+hidden, e.OwnerToken, map[string]any{"defaultLevel": "inherit"}, http.StatusOK)
	assert.ElementsMatch(t, []string{hidden, nested, open}, e.Walk(t, cols, editTok, 2))
	got := e.MustDo(http.MethodGet, "/v1/collections/"+nested, editTok, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"view": true, "admin": false, "viewInviteLinks": false, "create": false}, got["permissions"])
	// A guest sees the organization but none of its content.
	assert.Empty(t, e.Walk(t, cols, guestTok, 1))
	assert.Empty(t, e.Walk(t, spaces, guestTok, 1))
}

// TestCollectionMoveRepeatedly moves collections into the same gap until the
// positions between two neighbours run out of precision: the order must stay
// right all along.
func TestCollectionMoveRepeatedly(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	a, b, c := e.collection("A", ""), e.collection("B", ""), e.collection("C", "")
	s := e.space("S", "")
	order := []string{a, b, c}
	for i := 0; i < 70; i++ {
		mover := order[2]
		e.MustDo(http.MethodPost, "/v1/collections/"+mover+"/move", e.OwnerToken, map[string]any{"position": ocPosition("after", a)}, http.StatusOK)
		order = []string{a, mover, order[1]}
		require.Equal(t, order, e.order(t), "after move %d", i+1)
	}
	// The space is still last.
	e.MustDo(http.MethodPost, "/v1/collections/"+order[2]+"/move", e.OwnerToken, map[string]any{"position": ocPosition("before", s)}, http.StatusConflict)
	e.MustDo(http.MethodPost, "/v1/collections/"+a+"/move", e.OwnerToken, map[string]any{"parent": nil}, http.StatusOK)
	e.MustDo(http.MethodPost, "/v1/collections/"+a+"/move", e.OwnerToken, map[string]any{"position": ocPosition("after", s)}, http.StatusConflict)
}
