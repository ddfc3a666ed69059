package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// Members and teams through GraphQL: the same rules as /v1, which calls the
// same resolvers.
func TestMembersAndTeamsInGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	readTok, reader := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	org := map[string]any{"org": e.Org.ID}

	d := lsGQL(t, e, readTok, `query($org: ID!) { organization(id: $org) {
	  members(first: 10, role: READ) { totalCount nodes { id role user { id } } }
	  admins: members(first: 10, search: "OWNER") { nodes { id role } } } }`, org)
	assert.EqualValues(t, 1, lsAt(d, "organization.members.totalCount"))
	assert.Equal(t, reader.ID, lsAt(d, "organization.members.nodes").([]any)[0].(map[string]any)["id"], "a member's ID is the user's")

	update := `mutation($in: UpdateMemberInput!) { updateMember(input: $in) { member { id role } } }`
	res := e.GraphQL(e.OwnerToken, update, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "userId": e.Owner.ID, "role": "EDIT"}})
	assert.Equal(t, "CONFLICT", res.Code(), "the last admin stays")
	res = e.GraphQL(readTok, update, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "userId": reader.ID, "role": "ADMIN"}})
	assert.Equal(t, "FORBIDDEN", res.Code())
	res = e.GraphQL(e.OwnerToken, update, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "userId": reader.ID, "role": nil}})
	require.Empty(t, res.Errors)
	var u struct {
		UpdateMember struct{ Member struct{ Role *string } }
	}
	res.Into(t, &u)
	assert.Nil(t, u.UpdateMember.Member.Role, "null makes a guest")

	ping := lsGQL(t, e, readTok, `mutation($org: ID!) { pingOrganization(input: {organizationId: $org}) {
	  member { lastSeenAt } serviceVisitorClaims } }`, org)
	assert.NotNil(t, lsAt(ping, "pingOrganization.member.lastSeenAt"))

	created := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!, $m: [ID!]) { createTeam(input: {organizationId: $org, title: "Docs", members: $m}) {
	  team { id title memberCount permissions { admin } } } }`, map[string]any{"org": e.Org.ID, "m": []string{reader.ID}})
	team := lsAt(created, "createTeam.team.id").(string)
	assert.EqualValues(t, 1, lsAt(created, "createTeam.team.memberCount"))
	node := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Team { title } } }`, map[string]any{"id": team})
	assert.Equal(t, "Docs", lsAt(node, "node.title"), "a team is a node")
	hidden := lsGQL(t, e, readTok, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": team})
	assert.Nil(t, lsAt(hidden, "node"), "a guest does not see teams")

	remove := `mutation($in: RemoveMemberInput!) { removeMember(input: $in) { removedUserId } }`
	res = e.GraphQL(readTok, remove, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "userId": reader.ID}})
	require.Empty(t, res.Errors, "a member may leave")
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID, readTok, nil, http.StatusNotFound)
	teams := lsGQL(t, e, e.OwnerToken, `query($org: ID!) { organization(id: $org) { teams(first: 10) { nodes { memberCount } } } }`, org)
	assert.EqualValues(t, 0, lsAt(teams, "organization.teams.nodes").([]any)[0].(map[string]any)["memberCount"],
		"leaving the organization leaves its teams")
}

// Two admins demoting each other at once, over and over: one succeeds; the
// other, who is no longer an admin by the time it runs, is refused (a 409
// where it waited for the first and would now demote the last admin, a 403
// where it ran after the first had committed, a 404 where it was removed);
// never a server error, and the organization always keeps an admin. So for
// removals.
func TestAdminsDemotingEachOtherAtOnce(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	base := "/v1/orgs/" + e.Org.ID + "/members/"
	const rounds = 40
	for round := range rounds {
		tok, u := e.Member(e.Org.ID, enum.RoleAdmin, fmt.Sprintf("admin%d@example.com", round))
		admins := [2]struct{ tok, id string }{{e.OwnerToken, e.Owner.ID}, {tok, u.ID}}
		if round%2 == 1 {
			admins[0], admins[1] = admins[1], admins[0]
		}
		remove := round >= rounds*3/5
		var wg sync.WaitGroup
		var res [2]*servertest.Response
		start := make(chan struct{})
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				other := admins[1-i].id
				if remove {
					res[i] = e.Do(http.MethodDelete, base+other, admins[i].tok, nil)
				} else {
					res[i] = e.Do(http.MethodPatch, base+other, admins[i].tok, map[string]any{"role": "edit"})
				}
			}()
		}
		close(start)
		wg.Wait()
		won := http.StatusOK
		if remove {
			won = http.StatusNoContent
		}
		// A member removed is a stranger to the organization: not found.
		lost := []int{won, http.StatusConflict, http.StatusForbidden}
		if remove {
			lost = append(lost, http.StatusNotFound)
		}
		t.Logf("round %d: %d and %d", round, res[0].Status, res[1].Status)
		wins := 0
		for _, r := range res {
			assert.Contains(t, lost, r.Status, "round %d: %s", round, r.Body)
			if r.Status == won {
				wins++
			}
		}
		assert.Equal(t, 1, wins, "round %d: %d and %d", round, res[0].Status, res[1].Status)
		n, err := e.Client.Member.Query().Where(member.OrganizationID(e.Org.ID), member.RoleEQ(enum.RoleAdmin)).Count(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n, "round %d: one admin is left", round)
		// The owner alone is the admin again for the next round.
		e.Client.Member.Delete().Where(member.OrganizationID(e.Org.ID), member.UserIDIn(u.ID, e.Owner.ID)).ExecX(ctx)
		e.Client.Member.Create().SetOrganizationID(e.Org.ID).SetUserID(e.Owner.ID).SetRole(enum.RoleAdmin).ExecX(ctx)
	}
}
