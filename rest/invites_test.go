package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/apitoken"
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

	res := e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{
		"emails": []any{"New.Person@Example.com", "reader@example.com", "new.person@example.com", "Editor.Person@example.com"},
		"role":   "comment",
	}, http.StatusOK)
	users := res["users"].([]any)
	require.Len(t, users, 4, "one user per email, in order")
	assert.Equal(t, users[0], users[2], "the same address twice is one user")
	assert.Equal(t, e.reader, users[1])
	assert.Equal(t, e.editor, users[3])
	assert.EqualValues(t, 1, res["invited"], "only the new person became a member")
	assert.Equal(t, []any{}, res["failedSSOEmails"])
	newcomer := users[0].(string)
	assert.Equal(t, "comment", e.role(newcomer))
	assert.Equal(t, "comment", e.role(e.reader), "a reader is raised")
	assert.Equal(t, "edit", e.role(e.editor), "an editor is not lowered")
	u, err := e.Client.User.Query().Where(user.ID(newcomer)).Only(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "new.person@example.com", u.Email)
	n, err := e.Client.APIToken.Query().Where(apitoken.UserID(newcomer)).Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "no token is made for an invitee")

	// Without a role: the organization's default role, else read.
	res = e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []string{"plain@example.com"}}, http.StatusOK)
	assert.Equal(t, "read", e.role(res["users"].([]any)[0].(string)))
	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{"defaultRole": "review"}, http.StatusOK)
	res = e.MustDo(http.MethodPost, invites, e.OwnerToken, map[string]any{"emails": []any{
		"reviewer@example.com", map[string]any{"email": "visitor@example.com", "role": nil},
		map[string]any{"email": "boss@example.com", "role": "admin"}}}, http.StatusOK)
	got := res["users"].([]any)
	assert.Equal(t, "review", e.role(got[0].(string)), "the default role")
	assert.Equal(t, "", e.role(got[1].(string)), "null: a guest")
	assert.Equal(t, "admin", e.role(got[2].(string)), "an address's own role")

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
	})
	exists, err := e.Client.User.Query().Where(user.Email("fine@example.com")).Exist(context.Background())
	require.NoError(t, err)
	assert.False(t, exists, "a refused invitation creates no one")
	assert.Len(t, e.Walk(t, e.base, e.OwnerToken, 50), 4+1+1+3+100)
}

// sso: true marks the invitees as SSO members when a SAML provider is
// active, and names them in failedSSOEmails when none is.
func TestInviteSSO(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	invites := "/v1/orgs/" + e.Org.ID + "/invites"
	res := e.MustDo(http.MethodPost, invites, e.OwnerToken,
		map[string]any{"emails": []string{"a@example.com", "B@example.com", "a@example.com"}, "sso": true}, http.StatusOK)
	assert.Equal(t, []any{"a@example.com", "b@example.com"}, res["failedSSOEmails"])
	assert.Equal(t, false, e.MustDo(http.MethodGet, e.base+"/"+res["users"].([]any)[0].(string), e.OwnerToken, nil, http.StatusOK)["sso"])

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
	for _, u := range res["users"].([]any) {
		assert.Equal(t, true, e.MustDo(http.MethodGet, e.base+"/"+u.(string), e.OwnerToken, nil, http.StatusOK)["sso"])
	}
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
		{Name: "not a member", Method: http.MethodPut, Path: members + e.otherUser, Token: e.OwnerToken,
			WantStatus: http.StatusBadRequest, WantError: e.otherUser},
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
