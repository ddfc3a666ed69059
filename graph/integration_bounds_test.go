package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// lsIntegrationFields are the fields of a listed integration that load
// beyond its row.
const lsIntegrationFields = `name version scopes categories previewImages externalLinks { url label } owner { id title }
  permissions { admin install } urls { location icon }`

// lsIntegrations publishes n public integrations of the organization.
func lsIntegrations(t *testing.T, e *servertest.Env, n int) []*ent.Integration {
	t.Helper()
	out := make([]*ent.Integration, n)
	for i := range n {
		out[i] = e.Client.Integration.Create().SetName(fmt.Sprintf("integration-%02d", i)).SetOrganizationID(e.Org.ID).
			SetTitle(fmt.Sprintf("Integration %d", i)).SetScript("export default {}").SetVisibility(enum.IntegrationVisibilityPublic).
			SetScopes([]enum.IntegrationScope{enum.IntegrationScopeSpaceContentRead}).
			SetExternalLinks([]map[string]any{{"url": "https://example.com", "label": "Site"}}).SaveX(context.Background())
	}
	return out
}

// lsInstallations installs one integration of the organization in n other
// organizations (each with a space), and returns its name.
func lsInstallations(t *testing.T, e *servertest.Env, n int) string {
	t.Helper()
	ctx := context.Background()
	i := lsIntegrations(t, e, 1)[0]
	for k := range n {
		u := e.User(fmt.Sprintf("installer%d@example.com", k))
		o, err := graph.CreateOrganization(ctx, e.Client, fmt.Sprintf("Installer %d", k), u.ID)
		require.NoError(t, err)
		e.Client.Space.Create().SetOrganizationID(o.ID).SetTitle("Space").ExecX(ctx)
		e.Client.IntegrationInstallation.Create().SetIntegrationID(i.ID).SetOrganizationID(o.ID).
			SetExternalIds([]string{"x"}).ExecX(ctx)
	}
	return i.Name
}

// lsOrgInstallations installs n integrations in the organization, each for
// a selection of one of its n spaces and sites.
func lsOrgInstallations(t *testing.T, e *servertest.Env, n int) []*ent.IntegrationInstallation {
	t.Helper()
	ctx := context.Background()
	out := make([]*ent.IntegrationInstallation, n)
	for k, i := range lsIntegrations(t, e, n) {
		sp := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("Space %d", k)).SaveX(ctx)
		out[k] = e.Client.IntegrationInstallation.Create().SetIntegrationID(i.ID).SetOrganizationID(e.Org.ID).
			SetSpaceSelection(enum.InstallationSelectionSelected).AddSpaces(sp).SaveX(ctx)
	}
	return out
}

func lsIntegrationCases() []lsCase {
	const installationFields = `id status spaceSelection spaces configuration externalIds organization { id } integration { name }
	  urls { location }`
	return []lsCase{
		{
			// The token with the viewer's memberships, the page and its
			// count: the owner organization and permissions come from the
			// memberships.
			list: "Query.integrations", max: 3,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				lsIntegrations(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `{ integrations(first: 100) { totalCount nodes { `+lsIntegrationFields+` } } }`, nil)
					lsCheck(t, d, "integrations", n, "owner.title", "scopes", "externalLinks", "urls.location")
				}
			},
		},
		{
			list: "GET /v1/integrations", max: 3,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				lsIntegrations(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/integrations?limit=100", v.token, nil, http.StatusOK),
						"", n, "owner.title", "scopes", "externalLinks", "urls.location")
				}
			},
		},
		{
			// The token, the integration, the page and its count, the
			// installations' organizations (each opened by its installation,
			// so decided without their access), their selections in one
			// statement. The integration's name and organization are known.
			list: "Integration.installations", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				name := lsInstallations(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($n: String!) { integration(name: $n) { installations(first: 100) {
					  totalCount nodes { `+installationFields+` } } } }`, map[string]any{"n": name})
					lsCheck(t, d, "integration.installations", n, "status", "spaces", "organization.id", "urls.location")
				}
			},
		},
		{
			list: "GET /v1/integrations/{integrationName}/installations", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				name := lsInstallations(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/integrations/"+name+"/installations?limit=100", e.OwnerToken, nil,
						http.StatusOK), "", n, "status", "spaces", "target.organization", "urls.location")
				}
			},
		},
		{
			list: "Organization.installations", max: 7,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				lsOrgInstallations(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($org: ID!) { organization(id: $org) { installations(first: 100) {
					  totalCount nodes { `+installationFields+` selectedSpaces { id title } selectedSites { id } } } } }`,
						map[string]any{"org": e.Org.ID})
					lsCheck(t, d, "organization.installations", n, "status", "spaces", "integration.name", "selectedSpaces")
				}
			},
		},
		{
			// One installation selecting n spaces.
			list: "IntegrationInstallation.selectedSpaces", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				x := lsOrgInstallations(t, e, 1)[0]
				ctx := context.Background()
				for k := range n - 1 {
					sp := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("More %d", k)).SaveX(ctx)
					e.Client.IntegrationInstallation.UpdateOne(x).AddSpaces(sp).ExecX(ctx)
				}
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on IntegrationInstallation {
					  selectedSpaces { id title organization { id } } } } }`, map[string]any{"id": x.ID})
					require.Len(t, lsAt(d, "node.selectedSpaces"), n)
				}
			},
		},
		{
			list: "IntegrationInstallation.selectedSites", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				x := lsOrgInstallations(t, e, 1)[0]
				ctx := context.Background()
				for k := range n {
					s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("Site %d", k)).SaveX(ctx)
					e.Client.IntegrationInstallation.UpdateOne(x).AddSites(s).ExecX(ctx)
				}
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on IntegrationInstallation {
					  selectedSites { id title } } } }`, map[string]any{"id": x.ID})
					require.Len(t, lsAt(d, "node.selectedSites"), n)
				}
			},
		},
	}
}

