package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// lkFixture is a live space whose page "guide" links to every kind of
// target, and whose page "install" links back to one of guide's anchors:
//
//	guide:   ## Setup
//	         [install](install.md)                 ok page
//	         [gone](gone.md)                        broken page
//	         [up](#setup)                           ok anchor (also from install)
//	         [down](#nowhere)                       broken anchor
//	         [diagram](.gitbook/assets/diagram.png) ok file
//	         ![missing](.gitbook/assets/missing.png) broken file, embedded
//	         [example](https://example.com/docs)    ok URL
//	         [app](http://bindery.test/s/elsewhere) in-app URL
//	install: ## Linux
//	         [back](guide.md#setup)
type lkFixture struct {
	*ctEnv
	guide, install, diagram string
}

const lkGuide = "## Setup\n\n[install](install.md) [gone](gone.md) [up](#setup) [down](#nowhere)\n\n" +
	"[diagram](.gitbook/assets/diagram.png)\n\n![missing](.gitbook/assets/missing.png)\n\n" +
	"[example](https://example.com/docs) [app](http://bindery.test/s/elsewhere)\n"

func newLkFixture(t *testing.T) *lkFixture {
	c := newCtEnv(t)
	in := ctInSpace(c.space)
	f := &lkFixture{ctEnv: c}
	f.diagram = c.upload(in, "diagram.png", "image/png", ctPNG(t, 2, 2))
	f.guide = c.createPage(c.admin, in, map[string]any{"title": "Guide", "markdown": lkGuide})
	f.install = c.createPage(c.admin, in, map[string]any{"title": "Install", "markdown": "## Linux\n\n[back](guide.md#setup)\n"})
	return f
}

// lkItem is what a test compares of a ContentReferenceUsage: its status,
// relation, target (kind and page, file, anchor or url) and the IDs of the
// pages of its locations.
type lkItem struct {
	status, relation, target string
	pages                    []string
}

func lkItems(t *testing.T, body map[string]any) []lkItem {
	t.Helper()
	var out []lkItem
	for _, v := range body["items"].([]any) {
		it := v.(map[string]any)
		var target string
		switch tr, _ := it["targetReference"].(map[string]any); ctAt(tr, "kind") {
		case "page":
			target = "page " + ctAt(tr, "page", "id").(string)
			if a, ok := ctAt(tr, "internalLocation", "anchor").(string); ok {
				target += "#" + a
			}
		case "file":
			target = "file " + ctAt(tr, "file", "id").(string)
		case "url":
			target = "url " + ctAt(tr, "url").(string)
		}
		var pages []string
		for _, l := range it["locationReferences"].([]any) {
			require.Equal(t, "page", ctAt(l, "kind"))
			require.NotEmpty(t, ctAt(l, "organization", "id"))
			require.NotEmpty(t, ctAt(l, "space", "id"))
			pages = append(pages, ctAt(l, "page", "id").(string))
		}
		out = append(out, lkItem{it["status"].(string), it["relation"].(string), target, pages})
	}
	return out
}

