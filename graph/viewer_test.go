package graph_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
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
