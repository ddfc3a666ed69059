package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

func (e *mbEnv) createTeam(title string, members ...string) map[string]any {
	e.T.Helper()
	if members == nil {
		members = []string{}
	}
	return e.MustDo(http.MethodPut, "/v1/orgs/"+e.Org.ID+"/teams", e.OwnerToken,
		map[string]any{"title": title, "members": members}, http.StatusCreated)
}

func TestTeams(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	teams := "/v1/orgs/" + e.Org.ID + "/teams"
	writers := e.createTeam("Writers", e.reader, e.editor, e.reader)
	servertest.AssertContains(t, map[string]any{"object": "team", "title": "Writers", "members": 2, "spaces": 0,
		"permissions": map[string]any{"admin": true, "view": true}}, writers)
	w := writers["id"].(string)
	e.createTeam("Reviewers", e.editor)
	otherTeam := e.MustDo(http.MethodPut, "/v1/orgs/"+e.otherOrg+"/teams", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)

	e.Run(t, []servertest.Scenario{
		{Name: "create: title of 64", Method: http.MethodPut, Path: teams, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 64)}, WantStatus: http.StatusCreated,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+teams+"/"+res.JSON()["id"].(string), res.Header.Get("Location"))
			}},
		{Name: "create: title of 65", Method: http.MethodPut, Path: teams, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 65)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: empty title", Method: http.MethodPut, Path: teams, Token: e.OwnerToken,
			Body: map[string]any{"title": ""}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: no title", Method: http.MethodPut, Path: teams, Token: e.OwnerToken,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: not a member", Method: http.MethodPut, Path: teams, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "members": []string{e.otherUser}}, WantStatus: http.StatusBadRequest, WantError: e.otherUser},
		{Name: "create: as an editor", Method: http.MethodPut, Path: teams, Token: e.editTok,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPut, Path: teams, Token: e.otherTok,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPut, Path: teams, Body: map[string]any{"title": "X"},
			WantStatus: http.StatusUnauthorized},
		{Name: "get", Method: http.MethodGet, Path: teams + "/" + w, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": w, "title": "Writers", "members": 2, "permissions": map[string]any{"admin": false, "view": true}}},
		{Name: "get: as a guest, who does not see teams", Method: http.MethodGet, Path: teams + "/" + w, Token: e.guestTok, WantStatus: http.StatusNotFound},
		{Name: "get: another organization's", Method: http.MethodGet, Path: teams + "/" + otherTeam, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: through its organization, by a stranger", Method: http.MethodGet, Path: "/v1/orgs/" + e.otherOrg + "/teams/" + otherTeam,
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: teams + "/team_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: teams + "/" + w, WantStatus: http.StatusUnauthorized},
		{Name: "rename: as a reader", Method: http.MethodPatch, Path: teams + "/" + w, Token: e.readTok,
			Body: map[string]any{"title": "Authors"}, WantStatus: http.StatusForbidden},
		{Name: "rename: another organization's", Method: http.MethodPatch, Path: teams + "/" + otherTeam, Token: e.OwnerToken,
			Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusNotFound},
		{Name: "rename: 65", Method: http.MethodPatch, Path: teams + "/" + w, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 65)}, WantStatus: http.StatusBadRequest},
		{Name: "rename", Method: http.MethodPatch, Path: teams + "/" + w, Token: e.OwnerToken,
			Body: map[string]any{"title": "Authors"}, WantStatus: http.StatusOK, WantJSON: map[string]any{"title": "Authors"}},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: teams + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
		{Name: "list: as a guest", Method: http.MethodGet, Path: teams, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: teams, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "member's teams", Method: http.MethodGet, Path: e.base + "/" + e.editor + "/teams?title=AUTH", Token: e.readTok,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"count": 1, "items": []any{map[string]any{
				"team": map[string]any{"id": w, "title": "Authors"}, "member": map[string]any{"role": "member"}}}}},
		{Name: "remove a team member: another organization's user", Method: http.MethodDelete, Path: teams + "/" + w + "/members/" + e.otherUser,
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "remove a team member: as a reader", Method: http.MethodDelete, Path: teams + "/" + w + "/members/" + e.editor,
			Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "remove a team member", Method: http.MethodDelete, Path: teams + "/" + w + "/members/" + e.editor,
			Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "delete: as an editor", Method: http.MethodDelete, Path: teams + "/" + w, Token: e.editTok, WantStatus: http.StatusForbidden},
		{Name: "delete: another organization's", Method: http.MethodDelete, Path: teams + "/" + otherTeam, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
	assert.Len(t, e.Walk(t, e.base+"/"+e.editor+"/teams", e.OwnerToken, 1), 1, "the editor left Authors")
	all := e.Walk(t, teams+"?title=", e.OwnerToken, 1)
	require.Len(t, all, 3)
	assert.Equal(t, w, all[0], "oldest first")
	assert.Len(t, e.Walk(t, teams+"?title=aUtH", e.OwnerToken, 1), 1)
	e.MustDo(http.MethodDelete, teams+"/"+w, e.OwnerToken, nil, http.StatusNoContent)
	e.MustDo(http.MethodGet, teams+"/"+w, e.OwnerToken, nil, http.StatusNotFound)
	assert.Len(t, e.Walk(t, teams, e.OwnerToken, 1), 2)
}

