package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// cmEnv is ctEnv with a page in the space's main content, and a change
// request on the space.
type cmEnv struct {
	*ctEnv
	page string
	cr   string
	crNo string
}

func newCmEnv(t *testing.T) *cmEnv {
	c := &cmEnv{ctEnv: newCtEnv(t)}
	c.page = c.createPage(map[string]any{"spaceId": c.space}, "Guide", "# Guide\n\nHello.")
	cr := c.createCR(c.space, c.admin, map[string]any{"subject": "Edits"})
	c.cr, c.crNo = cr["id"].(string), "1"
	return c
}

// createPage creates a page through GraphQL and returns its ID.
func (c *cmEnv) createPage(target map[string]any, title, markdown string) string {
	c.t.Helper()
	in := map[string]any{"title": title, "markdown": markdown}
	for k, v := range target {
		in[k] = v
	}
	d := c.gql(c.admin, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": in})
	return ctAt(d, "createPage", "page", "id").(string)
}

// places are the two bases of comments: the space's main content and the
// change request, by its ID.
func (c *cmEnv) places() map[string]string {
	return map[string]string{
		"space":          "/v1/spaces/" + c.space + "/comments",
		"change request": "/v1/spaces/" + c.space + "/change-requests/" + c.cr + "/comments",
	}
}

// post posts a comment at base as tok and returns it.
func (c *cmEnv) post(base, tok string, body map[string]any) map[string]any {
	c.t.Helper()
	return c.MustDo(http.MethodPost, base, tok, body, http.StatusOK)
}

func md(s string) map[string]any { return map[string]any{"markdown": s} }

func TestPostComment(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	rev := c.spaceRevision(c.space)
	for place, base := range c.places() {
		t.Run(place, func(t *testing.T) {
			post := func(name, tok string, body any, status int, want map[string]any) servertest.Scenario {
				return servertest.Scenario{Name: name, Method: http.MethodPost, Path: base, Token: tok, Body: body,
					WantStatus: status, WantJSON: want}
			}
			target := map[string]any{"space": c.space}
			if place == "change request" {
				target["changeRequest"] = c.cr
			} else {
				target["revision"] = rev
			}
			c.Run(t, []servertest.Scenario{
				post("a commenter posts", c.commenter, map[string]any{"body": md("Looks **good**")}, http.StatusOK,
					map[string]any{
						"object": "comment", "status": "open", "replies": 0, "reactions": []any{},
						"postedBy": map[string]any{"email": "commenter@example.com"},
						"body": map[string]any{"document": map[string]any{"object": "document"}},
						"target": target,
						"permissions": map[string]any{"view": true, "edit": true, "reply": true, "delete": true},
					}),
				post("on a page and a node", c.editor, map[string]any{"body": md("Typo"), "page": c.page, "node": "n1"},
					http.StatusOK, map[string]any{"target": map[string]any{
						"page": map[string]any{"id": c.page, "title": "Guide", "path": "guide", "outdated": false},
						"node": map[string]any{"id": "n1"},
					}}),
				post("a body of 64 KiB", c.admin, map[string]any{"body": md(strings.Repeat("a", 64<<10))}, http.StatusOK, nil),
				post("a body over 64 KiB", c.admin, map[string]any{"body": md(strings.Repeat("a", 64<<10+1))},
					http.StatusBadRequest, nil),
				post("no body", c.admin, map[string]any{"page": c.page}, http.StatusBadRequest, nil),
				post("an empty body", c.admin, map[string]any{"body": map[string]any{}}, http.StatusBadRequest, nil),
				post("blank markdown", c.admin, map[string]any{"body": md("  \n")}, http.StatusBadRequest, nil),
				post("a JSON document", c.admin, map[string]any{"body": map[string]any{"document": map[string]any{}}},
					http.StatusBadRequest, nil),
				post("an unknown page", c.admin, map[string]any{"body": md("x"), "page": "pg_nothere"}, http.StatusBadRequest, nil),
				post("a node without a page", c.admin, map[string]any{"body": md("x"), "node": "n1"}, http.StatusBadRequest, nil),
				post("tableCell", c.admin, map[string]any{"body": md("x"), "tableCell": map[string]any{}}, http.StatusBadRequest, nil),
				post("no token", "", map[string]any{"body": md("x")}, http.StatusUnauthorized, nil),
				post("a reader", c.reader, map[string]any{"body": md("x")}, http.StatusForbidden, nil),
				post("a stranger", c.stranger, map[string]any{"body": md("x")}, http.StatusNotFound, nil),
			})
		})
	}
	// The change request by its number is the same place.
	byNumber := "/v1/spaces/" + c.space + "/change-requests/" + c.crNo + "/comments"
	got := c.post(byNumber, c.admin, map[string]any{"body": md("By number")})
	assert.Equal(t, c.cr, ctAt(got, "target", "changeRequest"))
	// Counts: the space counts its open comments, the change request its own.
	assert.EqualValues(t, 3, c.MustDo(http.MethodGet, "/v1/spaces/"+c.space, c.admin, nil, http.StatusOK)["comments"])
	assert.EqualValues(t, 4, c.getCR(c.space, c.cr)["comments"])
}

func TestCommentAsMarkdown(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	base := c.places()["space"]
	cm := c.post(base, c.admin, map[string]any{"body": md("Hello *there*")})
	id := cm["id"].(string)
	got := c.MustDo(http.MethodGet, base+"/"+id+"?format=markdown", c.admin, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"markdown": "Hello *there*"}, got["body"])
	got = c.MustDo(http.MethodGet, base+"/"+id+"?format=document", c.admin, nil, http.StatusOK)
	require.NotNil(t, ctAt(got, "body", "document", "nodes"))
	c.MustDo(http.MethodGet, base+"/"+id+"?format=html", c.admin, nil, http.StatusBadRequest)
	list := c.MustDo(http.MethodGet, base+"?format=markdown", c.admin, nil, http.StatusOK)
	assert.Equal(t, "Hello *there*", ctAt(list, "items", 0, "body", "markdown"))
}
