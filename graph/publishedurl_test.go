package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/bindery/bindery/server/servertest"
)

// lsPublishedURLCases are the statement bounds of a site's search (part of
// lsCases), whose cost must not grow with the site-spaces it searches or
// the spaces it finds: 7 at 3 and at 30 (the site's published structure as
// the viewer sees it, the ranking of the matching spaces, their best
// pages).
func lsPublishedURLCases() []lsCase {
	return []lsCase{{
		list: "Site.search", max: 7,
		setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			ctx := context.Background()
			space := lsLiveSpace(t, e)
			lsImport(t, e, "spaceId", space, lsZip(t, 2))
			site := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).SaveX(ctx)
			for i := 0; i < n; i++ {
				id := space
				if i > 0 {
					id = e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/duplicate", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
				}
				e.Client.SiteSpace.Create().SetSiteID(site.ID).SetSpaceID(id).SetPath(fmt.Sprintf("v%d", i)).
					SetPosition(float64(i)).SetIsDefault(i == 0).ExecX(ctx)
			}
			return func(e *servertest.Env) {
				d := lsGQL(t, e, v.token, `query($id: ID!) { site(id: $id) { search(query: "section", first: 100) {
				  totalCount nodes { rank space { id title permissions { edit } } pages { id title sections { body } } } } } }`,
					map[string]any{"id": site.ID})
				lsCheck(t, d, "site.search", n, "space.title", "pages")
			}
		},
	}}
}
