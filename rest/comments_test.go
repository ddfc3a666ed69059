package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

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
						"postedBy":    map[string]any{"email": "commenter@example.com"},
						"body":        map[string]any{"document": map[string]any{"object": "document"}},
						"target":      target,
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

func TestUpdateComment(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	for place, base := range c.places() {
		t.Run(place, func(t *testing.T) {
			id := c.post(base, c.commenter, map[string]any{"body": md("First")})["id"].(string)
			path := base + "/" + id
			put := func(name, tok string, body any, status int, want map[string]any) servertest.Scenario {
				return servertest.Scenario{Name: name, Method: http.MethodPut, Path: path, Token: tok, Body: body,
					WantStatus: status, WantJSON: want}
			}
			noEdit := func(t *testing.T, res *servertest.Response) { assert.Nil(t, ctDecode(t, res)["editedAt"]) }
			c.Run(t, []servertest.Scenario{
				put("nothing changes", c.commenter, map[string]any{}, http.StatusOK, map[string]any{"status": "open"}),
				{Name: "no edit yet", Method: http.MethodGet, Path: path, Token: c.reader, WantStatus: http.StatusOK, Check: noEdit,
					WantJSON: map[string]any{"permissions": map[string]any{"view": true, "edit": false, "reply": false, "delete": false}}},
				put("the author edits", c.commenter, map[string]any{"body": md("Second")}, http.StatusOK, nil),
				{Name: "edited", Method: http.MethodGet, Path: path + "?format=markdown", Token: c.admin, WantStatus: http.StatusOK,
					WantJSON: map[string]any{"body": md("Second")},
					Check:    func(t *testing.T, res *servertest.Response) { assert.NotEmpty(t, ctDecode(t, res)["editedAt"]) }},
				put("an admin edits", c.admin, map[string]any{"body": md("Third")}, http.StatusOK, nil),
				put("an editor who is not the author", c.editor, map[string]any{"body": md("Mine")}, http.StatusForbidden, nil),
				put("a reader", c.reader, map[string]any{"body": md("Mine")}, http.StatusForbidden, nil),
				put("over 64 KiB", c.commenter, map[string]any{"body": md(strings.Repeat("b", 64<<10+1))}, http.StatusBadRequest, nil),
				put("a null body", c.commenter, map[string]any{"body": nil}, http.StatusBadRequest, nil),
				put("resolved not a boolean", c.commenter, map[string]any{"resolved": "yes"}, http.StatusBadRequest, nil),
				put("a reader resolves", c.reader, map[string]any{"resolved": true}, http.StatusForbidden, nil),
				put("an editor resolves", c.editor, map[string]any{"resolved": true}, http.StatusOK, map[string]any{
					"status": "resolved", "resolvedBy": map[string]any{"email": "editor@example.com"},
				}),
				put("resolving again changes nothing", c.commenter, map[string]any{"resolved": true}, http.StatusOK,
					map[string]any{"status": "resolved", "resolvedBy": map[string]any{"email": "editor@example.com"}}),
				put("reopened", c.commenter, map[string]any{"resolved": false}, http.StatusOK, nil),
				{Name: "open again", Method: http.MethodGet, Path: path, Token: c.admin, WantStatus: http.StatusOK,
					WantJSON: map[string]any{"status": "open"}, Check: func(t *testing.T, res *servertest.Response) {
						b := ctDecode(t, res)
						assert.Nil(t, b["resolvedAt"])
						assert.Nil(t, b["resolvedBy"])
					}},
				put("no token", "", map[string]any{}, http.StatusUnauthorized, nil),
				put("a stranger", c.stranger, map[string]any{}, http.StatusNotFound, nil),
			})
		})
	}
}

