package rest_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
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
		{Name: "move before a section pointer naming a group", Method: http.MethodPost, Path: groups + "/" + gid + "/move",
			Token: e.OwnerToken, Body: map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": g2id}}},
			WantStatus: http.StatusBadRequest, WantError: "position.before"},
		{Name: "move with a pointer of another type", Method: http.MethodPost, Path: groups + "/" + gid + "/move", Token: e.OwnerToken,
			Body:       map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "id": apiSec}}},
			WantStatus: http.StatusBadRequest, WantError: "position.before"},
		{Name: "move before an unknown section", Method: http.MethodPost, Path: groups + "/" + gid + "/move", Token: e.OwnerToken,
			Body:       map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": "sec_nope"}}},
			WantStatus: http.StatusBadRequest, WantError: "position.before"},
		{Name: "move before a section in another group: before that group", Method: http.MethodPost,
			Path: groups + "/" + g2id + "/move", Token: e.OwnerToken,
			Body:       map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": blogSec}}},
			WantStatus: http.StatusOK, Check: func(t *testing.T, _ *servertest.Response) {
				order := e.Walk(t, groups, e.readTok, 10)
				assert.Less(t, slices.Index(order, g2id), slices.Index(order, gid), "%v", order)
			}},
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

// Moves of sections and groups, with sections joining and leaving groups,
// keep the order a model predicts, through a random sequence: the model is
// one list of the site's sections and groups, which share one order. The
// flat list of sections, the list of groups and the published structure
// (the top level, groups and sections outside groups, and each group's
// sections) are all read off it. A move puts its item right before or after
// the item it names, and an item of the top level (a group, or a section
// outside groups) that names a section in a group goes beside that group.
func TestSiteTopLevelMovesFollowAModel(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	guide := e.space("Guide", "")
	site := e.createSite(map[string]any{"title": "Docs"})["id"].(string)
	base := "/v1/orgs/" + e.Org.ID + "/sites/" + site
	var model []string
	isGroup := map[string]bool{}
	groupOf := map[string]string{}
	for range 7 {
		model = append(model, e.MustDo(http.MethodPost, base+"/sections", e.OwnerToken, map[string]any{"spaceId": guide},
			http.StatusCreated)["id"].(string))
	}
	for i, secs := range [][]string{{model[1], model[2]}, {model[4]}, {}} {
		g := e.MustDo(http.MethodPost, base+"/section-groups", e.OwnerToken,
			map[string]any{"title": fmt.Sprintf("G%d", i), "sections": secs}, http.StatusCreated)["id"].(string)
		isGroup[g] = true
		for _, s := range secs {
			groupOf[s] = g
		}
		model = append(model, g)
	}

	topLevel := func(x string) bool { return isGroup[x] || groupOf[x] == "" }
	filter := func(keep func(string) bool) []string {
		var out []string
		for _, x := range model {
			if keep(x) {
				out = append(out, x)
			}
		}
		return out
	}
	// published is the structure as the model has it: "id" for a section,
	// "id[id id]" for a group with its sections; an empty group is not
	// shown.
	published := func() []string {
		var out []string
		for _, x := range filter(topLevel) {
			if !isGroup[x] {
				out = append(out, x)
				continue
			}
			if secs := filter(func(s string) bool { return groupOf[s] == x }); len(secs) > 0 {
				out = append(out, x+"["+strings.Join(secs, " ")+"]")
			}
		}
		return out
	}
	check := func(step string) {
		t.Helper()
		require.Equal(t, filter(func(x string) bool { return !isGroup[x] }), e.Walk(t, base+"/sections", e.OwnerToken, 3),
			"sections after %s", step)
		require.Equal(t, filter(func(x string) bool { return isGroup[x] }), e.Walk(t, base+"/section-groups", e.OwnerToken, 2),
			"groups after %s", step)
		var got []string
		st := e.MustDo(http.MethodGet, base+"/published", e.OwnerToken, nil, http.StatusOK)["structure"].(map[string]any)
		for _, it := range st["structure"].([]any) {
			m := it.(map[string]any)
			if m["object"] != "site-section-group" {
				got = append(got, m["id"].(string))
				continue
			}
			var secs []string
			for _, s := range m["sections"].([]any) {
				secs = append(secs, s.(map[string]any)["id"].(string))
			}
			got = append(got, m["id"].(string)+"["+strings.Join(secs, " ")+"]")
		}
		require.Equal(t, published(), got, "published structure after %s", step)
	}
	pointer := func(mover, ref string) map[string]any {
		switch {
		case isGroup[mover] && isGroup[ref]:
			return map[string]any{"type": "site-section-group", "id": ref}
		case isGroup[mover]:
			return map[string]any{"type": "site-section", "id": ref}
		}
		return map[string]any{"type": "site-section", "siteSection": ref}
	}
	path := func(x string) string {
		if isGroup[x] {
			return base + "/section-groups/" + x
		}
		return base + "/sections/" + x
	}
	check("setup")

	rng := rand.New(rand.NewPCG(7, 7))
	pick := func(from []string) string { return from[rng.IntN(len(from))] }
	for step := range 60 {
		mover := pick(model)
		if !isGroup[mover] && rng.IntN(5) == 0 {
			// A section joins a group, or leaves its own.
			if g := groupOf[mover]; g != "" {
				e.MustDo(http.MethodDelete, base+"/section-groups/"+g+"/sections/"+mover, e.OwnerToken, nil, http.StatusNoContent)
				delete(groupOf, mover)
			} else {
				g := pick(filter(func(x string) bool { return isGroup[x] }))
				e.MustDo(http.MethodPost, base+"/section-groups/"+g+"/sections", e.OwnerToken, map[string]any{"sectionId": mover},
					http.StatusCreated)
				groupOf[mover] = g
			}
			check(fmt.Sprintf("step %d: membership of %s", step, mover))
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(model), func(x string) bool { return x == mover })
		// What the mover may name: sections, and for a group, groups too;
		// never a section of the group moved.
		names := func(x string) bool {
			return (isGroup[mover] || !isGroup[x]) && (groupOf[x] == "" || groupOf[x] != mover)
		}
		// Where a name puts the mover: beside the named item, or, for an
		// item of the top level, beside the group of a section in one.
		at := func(x string) int {
			if topLevel(mover) && !topLevel(x) {
				x = groupOf[x]
			}
			return slices.Index(rest, x)
		}
		level := func(x string) bool { return topLevel(mover) && topLevel(x) || !topLevel(mover) && !isGroup[x] }
		body := map[string]any{}
		k := len(rest)
		var refs []string
		switch rng.IntN(4) {
		case 0: // to the end
		case 1: // before
			ref := pick(filter(func(x string) bool { return x != mover && names(x) }))
			body["position"] = map[string]any{"before": pointer(mover, ref)}
			k, refs = at(ref), []string{ref}
		case 2: // after
			ref := pick(filter(func(x string) bool { return x != mover && names(x) }))
			body["position"] = map[string]any{"after": pointer(mover, ref)}
			k, refs = at(ref)+1, []string{ref}
		default: // between two neighbours of its level, named by items that stand for them
			var peers []string
			for _, x := range rest {
				if level(x) {
					peers = append(peers, x)
				}
			}
			// Names of each peer: itself, or for a group, its sections too.
			namesOf := func(p string) []string {
				out := filter(func(x string) bool { return x != mover && names(x) && (x == p || topLevel(mover) && groupOf[x] == p) })
				return out
			}
			if len(peers) < 2 {
				continue
			}
			i := rng.IntN(len(peers) - 1)
			a, b := namesOf(peers[i]), namesOf(peers[i+1])
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			after, before := pick(a), pick(b)
			body["position"] = map[string]any{"after": pointer(mover, after), "before": pointer(mover, before)}
			k, refs = slices.Index(rest, peers[i])+1, []string{after, before}
		}
		e.MustDo(http.MethodPost, path(mover)+"/move", e.OwnerToken, body, http.StatusOK)
		model = slices.Insert(rest, k, mover)
		if g := groupOf[mover]; g != "" && slices.ContainsFunc(refs, func(x string) bool { return groupOf[x] != g }) {
			// A section placed beside one outside its group takes its
			// group along, just after it.
			model = slices.DeleteFunc(model, func(x string) bool { return x == g })
			model = slices.Insert(model, slices.Index(model, mover)+1, g)
		}
		check(fmt.Sprintf("step %d: move of %s with %v", step, mover, body))
	}

	// A group named by a section of its own, or between items that are not
	// neighbours, is a 400.
	g := filter(func(x string) bool { return isGroup[x] })[0]
	sec := filter(func(x string) bool { return !isGroup[x] && groupOf[x] != g })[0]
	if groupOf[sec] != "" {
		e.MustDo(http.MethodDelete, base+"/section-groups/"+groupOf[sec]+"/sections/"+sec, e.OwnerToken, nil, http.StatusNoContent)
	}
	e.MustDo(http.MethodPost, base+"/section-groups/"+g+"/sections", e.OwnerToken, map[string]any{"sectionId": sec}, http.StatusCreated)
	e.MustDo(http.MethodPost, path(g)+"/move", e.OwnerToken,
		map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": sec}}}, http.StatusBadRequest)
}
