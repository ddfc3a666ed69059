package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/clock"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// The statement bounds of discussions: their lists (lsCommentCases, part of
// lsCases) and their posts (wrCommentCases, part of wrCases).

// lsTalkIDs names what lsTalk made.
type lsTalkIDs struct {
	space, cr string
	// thread and crThread are the first comments of the space and of the
	// change request, each with n replies.
	thread, crThread string
	// busy is a comment of another space with n reactions of the owner
	// (one emoji each) and n mentions; crowd one with n users' 👍; busyReply
	// a reply with n reactions and n mentions.
	busy, crowd, busyReply string
}

// lsTalk makes n comments on the main content of a space and n on a change
// request, on a page, each by another member, with reactions, a mention and
// a reply; every other one resolved. The first of each has n replies.
func lsTalk(t *testing.T, e *servertest.Env, n int) lsTalkIDs {
	t.Helper()
	ctx := context.Background()
	ids := lsTalkIDs{space: lsLiveSpace(t, e)}
	page := lsAt(lsGQL(t, e, e.OwnerToken, `mutation($s: ID!) { createPage(input: {spaceId: $s, title: "Guide", markdown: "Hi"}) {
	  page { id } } }`, map[string]any{"s": ids.space}), "createPage.page.id").(string)
	ids.cr = e.MustDo(http.MethodPost, "/v1/spaces/"+ids.space+"/change-requests", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
	users := make([]string, n)
	for i := range users {
		_, u := e.Member(e.Org.ID, enum.RoleComment, fmt.Sprintf("talker%d@example.com", i))
		users[i] = u.ID
	}
	s, err := e.Client.Space.Get(ctx, ids.space)
	require.NoError(t, err)
	cr, err := e.Client.ChangeRequest.Get(ctx, ids.cr)
	require.NoError(t, err)
	react := func(b *ent.ReactionCreate, user, emoji string) *ent.ReactionCreate {
		return b.SetUserID(user).SetEmoji(emoji)
	}
	reply := func(comment, by string) string {
		rp, err := e.Client.CommentReply.Create().SetCommentID(comment).SetBody("Agreed").SetPostedByID(by).
			AddMentionIDs(by).Save(ctx)
		require.NoError(t, err)
		require.NoError(t, react(e.Client.Reaction.Create().SetReplyID(rp.ID), by, "👍").Exec(ctx))
		return rp.ID
	}
	for _, place := range []struct {
		cr     *string
		rev    string
		thread *string
	}{{nil, *s.RevisionID, &ids.thread}, {&ids.cr, cr.RevisionID, &ids.crThread}} {
		for i, by := range users {
			b := e.Client.Comment.Create().SetSpaceID(ids.space).SetNillableChangeRequestID(place.cr).
				SetRevisionID(place.rev).SetPageID(page).SetNodeID("n1").SetBody(fmt.Sprintf("Comment %d", i)).
				SetPostedByID(by).AddMentionIDs(by)
			if i%2 == 1 {
				b.SetStatus(enum.CommentStatusResolved).SetResolvedByID(e.Owner.ID).SetResolvedAt(clock.Now())
			}
			c, err := b.Save(ctx)
			require.NoError(t, err)
			require.NoError(t, react(e.Client.Reaction.Create().SetCommentID(c.ID), by, "👍").Exec(ctx))
			require.NoError(t, react(e.Client.Reaction.Create().SetCommentID(c.ID), e.Owner.ID, "🎉").Exec(ctx))
			if i == 0 {
				*place.thread = c.ID
				for _, u := range users {
					reply(c.ID, u)
				}
			} else {
				reply(c.ID, users[(i+1)%n])
			}
		}
	}
	other := spCreate(t, e, e.OwnerToken, "Busy", nil)
	os, err := e.Client.Space.Get(ctx, other)
	require.NoError(t, err)
	busy, err := e.Client.Comment.Create().SetSpaceID(other).SetRevisionID(*os.RevisionID).SetBody("Busy").
		SetPostedByID(e.Owner.ID).AddMentionIDs(users...).Save(ctx)
	require.NoError(t, err)
	crowd, err := e.Client.Comment.Create().SetSpaceID(other).SetRevisionID(*os.RevisionID).SetBody("Crowd").
		SetPostedByID(e.Owner.ID).Save(ctx)
	require.NoError(t, err)
	busyReply, err := e.Client.CommentReply.Create().SetCommentID(busy.ID).SetBody("Busy").SetPostedByID(e.Owner.ID).
		AddMentionIDs(users...).Save(ctx)
	require.NoError(t, err)
	for i, u := range users {
		emoji := fmt.Sprintf(":e%d:", i)
		require.NoError(t, react(e.Client.Reaction.Create().SetCommentID(busy.ID), e.Owner.ID, emoji).Exec(ctx))
		require.NoError(t, react(e.Client.Reaction.Create().SetReplyID(busyReply.ID), e.Owner.ID, emoji).Exec(ctx))
		require.NoError(t, react(e.Client.Reaction.Create().SetCommentID(crowd.ID), u, "👍").Exec(ctx))
	}
	ids.busy, ids.crowd, ids.busyReply = busy.ID, crowd.ID, busyReply.ID
	return ids
}

// Selections of comments and replies, as much as /v1 presents of them.
const (
	lsCommentFields = `id status postedAt editedAt resolvedAt body { markdown document } postedBy { id email }
	  resolvedBy { id email } reactions { emoji count users { user { id email } reactedAt } } replyCount
	  target { space { id } changeRequest { id } revision { id } page { id title path outdated } node { id } }
	  mentions { id } urls { location } permissions { view edit reply delete }`
	lsReplyFields = `id postedAt editedAt body { markdown document } postedBy { id email }
	  reactions { emoji count users { user { id email } reactedAt } } mentions { id } urls { location }
	  permissions { view edit reply delete }`
)

// lsCommentLoaded are the loaded fields some listed comment has.
var lsCommentLoaded = []string{"postedBy.email", "resolvedBy.id", "reactions", "replyCount", "target.page.title",
	"mentions", "permissions.view"}

func lsCommentCases() []lsCase {
	// Lists of both places: the space's comments and the change request's.
	var out []lsCase
	for _, p := range []struct {
		gqlList, gqlPath, v1List, v1Replies string
		query                               string
		root                                func(ids lsTalkIDs) string
		rest                                func(ids lsTalkIDs) string
		thread                              func(ids lsTalkIDs) string
		max, v1Max, repliesMax              int64
	}{
		{
			gqlList: "Space.comments", gqlPath: "space.comments",
			v1List: "GET /v1/spaces/{spaceId}/comments", v1Replies: "GET /v1/spaces/{spaceId}/comments/{commentId}/replies",
			query:  `query($id: ID!) { space(id: $id) { comments(first: 100) { totalCount nodes { ` + lsCommentFields + ` } } } }`,
			root:   func(ids lsTalkIDs) string { return ids.space },
			rest:   func(ids lsTalkIDs) string { return "/v1/spaces/" + ids.space + "/comments" },
			thread: func(ids lsTalkIDs) string { return ids.thread },
			// GraphQL: the token with its user 1; the space 1; access 1;
			// the page of comments with their reply counts and total 1;
			// reactions 1; the people named (authors, resolvers, who
			// reacted) 1; mentions 2 (the comments' edges, then the
			// users); the space's revision 1 and its content (the roots,
			// then the pages) 2; the revision of target.revision 1.
			// /v1 reads the same but mentions, and names the revision by
			// ID. The replies of a comment: the token 1, the space with
			// its counters 1, access 1, the comment 1, the page of replies
			// 1, reactions 1, people 1.
			max: 11, v1Max: 9, repliesMax: 7,
		},
		{
			gqlList: "ChangeRequest.comments", gqlPath: "node.comments",
			v1List:    "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments",
			v1Replies: "GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies",
			query:     `query($id: ID!) { node(id: $id) { ... on ChangeRequest { comments(first: 100) { totalCount nodes { ` + lsCommentFields + ` } } } } }`,
			root:      func(ids lsTalkIDs) string { return ids.cr },
			rest: func(ids lsTalkIDs) string {
				return "/v1/spaces/" + ids.space + "/change-requests/" + ids.cr + "/comments"
			},
			thread: func(ids lsTalkIDs) string { return ids.crThread },
			// As the space's, and the change request 1.
			max: 12, v1Max: 10, repliesMax: 8,
		},
	} {
		out = append(out,
			lsCase{list: p.gqlList, max: p.max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				ids := lsTalk(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, lsGQL(t, e, v.token, p.query, map[string]any{"id": p.root(ids)}), p.gqlPath, n, lsCommentLoaded...)
				}
			}},
			lsCase{list: p.v1List, max: p.v1Max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				ids := lsTalk(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, p.rest(ids)+"?limit=100", v.token, nil, http.StatusOK), "", n,
						"postedBy.email", "resolvedBy.id", "reactions", "replies", "target.page.title", "permissions.view")
				}
			}},
			lsCase{list: p.v1Replies, max: p.repliesMax, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				ids := lsTalk(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, p.rest(ids)+"/"+p.thread(ids)+"/replies?limit=100", v.token, nil, http.StatusOK),
						"", n, "postedBy.email", "reactions", "urls.location", "permissions.view")
				}
			}},
		)
	}
	// A comment's own lists: the token 1, the comment 1, its space and
	// access 2 (a reply: its comment 1 more), then the list: replies with
	// reactions and people 3, reactions with their users 2, mentions 3
	// (the edges, the users, whether each shares an organization with the
	// viewer, for their email).
	node := func(list, fragment, path string, id func(lsTalkIDs) string, max int64, loaded ...string) lsCase {
		return lsCase{list: list, max: max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			ids := lsTalk(t, e, n)
			return func(e *servertest.Env) {
				d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { `+fragment+` } }`, map[string]any{"id": id(ids)})
				lsCheck(t, d, path, n, loaded...)
			}
		}}
	}
	return append(out,
		node("Comment.replies", `... on Comment { replies(first: 100) { totalCount nodes { `+lsReplyFields+` } } }`,
			"node.replies", func(ids lsTalkIDs) string { return ids.thread }, 9, "postedBy.email", "reactions", "mentions"),
		node("Comment.reactions", `... on Comment { reactions { emoji count users { user { id email } reactedAt } } }`,
			"node.reactions", func(ids lsTalkIDs) string { return ids.busy }, 6, "users"),
		lsCase{list: "EmojiReaction.users", max: 6, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
			ids := lsTalk(t, e, n)
			return func(e *servertest.Env) {
				d := lsGQL(t, e, v.token, `query($id: ID!) { node(id: $id) { ... on Comment {
				  reactions { users { user { id email displayName } reactedAt } } } } }`, map[string]any{"id": ids.crowd})
				reactions := lsItems(t, d, "node.reactions")
				require.Len(t, reactions, 1)
				lsCheck(t, reactions[0], "users", n, "user.email", "reactedAt")
			}
		}},
		node("Comment.mentions", `... on Comment { mentions { id email displayName } }`,
			"node.mentions", func(ids lsTalkIDs) string { return ids.busy }, 6, "email"),
		node("CommentReply.reactions", `... on CommentReply { reactions { emoji count users { user { id email } reactedAt } } }`,
			"node.reactions", func(ids lsTalkIDs) string { return ids.busyReply }, 7, "users"),
		node("CommentReply.mentions", `... on CommentReply { mentions { id email displayName } }`,
			"node.mentions", func(ids lsTalkIDs) string { return ids.busyReply }, 7, "email"),
	)
}

// wrCommentCases post comments and replies beside n others (see lsTalk).
func wrCommentCases() []wrCase {
	post := func(create string, max int64, path func(ids lsTalkIDs) string) wrCase {
		return wrCase{create: create, max: max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			ids := lsTalk(t, e, n)
			return func(e *servertest.Env) {
				got := e.MustDo(http.MethodPost, path(ids), v.token, map[string]any{"body": map[string]any{"markdown": "New"}},
					http.StatusOK)
				wrCheck(t, got, "id", "postedBy.id", "urls.location", "permissions.edit")
			}
		}}
	}
	mutation := func(create string, max int64, query string, vars func(ids lsTalkIDs) map[string]any, path string) wrCase {
		return wrCase{create: create, max: max, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			ids := lsTalk(t, e, n)
			return func(e *servertest.Env) {
				wrCheck(t, lsAt(lsGQL(t, e, v.token, query, map[string]any{"in": vars(ids)}), path),
					"id", "postedBy.id", "urls.location", "permissions.edit")
			}
		}}
	}
	return []wrCase{
		// Token 1; in the transaction, the space 1, access 1 and the
		// comment 1 (its markdown mentions nobody: no lookup); the
		// response, whose loaders the transaction cleared: the space with
		// its counters 1 and access 1, the rest primed or known.
		post("POST /v1/spaces/{spaceId}/comments", 6, func(ids lsTalkIDs) string { return "/v1/spaces/" + ids.space + "/comments" }),
		// As on a space, and the change request the path names, read
		// before the transaction with its space and access (3) and once
		// more in it and for the response (2).
		post("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", 11,
			func(ids lsTalkIDs) string {
				return "/v1/spaces/" + ids.space + "/change-requests/" + ids.cr + "/comments"
			}),
		// Token 1; the path's space, access and comment 3; in the
		// transaction the comment, its space and access 3, the reply 1;
		// the response: the comment (for the reply's address), its space
		// and access 3.
		post("POST /v1/spaces/{spaceId}/comments/{commentId}/replies", 11,
			func(ids lsTalkIDs) string { return "/v1/spaces/" + ids.space + "/comments/" + ids.thread + "/replies" }),
		// As on a space, and the change request the path names 1.
		post("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", 12,
			func(ids lsTalkIDs) string {
				return "/v1/spaces/" + ids.space + "/change-requests/" + ids.cr + "/comments/" + ids.crThread + "/replies"
			}),
		// As POST /v1/spaces/{spaceId}/comments.
		mutation("Mutation.postComment", 6, `mutation($in: PostCommentInput!) { postComment(input: $in) { comment {
		  id postedBy { id } urls { location } permissions { edit } replyCount reactions { emoji } } } }`,
			func(ids lsTalkIDs) map[string]any { return map[string]any{"spaceId": ids.space, "markdown": "New"} },
			"postComment.comment"),
		// Token 1; in the transaction the comment, its space and access
		// 3, the reply 1; the payload: the comment, its space and access
		// 3.
		mutation("Mutation.postCommentReply", 8, `mutation($in: PostCommentReplyInput!) { postCommentReply(input: $in) { reply {
		  id postedBy { id } urls { location } permissions { edit } reactions { emoji } } } }`,
			func(ids lsTalkIDs) map[string]any { return map[string]any{"commentId": ids.thread, "markdown": "New"} },
			"postCommentReply.reply"),
	}
}