func TestCommentReactions(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	for place, base := range c.places() {
		t.Run(place, func(t *testing.T) {
			id := c.post(base, c.admin, map[string]any{"body": md("React")})["id"].(string)
			path := base + "/" + id
			react := func(tok string, added, removed []string) map[string]any {
				t.Helper()
				body := map[string]any{}
				if added != nil {
					body["addedReactions"] = added
				}
				if removed != nil {
					body["removedReactions"] = removed
				}
				return c.MustDo(http.MethodPut, path, tok, body, http.StatusOK)
			}
			react(c.commenter, []string{"👍", "🎉"}, nil)
			react(c.commenter, []string{"👍"}, nil) // once per user per emoji
			got := react(c.editor, []string{"👍"}, nil)
			require.Len(t, got["reactions"], 2)
			thumbs := cmReaction(got, "👍")
			assert.EqualValues(t, 2, thumbs["count"])
			assert.Equal(t, "commenter@example.com", ctAt(thumbs, "users", 0, "user", "email"), "first to react first")
			assert.Equal(t, "editor@example.com", ctAt(thumbs, "users", 1, "user", "email"))
			assert.NotEmpty(t, ctAt(thumbs, "users", 0, "reactedAt"))
			assert.EqualValues(t, 1, cmReaction(got, "🎉")["count"])
			got = react(c.commenter, nil, []string{"👍", "🚀"}) // removing one never added changes nothing
			require.Len(t, got["reactions"], 2)
			thumbs = cmReaction(got, "👍")
			assert.EqualValues(t, 1, thumbs["count"])
			assert.Equal(t, "editor@example.com", ctAt(thumbs, "users", 0, "user", "email"))
			got = react(c.commenter, nil, []string{"🎉"})
			assert.Len(t, got["reactions"], 1, "an emoji nobody reacts with is gone")
			c.MustDo(http.MethodPut, path, c.reader, map[string]any{"addedReactions": []string{"👍"}}, http.StatusForbidden)
			c.MustDo(http.MethodPut, path, c.admin, map[string]any{"addedReactions": []string{"a b"}}, http.StatusBadRequest)
			c.MustDo(http.MethodPut, path, c.admin, map[string]any{"addedReactions": []string{""}}, http.StatusBadRequest)
			c.MustDo(http.MethodPut, path, c.admin, map[string]any{"addedReactions": []string{"👍"},
				"removedReactions": []string{"👍"}}, http.StatusBadRequest)
			c.MustDo(http.MethodPut, path, c.admin, map[string]any{"addedReactions": "👍"}, http.StatusBadRequest)
		})
	}
}

