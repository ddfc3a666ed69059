package graph_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/generated"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/server/servertest"
)

// Every create of both APIs has a case here, as every list has one in
// lists_test.go: it is measured with the counting driver after wrFew and
// after wrMany siblings of what it creates (the spaces and collections
// beside a new space or collection, the change requests of a space, the
// viewer's organizations or tokens, the pages or files of the content), on a
// fresh server each time, and must cost the same number of statements at
// both, within its bound. A create whose cost grows with its siblings, such
// as one that reads every sibling to find its place, fails
// TestCreateStatements; a create without a case fails
// TestCreateCasesCoverEveryCreate.
//
// What counts: servertest's counting driver counts every statement ent sends
// (Exec and Query), inside a transaction or not. Starting and ending a
// transaction are not statements it sees, so BEGIN and COMMIT never count.
//
// The bounds are what the creates cost. Every request pays the token with
// its user (1 statement) and, once it decides about content, the viewer's
// access: memberships, grants and the organization's collections in one
// statement (see loadOrgAccess).

// wrFew and wrMany are the two numbers of siblings every create is measured
// after.
const (
	wrFew  = 3
	wrMany = 30
)

// wrRequest sends the measured request to a server and checks that it
// created what it claims to.
type wrRequest func(e *servertest.Env)

// wrCase is one create of either API.
type wrCase struct {
	// create names it: "Mutation.field" for GraphQL, or a /v1 route as
	// rest.RouteList spells it.
	create string
	// setup makes n siblings of what the request creates, and returns the
	// request. The viewer has the role create in the test organization.
	setup func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest
	// max bounds the statements of the request; its comment says what they
	// are.
	max int64
}

// wrAttempts is how many times each request is measured, each time on a
// server with empty caches; the least count is its cost, as for the lists.
// Each attempt creates one more item, so the siblings are n, n+1, ...
const wrAttempts = 3

// TestCreateStatements measures every create after wrFew and wrMany
// siblings.
func TestCreateStatements(t *testing.T) {
	t.Parallel()
	for _, c := range wrCases() {
		t.Run(c.create, func(t *testing.T) {
			t.Parallel()
			few, many := wrMeasure(t, c, wrFew), wrMeasure(t, c, wrMany)
			t.Logf("%-72s %3d statements after %d siblings, %3d after %d; bound %d", c.create, few, wrFew, many, wrMany, c.max)
			assert.Equal(t, few, many, "%s: its statements grow with its siblings: %d after %d, %d after %d",
				c.create, few, wrFew, many, wrMany)
			assert.LessOrEqual(t, max(few, many), c.max, "%s: over its bound", c.create)
		})
	}
}

// wrMeasure sets a case up with n siblings on a fresh server and returns the
// statements its request costs, as a member with the role create.
func wrMeasure(t *testing.T, c wrCase, n int) int64 {
	t.Helper()
	return measure(t, enum.RoleCreate, "creator@example.com", wrAttempts, func(e *servertest.Env, v lsViewer) lsRequest {
		return lsRequest(c.setup(t, e, v, n))
	})
}

// TestCreateCasesCoverEveryCreate fails, naming the create, when a create of
// either API has no case: a GraphQL mutation that creates (its name starts
// with create, duplicate, upload, import or post), or a /v1 operation that
// answers 201 Created or posts (its official operationId starts with post).
func TestCreateCasesCoverEveryCreate(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{}
	for _, c := range wrCases() {
		require.False(t, cases[c.create], "%s has two cases", c.create)
		cases[c.create] = true
	}
	creates := wrCreates()
	// The detectors must find the creates known today, or the check is empty.
	require.GreaterOrEqual(t, len(creates), 15, "creates found: %v", creates)
	found := map[string]bool{}
	for _, c := range creates {
		found[c] = true
		assert.True(t, cases[c], "%s creates without a statement bound: add a case to wrCases", c)
	}
	for c := range cases {
		assert.True(t, found[c], "the case %s names no create of either API", c)
	}
}

