package graph_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// A token's user's facts are kept between requests, and every write to
// what they are read from (memberships, grants, teams, webhook endpoints
// and installations) is seen by the next request: the writes here go
// straight to the database, as an operator's would, so that what is tested
// is the access epoch's triggers, not the resolvers' writes. Writes that
// change nothing the facts hold keep them.
func TestViewerFactsAreKeptUntilTheyChange(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	r := e.Server.Resolver()
	// What is tested is the epoch: some of the writes below move no
	// generation (webhook endpoints), so no request may skip the read.
	r.SetKeptViewerAge(0)
	tok, u := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	m := e.Client.Member.Query().Where(member.UserID(u.ID), member.OrganizationID(e.Org.ID)).OnlyX(ctx)
	other := e.Client.Organization.Create().SetTitle("Other").SaveX(ctx)
	spaceA := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle("A").SaveX(ctx).ID
	spaceB := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle("B").SaveX(ctx).ID
	team := e.Client.Team.Create().SetOrganizationID(e.Org.ID).SetTitle("Writers").SaveX(ctx)
	e.Client.ContentGrant.Create().SetTeamID(team.ID).SetSpaceID(spaceB).SetRole(enum.RoleEdit).ExecX(ctx)
	integration := e.Client.Integration.Create().SetName("hooks").SetOrganizationID(other.ID).SetTitle("Hooks").
		SetScript("export default {}").SetVisibility(enum.IntegrationVisibilityPublic).SaveX(ctx)
	e.Client.WebhookEndpoint.Create().SetOrganizationID(other.ID).SetIntegrationID(integration.ID).
		SetURL("https://hooks.example.com/i").SetEventTypes([]enum.WebhookEventType{enum.WebhookEventTypeSpaceCreated}).
		SetSecret("v1:sealed").ExecX(ctx)
	var endpoint *ent.WebhookEndpoint
	var installation *ent.IntegrationInstallation

	viewer := func() *auth.Viewer {
		t.Helper()
		v, err := r.Authenticate(ctx, tok, time.Now())
		require.NoError(t, err)
		return v
	}
	for _, step := range []struct {
		name string
		// kept says the write changes nothing the facts hold: the next
		// request reuses them.
		kept   bool
		change func()
		check  func(v *auth.Viewer)
	}{
		{name: "a role changes", change: func() { m.Update().SetRole(enum.RoleEdit).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.Equal(t, enum.RoleEdit, v.Facts.Memberships[e.Org.ID].Role) }},
		{name: "a membership is disabled", change: func() { m.Update().SetDisabled(true).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.NotContains(t, v.Facts.Memberships, e.Org.ID) }},
		{name: "a membership is enabled", change: func() { m.Update().SetDisabled(false).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.True(t, v.Facts.Memberships[e.Org.ID].Member) }},
		{name: "the member is seen", kept: true, change: func() { m.Update().SetLastSeenAt(time.Now()).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.True(t, v.Facts.Memberships[e.Org.ID].Member) }},
		{name: "a membership starts", change: func() {
			e.Client.Member.Create().SetOrganizationID(other.ID).SetUserID(u.ID).ExecX(ctx)
		}, check: func(v *auth.Viewer) { assert.True(t, v.Facts.Memberships[other.ID].Member) }},
		{name: "a grant is given", change: func() {
			e.Client.ContentGrant.Create().SetUserID(u.ID).SetSpaceID(spaceA).SetRole(enum.RoleRead).ExecX(ctx)
		}, check: func(v *auth.Viewer) { assert.Equal(t, enum.RoleRead, v.Facts.Grants[spaceA]) }},
		{name: "a team is joined", change: func() { e.Client.TeamMember.Create().SetTeamID(team.ID).SetUserID(u.ID).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.Equal(t, enum.RoleEdit, v.Facts.Grants[spaceB]) }},
		{name: "an endpoint is added", change: func() {
			endpoint = e.Client.WebhookEndpoint.Create().SetOrganizationID(e.Org.ID).SetURL("https://hooks.example.com/o").
				SetEventTypes([]enum.WebhookEventType{enum.WebhookEventTypeSpaceCreated}).SetSecret("v1:sealed").SaveX(ctx)
		}, check: func(v *auth.Viewer) { assert.True(t, v.WebhookOrganizations[e.Org.ID]) }},
		{name: "an endpoint fails", kept: true, change: func() { endpoint.Update().SetFailures(3).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.True(t, v.WebhookOrganizations[e.Org.ID]) }},
		{name: "an endpoint is turned off", change: func() { endpoint.Update().SetActive(false).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.False(t, v.WebhookOrganizations[e.Org.ID]) }},
		{name: "an integration with an endpoint is installed", change: func() {
			installation = e.Client.IntegrationInstallation.Create().SetIntegrationID(integration.ID).
				SetOrganizationID(other.ID).SaveX(ctx)
		}, check: func(v *auth.Viewer) { assert.True(t, v.WebhookOrganizations[other.ID]) }},
		{name: "the installation is paused", change: func() {
			installation.Update().SetStatus(enum.InstallationStatusPaused).ExecX(ctx)
		}, check: func(v *auth.Viewer) { assert.False(t, v.WebhookOrganizations[other.ID]) }},
		{name: "a team is left", change: func() { e.Client.TeamMember.Delete().ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.NotContains(t, v.Facts.Grants, spaceB) }},
		{name: "a grant is taken back", change: func() { e.Client.ContentGrant.DeleteOneID(grantOf(t, e, u.ID)).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.NotContains(t, v.Facts.Grants, spaceA) }},
		{name: "a membership is removed", change: func() { e.Client.Member.DeleteOne(m).ExecX(ctx) },
			check: func(v *auth.Viewer) { assert.NotContains(t, v.Facts.Memberships, e.Org.ID) }},
	} {
		viewer() // the facts are kept, whatever came before
		hits := r.ViewerCacheHits()
		step.change()
		step.check(viewer())
		if step.kept {
			assert.Equal(t, hits+1, r.ViewerCacheHits(), "%s: the facts were read again", step.name)
		} else {
			assert.Equal(t, hits, r.ViewerCacheHits(), "%s: the kept facts were used", step.name)
		}
	}

	// A request changes its own viewer's webhook organizations (see
	// hookOrganization): what the next request gets is still what was read.
	v := viewer()
	v.WebhookOrganizations["org_changed"] = true
	v.Facts.Memberships["org_changed"] = v.Facts.Memberships[other.ID]
	again := viewer()
	assert.NotContains(t, again.WebhookOrganizations, "org_changed")
	assert.NotContains(t, again.Facts.Memberships, "org_changed")

	// A revoked token fails at once, kept facts or not.
	e.Client.APIToken.Delete().ExecX(ctx)
	_, err := r.Authenticate(ctx, tok, time.Now())
	require.Error(t, err)
	_, err = r.Authenticate(ctx, tok, time.Now())
	require.Error(t, err)
}

