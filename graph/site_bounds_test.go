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

// lsSiteStructure makes a published site of n sections, the first with n
// site-spaces and each other with two, over spaces of the organization, and
// returns the site and its first section.
func lsSiteStructure(t *testing.T, e *servertest.Env, n int) (siteID, sectionID string) {
	t.Helper()
	ctx := context.Background()
	a := spCreate(t, e, e.OwnerToken, "Guide", nil)
	b := spCreate(t, e, e.OwnerToken, "API", nil)
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).SaveX(ctx)
	for i := 0; i < n; i++ {
		sec := e.Client.SiteSection.Create().SetSiteID(s.ID).SetTitle(fmt.Sprintf("Section %d", i)).
			SetPath(fmt.Sprintf("s%d", i)).SetPosition(float64(i)).SetIsDefault(i == 0).SaveX(ctx)
		if i == 0 {
			sectionID = sec.ID
			for j := 0; j < n; j++ {
				sp := a
				if j%2 == 1 {
					sp = b
				}
				e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(sp).SetPath(fmt.Sprintf("v%d", j)).
					SetPosition(float64(j)).SetIsDefault(j == 0).ExecX(ctx)
			}
			continue
		}
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(a).SetPath("guide").SetIsDefault(true).ExecX(ctx)
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(b).SetPath("api").SetPosition(1).ExecX(ctx)
	}
	return s.ID, sectionID
}

// siteSpaceFields is what /v1 presents of a site-space.
const siteSpaceFields = `id path title default condition section { id } space { ` + spItemFields + ` } urls { published }`

// Each site-space embeds its whole Space, as the official SiteSpace does,
// and a Space costs up to 4 statements whatever their number (its row, its
// counters, its organization, its revision). The /v1 lists meet the target
// of 5 (the token, the site, the page, the site-spaces of the page's
// sections, their spaces with their counters); the GraphQL lists exceed it:
// 8 (9 when their loader batches split under load), the embedded Spaces'
// counters, organizations and revisions loading through loaders. The
// creates: /v1 8, the target (the token, the site, then in the transaction
// the site again and the viewer's access, the space added, read with its
// counters, the siblings' places and the inserts), the answer being what the
// transaction read and wrote (see created); GraphQL 9, one over, for the
// embedded Space's fields that /v1 names by ID.
func lsSiteCases() []lsCase {
	return append([]lsCase{
		{
			list: "Site.sections", max: 9,
			grows: "the fields of each embedded Space (its counters, organization and revision) load through " +
				"loader batches, which split under load: 8 in a quiet run, 9 at times in the full suite",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteStructure(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on Site { sections(first: 100) {
					  totalCount nodes { id title path default description icon condition urls { published }
					  siteSpaces { `+siteSpaceFields+` } } } } } }`, map[string]any{"id": site})
					lsCheck(t, d, "node.sections", n, "urls.published", "siteSpaces")
				}
			},
		},
		{
			list: "GET /v1/orgs/{organizationId}/sites/{siteId}/sections", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteStructure(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/sections?limit=100", v.token,
						nil, http.StatusOK), "", n, "urls.published", "siteSpaces")
				}
			},
		},
		{
			list: "Site.siteSpaces", max: 9,
			grows: "the fields of each embedded Space (its counters, organization and revision) load through " +
				"loader batches, which split under load: 8 in a quiet run, 9 at times in the full suite",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteStructure(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on Site { siteSpaces(first: 100, default: false) {
					  totalCount nodes { `+siteSpaceFields+` } } } } }`, map[string]any{"id": site})
					lsCheck(t, d, "node.siteSpaces", 2*n-2, "urls.published", "space.title", "section.id")
				}
			},
		},
		{
			list: "GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteStructure(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/site-spaces?limit=100&default=false",
						v.token, nil, http.StatusOK), "", 2*n-2, "urls.published", "space.title", "section")
				}
			},
		},
		{
			list: "SiteSection.siteSpaces", max: 9,
			grows: "the fields of each embedded Space (its counters, organization and revision) load through " +
				"loader batches, which split under load: 8 in a quiet run, 9 at times in the full suite",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				_, section := lsSiteStructure(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on SiteSection { siteSpaces {
					  `+siteSpaceFields+` } } } }`, map[string]any{"id": section})
					lsCheck(t, d, "node.siteSpaces", n, "urls.published", "space.title")
				}
			},
		},
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
	}, lsSectionGroupCases()...)
}

// lsSiteRedirects makes a published site of one section and n redirects to
// it, and returns the site and the section.
func lsSiteRedirects(t *testing.T, e *servertest.Env, n int) (siteID, sectionID string) {
	t.Helper()
	ctx := context.Background()
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).SaveX(ctx)
	sec := e.Client.SiteSection.Create().SetSiteID(s.ID).SetTitle("Guide").SetPath("guide").SetIsDefault(true).SaveX(ctx)
	for i := 0; i < n; i++ {
		e.Client.SiteRedirect.Create().SetSiteID(s.ID).SetSource(fmt.Sprintf("/old/%d", i)).
			SetDestination(map[string]string{"kind": "site-section", "siteSectionId": sec.ID}).ExecX(ctx)
	}
	return s.ID, sec.ID
}

// lsRedirectCases are the lists of redirects: token, organization access,
// the site, the page with its total.
func lsRedirectCases() []lsCase {
	return []lsCase{
		{
			list: "Site.redirects", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteRedirects(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on Site { redirects(first: 100) {
					  totalCount nodes { id source destination { kind siteSectionId siteSpaceId pageId } } } } } }`,
						map[string]any{"id": site})
					lsCheck(t, d, "node.redirects", n, "destination.siteSectionId")
				}
			},
		},
		{
			list: "GET /v1/orgs/{organizationId}/sites/{siteId}/redirects", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteRedirects(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/redirects?limit=100", v.token,
						nil, http.StatusOK), "", n, "destination.siteSectionId")
				}
			},
		},
	}
}

