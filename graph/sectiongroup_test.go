package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// TestSectionGroupsGraphQL walks the section-group mutations through
// GraphQL: /v1's tests (rest/sectiongroups_test.go) hold the same rules over
// the same resolver methods.
func TestSectionGroupsGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	space := spCreate(t, e, e.OwnerToken, "Guide", nil)
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SaveX(ctx)
	other := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Other").SaveX(ctx)
	var secs []string
	for i := 0; i < 3; i++ {
		sec := e.Client.SiteSection.Create().SetSiteID(s.ID).SetTitle(fmt.Sprintf("S%d", i)).SetPath(fmt.Sprintf("s%d", i)).
			SetPosition(float64(i)).SetIsDefault(i == 0).SaveX(ctx)
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(space).SetPath("v").SetIsDefault(true).ExecX(ctx)
		secs = append(secs, sec.ID)
	}
	foreign := e.Client.SiteSection.Create().SetSiteID(other.ID).SetTitle("Theirs").SetPath("t").SaveX(ctx).ID

	type group struct {
		ID       string
		Title    string
		Icon     *string
		Sections []struct{ ID string }
	}
	const fields = `id title icon sections { id }`
	create := func(tok, title string, sections []string) (group, string) {
		var out struct {
			CreateSiteSectionGroup struct{ SiteSectionGroup group }
		}
		g := e.GraphQL(tok, `mutation($s: ID!, $t: String!, $secs: [ID!]) { createSiteSectionGroup(input: {siteId: $s, title: $t,
		  icon: "box", sections: $secs}) { siteSectionGroup { `+fields+` } } }`, map[string]any{"s": s.ID, "t": title, "secs": sections})
		if len(g.Errors) > 0 {
			return group{}, g.Code()
		}
		g.Into(t, &out)
		return out.CreateSiteSectionGroup.SiteSectionGroup, ""
	}
	ids := func(g group) []string {
		var out []string
		for _, s := range g.Sections {
			out = append(out, s.ID)
		}
		return out
	}

	products, code := create(e.OwnerToken, "Products", []string{secs[2], secs[0]})
	require.Empty(t, code)
	assert.Equal(t, []string{secs[0], secs[2]}, ids(products), "in the site's order of sections")
	_, code = create(editTok, "Nope", nil)
	assert.Equal(t, "FORBIDDEN", code, "an editor does not manage the site")
	_, code = create(e.OwnerToken, "Bad", []string{foreign})
	assert.Equal(t, "BAD_USER_INPUT", code, "a section of another site")
	_, code = create(e.OwnerToken, "", nil)
	assert.Equal(t, "BAD_USER_INPUT", code, "a title of 0 characters")
	tools, code := create(e.OwnerToken, "Tools", []string{secs[0]})
	require.Empty(t, code)
	assert.Equal(t, []string{secs[0]}, ids(tools))

	membership := func(mutation, groupID, sectionID string) (group, string) {
		var out map[string]struct{ SiteSectionGroup group }
		g := e.GraphQL(e.OwnerToken, fmt.Sprintf(`mutation($g: ID!, $s: ID!) { m: %s(input: {id: $g, sectionId: $s}) {
		  siteSectionGroup { %s } } }`, mutation, fields), map[string]any{"g": groupID, "s": sectionID})
		if len(g.Errors) > 0 {
			return group{}, g.Code()
		}
		g.Into(t, &out)
		return out["m"].SiteSectionGroup, ""
	}
	got, code := membership("addSiteSectionToGroup", products.ID, secs[1])
	require.Empty(t, code)
	assert.Equal(t, []string{secs[1], secs[2]}, ids(got), "S0 moved to Tools before; S1 joins")
	got, code = membership("removeSiteSectionFromGroup", products.ID, secs[2])
	require.Empty(t, code)
	assert.Equal(t, []string{secs[1]}, ids(got))
	_, code = membership("removeSiteSectionFromGroup", products.ID, secs[2])
	assert.Equal(t, "BAD_USER_INPUT", code, "a section not in the group")

	var updated struct {
		UpdateSiteSectionGroup struct{ SiteSectionGroup group }
	}
	e.GraphQL(e.OwnerToken, `mutation($g: ID!) { updateSiteSectionGroup(input: {id: $g, title: "Platform", icon: null}) {
	  siteSectionGroup { `+fields+` } } }`, map[string]any{"g": products.ID}).Into(t, &updated)
	assert.Equal(t, "Platform", updated.UpdateSiteSectionGroup.SiteSectionGroup.Title)
	assert.Nil(t, updated.UpdateSiteSectionGroup.SiteSectionGroup.Icon, "null removes the icon")

	order := func() []string {
		var out struct {
			Node struct {
				SectionGroups struct{ Nodes []struct{ Title string } }
			}
		}
		e.GraphQL(e.OwnerToken, `query($s: ID!) { node(id: $s) { ... on Site { sectionGroups { nodes { title } } } } }`,
			map[string]any{"s": s.ID}).Into(t, &out)
		var titles []string
		for _, n := range out.Node.SectionGroups.Nodes {
			titles = append(titles, n.Title)
		}
		return titles
	}
	assert.Equal(t, []string{"Platform", "Tools"}, order())
	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($g: ID!, $b: ID!) { moveSiteSectionGroup(input: {id: $g, position: {before: $b}}) {
	  siteSectionGroup { id } } }`, map[string]any{"g": tools.ID, "b": products.ID}).Errors)
	assert.Equal(t, []string{"Tools", "Platform"}, order())
	// A section names its place among the top level: one in a group, that
	// group's; one of the group moved, none.
	move := `mutation($g: ID!, $a: ID!) { moveSiteSectionGroup(input: {id: $g, position: {after: $a}}) { siteSectionGroup { id } } }`
	require.Empty(t, e.GraphQL(e.OwnerToken, move, map[string]any{"g": tools.ID, "a": secs[1]}).Errors)
	assert.Equal(t, []string{"Platform", "Tools"}, order(), "after the group of S1")
	g := e.GraphQL(e.OwnerToken, move, map[string]any{"g": products.ID, "a": secs[1]})
	assert.Equal(t, "BAD_USER_INPUT", g.Code(), "a section of the group moved")

	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($g: ID!) { deleteSiteSectionGroup(input: {id: $g}) { deletedSiteSectionGroupId } }`,
		map[string]any{"g": products.ID}).Errors)
	assert.Equal(t, []string{"Tools"}, order())
	var sec struct {
		Node struct{ SectionGroup *struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `query($s: ID!) { node(id: $s) { ... on SiteSection { sectionGroup { id } } } }`,
		map[string]any{"s": secs[1]}).Into(t, &sec)
	assert.Nil(t, sec.Node.SectionGroup, "the deleted group's sections stay, ungrouped")
}

