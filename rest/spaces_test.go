package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// Strings at and just over the 50-character limit of space titles and
// emojis. Each character takes several bytes, so a limit counted in bytes
// would refuse the first.
var (
	spTitle50 = strings.Repeat("é", 50)
	spTitle51 = strings.Repeat("é", 51)
	spEmoji50 = strings.Repeat("👍", 50)
	spEmoji51 = strings.Repeat("👍", 51)
)

// spEnv is a test's organization with a few members and spaces.
type spEnv struct {
	*servertest.Env
	t testing.TB
	// Tokens of members of Env.Org by role.
	admin, creator, editor, reader, guest string
	// stranger is a user of no organization but their own.
	stranger string
	// other is an organization the members above do not belong to, and
	// otherOwner the token of its admin.
	other      *ent.Organization
	otherOwner string
}

// newSpEnv starts a server whose organization has a member of each kind.
func newSpEnv(t *testing.T) *spEnv {
	e := servertest.New(t)
	s := &spEnv{Env: e, t: t, admin: e.OwnerToken}
	s.creator, _ = e.Member(e.Org.ID, enum.RoleCreate, "creator@example.com")
	s.editor, _ = e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	s.reader, _ = e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	s.guest, _ = e.Member(e.Org.ID, "", "guest@example.com")
	s.stranger = e.Token(e.User("stranger@example.com"))
	otherOwner := e.User("other-owner@example.com")
	var err error
	s.other, err = graph.CreateOrganization(context.Background(), e.Client, "Other Org", otherOwner.ID)
	require.NoError(t, err)
	s.otherOwner = e.Token(otherOwner)
	return s
}

// create creates a space in the test organization as its admin.
func (s *spEnv) create(body map[string]any) map[string]any {
	s.t.Helper()
	return s.MustDo(http.MethodPost, "/v1/orgs/"+s.Org.ID+"/spaces", s.admin, body, http.StatusCreated)
}

// createID creates a space titled title, under parent unless it is empty.
func (s *spEnv) createID(title, parent string) string {
	s.t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return s.create(body)["id"].(string)
}

// collection creates a collection at the end of the test organization's
// top level.
func (s *spEnv) collection(title string) string {
	s.t.Helper()
	return s.MustDo(http.MethodPost, "/v1/orgs/"+s.Org.ID+"/collections", s.admin,
		map[string]any{"title": title}, http.StatusCreated)["id"].(string)
}

// privateOther creates a private space of the other organization.
func (s *spEnv) privateOther() string {
	s.t.Helper()
	return s.MustDo(http.MethodPost, "/v1/orgs/"+s.other.ID+"/spaces", s.otherOwner,
		map[string]any{"title": "Secret"}, http.StatusCreated)["id"].(string)
}

// load reads a space from the database.
func (s *spEnv) load(id string) *ent.Space {
	s.t.Helper()
	sp, err := s.Client.Space.Get(context.Background(), id)
	require.NoError(s.t, err)
	return sp
}

// update changes a space directly in the database.
func (s *spEnv) update(id string, fn func(*ent.SpaceUpdateOne)) {
	s.t.Helper()
	u := s.Client.Space.UpdateOneID(id)
	fn(u)
	require.NoError(s.t, u.Exec(context.Background()))
}

// order returns the live spaces and collections under parent (the root
// when empty), in the order of their positions.
func (s *spEnv) order(orgID, parent string) []string {
	s.t.Helper()
	ctx := context.Background()
	type item struct {
		id  string
		pos float64
	}
	var items []item
	sq := s.Client.Space.Query().Where(space.OrganizationID(orgID), space.DeletedAtIsNil())
	if parent == "" {
		sq.Where(space.ParentIDIsNil())
	} else {
		sq.Where(space.ParentID(parent))
	}
	for _, sp := range sq.AllX(ctx) {
		items = append(items, item{sp.ID, sp.Position})
	}
	for _, c := range s.Client.Collection.Query().AllX(ctx) {
		if c.OrganizationID == orgID && spDeref(c.ParentID) == parent {
			items = append(items, item{c.ID, c.Position})
		}
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].pos != items[j].pos {
			return items[i].pos < items[j].pos
		}
		return items[i].id < items[j].id
	})
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.id
	}
	return out
}

// spDeref returns the string p points at, or "".
func spDeref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// spPath is the /v1 path of a space, with an optional suffix.
func spPath(id string, rest ...string) string {
	return "/v1/spaces/" + id + strings.Join(rest, "")
}

// commonErrors are the scenarios every endpoint of a space shares:
// authentication, unknown IDs and other organizations' private spaces.
func (s *spEnv) commonErrors(method, suffix string, body any, id string) []servertest.Scenario {
	other := s.privateOther()
	return []servertest.Scenario{
		{Name: "no token", Method: method, Path: spPath(id, suffix), Body: body, WantStatus: http.StatusUnauthorized},
		{Name: "bad token", Method: method, Path: spPath(id, suffix), Token: "nope", Body: body, WantStatus: http.StatusUnauthorized},
		{Name: "unknown space", Method: method, Path: spPath("spc_doesnotexist", suffix), Token: s.admin, Body: body,
			WantStatus: http.StatusNotFound, WantError: "Space not found"},
		{Name: "private space of another organization", Method: method, Path: spPath(other, suffix), Token: s.admin,
			Body: body, WantStatus: http.StatusNotFound, WantError: "Space not found"},
		{Name: "private space for a stranger", Method: method, Path: spPath(id, suffix), Token: s.stranger,
			Body: body, WantStatus: http.StatusNotFound, WantError: "Space not found"},
		{Name: "private space for a guest", Method: method, Path: spPath(id, suffix), Token: s.guest,
			Body: body, WantStatus: http.StatusNotFound, WantError: "Space not found"},
	}
}

// spAllPermissions is the permissions object of a space's administrator.
var spAllPermissions = map[string]any{
	"view": true, "access": true, "admin": true, "viewInviteLinks": true, "edit": true,
	"triggerGitSync": true, "comment": true, "merge": true, "review": true, "installIntegration": true,
}

func TestGetSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	id := s.createID("Handbook", "")
	sp := s.load(id)
	scenarios := []servertest.Scenario{
		{Name: "admin", Method: http.MethodGet, Path: spPath(id), Token: s.admin, WantStatus: http.StatusOK,
			WantJSON: map[string]any{
				"object": "space", "id": id, "title": "Handbook", "emoji": "", "visibility": "private",
				"organization": s.Org.ID, "revision": *sp.RevisionID, "defaultLevel": "inherit",
				"comments": 0, "changeRequests": 0, "changeRequestsOpen": 0, "changeRequestsDraft": 0,
				"mergeRules":  map[string]any{"type": "inherit"},
				"urls":        map[string]any{"location": "http://bindery.test/v1/spaces/" + id},
				"permissions": spAllPermissions,
			},
			Check: func(t *testing.T, res *servertest.Response) {
				body := res.JSON()
				assert.NotContains(t, body, "deletedAt")
				assert.NotContains(t, body, "parent")
			}},
		{Name: "reader", Method: http.MethodGet, Path: spPath(id), Token: s.reader, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": id, "permissions": map[string]any{
				"view": true, "access": true, "admin": false, "edit": false, "comment": false, "merge": false, "review": false,
			}}},
		{Name: "editor", Method: http.MethodGet, Path: spPath(id), Token: s.editor, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"permissions": map[string]any{
				"view": true, "access": true, "admin": false, "edit": true, "comment": true, "merge": true, "review": false,
			}}},
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodGet, "", nil, id)...)
	s.Run(t, scenarios)
}

// A share-link space opens to anyone holding an active key of it, and only
// for reading.
func TestGetSpaceShareKey(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	ctx := context.Background()
	shared := s.createID("Shared", "")
	other := s.createID("Other", "")
	s.update(shared, func(u *ent.SpaceUpdateOne) { u.SetVisibility(enum.VisibilityShareLink) })
	s.update(other, func(u *ent.SpaceUpdateOne) { u.SetVisibility(enum.VisibilityShareLink) })
	require.NoError(t, s.Client.ShareLink.Create().SetSpaceID(shared).SetKey("sesame").Exec(ctx))
	require.NoError(t, s.Client.ShareLink.Create().SetSpaceID(other).SetKey("other-key").Exec(ctx))
	require.NoError(t, s.Client.ShareLink.Create().SetSpaceID(shared).SetKey("revoked").SetActive(false).Exec(ctx))
	private := s.createID("Private", "")
	require.NoError(t, s.Client.ShareLink.Create().SetSpaceID(private).SetKey("private-key").Exec(ctx))

	readOnly := map[string]any{"view": true, "access": false, "admin": false, "viewInviteLinks": false, "edit": false,
		"triggerGitSync": false, "comment": false, "merge": false, "review": false, "installIntegration": false}
	s.Run(t, []servertest.Scenario{
		{Name: "stranger without the key", Method: http.MethodGet, Path: spPath(shared), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "stranger with the key", Method: http.MethodGet, Path: spPath(shared, "?shareKey=sesame"), Token: s.stranger,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"id": shared, "visibility": "share-link", "permissions": readOnly}},
		{Name: "guest with the key", Method: http.MethodGet, Path: spPath(shared, "?shareKey=sesame"), Token: s.guest,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"permissions": readOnly}},
		{Name: "editor with the key keeps their role", Method: http.MethodGet, Path: spPath(shared, "?shareKey=sesame"),
			Token: s.editor, WantStatus: http.StatusOK, WantJSON: map[string]any{"permissions": map[string]any{"access": true, "edit": true}}},
		{Name: "wrong key", Method: http.MethodGet, Path: spPath(shared, "?shareKey=nope"), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "key of another space", Method: http.MethodGet, Path: spPath(shared, "?shareKey=other-key"), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "revoked key", Method: http.MethodGet, Path: spPath(shared, "?shareKey=revoked"), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "key of a private space", Method: http.MethodGet, Path: spPath(private, "?shareKey=private-key"), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "the key does not open writes", Method: http.MethodPatch, Path: spPath(shared), Token: s.stranger,
			Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusNotFound},
	})
}

func TestCreateSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	col := s.collection("Guides")
	otherCol, err := s.Client.Collection.Create().SetOrganizationID(s.other.ID).SetTitle("Theirs").Save(context.Background())
	require.NoError(t, err)
	first := s.createID("First", "")
	path := "/v1/orgs/" + s.Org.ID + "/spaces"
	post := func(name, tok string, body any, status int, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPost, Path: path, Token: tok, Body: body,
			WantStatus: status, WantJSON: want}
	}
	var created []string
	keep := func(t *testing.T, res *servertest.Response) {
		body := res.JSON()
		id := body["id"].(string)
		assert.Equal(t, "http://bindery.test/v1/spaces/"+id, res.Header.Get("Location"))
		created = append(created, id)
	}
	withCheck := func(sc servertest.Scenario, check func(*testing.T, *servertest.Response)) servertest.Scenario {
		sc.Check = check
		return sc
	}
	s.Run(t, []servertest.Scenario{
		withCheck(post("every member", s.admin, map[string]any{
			"title": "  Guide  ", "emoji": "📘", "parent": col, "language": "fr", "editMode": "locked",
		}, http.StatusCreated, map[string]any{
			"object": "space", "title": "Guide", "emoji": "📘", "parent": col, "language": "fr", "editMode": "locked",
			"organization": s.Org.ID, "visibility": "private", "defaultLevel": "inherit", "permissions": spAllPermissions,
		}), keep),
		withCheck(post("no body gives an untitled space", s.admin, nil, http.StatusCreated,
			map[string]any{"title": "Untitled", "emoji": ""}), keep),
		withCheck(post("empty title gives an untitled space", s.admin, map[string]any{"title": " "}, http.StatusCreated,
			map[string]any{"title": "Untitled"}), keep),
		withCheck(post("title and emoji at the limit", s.admin, map[string]any{"title": spTitle50, "emoji": spEmoji50},
			http.StatusCreated, map[string]any{"title": spTitle50, "emoji": spEmoji50}), keep),
		post("null members are refused: the spec marks none nullable", s.admin,
			map[string]any{"emoji": nil, "parent": nil, "language": nil, "editMode": nil}, http.StatusBadRequest, nil),
		post("a null title is refused", s.admin, map[string]any{"title": nil}, http.StatusBadRequest, nil),
		withCheck(post("a creator may create at the top level", s.creator, map[string]any{"title": "Mine"}, http.StatusCreated,
			map[string]any{"title": "Mine", "permissions": map[string]any{"edit": true, "admin": false}}), keep),
		post("title over the limit", s.admin, map[string]any{"title": spTitle51}, http.StatusBadRequest, nil),
		post("emoji over the limit", s.admin, map[string]any{"emoji": spEmoji51}, http.StatusBadRequest, nil),
		post("null title", s.admin, map[string]any{"title": nil}, http.StatusBadRequest, nil),
		post("template is not supported", s.admin, map[string]any{"template": "blank"}, http.StatusBadRequest, nil),
		post("computedSource is not supported", s.admin, map[string]any{"computedSource": map[string]any{"source": "x"}},
			http.StatusBadRequest, nil),
		post("unknown member", s.admin, map[string]any{"title": "x", "visibility": "public"}, http.StatusBadRequest, nil),
		post("malformed JSON", s.admin, `{"title": "x"`, http.StatusBadRequest, nil),
		post("not an object", s.admin, `["title"]`, http.StatusBadRequest, nil),
		post("wrong type", s.admin, map[string]any{"title": 42}, http.StatusBadRequest, nil),
		post("unknown edit mode", s.admin, map[string]any{"editMode": "frozen"}, http.StatusBadRequest, nil),
		post("unknown language", s.admin, map[string]any{"language": "klingon"}, http.StatusBadRequest, nil),
		post("parent of another organization", s.admin, map[string]any{"parent": otherCol.ID}, http.StatusBadRequest, nil),
		post("unknown parent", s.admin, map[string]any{"parent": "col_doesnotexist"}, http.StatusBadRequest, nil),
		post("no token", "", map[string]any{"title": "x"}, http.StatusUnauthorized, nil),
		post("reader", s.reader, map[string]any{"title": "x"}, http.StatusForbidden, nil),
		post("editor", s.editor, map[string]any{"title": "x"}, http.StatusForbidden, nil),
		post("guest", s.guest, map[string]any{"title": "x"}, http.StatusForbidden, nil),
		post("reader in a collection", s.reader, map[string]any{"parent": col}, http.StatusForbidden, nil),
		post("stranger", s.stranger, map[string]any{"title": "x"}, http.StatusNotFound, nil),
		{Name: "unknown organization", Method: http.MethodPost, Path: "/v1/orgs/org_doesnotexist/spaces", Token: s.admin,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
		{Name: "another organization", Method: http.MethodPost, Path: "/v1/orgs/" + s.other.ID + "/spaces", Token: s.admin,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
	})
	require.Len(t, created, 5)
	// A new space goes last among its siblings.
	assert.Equal(t, append([]string{col, first}, created[1:]...), s.order(s.Org.ID, ""))
	assert.Equal(t, created[:1], s.order(s.Org.ID, col))
	// Refused requests created nothing.
	n, err := s.Client.Space.Query().Where(space.OrganizationID(s.Org.ID)).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 6, n)
	// Each space starts with its own empty revision.
	for _, id := range created {
		sp := s.load(id)
		rev, err := s.Client.Revision.Get(context.Background(), *sp.RevisionID)
		require.NoError(t, err)
		assert.Equal(t, id, rev.SpaceID)
		assert.Nil(t, rev.PagesRoot)
	}
}

func TestListOrganizationSpaces(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	for i := 0; i < 23; i++ {
		s.createID(fmt.Sprintf("Space %02d", i), "")
	}
	deleted := s.createID("Deleted", "")
	s.MustDo(http.MethodDelete, spPath(deleted), s.admin, nil, http.StatusNoContent)
	// The list runs by creation time (milliseconds), ties broken by ID:
	// spaces created within one millisecond are not in creation order.
	want, err := s.Client.Space.Query().Where(space.OrganizationID(s.Org.ID), space.DeletedAtIsNil()).
		Order(ent.Asc(space.FieldCreatedAt), ent.Asc(space.FieldID)).IDs(context.Background())
	require.NoError(t, err)
	require.Len(t, want, 23)

	for _, limit := range []int{5, 1, 23, 1000} {
		t.Run(fmt.Sprintf("walk with limit %d", limit), func(t *testing.T) {
			assert.Equal(t, want, s.Walk(t, "/v1/orgs/"+s.Org.ID+"/spaces", s.admin, limit))
		})
	}
	t.Run("default limit", func(t *testing.T) {
		body := s.MustDo(http.MethodGet, "/v1/orgs/"+s.Org.ID+"/spaces", s.reader, nil, http.StatusOK)
		assert.Len(t, body["items"], 23)
		assert.EqualValues(t, 23, body["count"])
		assert.NotContains(t, body, "next")
	})
	first := s.MustDo(http.MethodGet, "/v1/orgs/"+s.Org.ID+"/spaces?limit=5", s.admin, nil, http.StatusOK)
	cursor := first["next"].(map[string]any)["page"].(string)
	colCursor := func() string {
		for i := 0; i < 2; i++ {
			s.collection("C")
		}
		b := s.MustDo(http.MethodGet, "/v1/orgs/"+s.Org.ID+"/collections?limit=1", s.admin, nil, http.StatusOK)
		return b["next"].(map[string]any)["page"].(string)
	}()
	path := "/v1/orgs/" + s.Org.ID + "/spaces"
	get := func(name, query, tok string, status int) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: path + query, Token: tok, WantStatus: status}
	}
	s.Run(t, []servertest.Scenario{
		get("limit over the maximum", "?limit=1001", s.admin, http.StatusBadRequest),
		get("negative limit", "?limit=-1", s.admin, http.StatusBadRequest),
		get("limit not a number", "?limit=ten", s.admin, http.StatusBadRequest),
		get("garbage page", "?page=garbage", s.admin, http.StatusBadRequest),
		get("page of another list", "?page="+colCursor, s.admin, http.StatusBadRequest),
		{Name: "a cursor continues the list", Method: http.MethodGet, Path: path + "?limit=5&page=" + cursor, Token: s.admin,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				items := res.JSON()["items"].([]any)
				require.Len(t, items, 5)
				assert.Equal(t, want[5], items[0].(map[string]any)["id"])
			}},
		get("no token", "", "", http.StatusUnauthorized),
		get("stranger", "", s.stranger, http.StatusNotFound),
		{Name: "unknown organization", Method: http.MethodGet, Path: "/v1/orgs/org_doesnotexist/spaces", Token: s.admin,
			WantStatus: http.StatusNotFound},
		{Name: "another organization", Method: http.MethodGet, Path: "/v1/orgs/" + s.other.ID + "/spaces", Token: s.admin,
			WantStatus: http.StatusNotFound},
		{Name: "a guest sees an empty list", Method: http.MethodGet, Path: path, Token: s.guest, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"items": []any{}, "count": 0}},
	})
}

func TestUpdateSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	id := s.createID("Handbook", "")
	patch := func(name, tok string, body any, status int, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPatch, Path: spPath(id), Token: tok, Body: body,
			WantStatus: status, WantJSON: want}
	}
	scenarios := []servertest.Scenario{
		patch("editor changes the details", s.editor,
			map[string]any{"title": " Manual ", "emoji": "📗", "language": "de"}, http.StatusOK,
			map[string]any{"title": "Manual", "emoji": "📗", "language": "de"}),
		patch("editor sets an icon", s.editor, map[string]any{"icon": "https://example.com/icon.png"}, http.StatusOK,
			map[string]any{"urls": map[string]any{"icon": "https://example.com/icon.png"}}),
		patch("editor removes the icon", s.editor, map[string]any{"icon": nil}, http.StatusOK, nil),
		patch("title and emoji at the limit", s.editor, map[string]any{"title": spTitle50, "emoji": spEmoji50}, http.StatusOK,
			map[string]any{"title": spTitle50, "emoji": spEmoji50}),
		patch("title over the limit", s.editor, map[string]any{"title": spTitle51}, http.StatusBadRequest, nil),
		patch("emoji over the limit", s.editor, map[string]any{"emoji": spEmoji51}, http.StatusBadRequest, nil),
		patch("null emoji removes it", s.editor, map[string]any{"emoji": nil}, http.StatusOK, map[string]any{"emoji": ""}),
		patch("admin locks the space", s.admin, map[string]any{"editMode": "locked"}, http.StatusOK,
			map[string]any{"editMode": "locked"}),
		patch("admin sets the default level", s.admin, map[string]any{"defaultLevel": "comment"}, http.StatusOK,
			map[string]any{"defaultLevel": "comment"}),
		patch("editor now only comments", s.editor, map[string]any{"title": "x"}, http.StatusForbidden, nil),
		patch("admin restores inheritance", s.admin, map[string]any{"defaultLevel": "inherit", "editMode": "live"}, http.StatusOK,
			map[string]any{"defaultLevel": "inherit", "editMode": "live"}),
		patch("editor may not change the edit mode", s.editor, map[string]any{"editMode": "locked"}, http.StatusForbidden, nil),
		patch("editor may not change the default level", s.editor, map[string]any{"defaultLevel": "read"}, http.StatusForbidden, nil),
		patch("editor may not change the edit mode with the title", s.editor,
			map[string]any{"title": "Sneaky", "editMode": "locked"}, http.StatusForbidden, nil),
		patch("reader may not change the title", s.reader, map[string]any{"title": "x"}, http.StatusForbidden, nil),
		patch("creator may not change the default level", s.creator, map[string]any{"defaultLevel": "admin"}, http.StatusForbidden, nil),
		patch("mergeRules is not supported", s.admin, map[string]any{"mergeRules": map[string]any{"type": "inherit"}},
			http.StatusBadRequest, nil),
		patch("unknown member", s.admin, map[string]any{"visibility": "public"}, http.StatusBadRequest, nil),
		patch("malformed JSON", s.admin, `{"title":`, http.StatusBadRequest, nil),
		patch("unknown edit mode", s.admin, map[string]any{"editMode": "frozen"}, http.StatusBadRequest, nil),
		patch("unknown default level", s.admin, map[string]any{"defaultLevel": "owner"}, http.StatusBadRequest, nil),
		patch("unknown language", s.admin, map[string]any{"language": "xx"}, http.StatusBadRequest, nil),
		patch("null title", s.admin, map[string]any{"title": nil}, http.StatusBadRequest, nil),
		patch("icon not a URL", s.admin, map[string]any{"icon": "icon.png"}, http.StatusBadRequest, nil),
		patch("admin sets the guest level", s.admin, map[string]any{"defaultLevel": nil}, http.StatusOK,
			map[string]any{"defaultLevel": nil}),
		patch("the editor lost access", s.editor, map[string]any{"title": "x"}, http.StatusNotFound, nil),
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodPatch, "", map[string]any{"title": "x"}, s.createID("Other", ""))...)
	s.Run(t, scenarios)

	sp := s.load(id)
	assert.Equal(t, spTitle50, sp.Title)
	assert.Equal(t, "", sp.Emoji)
	assert.Nil(t, sp.Icon)
	assert.Equal(t, enum.LanguageDe, *sp.Language)
	assert.Nil(t, sp.DefaultLevel)
}

func TestDeleteSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	id := s.createID("Doomed", "")
	keep := s.createID("Kept", "")
	scenarios := []servertest.Scenario{
		{Name: "reader may not delete", Method: http.MethodDelete, Path: spPath(id), Token: s.reader, WantStatus: http.StatusForbidden},
		{Name: "creator may not delete", Method: http.MethodDelete, Path: spPath(id), Token: s.creator, WantStatus: http.StatusForbidden},
		{Name: "admin deletes", Method: http.MethodDelete, Path: spPath(id), Token: s.admin, WantStatus: http.StatusNoContent,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Empty(t, res.Body)
				assert.NotNil(t, s.load(id).DeletedAt)
			}},
		{Name: "admin still sees it, deleted", Method: http.MethodGet, Path: spPath(id), Token: s.admin, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotEmpty(t, res.JSON()["deletedAt"])
			}},
		{Name: "an editor does not", Method: http.MethodGet, Path: spPath(id), Token: s.editor, WantStatus: http.StatusNotFound},
		{Name: "nor does a reader", Method: http.MethodGet, Path: spPath(id), Token: s.reader, WantStatus: http.StatusNotFound},
		{Name: "it leaves the list", Method: http.MethodGet, Path: "/v1/orgs/" + s.Org.ID + "/spaces", Token: s.admin,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"count": 1, "items": []any{map[string]any{"id": keep}}}},
		{Name: "PATCH is refused", Method: http.MethodPatch, Path: spPath(id), Token: s.admin, Body: map[string]any{"title": "x"},
			WantStatus: http.StatusPreconditionFailed},
		{Name: "PATCH by an editor is not found", Method: http.MethodPatch, Path: spPath(id), Token: s.editor,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusNotFound},
		{Name: "moving is refused", Method: http.MethodPost, Path: spPath(id, "/move"), Token: s.admin,
			Body: map[string]any{"parent": nil}, WantStatus: http.StatusPreconditionFailed},
		{Name: "duplicating is refused", Method: http.MethodPost, Path: spPath(id, "/duplicate"), Token: s.admin,
			WantStatus: http.StatusPreconditionFailed},
		{Name: "transferring is refused", Method: http.MethodPost, Path: spPath(id, "/transfer"), Token: s.admin,
			Body: map[string]any{"organization": s.other.ID}, WantStatus: http.StatusPreconditionFailed},
		{Name: "deleting again", Method: http.MethodDelete, Path: spPath(id), Token: s.admin, WantStatus: http.StatusNoContent},
		{Name: "deleting again by an editor", Method: http.MethodDelete, Path: spPath(id), Token: s.editor, WantStatus: http.StatusNotFound},
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodDelete, "", nil, keep)...)
	s.Run(t, scenarios)

	// Deleting again keeps the first deletion time, which starts the
	// retention period.
	first := *s.load(id).DeletedAt
	s.Clock.Advance(time.Hour)
	s.MustDo(http.MethodDelete, spPath(id), s.admin, nil, http.StatusNoContent)
	assert.True(t, first.Equal(*s.load(id).DeletedAt))
	// After the retention period the space is gone for everyone.
	s.Clock.Advance(graph.SpaceRetention)
	s.MustDo(http.MethodGet, spPath(id), s.admin, nil, http.StatusNotFound)
	s.MustDo(http.MethodDelete, spPath(id), s.admin, nil, http.StatusNotFound)
}

func TestDuplicateSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	ctx := context.Background()
	col := s.collection("Guides")
	before := s.createID("Before", col)
	orig := s.create(map[string]any{"title": "Guide", "emoji": "📘", "parent": col, "language": "fr", "editMode": "locked"})["id"].(string)
	after := s.createID("After", col)
	// Give the original some content and settings worth copying.
	rev, err := s.Client.Revision.Create().SetSpaceID(orig).SetType(enum.RevisionTypeEdits).
		SetPagesRoot("pages-root").SetFilesRoot("files-root").SetReusableContentsRoot("reusable-root").Save(ctx)
	require.NoError(t, err)
	s.update(orig, func(u *ent.SpaceUpdateOne) {
		u.SetRevisionID(rev.ID).ClearDefaultLevel().SetVisibility(enum.VisibilityUnlisted).SetIcon("https://example.com/i.png")
	})
	long := s.createID(strings.Repeat("é", 48)+"xy", "")
	spaced := s.createID(strings.Repeat("a", 42)+" bcdefg", "")
	scenarios := []servertest.Scenario{
		{Name: "admin duplicates", Method: http.MethodPost, Path: spPath(orig, "/duplicate"), Token: s.admin,
			WantStatus: http.StatusCreated, WantJSON: map[string]any{
				"title": "Guide (copy)", "emoji": "📘", "parent": col, "language": "fr", "editMode": "locked",
				"visibility": "unlisted", "defaultLevel": nil, "organization": s.Org.ID,
				"urls": map[string]any{"icon": "https://example.com/i.png"},
			},
			Check: func(t *testing.T, res *servertest.Response) {
				body := res.JSON()
				cp := body["id"].(string)
				assert.NotEqual(t, orig, cp)
				assert.Equal(t, "http://bindery.test/v1/spaces/"+cp, res.Header.Get("Location"))
				assert.NotEqual(t, rev.ID, body["revision"])
				copyRev, err := s.Client.Revision.Get(ctx, body["revision"].(string))
				require.NoError(t, err)
				assert.Equal(t, cp, copyRev.SpaceID)
				assert.Equal(t, rev.PagesRoot, copyRev.PagesRoot)
				assert.Equal(t, rev.FilesRoot, copyRev.FilesRoot)
				assert.Equal(t, rev.ReusableContentsRoot, copyRev.ReusableContentsRoot)
				assert.Equal(t, []string{before, orig, cp, after}, s.order(s.Org.ID, col), "the copy goes right after the original")
				// The original is untouched.
				o := s.load(orig)
				assert.Equal(t, "Guide", o.Title)
				assert.Equal(t, rev.ID, *o.RevisionID)
			}},
		{Name: "the title is cut to fit the limit", Method: http.MethodPost, Path: spPath(long, "/duplicate"), Token: s.admin,
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": strings.Repeat("é", 43) + " (copy)"}},
		{Name: "a cut title does not end with a space", Method: http.MethodPost, Path: spPath(spaced, "/duplicate"), Token: s.admin,
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": strings.Repeat("a", 42) + " (copy)"}},
		{Name: "a creator may duplicate", Method: http.MethodPost, Path: spPath(before, "/duplicate"), Token: s.creator,
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": "Before (copy)"}},
		{Name: "empty body", Method: http.MethodPost, Path: spPath(before, "/duplicate"), Token: s.admin, Body: map[string]any{},
			WantStatus: http.StatusCreated},
		{Name: "unknown member", Method: http.MethodPost, Path: spPath(before, "/duplicate"), Token: s.admin,
			Body: map[string]any{"title": "x"}, WantStatus: http.StatusBadRequest},
		{Name: "malformed JSON", Method: http.MethodPost, Path: spPath(before, "/duplicate"), Token: s.admin,
			Body: "{", WantStatus: http.StatusBadRequest},
		{Name: "reader", Method: http.MethodPost, Path: spPath(before, "/duplicate"), Token: s.reader, WantStatus: http.StatusForbidden},
		{Name: "editor", Method: http.MethodPost, Path: spPath(before, "/duplicate"), Token: s.editor, WantStatus: http.StatusForbidden},
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodPost, "/duplicate", nil, before)...)
	s.Run(t, scenarios)
}

func TestRestoreSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	col := s.collection("Guides")
	a := s.createID("A", col)
	b := s.createID("B", col)
	s.MustDo(http.MethodDelete, spPath(a), s.admin, nil, http.StatusNoContent)
	c := s.createID("C", col)
	live := s.createID("Live", "")
	s.Clock.Advance(6 * 24 * time.Hour)
	scenarios := []servertest.Scenario{
		{Name: "an editor cannot see it", Method: http.MethodPost, Path: spPath(a, "/restore"), Token: s.editor,
			WantStatus: http.StatusNotFound},
		{Name: "unknown member", Method: http.MethodPost, Path: spPath(a, "/restore"), Token: s.admin,
			Body: map[string]any{"at": "end"}, WantStatus: http.StatusBadRequest},
		{Name: "malformed JSON", Method: http.MethodPost, Path: spPath(a, "/restore"), Token: s.admin,
			Body: "{]", WantStatus: http.StatusBadRequest},
		{Name: "admin restores", Method: http.MethodPost, Path: spPath(a, "/restore"), Token: s.admin,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"id": a, "parent": col, "title": "A"},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.JSON(), "deletedAt")
				assert.Nil(t, s.load(a).DeletedAt)
				assert.Equal(t, []string{b, c, a}, s.order(s.Org.ID, col), "a restored space goes last")
			}},
		{Name: "it is back for the editor", Method: http.MethodGet, Path: spPath(a), Token: s.editor, WantStatus: http.StatusOK},
		{Name: "restoring a live space", Method: http.MethodPost, Path: spPath(a, "/restore"), Token: s.admin,
			WantStatus: http.StatusConflict},
		{Name: "editor restoring a live space", Method: http.MethodPost, Path: spPath(live, "/restore"), Token: s.editor,
			WantStatus: http.StatusForbidden},
		{Name: "reader restoring a live space", Method: http.MethodPost, Path: spPath(live, "/restore"), Token: s.reader,
			WantStatus: http.StatusForbidden},
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodPost, "/restore", nil, live)...)
	s.Run(t, scenarios)

	t.Run("after the retention period", func(t *testing.T) {
		old := s.createID("Old", "")
		s.MustDo(http.MethodDelete, spPath(old), s.admin, nil, http.StatusNoContent)
		s.Clock.Advance(graph.SpaceRetention - time.Minute)
		s.MustDo(http.MethodGet, spPath(old), s.admin, nil, http.StatusOK)
		s.Clock.Advance(2 * time.Minute)
		s.MustDo(http.MethodPost, spPath(old, "/restore"), s.admin, nil, http.StatusNotFound)
		s.MustDo(http.MethodGet, spPath(old), s.admin, nil, http.StatusNotFound)
		assert.NotNil(t, s.load(old).DeletedAt)
	})
	t.Run("a space whose collection was deleted returns to the top level", func(t *testing.T) {
		col := s.collection("Doomed")
		inside := s.createID("Inside", col)
		s.MustDo(http.MethodDelete, "/v1/collections/"+col, s.admin, nil, http.StatusNoContent)
		body := s.MustDo(http.MethodPost, spPath(inside, "/restore"), s.admin, nil, http.StatusOK)
		assert.NotContains(t, body, "parent")
		order := s.order(s.Org.ID, "")
		assert.Equal(t, inside, order[len(order)-1])
	})
}

func TestMoveSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	colA := s.collection("A")
	colB := s.collection("B")
	x := s.createID("X", "")
	y := s.createID("Y", "")
	in1 := s.createID("In 1", colA)
	in2 := s.createID("In 2", colA)
	otherCol, err := s.Client.Collection.Create().SetOrganizationID(s.other.ID).SetTitle("Theirs").Save(context.Background())
	require.NoError(t, err)
	move := func(name, tok, id string, body any, status int, wantOrder map[string][]string) servertest.Scenario {
		sc := servertest.Scenario{Name: name, Method: http.MethodPost, Path: spPath(id, "/move"), Token: tok, Body: body,
			WantStatus: status}
		if wantOrder != nil {
			sc.Check = func(t *testing.T, res *servertest.Response) {
				for parent, want := range wantOrder {
					assert.Equal(t, want, s.order(s.Org.ID, parent), "order under %q", parent)
				}
			}
		}
		return sc
	}
	sp := func(id string) map[string]any { return map[string]any{"type": "space", "space": id} }
	co := func(id string) map[string]any { return map[string]any{"type": "collection", "collection": id} }
	scenarios := []servertest.Scenario{
		move("into a collection, at the end", s.admin, x, map[string]any{"parent": colA}, http.StatusOK,
			map[string][]string{"": {colA, colB, y}, colA: {in1, in2, x}}),
		move("before a sibling", s.admin, x, map[string]any{"position": map[string]any{"before": sp(in1)}}, http.StatusOK,
			map[string][]string{colA: {x, in1, in2}}),
		move("after a sibling", s.admin, x, map[string]any{"position": map[string]any{"after": sp(in1)}}, http.StatusOK,
			map[string][]string{colA: {in1, x, in2}}),
		move("after the last sibling", s.admin, x, map[string]any{"position": map[string]any{"after": sp(in2)}}, http.StatusOK,
			map[string][]string{colA: {in1, in2, x}}),
		move("to the top level before a collection", s.admin, x,
			map[string]any{"parent": nil, "position": map[string]any{"before": co(colB)}}, http.StatusOK,
			map[string][]string{"": {colA, x, colB, y}, colA: {in1, in2}}),
		move("between with both neighbours named", s.admin, y,
			map[string]any{"position": map[string]any{"after": co(colA), "before": sp(x)}}, http.StatusOK,
			map[string][]string{"": {colA, y, x, colB}}),
		move("into another collection with a position", s.admin, in2,
			map[string]any{"parent": colB, "position": map[string]any{"after": sp(in1)}}, http.StatusBadRequest, nil),
		move("before and after that are not neighbours", s.admin, y,
			map[string]any{"position": map[string]any{"after": co(colA), "before": co(colB)}}, http.StatusBadRequest, nil),
		move("a move that changes nothing", s.admin, y, map[string]any{"position": map[string]any{"after": co(colA)}},
			http.StatusConflict, nil),
		move("same parent named again", s.admin, in1, map[string]any{"parent": colA, "position": map[string]any{"before": sp(in2)}},
			http.StatusConflict, nil),
		move("to the end where it already is", s.admin, in2, map[string]any{"parent": colA}, http.StatusConflict, nil),
		move("empty body", s.admin, y, map[string]any{}, http.StatusBadRequest, nil),
		move("no body", s.admin, y, nil, http.StatusBadRequest, nil),
		move("position relative to itself", s.admin, y, map[string]any{"position": map[string]any{"before": sp(y)}},
			http.StatusBadRequest, nil),
		move("position of a non-sibling", s.admin, y, map[string]any{"position": map[string]any{"before": sp(in1)}},
			http.StatusBadRequest, nil),
		move("pointer type does not match the ID", s.admin, y, map[string]any{"position": map[string]any{"before": sp(colB)}},
			http.StatusBadRequest, nil),
		move("unknown pointer type", s.admin, y,
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "page", "page": "x"}}},
			http.StatusBadRequest, nil),
		move("parent in another organization", s.admin, y, map[string]any{"parent": otherCol.ID}, http.StatusBadRequest, nil),
		move("unknown parent", s.admin, y, map[string]any{"parent": "col_doesnotexist"}, http.StatusBadRequest, nil),
		move("unknown member", s.admin, y, map[string]any{"parent": nil, "where": "up"}, http.StatusBadRequest, nil),
		move("malformed JSON", s.admin, y, `{"parent": }`, http.StatusBadRequest, nil),
		move("parent of the wrong type", s.admin, y, map[string]any{"parent": 3}, http.StatusBadRequest, nil),
		move("editor", s.editor, y, map[string]any{"parent": colA}, http.StatusForbidden, nil),
		move("reader", s.reader, y, map[string]any{"parent": colA}, http.StatusForbidden, nil),
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodPost, "/move", map[string]any{"parent": nil}, y)...)
	s.Run(t, scenarios)
	assert.Equal(t, []string{colA, y, x, colB}, s.order(s.Org.ID, ""), "refused moves changed nothing")
	assert.Equal(t, []string{in1, in2}, s.order(s.Org.ID, colA))
}

