package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// The statement bounds of sites: their lists (lsSiteCases, part of lsCases)
// and their creates (wrSiteCases, part of wrCases).

// lsSites makes the organization n sites, each with two site-spaces, every
// other one published, and returns a space that every site publishes.
func lsSites(t *testing.T, e *servertest.Env, n int) string {
	t.Helper()
	ctx := context.Background()
	a := spCreate(t, e, e.OwnerToken, "Guide", nil)
	b := spCreate(t, e, e.OwnerToken, "API", nil)
	for i := 0; i < n; i++ {
		s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle(fmt.Sprintf("Site %d", i)).
			SetPublished(i%2 == 0).SetType(enum.SiteTypeBasic).SaveX(ctx)
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(a).SetPath("guide").SetIsDefault(true).ExecX(ctx)
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(b).SetPath("api").SetPosition(1).ExecX(ctx)
	}
	return a
}

// siteFields is what /v1 presents of a site, for GraphQL to load the same.
const siteFields = `id title type visibility published siteSpaceCount createdAt hostname basename agentsContext
  proxy { origin target } adaptiveContent { enabled } urls { location app published }`

func lsSiteCases() []lsCase {
	return []lsCase{
		{
			// token, organization access, the page with its total, the
			// site-space counts.
			list: "Organization.sites", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				space := lsSites(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($org: ID!, $space: ID!) { organization(id: $org) {
					  sites(first: 100, space: $space, type: [BASIC]) { totalCount nodes { `+siteFields+` } } } }`,
						map[string]any{"org": e.Org.ID, "space": space})
					lsCheck(t, d, "organization.sites", n, "siteSpaceCount", "urls.location")
				}
			},
		},
		{
			list: "GET /v1/orgs/{organizationId}/sites", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				space := lsSites(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites?limit=100&type=basic&space="+space, v.token,
						nil, http.StatusOK), "", n, "siteSpaces", "urls.location")
				}
			},
		},
	}
}

func wrSiteCases() []wrCase {
	return []wrCase{
		{
			// As the owner, beside n sites, from two spaces: token,
			// organization access, the spaces, the site, its site-spaces,
			// and the site-space count of the answer.
			create: "POST /v1/orgs/{organizationId}/sites", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsSites(t, e, n)
				a, b := spCreate(t, e, e.OwnerToken, "One", nil), spCreate(t, e, e.OwnerToken, "Two", nil)
				return func(e *servertest.Env) {
					got := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites", e.OwnerToken,
						map[string]any{"title": "New", "spaces": []string{a, b}}, http.StatusCreated)
					wrCheck(t, got, "siteSpaces", "urls.location")
				}
			},
		},
		{
			create: "Mutation.createSite", max: 8,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
				lsSites(t, e, n)
				a, b := spCreate(t, e, e.OwnerToken, "One", nil), spCreate(t, e, e.OwnerToken, "Two", nil)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `mutation($org: ID!, $s: [ID!]) { createSite(input: {organizationId: $org,
					  title: "New", spaces: $s}) { site { `+siteFields+` } } }`, map[string]any{"org": e.Org.ID, "s": []string{a, b}})
					wrCheck(t, lsAt(d, "createSite.site"), "siteSpaceCount", "urls.location")
				}
			},
		},
	}
}
