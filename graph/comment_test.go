package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/server/servertest"
)

// cmRow is what a viewer may do with a comment on a space: the decision
// table of comments (internal/authz), checked through /v1, and the
// comment's permissions object derived from the same decision.
type cmRow struct {
	name   string
	role   enum.Role // "" is a guest of the organization; "stranger" is not a member
	author bool
	// What the viewer may do: see it, post a comment, reply or react,
	// resolve it, edit its body, delete it.
	view, post, reply, resolve, edit, remove bool
}

func TestCommentPermissions(t *testing.T) {
	t.Parallel()
	rows := []cmRow{
		{"admin", enum.RoleAdmin, false, true, true, true, true, true, true},
		{"create", enum.RoleCreate, false, true, true, true, true, false, false},
		{"review", enum.RoleReview, false, true, true, true, true, false, false},
		{"edit", enum.RoleEdit, false, true, true, true, true, false, false},
		{"comment", enum.RoleComment, false, true, true, true, true, false, false},
		{"comment, author", enum.RoleComment, true, true, true, true, true, true, true},
		{"read", enum.RoleRead, false, true, false, false, false, false, false},
		// A member whose role went down to read since keeps their comment.
		{"read, author", enum.RoleRead, true, true, false, false, false, true, true},
		{"guest", "", false, false, false, false, false, false, false},
		{"stranger", "stranger", false, false, false, false, false, false, false},
	}
	e := servertest.New(t)
	ctx := context.Background()
	space := spCreate(t, e, e.OwnerToken, "Discussed", nil)
	base := "/v1/spaces/" + space + "/comments"
	sp, err := e.Client.Space.Get(ctx, space)
	require.NoError(t, err)
	for i, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			email := fmt.Sprintf("viewer%d@example.com", i)
			var tok, userID string
			switch row.role {
			case "stranger":
				u := e.User(email)
				tok, userID = e.Token(u), u.ID
			default:
				var u *ent.User
				tok, u = e.Member(e.Org.ID, row.role, email)
				userID = u.ID
			}
			author := e.Owner.ID
			if row.author {
				author = userID
			}
			post := func() string {
				c, err := e.Client.Comment.Create().SetSpaceID(space).SetNillableRevisionID(sp.RevisionID).
					SetBody("Hello").SetPostedByID(author).Save(ctx)
				require.NoError(t, err)
				return c.ID
			}
			id := post()
			// want is the status of an action the viewer may or may not take.
			want := func(allowed bool) int {
				switch {
				case !row.view:
					return http.StatusNotFound
				case !allowed:
					return http.StatusForbidden
				}
				return http.StatusOK
			}
			res := e.Do(http.MethodGet, base+"/"+id, tok, nil)
			require.Equal(t, want(true), res.Status, "%s", res.Body)
			if row.view {
				assert.Equal(t, map[string]any{"view": true, "edit": row.edit, "reply": row.reply, "delete": row.remove},
					res.JSON()["permissions"])
				var data struct {
					Node struct {
						Permissions map[string]any
					}
				}
				e.GraphQL(tok, `query($id: ID!) { node(id: $id) { ... on Comment { permissions { view edit reply delete } } } }`,
					map[string]any{"id": id}).Into(t, &data)
				assert.Equal(t, res.JSON()["permissions"], data.Node.Permissions, "GraphQL derives the same permissions")
			}
			body := map[string]any{"body": map[string]any{"markdown": "Hi"}}
			for _, c := range []struct {
				action  string
				method  string
				path    string
				body    any
				allowed bool
			}{
				{"post", http.MethodPost, base, body, row.post},
				{"reply", http.MethodPost, base + "/" + id + "/replies", body, row.reply},
				{"react", http.MethodPut, base + "/" + id, map[string]any{"addedReactions": []string{"👍"}}, row.reply},
				{"resolve", http.MethodPut, base + "/" + id, map[string]any{"resolved": true}, row.resolve},
				{"edit", http.MethodPut, base + "/" + id, map[string]any{"body": map[string]any{"markdown": "Edited"}}, row.edit},
			} {
				res := e.Do(c.method, c.path, tok, c.body)
				assert.Equal(t, want(c.allowed), res.Status, "%s: %s", c.action, res.Body)
			}
			status := want(row.remove)
			if status == http.StatusOK {
				status = http.StatusNoContent
			}
			res = e.Do(http.MethodDelete, base+"/"+id, tok, nil)
			assert.Equal(t, status, res.Status, "delete: %s", res.Body)
		})
	}
}

// cmNext returns the next event of a subscription, or fails.
func cmNext(t *testing.T, ch <-chan events.Event) events.Event {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event was published")
		return events.Event{}
	}
}