// A token read is kept while the server's generation stands: the next
// request of the token runs no statement, until a write commits, the
// kept token is older than its age, or it would be refused.
func TestViewerIsKeptWhileNothingIsWritten(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	r := e.Server.Resolver()
	tok, u := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	// authenticate returns the viewer of secret, or why not, and the
	// statements it took.
	authenticate := func(secret string, kind enum.CredentialKind, now time.Time) (*auth.Viewer, int64, error) {
		t.Helper()
		before := e.Statements.Load()
		authenticate := r.Authenticate
		if kind == enum.CredentialKindSession {
			authenticate = r.AuthenticateSession
		}
		v, err := authenticate(ctx, secret, now)
		return v, e.Statements.Load() - before, err
	}

	_, n, err := authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	assert.EqualValues(t, 1, n, "a token not seen: the token with the facts")
	unread := r.ViewersUnread()
	v, n, err := authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	assert.Zero(t, n, "nothing written since")
	assert.Equal(t, unread+1, r.ViewersUnread())
	assert.Equal(t, u.ID, v.User.ID)
	assert.Equal(t, u.DisplayName, v.User.DisplayName)
	assert.Equal(t, enum.RoleRead, v.Facts.Memberships[e.Org.ID].Role)
	assert.Nil(t, v.WebhookOrganizations, "unknown: a write reads them")

	// A request may change its viewer: the next one gets what was read.
	v.User.DisplayName = "Changed"
	v.Token.Kind = enum.CredentialKindSession
	v.Facts.Memberships["org_changed"] = v.Facts.Memberships[e.Org.ID]
	v, n, err = authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, u.DisplayName, v.User.DisplayName)
	assert.NotContains(t, v.Facts.Memberships, "org_changed")

	// Any write that counts moves the generation: the token is read again,
	// alone, and kept again.
	e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle("A").ExecX(ctx)
	hits := r.ViewerCacheHits()
	_, n, err = authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	assert.EqualValues(t, 1, n, "the token alone, after a write")
	assert.Equal(t, hits+1, r.ViewerCacheHits())
	_, n, err = authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	assert.Zero(t, n, "kept again")

	// A use is recorded once a minute, and what is kept learns of it.
	used := time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
	before := e.Statements.Load()
	r.RecordUse(ctx, tok, v, used)
	assert.EqualValues(t, 1, e.Statements.Load()-before, "the use is recorded")
	v, n, err = authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	assert.Zero(t, n, "recording a use moves no generation")
	require.NotNil(t, v.Token.LastUsedAt)
	assert.True(t, used.Equal(*v.Token.LastUsedAt), "the kept token was last used at %s", v.Token.LastUsedAt)
	before = e.Statements.Load()
	r.RecordUse(ctx, tok, v, used.Add(30*time.Second))
	assert.Equal(t, before, e.Statements.Load(), "used again within the minute")

	// A session that idled out by what is kept is read again: the use
	// another server recorded saves it.
	secret, hash := auth.NewSession()
	created := time.Now()
	session := e.Client.APIToken.Create().SetUserID(u.ID).SetKind(enum.CredentialKindSession).SetLabel("Browser session").
		SetTokenHash(hash).SetExpiresAt(created.Add(365 * 24 * time.Hour)).SaveX(ctx)
	_, _, err = authenticate(secret, enum.CredentialKindSession, created)
	require.NoError(t, err)
	_, n, err = authenticate(secret, enum.CredentialKindSession, created)
	require.NoError(t, err)
	require.Zero(t, n)
	idle := e.Config.SessionIdle
	session.Update().SetLastUsedAt(created.Add(idle)).ExecX(ctx) // moves no generation
	_, n, err = authenticate(secret, enum.CredentialKindSession, created.Add(idle+time.Minute))
	require.NoError(t, err, "a use recorded in the database keeps the session")
	assert.EqualValues(t, 1, n)
	_, _, err = authenticate(secret, enum.CredentialKindSession, created.Add(2*idle+time.Minute))
	require.Error(t, err, "idle since the last use")

	// A token revoked through a client fails at once.
	_, err = e.Client.APIToken.Delete().Where(apitoken.KindEQ(enum.CredentialKindSession)).Exec(ctx)
	require.NoError(t, err)
	_, _, err = authenticate(secret, enum.CredentialKindSession, created)
	require.Error(t, err, "a revoked session")

	// One deleted beside Bindery's clients, as an operator would with SQL,
	// moves no generation: it fails once what is kept is older than its
	// age (an hour for tests; a second by default).
	r.SetKeptViewerAge(100 * time.Millisecond)
	_, _, err = authenticate(tok, enum.CredentialKindToken, time.Now())
	require.NoError(t, err)
	_, err = e.DB.SQL.ExecContext(ctx, "DELETE FROM "+apitoken.Table+" WHERE "+apitoken.FieldUserID+" = '"+u.ID+"'")
	require.NoError(t, err)
	assert.Eventually(t, func() bool {
		_, _, err := authenticate(tok, enum.CredentialKindToken, time.Now())
		return err != nil
	}, 10*time.Second, 20*time.Millisecond, "a token deleted with SQL is refused")
}

