package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// srPage creates a page with markdown in a space's main content.
func (c *ctEnv) srPage(space, title, markdown string) string {
	c.t.Helper()
	return c.createPage(c.admin, ctInSpace(space), map[string]any{"title": title, "markdown": markdown})
}

// srSearch searches a space or an organization (path) as tok and returns
// the IDs of the results, best first.
func (c *ctEnv) srSearch(path, tok, query string) []string {
	c.t.Helper()
	res := c.MustDo(http.MethodGet, path+"?limit=100&query="+url.QueryEscape(query), tok, nil, http.StatusOK)
	return ctIDs(res["items"])
}

func (c *ctEnv) srSpace(space, query string) []string {
	c.t.Helper()
	return c.srSearch("/v1/spaces/"+space+"/search", c.admin, query)
}

func TestSearchSpace(t *testing.T) {
	c := newCtEnv(t)
	guide := c.srPage(c.space, "Installation guide",
		"# Requirements\n\nYou need a computer.\n\n## Run the installer\n\nDouble-click the installer to begin.\n")
	notes := c.srPage(c.space, "Notes", "Remember the installation steps and the configuration file.\n")
	deploy := c.srPage(c.space, "Deploy", "Deployment needs installation and configuration.\n")
	menu := c.srPage(c.space, "Menu", "Le café crème est servi chaud.\n")
	c.srPage(c.space, "Unrelated", "Nothing here.\n")
	c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Hidden from search",
		"markdown": "An installation note.", "noIndex": true})
	search := "/v1/spaces/" + c.space + "/search"

	t.Run("a match in the title outranks the body", func(t *testing.T) {
		got := c.srSpace(c.space, "installation")
		require.Len(t, got, 3)
		assert.Equal(t, guide, got[0])
		assert.ElementsMatch(t, []string{notes, deploy}, got[1:])
	})
	t.Run("more matching words rank higher", func(t *testing.T) {
		got := c.srSpace(c.space, "installation configuration")
		require.Len(t, got, 3)
		assert.ElementsMatch(t, []string{notes, deploy}, got[:2])
		assert.Equal(t, guide, got[2])
	})
	t.Run("words match as prefixes", func(t *testing.T) {
		assert.ElementsMatch(t, []string{guide, notes, deploy}, c.srSpace(c.space, "instal"))
		assert.ElementsMatch(t, []string{notes, deploy}, c.srSpace(c.space, "CONFIG"))
		assert.Empty(t, c.srSpace(c.space, "zebra"))
	})
	t.Run("case and accents do not matter", func(t *testing.T) {
		assert.Equal(t, []string{menu}, c.srSpace(c.space, "cafe creme"))
		assert.Equal(t, []string{menu}, c.srSpace(c.space, "CAFÉ"))
	})
	t.Run("results show the matching sections", func(t *testing.T) {
		res := c.MustDo(http.MethodGet, search+"?query=installer", c.reader, nil, http.StatusOK)
		items := res["items"].([]any)
		require.Len(t, items, 1)
		hit := items[0].(map[string]any)
		assert.Equal(t, "Installation guide", hit["title"])
		assert.Equal(t, "installation-guide", hit["path"])
		assert.Equal(t, "http://bindery.test/s/"+c.space+"/installation-guide", ctAt(hit, "urls", "app"))
		sections := hit["sections"].([]any)
		require.Len(t, sections, 1)
		servertest.AssertContains(t, map[string]any{
			"id": "run-the-installer", "title": "Run the installer", "path": "installation-guide#run-the-installer",
			"body": "Double-click the installer to begin.",
			"urls": map[string]any{"app": "http://bindery.test/s/" + c.space + "/installation-guide#run-the-installer"},
		}, sections[0])
	})
	t.Run("GraphQL finds the same", func(t *testing.T) {
		d := c.gql(c.reader, `query($id: ID!) { space(id: $id) { search(query: "installation configuration") {
		  totalCount nodes { id rank } } } }`, map[string]any{"id": c.space})
		assert.Equal(t, c.srSpace(c.space, "installation configuration"), ctIDs(ctAt(d, "space", "search", "nodes")))
		assert.EqualValues(t, 3, ctAt(d, "space", "search", "totalCount"))
	})
	t.Run("pages of results", func(t *testing.T) {
		assert.Equal(t, c.srSpace(c.space, "installation configuration"),
			c.Walk(t, search+"?query=installation+configuration", c.admin, 1))
	})
	long := strings.Repeat("a", 512)
	c.Run(t, []servertest.Scenario{
		{Name: "no query", Method: http.MethodGet, Path: search, Token: c.admin, WantStatus: http.StatusBadRequest, WantError: "query"},
		{Name: "empty query", Method: http.MethodGet, Path: search + "?query=", Token: c.admin,
			WantStatus: http.StatusBadRequest, WantError: "query"},
		{Name: "blank query", Method: http.MethodGet, Path: search + "?query=%20%20", Token: c.admin,
			WantStatus: http.StatusBadRequest, WantError: "query"},
		{Name: "513 characters", Method: http.MethodGet, Path: search + "?query=" + long + "b", Token: c.admin,
			WantStatus: http.StatusBadRequest, WantError: "at most 512"},
		{Name: "512 characters", Method: http.MethodGet, Path: search + "?query=" + long, Token: c.admin,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"items": []any{}}},
		{Name: "punctuation only", Method: http.MethodGet, Path: search + "?query=%3F%21", Token: c.admin,
			WantStatus: http.StatusBadRequest, WantError: "query"},
		{Name: "a foreign cursor", Method: http.MethodGet, Path: search + "?query=x&page=nope", Token: c.admin,
			WantStatus: http.StatusBadRequest, WantError: "page"},
		{Name: "no token", Method: http.MethodGet, Path: search + "?query=x", WantStatus: http.StatusUnauthorized},
		{Name: "a stranger", Method: http.MethodGet, Path: search + "?query=x", Token: c.stranger, WantStatus: http.StatusNotFound},
		{Name: "an unknown space", Method: http.MethodGet, Path: "/v1/spaces/spc_nope/search?query=x", Token: c.admin,
			WantStatus: http.StatusNotFound},
	})

	t.Run("the index follows edits", func(t *testing.T) {
		c.setMarkdown(c.admin, ctInSpace(c.space), notes, "Nothing about it.\n")
		c.gql(c.admin, `mutation($in: DeletePageInput!) { deletePage(input: $in) { revision { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": c.space, "pageId": deploy}})
		assert.Equal(t, []string{guide}, c.srSpace(c.space, "installation"))
		c.updatePage(ctInSpace(c.space), guide, map[string]any{"title": "Setup", "slug": "setup"})
		res := c.MustDo(http.MethodGet, search+"?query=installer", c.admin, nil, http.StatusOK)
		assert.Equal(t, "setup", ctAt(res, "items", 0, "path"), "a new slug is a new path")
		assert.Empty(t, c.srSpace(c.space, "installation"), "the old title is gone")
	})
	t.Run("the index follows merges", func(t *testing.T) {
		cr := c.MustDo(http.MethodPost, "/v1/spaces/"+c.space+"/change-requests", c.admin, map[string]any{}, http.StatusCreated)["id"].(string)
		zebra := c.createPage(c.admin, ctInCR(cr), map[string]any{"title": "Zebra crossing", "markdown": "Stripes."})
		assert.Empty(t, c.srSpace(c.space, "zebra"), "a change request's content is not the space's")
		c.MustDo(http.MethodPost, "/v1/spaces/"+c.space+"/change-requests/"+cr+"/merge", c.admin, nil, http.StatusOK)
		assert.Equal(t, []string{zebra}, c.srSpace(c.space, "zebra"))
	})
}

func TestSearchOrganization(t *testing.T) {
	c := newCtEnv(t)
	search := "/v1/orgs/" + c.Org.ID + "/search"
	c.srPage(c.space, "Zebra stripes", "On the road.\n")
	c.srPage(c.space, "Zebras", "Animals with stripes.\n")
	c.srPage(c.space, "Horses", "Animals without stripes.\n")
	other := c.newSpace("Other", true)
	c.srPage(other, "Stripes", "Zebra patterns.\n")
	// Content of another organization is never found.
	foreign := c.otherSpace()
	owner := c.Token(c.User("other-owner@example.com"))
	c.MustDo(http.MethodPatch, "/v1/spaces/"+foreign, owner, map[string]any{"editMode": "live"}, http.StatusOK)
	c.createPage(owner, ctInSpace(foreign), map[string]any{"title": "Zebra", "markdown": "Zebra zebra."})
	c.MustDo(http.MethodGet, "/v1/spaces/"+foreign+"/search?query=zebra", c.admin, nil, http.StatusNotFound)
	require.Len(t, c.srSearch("/v1/spaces/"+foreign+"/search", owner, "zebra"), 1)

	t.Run("spaces rank by their best page, each with its pages", func(t *testing.T) {
		res := c.MustDo(http.MethodGet, search+"?query=zebra+stripes", c.reader, nil, http.StatusOK)
		require.EqualValues(t, 2, res["count"])
		items := res["items"].([]any)
		assert.Equal(t, []string{c.space, other}, ctIDs(items))
		assert.Equal(t, "Handbook", ctAt(items, 0, "title"))
		pages := ctAt(items, 0, "pages").([]any)
		require.Len(t, pages, 3)
		assert.Equal(t, "Zebra stripes", ctAt(pages, 0, "title"))
		assert.Equal(t, "Zebras", ctAt(pages, 1, "title"))
		assert.Equal(t, "Horses", ctAt(pages, 2, "title"))
	})
	t.Run("only spaces the viewer can read", func(t *testing.T) {
		// Neither API sets a visibility yet (sites will): the fixture does.
		require.NoError(t, c.Client.Space.UpdateOneID(other).SetVisibility(enum.VisibilityPublic).Exec(context.Background()))
		assert.Equal(t, []string{other}, c.srSearch(search, c.guest, "zebra"), "a guest sees the public space only")
		c.Run(t, []servertest.Scenario{
			{Name: "a stranger", Method: http.MethodGet, Path: search + "?query=zebra", Token: c.stranger,
				WantStatus: http.StatusOK, WantJSON: map[string]any{"count": float64(1)}},
			{Name: "no token", Method: http.MethodGet, Path: search + "?query=zebra", WantStatus: http.StatusUnauthorized},
			{Name: "no query", Method: http.MethodGet, Path: search, Token: c.admin, WantStatus: http.StatusBadRequest, WantError: "query"},
			{Name: "an unknown organization", Method: http.MethodGet, Path: "/v1/orgs/org_nope/search?query=x", Token: c.admin,
				WantStatus: http.StatusNotFound, WantError: "Organization not found"},
			// Its row is not read: whether the viewer sees it is decided
			// from its ID, and reads the same as an unknown one.
			{Name: "an organization the viewer does not see", Method: http.MethodGet,
				Path:  "/v1/orgs/" + c.Client.Space.GetX(context.Background(), foreign).OrganizationID + "/search?query=zebra",
				Token: c.admin, WantStatus: http.StatusNotFound, WantError: "Organization not found"},
		})
	})
	t.Run("duplicated, deleted and restored spaces", func(t *testing.T) {
		dup := c.MustDo(http.MethodPost, "/v1/spaces/"+other+"/duplicate", c.admin, nil, http.StatusCreated)["id"].(string)
		assert.ElementsMatch(t, []string{c.space, other, dup}, c.srSearch(search, c.admin, "zebra"))
		c.MustDo(http.MethodDelete, "/v1/spaces/"+dup, c.admin, nil, http.StatusNoContent)
		assert.ElementsMatch(t, []string{c.space, other}, c.srSearch(search, c.admin, "zebra"))
		c.MustDo(http.MethodPost, "/v1/spaces/"+dup+"/restore", c.admin, nil, http.StatusOK)
		assert.ElementsMatch(t, []string{c.space, other, dup}, c.srSearch(search, c.admin, "zebra"))
	})
	t.Run("GraphQL finds the same", func(t *testing.T) {
		d := c.gql(c.admin, `query($id: ID!) { organization(id: $id) { search(query: "zebra stripes") {
		  nodes { space { id } rank pages { id title sections { body } } } } } }`, map[string]any{"id": c.Org.ID})
		var ids []string
		for _, n := range ctAt(d, "organization", "search", "nodes").([]any) {
			ids = append(ids, ctAt(n, "space", "id").(string))
		}
		assert.Equal(t, c.srSearch(search, c.admin, "zebra stripes"), ids)
	})
}
