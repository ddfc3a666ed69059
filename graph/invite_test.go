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

// Invites, link invites, joining and SAML providers through GraphQL: the
// same rules as /v1, which calls the same resolvers.
func TestOrganizationAccessInGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	readTok, reader := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	org := map[string]any{"org": e.Org.ID}

	invite := `mutation($in: InviteMembersInput!) { inviteMembers(input: $in) { userIds invited failedSSOEmails
	  invitations { id email role organization { id } urls { location } } } }`
	in := func(invitees ...map[string]any) map[string]any {
		if invitees == nil {
			invitees = []map[string]any{}
		}
		return map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "emails": invitees, "role": "EDIT", "sso": true}}
	}
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, invite, in(map[string]any{"email": "x@example.com"})).Code())
	res := e.GraphQL(e.OwnerToken, invite, in(map[string]any{"email": "x@example.com"}, map[string]any{"email": "x@"}))
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "emails", res.Errors[0].Extensions["field"])
	assert.Equal(t, "BAD_USER_INPUT", e.GraphQL(e.OwnerToken, invite, in()).Code(), "nobody")
	d := lsGQL(t, e, e.OwnerToken, invite, in(map[string]any{"email": "Ann@Example.com"}, map[string]any{"email": "reader@example.com", "role": nil}))
	assert.Equal(t, []any{reader.ID}, lsAt(d, "inviteMembers.userIds"), "the member")
	assert.EqualValues(t, 1, lsAt(d, "inviteMembers.invited"))
	assert.Equal(t, []any{"ann@example.com", "reader@example.com"}, lsAt(d, "inviteMembers.failedSSOEmails"), "no SAML provider")
	invitations := lsAt(d, "inviteMembers.invitations").([]any)
	require.Len(t, invitations, 1)
	ann := invitations[0].(map[string]any)
	annInv := ann["id"].(string)
	assert.Equal(t, map[string]any{"id": annInv, "email": "ann@example.com", "role": "EDIT", "organization": map[string]any{"id": e.Org.ID},
		"urls": map[string]any{"location": "http://bindery.test/v1/orgs/" + e.Org.ID + "/invites/" + annInv}}, ann)
	m := lsGQL(t, e, e.OwnerToken, `query($org: ID!, $r: ID!) { organization(id: $org) { r: member(id: $r) { role }
	  invitations(first: 10) { totalCount nodes { id } } } }`, map[string]any{"org": e.Org.ID, "r": reader.ID})
	assert.Equal(t, "READ", lsAt(m, "organization.r.role"), "a guest's role asked for a reader does not lower them")
	assert.EqualValues(t, 1, lsAt(m, "organization.invitations.totalCount"))
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, `query($org: ID!) { organization(id: $org) { invitations { totalCount } } }`, org).Code())
	one := `query($org: ID!, $id: ID!) { organization(id: $org) { invitation(id: $id) { email } } }`
	assert.Equal(t, "NOT_FOUND", e.GraphQL(readTok, one, map[string]any{"org": e.Org.ID, "id": annInv}).Code())
	assert.Equal(t, "ann@example.com", lsAt(lsGQL(t, e, e.OwnerToken, one, map[string]any{"org": e.Org.ID, "id": annInv}),
		"organization.invitation.email"))

	// Ann accepts, with her account; joinOrganization takes the invitation
	// too.
	annTok := e.Token(e.User("ann@example.com"))
	accepted := lsGQL(t, e, annTok, `mutation($org: ID!, $id: ID!) { joinOrganization(input: {organizationId: $org, inviteId: $id}) {
	  member { role } } }`, map[string]any{"org": e.Org.ID, "id": annInv})
	assert.Equal(t, "EDIT", lsAt(accepted, "joinOrganization.member.role"))
	assert.EqualValues(t, 0, lsAt(lsGQL(t, e, e.OwnerToken, `query($org: ID!) { organization(id: $org) { invitations { totalCount } } }`, org),
		"organization.invitations.totalCount"))

	// Link invites: created with the default role, seen by admins only,
	// joined by a stranger holding the ID.
	created := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!) { createLinkInvite(input: {organizationId: $org}) {
	  invite { id role redundant urls { location } } } }`, org)
	inv := lsAt(created, "createLinkInvite.invite.id").(string)
	assert.Equal(t, "READ", lsAt(created, "createLinkInvite.invite.role"), "no default role: read")
	assert.Equal(t, true, lsAt(created, "createLinkInvite.invite.redundant"))
	assert.True(t, strings.HasPrefix(inv, "inv_") && len(inv) == 4+43, inv)
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, `query($org: ID!) { organization(id: $org) { invites { totalCount } } }`, org).Code())
	hidden := lsGQL(t, e, readTok, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": inv})
	assert.Nil(t, lsAt(hidden, "node"), "a reader does not see invite links")
	res = e.GraphQL(readTok, `query($org: ID!, $id: ID!) { organization(id: $org) { invite(id: $id) { id } } }`,
		map[string]any{"org": e.Org.ID, "id": inv})
	assert.Equal(t, "NOT_FOUND", res.Code())
	updated := lsGQL(t, e, e.OwnerToken, `mutation($id: ID!) { updateLinkInvite(input: {id: $id, role: COMMENT}) { invite { role } } }`,
		map[string]any{"id": inv})
	assert.Equal(t, "COMMENT", lsAt(updated, "updateLinkInvite.invite.role"))
	assert.Equal(t, "NOT_FOUND", e.GraphQL(readTok, `mutation($id: ID!) { deleteLinkInvite(input: {id: $id}) { deletedInviteId } }`,
		map[string]any{"id": inv}).Code())

	stranger := e.Token(e.User("stranger@else.example"))
	join := `mutation($org: ID!, $id: ID!) { joinOrganization(input: {organizationId: $org, inviteId: $id}) { member { role user { id } } } }`
	assert.Equal(t, "NOT_FOUND", e.GraphQL(stranger, join, map[string]any{"org": e.Org.ID, "id": inv + "x"}).Code())
	joined := lsGQL(t, e, stranger, join, map[string]any{"org": e.Org.ID, "id": inv})
	assert.Equal(t, "COMMENT", lsAt(joined, "joinOrganization.member.role"))
	listed := lsGQL(t, e, e.OwnerToken, `query($org: ID!) { organization(id: $org) { invites(first: 10) { totalCount nodes { id } } } }`, org)
	assert.EqualValues(t, 1, lsAt(listed, "organization.invites.totalCount"))
	lsGQL(t, e, e.OwnerToken, `mutation($id: ID!) { deleteLinkInvite(input: {id: $id}) { deletedInviteId } }`, map[string]any{"id": inv})
	assert.Equal(t, "NOT_FOUND", e.GraphQL(stranger, join, map[string]any{"org": e.Org.ID, "id": inv}).Code(), "a deleted link")

	// SAML providers.
	create := `mutation($in: CreateSAMLProviderInput!) { createSAMLProvider(input: $in) { samlProvider { id status
	  certificate defaultRole defaultTeam { id } service { startURL } } } }`
	res = e.GraphQL(e.OwnerToken, create, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "label": "Okta", "certificate": "x"}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "certificate", res.Errors[0].Extensions["field"])
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, create, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "label": "X"}}).Code())
	d = lsGQL(t, e, e.OwnerToken, create, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "label": "Okta",
		"ssoURL": "https://idp.example.com/sso", "entityID": "idp", "defaultRole": nil}})
	p := lsAt(d, "createSAMLProvider.samlProvider.id").(string)
	assert.Equal(t, "PENDING", lsAt(d, "createSAMLProvider.samlProvider.status"))
	assert.Nil(t, lsAt(d, "createSAMLProvider.samlProvider.certificate"))
	sso := `query($org: ID!) { organization(id: $org) { ssoProviders { id label startURL } } }`
	assert.Empty(t, lsAt(lsGQL(t, e, readTok, sso, org), "organization.ssoProviders"), "a pending provider is no way in")
	update := `mutation($in: UpdateSAMLProviderInput!) { updateSAMLProvider(input: $in) { samlProvider { status certificate } } }`
	d = lsGQL(t, e, e.OwnerToken, update, map[string]any{"in": map[string]any{"id": p, "certificate": servertest.Certificate(t)}})
	assert.Equal(t, "ACTIVE", lsAt(d, "updateSAMLProvider.samlProvider.status"))
	assert.Equal(t, "NOT_FOUND", e.GraphQL(readTok, update, map[string]any{"in": map[string]any{"id": p, "label": "Mine"}}).Code())
	logins := lsAt(lsGQL(t, e, readTok, sso, org), "organization.ssoProviders").([]any)
	require.Len(t, logins, 1)
	assert.Equal(t, map[string]any{"id": p, "label": "Okta", "startURL": "http://bindery.test/saml/" + p + "/start"}, logins[0])
	res = e.GraphQL(readTok, `query($org: ID!) { organization(id: $org) { samlProviders { nodes { certificate } } } }`, org)
	assert.Equal(t, "FORBIDDEN", res.Code(), "no certificate for a non-admin")
	lsGQL(t, e, e.OwnerToken, `mutation($id: ID!) { deleteSAMLProvider(input: {id: $id}) { deletedSAMLProviderId } }`, map[string]any{"id": p})
	e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/saml/"+p, e.OwnerToken, nil, http.StatusNotFound)

	// Organizations of an email domain.
	e.MustDo(http.MethodPatch, "/v1/orgs/"+e.Org.ID, e.OwnerToken, map[string]any{"emailDomains": []string{"else.example"}}, http.StatusOK)
	domain := `query($d: String!) { emailDomainOrganizations(emailDomain: $d) { id title permissions { view } } }`
	other := e.Token(e.User("colleague@else.example"))
	orgs := lsAt(lsGQL(t, e, other, domain, map[string]any{"d": "else.example"}), "emailDomainOrganizations").([]any)
	require.Len(t, orgs, 1)
	assert.Equal(t, e.Org.ID, orgs[0].(map[string]any)["id"])
	assert.Len(t, lsAt(lsGQL(t, e, readTok, domain, map[string]any{"d": "else.example"}), "emailDomainOrganizations"), 1,
		"a member, on another domain")
	nobody := e.Token(e.User("nobody@other.example"))
	assert.Empty(t, lsAt(lsGQL(t, e, nobody, domain, map[string]any{"d": "else.example"}), "emailDomainOrganizations"))
	assert.Equal(t, "BAD_USER_INPUT", e.GraphQL(nobody, domain, map[string]any{"d": "not a domain"}).Code())
}
