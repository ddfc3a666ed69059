package graph_test

import (
	"net/http"
	"testing"

	"github.com/bindery/bindery/server/servertest"
)

// lsSearchCases are the statement bounds of search, whose cost must not
// grow with the pages or spaces found.
func lsSearchCases() []lsCase {
	const pageQuery = `search(query: "section", first: 100) { totalCount nodes { id title path rank appURL
	  sections { id anchor title path body appURL } } }`
	spaceSearch := func(t *testing.T, e *servertest.Env, n int) string {
		space := lsLiveSpace(t, e)
		lsImport(t, e, "spaceId", space, lsZip(t, n))
		return space
	}
	// orgSearch makes n spaces the viewer sees whose content matches, and
	// one it does not see.
	orgSearch := func(t *testing.T, e *servertest.Env, n int) {
		space := spaceSearch(t, e, 2)
		for i := 1; i < n; i++ {
			e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/duplicate", e.OwnerToken, nil, http.StatusCreated)
		}
		hidden := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/duplicate", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
		lsHide(t, e, hidden, "")
	}
	gqlSpace := func(list string) lsCase {
		return lsCase{list: list, max: 5, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			space := spaceSearch(t, e, n)
			return func(e *servertest.Env) {
				d := lsGQL(t, e, v.token, `query($id: ID!) { space(id: $id) { `+pageQuery+` } }`, map[string]any{"id": space})
				lsCheck(t, d, "space.search", n, "sections", "appURL")
			}
		}}
	}
	gqlOrg := func(list string) lsCase {
		return lsCase{list: list, max: 6, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			orgSearch(t, e, n)
			return func(e *servertest.Env) {
				d := lsGQL(t, e, v.token, `query($id: ID!) { organization(id: $id) { search(query: "section", first: 100) {
				  totalCount nodes { rank space { id title permissions { edit } } pages { id title sections { body } } } } } }`,
					map[string]any{"id": e.Org.ID})
				lsCheck(t, d, "organization.search", n, "space.title", "pages")
			}
		}}
	}
	return []lsCase{
		gqlSpace("Space.search"),
		gqlSpace("SearchPageResult.sections"),
		{list: "GET /v1/spaces/{spaceId}/search", max: 5, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			space := spaceSearch(t, e, n)
			return func(e *servertest.Env) {
				lsCheck(t, e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/search?query=section&limit=100", v.token, nil, http.StatusOK),
					"", n, "sections", "urls.app")
			}
		}},
		gqlOrg("Organization.search"),
		gqlOrg("SearchSpaceResult.pages"),
		// The token, the organization's access (which says whether the
		// viewer sees it: its row is not read, see SearchOrganization), the
		// ranking of every matching space, the page's spaces, their best
		// pages. Organization.search reads the organization too: 6.
		{list: "GET /v1/orgs/{organizationId}/search", max: 5, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			orgSearch(t, e, n)
			return func(e *servertest.Env) {
				lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/search?query=section&limit=100", v.token, nil, http.StatusOK),
					"", n, "title", "pages")
			}
		}},
	}
}
