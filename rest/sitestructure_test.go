package rest_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

func TestSiteSectionsAndSiteSpaces(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, api, blog := e.space("Guide", ""), e.space("API", ""), e.space("Blog", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide, api}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	sections, siteSpaces := base+"/sections", base+"/site-spaces"
	otherSite := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/sites", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	mine := e.createSite(map[string]any{"title": "Mine", "spaces": []string{blog}})
	mineSS := e.Walk(t, "/v1/orgs/"+e.Org.ID+"/sites/"+mine["id"].(string)+"/site-spaces", e.OwnerToken, 10)

	root := e.MustDo(http.MethodGet, siteSpaces, e.readTok, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"count": 2, "items": []any{
		map[string]any{"object": "site-space", "path": "guide", "default": true, "title": "Guide", "space": map[string]any{"id": guide}},
		map[string]any{"path": "api", "default": false, "title": "API"},
	}}, root)
	assert.NotContains(t, root["items"].([]any)[0], "section", "at the root while the site has no sections")
	ssGuide := root["items"].([]any)[0].(map[string]any)["id"].(string)
	ssAPI := root["items"].([]any)[1].(map[string]any)["id"].(string)

	// The first section takes the root's site-spaces into a default section.
	first := e.MustDo(http.MethodPost, sections, e.OwnerToken, map[string]any{"spaceId": blog, "title": "Blog"}, http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"object": "site-section", "title": "Blog", "path": "blog", "default": false,
		"siteSpaces": []any{map[string]any{"path": "blog", "default": true, "space": map[string]any{"id": blog}}}}, first)
	blogSec := first["id"].(string)
	list := e.MustDo(http.MethodGet, sections, e.readTok, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"count": 2, "items": []any{
		map[string]any{"title": "Docs", "path": "docs", "default": true, "siteSpaces": []any{
			map[string]any{"id": ssGuide, "default": true}, map[string]any{"id": ssAPI, "default": false}}},
		map[string]any{"id": blogSec},
	}}, list)
	defSec := list["items"].([]any)[0].(map[string]any)["id"].(string)
	defaults := e.Walk(t, siteSpaces+"?default=true", e.readTok, 1)
	assert.Len(t, defaults, 2, "the default of each section")
	assert.Contains(t, defaults, ssGuide)
	assert.NotContains(t, e.Walk(t, siteSpaces+"?default=false", e.readTok, 1), ssGuide)

	e.Run(t, []servertest.Scenario{
		{Name: "sections: create with a title of 64", Method: http.MethodPost, Path: sections, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": api, "title": strings.Repeat("t", 64)}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"title": strings.Repeat("t", 64), "default": false}},
		{Name: "sections: create with a title of 65", Method: http.MethodPost, Path: sections, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": api, "title": strings.Repeat("t", 65)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "sections: create without spaceId", Method: http.MethodPost, Path: sections, Token: e.OwnerToken,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusBadRequest, WantError: "spaceId"},
		{Name: "sections: create from an unknown space", Method: http.MethodPost, Path: sections, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": "spc_nope"}, WantStatus: http.StatusBadRequest, WantError: "spaceId"},
		{Name: "sections: create as an editor", Method: http.MethodPost, Path: sections, Token: e.editTok,
			Body: map[string]any{"spaceId": api}, WantStatus: http.StatusForbidden},
		{Name: "sections: create without a token", Method: http.MethodPost, Path: sections,
			Body: map[string]any{"spaceId": api}, WantStatus: http.StatusUnauthorized},
		{Name: "sections: list as an outsider", Method: http.MethodGet, Path: sections, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "sections: list another organization's site", Method: http.MethodGet,
			Path: "/v1/orgs/" + e.Org.ID + "/sites/" + otherSite + "/sections", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "sections: list limit 1001", Method: http.MethodGet, Path: sections + "?limit=1001", Token: e.readTok,
			WantStatus: http.StatusBadRequest},
		{Name: "sections: update title of 128, path of 100, description of 256, a condition", Method: http.MethodPatch,
			Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 128), "path": strings.Repeat("p", 100), "icon": "gear",
				"description": strings.Repeat("d", 256), "condition": `visitor.claims.plan == "enterprise"`},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"title": strings.Repeat("t", 128), "path": strings.Repeat("p", 100),
				"description": strings.Repeat("d", 256), "icon": "gear", "condition": `visitor.claims.plan == "enterprise"`}},
		{Name: "sections: title of 129", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 129)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "sections: title of 1", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"title": "t"}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "sections: path of 101", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"path": strings.Repeat("p", 101)}, WantStatus: http.StatusBadRequest, WantError: "path"},
		{Name: "sections: empty path", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"path": ""}, WantStatus: http.StatusBadRequest, WantError: "path"},
		{Name: "sections: another section's path", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"path": "docs"}, WantStatus: http.StatusConflict},
		{Name: "sections: description of 257", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"description": strings.Repeat("d", 257)}, WantStatus: http.StatusBadRequest, WantError: "description"},
		{Name: "sections: a condition with a syntax error", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"condition": `visitor.claims.plan ==`}, WantStatus: http.StatusBadRequest, WantError: "line 1, column"},
		{Name: "sections: a condition of 1025", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body:       map[string]any{"condition": "visitor.claims.a == \"" + strings.Repeat("a", 1025-22) + "\""},
			WantStatus: http.StatusBadRequest, WantError: "condition"},
		{Name: "sections: a condition of 1024", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"condition": "visitor.claims.a == \"" + strings.Repeat("a", 1024-22) + "\""}, WantStatus: http.StatusOK},
		{Name: "sections: absent condition is unchanged", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"title": "Blog"}, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) { assert.Contains(t, res.JSON(), "condition") }},
		{Name: "sections: null condition removes it", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.OwnerToken,
			Body: map[string]any{"condition": nil, "description": nil}, WantStatus: http.StatusOK,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.JSON(), "condition")
				assert.NotContains(t, res.JSON(), "description")
			}},
		{Name: "sections: default site-space of another section", Method: http.MethodPatch, Path: sections + "/" + blogSec,
			Token: e.OwnerToken, Body: map[string]any{"defaultSiteSpace": ssGuide}, WantStatus: http.StatusBadRequest, WantError: "defaultSiteSpace"},
		{Name: "sections: default site-space", Method: http.MethodPatch, Path: sections + "/" + defSec,
			Token: e.OwnerToken, Body: map[string]any{"defaultSiteSpace": ssAPI}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"siteSpaces": []any{map[string]any{"id": ssGuide, "default": false}, map[string]any{"id": ssAPI, "default": true}}}},
		{Name: "sections: update as an editor", Method: http.MethodPatch, Path: sections + "/" + blogSec, Token: e.editTok,
			Body: map[string]any{"title": "Ours"}, WantStatus: http.StatusForbidden},
		{Name: "sections: update an unknown one", Method: http.MethodPatch, Path: sections + "/sitesc_nope", Token: e.OwnerToken,
			Body: map[string]any{"title": "Ours"}, WantStatus: http.StatusNotFound},
		{Name: "sections: a move with a pointer of the wrong type", Method: http.MethodPost, Path: sections + "/" + blogSec + "/move",
			Token: e.OwnerToken, Body: map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": ssAPI}}},
			WantStatus: http.StatusBadRequest, WantError: "position.before"},
		{Name: "sections: a move before a section of another site", Method: http.MethodPost, Path: sections + "/" + blogSec + "/move",
			Token: e.OwnerToken, Body: map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": "sitesc_nope"}}},
			WantStatus: http.StatusBadRequest, WantError: "position.before"},
		{Name: "sections: a move as a reader", Method: http.MethodPost, Path: sections + "/" + blogSec + "/move",
			Token: e.readTok, Body: map[string]any{}, WantStatus: http.StatusForbidden},
		{Name: "site-spaces: create in the default section", Method: http.MethodPost, Path: siteSpaces, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": blog}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"section": defSec, "path": "blog", "default": false}},
		{Name: "site-spaces: create in a section", Method: http.MethodPost, Path: siteSpaces, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": guide, "sectionId": blogSec}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"section": blogSec, "path": "guide"}},
		{Name: "site-spaces: create in another site's section", Method: http.MethodPost, Path: siteSpaces, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": guide, "sectionId": "sitesc_nope"}, WantStatus: http.StatusBadRequest, WantError: "sectionId"},
		{Name: "site-spaces: create as an editor", Method: http.MethodPost, Path: siteSpaces, Token: e.editTok,
			Body: map[string]any{"spaceId": guide}, WantStatus: http.StatusForbidden},
		{Name: "site-spaces: path of 100 and a condition", Method: http.MethodPatch, Path: siteSpaces + "/" + ssAPI, Token: e.OwnerToken,
			Body: map[string]any{"path": strings.Repeat("p", 100), "condition": "visitor.claims.isBetaUser"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"path": strings.Repeat("p", 100), "condition": "visitor.claims.isBetaUser"}},
		{Name: "site-spaces: path of 101", Method: http.MethodPatch, Path: siteSpaces + "/" + ssAPI, Token: e.OwnerToken,
			Body: map[string]any{"path": strings.Repeat("p", 101)}, WantStatus: http.StatusBadRequest, WantError: "path"},
		{Name: "site-spaces: a sibling's path", Method: http.MethodPatch, Path: siteSpaces + "/" + ssAPI, Token: e.OwnerToken,
			Body: map[string]any{"path": "guide"}, WantStatus: http.StatusConflict},
		{Name: "site-spaces: a condition with a syntax error", Method: http.MethodPatch, Path: siteSpaces + "/" + ssAPI, Token: e.OwnerToken,
			Body: map[string]any{"condition": "visitor.claims.a &&\n(visitor.claims.b"}, WantStatus: http.StatusBadRequest, WantError: "line 2"},
		{Name: "site-spaces: spaceId is not supported", Method: http.MethodPatch, Path: siteSpaces + "/" + ssAPI, Token: e.OwnerToken,
			Body: map[string]any{"spaceId": blog}, WantStatus: http.StatusBadRequest, WantError: "spaceId"},
		{Name: "site-spaces: another site's", Method: http.MethodPatch, Path: siteSpaces + "/" + mineSS[0], Token: e.OwnerToken,
			Body: map[string]any{"path": "x"}, WantStatus: http.StatusNotFound},
		{Name: "site-spaces: list as a guest", Method: http.MethodGet, Path: siteSpaces, Token: e.guestTok, WantStatus: http.StatusNotFound},
		{Name: "site-spaces: default is no boolean", Method: http.MethodGet, Path: siteSpaces + "?default=maybe", Token: e.readTok,
			WantStatus: http.StatusBadRequest, WantError: "default"},
		{Name: "site-spaces: delete as a reader", Method: http.MethodDelete, Path: siteSpaces + "/" + ssAPI, Token: e.readTok,
			WantStatus: http.StatusForbidden},
		{Name: "site-spaces: delete the default", Method: http.MethodDelete, Path: siteSpaces + "/" + ssAPI, Token: e.OwnerToken,
			WantStatus: http.StatusNoContent},
		{Name: "sections: delete as an editor", Method: http.MethodDelete, Path: sections + "/" + blogSec, Token: e.editTok,
			WantStatus: http.StatusForbidden},
		{Name: "sections: delete the default", Method: http.MethodDelete, Path: sections + "/" + defSec, Token: e.OwnerToken,
			WantStatus: http.StatusNoContent},
	})
	// The default's first sibling became the default, in the section and
	// among the sections.
	after := e.MustDo(http.MethodGet, sections, e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	require.Len(t, after, 2)
	assert.Equal(t, blogSec, after[0].(map[string]any)["id"])
	assert.Equal(t, true, after[0].(map[string]any)["default"])
	assert.Equal(t, float64(3), e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+site, e.OwnerToken, nil,
		http.StatusOK)["siteSpaces"], "the default section's site-spaces went with it")
	e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/publish", e.OwnerToken, nil, http.StatusOK)
	sec := e.MustDo(http.MethodGet, sections, e.OwnerToken, nil, http.StatusOK)["items"].([]any)[0].(map[string]any)
	p := strings.Repeat("p", 100)
	assert.Equal(t, "http://bindery.test/sites/"+site+"/"+p, sec["urls"].(map[string]any)["published"])
	assert.Equal(t, "http://bindery.test/sites/"+site+"/"+p+"/blog",
		sec["siteSpaces"].([]any)[0].(map[string]any)["urls"].(map[string]any)["published"])
}