// lsTargetInstallation installs an integration with space and site
// configuration schemas in the organization, for n selected spaces and n
// selected sites, each configured.
func lsTargetInstallation(t *testing.T, e *servertest.Env, n int) (*ent.Integration, *ent.IntegrationInstallation, []string) {
	t.Helper()
	ctx := context.Background()
	i := lsIntegrations(t, e, 1)[0]
	schema := map[string]any{"properties": map[string]any{"channel": map[string]any{"type": "string"}}, "required": []any{"channel"}}
	i = e.Client.Integration.UpdateOne(i).SetConfigurations(map[string]any{"space": schema, "site": schema}).SaveX(ctx)
	x := e.Client.IntegrationInstallation.Create().SetIntegrationID(i.ID).SetOrganizationID(e.Org.ID).
		SetSpaceSelection(enum.InstallationSelectionSelected).SetSiteSelection(enum.InstallationSelectionSelected).SaveX(ctx)
	var spaces []string
	for k := range n {
		sp := e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("Space %d", k)).SaveX(ctx)
		st := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("Site %d", k)).SaveX(ctx)
		e.Client.IntegrationSpaceInstallation.Create().SetIntegrationInstallationID(x.ID).SetSpaceID(sp.ID).
			SetConfiguration(map[string]any{"channel": fmt.Sprint(k)}).SetExternalIds([]string{"e"}).ExecX(ctx)
		e.Client.IntegrationSiteInstallation.Create().SetIntegrationInstallationID(x.ID).SetSiteID(st.ID).
			SetConfiguration(map[string]any{}).ExecX(ctx)
		spaces = append(spaces, sp.ID)
	}
	return i, x, spaces
}

func lsTargetInstallationCases() []lsCase {
	const fields = `status configuration externalIds urls { location publicEndpoint } installation { id }`
	return []lsCase{
		{
			// The token, the installation, the viewer's memberships, its
			// selection with the configurations (one statement, whatever
			// its length); the integration's name and schemas are known
			// from the installation's decision.
			list: "IntegrationInstallation.spaceInstallations", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				_, x, _ := lsTargetInstallation(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on IntegrationInstallation {
					  spaceInstallations(first: 100) { totalCount nodes { spaceId `+fields+` } } } } }`, map[string]any{"id": x.ID})
					lsCheck(t, d, "node.spaceInstallations", n, "status", "configuration", "urls.location")
				}
			},
		},
		{
			list: "IntegrationInstallation.siteInstallations", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				_, x, _ := lsTargetInstallation(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on IntegrationInstallation {
					  siteInstallations(first: 100) { totalCount nodes { siteId `+fields+` } } } } }`, map[string]any{"id": x.ID})
					lsCheck(t, d, "node.siteInstallations", n, "status", "configuration", "urls.location")
				}
			},
		},
		{
			// As in GraphQL, and the integration by its name.
			list: "GET /v1/integrations/{integrationName}/installations/{installationId}/spaces", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				i, x, _ := lsTargetInstallation(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/integrations/"+i.Name+"/installations/"+x.ID+"/spaces?limit=100",
						e.OwnerToken, nil, http.StatusOK), "", n, "status", "configuration", "integration", "urls.location")
				}
			},
		},
		{
			list: "GET /v1/integrations/{integrationName}/installations/{installationId}/sites", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				i, x, _ := lsTargetInstallation(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/integrations/"+i.Name+"/installations/"+x.ID+"/sites?limit=100",
						e.OwnerToken, nil, http.StatusOK), "", n, "status", "configuration", "integration", "urls.location")
				}
			},
		},
	}
}