func TestSpaceLinks(t *testing.T) {
	t.Parallel()
	f := newLkFixture(t)
	links := "/v1/spaces/" + f.space + "/links"
	g, in := f.guide, f.install
	all := []lkItem{
		{"ok", "reference", "page " + in, []string{g}},
		{"broken", "reference", "url gone.md", []string{g}},
		{"ok", "reference", "page " + g + "#setup", []string{g, in}},
		{"broken", "reference", "page " + g + "#nowhere", []string{g}},
		{"ok", "reference", "file " + f.diagram, []string{g}},
		{"broken", "dependsOn", "url .gitbook/assets/missing.png", []string{g}},
		{"ok", "reference", "url https://example.com/docs", []string{g}},
		{"in-app", "reference", "url http://bindery.test/s/elsewhere", []string{g}},
	}
	body := f.MustDo(http.MethodGet, links, f.reader, nil, http.StatusOK)
	assert.Equal(t, all, lkItems(t, body))
	assert.EqualValues(t, 8, body["count"])
	assert.Equal(t, map[string]any{"total": 8.0, "broken": map[string]any{"total": 3.0}}, body["stats"])
	assert.Nil(t, ctAt(body, "items", 0, "locationReferences", 0, "versionContext"), "the main content has none")

	// A status filter keeps the targets of that status: count is theirs,
	// stats stay those of the whole space.
	for status, want := range map[string][]lkItem{
		"broken": {all[1], all[3], all[5]}, "in-app": {all[7]}, "ok": {all[0], all[2], all[4], all[6]},
	} {
		body := f.MustDo(http.MethodGet, links+"?status="+status, f.reader, nil, http.StatusOK)
		assert.Equal(t, want, lkItems(t, body), status)
		assert.EqualValues(t, len(want), body["count"], status)
		assert.Equal(t, 8.0, ctAt(body, "stats", "total"), status)
	}

	// Every page of a walk is a part of the list, once.
	var walked []lkItem
	next := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 4)
		body := f.MustDo(http.MethodGet, links+"?limit=3"+next, f.reader, nil, http.StatusOK)
		assert.EqualValues(t, 8, body["count"])
		walked = append(walked, lkItems(t, body)...)
		p, ok := ctAt(body, "next", "page").(string)
		if !ok {
			break
		}
		next = "&page=" + p
	}
	assert.Equal(t, all, walked)

	// The same list in GraphQL, with the same stats.
	data := f.gql(f.reader, `query($s: ID!) { space(id: $s) { revision { links(first: 100) {
	  totalCount stats { total broken { total changeRequest } }
	  nodes { status relation kind page { id } file { id } anchor url href locations { id } } } } } }`,
		map[string]any{"s": f.space})
	conn := ctAt(data, "space", "revision", "links")
	assert.Equal(t, 8.0, ctAt(conn, "totalCount"))
	assert.Equal(t, map[string]any{"total": 8.0, "broken": map[string]any{"total": 3.0, "changeRequest": nil}}, ctAt(conn, "stats"))
	for i, n := range ctAt(conn, "nodes").([]any) {
		assert.Equal(t, all[i].status, map[string]string{"OK": "ok", "BROKEN": "broken", "IN_APP": "in-app"}[ctAt(n, "status").(string)])
		assert.Equal(t, all[i].relation, map[string]string{"REFERENCE": "reference", "DEPENDS_ON": "dependsOn"}[ctAt(n, "relation").(string)])
		assert.Len(t, ctAt(n, "locations"), len(all[i].pages))
	}
	assert.Equal(t, "ANCHOR", ctAt(conn, "nodes", 3, "kind"))
	assert.Equal(t, "nowhere", ctAt(conn, "nodes", 3, "anchor"))
	assert.Equal(t, g, ctAt(conn, "nodes", 3, "page", "id"))
	assert.Equal(t, "gone.md", ctAt(conn, "nodes", 1, "href"))
	assert.Nil(t, ctAt(conn, "nodes", 1, "page"))

	f.Run(t, append(f.ctContentErrors("/links", ""),
		servertest.Scenario{Name: "unknown status", Method: http.MethodGet, Path: links + "?status=fine", Token: f.reader,
			WantStatus: http.StatusBadRequest, WantError: "status"},
		servertest.Scenario{Name: "bad page", Method: http.MethodGet, Path: links + "?page=nope", Token: f.reader,
			WantStatus: http.StatusBadRequest},
	))
}

func TestLinksOfARevisionAreParsedOnce(t *testing.T) {
	t.Parallel()
	f := newLkFixture(t)
	cache := f.Server.Resolver().LinkCache()
	links := "/v1/spaces/" + f.space + "/links"
	f.MustDo(http.MethodGet, links, f.reader, nil, http.StatusOK)
	parses := cache.Parses()
	f.MustDo(http.MethodGet, links+"?status=broken", f.reader, nil, http.StatusOK)
	f.MustDo(http.MethodGet, "/v1/spaces/"+f.space+"/content/page/"+f.guide+"/links", f.reader, nil, http.StatusOK)
	f.gql(f.reader, `query($s: ID!) { space(id: $s) { revision { links { totalCount } } } }`, map[string]any{"s": f.space})
	assert.Equal(t, parses, cache.Parses(), "reads of an unchanged revision parse nothing")

	f.setMarkdown(f.admin, ctInSpace(f.space), f.install, "No links.")
	body := f.MustDo(http.MethodGet, links, f.reader, nil, http.StatusOK)
	assert.Equal(t, parses+1, cache.Parses(), "a new revision is parsed")
	assert.Equal(t, []string{f.guide}, lkItems(t, body)[2].pages)
}

func TestPageLinksAndFileBacklinks(t *testing.T) {
	t.Parallel()
	f := newLkFixture(t)
	space := "/v1/spaces/" + f.space
	installLinks := space + "/content/page/" + f.install + "/links"
	body := f.MustDo(http.MethodGet, installLinks, f.reader, nil, http.StatusOK)
	assert.Equal(t, []lkItem{{"ok", "reference", "page " + f.guide + "#setup", []string{f.install}}}, lkItems(t, body))
	assert.Equal(t, map[string]any{"total": 1.0, "broken": map[string]any{"total": 0.0}}, body["stats"])
	body = f.MustDo(http.MethodGet, space+"/content/page/"+f.guide+"/links?status=broken", f.reader, nil, http.StatusOK)
	assert.EqualValues(t, 3, body["count"])
	assert.Equal(t, map[string]any{"total": 8.0, "broken": map[string]any{"total": 3.0}}, body["stats"])

	backlinks := space + "/content/files/" + f.diagram + "/backlinks"
	body = f.MustDo(http.MethodGet, backlinks, f.reader, nil, http.StatusOK)
	assert.EqualValues(t, 1, body["count"])
	assert.Equal(t, "page", ctAt(body, "items", 0, "kind"))
	assert.Equal(t, f.guide, ctAt(body, "items", 0, "page", "id"))
	assert.Equal(t, "Guide", ctAt(body, "items", 0, "page", "title"))

	// GraphQL: the page's backlinks and the file's.
	data := f.gql(f.reader, `query($s: ID!, $p: ID!, $f: ID!) { space(id: $s) { revision {
	  page(id: $p) { backlinks { totalCount nodes { id } } links(status: BROKEN) { totalCount } }
	  file(id: $f) { backlinks { nodes { id } } } } } }`, map[string]any{"s": f.space, "p": f.guide, "f": f.diagram})
	rev := ctAt(data, "space", "revision")
	assert.Equal(t, []any{map[string]any{"id": f.install}}, ctAt(rev, "page", "backlinks", "nodes"))
	assert.Equal(t, 3.0, ctAt(rev, "page", "links", "totalCount"))
	assert.Equal(t, []any{map[string]any{"id": f.guide}}, ctAt(rev, "file", "backlinks", "nodes"))

	f.Run(t, append(append(f.ctContentErrors("/content/page/"+f.install+"/links", ""),
		f.ctContentErrors("/content/files/"+f.diagram+"/backlinks", "")...),
		servertest.Scenario{Name: "unknown page", Method: http.MethodGet, Path: space + "/content/page/pg_nope/links",
			Token: f.reader, WantStatus: http.StatusNotFound},
		servertest.Scenario{Name: "unknown file", Method: http.MethodGet, Path: space + "/content/files/fil_nope/backlinks",
			Token: f.reader, WantStatus: http.StatusNotFound},
		servertest.Scenario{Name: "bad status", Method: http.MethodGet, Path: installLinks + "?status=BROKEN",
			Token: f.reader, WantStatus: http.StatusBadRequest},
	))
}