// On PostgreSQL, two servers on one database, each through connections of
// its own: a token revoked through one is refused by the other once it
// hears of the write.
func TestReplicasHearOfRevokedTokens(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("one server owns a SQLite database")
	}
	t.Parallel()
	e := servertest.New(t)
	other := servertest.Replica(t, e)
	tok, u := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "A"}, http.StatusCreated)["id"].(string)
	for range 2 {
		require.Equal(t, http.StatusOK, other.Do(http.MethodGet, "/v1/spaces/"+space, tok, nil).Status)
	}
	id := e.Client.APIToken.Query().Where(apitoken.UserID(u.ID)).OnlyIDX(context.Background())
	gql := e.GraphQL(tok, `mutation($id: ID!) { revokeAPIToken(input: {id: $id}) { clientMutationId } }`, map[string]any{"id": id})
	require.Empty(t, gql.Errors)
	require.Equal(t, http.StatusUnauthorized, e.Do(http.MethodGet, "/v1/spaces/"+space, tok, nil).Status,
		"refused at once by the server that revoked it")
	assert.Eventually(t, func() bool {
		return other.Do(http.MethodGet, "/v1/spaces/"+space, tok, nil).Status == http.StatusUnauthorized
	}, 5*time.Second, 10*time.Millisecond, "the other server hears of it")
}

// grantOf returns the ID of the one grant made to a user.
func grantOf(t *testing.T, e *servertest.Env, userID string) string {
	t.Helper()
	g, err := e.Client.ContentGrant.Query().All(context.Background())
	require.NoError(t, err)
	for _, x := range g {
		if x.UserID != nil && *x.UserID == userID {
			return x.ID
		}
	}
	t.Fatalf("no grant to %s", userID)
	return ""
}

// On PostgreSQL, a change made by a session whose search_path does not name
// Bindery's schema (an operator's psql) moves the epoch of that schema.
func TestAccessEpochMovesWhateverTheSearchPath(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("a search_path is PostgreSQL's")
	}
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	conn, err := e.DB.SQL.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	var schema string
	require.NoError(t, conn.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema))
	epoch := func() int64 {
		var n int64
		require.NoError(t, conn.QueryRowContext(ctx, `SELECT "epoch" FROM "`+schema+`"."access_epoch"`).Scan(&n))
		return n
	}
	before := epoch()
	_, err = conn.ExecContext(ctx, "SET search_path = pg_catalog")
	require.NoError(t, err)
	defer func() {
		_, err := conn.ExecContext(ctx, "RESET search_path")
		assert.NoError(t, err)
	}()
	_, err = conn.ExecContext(ctx, `UPDATE "`+schema+`"."members" SET "role" = 'read' WHERE "user_id" = $1`, e.Owner.ID)
	require.NoError(t, err)
	assert.Greater(t, epoch(), before)
}