// wrRedirectCases are the creates of redirects, as the owner beside n
// redirects: token, organization access, the site, the section of the
// destination, the check of the source, the insert.
func wrRedirectCases() []wrCase {
	redirectCase := func(create string, do func(t *testing.T, e *servertest.Env, site, section, source string)) wrCase {
		return wrCase{create: create, max: 8, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			site, section := lsSiteRedirects(t, e, n)
			calls := 0
			return func(e *servertest.Env) {
				calls++
				do(t, e, site, section, fmt.Sprintf("/new/%d", calls))
			}
		}}
	}
	return []wrCase{
		redirectCase("POST /v1/orgs/{organizationId}/sites/{siteId}/redirects", func(t *testing.T, e *servertest.Env, site, section, source string) {
			wrCheck(t, e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/redirects", e.OwnerToken,
				map[string]any{"source": source, "destination": map[string]any{"kind": "site-section", "siteSectionId": section}},
				http.StatusCreated), "destination.siteSectionId")
		}),
		redirectCase("Mutation.createSiteRedirect", func(t *testing.T, e *servertest.Env, site, section, source string) {
			d := lsGQL(t, e, e.OwnerToken, `mutation($site: ID!, $sec: ID!, $source: String!) { createSiteRedirect(input: {siteId: $site,
			  source: $source, destination: {kind: "site-section", siteSectionId: $sec}}) { siteRedirect { id source
			  destination { kind siteSectionId } } } }`, map[string]any{"site": site, "sec": section, "source": source})
			wrCheck(t, lsAt(d, "createSiteRedirect.siteRedirect"), "destination.siteSectionId")
		}),
	}
}

func wrSiteCases() []wrCase {
	return append(wrSiteStructureCases(), wrSectionGroupCases()...)
}

