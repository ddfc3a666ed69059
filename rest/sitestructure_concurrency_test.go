package rest_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitesectiongroup"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/server/servertest"
)

// The invariants of a site's structure under 30 writers at once, each test
// repeated on fresh sites: SQLite runs one writing transaction at a time,
// PostgreSQL does not, and there a read, then a write, is a race unless the
// site is locked or an index refuses the second writer.

// writers is how many clients write to one site at once.
const writers = 30

// structureRounds is how many times each test runs its writers, each time on
// a site of its own.
const structureRounds = 3

// atOnce sends n requests at once, each from its own goroutine, and returns
// their answers by index.
func atOnce(n int, do func(i int) *servertest.Response) []*servertest.Response {
	out := make([]*servertest.Response, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = do(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// statuses counts answers by status, and names the bodies of the answers
// whose status is not among ok.
func statuses(t *testing.T, res []*servertest.Response, ok ...int) map[int]int {
	t.Helper()
	out := map[int]int{}
	for _, r := range res {
		out[r.Status]++
		assert.Contains(t, ok, r.Status, "%s", r.Body)
	}
	return out
}

// siteInvariants checks what must hold of a site's structure whatever ran
// on it: section paths unique within the site, site-space paths unique among
// siblings, positions distinct among the site's sections and groups (which
// share one order) and among the site-spaces of each parent, one default
// section while there are sections, and one default site-space per parent.
func (e *mbEnv) siteInvariants(t *testing.T, site string) {
	t.Helper()
	ctx := context.Background()
	secs := e.Client.SiteSection.Query().Where(sitesection.SiteID(site)).AllX(ctx)
	groups := e.Client.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(site)).AllX(ctx)
	paths, positions, defaults := map[string]string{}, map[float64]string{}, 0
	for _, s := range secs {
		assert.NotContains(t, paths, s.Path, "sections %s and %s share a path", s.ID, paths[s.Path])
		assert.NotContains(t, positions, s.Position, "%s and %s share a position", s.ID, positions[s.Position])
		paths[s.Path], positions[s.Position] = s.ID, s.ID
		if s.IsDefault {
			defaults++
		}
	}
	for _, g := range groups {
		assert.NotContains(t, positions, g.Position, "%s and %s share a position", g.ID, positions[g.Position])
		positions[g.Position] = g.ID
	}
	if len(secs) > 0 {
		assert.Equal(t, 1, defaults, "default sections")
	}
	type parent struct{ section string }
	byParent := map[parent][]string{}
	ssPaths, ssPositions, ssDefaults := map[parent]map[string]bool{}, map[parent]map[float64]bool{}, map[parent]int{}
	for _, ss := range e.Client.SiteSpace.Query().Where(sitespace.SiteID(site)).AllX(ctx) {
		p := parent{}
		if ss.SectionID != nil {
			p.section = *ss.SectionID
		}
		if ssPaths[p] == nil {
			ssPaths[p], ssPositions[p] = map[string]bool{}, map[float64]bool{}
		}
		assert.False(t, ssPaths[p][ss.Path], "two site-spaces of %v have the path %q", p, ss.Path)
		assert.False(t, ssPositions[p][ss.Position], "two site-spaces of %v are at %v", p, ss.Position)
		ssPaths[p][ss.Path], ssPositions[p][ss.Position] = true, true
		byParent[p] = append(byParent[p], ss.ID)
		if ss.IsDefault {
			ssDefaults[p]++
		}
	}
	for p := range byParent {
		assert.Equal(t, 1, ssDefaults[p], "default site-spaces of %v", p)
	}
}

// Thirty sections made at once from one space get thirty paths and thirty
// places, the first of them taking the site-spaces at the root into the
// default section.
func TestSectionCreatesConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, api := e.space("Guide", ""), e.space("API", "")
	for round := range structureRounds {
		site := e.createSite(map[string]any{"title": fmt.Sprintf("Docs %d", round), "spaces": []string{guide}})["id"].(string)
		base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
		res := atOnce(writers, func(int) *servertest.Response {
			return e.Do(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": api})
		})
		assert.Equal(t, map[int]int{http.StatusCreated: writers}, statuses(t, res, http.StatusCreated))
		sections := e.Walk(t, base+"/sections", e.OwnerToken, 100)
		assert.Len(t, sections, writers+1, "the default section and thirty more")
		e.siteInvariants(t, site)
	}
}

// Thirty site-spaces added at once to one section, and thirty to the root of
// a site without sections, from one space.
func TestSiteSpaceCreatesConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, api := e.space("Guide", ""), e.space("API", "")
	for round := range structureRounds {
		for _, sections := range []bool{false, true} {
			site, base := e.roundSite(round)
			body := map[string]any{"spaceId": api}
			if sections {
				body["sectionId"] = e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken,
					map[string]any{"spaceId": guide}, http.StatusCreated)["id"]
			}
			res := atOnce(writers, func(int) *servertest.Response {
				return e.Do(http.MethodPost, base+"/site-spaces", e.OwnerToken, body)
			})
			assert.Equal(t, map[int]int{http.StatusCreated: writers}, statuses(t, res, http.StatusCreated))
			e.siteInvariants(t, site)
		}
	}
}

