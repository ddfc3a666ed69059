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
// session, the organization, a window of each of its lists) and a page view
// (the session, the space, its revision and its content) cost the same
// whatever the number of spaces, sites or pages.
const (
	organizationBound = 6
	pageBound         = 6
)

func TestViewStatements(t *testing.T) {
	t.Parallel()
	counts := map[string][]int64{}
	for _, n := range []int{3, 30} {
		f := newFixture(t)
		ctx := context.Background()
		for i := range n {
			f.newSpace(fmt.Sprintf("Space %d", i))
			f.e.Client.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle(fmt.Sprintf("Site %d", i)).ExecX(ctx)
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
		pg := count("/s/" + f.space + "/install/page-1")
		assert.LessOrEqual(t, pg, int64(pageBound), "a page view, %d pages", n)
		counts["organization"] = append(counts["organization"], org)
		counts["page"] = append(counts["page"], pg)
	}
	for view, c := range counts {
		assert.Equal(t, c[0], c[1], "the %s view costs the same at 3 and 30 (%v)", view, c)
	}
	t.Logf("statements: %v", counts)
}