func wrSiteStructureCases() []wrCase {
	sectionCase := func(create string, max int64, do func(t *testing.T, e *servertest.Env, site, space string)) wrCase {
		return wrCase{create: create, max: max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			site, _ := lsSiteStructure(t, e, n)
			space := spCreate(t, e, e.OwnerToken, "New", nil)
			return func(e *servertest.Env) { do(t, e, site, space) }
		}}
	}
	return []wrCase{
		// As the owner, beside n sections (or n site-spaces in the default
		// section).
		sectionCase("POST /v1/orgs/{organizationId}/sites/{siteId}/sections", 8, func(t *testing.T, e *servertest.Env, site, space string) {
			wrCheck(t, e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/sections", e.OwnerToken,
				map[string]any{"spaceId": space, "title": "New"}, http.StatusCreated), "siteSpaces", "urls.published")
		}),
		sectionCase("Mutation.createSiteSection", 9, func(t *testing.T, e *servertest.Env, site, space string) {
			d := lsGQL(t, e, e.OwnerToken, `mutation($site: ID!, $space: ID!) { createSiteSection(input: {siteId: $site,
			  spaceId: $space, title: "New"}) { siteSection { id title path default urls { published } siteSpaces { `+siteSpaceFields+` } } } }`,
				map[string]any{"site": site, "space": space})
			wrCheck(t, lsAt(d, "createSiteSection.siteSection"), "siteSpaces", "urls.published")
		}),
		sectionCase("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", 8, func(t *testing.T, e *servertest.Env, site, space string) {
			wrCheck(t, e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/site-spaces", e.OwnerToken,
				map[string]any{"spaceId": space}, http.StatusCreated), "space.title", "section", "urls.published")
		}),
		sectionCase("Mutation.createSiteSpace", 9, func(t *testing.T, e *servertest.Env, site, space string) {
			d := lsGQL(t, e, e.OwnerToken, `mutation($site: ID!, $space: ID!) { createSiteSpace(input: {siteId: $site,
			  spaceId: $space}) { siteSpace { `+siteSpaceFields+` } } }`, map[string]any{"site": site, "space": space})
			wrCheck(t, lsAt(d, "createSiteSpace.siteSpace"), "space.title", "section.id", "urls.published")
		}),
		{
			// As the owner, beside n sites, from two spaces: token,
			// organization access, the spaces, the site, its site-spaces,
			// and the site-space count of the answer.
			create: "POST /v1/orgs/{organizationId}/sites", max: 7,
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
			create: "Mutation.createSite", max: 7,
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

// lsSectionGroups makes a published site of n section groups and 2n
// sections, each with one site-space: the first group holds n sections,
// each other group one. It returns the site and its first group.
func lsSectionGroups(t *testing.T, e *servertest.Env, n int) (siteID, groupID string) {
	t.Helper()
	ctx := context.Background()
	a := spCreate(t, e, e.OwnerToken, "Guide", nil)
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).SaveX(ctx)
	groups := make([]string, n)
	for i := range n {
		groups[i] = e.Client.SiteSectionGroup.Create().SetSiteID(s.ID).SetTitle(fmt.Sprintf("Group %d", i)).
			SetPosition(float64(i)).SaveX(ctx).ID
	}
	for i := range 2 * n {
		g := groups[0]
		if i >= n {
			g = groups[i-n]
		}
		if i == n {
			continue // the first group holds n
		}
		sec := e.Client.SiteSection.Create().SetSiteID(s.ID).SetGroupID(g).SetTitle(fmt.Sprintf("Section %d", i)).
			SetPath(fmt.Sprintf("s%d", i)).SetPosition(float64(i)).SetIsDefault(i == 0).SaveX(ctx)
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(a).SetPath("guide").SetIsDefault(true).ExecX(ctx)
	}
	return s.ID, groups[0]
}

// sectionGroupFields is what /v1 presents of a section group.
const sectionGroupFields = `id title icon sections { id title path default description icon condition sectionGroup { id }
  urls { published } siteSpaces { ` + siteSpaceFields + ` } }`