func TestTransferSpace(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	ctx := context.Background()
	col := s.collection("Guides")
	id := s.createID("Moving", col)
	_ = s.createID("Staying", "")
	// The target organization: the owner administers it too, the editor
	// only reads there, and the reader creates there.
	targetOwner := s.User("target-owner@example.com")
	target, err := graph.CreateOrganization(ctx, s.Client, "Target", targetOwner.ID)
	require.NoError(t, err)
	targetToken := s.Token(targetOwner)
	editorUser, readerUser := s.User("editor@example.com"), s.User("reader@example.com")
	for user, role := range map[string]enum.Role{s.Owner.ID: enum.RoleAdmin, editorUser.ID: enum.RoleRead, readerUser.ID: enum.RoleCreate} {
		require.NoError(t, s.Client.Member.Create().SetOrganizationID(target.ID).SetUserID(user).SetRole(role).Exec(ctx))
	}
	existing := s.MustDo(http.MethodPost, "/v1/orgs/"+target.ID+"/spaces", targetToken, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	// Grants: a guest reads the space through one, the editor administers it
	// through another.
	teammate, _ := s.Member(s.Org.ID, "", "teammate@example.com")
	teammateUser := s.User("teammate@example.com")
	require.NoError(t, s.Client.ContentGrant.Create().SetSpaceID(id).SetUserID(teammateUser.ID).SetRole(enum.RoleRead).Exec(ctx))
	require.NoError(t, s.Client.ContentGrant.Create().SetSpaceID(id).SetUserID(editorUser.ID).SetRole(enum.RoleAdmin).Exec(ctx))

	transfer := func(name, tok string, body any, status int) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPost, Path: spPath(id, "/transfer"), Token: tok, Body: body,
			WantStatus: status}
	}
	scenarios := []servertest.Scenario{
		{Name: "the teammate reads it through the grant", Method: http.MethodGet, Path: spPath(id), Token: teammate,
			WantStatus: http.StatusOK},
		transfer("organization is required", s.admin, map[string]any{}, http.StatusBadRequest),
		transfer("organization must not be null", s.admin, map[string]any{"organization": nil}, http.StatusBadRequest),
		transfer("organization of the wrong type", s.admin, map[string]any{"organization": 1}, http.StatusBadRequest),
		transfer("unknown member", s.admin, map[string]any{"organization": target.ID, "parent": col}, http.StatusBadRequest),
		transfer("malformed JSON", s.admin, `{"organization"`, http.StatusBadRequest),
		transfer("same organization", s.admin, map[string]any{"organization": s.Org.ID}, http.StatusConflict),
		transfer("unknown organization", s.admin, map[string]any{"organization": "org_doesnotexist"}, http.StatusBadRequest),
		transfer("organization the caller is not in", s.admin, map[string]any{"organization": s.other.ID}, http.StatusBadRequest),
		transfer("reader of the space", s.reader, map[string]any{"organization": target.ID}, http.StatusForbidden),
		transfer("creator of the org is not admin of the space", s.creator, map[string]any{"organization": target.ID}, http.StatusForbidden),
		transfer("space admin who only reads the target", s.editor, map[string]any{"organization": target.ID}, http.StatusForbidden),
		{Name: "admin of both", Method: http.MethodPost, Path: spPath(id, "/transfer"), Token: s.admin,
			Body: map[string]any{"organization": target.ID}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": id, "organization": target.ID, "title": "Moving"},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.JSON(), "parent")
				sp := s.load(id)
				assert.Equal(t, target.ID, sp.OrganizationID)
				assert.Nil(t, sp.ParentID)
				n, err := s.Client.ContentGrant.Query().Where(contentgrant.SpaceID(id)).Count(ctx)
				require.NoError(t, err)
				assert.Zero(t, n, "grants name the old organization's people and must go")
				assert.Equal(t, []string{existing, id}, s.order(target.ID, ""), "the space goes last in its new organization")
			}},
		{Name: "the old organization no longer lists it", Method: http.MethodGet, Path: "/v1/orgs/" + s.Org.ID + "/spaces",
			Token: s.admin, WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				for _, it := range res.JSON()["items"].([]any) {
					assert.NotEqual(t, id, it.(map[string]any)["id"])
				}
			}},
		{Name: "the new organization does", Method: http.MethodGet, Path: "/v1/orgs/" + target.ID + "/spaces",
			Token: targetToken, WantStatus: http.StatusOK, WantJSON: map[string]any{"count": 2}},
		{Name: "the editor lost the admin grant", Method: http.MethodGet, Path: spPath(id), Token: s.editor,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"permissions": map[string]any{"admin": false, "view": true}}},
		{Name: "the teammate lost the grant", Method: http.MethodGet, Path: spPath(id), Token: teammate,
			WantStatus: http.StatusNotFound},
		{Name: "transferring back by its new admin", Method: http.MethodPost, Path: spPath(id, "/transfer"),
			Token: targetToken, Body: map[string]any{"organization": s.Org.ID}, WantStatus: http.StatusBadRequest},
	}
	scenarios = append(scenarios, s.commonErrors(http.MethodPost, "/transfer", map[string]any{"organization": target.ID},
		s.createID("Another", ""))...)
	s.Run(t, scenarios)
}