func TestCommentReplies(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	for place, base := range c.places() {
		t.Run(place, func(t *testing.T) {
			cm := c.post(base, c.admin, map[string]any{"body": md("Thread")})["id"].(string)
			replies := base + "/" + cm + "/replies"
			first := c.MustDo(http.MethodPost, replies, c.commenter, map[string]any{"body": md("One")}, http.StatusOK)
			servertest.AssertContains(t, map[string]any{
				"object": "comment-reply", "postedBy": map[string]any{"email": "commenter@example.com"}, "reactions": []any{},
				"body":        map[string]any{"document": map[string]any{"object": "document"}},
				"urls":        map[string]any{"location": "http://bindery.test" + replies + "/" + first["id"].(string)},
				"permissions": map[string]any{"view": true, "edit": true, "reply": true, "delete": true},
			}, first)
			reply := replies + "/" + first["id"].(string)
			c.MustDo(http.MethodPost, replies, c.editor, map[string]any{"body": md("Two")}, http.StatusOK)
			c.MustDo(http.MethodPost, replies, c.reader, map[string]any{"body": md("No")}, http.StatusForbidden)
			c.MustDo(http.MethodPost, replies, c.admin, map[string]any{}, http.StatusBadRequest)
			c.MustDo(http.MethodPost, replies, c.admin, map[string]any{"body": md(strings.Repeat("c", 64<<10+1))}, http.StatusBadRequest)
			c.MustDo(http.MethodPost, replies, "", map[string]any{"body": md("x")}, http.StatusUnauthorized)

			list := c.MustDo(http.MethodGet, replies+"?format=markdown", c.reader, nil, http.StatusOK)
			assert.EqualValues(t, 2, list["count"])
			assert.Equal(t, "One", ctAt(list, "items", 0, "body", "markdown"), "oldest first")
			assert.Equal(t, "Two", ctAt(list, "items", 1, "body", "markdown"))
			page := c.MustDo(http.MethodGet, replies+"?limit=1", c.reader, nil, http.StatusOK)
			require.NotNil(t, page["next"])
			assert.EqualValues(t, 2, c.MustDo(http.MethodGet, base+"/"+cm, c.reader, nil, http.StatusOK)["replies"])

			got := c.MustDo(http.MethodGet, reply+"?format=markdown", c.reader, nil, http.StatusOK)
			assert.Equal(t, md("One"), got["body"])
			c.MustDo(http.MethodPut, reply, c.editor, map[string]any{"body": md("Edit")}, http.StatusForbidden)
			edited := c.MustDo(http.MethodPut, reply, c.commenter, map[string]any{"body": md("One, edited"),
				"addedReactions": []string{"👀"}}, http.StatusOK)
			assert.NotEmpty(t, edited["editedAt"])
			assert.EqualValues(t, 1, ctAt(edited, "reactions", 0, "count"))
			c.MustDo(http.MethodPut, reply, c.reader, map[string]any{"addedReactions": []string{"👀"}}, http.StatusForbidden)

			// resolved on a reply resolves the thread of a change request's
			// comment; a space comment's reply has none.
			res := c.Do(http.MethodPut, reply, c.commenter, map[string]any{"resolved": true})
			if place == "space" {
				assert.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
			} else {
				assert.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
				assert.Equal(t, "resolved", c.MustDo(http.MethodGet, base+"/"+cm, c.admin, nil, http.StatusOK)["status"])
			}

			c.MustDo(http.MethodDelete, reply, c.editor, nil, http.StatusForbidden)
			c.MustDo(http.MethodDelete, reply, c.commenter, nil, http.StatusNoContent)
			c.MustDo(http.MethodGet, reply, c.admin, nil, http.StatusNotFound)
			c.MustDo(http.MethodDelete, reply, c.commenter, nil, http.StatusNotFound)
			assert.EqualValues(t, 1, c.MustDo(http.MethodGet, base+"/"+cm, c.reader, nil, http.StatusOK)["replies"])
		})
	}
}

func TestDeleteComment(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	for place, base := range c.places() {
		t.Run(place, func(t *testing.T) {
			mine := c.post(base, c.commenter, map[string]any{"body": md("Mine")})["id"].(string)
			theirs := c.post(base, c.editor, map[string]any{"body": md("Theirs")})["id"].(string)
			reply := c.MustDo(http.MethodPost, base+"/"+mine+"/replies", c.editor, map[string]any{"body": md("Re")},
				http.StatusOK)["id"].(string)
			c.MustDo(http.MethodPut, base+"/"+mine+"/replies/"+reply, c.admin, map[string]any{"addedReactions": []string{"👍"}}, http.StatusOK)
			c.MustDo(http.MethodPut, base+"/"+mine, c.admin, map[string]any{"addedReactions": []string{"👍"}}, http.StatusOK)
			c.Run(t, []servertest.Scenario{
				{Name: "not the author", Method: http.MethodDelete, Path: base + "/" + theirs, Token: c.commenter,
					WantStatus: http.StatusForbidden},
				{Name: "no token", Method: http.MethodDelete, Path: base + "/" + mine, WantStatus: http.StatusUnauthorized},
				{Name: "the author", Method: http.MethodDelete, Path: base + "/" + mine, Token: c.commenter,
					WantStatus: http.StatusNoContent},
				{Name: "gone", Method: http.MethodGet, Path: base + "/" + mine, Token: c.admin, WantStatus: http.StatusNotFound},
				{Name: "its reply is gone", Method: http.MethodGet, Path: base + "/" + mine + "/replies/" + reply, Token: c.admin,
					WantStatus: http.StatusNotFound},
				{Name: "again", Method: http.MethodDelete, Path: base + "/" + mine, Token: c.commenter, WantStatus: http.StatusNotFound},
				{Name: "an admin", Method: http.MethodDelete, Path: base + "/" + theirs, Token: c.admin,
					WantStatus: http.StatusNoContent},
			})
			left, err := c.Client.CommentReply.Query().Count(t.Context())
			require.NoError(t, err)
			reactions, err := c.Client.Reaction.Query().Count(t.Context())
			require.NoError(t, err)
			assert.Zero(t, left+reactions, "a deleted comment's replies and reactions are deleted")
		})
	}
}

