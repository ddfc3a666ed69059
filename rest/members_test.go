package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// mbEnv is an organization with an owner (admin), a reader, an editor, a
// guest and a member of another organization.
type mbEnv struct {
	ocEnv
	readTok, editTok, guestTok, otherTok string
	reader, editor, guest, otherUser     string
	otherOrg                             string
	base                                 string
	joined                               int
}

func newMbEnv(t *testing.T) *mbEnv {
	e := &mbEnv{ocEnv: newOCEnv(t)}
	e.joined = 0
	readTok, reader := e.join(enum.RoleRead, "reader@example.com")
	editTok, editor := e.join(enum.RoleEdit, "Editor.Person@example.com")
	guestTok, guest := e.join("", "guest@example.com")
	e.readTok, e.editTok, e.guestTok = readTok, editTok, guestTok
	e.reader, e.editor, e.guest = reader.ID, editor.ID, guest.ID
	e.otherOrg, e.otherTok = e.ocEnv.otherOrg("other@example.com")
	e.otherUser = e.User("other@example.com").ID
	e.base = "/v1/orgs/" + e.Org.ID + "/members"
	return e
}

// join makes a user a member who joined a second after the last one, so
// that lists by joining have one order on both databases.
func (e *mbEnv) join(role enum.Role, email string) (string, *ent.User) {
	e.T.Helper()
	e.joined++
	u := e.User(email)
	c := e.Client.Member.Create().SetOrganizationID(e.Org.ID).SetUserID(u.ID).
		SetJoinedAt(e.Org.CreatedAt.Add(time.Duration(e.joined) * time.Second))
	if role != "" {
		c.SetRole(role)
	}
	require.NoError(e.T, c.Exec(context.Background()))
	return e.Token(u), u
}

func (e *mbEnv) memberIDs(query, token string) []string {
	e.T.Helper()
	return e.Walk(e.T, e.base+query, token, 1000)
}