// A team's role on a space raises its members' roles there, through
// GraphQL's setTeamContentRole and addTeamMember.
func TestTeamGrants(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	private := e.space("Private", "")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+private, e.OwnerToken, map[string]any{"defaultLevel": nil}, http.StatusOK)
	team := e.createTeam("Writers")["id"].(string)
	gql := func(tok, q string, vars map[string]any) *servertest.GQLResponse {
		t.Helper()
		return e.GraphQL(tok, q, vars)
	}
	add := `mutation($in: AddTeamMemberInput!) { addTeamMember(input: $in) { team { memberCount } } }`
	role := `mutation($in: SetTeamContentRoleInput!) { setTeamContentRole(input: $in) { team { spaceCount } } }`
	res := gql(e.readTok, add, map[string]any{"in": map[string]any{"teamId": team, "userId": e.reader}})
	assert.Equal(t, "FORBIDDEN", res.Code())
	res = gql(e.OwnerToken, add, map[string]any{"in": map[string]any{"teamId": team, "userId": e.otherUser}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	res = gql(e.OwnerToken, add, map[string]any{"in": map[string]any{"teamId": team, "userId": e.reader, "role": "OWNER"}})
	require.Empty(t, res.Errors)
	e.MustDo(http.MethodGet, "/v1/spaces/"+private, e.readTok, nil, http.StatusNotFound)

	res = gql(e.OwnerToken, role, map[string]any{"in": map[string]any{"teamId": team, "contentId": private, "role": "EDIT"}})
	require.Empty(t, res.Errors)
	var d struct {
		SetTeamContentRole struct{ Team struct{ SpaceCount int } }
	}
	res.Into(t, &d)
	assert.Equal(t, 1, d.SetTeamContentRole.Team.SpaceCount)
	servertest.AssertContains(t, map[string]any{"permissions": map[string]any{"edit": true}},
		e.MustDo(http.MethodGet, "/v1/spaces/"+private, e.readTok, nil, http.StatusOK))
	servertest.AssertContains(t, map[string]any{"items": []any{map[string]any{"permission": "edit"}}},
		e.MustDo(http.MethodGet, e.base+"/"+e.reader+"/spaces", e.OwnerToken, nil, http.StatusOK))
	assert.Len(t, e.Walk(t, fmt.Sprintf("/v1/orgs/%s/teams?owner=%s", e.Org.ID, e.reader), e.OwnerToken, 10), 1)
	assert.Empty(t, e.Walk(t, fmt.Sprintf("/v1/orgs/%s/teams?owner=%s", e.Org.ID, e.editor), e.OwnerToken, 10))

	res = gql(e.editTok, role, map[string]any{"in": map[string]any{"teamId": team, "contentId": private, "role": "ADMIN"}})
	assert.NotEmpty(t, res.Errors, "an editor may not manage teams")
	res = gql(e.OwnerToken, role, map[string]any{"in": map[string]any{"teamId": team, "contentId": e.Org.ID, "role": "ADMIN"}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	res = gql(e.OwnerToken, role, map[string]any{"in": map[string]any{"teamId": team, "contentId": private, "role": nil}})
	require.Empty(t, res.Errors)
	e.MustDo(http.MethodGet, "/v1/spaces/"+private, e.readTok, nil, http.StatusNotFound)
}
