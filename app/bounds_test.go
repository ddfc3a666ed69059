package app_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Statement bounds of a signed-in view: the organization page (the
// session, the organization, a window of each of its lists), a site (its
// sections and their spaces, read together) and a page view (the session,
// the space, its revision and its content) cost the same whatever the
// number of spaces, sites, sections or pages.
const (
	organizationBound = 6
	siteBound         = 6
	pageBound         = 6
)

func TestViewStatements(t *testing.T) {
	t.Parallel()
	counts := map[string][]int64{}
	for _, n := range []int{3, 30} {
		f := newFixture(t)
		ctx := context.Background()
		c := f.e.Client
		site := c.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Acme Site").SetPublished(true).SaveX(ctx)
		for i := range n {
			sp := f.newSpace(fmt.Sprintf("Space %d", i))
			c.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle(fmt.Sprintf("Site %d", i)).ExecX(ctx)
			sec := c.SiteSection.Create().SetSiteID(site.ID).SetTitle(fmt.Sprintf("Section %d", i)).SetPath(fmt.Sprintf("s%d", i)).
				SetIsDefault(i == 0).SetPosition(float64(i)).SaveX(ctx)
			c.SiteSpace.Create().SetSiteID(site.ID).SetSectionID(sec.ID).SetSpaceID(sp).SetPath("v").SetIsDefault(true).ExecX(ctx)
			f.page(f.space, f.install, map[string]any{"title": fmt.Sprintf("Page %d", i), "markdown": "Text.\n"})
		}
		count := func(path string) int64 {
			t.Helper()
			before := f.e.Statements.Load()
			res := f.get(t, path, f.session)
			require.Equal(t, http.StatusOK, res.status, path)
			return f.e.Statements.Load() - before
		}
		// The first request records the session's use.
		count("/")
		org := count("/o/" + f.e.Org.ID)
		assert.LessOrEqual(t, org, int64(organizationBound), "the organization page, %d spaces", n)
		st := count("/o/" + f.e.Org.ID + "/sites/" + site.ID)
		assert.LessOrEqual(t, st, int64(siteBound), "a site, %d sections", n)
		pg := count("/s/" + f.space + "/install/page-1")
		assert.LessOrEqual(t, pg, int64(pageBound), "a page view, %d pages", n)
		counts["organization"] = append(counts["organization"], org)
		counts["site"] = append(counts["site"], st)
		counts["page"] = append(counts["page"], pg)
	}
	for view, c := range counts {
		assert.Equal(t, c[0], c[1], "the %s view costs the same at 3 and 30 (%v)", view, c)
	}
	t.Logf("statements: %v", counts)
}