// cmReaction is the reaction with an emoji of a comment or reply.
func cmReaction(v map[string]any, emoji string) map[string]any {
	for _, r := range v["reactions"].([]any) {
		if r := r.(map[string]any); r["emoji"] == emoji {
			return r
		}
	}
	return nil
}

func TestListComments(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	for place, base := range c.places() {
		t.Run(place, func(t *testing.T) {
			// A page of the content the comments are on.
			target := map[string]any{"spaceId": c.space}
			if place == "change request" {
				target = map[string]any{"changeRequestId": c.cr}
			}
			other := c.createPage(target, "Other", "Other page.")
			var ids []string
			for _, body := range []map[string]any{
				{"body": md("one"), "page": c.page},
				{"body": md("two")},
				{"body": md("three"), "page": c.page},
				{"body": md("four"), "page": other},
			} {
				ids = append(ids, c.post(base, c.commenter, body)["id"].(string))
				c.Clock.Advance(time.Second)
			}
			c.MustDo(http.MethodPut, base+"/"+ids[1], c.admin, map[string]any{"resolved": true}, http.StatusOK)
			list := func(query string) []string {
				t.Helper()
				var out []string
				for _, it := range c.MustDo(http.MethodGet, base+query, c.reader, nil, http.StatusOK)["items"].([]any) {
					out = append(out, it.(map[string]any)["id"].(string))
				}
				return out
			}
			rev := func(s []string) []string { return []string{s[3], s[2], s[1], s[0]} }
			assert.Equal(t, rev(ids), list(""), "newest first by default")
			assert.Equal(t, rev(ids), list("?order=desc&status=all"))
			assert.Equal(t, ids, list("?order=asc"))
			assert.Equal(t, []string{ids[0], ids[2], ids[3]}, list("?order=asc&status=open"))
			assert.Equal(t, []string{ids[1]}, list("?status=resolved"))
			assert.Equal(t, []string{ids[2], ids[0]}, list("?targetPage="+c.page))
			assert.Equal(t, []string{ids[2]}, list("?targetPage="+c.page+"&status=open&limit=1"))
			assert.Empty(t, list("?targetPage=pg_none"))
			assert.Equal(t, rev(ids), c.Walk(t, base, c.reader, 1), "every page once")
			for _, q := range []string{"?order=up", "?status=closed", "?format=pdf", "?limit=1001", "?authors=usr_1", "?page=nope"} {
				c.MustDo(http.MethodGet, base+q, c.reader, nil, http.StatusBadRequest)
			}
			c.MustDo(http.MethodGet, base, "", nil, http.StatusUnauthorized)
			c.MustDo(http.MethodGet, base, c.stranger, nil, http.StatusNotFound)
			c.MustDo(http.MethodGet, base, c.guest, nil, http.StatusNotFound)
		})
	}
	// Counts count open comments: 3 of each place's 4.
	assert.EqualValues(t, 3, c.MustDo(http.MethodGet, "/v1/spaces/"+c.space, c.admin, nil, http.StatusOK)["comments"])
	assert.EqualValues(t, 3, c.getCR(c.space, c.cr)["comments"])
	crs := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/change-requests", c.admin, nil, http.StatusOK)
	assert.EqualValues(t, 3, ctAt(crs, "items", 0, "comments"))
}