// Moves keep the order a model list predicts through a random sequence of
// moves before, after, between and to the end, for sections and for the
// site-spaces of a section.
func TestSiteMovesFollowAModel(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	var spaces []string
	for _, title := range []string{"A", "B", "C", "D", "E"} {
		spaces = append(spaces, e.space("Space "+title, ""))
	}
	site := e.createSite(map[string]any{"title": "Docs"})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	var sections []string
	for _, sp := range spaces {
		sections = append(sections, e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": sp},
			http.StatusCreated)["id"].(string))
	}
	var siteSpaces []string
	for _, sp := range spaces[1:] {
		siteSpaces = append(siteSpaces, e.MustDo(http.MethodPost, base+"/site-spaces", e.OwnerToken,
			map[string]any{"spaceId": sp, "sectionId": sections[0]}, http.StatusCreated)["id"].(string))
	}

	rng := rand.New(rand.NewPCG(12, 12))
	check := func(kind, list string, model []string, order func() []string) {
		t.Helper()
		require.Equal(t, model, order(), "%s after moves", kind)
	}
	sectionOrder := func() []string { return e.Walk(t, base+"/sections", e.OwnerToken, 2) }
	siteSpaceOrder := func() []string {
		var out []string
		for _, it := range e.MustDo(http.MethodGet, base+"/sections", e.OwnerToken, nil, http.StatusOK)["items"].([]any) {
			if it.(map[string]any)["id"] == sections[0] {
				for _, ss := range it.(map[string]any)["siteSpaces"].([]any) {
					out = append(out, ss.(map[string]any)["id"].(string))
				}
			}
		}
		return out
	}
	inFirst := siteSpaceOrder()
	require.Len(t, inFirst, 5)
	require.Equal(t, siteSpaces, inFirst[1:], "added last, after the section's first site-space")
	siteSpaces = inFirst
	for _, c := range []struct {
		kind, path, pointer string
		model               []string
		order               func() []string
	}{
		{"site-section", base + "/sections/", "siteSection", sections, sectionOrder},
		{"site-space", base + "/site-spaces/", "siteSpace", siteSpaces, siteSpaceOrder},
	} {
		model := slices.Clone(c.model)
		check(c.kind, c.path, model, c.order)
		for range 25 {
			item := model[rng.IntN(len(model))]
			rest := slices.DeleteFunc(slices.Clone(model), func(s string) bool { return s == item })
			body := map[string]any{}
			k := rng.IntN(len(rest) + 1)
			switch rng.IntN(4) {
			case 0: // to the end
				k = len(rest)
			case 1: // before
				if k < len(rest) {
					body["position"] = map[string]any{"before": map[string]any{"type": c.kind, c.pointer: rest[k]}}
				} else {
					body["position"] = map[string]any{}
				}
			case 2: // after
				if k > 0 {
					body["position"] = map[string]any{"after": map[string]any{"type": c.kind, c.pointer: rest[k-1]}}
				} else {
					body["position"] = map[string]any{"before": map[string]any{"type": c.kind, c.pointer: rest[0]}}
				}
			default: // between
				if k > 0 && k < len(rest) {
					body["position"] = map[string]any{"after": map[string]any{"type": c.kind, c.pointer: rest[k-1]},
						"before": map[string]any{"type": c.kind, c.pointer: rest[k]}}
				} else {
					k = len(rest)
				}
			}
			e.MustDo(http.MethodPost, c.path+item+"/move", e.OwnerToken, body, http.StatusOK)
			model = slices.Insert(rest, k, item)
			check(c.kind, c.path, model, c.order)
		}
	}
	// Between two items that are not adjacent is a 400.
	e.MustDo(http.MethodPost, base+"/sections/"+sections[0]+"/move", e.OwnerToken, map[string]any{"position": map[string]any{
		"after":  map[string]any{"type": "site-section", "siteSection": sectionOrder()[1]},
		"before": map[string]any{"type": "site-section", "siteSection": sectionOrder()[4]}}}, http.StatusBadRequest)
}