// A group's sections are read with their site-spaces in one joined
// statement (loadGroupSections): each section comes once, in the site's
// order, with its own site-spaces in theirs, and a section without any
// comes with none, in both APIs.
func TestGroupSectionsComeWithTheirSiteSpaces(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	a, b := spCreate(t, e, e.OwnerToken, "A", nil), spCreate(t, e, e.OwnerToken, "B", nil)
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SaveX(ctx)
	g := e.Client.SiteSectionGroup.Create().SetSiteID(s.ID).SetTitle("Group").SetPosition(1).SaveX(ctx)
	empty := e.Client.SiteSectionGroup.Create().SetSiteID(s.ID).SetTitle("Empty").SetPosition(2).SaveX(ctx)
	second := e.Client.SiteSection.Create().SetSiteID(s.ID).SetGroupID(g.ID).SetTitle("Second").SetPath("second").
		SetPosition(2).SaveX(ctx)
	first := e.Client.SiteSection.Create().SetSiteID(s.ID).SetGroupID(g.ID).SetTitle("First").SetPath("first").
		SetPosition(1).SetIsDefault(true).SaveX(ctx)
	later := e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(first.ID).SetSpaceID(b).SetPath("b").SetPosition(2).SaveX(ctx)
	earlier := e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(first.ID).SetSpaceID(a).SetPath("a").
		SetPosition(1).SetIsDefault(true).SaveX(ctx)

	want := []struct {
		group    string
		sections []string
		spaces   [][]string // of each section, the site-spaces, in order
	}{
		{g.ID, []string{first.ID, second.ID}, [][]string{{earlier.ID, later.ID}, {}}},
		{empty.ID, []string{}, nil},
	}
	ids := func(items []any, key string) []string {
		out := []string{}
		for _, x := range items {
			out = append(out, x.(map[string]any)[key].(string))
		}
		return out
	}

	check := func(api string, groups []any) {
		t.Helper()
		require.Len(t, groups, len(want), api)
		for i, w := range want {
			group := groups[i].(map[string]any)
			assert.Equal(t, w.group, group["id"], api)
			sections := group["sections"].([]any)
			assert.Equal(t, w.sections, ids(sections, "id"), api)
			for j, sec := range sections {
				assert.Equal(t, w.spaces[j], ids(sec.(map[string]any)["siteSpaces"].([]any), "id"), api)
			}
		}
	}
	got := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+s.ID+"/section-groups", e.OwnerToken, nil, http.StatusOK)
	check("/v1", got["items"].([]any))
	d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Site { sectionGroups(first: 10) {
	  nodes { id sections { id siteSpaces { id space { id } } } } } } } }`, map[string]any{"id": s.ID})
	check("GraphQL", lsAt(d, "node.sectionGroups.nodes").([]any))
}