// Thirty sections renamed to one path at once: one gets it, the others are
// told it is taken; and so for thirty site-spaces of one section.
func TestRenamesToOnePathConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	for round := range structureRounds {
		site, base := e.roundSite(round)
		var sections, siteSpaces []string
		for range writers {
			sections = append(sections, e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken,
				map[string]any{"spaceId": guide}, http.StatusCreated)["id"].(string))
		}
		for range writers - 1 {
			siteSpaces = append(siteSpaces, e.MustDo(http.MethodPost, base+"/site-spaces", e.OwnerToken,
				map[string]any{"spaceId": guide, "sectionId": sections[0]}, http.StatusCreated)["id"].(string))
		}
		for _, c := range []struct{ kind, path string }{
			{"sections", base + "/sections/"}, {"site-spaces", base + "/site-spaces/"},
		} {
			ids := sections
			if c.kind == "site-spaces" {
				ids = siteSpaces
			}
			res := atOnce(len(ids), func(i int) *servertest.Response {
				return e.Do(http.MethodPatch, c.path+ids[i], e.OwnerToken, map[string]any{"path": "same"})
			})
			got := statuses(t, res, http.StatusOK, http.StatusConflict)
			assert.Equal(t, map[int]int{http.StatusOK: 1, http.StatusConflict: len(ids) - 1}, got, c.kind)
			for _, r := range res {
				if r.Status == http.StatusConflict {
					assert.Contains(t, string(r.Body), `has the path \"same\"`)
				}
			}
		}
		e.siteInvariants(t, site)
	}
}

// Sections and groups moved at once, each before or after another item of
// the site's top level: every move succeeds, and no two items share a place.
func TestSectionAndGroupMovesConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	for round := range structureRounds {
		site, base := e.roundSite(round)
		type item struct{ id, path, pointer, kind string }
		var items []item
		for i := range writers {
			if i%3 == 2 {
				id := e.MustDo(http.MethodPost, base+"/section-groups", e.OwnerToken,
					map[string]any{"title": fmt.Sprintf("G%d", i)}, http.StatusCreated)["id"].(string)
				items = append(items, item{id, base + "/section-groups/" + id, "id", "site-section-group"})
				continue
			}
			id := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": guide},
				http.StatusCreated)["id"].(string)
			items = append(items, item{id, base + "/sections/" + id, "siteSection", "site-section"})
		}
		res := atOnce(len(items), func(i int) *servertest.Response {
			it := items[i]
			// A section names sections; a group names a section or a group.
			// Every mover aims at the same few places, so that the gaps
			// between them run out and the items are renumbered.
			target := items[(i%2)*3]
			if it.id == target.id {
				target = items[1]
			}
			ptr := map[string]any{"type": target.kind, it.pointer: target.id}
			if it.kind == "site-section-group" {
				ptr = map[string]any{"type": target.kind, "id": target.id}
			}
			where := "before"
			if i%4 == 1 {
				where = "after"
			}
			return e.Do(http.MethodPost, it.path+"/move", e.OwnerToken, map[string]any{"position": map[string]any{where: ptr}})
		})
		assert.Equal(t, map[int]int{http.StatusOK: len(items)}, statuses(t, res, http.StatusOK))
		assert.Len(t, e.Walk(t, base+"/sections", e.OwnerToken, 100), writers-writers/3)
		assert.Len(t, e.Walk(t, base+"/section-groups", e.OwnerToken, 100), writers/3)
		e.siteInvariants(t, site)
	}
}