// Sections and site-spaces in GraphQL run through the same resolvers.
func TestSiteStructureInGraphQL(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, api := e.space("Guide", ""), e.space("API", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide}})["id"].(string)
	create := `mutation($in: CreateSiteSectionInput!) { createSiteSection(input: $in) { siteSection { id title default
	  siteSpaces { id path default title space { id } section { id } } } } }`
	res := e.GraphQL(e.readTok, create, map[string]any{"in": map[string]any{"siteId": site, "spaceId": api}})
	assert.Equal(t, "FORBIDDEN", res.Code())
	res = e.GraphQL(e.OwnerToken, create, map[string]any{"in": map[string]any{"siteId": site, "spaceId": api,
		"title": strings.Repeat("t", 65)}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	res = e.GraphQL(e.OwnerToken, create, map[string]any{"in": map[string]any{"siteId": site, "spaceId": api}})
	require.Empty(t, res.Errors)
	sec := stAt(t, res, "createSiteSection.siteSection").(map[string]any)
	servertest.AssertContains(t, map[string]any{"title": "API", "default": false, "siteSpaces": []any{map[string]any{
		"path": "api", "default": true, "title": "API", "space": map[string]any{"id": api}, "section": map[string]any{"id": sec["id"]}}}}, sec)
	res = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateSiteSection(input: {id: $id, condition: "visitor.claims.plan =="}) {
	  siteSection { id } } }`, map[string]any{"id": sec["id"]})
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	res = e.GraphQL(e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Site { sections(first: 10) { nodes { id default } }
	  siteSpaces(first: 10, default: true) { totalCount } } } }`, map[string]any{"id": site})
	require.Empty(t, res.Errors)
	assert.Equal(t, float64(2), stAt(t, res, "node.siteSpaces.totalCount"), "the default of each section")
	first := stAt(t, res, "node.sections.nodes").([]any)[0].(map[string]any)
	assert.Equal(t, true, first["default"], "the default section, made of the root's site-spaces, comes first")
	res = e.GraphQL(e.OwnerToken, `mutation($id: ID!, $before: ID) { moveSiteSection(input: {id: $id, position: {before: $before}}) {
	  siteSection { id } } }`, map[string]any{"id": sec["id"], "before": first["id"]})
	require.Empty(t, res.Errors)
	res = e.GraphQL(e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Site { sections(first: 10) { nodes { id } } } } }`,
		map[string]any{"id": site})
	assert.Equal(t, sec["id"], stAt(t, res, "node.sections.nodes").([]any)[0].(map[string]any)["id"])
	res = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { deleteSiteSection(input: {id: $id}) { deletedSiteSectionId } }`,
		map[string]any{"id": sec["id"]})
	require.Empty(t, res.Errors)
	res = e.GraphQL(e.OwnerToken, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": sec["id"]})
	assert.Nil(t, stAt(t, res, "node"))
}