func TestMembersList(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	all := e.memberIDs("?order=asc", e.OwnerToken)
	assert.Equal(t, []string{e.Owner.ID, e.reader, e.editor, e.guest}, all, "by joining, oldest first with order=asc")
	assert.Equal(t, []string{e.guest, e.editor, e.reader, e.Owner.ID}, e.memberIDs("", e.OwnerToken), "newest first by default")
	assert.Equal(t, all, e.memberIDs("?order=asc", e.readTok), "a reader lists the people too")
	assert.Equal(t, []string{e.guest}, e.memberIDs("?role=guest", e.OwnerToken))
	assert.Equal(t, []string{e.editor}, e.memberIDs("?role=edit", e.OwnerToken))
	assert.Equal(t, []string{e.editor}, e.memberIDs("?search=editor.PERSON", e.OwnerToken), "search ignores case, in emails")
	assert.Empty(t, e.memberIDs("?search=%25", e.OwnerToken), "a LIKE wildcard is a character")

	res := e.MustDo(http.MethodGet, e.base+"?limit=2&order=asc", e.OwnerToken, nil, http.StatusOK)
	assert.EqualValues(t, 4, res["count"])
	first := res["items"].([]any)[0].(map[string]any)
	servertest.AssertContains(t, map[string]any{"object": "member", "id": e.Owner.ID, "role": "admin", "disabled": false,
		"sso": false, "spaces": 0, "teams": 0, "user": map[string]any{"id": e.Owner.ID, "object": "user"}}, first)
	assert.NotContains(t, first, "lastSeenAt")

	t.Run("by last seen, the members seen only, most recent first", func(t *testing.T) {
		assert.Empty(t, e.memberIDs("?sort=lastSeenAt", e.OwnerToken))
		e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/ping", e.editTok, nil, http.StatusOK)
		e.Clock.Advance(time.Minute)
		before := e.Clock.Now().UTC().Truncate(time.Millisecond)
		e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/ping", e.readTok, nil, http.StatusOK)
		after := e.Clock.Now().UTC()
		assert.Equal(t, []string{e.reader, e.editor}, e.memberIDs("?sort=lastSeenAt", e.OwnerToken))
		assert.Equal(t, []string{e.editor, e.reader}, e.memberIDs("?sort=lastSeenAt&order=asc", e.OwnerToken))
		m := e.MustDo(http.MethodGet, e.base+"/"+e.reader, e.OwnerToken, nil, http.StatusOK)
		seen, err := time.Parse(time.RFC3339Nano, m["lastSeenAt"].(string))
		require.NoError(t, err)
		assert.False(t, seen.Before(before) || seen.After(after), "seen at %s, pinged between %s and %s", seen, before, after)
	})

	e.Run(t, []servertest.Scenario{
		{Name: "a guest may not list the people", Method: http.MethodGet, Path: e.base, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "an outsider does not see the organization", Method: http.MethodGet, Path: e.base, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodGet, Path: e.base, WantStatus: http.StatusUnauthorized},
		{Name: "unknown organization", Method: http.MethodGet, Path: "/v1/orgs/org_nope/members", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "a bad role", Method: http.MethodGet, Path: e.base + "?role=owner", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "role"},
		{Name: "a bad sort", Method: http.MethodGet, Path: e.base + "?sort=title", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "sort"},
		{Name: "a bad order", Method: http.MethodGet, Path: e.base + "?order=up", Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: "order"},
		{Name: "limit 1000", Method: http.MethodGet, Path: e.base + "?limit=1000", Token: e.OwnerToken, WantStatus: http.StatusOK},
		{Name: "limit 1001", Method: http.MethodGet, Path: e.base + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
	})
}

func TestMembersWalk(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	want := []string{e.Owner.ID, e.reader, e.editor, e.guest}
	for i := range 7 {
		_, u := e.join(enum.RoleRead, fmt.Sprintf("walker%d@example.com", i))
		want = append(want, u.ID)
	}
	assert.Equal(t, want, e.Walk(t, e.base+"?order=asc", e.OwnerToken, 3))
}

func TestMemberGet(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	e.Run(t, []servertest.Scenario{
		{Name: "by user ID", Method: http.MethodGet, Path: e.base + "/" + e.editor, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "member", "id": e.editor, "role": "edit",
				"user": map[string]any{"id": e.editor, "email": "editor.person@example.com"}}},
		{Name: "a guest's role is null", Method: http.MethodGet, Path: e.base + "/" + e.guest, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": e.guest, "role": nil}},
		{Name: "a user of another organization", Method: http.MethodGet, Path: e.base + "/" + e.otherUser, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "an unknown user", Method: http.MethodGet, Path: e.base + "/usr_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "a guest may not", Method: http.MethodGet, Path: e.base + "/" + e.editor, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "an outsider", Method: http.MethodGet, Path: e.base + "/" + e.editor, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodGet, Path: e.base + "/" + e.editor, WantStatus: http.StatusUnauthorized},
	})
}

func TestMemberUpdate(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	owner := e.base + "/" + e.Owner.ID
	e.Run(t, []servertest.Scenario{
		{Name: "the last admin cannot step down", Method: http.MethodPatch, Path: owner, Token: e.OwnerToken,
			Body: map[string]any{"role": "edit"}, WantStatus: http.StatusConflict, WantError: "last admin"},
		{Name: "nor become a guest", Method: http.MethodPatch, Path: owner, Token: e.OwnerToken,
			Body: map[string]any{"role": nil}, WantStatus: http.StatusConflict},
		{Name: "a reader may not change roles", Method: http.MethodPatch, Path: e.base + "/" + e.editor, Token: e.readTok,
			Body: map[string]any{"role": "admin"}, WantStatus: http.StatusForbidden, WantError: "admin"},
		{Name: "nor their own", Method: http.MethodPatch, Path: e.base + "/" + e.reader, Token: e.readTok,
			Body: map[string]any{"role": "admin"}, WantStatus: http.StatusForbidden},
		{Name: "an unknown role", Method: http.MethodPatch, Path: e.base + "/" + e.editor, Token: e.OwnerToken,
			Body: map[string]any{"role": "owner"}, WantStatus: http.StatusBadRequest},
		{Name: "an unknown member", Method: http.MethodPatch, Path: e.base + "/" + e.otherUser, Token: e.OwnerToken,
			Body: map[string]any{"role": "read"}, WantStatus: http.StatusNotFound},
		{Name: "an outsider", Method: http.MethodPatch, Path: e.base + "/" + e.editor, Token: e.otherTok,
			Body: map[string]any{"role": "read"}, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPatch, Path: e.base + "/" + e.editor,
			Body: map[string]any{"role": "read"}, WantStatus: http.StatusUnauthorized},
		{Name: "an admin promotes", Method: http.MethodPatch, Path: e.base + "/" + e.editor, Token: e.OwnerToken,
			Body: map[string]any{"role": "admin"}, WantStatus: http.StatusOK, WantJSON: map[string]any{"id": e.editor, "role": "admin"}},
		{Name: "then the first admin may step down", Method: http.MethodPatch, Path: owner, Token: e.OwnerToken,
			Body: map[string]any{"role": "read"}, WantStatus: http.StatusOK, WantJSON: map[string]any{"role": "read"}},
		{Name: "and is no longer an admin", Method: http.MethodPatch, Path: e.base + "/" + e.reader, Token: e.OwnerToken,
			Body: map[string]any{"role": "edit"}, WantStatus: http.StatusForbidden},
		{Name: "null makes a guest", Method: http.MethodPatch, Path: e.base + "/" + e.reader, Token: e.editTok,
			Body: map[string]any{"role": nil}, WantStatus: http.StatusOK, WantJSON: map[string]any{"role": nil}},
		{Name: "an empty body changes nothing", Method: http.MethodPatch, Path: e.base + "/" + e.reader, Token: e.editTok,
			Body: map[string]any{}, WantStatus: http.StatusOK, WantJSON: map[string]any{"role": nil}},
	})
	// The guest sees only what is shared with them: the people no longer.
	e.MustDo(http.MethodGet, e.base, e.readTok, nil, http.StatusForbidden)
}

func TestMemberRemove(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	space := e.space("Handbook", "")
	e.Run(t, []servertest.Scenario{
		{Name: "the last admin cannot leave", Method: http.MethodDelete, Path: e.base + "/" + e.Owner.ID, Token: e.OwnerToken,
			WantStatus: http.StatusConflict, WantError: "last admin"},
		{Name: "a reader may not remove another", Method: http.MethodDelete, Path: e.base + "/" + e.editor, Token: e.readTok,
			WantStatus: http.StatusForbidden},
		{Name: "an outsider", Method: http.MethodDelete, Path: e.base + "/" + e.editor, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodDelete, Path: e.base + "/" + e.editor, WantStatus: http.StatusUnauthorized},
		{Name: "an unknown member", Method: http.MethodDelete, Path: e.base + "/" + e.otherUser, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "a member leaves", Method: http.MethodDelete, Path: e.base + "/" + e.reader, Token: e.readTok, WantStatus: http.StatusNoContent},
		{Name: "and no longer sees the organization", Method: http.MethodGet, Path: "/v1/spaces/" + space, Token: e.readTok, WantStatus: http.StatusNotFound},
		{Name: "an admin removes a member", Method: http.MethodDelete, Path: e.base + "/" + e.editor, Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "who is gone", Method: http.MethodGet, Path: e.base + "/" + e.editor, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
	assert.Equal(t, []string{e.Owner.ID, e.guest}, e.memberIDs("?order=asc", e.OwnerToken))
}

func TestMemberSSOAndPing(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	// The server's clock runs ahead of the real one: the ping records it.
	e.Clock.Advance(time.Hour)
	sso := e.base + "/" + e.editor + "/sso"
	ping := "/v1/orgs/" + e.Org.ID + "/ping"
	e.Run(t, []servertest.Scenario{
		{Name: "a reader may not", Method: http.MethodPost, Path: sso, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "an outsider", Method: http.MethodPost, Path: sso, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "an unknown member", Method: http.MethodPost, Path: e.base + "/usr_nope/sso", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPost, Path: sso, WantStatus: http.StatusUnauthorized},
		{Name: "an admin marks an SSO member", Method: http.MethodPost, Path: sso, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": e.editor, "sso": true}},
		{Name: "a guest pings", Method: http.MethodPost, Path: ping, Token: e.guestTok, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) { assert.Equal(t, map[string]any{}, res.JSON()) }},
		{Name: "an outsider cannot ping", Method: http.MethodPost, Path: ping, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "nor anonymously", Method: http.MethodPost, Path: ping, WantStatus: http.StatusUnauthorized},
	})
	m, err := e.Client.Member.Get(context.Background(), memberRowID(t, e, e.guest))
	require.NoError(t, err)
	require.NotNil(t, m.LastSeenAt, "the ping recorded when the guest was seen")
	assert.WithinDuration(t, e.Clock.Now(), *m.LastSeenAt, time.Minute)
}

func memberRowID(t *testing.T, e *mbEnv, userID string) string {
	t.Helper()
	id, err := e.Client.Member.Query().Where(member.OrganizationID(e.Org.ID), member.UserID(userID)).OnlyID(context.Background())
	require.NoError(t, err)
	return id
}

func TestMemberCounts(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	ctx := context.Background()
	private := e.space("Private", "")
	shared := e.space("Shared", "")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+private, e.OwnerToken, map[string]any{"defaultLevel": nil}, http.StatusOK)
	tm := e.Client.Team.Create().SetOrganizationID(e.Org.ID).SetTitle("Writers").SaveX(ctx)
	e.Client.Team.Create().SetOrganizationID(e.Org.ID).SetTitle("Empty").SaveX(ctx)
	e.Client.TeamMember.Create().SetTeamID(tm.ID).SetUserID(e.guest).ExecX(ctx)
	e.Client.ContentGrant.Create().SetTeamID(tm.ID).SetSpaceID(private).SetRole(enum.RoleEdit).ExecX(ctx)
	e.Client.ContentGrant.Create().SetUserID(e.guest).SetSpaceID(shared).SetRole(enum.RoleRead).ExecX(ctx)
	e.Client.ContentGrant.Create().SetUserID(e.guest).SetSpaceID(private).SetRole(enum.RoleRead).ExecX(ctx)
	// A team of another organization does not count.
	other := e.Client.Team.Create().SetOrganizationID(e.otherOrg).SetTitle("Elsewhere").SaveX(ctx)
	e.Client.TeamMember.Create().SetTeamID(other.ID).SetUserID(e.guest).ExecX(ctx)

	res := e.MustDo(http.MethodGet, e.base+"?order=asc", e.OwnerToken, nil, http.StatusOK)
	counts := map[string][2]float64{}
	for _, it := range res["items"].([]any) {
		m := it.(map[string]any)
		counts[m["id"].(string)] = [2]float64{m["spaces"].(float64), m["teams"].(float64)}
	}
	assert.Equal(t, map[string][2]float64{e.Owner.ID: {0, 0}, e.reader: {0, 0}, e.editor: {0, 0}, e.guest: {2, 1}}, counts)
	servertest.AssertContains(t, map[string]any{"spaces": 2, "teams": 1},
		e.MustDo(http.MethodGet, e.base+"/"+e.guest, e.OwnerToken, nil, http.StatusOK))
	// The team's grant is what lets the guest edit the private space.
	servertest.AssertContains(t, map[string]any{"permissions": map[string]any{"edit": true}},
		e.MustDo(http.MethodGet, "/v1/spaces/"+private, e.guestTok, nil, http.StatusOK))
}

// A member's spaces are what authorization gives them, their teams' grants
// included.
func TestMemberSpaces(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	ctx := context.Background()
	open := e.space("Open", "")
	time.Sleep(2 * time.Millisecond) // creation times are in milliseconds: one order on both databases
	private := e.space("Private", "")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+private, e.OwnerToken, map[string]any{"defaultLevel": nil}, http.StatusOK)
	e.MustDo(http.MethodGet, "/v1/spaces/"+private, e.readTok, nil, http.StatusNotFound)
	tm := e.Client.Team.Create().SetOrganizationID(e.Org.ID).SetTitle("Writers").SaveX(ctx)
	e.Client.TeamMember.Create().SetTeamID(tm.ID).SetUserID(e.reader).ExecX(ctx)
	e.Client.ContentGrant.Create().SetTeamID(tm.ID).SetSpaceID(private).SetRole(enum.RoleEdit).ExecX(ctx)

	perms := func(userID, token string) map[string]string {
		t.Helper()
		res := e.MustDo(http.MethodGet, e.base+"/"+userID+"/spaces?order=asc", token, nil, http.StatusOK)
		out := map[string]string{}
		for _, it := range res["items"].([]any) {
			m := it.(map[string]any)
			out[m["space"].(map[string]any)["id"].(string)] = m["permission"].(string)
		}
		assert.EqualValues(t, len(out), res["count"])
		return out
	}
	assert.Equal(t, map[string]string{open: "read", private: "edit"}, perms(e.reader, e.OwnerToken), "the team's grant raises the reader")
	assert.Equal(t, map[string]string{open: "read", private: "edit"}, perms(e.reader, e.readTok), "a member reads their own")
	assert.Equal(t, map[string]string{open: "edit"}, perms(e.editor, e.OwnerToken))
	assert.Equal(t, map[string]string{open: "admin", private: "admin"}, perms(e.Owner.ID, e.OwnerToken))
	assert.Empty(t, perms(e.guest, e.OwnerToken), "a guest sees only what is shared with them")
	servertest.AssertContains(t, map[string]any{"id": private, "permissions": map[string]any{"edit": true, "admin": false}},
		e.MustDo(http.MethodGet, "/v1/spaces/"+private, e.readTok, nil, http.StatusOK))

	res := e.MustDo(http.MethodGet, e.base+"/"+e.reader+"/spaces?limit=1", e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, private, res["items"].([]any)[0].(map[string]any)["space"].(map[string]any)["id"], "newest first")
	next := res["next"].(map[string]any)["page"].(string)
	res = e.MustDo(http.MethodGet, e.base+"/"+e.reader+"/spaces?limit=1&page="+next, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, open, res["items"].([]any)[0].(map[string]any)["space"].(map[string]any)["id"])
	assert.NotContains(t, res, "next")

	path := e.base + "/" + e.editor + "/spaces"
	e.Run(t, []servertest.Scenario{
		{Name: "another member's, as a reader", Method: http.MethodGet, Path: path, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "an outsider", Method: http.MethodGet, Path: path, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "an unknown member", Method: http.MethodGet, Path: e.base + "/" + e.otherUser + "/spaces", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodGet, Path: path, WantStatus: http.StatusUnauthorized},
		{Name: "a bad order", Method: http.MethodGet, Path: path + "?order=new", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
		{Name: "limit 1000", Method: http.MethodGet, Path: path + "?limit=1000", Token: e.OwnerToken, WantStatus: http.StatusOK},
		{Name: "limit 1001", Method: http.MethodGet, Path: path + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
	})
}