// Thirty sections deleted at once, the default among them: every delete
// succeeds, and exactly one of the sections left is the default.
func TestSectionDeletesConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	for round := range structureRounds {
		site, base := e.roundSite(round)
		var sections []string
		for range writers + 3 {
			sections = append(sections, e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken,
				map[string]any{"spaceId": guide}, http.StatusCreated)["id"].(string))
		}
		// The first, the default, and the others but three.
		doomed := sections[:writers]
		res := atOnce(len(doomed), func(i int) *servertest.Response {
			return e.Do(http.MethodDelete, base+"/sections/"+doomed[i], e.OwnerToken, nil)
		})
		assert.Equal(t, map[int]int{http.StatusNoContent: writers}, statuses(t, res, http.StatusNoContent))
		left := e.MustDo(http.MethodGet, base+"/sections", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
		require.Len(t, left, 3)
		assert.Equal(t, true, left[0].(map[string]any)["default"], "the first left is the default")
		e.siteInvariants(t, site)
	}
}

// Thirty site-spaces of one section moved at once beside one of them, with
// no room left between any two (neighbouring floats), so that every move
// renumbers siblings that others read and move: every move succeeds, and no
// two share a place.
func TestSiteSpaceMovesConcurrently(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	for round := range structureRounds {
		site, base := e.roundSite(round)
		first := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": guide},
			http.StatusCreated)["siteSpaces"].([]any)[0].(map[string]any)
		section, siteSpaces := first["section"].(string), []string{first["id"].(string)}
		for range writers {
			siteSpaces = append(siteSpaces, e.MustDo(http.MethodPost, base+"/site-spaces", e.OwnerToken,
				map[string]any{"spaceId": guide, "sectionId": section}, http.StatusCreated)["id"].(string))
		}
		pos := 1024.0
		for _, id := range siteSpaces {
			e.Client.SiteSpace.UpdateOneID(id).SetPosition(pos).ExecX(context.Background())
			pos = math.Nextafter(pos, math.Inf(1))
		}
		anchor := siteSpaces[len(siteSpaces)/2]
		movers := slices.DeleteFunc(slices.Clone(siteSpaces), func(id string) bool { return id == anchor })
		res := atOnce(len(movers), func(i int) *servertest.Response {
			where := []string{"before", "after"}[i%2]
			return e.Do(http.MethodPost, base+"/site-spaces/"+movers[i]+"/move", e.OwnerToken, map[string]any{
				"position": map[string]any{where: map[string]any{"type": "site-space", "siteSpace": anchor}}})
		})
		assert.Equal(t, map[int]int{http.StatusOK: len(movers)}, statuses(t, res, http.StatusOK))
		assert.ElementsMatch(t, siteSpaces, e.Walk(t, base+"/site-spaces", e.OwnerToken, 100))
		e.siteInvariants(t, site)
	}
}

// roundSite creates the site of a round of concurrent writes, and returns
// it with its /v1 address.
func (e *mbEnv) roundSite(round int) (site, base string) {
	site = e.createSite(map[string]any{"title": fmt.Sprintf("Docs %d", round)})["id"].(string)
	return site, "/v1/orgs/" + e.Org.ID + "/sites/" + site
}
