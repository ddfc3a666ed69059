package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

func TestSiteSectionGroups(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide, api, blog := e.space("Guide", ""), e.space("API", ""), e.space("Blog", "")
	site := e.createSite(map[string]any{"title": "Docs", "spaces": []string{guide}})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	groups := base + "/section-groups"
	apiSec := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": api, "title": "API"},
		http.StatusCreated)["id"].(string)
	blogSec := e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": blog, "title": "Blog"},
		http.StatusCreated)["id"].(string)
	otherSite := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/sites", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	mine := e.createSite(map[string]any{"title": "Mine", "spaces": []string{blog}})["id"].(string)
	mineSec := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+mine+"/sections", e.OwnerToken,
		map[string]any{"spaceId": api}, http.StatusCreated)["id"].(string)

	// A group with two sections, which it shows in the site's order.
	g := e.MustDo(http.MethodPost, groups, e.OwnerToken,
		map[string]any{"title": "Products", "icon": "box", "sections": []string{blogSec, apiSec}}, http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"object": "site-section-group", "title": "Products", "icon": "box",
		"sections": []any{map[string]any{"id": apiSec, "sectionGroup": g["id"]}, map[string]any{"id": blogSec}},
		"children": []any{map[string]any{"id": apiSec}, map[string]any{"id": blogSec}}}, g)
	gid := g["id"].(string)
	servertest.AssertContains(t, map[string]any{"sectionGroup": gid},
		e.MustDo(http.MethodGet, base+"/sections", e.readTok, nil, http.StatusOK)["items"].([]any)[1])

	// A second group takes the API section from the first.
	g2 := e.MustDo(http.MethodPost, groups, e.OwnerToken, map[string]any{"title": "Second"}, http.StatusCreated)
	assert.Empty(t, g2["sections"])
	g2id := g2["id"].(string)
	moved := e.MustDo(http.MethodPost, groups+"/"+g2id+"/sections", e.OwnerToken, map[string]any{"sectionId": apiSec}, http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"sections": []any{map[string]any{"id": apiSec, "sectionGroup": g2id}}}, moved)
	list := e.MustDo(http.MethodGet, groups, e.readTok, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"count": 2, "items": []any{
		map[string]any{"id": gid, "sections": []any{map[string]any{"id": blogSec}}},
		map[string]any{"id": g2id, "sections": []any{map[string]any{"id": apiSec}}},
	}}, list)
	require.Len(t, list["items"].([]any)[0].(map[string]any)["sections"], 1)

	// Moving: the second group first, then last again by default.
	e.MustDo(http.MethodPost, groups+"/"+g2id+"/move", e.OwnerToken,
		map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section-group", "id": gid}}}, http.StatusOK)
	assert.Equal(t, []string{g2id, gid}, e.Walk(t, groups, e.readTok, 1))
	e.MustDo(http.MethodPost, groups+"/"+g2id+"/move", e.OwnerToken, map[string]any{}, http.StatusOK)
	assert.Equal(t, []string{gid, g2id}, e.Walk(t, groups, e.readTok, 1))

	e.Run(t, []servertest.Scenario{
		{Name: "create with a title of 100", Method: http.MethodPost, Path: groups, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 100)}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"title": strings.Repeat("t", 100)}},
		{Name: "create with a title of 101", Method: http.MethodPost, Path: groups, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 101)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create with an empty title", Method: http.MethodPost, Path: groups, Token: e.OwnerToken,
			Body: map[string]any{"title": ""}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create without a title", Method: http.MethodPost, Path: groups, Token: e.OwnerToken,
			Body: map[string]any{"icon": "box"}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create with another site's section", Method: http.MethodPost, Path: groups, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "sections": []string{mineSec}}, WantStatus: http.StatusBadRequest, WantError: "sections"},
		{Name: "create nested", Method: http.MethodPost, Path: groups, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "parent": gid}, WantStatus: http.StatusBadRequest, WantError: "parent"},
		{Name: "create as an editor", Method: http.MethodPost, Path: groups, Token: e.editTok,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusForbidden},
		{Name: "create without a token", Method: http.MethodPost, Path: groups,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusUnauthorized},
		{Name: "list as an outsider", Method: http.MethodGet, Path: groups, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list another organization's site", Method: http.MethodGet,
			Path: "/v1/orgs/" + e.Org.ID + "/sites/" + otherSite + "/section-groups", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "list limit 1001", Method: http.MethodGet, Path: groups + "?limit=1001", Token: e.readTok, WantStatus: http.StatusBadRequest},
		{Name: "update title and icon", Method: http.MethodPatch, Path: groups + "/" + gid, Token: e.OwnerToken,
			Body: map[string]any{"title": "Renamed", "icon": "star"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"title": "Renamed", "icon": "star"}},
		{Name: "update title of 101", Method: http.MethodPatch, Path: groups + "/" + gid, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 101)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "update title null", Method: http.MethodPatch, Path: groups + "/" + gid, Token: e.OwnerToken,
			Body: map[string]any{"title": nil}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "update as an editor", Method: http.MethodPatch, Path: groups + "/" + gid, Token: e.editTok,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusForbidden},
		{Name: "update a group of another site", Method: http.MethodPatch,
			Path: "/v1/orgs/" + e.Org.ID + "/sites/" + mine + "/section-groups/" + gid, Token: e.OwnerToken,
			Body: map[string]any{"title": "X"}, WantStatus: http.StatusNotFound},
		{Name: "add a section of another site", Method: http.MethodPost, Path: groups + "/" + gid + "/sections", Token: e.OwnerToken,
			Body: map[string]any{"sectionId": mineSec}, WantStatus: http.StatusBadRequest, WantError: "sectionId"},
		{Name: "add without sectionId", Method: http.MethodPost, Path: groups + "/" + gid + "/sections", Token: e.OwnerToken,
			Body: map[string]any{}, WantStatus: http.StatusBadRequest, WantError: "sectionId"},
		{Name: "remove a section not in the group", Method: http.MethodDelete,
			Path: groups + "/" + gid + "/sections/" + apiSec, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "remove an unknown section", Method: http.MethodDelete,
			Path: groups + "/" + gid + "/sections/sec_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "remove a section of another site", Method: http.MethodDelete,
			Path: groups + "/" + gid + "/sections/" + mineSec, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "move before a section pointer", Method: http.MethodPost, Path: groups + "/" + gid + "/move", Token: e.OwnerToken,
			Body:       map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": apiSec}}},
			WantStatus: http.StatusBadRequest, WantError: "position.before"},
		{Name: "move before an unknown group", Method: http.MethodPost, Path: groups + "/" + gid + "/move", Token: e.OwnerToken,
			Body:       map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section-group", "id": "sgr_nope"}}},
			WantStatus: http.StatusBadRequest, WantError: "position.after"},
		{Name: "delete as an editor", Method: http.MethodDelete, Path: groups + "/" + gid, Token: e.editTok,
			WantStatus: http.StatusForbidden},
	})

	// A failed create writes nothing: one good section and one bad.
	e.MustDo(http.MethodPost, groups, e.OwnerToken, map[string]any{"title": "X", "sections": []string{blogSec, mineSec}},
		http.StatusBadRequest)
	servertest.AssertContains(t, map[string]any{"sections": []any{map[string]any{"id": blogSec}}},
		e.MustDo(http.MethodPatch, groups+"/"+gid, e.OwnerToken, map[string]any{}, http.StatusOK))

	// Removing a section, then deleting a group: the sections stay.
	e.MustDo(http.MethodDelete, groups+"/"+gid+"/sections/"+blogSec, e.OwnerToken, nil, http.StatusNoContent)
	sec := e.MustDo(http.MethodGet, base+"/sections", e.readTok, nil, http.StatusOK)["items"].([]any)
	for _, s := range sec {
		if s.(map[string]any)["id"] == blogSec {
			assert.NotContains(t, s, "sectionGroup")
		}
	}
	e.MustDo(http.MethodDelete, groups+"/"+g2id, e.OwnerToken, nil, http.StatusNoContent)
	assert.Len(t, e.Walk(t, base+"/sections", e.readTok, 10), 3, "its sections stay")
	for _, s := range e.MustDo(http.MethodGet, base+"/sections", e.readTok, nil, http.StatusOK)["items"].([]any) {
		assert.NotContains(t, s, "sectionGroup")
	}
	e.MustDo(http.MethodDelete, groups+"/"+g2id, e.OwnerToken, nil, http.StatusNotFound)

	// Deleting the site deletes its groups.
	e.MustDo(http.MethodDelete, "/v1/orgs/"+e.Org.ID+"/sites/"+site, e.OwnerToken, nil, http.StatusNoContent)
	n, err := e.Client.SiteSectionGroup.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "no group is left of the deleted site")
}