// cmNone requires that nothing more was published: on PostgreSQL, events
// come back through LISTEN, a little after the response.
func cmNone(t *testing.T, ch <-chan events.Event) {
	t.Helper()
	select {
	case ev := <-ch:
		t.Fatalf("unexpected event %s about %s", ev.Kind, ev.Subject)
	case <-time.After(50 * time.Millisecond):
	}
}

// Each comment mutation publishes its event once its transaction commits,
// on the topic of the comments of its space or change request; one that
// rolls back publishes nothing. In one process (SQLite) events are waiting
// when the response arrives; through PostgreSQL, soon after.
func TestCommentEvents(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	space := spCreate(t, e, e.OwnerToken, "Evented", nil)
	cr := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
	bus := e.Server.Resolver().Bus()
	onSpace, err := bus.Subscribe(ctx, events.CommentsTopic(space, ""))
	require.NoError(t, err)
	onCR, err := bus.Subscribe(ctx, events.CommentsTopic(space, cr))
	require.NoError(t, err)
	md := func(s string) map[string]any { return map[string]any{"body": map[string]any{"markdown": s}} }
	expect := func(ch <-chan events.Event, kind events.Kind, subject, reply string) {
		t.Helper()
		ev := cmNext(t, ch)
		assert.Equal(t, kind, ev.Kind)
		assert.Equal(t, subject, ev.Subject)
		assert.Equal(t, reply, ev.Reply)
		cmNone(t, ch)
	}

	base := "/v1/spaces/" + space + "/comments"
	id := e.MustDo(http.MethodPost, base, e.OwnerToken, md("Hi"), http.StatusOK)["id"].(string)
	expect(onSpace, events.CommentPosted, id, "")
	cmNone(t, onCR)
	e.MustDo(http.MethodPut, base+"/"+id, e.OwnerToken, md("Hello"), http.StatusOK)
	expect(onSpace, events.CommentEdited, id, "")
	e.MustDo(http.MethodPut, base+"/"+id, e.OwnerToken, map[string]any{"resolved": true}, http.StatusOK)
	expect(onSpace, events.CommentResolved, id, "")
	e.MustDo(http.MethodPut, base+"/"+id, e.OwnerToken, map[string]any{"resolved": true}, http.StatusOK)
	cmNone(t, onSpace) // nothing changed
	e.MustDo(http.MethodPut, base+"/"+id, e.OwnerToken, map[string]any{"resolved": false}, http.StatusOK)
	expect(onSpace, events.CommentReopened, id, "")
	e.MustDo(http.MethodPut, base+"/"+id, e.OwnerToken, map[string]any{"addedReactions": []string{"👍"}}, http.StatusOK)
	expect(onSpace, events.CommentReactions, id, "")
	reply := e.MustDo(http.MethodPost, base+"/"+id+"/replies", e.OwnerToken, md("Re"), http.StatusOK)["id"].(string)
	expect(onSpace, events.ReplyPosted, id, reply)
	e.MustDo(http.MethodPut, base+"/"+id+"/replies/"+reply, e.OwnerToken, md("Re:"), http.StatusOK)
	expect(onSpace, events.ReplyEdited, id, reply)
	e.MustDo(http.MethodPut, base+"/"+id+"/replies/"+reply, e.OwnerToken, map[string]any{"addedReactions": []string{"👀"}}, http.StatusOK)
	expect(onSpace, events.ReplyReactions, id, reply)
	e.MustDo(http.MethodDelete, base+"/"+id+"/replies/"+reply, e.OwnerToken, nil, http.StatusNoContent)
	expect(onSpace, events.ReplyDeleted, id, reply)

	// A reader who wrote a comment may edit it but not resolve it: asked
	// for both, the edit is made, then the request fails, and the
	// transaction rolls back with the event the edit emitted.
	tok, u := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	sp, err := e.Client.Space.Get(ctx, space)
	require.NoError(t, err)
	c, err := e.Client.Comment.Create().SetSpaceID(space).SetNillableRevisionID(sp.RevisionID).SetBody("Mine").
		SetPostedByID(u.ID).Save(ctx)
	require.NoError(t, err)
	body := md("Edited")
	body["resolved"] = true
	e.MustDo(http.MethodPut, base+"/"+c.ID, tok, body, http.StatusForbidden)
	cmNone(t, onSpace)
	got := e.MustDo(http.MethodGet, base+"/"+c.ID+"?format=markdown", tok, nil, http.StatusOK)
	assert.Equal(t, "Mine", got["body"].(map[string]any)["markdown"], "rolled back")
	e.MustDo(http.MethodPut, base+"/"+c.ID, tok, md("Edited"), http.StatusOK)
	expect(onSpace, events.CommentEdited, c.ID, "")

	e.MustDo(http.MethodDelete, base+"/"+id, e.OwnerToken, nil, http.StatusNoContent)
	expect(onSpace, events.CommentDeleted, id, "")

	// A change request's comments have their own topic; resolving through a
	// reply is the comment's event.
	crBase := "/v1/spaces/" + space + "/change-requests/" + cr + "/comments"
	onThread := e.MustDo(http.MethodPost, crBase, e.OwnerToken, md("On the change"), http.StatusOK)["id"].(string)
	expect(onCR, events.CommentPosted, onThread, "")
	cmNone(t, onSpace)
	r2 := e.MustDo(http.MethodPost, crBase+"/"+onThread+"/replies", e.OwnerToken, md("Done"), http.StatusOK)["id"].(string)
	expect(onCR, events.ReplyPosted, onThread, r2)
	e.MustDo(http.MethodPut, crBase+"/"+onThread+"/replies/"+r2, e.OwnerToken, map[string]any{"resolved": true}, http.StatusOK)
	expect(onCR, events.CommentResolved, onThread, "")
}