// wrCreates returns the creates of both APIs: "Mutation.field" and
// "METHOD /v1/path".
func wrCreates() []string {
	var out []string
	s := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, f := range s.Mutation.Fields {
		for _, verb := range []string{"create", "duplicate", "upload", "import", "post", "invite"} {
			if strings.HasPrefix(f.Name, verb) {
				out = append(out, "Mutation."+f.Name)
			}
		}
	}
	for _, op := range rest.Operations() {
		// A post of the official API (a comment, a reply) answers 200.
		if op.Status == http.StatusCreated || (op.Method == http.MethodPost && strings.HasPrefix(op.OperationID, "post")) {
			out = append(out, op.Method+" "+op.Path)
		}
	}
	sort.Strings(out)
	return out
}

// Payload selections: what /v1 presents of the created object, so that both
// APIs load the same.
const (
	wrSpaceFields = `id title organization { id } parent { id } revision { id } permissions { edit }
  urls { location } commentCount changeRequestCount openChangeRequestCount draftChangeRequestCount`
	wrCollectionFields    = `id title organization { id } parent { id } permissions { view create } urls { location }`
	wrChangeRequestFields = `id number status subject outdated commentCount createdBy { id email }
  revision { id } revisionInitial { id } space { id } urls { location }`
)

// TestInviteStatements holds inviting people by email to a cost that does
// not grow with their number: 3 or 30 people, half of them invited and half
// members raised to a role, cost the same.
func TestInviteStatements(t *testing.T) {
	t.Parallel()
	count := func(n int) int64 {
		return measure(t, enum.RoleCreate, "creator@example.com", wrAttempts, func(e *servertest.Env, v lsViewer) lsRequest {
			lsMembers(t, e, n+2)
			attempt := 0
			return func(e *servertest.Env) {
				role := []string{"comment", "edit", "review", "create", "admin"}[attempt]
				attempt++
				var emails []string
				for i := range n {
					if i%2 == 0 {
						emails = append(emails, fmt.Sprintf("member%d@example.com", 2+i))
					} else {
						emails = append(emails, fmt.Sprintf("new%d.%d@example.com", attempt, i))
					}
				}
				got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken,
					map[string]any{"emails": emails, "role": role}, http.StatusOK)
				require.Len(t, got["users"], (n+1)/2, "the members")
				require.EqualValues(t, n/2, got["invited"], "the others")
			}
		})
	}
	few, many := count(3), count(30)
	t.Logf("inviting 3 people: %d statements; 30: %d", few, many)
	assert.Equal(t, few, many)
	// The webhook outbox costs nothing here: the viewer's organization
	// has no active endpoint, which the token's statement tells.
	assert.LessOrEqual(t, many, int64(8))
}

