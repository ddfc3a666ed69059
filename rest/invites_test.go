package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/invite"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/server/servertest"
)

// role reads a member's role through /v1: "" for a guest.
func (e *mbEnv) role(userID string) string {
	e.T.Helper()
	m := e.MustDo(http.MethodGet, e.base+"/"+userID, e.OwnerToken, nil, http.StatusOK)
	r, _ := m["role"].(string)
	return r
}

func TestInviteByEmail(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	invites := "/v1/orgs/" + e.Org.ID + "/invites"
	emails := func(n int, prefix string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d@example.com", prefix, i)
		}
		return out
	}
	// waiting lists the organization's invitations that wait: email and
	// role of each, oldest first.
	waiting := func() map[string]any {
		t.Helper()
		out := map[string]any{}
		for _, i := range e.MustDo(http.MethodGet, invites+"?limit=1000", e.OwnerToken, nil, http.StatusOK)["items"].([]any) {
			i := i.(map[string]any)
			out[i["email"].(string)] = i["role"]
		}
		return out
	}

	// other@example.com has an account (a member of another organization);
	// new.person@example.com has none.
	res := e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{
		"emails": []any{"New.Person@Example.com", "reader@example.com", "new.person@example.com", "Editor.Person@example.com",
			"other@example.com"},
		"role": "comment",
	}, http.StatusOK)
	assert.Equal(t, map[string]any{"users": []any{e.reader, e.editor}, "invited": 2.0, "failedSSOEmails": []any{}}, res,
		"the members' IDs; the others are invited, and nothing tells who has an account")
	assert.Equal(t, "comment", e.role(e.reader), "a reader is raised")
	assert.Equal(t, "edit", e.role(e.editor), "an editor is not lowered")
	assert.Equal(t, map[string]any{"new.person@example.com": "comment", "other@example.com": "comment"}, waiting())
	e.MustDo(http.MethodGet, e.base+"/"+e.otherUser, e.OwnerToken, nil, http.StatusNotFound)
	e.MustDo(http.MethodGet, "/v1/users/"+e.otherUser, e.OwnerToken, nil, http.StatusNotFound)
	exists, err := e.Client.User.Query().Where(user.Email("new.person@example.com")).Exist(context.Background())
	require.NoError(t, err)
	assert.False(t, exists, "no account is made for an address")

	// An address with an account and one without get the same answer.
	noAccount := e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"someone@else.example"}},
		http.StatusOK)
	e.User("has-account@else.example")
	withAccount := e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"has-account@else.example"}},
		http.StatusOK)
	assert.Equal(t, noAccount, withAccount)
	assert.Equal(t, map[string]any{"users": []any{}, "invited": 1.0, "failedSSOEmails": []any{}}, withAccount)

	// Without a role: the organization's default role, else read. Inviting
	// an address again updates its invitation.
	e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"plain@example.com"}}, http.StatusOK)
	assert.Equal(t, "read", waiting()["plain@example.com"])
	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{"defaultRole": "review"}, http.StatusOK)
	e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []any{
		"reviewer@example.com", map[string]any{"email": "visitor@example.com", "role": nil},
		map[string]any{"email": "boss@example.com", "role": "admin"}, map[string]any{"email": "plain@example.com", "role": "edit"}}},
		http.StatusOK)
	got := waiting()
	assert.Equal(t, "review", got["reviewer@example.com"], "the default role")
	assert.Nil(t, got["visitor@example.com"], "null: a guest")
	assert.Equal(t, "admin", got["boss@example.com"], "an address's own role")
	assert.Equal(t, "edit", got["plain@example.com"], "invited again: its invitation changes")
	n, err := e.Client.Invite.Query().Where(invite.Email("plain@example.com")).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "one invitation per address and organization")

	hundred := emails(100, "many")
	e.Run(t, []servertest.Scenario{
		{Name: "100 addresses", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": hundred}, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.EqualValues(t, 100, res.JSON()["invited"])
			}},
		{Name: "101 addresses", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": emails(101, "over")}, WantStatus: http.StatusBadRequest, WantError: "emails"},
		{Name: "no address", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": []string{}}, WantStatus: http.StatusBadRequest, WantError: "emails"},
		{Name: "no emails", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"role": "read"}, WantStatus: http.StatusBadRequest, WantError: "emails"},
		{Name: "a bad address is named", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": []string{"fine@example.com", "not an address"}}, WantStatus: http.StatusBadRequest,
			WantError: `"not an address"`},
		{Name: "an address without a domain", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": []string{"nobody@localhost"}}, WantStatus: http.StatusBadRequest, WantError: "nobody@localhost"},
		{Name: "an item of another shape", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": []any{map[string]any{"email": "x@example.com"}}}, WantStatus: http.StatusBadRequest, WantError: "emails"},
		{Name: "a bad role", Method: http.MethodPost, Path: invites, Token: e.OwnerToken,
			Body: map[string]any{"emails": []string{"x@example.com"}, "role": "owner"}, WantStatus: http.StatusBadRequest, WantError: "role"},
		{Name: "as a reader", Method: http.MethodPost, Path: invites, Token: e.readTok,
			Body: map[string]any{"emails": []string{"x@example.com"}}, WantStatus: http.StatusForbidden},
		{Name: "as an editor", Method: http.MethodPost, Path: invites, Token: e.editTok,
			Body: map[string]any{"emails": []string{"x@example.com"}}, WantStatus: http.StatusForbidden},
		{Name: "as an outsider", Method: http.MethodPost, Path: invites, Token: e.otherTok,
			Body: map[string]any{"emails": []string{"x@example.com"}}, WantStatus: http.StatusNotFound},
		{Name: "unknown organization", Method: http.MethodPost, Path: "/v1/orgs/org_nope/invites", Token: e.OwnerToken,
			Body: map[string]any{"emails": []string{"x@example.com"}}, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPost, Path: invites,
			Body: map[string]any{"emails": []string{"x@example.com"}}, WantStatus: http.StatusUnauthorized},
		{Name: "list: as a reader", Method: http.MethodGet, Path: invites, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: invites, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: invites, WantStatus: http.StatusUnauthorized},
	})
	n, err = e.Client.Invite.Query().Where(invite.Email("fine@example.com")).Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "a refused invitation invites no one")
	assert.Len(t, e.Walk(t, e.base, e.OwnerToken, 50), 4, "no one became a member")
	assert.Len(t, e.Walk(t, invites, e.OwnerToken, 7), 2+2+1+3+100, "the invitations, listed page by page")
}