// The GraphQL operations of discussions, through the resolver methods /v1
// calls.
func TestCommentsInGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := spCreate(t, e, e.OwnerToken, "Talk", nil)
	cr := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
	commenter, cu := e.Member(e.Org.ID, enum.RoleComment, "commenter@example.com")
	reader, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	_ = e.User("outsider@example.com") // not a member: cannot be mentioned
	gql := func(tok, q string, vars map[string]any) map[string]any {
		t.Helper()
		var out map[string]any
		e.GraphQL(tok, q, vars).Into(t, &out)
		return out
	}
	const post = `mutation($in: PostCommentInput!) { postComment(input: $in) { comment { id status replyCount
	  body { markdown document } target { space { id } changeRequest { id } revision { id } page { id } }
	  postedBy { id } mentions { id } permissions { edit } urls { location } } } }`
	d := gql(commenter, post, map[string]any{"in": map[string]any{"spaceId": space,
		"markdown": "Hey @Commenter@Example.com and @outsider@example.com, see [me](http://bindery.test/v1/users/" + e.Owner.ID + ")"}})
	c := lsAt(d, "postComment.comment").(map[string]any)
	id := c["id"].(string)
	assert.Equal(t, "OPEN", c["status"])
	assert.EqualValues(t, 0, c["replyCount"])
	assert.Equal(t, space, lsAt(c, "target.space.id"))
	assert.Nil(t, lsAt(c, "target.changeRequest"))
	assert.NotNil(t, lsAt(c, "target.revision.id"))
	assert.Equal(t, "document", lsAt(c, "body.document.object"))
	assert.Equal(t, cu.ID, lsAt(c, "postedBy.id"))
	assert.Equal(t, "http://bindery.test/v1/spaces/"+space+"/comments/"+id, lsAt(c, "urls.location"))
	mentioned := []string{}
	for _, m := range c["mentions"].([]any) {
		mentioned = append(mentioned, m.(map[string]any)["id"].(string))
	}
	assert.ElementsMatch(t, []string{cu.ID, e.Owner.ID}, mentioned, "members mentioned by @email or link; not an outsider")

	onCR := lsAt(gql(e.OwnerToken, post, map[string]any{"in": map[string]any{"changeRequestId": cr, "markdown": "On the change"}}),
		"postComment.comment").(map[string]any)
	assert.Equal(t, cr, lsAt(onCR, "target.changeRequest.id"))

	for name, tc := range map[string]struct {
		tok  string
		in   map[string]any
		code string
	}{
		"empty markdown":     {commenter, map[string]any{"spaceId": space, "markdown": " "}, "BAD_USER_INPUT"},
		"over 64 KiB":        {commenter, map[string]any{"spaceId": space, "markdown": string(make([]byte, 64<<10+1))}, "BAD_USER_INPUT"},
		"both places":        {commenter, map[string]any{"spaceId": space, "changeRequestId": cr, "markdown": "x"}, "BAD_USER_INPUT"},
		"a reader":           {reader, map[string]any{"spaceId": space, "markdown": "x"}, "FORBIDDEN"},
		"an unknown space":   {commenter, map[string]any{"spaceId": "spc_nope", "markdown": "x"}, "NOT_FOUND"},
		"an unknown request": {commenter, map[string]any{"changeRequestId": "cr_nope", "markdown": "x"}, "NOT_FOUND"},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.code, e.GraphQL(tc.tok, post, map[string]any{"in": tc.in}).Code())
		})
	}

	reply := lsAt(gql(e.OwnerToken, `mutation($id: ID!) { postCommentReply(input: {commentId: $id, markdown: "Sure"}) {
	  reply { id comment { id } body { markdown } } } }`, map[string]any{"id": id}), "postCommentReply.reply").(map[string]any)
	replyID := reply["id"].(string)
	assert.Equal(t, id, lsAt(reply, "comment.id"))
	gql(commenter, `mutation($id: ID!) { addReaction(input: {subjectId: $id, emoji: "👍"}) { comment { id } reply { id } } }`,
		map[string]any{"id": replyID})
	assert.Equal(t, "FORBIDDEN", e.GraphQL(reader, `mutation($id: ID!) { addReaction(input: {subjectId: $id, emoji: "👍"}) {
	  comment { id } } }`, map[string]any{"id": id}).Code())
	assert.Equal(t, "NOT_FOUND", e.GraphQL(commenter, `mutation { addReaction(input: {subjectId: "spc_x", emoji: "👍"}) {
	  comment { id } } }`, nil).Code())
	d = gql(reader, `query($id: ID!) { node(id: $id) { ... on CommentReply { id reactions { emoji count users { user { id } } }
	  permissions { view edit reply delete } } } }`, map[string]any{"id": replyID})
	assert.Equal(t, "👍", lsAt(d, "node.reactions").([]any)[0].(map[string]any)["emoji"])
	assert.Equal(t, map[string]any{"view": true, "edit": false, "reply": false, "delete": false}, lsAt(d, "node.permissions"))

	gql(commenter, `mutation($id: ID!) { updateComment(input: {id: $id, markdown: "Edited", addedReactions: ["🎉"]}) {
	  comment { editedAt } } }`, map[string]any{"id": id})
	d = gql(e.OwnerToken, `mutation($id: ID!) { resolveComment(input: {id: $id}) { comment { status resolvedAt resolvedBy { id } } } }`,
		map[string]any{"id": id})
	assert.Equal(t, "RESOLVED", lsAt(d, "resolveComment.comment.status"))
	assert.Equal(t, e.Owner.ID, lsAt(d, "resolveComment.comment.resolvedBy.id"))
	gql(commenter, `mutation($id: ID!) { removeReaction(input: {subjectId: $id, emoji: "🎉"}) { comment { id } } }`,
		map[string]any{"id": id})

	const list = `query($s: ID!, $cr: ID!, $status: CommentStatus) {
	  space(id: $s) { all: comments { totalCount } filtered: comments(status: $status, order: ASC, first: 10) {
	    totalCount nodes { id body { markdown } reactions { emoji } replyCount editedAt
	      replies(first: 5) { totalCount nodes { id body { markdown } } } } } }
	  node(id: $cr) { ... on ChangeRequest { commentCount comments { totalCount nodes { id } } } } }`
	d = gql(reader, list, map[string]any{"s": space, "cr": cr, "status": "RESOLVED"})
	assert.EqualValues(t, 1, lsAt(d, "space.all.totalCount"))
	got := lsItems(t, d, "space.filtered")
	require.Len(t, got, 1)
	assert.Equal(t, "Edited", lsAt(got[0], "body.markdown"))
	assert.Empty(t, lsAt(got[0], "reactions"))
	assert.NotNil(t, lsAt(got[0], "editedAt"))
	assert.EqualValues(t, 1, lsAt(got[0], "replyCount"))
	assert.Equal(t, "Sure", lsAt(lsItems(t, got[0], "replies")[0], "body.markdown"))
	assert.EqualValues(t, 1, lsAt(d, "node.commentCount"))
	assert.Equal(t, onCR["id"], lsAt(lsItems(t, d, "node.comments")[0], "id"))
	d = gql(reader, list, map[string]any{"s": space, "cr": cr, "status": "OPEN"})
	assert.Empty(t, lsItems(t, d, "space.filtered"))

	assert.Equal(t, "FORBIDDEN", e.GraphQL(commenter, `mutation($id: ID!) { deleteCommentReply(input: {id: $id}) {
	  deletedCommentReplyId } }`, map[string]any{"id": replyID}).Code())
	gql(e.OwnerToken, `mutation($id: ID!) { updateCommentReply(input: {id: $id, markdown: "Sure!"}) { reply { editedAt } } }`,
		map[string]any{"id": replyID})
	gql(e.OwnerToken, `mutation($id: ID!) { deleteCommentReply(input: {id: $id}) { deletedCommentReplyId } }`,
		map[string]any{"id": replyID})
	d = gql(commenter, `mutation($id: ID!) { deleteComment(input: {id: $id}) { deletedCommentId } }`, map[string]any{"id": id})
	assert.Equal(t, id, lsAt(d, "deleteComment.deletedCommentId"))
	d = gql(commenter, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": []string{id, replyID}})
	assert.Equal(t, []any{nil, nil}, d["nodes"])
}