// TestSpaceInstallationUpdateStatements bounds a PATCH of a space's
// configuration, the same beside 3 and 30 selected spaces.
func TestSpaceInstallationUpdateStatements(t *testing.T) {
	t.Parallel()
	// The token, the integration by its name and the installation by its
	// ID (the path); in the transaction, the installation again with the
	// viewer's memberships, its integration, the space's row and its
	// update; then the viewer's memberships, which decide whether the
	// answer names the integration. The rest is what the transaction read
	// (see prime).
	const bound = 9
	count := func(n int) int64 {
		return measure(t, enum.RoleEdit, "viewer@example.com", wrAttempts, func(e *servertest.Env, v lsViewer) lsRequest {
			i, x, spaces := lsTargetInstallation(t, e, n)
			attempt := 0
			return func(e *servertest.Env) {
				attempt++
				got := e.MustDo(http.MethodPatch, "/v1/integrations/"+i.Name+"/installations/"+x.ID+"/spaces/"+spaces[0],
					e.OwnerToken, map[string]any{"configuration": map[string]any{"channel": fmt.Sprint(attempt)}}, http.StatusOK)
				wrCheck(t, got, "status", "configuration", "urls.location")
			}
		})
	}
	few, many := count(lsFew), count(lsMany)
	t.Logf("PATCH .../installations/{installationId}/spaces/{spaceId}: %d statements beside %d spaces, %d beside %d; bound %d",
		few, lsFew, many, lsMany, bound)
	assert.Equal(t, few, many, "its statements grow with the selection")
	assert.LessOrEqual(t, max(few, many), int64(bound))
}

// wrTargetCase measures installing on one more space (or site) beside n
// selected ones, one new space (site) per attempt.
func wrTargetCase(target string, max int64) wrCase {
	return wrCase{
		create: "POST /v1/integrations/{integrationName}/installations/{installationId}/" + target + "s", max: max,
		setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			i, x, _ := lsTargetInstallation(t, e, n)
			var ids []string
			for k := range wrAttempts {
				if target == "space" {
					ids = append(ids, e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("New %d", k)).
						SaveX(context.Background()).ID)
				} else {
					ids = append(ids, e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("New %d", k)).
						SaveX(context.Background()).ID)
				}
			}
			member := map[string]string{"space": "space", "site": "siteId"}[target]
			return func(e *servertest.Env) {
				require.NotEmpty(t, ids, "more attempts than new places")
				id := ids[0]
				ids = ids[1:]
				got := e.MustDo(http.MethodPost, "/v1/integrations/"+i.Name+"/installations/"+x.ID+"/"+target+"s", e.OwnerToken,
					map[string]any{member: id}, http.StatusCreated)
				wrCheck(t, got, "status", "configuration", "urls.location")
			}
		},
	}
}

func wrIntegrationCases() []wrCase {
	return []wrCase{
		// The token, the integration by its name and the installation by
		// its ID (the path); in the transaction, the installation again with
		// the viewer's memberships, its integration, whether the space is
		// the organization's, the count of the selection (its limit), the
		// insert; then the viewer's memberships, which decide whether the
		// answer names the integration.
		wrTargetCase("space", 10), wrTargetCase("site", 10),
		{
			// Beside n installations of the integration, into an
			// organization made beforehand (one per attempt, so that
			// making it is not counted): the token, the organization and
			// the viewer's access, the integration by name (its row, read
			// once), the check of a taken name, the insert in its
			// transaction; then the presented installation's selection
			// (one statement). The rest it shows is what the transaction
			// read and wrote (see prime).
			create: "POST /v1/integrations/{integrationName}/installations", max: 7,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				name := lsInstallations(t, e, n)
				var orgs []string
				for range wrAttempts {
					o, err := graph.CreateOrganization(context.Background(), e.Client, "New", e.Owner.ID)
					require.NoError(t, err)
					orgs = append(orgs, o.ID)
				}
				return func(e *servertest.Env) {
					require.NotEmpty(t, orgs, "more attempts than organizations made for them")
					o := orgs[0]
					orgs = orgs[1:]
					got := e.MustDo(http.MethodPost, "/v1/integrations/"+name+"/installations", e.OwnerToken,
						map[string]any{"organization": o}, http.StatusCreated)
					wrCheck(t, got, "status", "urls.location")
				}
			},
		},
	}
}

// TestPublishStatements bounds publishing an integration again, the same
// beside 3 and 30 installations.
func TestPublishStatements(t *testing.T) {
	t.Parallel()
	// The token; in the transaction, the organization and the viewer's
	// access, the check of a taken name, the update and its read back, the
	// installations and their status (one per status); then the viewer's
	// memberships, which decide the answer. Its owner is the organization
	// the transaction read.
	const bound = 9
	count := func(n int) int64 {
		return measure(t, enum.RoleEdit, "viewer@example.com", wrAttempts, func(e *servertest.Env, v lsViewer) lsRequest {
			name := lsInstallations(t, e, n)
			attempt := 0
			return func(e *servertest.Env) {
				attempt++
				got := e.MustDo(http.MethodPost, "/v1/integrations/"+name, e.OwnerToken, map[string]any{
					"organization": e.Org.ID, "title": fmt.Sprint("Title ", attempt), "description": "Posts updates", "script": "export default {}",
					"visibility": "public", "scopes": []string{"space:content:read"}}, http.StatusOK)
				wrCheck(t, got, "title", "owner.title", "permissions", "urls.location")
			}
		})
	}
	few, many := count(lsFew), count(lsMany)
	t.Logf("POST /v1/integrations/{integrationName}: %d statements beside %d installations, %d beside %d; bound %d",
		few, lsFew, many, lsMany, bound)
	assert.Equal(t, few, many, "its statements grow with the installations")
	assert.LessOrEqual(t, max(few, many), int64(bound))
}
