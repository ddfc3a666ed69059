package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/commentreply"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// edCase is an edit or a delete of a discussion or a change request,
// measured as an admin of the organization. Its request is sent once per
// attempt, and changes something each time (see edAttempts).
type edCase struct {
	name string
	// setup returns the request of an attempt, numbered from 0, which the
	// viewer sends.
	setup func(t *testing.T, e *servertest.Env, v lsViewer) func(e *servertest.Env, attempt int)
	// max bounds the statements of the request; its comment says what they
	// are.
	max int64
}

// edAttempts is how many times each edit is measured, each time on a
// server with empty caches; the least count is its cost.
const edAttempts = 3

// TestEditStatements bounds the statements of the edits and deletes of
// comments, replies and change requests: what their answer shows is what
// the write recorded, not read again.
func TestEditStatements(t *testing.T) {
	t.Parallel()
	for _, c := range edCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := measure(t, enum.RoleAdmin, "admin@example.com", edAttempts, func(e *servertest.Env, v lsViewer) lsRequest {
				request := c.setup(t, e, v)
				attempt := 0
				return func(e *servertest.Env) {
					request(e, attempt)
					attempt++
				}
			})
			t.Logf("%-64s %3d statements; bound %d", c.name, got, c.max)
			assert.LessOrEqual(t, got, c.max, "%s: over its bound", c.name)
		})
	}
}

func edCases() []edCase {
	comments := func(t *testing.T, e *servertest.Env) (lsTalkIDs, string) {
		ids := lsTalk(t, e, edAttempts+1)
		return ids, "/v1/spaces/" + ids.space + "/comments/"
	}
	return []edCase{
		{
			// Token 1; the path's space and comment 2; in the transaction
			// the comment, its space and access 3, the viewer's reactions
			// and the new one 2, the edit 3 (the row, its mentions, the row
			// read back; the markdown mentions nobody: no lookup); the
			// answer, which has the comment, its space and who resolved it:
			// the author 1, reactions 1 and who reacted 1, reply count 1,
			// access 1, the target's revision and content 3.
			name: "PUT /v1/spaces/{spaceId}/comments/{commentId}", max: 19,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer) func(*servertest.Env, int) {
				ids, base := comments(t, e)
				return func(e *servertest.Env, attempt int) {
					got := e.MustDo(http.MethodPut, base+ids.thread, v.token, map[string]any{
						"body": map[string]any{"markdown": fmt.Sprintf("Edited %d", attempt)}, "resolved": attempt%2 == 0,
						"addedReactions": []string{fmt.Sprintf(":a%d:", attempt)},
					}, http.StatusOK)
					wrCheck(t, got, "id", "postedBy.id", "editedAt", "reactions", "replies", "permissions.edit")
				}
			},
		},
		{
			// Token 1; the path's space, comment and reply 3; in the
			// transaction the reply, its comment, its space and access 4,
			// the edit 3, the viewer's reactions and the new one 2; the
			// answer, which has the reply and its comment: the author 1,
			// reactions 1 and who reacted 1, access 1.
			name: "PUT /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", max: 17,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer) func(*servertest.Env, int) {
				ids, _ := comments(t, e)
				rp, err := e.Client.CommentReply.Query().Where(commentreply.CommentID(ids.thread)).First(context.Background())
				require.NoError(t, err)
				path := "/v1/spaces/" + ids.space + "/comments/" + ids.thread + "/replies/" + rp.ID
				return func(e *servertest.Env, attempt int) {
					got := e.MustDo(http.MethodPut, path, v.token, map[string]any{
						"body":           map[string]any{"markdown": fmt.Sprintf("Edited %d", attempt)},
						"addedReactions": []string{fmt.Sprintf(":a%d:", attempt)},
					}, http.StatusOK)
					wrCheck(t, got, "id", "postedBy.id", "editedAt", "reactions", "permissions.edit")
				}
			},
		},
		{
			// Token 1; the path's space and comment 2; in the transaction
			// the comment, its space and access 3, the delete 1.
			name: "DELETE /v1/spaces/{spaceId}/comments/{commentId}", max: 7,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer) func(*servertest.Env, int) {
				ids, base := comments(t, e)
				cs, err := e.Client.Comment.Query().Where(comment.SpaceID(ids.space), comment.ChangeRequestIDIsNil(), comment.IDNEQ(ids.thread)).
					IDs(context.Background())
				require.NoError(t, err)
				require.GreaterOrEqual(t, len(cs), edAttempts)
				return func(e *servertest.Env, attempt int) {
					e.MustDo(http.MethodDelete, base+cs[attempt], v.token, nil, http.StatusNoContent)
				}
			},
		},
		{
			// Token 1; the path's space, comment and reply 3; in the
			// transaction the reply, its comment, its space and access 4,
			// the delete 1.
			name: "DELETE /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", max: 9,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer) func(*servertest.Env, int) {
				ids, base := comments(t, e)
				rps, err := e.Client.CommentReply.Query().Where(commentreply.CommentID(ids.thread)).IDs(context.Background())
				require.NoError(t, err)
				require.GreaterOrEqual(t, len(rps), edAttempts)
				return func(e *servertest.Env, attempt int) {
					e.MustDo(http.MethodDelete, base+ids.thread+"/replies/"+rps[attempt], v.token, nil, http.StatusNoContent)
				}
			},
		},
		{
			// Token 1; the path's space and change request 2; in the
			// transaction the change request, its space and access 3, the
			// update 2 (the row read back); the answer, which has the
			// change request and its space: access 1, the author 1, the
			// comment count 1.
			name: "PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}", max: 11,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer) func(*servertest.Env, int) {
				sp := lsLiveSpace(t, e)
				cr := e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/change-requests", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
				return func(e *servertest.Env, attempt int) {
					got := e.MustDo(http.MethodPatch, "/v1/spaces/"+sp+"/change-requests/"+cr, v.token,
						map[string]any{"subject": fmt.Sprintf("Subject %d", attempt)}, http.StatusOK)
					wrCheck(t, got, "id", "subject", "space", "revision", "createdBy.id")
				}
			},
		},
		// Token 1; in the transaction the lock 1, the change request, its
		// space and access 3, the three revisions 3 and their content 8,
		// the new content and revision 2, the change request's update 2;
		// a merge also moves the space's ref 1 and indexes the page it
		// changed 2, and on SQLite records its words 1. The answer, which has the change request and the
		// revisions (and, for an update, the space): access 1, and for a
		// merge the space 1, which it changed.
		edSettleCase("Mutation.mergeChangeRequest", 26),
		edSettleCase("Mutation.syncChangeRequest", 21),
	}
}