// wrCases are the cases of every create of both APIs.
func wrCases() []wrCase {
	return append(append(wrCommentCases(), []wrCase{
		{
			// As the owner, beside n teams, with two members.
			create: "PUT /v1/orgs/{organizationId}/teams", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsTeams(t, e, v, n)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPut, "/v1/orgs/"+e.Org.ID+"/teams", e.OwnerToken,
						map[string]any{"title": "New", "members": []string{e.Owner.ID, v.user.ID}}, http.StatusCreated)
					wrCheck(t, got, "members", "permissions.admin")
				}
			},
		},
		{
			create: "Mutation.createTeam", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsTeams(t, e, v, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!, $m: [ID!]) { createTeam(input: {organizationId: $org,
					  title: "New", members: $m}) { team { id memberCount spaceCount permissions { admin } } } }`,
						map[string]any{"org": e.Org.ID, "m": []string{e.Owner.ID, v.user.ID}})
					wrCheck(t, lsAt(d, "createTeam.team"), "memberCount", "permissions.admin")
				}
			},
		},
		{
			create: "POST /v1/orgs/{organizationId}/link-invites", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsInvites(t, e, n)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/link-invites", e.OwnerToken, map[string]any{"role": "edit"},
						http.StatusCreated)
					wrCheck(t, got, "id", "role", "redundant")
				}
			},
		},
		{
			create: "Mutation.createLinkInvite", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsInvites(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!) { createLinkInvite(input: {organizationId: $org, role: EDIT}) {
					  invite { id role redundant urls { location } } } }`, map[string]any{"org": e.Org.ID})
					wrCheck(t, lsAt(d, "createLinkInvite.invite"), "id", "role", "redundant")
				}
			},
		},
		{
			create: "POST /v1/orgs/{organizationId}/openapi", max: 6,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsOpenAPISpecs(t, e, n, 1)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/openapi", v.token,
						map[string]any{"slug": "new-" + fmt.Sprint(e.Statements.Load()), "source": map[string]any{"url": "https://api.example.com/new.json"}},
						http.StatusCreated)
					wrCheck(t, got, "id", "slug", "processingState", "permissions.edit", "urls.location")
				}
			},
		},
		{
			create: "Mutation.createOpenAPISpec", max: 6,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsOpenAPISpecs(t, e, n, 1)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($org: ID!, $slug: String!) { createOpenAPISpec(input: {organizationId: $org,
					  slug: $slug, source: {text: "openapi: 3.0.3"}}) { openAPISpec { id slug processingState lastVersion { id }
					  permissions { edit } urls { location } } } }`, map[string]any{"org": e.Org.ID, "slug": "new-" + fmt.Sprint(e.Statements.Load())})
					wrCheck(t, lsAt(d, "createOpenAPISpec.openAPISpec"), "id", "slug", "processingState", "permissions.edit")
				}
			},
		},
		{
			create: "POST /v1/orgs/{organizationId}/translations", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsTranslationSettings(t, e, n)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/translations", e.OwnerToken,
						map[string]any{"title": "New", "languages": []string{"fr", "de"}}, http.StatusCreated)
					wrCheck(t, got, "id", "title", "languages", "permissions.edit", "urls.location")
				}
			},
		},
		{
			create: "Mutation.createTranslationSettings", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsTranslationSettings(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!) { createTranslationSettings(input: {organizationId: $org,
					  title: "New", languages: [FR, PT_BR]}) { translationSettings { id title languages permissions { edit } urls { location } } } }`,
						map[string]any{"org": e.Org.ID})
					wrCheck(t, lsAt(d, "createTranslationSettings.translationSettings"), "id", "title", "languages", "permissions.edit")
				}
			},
		},
		{
			create: "POST /v1/orgs/{organizationId}/saml", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				team, cert := wrSAMLSiblings(t, e, n)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/saml", e.OwnerToken, map[string]any{"label": "New",
						"ssoURL": "https://idp.example.com/sso", "entityID": "https://idp.example.com", "certificate": cert,
						"defaultTeam": team, "defaultRole": "read"}, http.StatusCreated)
					wrCheck(t, got, "id", "status", "defaultTeam.title", "defaultTeam.permissions.admin")
				}
			},
		},
		{
			// Beside n endpoints: the organization's admin registers one.
			create: "Mutation.createWebhookEndpoint", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsWebhooks(t, e, n, 0)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!) { createWebhookEndpoint(input: {organizationId: $org,
					  url: "https://hooks.example.com/new", eventTypes: [SPACE_CREATED, MEMBER_ADDED]}) {
					  webhookEndpoint { id url eventTypes active } secret } }`, map[string]any{"org": e.Org.ID})
					wrCheck(t, lsAt(d, "createWebhookEndpoint"), "webhookEndpoint.id", "secret")
				}
			},
		},
		{
			create: "POST /v1/orgs/{organizationId}/webhooks", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsWebhooks(t, e, n, 0)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/webhooks", e.OwnerToken, map[string]any{
						"url": "https://hooks.example.com/new", "eventTypes": []string{"space.created", "member.added"}}, http.StatusCreated)
					wrCheck(t, got, "id", "eventTypes", "secret", "urls.location")
				}
			},
		},
		{
			// Beside n more past deliveries of the endpoint: one is sent again.
			create: "POST /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				ep := lsWebhooks(t, e, 1, n+1)[0]
				d := e.Client.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(ep)).FirstIDX(context.Background())
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/webhooks/"+ep+"/deliveries/"+d+"/redeliver", e.OwnerToken,
						nil, http.StatusCreated)
					wrCheck(t, got, "id", "eventId", "payload", "redeliveryOf")
				}
			},
		},
		{
			create: "Mutation.createSAMLProvider", max: 7,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				team, cert := wrSAMLSiblings(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!, $team: ID!, $cert: String!) { createSAMLProvider(input: {
					  organizationId: $org, label: "New", ssoURL: "https://idp.example.com/sso", entityID: "https://idp.example.com",
					  certificate: $cert, defaultTeamId: $team, defaultRole: READ}) { samlProvider { id status service { acsURL }
					  defaultTeam { id title permissions { admin } } } } }`, map[string]any{"org": e.Org.ID, "team": team, "cert": cert})
					wrCheck(t, lsAt(d, "createSAMLProvider.samlProvider"), "id", "status", "defaultTeam.title")
				}
			},
		},
		{
			// Beside n members: a new person, and a member raised (a
			// higher role at each attempt). The invitations' organization,
			// and the viewer's access that decides it, are what the
			// transaction read: the answer reads neither again.
			create: "Mutation.inviteMembers", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsMembers(t, e, n)
				next := 0
				return func(e *servertest.Env) {
					role := []string{"COMMENT", "EDIT", "REVIEW", "CREATE", "ADMIN"}[next]
					next++
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!, $emails: [InviteeInput!]!, $role: Role) { inviteMembers(input: {
					  organizationId: $org, emails: $emails, role: $role}) { userIds invited failedSSOEmails
					  invitations { id organization { id title } } } }`,
						map[string]any{"org": e.Org.ID, "role": role, "emails": []map[string]any{{"email": fmt.Sprintf("new%d@example.com", next)},
							{"email": "member2@example.com"}}})
					wrCheck(t, lsAt(d, "inviteMembers"), "userIds", "invited", "invitations")
				}
			},
		},
		{
			// Token 1; the organization 1; access 1; the place 1
			// (afterLast); the space, its first revision, and the space's
			// pointer to it 3. The response reads nothing more: the loaders
			// are primed with what the transaction read and wrote.
			create: "POST /v1/orgs/{organizationId}/spaces", max: 7,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				wrSiblings(t, e, n, nil)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", v.token, map[string]any{"title": "New"}, http.StatusCreated)
					wrCheck(t, got, "revision", "permissions.edit", "urls.location")
				}
			},
		},
		{
			// As POST /v1/orgs/{organizationId}/spaces, in a collection,
			// whose row the payload reads 1.
			create: "Mutation.createSpace", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				col := spCollection(t, e, e.OwnerToken, nil)
				wrSiblings(t, e, n, &col)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($org: ID!, $col: ID) { createSpace(input: {organizationId: $org, parentId: $col,
					  title: "New"}) { space { `+wrSpaceFields+` } } }`, map[string]any{"org": e.Org.ID, "col": col})
					wrCheck(t, lsAt(d, "createSpace.space"), "revision.id", "parent.id", "permissions.edit")
				}
			},
		},
		{
			// Token 1; the organization 1; access 1; the place 1; the
			// collection 1. The response decides about the new collection
			// with the access read again 1: the end of the transaction
			// cleared the loaders, and the new collection is not in the
			// access view it read.
			create: "POST /v1/orgs/{organizationId}/collections", max: 6,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				wrSiblings(t, e, n, nil)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/collections", v.token, map[string]any{"title": "New"}, http.StatusCreated)
					wrCheck(t, got, "permissions.view", "urls.location")
				}
			},
		},
		{
			// As POST /v1/orgs/{organizationId}/collections, in a
			// collection, whose row the response reads too, with the
			// organization's 2.
			create: "Mutation.createCollection", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				col := spCollection(t, e, e.OwnerToken, nil)
				wrSiblings(t, e, n, &col)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($org: ID!, $col: ID) { createCollection(input: {organizationId: $org, parentId: $col,
					  title: "New"}) { collection { `+wrCollectionFields+` } } }`, map[string]any{"org": e.Org.ID, "col": col})
					wrCheck(t, lsAt(d, "createCollection.collection"), "parent.id", "permissions.create")
				}
			},
		},
		{
			// Token 1; the space 1; access 1; the number 1 (one conditional
			// UPDATE of the space's counter); the change request 1. The
			// revision is presented by ID, unread.
			create: "POST /v1/spaces/{spaceId}/change-requests", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrChangeRequests(t, e, n)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/change-requests", v.token, map[string]any{"subject": "New"}, http.StatusCreated)
					wrCheck(t, got, "number", "revision", "createdBy.id", "urls.location")
				}
			},
		},
		{
			// As POST /v1/spaces/{spaceId}/change-requests, and the
			// revision the payload selects 1.
			create: "Mutation.createChangeRequest", max: 6,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrChangeRequests(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($s: ID!) { createChangeRequest(input: {spaceId: $s, subject: "New"}) {
					  changeRequest { `+wrChangeRequestFields+` } } }`, map[string]any{"s": sp})
					wrCheck(t, lsAt(d, "createChangeRequest.changeRequest"), "number", "revision.id", "createdBy.id")
				}
			},
		},
		{
			// Token 1; the placement lock (the space's organization, then
			// its row) 2; the space, the viewer's access and the
			// organization 3; the space's revision 1; the siblings 2
			// (the copy goes right after the original, so duplicating reads
			// them all, under the lock, in case they need renumbering); the
			// space, its first revision and the pointer 3. The response
			// reads nothing more.
			create: "POST /v1/spaces/{spaceId}/duplicate", max: 13, // 12, and the copy of its search index
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrSiblings(t, e, n, nil)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/duplicate", v.token, nil, http.StatusCreated)
					wrCheck(t, got, "revision", "permissions.edit")
				}
			},
		},
		{
			// As POST /v1/spaces/{spaceId}/duplicate, in a collection.
			create: "Mutation.duplicateSpace", max: 14, // 13, and the copy of its search index
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				col := spCollection(t, e, e.OwnerToken, nil)
				sp := wrSiblings(t, e, n, &col)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($s: ID!) { duplicateSpace(input: {id: $s}) { space { `+wrSpaceFields+` } } }`,
						map[string]any{"s": sp})
					wrCheck(t, lsAt(d, "duplicateSpace.space"), "revision.id", "parent.id")
				}
			},
		},
		{
			// Token 1; the organization and its admin 2. The response reads
			// the viewer's access to it 1 for viewerRole and permissions.
			create: "Mutation.createOrganization", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsOrganizations(t, e, v, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation { createOrganization(input: {title: "New"}) { organization {
					  id title viewerRole permissions { admin } urls { location } } } }`, nil)
					wrCheck(t, lsAt(d, "createOrganization.organization"), "viewerRole", "permissions.admin")
				}
			},
		},
		{
			// Token 1; the token 1.
			create: "Mutation.createAPIToken", max: 2,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				for i := 1; i < n; i++ {
					_, _, err := graph.IssueToken(context.Background(), e.Client, v.user.ID, fmt.Sprintf("Token %d", i), nil)
					require.NoError(t, err)
				}
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation { createAPIToken(input: {label: "New"}) { token apiToken { id label createdAt } } }`, nil)
					wrCheck(t, lsAt(d, "createAPIToken"), "token", "apiToken.id")
				}
			},
		},
		{
			// Token 1; the space's content lock 1; the space and the
			// viewer's access 2; the revision 1; the content objects on
			// the path to the root, read 2 and written 1; the revision 1; the
			// space's pointer 1. The response reads nothing more: the parent
			// it shows is the revision the transaction read.
			create: "Mutation.createPage", max: 11, // 10, and the new page in the search index
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrContent(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($s: ID!) { createPage(input: {spaceId: $s, title: "New"}) {
					  page { id title path } revision { id parents { id } } } }`, map[string]any{"s": sp})
					wrCheck(t, lsAt(d, "createPage"), "page.id", "revision.parents")
				}
			},
		},
		{
			// As Mutation.createPage, with the file's objects.
			create: "Mutation.uploadFile", max: 11,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrContent(t, e, n)
				return func(e *servertest.Env) {
					g := e.Upload(v.token, `mutation($in: UploadFileInput!) { uploadFile(input: $in) {
					  revision { id } file { id name size downloadURL } } }`,
						map[string]any{"in": map[string]any{"spaceId": sp, "file": nil}}, "in.file", "notes.txt", "text/plain", []byte("hello"))
					var d map[string]any
					g.Into(t, &d)
					wrCheck(t, lsAt(d, "uploadFile"), "file.id", "file.downloadURL")
				}
			},
		},
		{
			// Token 1; two transactions, the first to decide before the
			// archive is fetched, the second to write: each takes the
			// space's content lock and reads the space, the viewer's access
			// and the revision (4); then the content objects, read and written in batches
			// whose number depends on the archive, not on the pages already
			// there, the revision and the space's pointer.
			create: "Mutation.importContent", max: 18, // 16, the pages in the search index and, on SQLite, their words
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrContent(t, e, n)
				archive := wrZip(t, 2, "import")
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `mutation($in: ImportContentInput!) { importContent(input: $in) {
					  revision { id } importedResources } }`, map[string]any{"in": map[string]any{"spaceId": sp, "url": archive, "source": "ZIP"}})
					wrCheck(t, lsAt(d, "importContent"), "revision.id", "importedResources")
				}
			},
		},
		{
			// Token 1; one transaction: the space and the viewer's access,
			// the space's Git info read and written, the operation (an
			// export's request costs the same).
			create: "Mutation.importGitRepository", max: 7,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := lsLiveSpace(t, e)
				in := map[string]any{"in": map[string]any{"spaceId": sp, "url": "https://git.example.com/docs.git", "ref": "main"}}
				const q = `mutation($in: ImportGitRepositoryInput!) { importGitRepository(input: $in) { id state } }`
				for range n {
					lsGQL(t, e, e.OwnerToken, q, in)
				}
				return func(e *servertest.Env) {
					wrCheck(t, lsAt(lsGQL(t, e, v.token, q, in), "importGitRepository"), "id", "state")
				}
			},
		},
		{
			// After n rotations of the space's deploy key, one more: token 1;
			// one transaction: the space and the viewer's access (2), the
			// earlier key deleted, the new one; its author, for the answer.
			create: "Mutation.createGitDeployKey", max: 6,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := lsLiveSpace(t, e)
				const q = `mutation($id: ID!) { createGitDeployKey(spaceId: $id) { publicKey fingerprint createdAt createdBy { id } } }`
				for range n {
					lsGQL(t, e, e.OwnerToken, q, map[string]any{"id": sp})
				}
				return func(e *servertest.Env) {
					wrCheck(t, lsAt(lsGQL(t, e, v.token, q, map[string]any{"id": sp}), "createGitDeployKey"),
						"publicKey", "fingerprint", "createdBy.id")
				}
			},
		},
		{
			// As Mutation.importContent.
			create: "POST /v1/spaces/{spaceId}/content/import", max: 18, // 16, the pages in the search index and, on SQLite, their words
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrContent(t, e, n)
				archive := wrZip(t, 2, "import")
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/content/import", v.token,
						map[string]any{"url": archive, "source": "zip"}, http.StatusCreated)
					wrCheck(t, got, "revision", "importedResources")
				}
			},
		},
		{
			// As POST /v1/spaces/{spaceId}/content/import, and more: /v1
			// first resolves the change request of the path (the space, the
			// viewer's access, the change request); each transaction takes
			// the content lock of the change request's space before it
			// reads the change request; the second records the viewer as a
			// contributor and reads the change request back.
			create: "POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", max: 21,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				sp := wrContent(t, e, n)
				cr := e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/change-requests", e.OwnerToken, map[string]any{}, http.StatusCreated)["id"].(string)
				archive := wrZip(t, 2, "import")
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/change-requests/"+cr+"/content/import", v.token,
						map[string]any{"url": archive, "source": "zip"}, http.StatusCreated)
					wrCheck(t, got, "revision", "importedResources")
				}
			},
		},
	}...), slices.Concat(wrSiteCases(), wrRedirectCases(), wrSiteReaderCases(), wrIntegrationCases())...)
}

