package graph_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// A space's counters are columns of its row that triggers keep: every write
// to a change request or a comment, made here straight to the database as
// an operator's would be, shows in the next read of the space, in both
// APIs, and the counts agree with counting the rows.
func TestSpaceCountersFollowEveryWrite(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	id := spCreate(t, e, e.OwnerToken, "Counted", nil)
	other := spCreate(t, e, e.OwnerToken, "Other", nil)
	sp := e.Client.Space.GetX(ctx, id)

	check := func(step string, want counts) {
		t.Helper()
		got := e.MustDo(http.MethodGet, "/v1/spaces/"+id, e.OwnerToken, nil, http.StatusOK)
		assert.Equal(t, []any{float64(want.all), float64(want.open), float64(want.draft), float64(want.comments)},
			[]any{got["changeRequests"], got["changeRequestsOpen"], got["changeRequestsDraft"], got["comments"]}, step)
		d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { space(id: $id) { changeRequestCount openChangeRequestCount
		  draftChangeRequestCount commentCount } }`, map[string]any{"id": id})
		assert.Equal(t, map[string]any{"changeRequestCount": float64(want.all), "openChangeRequestCount": float64(want.open),
			"draftChangeRequestCount": float64(want.draft), "commentCount": float64(want.comments)}, lsAt(d, "space"), step)
		assert.Equal(t, want, countRows(t, e, id), "%s: the rows", step)
	}
	newCR := func(n int, status enum.ChangeRequestStatus) string {
		return e.Client.ChangeRequest.Create().SetSpaceID(id).SetNumber(n).SetStatus(status).
			SetRevisionID(*sp.RevisionID).SetRevisionInitialID(*sp.RevisionID).SaveX(ctx).ID
	}
	check("at first", counts{})
	a := newCR(1, enum.ChangeRequestStatusOpen)
	b := newCR(2, enum.ChangeRequestStatusDraft)
	check("two change requests", counts{all: 2, open: 1, draft: 1})
	e.Client.ChangeRequest.UpdateOneID(b).SetStatus(enum.ChangeRequestStatusOpen).ExecX(ctx)
	check("a draft opened", counts{all: 2, open: 2})
	e.Client.ChangeRequest.UpdateOneID(a).SetStatus(enum.ChangeRequestStatusMerged).ExecX(ctx)
	check("one merged", counts{all: 2, open: 1})
	e.Client.ChangeRequest.UpdateOneID(b).SetSubject("Renamed").ExecX(ctx)
	check("one renamed", counts{all: 2, open: 1})
	e.Client.ChangeRequest.DeleteOneID(b).ExecX(ctx)
	check("one deleted", counts{all: 1})

	comment := func(cr *string) string {
		return e.Client.Comment.Create().SetSpaceID(id).SetNillableRevisionID(sp.RevisionID).SetNillableChangeRequestID(cr).
			SetBody("Hello").SetPostedByID(e.Owner.ID).SaveX(ctx).ID
	}
	c1, c2 := comment(nil), comment(nil)
	comment(&a) // on a change request: not the space's
	check("two comments", counts{all: 1, comments: 2})
	e.Client.Comment.UpdateOneID(c1).SetStatus(enum.CommentStatusResolved).ExecX(ctx)
	check("one resolved", counts{all: 1, comments: 1})
	e.Client.Comment.UpdateOneID(c1).SetStatus(enum.CommentStatusOpen).ExecX(ctx)
	check("reopened", counts{all: 1, comments: 2})
	e.Client.Comment.DeleteOneID(c2).ExecX(ctx)
	check("one deleted", counts{all: 1, comments: 1})
	e.Client.ChangeRequest.DeleteOneID(a).ExecX(ctx) // its comment goes with it
	check("the last change request deleted", counts{comments: 1})
	// Another space's counters are its own.
	assert.Zero(t, e.Client.Space.GetX(ctx, other).CommentOpenCount)
}

// A mutation's answer shows the counters its own writes moved: the space it
// read before writing is not shown with the counters of then.
func TestSpaceCountersInAMutationsAnswer(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	id := spCreate(t, e, e.OwnerToken, "Counted", nil)
	for i, want := range []float64{1, 2} {
		d := lsGQL(t, e, e.OwnerToken, `mutation($s: ID!) { createChangeRequest(input: {spaceId: $s, subject: "Fix"}) {
		  changeRequest { space { changeRequestCount openChangeRequestCount } } } }`, map[string]any{"s": id})
		assert.Equal(t, map[string]any{"changeRequestCount": want, "openChangeRequestCount": want},
			lsAt(d, "createChangeRequest.changeRequest.space"), "change request %d", i+1)
	}
}

// counts are a space's counters: change requests (all, open, draft) and
// open comments.
type counts struct{ all, open, draft, comments int }

// countRows counts a space's change requests (all, open, draft) and its
// open comments not on a change request, from the rows.
func countRows(t *testing.T, e *servertest.Env, spaceID string) (c counts) {
	t.Helper()
	ctx := context.Background()
	crs, err := e.Client.ChangeRequest.Query().All(ctx)
	require.NoError(t, err)
	for _, cr := range crs {
		if cr.SpaceID == spaceID {
			c.all++
			c.open += b2i(cr.Status == enum.ChangeRequestStatusOpen)
			c.draft += b2i(cr.Status == enum.ChangeRequestStatusDraft)
		}
	}
	comments, err := e.Client.Comment.Query().All(ctx)
	require.NoError(t, err)
	for _, x := range comments {
		c.comments += b2i(x.SpaceID == spaceID && x.ChangeRequestID == nil && x.Status == enum.CommentStatusOpen)
	}
	return c
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