// Creating and moving spaces from many clients at once must neither fail
// (SQLite busy, PostgreSQL deadlocks or serialization errors) nor lose a
// space.
func TestSpacesConcurrently(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	colA, colB := s.collection("A"), s.collection("B")
	const workers, rounds = 6, 4
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		created  []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				res := s.Do(http.MethodPost, "/v1/orgs/"+s.Org.ID+"/spaces", s.admin,
					map[string]any{"title": fmt.Sprintf("W%d R%d", w, r), "parent": colA})
				if res.Status != http.StatusCreated {
					fail("create: %d %s", res.Status, res.Body)
					return
				}
				id := res.JSON()["id"].(string)
				mu.Lock()
				created = append(created, id)
				mu.Unlock()
				for _, to := range []any{colB, nil, colA} {
					res := s.Do(http.MethodPost, spPath(id, "/move"), s.admin, map[string]any{"parent": to})
					if res.Status != http.StatusOK {
						fail("move to %v: %d %s", to, res.Status, res.Body)
					}
				}
			}
		}()
	}
	wg.Wait()
	require.Empty(t, failures)
	require.Len(t, created, workers*rounds)
	assert.ElementsMatch(t, created, s.order(s.Org.ID, colA))
	assert.ElementsMatch(t, created, s.Walk(t, "/v1/orgs/"+s.Org.ID+"/spaces", s.admin, 7))
	// Each arrival went last in turn, so no two share a position.
	positions := map[float64]string{}
	for _, sp := range s.Client.Space.Query().Where(space.ParentID(colA)).AllX(context.Background()) {
		assert.NotContains(t, positions, sp.Position, "%s and %s share a position", sp.ID, positions[sp.Position])
		positions[sp.Position] = sp.ID
	}
}

// Many clients reordering the same siblings at once: every move squeezes a
// space into the same gap, so the gap runs out of precision and the siblings
// are renumbered, by several transactions at the same time. Each move must
// succeed, or report a conflict when another client already put things where
// it asked, never fail.
func TestSpacesReorderedConcurrently(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	col := s.collection("Busy")
	anchor := s.createID("Anchor", col)
	var mine []string
	for i := 0; i < 6; i++ {
		mine = append(mine, s.createID(fmt.Sprintf("Mover %d", i), col))
	}
	const rounds = 30
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		moved    int
	)
	for _, id := range mine {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				at := map[string]any{"type": "space", "space": anchor}
				var body map[string]any
				switch r % 3 {
				case 0:
					body = map[string]any{"position": map[string]any{"after": at}}
				case 1:
					body = map[string]any{"position": map[string]any{"before": at}}
				default:
					body = map[string]any{"parent": col}
				}
				res := s.Do(http.MethodPost, spPath(id, "/move"), s.admin, body)
				mu.Lock()
				switch res.Status {
				case http.StatusOK:
					moved++
				case http.StatusConflict:
				default:
					failures = append(failures, fmt.Sprintf("%d %s", res.Status, res.Body))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Empty(t, failures)
	assert.Greater(t, moved, len(mine)*rounds/2)
	assert.ElementsMatch(t, append([]string{anchor}, mine...), s.order(s.Org.ID, col))

	// Concurrent creations can leave siblings at equal positions, and then
	// every move between them renumbers. Let all clients do so at once.
	for round := 0; round < 15; round++ {
		_, err := s.Client.Space.Update().Where(space.ParentID(col)).SetPosition(1024).Save(context.Background())
		require.NoError(t, err)
		start := make(chan struct{})
		for i, id := range mine {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				at := map[string]any{"type": "space", "space": mine[(i+1)%len(mine)]}
				res := s.Do(http.MethodPost, spPath(id, "/move"), s.admin, map[string]any{"position": map[string]any{"after": at}})
				if res.Status != http.StatusOK && res.Status != http.StatusConflict {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("round %d: %d %s", round, res.Status, res.Body))
					mu.Unlock()
				}
			}()
		}
		close(start)
		wg.Wait()
	}
	require.Empty(t, failures)
	assert.ElementsMatch(t, append([]string{anchor}, mine...), s.order(s.Org.ID, col))
}

// TestTransferLeavesSitesWithADefault: a space that leaves its
// organization leaves its sites, and a site-space parent that lost its
// default gets the next one as its default, as deleting a site-space does.
func TestTransferLeavesSitesWithADefault(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	org := "/v1/orgs/" + e.Org.ID
	moving := e.MustDo(http.MethodPost, org+"/spaces", e.OwnerToken, map[string]any{"title": "Moving"}, http.StatusCreated)["id"].(string)
	staying := e.MustDo(http.MethodPost, org+"/spaces", e.OwnerToken, map[string]any{"title": "Staying"}, http.StatusCreated)["id"].(string)
	site := e.MustDo(http.MethodPost, org+"/sites", e.OwnerToken, map[string]any{"title": "Docs", "spaces": []string{moving, staying}},
		http.StatusCreated)["id"].(string)
	target, err := graph.CreateOrganization(ctx, e.Client, "Target", e.Owner.ID)
	require.NoError(t, err)
	e.MustDo(http.MethodPost, "/v1/spaces/"+moving+"/transfer", e.OwnerToken, map[string]any{"organization": target.ID}, http.StatusOK)
	items := e.MustDo(http.MethodGet, org+"/sites/"+site+"/site-spaces", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	require.Len(t, items, 1)
	left := items[0].(map[string]any)
	assert.Equal(t, staying, left["space"].(map[string]any)["id"])
	assert.Equal(t, true, left["default"], "the site's root has a default site-space again")
}