// wrCheck requires each of the fields to be set in the created object, so
// that the request does load what the case claims to measure.
func wrCheck(t *testing.T, v any, fields ...string) {
	t.Helper()
	lsCheck(t, []any{v}, "", 1, fields...)
}

// Fixtures. They run as the owner, through /v1 where that is short, and
// with the unguarded client otherwise.

// wrSAMLSiblings makes n SAML providers, and returns a team for the new
// one's default and a certificate.
func wrSAMLSiblings(t *testing.T, e *servertest.Env, n int) (team, cert string) {
	t.Helper()
	lsSAMLProviders(t, e, n)
	return e.Client.Team.Create().SetOrganizationID(e.Org.ID).SetTitle("Default").SaveX(context.Background()).ID,
		servertest.Certificate(t)
}

// wrSiblings makes n items under parent (nil for the top level), spaces and
// collections by turns, and returns one of the spaces.
func wrSiblings(t *testing.T, e *servertest.Env, n int, parent *string) string {
	t.Helper()
	var sp string
	for i := range n {
		if i%2 == 0 {
			sp = spCreate(t, e, e.OwnerToken, fmt.Sprintf("Space %d", i), parent)
		} else {
			spCollection(t, e, e.OwnerToken, parent)
		}
	}
	return sp
}