func TestCommentTargetOutdated(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	base := c.places()["space"]
	id := c.post(base, c.admin, map[string]any{"body": md("On guide"), "page": c.page})["id"].(string)
	gone := c.createPage(map[string]any{"spaceId": c.space}, "Doomed", "Soon gone.")
	onGone := c.post(base, c.admin, map[string]any{"body": md("On doomed"), "page": gone})["id"].(string)
	outdated := func(id string) any {
		return ctAt(c.MustDo(http.MethodGet, base+"/"+id, c.admin, nil, http.StatusOK), "target", "page", "outdated")
	}
	assert.Equal(t, false, outdated(id))
	c.gql(c.admin, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": c.space, "pageId": c.page, "markdown": "# Guide\n\nChanged."}})
	assert.Equal(t, true, outdated(id), "the page changed since")
	assert.Equal(t, false, outdated(onGone))
	c.gql(c.admin, `mutation($in: DeletePageInput!) { deletePage(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": c.space, "pageId": gone}})
	got := c.MustDo(http.MethodGet, base+"/"+onGone, c.admin, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"id": gone, "title": "Doomed", "path": "doomed", "outdated": true},
		ctAt(got, "target", "page"))
}

func TestCommentNotFound(t *testing.T) {
	t.Parallel()
	c := newCmEnv(t)
	spaceBase, crBase := c.places()["space"], c.places()["change request"]
	onSpace := c.post(spaceBase, c.admin, map[string]any{"body": md("x")})["id"].(string)
	onCR := c.post(crBase, c.admin, map[string]any{"body": md("x")})["id"].(string)
	reply := c.MustDo(http.MethodPost, spaceBase+"/"+onSpace+"/replies", c.admin, map[string]any{"body": md("r")},
		http.StatusOK)["id"].(string)
	otherSpace := c.newSpace("Other", false)
	otherBase := "/v1/spaces/" + otherSpace + "/comments"
	inOther := c.post(otherBase, c.admin, map[string]any{"body": md("x")})["id"].(string)
	secondCR := c.createCR(c.space, c.admin, nil)["id"].(string)
	secondBase := "/v1/spaces/" + c.space + "/change-requests/" + secondCR + "/comments"
	foreign := c.otherSpace()
	var scs []servertest.Scenario
	for _, m := range []struct {
		method string
		body   any
	}{{http.MethodGet, nil}, {http.MethodPut, map[string]any{}}, {http.MethodDelete, nil}} {
		for name, path := range map[string]string{
			"an unknown comment":                  spaceBase + "/cmt_doesnotexist",
			"a comment of another space":          spaceBase + "/" + inOther,
			"a change request's comment as space": spaceBase + "/" + onCR,
			"a space comment in a change request": crBase + "/" + onSpace,
			"a comment of another change request": secondBase + "/" + onCR,
			"an unknown space":                    "/v1/spaces/spc_doesnotexist/comments/" + onSpace,
			"another organization's space":        "/v1/spaces/" + foreign + "/comments/" + onSpace,
			"an unknown change request":           "/v1/spaces/" + c.space + "/change-requests/99/comments/" + onCR,
			"an unknown reply":                    spaceBase + "/" + onSpace + "/replies/rpl_doesnotexist",
			"a reply of another comment":          otherBase + "/" + inOther + "/replies/" + reply,
			"a reply as a comment":                spaceBase + "/" + reply,
		} {
			scs = append(scs, servertest.Scenario{Name: m.method + " " + name, Method: m.method, Path: path,
				Token: c.admin, Body: m.body, WantStatus: http.StatusNotFound})
		}
	}
	scs = append(scs,
		servertest.Scenario{Name: "replies of an unknown comment", Method: http.MethodGet, Path: spaceBase + "/cmt_x/replies",
			Token: c.admin, WantStatus: http.StatusNotFound},
		servertest.Scenario{Name: "posting a reply to a comment of another space", Method: http.MethodPost,
			Path: spaceBase + "/" + inOther + "/replies", Token: c.admin, Body: map[string]any{"body": md("x")},
			WantStatus: http.StatusNotFound},
		servertest.Scenario{Name: "a comment a stranger cannot see", Method: http.MethodGet, Path: spaceBase + "/" + onSpace,
			Token: c.stranger, WantStatus: http.StatusNotFound},
	)
	c.Run(t, scs)
}