func TestChangeRequestLinks(t *testing.T) {
	t.Parallel()
	f := newLkFixture(t)
	space := "/v1/spaces/" + f.space
	cr := f.createCR(f.space, f.admin, map[string]any{"subject": "Break a link"})
	crID := cr["id"].(string)
	inCR := space + "/change-requests/" + crID
	f.setMarkdown(f.admin, ctInCR(crID), f.install, "## Linux\n\n[back](guide.md#setup) [next](configure.md)\n")

	// Broken in the change request, and counted as broken by it...
	body := f.MustDo(http.MethodGet, inCR+"/content/page/"+f.install+"/links", f.reader, nil, http.StatusOK)
	assert.Equal(t, []lkItem{
		{"ok", "reference", "page " + f.guide + "#setup", []string{f.install}},
		{"broken", "reference", "url configure.md", []string{f.install}},
	}, lkItems(t, body))
	assert.Equal(t, map[string]any{"total": 2.0, "broken": map[string]any{"total": 1.0, "changeRequest": 1.0}}, body["stats"])
	assert.Equal(t, "changeRequest", ctAt(body, "items", 0, "locationReferences", 0, "versionContext", "type"))
	assert.Equal(t, crID, ctAt(body, "items", 0, "locationReferences", 0, "versionContext", "changeRequest", "id"))
	// ...while the space's content is as it was.
	body = f.MustDo(http.MethodGet, space+"/content/page/"+f.install+"/links", f.reader, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"total": 1.0, "broken": map[string]any{"total": 0.0}}, body["stats"])
	// A page whose broken links the space shares counts none.
	body = f.MustDo(http.MethodGet, inCR+"/content/page/"+f.guide+"/links", f.reader, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"total": 8.0, "broken": map[string]any{"total": 3.0, "changeRequest": 0.0}}, body["stats"])

	backlinks := inCR + "/content/files/" + f.diagram + "/backlinks"
	body = f.MustDo(http.MethodGet, backlinks, f.reader, nil, http.StatusOK)
	assert.Equal(t, f.guide, ctAt(body, "items", 0, "page", "id"))
	assert.Equal(t, crID, ctAt(body, "items", 0, "versionContext", "changeRequest", "id"))

	f.Run(t, []servertest.Scenario{
		{Name: "no token", Method: http.MethodGet, Path: backlinks, WantStatus: http.StatusUnauthorized},
		{Name: "stranger", Method: http.MethodGet, Path: backlinks, Token: f.stranger, WantStatus: http.StatusNotFound},
		{Name: "unknown change request", Method: http.MethodGet, Path: space + "/change-requests/cr_nope/content/page/" + f.install + "/links",
			Token: f.reader, WantStatus: http.StatusNotFound},
		{Name: "a page the change request lacks", Method: http.MethodGet, Path: inCR + "/content/page/pg_nope/links",
			Token: f.reader, WantStatus: http.StatusNotFound},
		{Name: "a file the change request lacks", Method: http.MethodGet, Path: inCR + "/content/files/fil_nope/backlinks",
			Token: f.reader, WantStatus: http.StatusNotFound},
	})

	// Merged, the link is broken in the space.
	f.MustDo(http.MethodPost, inCR+"/merge", f.admin, nil, http.StatusOK)
	body = f.MustDo(http.MethodGet, space+"/links?status=broken", f.reader, nil, http.StatusOK)
	assert.Contains(t, lkItems(t, body), lkItem{"broken", "reference", "url configure.md", []string{f.install}})
	assert.Equal(t, map[string]any{"total": 9.0, "broken": map[string]any{"total": 4.0}}, body["stats"])
}