// wrChangeRequests creates a space with n change requests and returns it.
func wrChangeRequests(t *testing.T, e *servertest.Env, n int) string {
	t.Helper()
	sp := spCreate(t, e, e.OwnerToken, "Change requests", nil)
	for range n {
		spAddChangeRequest(t, e, sp, enum.ChangeRequestStatusOpen)
	}
	return sp
}

// wrContent creates a live space whose content holds n top-level pages and
// n files, and returns it.
func wrContent(t *testing.T, e *servertest.Env, n int) string {
	t.Helper()
	sp := lsLiveSpace(t, e)
	lsImport(t, e, "spaceId", sp, wrZip(t, n, "page"))
	return sp
}

// wrZip serves a zip archive of n top-level pages named after prefix, each
// with an image of its own.
func wrZip(t *testing.T, n int, prefix string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		w, err := zw.Create(fmt.Sprintf("%s-%03d.md", prefix, i))
		require.NoError(t, err)
		fmt.Fprintf(w, "# %s %d\n\nText of %s %d.\n\n![Figure](%s-%03d.png)\n", prefix, i, prefix, i, prefix, i)
		img := image.NewRGBA(image.Rect(0, 0, 2, 1))
		img.Set(0, 0, color.RGBA{R: uint8(i), G: uint8(len(prefix)), B: 7, A: 255})
		w, err = zw.Create(fmt.Sprintf("%s-%03d.png", prefix, i))
		require.NoError(t, err)
		require.NoError(t, png.Encode(w, img))
	}
	require.NoError(t, zw.Close())
	return serveZip(t, buf.Bytes())
}