// A group embeds its sections, which embed their site-spaces and those their
// whole Space, as the official SiteSectionGroup does. The sections of the
// page's groups are read with their site-spaces in one statement (a LEFT
// JOIN, see loadGroupSections), so a /v1 list costs what a list of sections
// costs: 5. The GraphQL lists cost 8 (their embedded Spaces' fields load
// through loader batches, which split under load), and the creates exceed
// the target of 8 for the reason the sections' do (see above): 11
// (GraphQL) and 9 (/v1), adding a section to a group 11 (/v1). A group's
// create answers with the sections it moved into the group, their
// site-spaces and Spaces: two statements after the transaction, which
// rewrote the sections without reading them.
func lsSectionGroupCases() []lsCase {
	return []lsCase{
		{
			list: "Site.sectionGroups", max: 9,
			grows: "the fields of each embedded Space (its counters, organization and revision) load through " +
				"loader batches, which split under load",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSectionGroups(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on Site { sectionGroups(first: 100) {
					  totalCount nodes { `+sectionGroupFields+` } } } } }`, map[string]any{"id": site})
					lsCheck(t, d, "node.sectionGroups", n, "sections")
				}
			},
		},
		{
			// The token, the site, the page of groups, their sections with
			// their site-spaces, those site-spaces' Spaces with their
			// counters.
			list: "GET /v1/orgs/{organizationId}/sites/{siteId}/section-groups", max: 5,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSectionGroups(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/section-groups?limit=100", v.token,
						nil, http.StatusOK), "", n, "sections", "children")
				}
			},
		},
		{
			list: "SiteSectionGroup.sections", max: 9,
			grows: "the fields of each embedded Space (its counters, organization and revision) load through " +
				"loader batches, which split under load",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				_, group := lsSectionGroups(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on SiteSectionGroup { sections {
					  id title path default urls { published } sectionGroup { id } siteSpaces { `+siteSpaceFields+` } } } } }`,
						map[string]any{"id": group})
					lsCheck(t, d, "node.sections", n, "siteSpaces", "sectionGroup.id")
				}
			},
		},
	}
}

// wrSectionGroupCases: as the owner, beside n groups (the first holding n
// sections), a group made of two sections, and a section added to the first
// group.
func wrSectionGroupCases() []wrCase {
	groupCase := func(create string, max int64, do func(t *testing.T, e *servertest.Env, site, group string, sections []string)) wrCase {
		return wrCase{create: create, max: max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			site, group := lsSectionGroups(t, e, n)
			sp := spCreate(t, e, e.OwnerToken, "New", nil)
			var sections []string
			for i := range 2 {
				sec := e.Client.SiteSection.Create().SetSiteID(site).SetTitle(fmt.Sprintf("New %d", i)).
					SetPath(fmt.Sprintf("new%d", i)).SetPosition(float64(100 + i)).SaveX(context.Background())
				e.Client.SiteSpace.Create().SetSiteID(site).SetSectionID(sec.ID).SetSpaceID(sp).SetPath("new").
					SetIsDefault(true).ExecX(context.Background())
				sections = append(sections, sec.ID)
			}
			return func(e *servertest.Env) { do(t, e, site, group, sections) }
		}}
	}
	return []wrCase{
		groupCase("POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups", 9,
			func(t *testing.T, e *servertest.Env, site, _ string, sections []string) {
				wrCheck(t, e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/section-groups", e.OwnerToken,
					map[string]any{"title": "New", "sections": sections}, http.StatusCreated), "sections", "children")
			}),
		groupCase("Mutation.createSiteSectionGroup", 11, func(t *testing.T, e *servertest.Env, site, _ string, sections []string) {
			d := lsGQL(t, e, e.OwnerToken, `mutation($site: ID!, $s: [ID!]) { createSiteSectionGroup(input: {siteId: $site,
			  title: "New", sections: $s}) { siteSectionGroup { `+sectionGroupFields+` } } }`,
				map[string]any{"site": site, "s": sections})
			wrCheck(t, lsAt(d, "createSiteSectionGroup.siteSectionGroup"), "sections")
		}),
		groupCase("POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", 11,
			func(t *testing.T, e *servertest.Env, site, group string, sections []string) {
				wrCheck(t, e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/section-groups/"+group+"/sections",
					e.OwnerToken, map[string]any{"sectionId": sections[0]}, http.StatusCreated), "sections", "children")
			}),
	}
}