// edSettleCase merges or syncs a change request that edited a page of its
// own, after the main content moved on: a clean three-way merge, with a
// change request of its own for each attempt.
func edSettleCase(mutation string, max int64) edCase {
	field := mutation[len("Mutation."):]
	return edCase{name: mutation, max: max, setup: func(t *testing.T, e *servertest.Env, v lsViewer) func(*servertest.Env, int) {
		ctx := context.Background()
		sp := lsLiveSpace(t, e)
		lsImport(t, e, "spaceId", sp, lsZip(t, edAttempts+1))
		s, err := e.Client.Space.Get(ctx, sp)
		require.NoError(t, err)
		crs := make([]string, edAttempts)
		for i := range crs {
			crs[i] = e.MustDo(http.MethodPost, "/v1/spaces/"+sp+"/change-requests", e.OwnerToken, nil, http.StatusCreated)["id"].(string)
			lsCommit(t, e, *s.RevisionID, crs[i], func(c *content.Content) {
				c.Pages[i].Page.Markdown = fmt.Sprintf("Ours, change request %d.\n", i)
			})
		}
		lsCommit(t, e, *s.RevisionID, "", func(c *content.Content) {
			lsGuide(t, c).Children[0].Page.Markdown = "Theirs.\n"
		})
		return func(e *servertest.Env, attempt int) {
			d := lsGQL(t, e, v.token, `mutation($id: ID!) { `+field+`(input: {id: $id}) {
			  result revision { id } changeRequest { id status outdated revision { id } } conflicts { key } } }`,
				map[string]any{"id": crs[attempt]})
			assert.NotEqual(t, "CONFLICTS", lsAt(d, field+".result"))
			wrCheck(t, lsAt(d, field), "revision.id", "changeRequest.id", "changeRequest.revision.id")
		}
	}}
}