// TestRenumberingNeverRaisesAPosition: creating content takes no lock; it
// goes a step above the highest position among its siblings (see
// afterLast). That place stays last only if nothing a concurrent move does
// raises a sibling above it. Moves into the same gap run it out of
// precision, and the siblings are renumbered: every position may drop, none
// may rise, and a new item still goes last.
func TestRenumberingNeverRaisesAPosition(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	order := []string{spCollection(t, e, e.OwnerToken, nil), spCollection(t, e, e.OwnerToken, nil), spCollection(t, e, e.OwnerToken, nil)}
	positions := func() map[string]float64 {
		out := map[string]float64{}
		for _, c := range e.Client.Collection.Query().AllX(ctx) {
			out[c.ID] = c.Position
		}
		for _, s := range e.Client.Space.Query().AllX(ctx) {
			out[s.ID] = s.Position
		}
		return out
	}
	renumbered := false
	for i := range 70 {
		before, mover := positions(), order[2]
		lsGQL(t, e, e.OwnerToken, `mutation($id: ID!, $after: ID) { moveCollection(input: {id: $id, position: {after: $after}}) {
		  collection { id } } }`, map[string]any{"id": mover, "after": order[0]})
		order = []string{order[0], mover, order[1]}
		after := positions()
		highest := 0.0
		for _, p := range before {
			highest = max(highest, p)
		}
		for id, p := range after {
			require.LessOrEqual(t, p, highest, "move %d raised %s above the highest position", i+1, id)
			if id != mover {
				require.LessOrEqual(t, p, before[id], "move %d raised %s", i+1, id)
				renumbered = renumbered || p != before[id]
			}
		}
		require.Less(t, after[order[0]], after[order[1]], "move %d", i+1)
		require.Less(t, after[order[1]], after[order[2]], "move %d", i+1)
	}
	require.True(t, renumbered, "the moves never ran out of room, so nothing was renumbered")
	last := spCreate(t, e, e.OwnerToken, "Last", nil)
	all := positions()
	for id, p := range all {
		if id != last {
			assert.Less(t, p, all[last], "%s is not before the new space", id)
		}
	}
}