// An invitation by email makes no one a member until the user of its
// address accepts it, through /v1's join route or GraphQL; no one else
// can, and accepting again changes nothing.
func TestInvitationAcceptance(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	invites := "/v1/orgs/" + e.Org.ID + "/invites"
	inviteOne := func(email, role string) string {
		t.Helper()
		e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{email}, "role": role}, http.StatusOK)
		for _, i := range e.MustDo(http.MethodGet, invites+"?limit=1000", e.OwnerToken, nil, http.StatusOK)["items"].([]any) {
			if i := i.(map[string]any); i["email"] == email {
				return i["id"].(string)
			}
		}
		t.Fatalf("no invitation of %s", email)
		return ""
	}
	// The invitee has an account, a member of another organization.
	inv := inviteOne("other@example.com", "admin")
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, e.otherTok, nil, http.StatusNotFound)
	listed := e.MustDo(http.MethodGet, invites, e.OwnerToken, nil, http.StatusOK)["items"].([]any)[0]
	servertest.AssertContains(t, map[string]any{"object": "invite", "id": inv, "email": "other@example.com", "role": "admin",
		"urls": map[string]any{"location": "http://bindery.test" + invites + "/" + inv}}, listed)

	// The invitee sees their invitations and, through them, the
	// organization.
	mine := `{ invitations(first: 10) { nodes { id role email organization { id title } urls { location } } } }`
	d := e.GraphQL(e.otherTok, mine, nil)
	require.Empty(t, d.Errors)
	assert.JSONEq(t, `{"invitations": {"nodes": [{"id": "`+inv+`", "role": "ADMIN", "email": "other@example.com",
	  "organization": {"id": "`+e.Org.ID+`", "title": "Acme Docs"}, "urls": {"location": "http://bindery.test`+invites+`/`+inv+`"}}]}}`,
		string(d.Data))
	d = e.GraphQL(e.readTok, mine, nil)
	require.Empty(t, d.Errors)
	assert.JSONEq(t, `{"invitations": {"nodes": []}}`, string(d.Data), "another person sees none")

	accept := `mutation($id: ID!) { acceptInvitation(input: {id: $id}) { member { role user { id } } } }`
	join := invites + "/" + inv
	e.Run(t, []servertest.Scenario{
		{Name: "another member's token", Method: http.MethodPost, Path: join, Token: e.readTok, WantStatus: http.StatusNotFound},
		{Name: "a stranger's token", Method: http.MethodPost, Path: join, Token: e.Token(e.User("stranger@else.example")),
			WantStatus: http.StatusNotFound},
		{Name: "another organization's path", Method: http.MethodPost, Path: "/v1/orgs/" + e.otherOrg + "/invites/" + inv,
			Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPost, Path: join, WantStatus: http.StatusUnauthorized},
	})
	assert.Equal(t, "NOT_FOUND", e.GraphQL(e.readTok, accept, map[string]any{"id": inv}).Code())
	e.MustDo(http.MethodGet, e.base+"/"+e.otherUser, e.OwnerToken, nil, http.StatusNotFound)

	e.Run(t, []servertest.Scenario{
		{Name: "accept", Method: http.MethodPost, Path: join, Token: e.otherTok, WantStatus: http.StatusOK, WantJSON: map[string]any{}},
		{Name: "accept again", Method: http.MethodPost, Path: join, Token: e.otherTok, WantStatus: http.StatusOK},
	})
	d = e.GraphQL(e.otherTok, accept, map[string]any{"id": inv})
	require.Empty(t, d.Errors)
	assert.JSONEq(t, `{"acceptInvitation": {"member": {"role": "ADMIN", "user": {"id": "`+e.otherUser+`"}}}}`, string(d.Data),
		"and again in GraphQL: the same membership")
	assert.Equal(t, "admin", e.role(e.otherUser))
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, e.otherTok, nil, http.StatusOK)
	assert.Empty(t, e.MustDo(http.MethodGet, invites, e.OwnerToken, nil, http.StatusOK)["items"], "nothing waits any more")
	e.MustDo(http.MethodDelete, join, e.OwnerToken, nil, http.StatusNotFound)

	// Once the member leaves, the accepted invitation admits no one; a new
	// one does.
	e.MustDo(http.MethodDelete, e.base+"/"+e.otherUser, e.OwnerToken, nil, http.StatusNoContent)
	e.MustDo(http.MethodPost, join, e.otherTok, nil, http.StatusNotFound)
	again := inviteOne("other@example.com", "read")
	e.MustDo(http.MethodPost, invites+"/"+again, e.otherTok, nil, http.StatusOK)
	assert.Equal(t, "read", e.role(e.otherUser))

	// Accepting raises a member's role, never lowers it; a member's address
	// is not invited but raised at once.
	res := e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"other@example.com"}, "role": "edit"},
		http.StatusOK)
	assert.Equal(t, []any{e.otherUser}, res["users"])
	assert.Equal(t, "edit", e.role(e.otherUser))

	// Revoking: admins only, while it waits.
	late := inviteOne("late@example.com", "comment")
	lateTok := e.Token(e.User("late@example.com"))
	e.Run(t, []servertest.Scenario{
		{Name: "revoke: as a reader", Method: http.MethodDelete, Path: invites + "/" + late, Token: e.readTok, WantStatus: http.StatusNotFound},
		{Name: "revoke: as the invitee", Method: http.MethodDelete, Path: invites + "/" + late, Token: lateTok,
			WantStatus: http.StatusNotFound},
		{Name: "revoke: another organization's path", Method: http.MethodDelete, Path: "/v1/orgs/" + e.otherOrg + "/invites/" + late,
			Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "revoke: an invite link's ID", Method: http.MethodDelete, Path: invites + "/" + e.MustDo(http.MethodPost,
			"/v1/orgs/"+e.Org.ID+"/link-invites", e.OwnerToken, map[string]any{"role": "read"}, http.StatusCreated)["id"].(string),
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "revoke", Method: http.MethodDelete, Path: invites + "/" + late, Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "revoke: again", Method: http.MethodDelete, Path: invites + "/" + late, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "accept: a revoked invitation", Method: http.MethodPost, Path: invites + "/" + late, Token: lateTok,
			WantStatus: http.StatusNotFound},
	})
	d = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { revokeInvitation(input: {id: $id}) { revokedInviteId } }`,
		map[string]any{"id": inviteOne("gql@example.com", "read")})
	require.Empty(t, d.Errors)
	assert.Empty(t, e.MustDo(http.MethodGet, invites, e.OwnerToken, nil, http.StatusOK)["items"])
}

// sso: true makes the invitees SSO members once they accept, when a SAML
// provider is active, and names them in failedSSOEmails when none is.
func TestInviteSSO(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	invites := "/v1/orgs/" + e.Org.ID + "/invites"
	res := e.MustDo(http.MethodPost, invites, e.OwnerToken,
		map[string]any{"emails": []string{"a@example.com", "B@example.com", "a@example.com"}, "sso": true}, http.StatusOK)
	assert.Equal(t, []any{"a@example.com", "b@example.com"}, res["failedSSOEmails"])

	// A pending provider (no certificate yet) cannot serve them either.
	saml := "/v1/orgs/" + e.Org.ID + "/saml"
	p := e.MustDo(http.MethodPost, saml, e.OwnerToken, map[string]any{"label": "Okta", "ssoURL": "https://idp.example.com/sso",
		"entityID": "https://idp.example.com"}, http.StatusCreated)["id"].(string)
	res = e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"c@example.com"}, "sso": true}, http.StatusOK)
	assert.Equal(t, []any{"c@example.com"}, res["failedSSOEmails"])

	e.MustDo(http.MethodPatch, saml+"/"+p, e.OwnerToken, map[string]any{"certificate": servertest.Certificate(t)}, http.StatusOK)
	res = e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"c@example.com", "reader@example.com"},
		"sso": true}, http.StatusOK)
	assert.Equal(t, []any{}, res["failedSSOEmails"])
	assert.Equal(t, []any{e.reader}, res["users"])
	assert.Equal(t, true, e.MustDo(http.MethodGet, e.base+"/"+e.reader, e.OwnerToken, nil, http.StatusOK)["sso"], "a member at once")
	c := e.User("c@example.com")
	var inv string
	for _, i := range e.MustDo(http.MethodGet, invites, e.OwnerToken, nil, http.StatusOK)["items"].([]any) {
		if i.(map[string]any)["email"] == "c@example.com" {
			inv = i.(map[string]any)["id"].(string)
		}
	}
	e.MustDo(http.MethodPost, invites+"/"+inv, e.Token(c), nil, http.StatusOK)
	assert.Equal(t, true, e.MustDo(http.MethodGet, e.base+"/"+c.ID, e.OwnerToken, nil, http.StatusOK)["sso"], "once they accept")
	n, err := e.Client.Member.Query().Where(member.OrganizationID(e.Org.ID), member.SSO(true)).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n, "only this invitation's members")
}

func TestLinkInvites(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	links := "/v1/orgs/" + e.Org.ID + "/link-invites"
	created := e.MustDo(http.MethodPost, links, e.OwnerToken, map[string]any{"role": "edit"}, http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"object": "invite", "role": "edit", "redundant": true}, created)
	inv := created["id"].(string)
	assert.Greater(t, len(inv), 40, "the ID is the link's secret: long and random")
	guestLink := e.MustDo(http.MethodPost, links, e.OwnerToken, map[string]any{"role": nil}, http.StatusCreated)["id"].(string)
	theirs := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/link-invites", e.otherTok, map[string]any{"role": "read"},
		http.StatusCreated)["id"].(string)

	e.Run(t, []servertest.Scenario{
		{Name: "create: Location", Method: http.MethodPost, Path: links, Token: e.OwnerToken, Body: map[string]any{"role": "read"},
			WantStatus: http.StatusCreated, Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+links+"/"+res.JSON()["id"].(string), res.Header.Get("Location"))
			}},
		{Name: "create: no role", Method: http.MethodPost, Path: links, Token: e.OwnerToken, Body: map[string]any{},
			WantStatus: http.StatusBadRequest, WantError: "role"},
		{Name: "create: a bad role", Method: http.MethodPost, Path: links, Token: e.OwnerToken, Body: map[string]any{"role": "owner"},
			WantStatus: http.StatusBadRequest, WantError: "role"},
		{Name: "create: as a reader", Method: http.MethodPost, Path: links, Token: e.readTok, Body: map[string]any{"role": "read"},
			WantStatus: http.StatusForbidden},
		{Name: "create: as an editor", Method: http.MethodPost, Path: links, Token: e.editTok, Body: map[string]any{"role": "read"},
			WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPost, Path: links, Token: e.otherTok, Body: map[string]any{"role": "read"},
			WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPost, Path: links, Body: map[string]any{"role": "read"},
			WantStatus: http.StatusUnauthorized},
		{Name: "list: as a reader", Method: http.MethodGet, Path: links, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "list: as a guest", Method: http.MethodGet, Path: links, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: links, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: links, WantStatus: http.StatusUnauthorized},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: links + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
		{Name: "get", Method: http.MethodGet, Path: links + "/" + inv, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": inv, "role": "edit"}},
		{Name: "get: a guest link", Method: http.MethodGet, Path: links + "/" + guestLink, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": guestLink, "role": nil}},
		{Name: "get: as a reader, who does not see links", Method: http.MethodGet, Path: links + "/" + inv, Token: e.readTok,
			WantStatus: http.StatusNotFound},
		{Name: "get: another organization's", Method: http.MethodGet, Path: links + "/" + theirs, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: links + "/inv_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: links + "/" + inv, WantStatus: http.StatusUnauthorized},
		{Name: "update: no role", Method: http.MethodPatch, Path: links + "/" + inv, Token: e.OwnerToken, Body: map[string]any{},
			WantStatus: http.StatusBadRequest, WantError: "role"},
		{Name: "update: level, for content invites", Method: http.MethodPatch, Path: links + "/" + inv, Token: e.OwnerToken,
			Body: map[string]any{"level": "read"}, WantStatus: http.StatusBadRequest, WantError: "level"},
		{Name: "update: as a reader", Method: http.MethodPatch, Path: links + "/" + inv, Token: e.readTok,
			Body: map[string]any{"role": "admin"}, WantStatus: http.StatusNotFound},
		{Name: "update: another organization's", Method: http.MethodPatch, Path: links + "/" + theirs, Token: e.OwnerToken,
			Body: map[string]any{"role": "admin"}, WantStatus: http.StatusNotFound},
		{Name: "update: without a token", Method: http.MethodPatch, Path: links + "/" + inv, Body: map[string]any{"role": "admin"},
			WantStatus: http.StatusUnauthorized},
		{Name: "delete: without a token", Method: http.MethodDelete, Path: links + "/" + inv, WantStatus: http.StatusUnauthorized},
		{Name: "update", Method: http.MethodPatch, Path: links + "/" + inv, Token: e.OwnerToken, Body: map[string]any{"role": "review"},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"id": inv, "role": "review"}},
		{Name: "delete: as an editor", Method: http.MethodDelete, Path: links + "/" + guestLink, Token: e.editTok,
			WantStatus: http.StatusNotFound},
		{Name: "delete: another organization's", Method: http.MethodDelete, Path: links + "/" + theirs, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "delete", Method: http.MethodDelete, Path: links + "/" + guestLink, Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "delete: again", Method: http.MethodDelete, Path: links + "/" + guestLink, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
	all := e.Walk(t, links, e.OwnerToken, 1)
	require.Len(t, all, 2)
	assert.Equal(t, inv, all[0], "oldest first")
}

func TestJoinWithInvite(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	links := "/v1/orgs/" + e.Org.ID + "/link-invites"
	inv := e.MustDo(http.MethodPost, links, e.OwnerToken, map[string]any{"role": "comment"}, http.StatusCreated)["id"].(string)
	theirs := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/link-invites", e.otherTok, map[string]any{"role": "read"},
		http.StatusCreated)["id"].(string)
	join := "/v1/orgs/" + e.Org.ID + "/invites/"
	newcomer := e.User("newcomer@else.example")
	tok := e.Token(newcomer)
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, tok, nil, http.StatusNotFound)

	e.Run(t, []servertest.Scenario{
		{Name: "unknown invite", Method: http.MethodPost, Path: join + "inv_nope", Token: tok, WantStatus: http.StatusNotFound},
		{Name: "another organization's invite", Method: http.MethodPost, Path: join + theirs, Token: tok, WantStatus: http.StatusNotFound},
		{Name: "another organization's path", Method: http.MethodPost, Path: "/v1/orgs/" + e.otherOrg + "/invites/" + inv, Token: tok,
			WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPost, Path: join + inv, WantStatus: http.StatusUnauthorized},
		{Name: "join", Method: http.MethodPost, Path: join + inv, Token: tok, WantStatus: http.StatusOK, WantJSON: map[string]any{}},
		{Name: "join again", Method: http.MethodPost, Path: join + inv, Token: tok, WantStatus: http.StatusOK},
		{Name: "an editor keeps their role", Method: http.MethodPost, Path: join + inv, Token: e.editTok, WantStatus: http.StatusOK},
		{Name: "a reader is raised", Method: http.MethodPost, Path: join + inv, Token: e.readTok, WantStatus: http.StatusOK},
		{Name: "a member still does not see the links", Method: http.MethodGet, Path: links + "/" + inv, Token: tok,
			WantStatus: http.StatusNotFound},
	})
	assert.Equal(t, "comment", e.role(newcomer.ID))
	assert.Equal(t, "edit", e.role(e.editor))
	assert.Equal(t, "comment", e.role(e.reader))
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, tok, nil, http.StatusOK)

	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{"inviteLinks": false}, http.StatusOK)
	late := e.Token(e.User("late@else.example"))
	res := e.Do(http.MethodPost, join+inv, late, nil)
	assert.Equal(t, http.StatusForbidden, res.Status, "invite links are off: %s", res.Body)
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, late, nil, http.StatusNotFound)
}

func TestEmailDomainOrganizations(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{"emailDomains": []string{"acme.example", "example.com"}},
		http.StatusOK)
	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.otherOrg, e.otherTok, map[string]any{"emailDomains": []string{"sub.acme.example"}},
		http.StatusOK)
	colleague := e.Token(e.User("someone@acme.example"))
	stranger := e.Token(e.User("someone@else.example"))
	orgsOf := func(domain, tok string) []string {
		t.Helper()
		var ids []string
		for _, o := range e.MustDo(http.MethodGet, "/v1/email-domains/"+domain+"/orgs", tok, nil, http.StatusOK)["organizations"].([]any) {
			ids = append(ids, o.(map[string]any)["id"].(string))
		}
		return ids
	}
	assert.Equal(t, []string{e.Org.ID}, orgsOf("acme.example", colleague), "their email's domain: they may join")
	assert.Equal(t, []string{e.otherOrg}, orgsOf("sub.acme.example", e.otherTok))
	assert.Equal(t, []string{e.Org.ID}, orgsOf("acme.example", e.readTok), "a member's own organization")
	assert.Equal(t, []string{e.Org.ID}, orgsOf("ACME.example", e.readTok))
	assert.Empty(t, orgsOf("acme.example", stranger), "no enumeration")
	assert.Empty(t, orgsOf("sub.acme.example", colleague), "a subdomain is another domain")
	assert.Empty(t, orgsOf("example.org", e.OwnerToken))
	o := e.MustDo(http.MethodGet, "/v1/email-domains/acme.example/orgs", colleague, nil, http.StatusOK)["organizations"].([]any)[0]
	servertest.AssertContains(t, map[string]any{"title": "Acme Docs", "permissions": map[string]any{"view": true, "admin": false}}, o)
	e.Run(t, []servertest.Scenario{
		{Name: "not a domain", Method: http.MethodGet, Path: "/v1/email-domains/" + strings.Repeat("x", 3) + "/orgs", Token: colleague,
			WantStatus: http.StatusBadRequest, WantError: "emailDomain"},
		{Name: "without a token", Method: http.MethodGet, Path: "/v1/email-domains/acme.example/orgs", WantStatus: http.StatusUnauthorized},
	})
}

func TestAddTeamMember(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	team := e.createTeam("Writers")["id"].(string)
	members := "/v1/orgs/" + e.Org.ID + "/teams/" + team + "/members/"
	otherTeam := e.MustDo(http.MethodPut, "/v1/orgs/"+e.otherOrg+"/teams", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	e.Run(t, []servertest.Scenario{
		{Name: "add", Method: http.MethodPut, Path: members + e.reader, Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "add again, as owner", Method: http.MethodPut, Path: members + e.reader, Token: e.OwnerToken,
			Body: map[string]any{"role": "owner"}, WantStatus: http.StatusNoContent},
		{Name: "add with a body", Method: http.MethodPut, Path: members + e.editor, Token: e.OwnerToken,
			Body: map[string]any{"role": "member"}, WantStatus: http.StatusNoContent},
		{Name: "a bad role", Method: http.MethodPut, Path: members + e.guest, Token: e.OwnerToken,
			Body: map[string]any{"role": "boss"}, WantStatus: http.StatusBadRequest, WantError: "role"},
		{Name: "not a member: the path names no member", Method: http.MethodPut, Path: members + e.otherUser, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "an unknown user", Method: http.MethodPut, Path: members + "usr_nope", Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "as a reader", Method: http.MethodPut, Path: members + e.guest, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "as an outsider", Method: http.MethodPut, Path: members + e.guest, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "another organization's team", Method: http.MethodPut,
			Path: "/v1/orgs/" + e.Org.ID + "/teams/" + otherTeam + "/members/" + e.reader, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "unknown team", Method: http.MethodPut, Path: "/v1/orgs/" + e.Org.ID + "/teams/team_nope/members/" + e.reader,
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodPut, Path: members + e.guest, WantStatus: http.StatusUnauthorized},
	})
	servertest.AssertContains(t, map[string]any{"members": 2}, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/teams/"+team,
		e.OwnerToken, nil, http.StatusOK))
	assert.Len(t, e.Walk(t, "/v1/orgs/"+e.Org.ID+"/teams?owner="+e.reader, e.OwnerToken, 10), 1, "the reader owns it")

	var d struct {
		Node struct {
			Members struct {
				TotalCount int
				Nodes      []struct {
					Role string
					User struct{ ID string }
				}
			}
		}
	}
	e.GraphQL(e.readTok, `query($id: ID!) { node(id: $id) { ... on Team { members(first: 10) { totalCount nodes { role user { id } } } } } }`,
		map[string]any{"id": team}).Into(t, &d)
	assert.Equal(t, 2, d.Node.Members.TotalCount)
	require.Len(t, d.Node.Members.Nodes, 2)
	assert.Equal(t, "OWNER", d.Node.Members.Nodes[0].Role)
	assert.Equal(t, e.reader, d.Node.Members.Nodes[0].User.ID)
	assert.Equal(t, e.editor, d.Node.Members.Nodes[1].User.ID)
	res := e.GraphQL(e.guestTok, `query($id: ID!) { node(id: $id) { ... on Team { members { totalCount } } } }`, map[string]any{"id": team})
	require.Empty(t, res.Errors)
	assert.JSONEq(t, `{"node": null}`, string(res.Data), "a guest does not see teams")
}

// Many admins inviting the same address at once make one invitation (the
// UNIQUE index on the organization and the address, with an upsert), and
// its invitee accepting it many times at once makes one membership: every
// request succeeds, on both databases.
func TestInvitationsConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	invites := "/v1/orgs/" + e.Org.ID + "/invites"
	const writers = 30
	var wg sync.WaitGroup
	statuses := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[w] = e.Do(http.MethodPost, invites, e.OwnerToken,
				map[string]any{"emails": []string{"busy@example.com", fmt.Sprintf("w%d@example.com", w)}}).Status
		}()
	}
	wg.Wait()
	for w, s := range statuses {
		assert.Equal(t, http.StatusOK, s, "inviter %d", w)
	}
	n, err := e.Client.Invite.Query().Where(invite.Email("busy@example.com")).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	var inv string
	for _, i := range e.MustDo(http.MethodGet, invites+"?limit=100", e.OwnerToken, nil, http.StatusOK)["items"].([]any) {
		if i.(map[string]any)["email"] == "busy@example.com" {
			inv = i.(map[string]any)["id"].(string)
		}
	}
	tok := e.Token(e.User("busy@example.com"))
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[w] = e.Do(http.MethodPost, invites+"/"+inv, tok, nil).Status
		}()
	}
	wg.Wait()
	for w, s := range statuses {
		assert.Equal(t, http.StatusOK, s, "acceptance %d", w)
	}
	n, err = e.Client.Member.Query().Where(member.OrganizationID(e.Org.ID), member.HasUserWith(user.Email("busy@example.com"))).
		Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
}
