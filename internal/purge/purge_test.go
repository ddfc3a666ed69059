package purge_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/revision"
	"github.com/bindery/bindery/ent/sharelink"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/purge"
	"github.com/bindery/bindery/server/servertest"
)

// richSpace creates a space through the API and gives it everything that
// hangs off a space: a second revision, change requests with comments, a
// comment, a share link and a grant. It returns the space's ID.
func richSpace(t *testing.T, e *servertest.Env, title string) string {
	t.Helper()
	ctx := context.Background()
	id := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken,
		map[string]any{"title": title}, http.StatusCreated)["id"].(string)
	sp, err := e.Client.Space.Get(ctx, id)
	require.NoError(t, err)
	rev, err := e.Client.Revision.Create().SetSpaceID(id).SetType(enum.RevisionTypeEdits).
		SetParents([]string{*sp.RevisionID}).Save(ctx)
	require.NoError(t, err)
	require.NoError(t, e.Client.Space.UpdateOneID(id).SetRevisionID(rev.ID).Exec(ctx))
	for i, status := range []enum.ChangeRequestStatus{enum.ChangeRequestStatusOpen, enum.ChangeRequestStatusMerged} {
		cr, err := e.Client.ChangeRequest.Create().SetSpaceID(id).SetNumber(i + 1).SetStatus(status).
			SetRevisionID(rev.ID).SetRevisionInitialID(*sp.RevisionID).Save(ctx)
		require.NoError(t, err)
		crRev, err := e.Client.Revision.Create().SetSpaceID(id).SetChangeRequestID(cr.ID).
			SetType(enum.RevisionTypeEdits).Save(ctx)
		require.NoError(t, err)
		require.NoError(t, e.Client.ChangeRequest.UpdateOne(cr).SetRevisionID(crRev.ID).Exec(ctx))
		require.NoError(t, e.Client.Comment.Create().SetSpaceID(id).SetChangeRequestID(cr.ID).
			SetRevisionID(crRev.ID).SetBody("On the change request").Exec(ctx))
	}
	require.NoError(t, e.Client.Comment.Create().SetSpaceID(id).SetRevisionID(rev.ID).SetBody("On the space").Exec(ctx))
	require.NoError(t, e.Client.ShareLink.Create().SetSpaceID(id).SetKey("key-"+id).Exec(ctx))
	require.NoError(t, e.Client.ContentGrant.Create().SetSpaceID(id).SetUserID(e.Owner.ID).SetRole(enum.RoleRead).Exec(ctx))
	return id
}

// deletedAt marks a space deleted at t.
func deletedAt(t *testing.T, e *servertest.Env, id string, at time.Time) {
	t.Helper()
	require.NoError(t, e.Client.Space.UpdateOneID(id).SetDeletedAt(at.UTC().Truncate(time.Millisecond)).Exec(context.Background()))
}

// leftovers counts the rows that still belong to a space.
func leftovers(t *testing.T, c *ent.Client, id string) map[string]int {
	t.Helper()
	ctx := context.Background()
	count := func(n int, err error) int {
		require.NoError(t, err)
		return n
	}
	return map[string]int{
		"spaces":          count(c.Space.Query().Where(space.ID(id)).Count(ctx)),
		"revisions":       count(c.Revision.Query().Where(revision.SpaceID(id)).Count(ctx)),
		"change requests": count(c.ChangeRequest.Query().Where(changerequest.SpaceID(id)).Count(ctx)),
		"comments":        count(c.Comment.Query().Where(comment.SpaceID(id)).Count(ctx)),
		"share links":     count(c.ShareLink.Query().Where(sharelink.SpaceID(id)).Count(ctx)),
		"grants":          count(c.ContentGrant.Query().Where(contentgrant.SpaceID(id)).Count(ctx)),
	}
}

var (
	gone = map[string]int{"spaces": 0, "revisions": 0, "change requests": 0, "comments": 0, "share links": 0, "grants": 0}
	kept = map[string]int{"spaces": 1, "revisions": 4, "change requests": 2, "comments": 3, "share links": 1, "grants": 1}
)

func TestSpacesRemovesExpiredSpaces(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	now := time.Now().UTC()
	cutoff := now.Add(-graph.SpaceRetention)
	old := richSpace(t, e, "Old")
	justOld := richSpace(t, e, "Just old")
	young := richSpace(t, e, "Young")
	justYoung := richSpace(t, e, "Just young")
	live := richSpace(t, e, "Live")
	deletedAt(t, e, old, now.Add(-30*24*time.Hour))
	deletedAt(t, e, justOld, cutoff.Add(-time.Second))
	deletedAt(t, e, young, now.Add(-24*time.Hour))
	deletedAt(t, e, justYoung, cutoff.Add(time.Second))

	n, err := purge.Spaces(ctx, e.DB.Client, cutoff)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	for _, id := range []string{old, justOld} {
		assert.Equal(t, gone, leftovers(t, e.Client, id), "space %s", id)
	}
	for _, id := range []string{young, justYoung, live} {
		assert.Equal(t, kept, leftovers(t, e.Client, id), "space %s", id)
	}
	// The purged space is gone from the API too; the young one can still be
	// restored.
	e.MustDo(http.MethodGet, "/v1/spaces/"+old, e.OwnerToken, nil, http.StatusNotFound)
	e.MustDo(http.MethodPost, "/v1/spaces/"+young+"/restore", e.OwnerToken, nil, http.StatusOK)

	n, err = purge.Spaces(ctx, e.DB.Client, cutoff)
	require.NoError(t, err)
	assert.Zero(t, n, "a second pass finds nothing")
}

// The cutoff is an instant: the time zone it is expressed in must not matter.
func TestSpacesCutoffTimeZone(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	now := time.Now().UTC()
	cutoff := now.Add(-graph.SpaceRetention)
	older := richSpace(t, e, "Older")
	younger := richSpace(t, e, "Younger")
	deletedAt(t, e, older, cutoff.Add(-3*time.Hour))
	deletedAt(t, e, younger, cutoff.Add(3*time.Hour))

	ahead, behind := time.FixedZone("UTC+10", 10*3600), time.FixedZone("UTC-10", -10*3600)
	n, err := purge.Spaces(ctx, e.DB.Client, cutoff.In(ahead))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "a cutoff ahead of UTC")
	n, err = purge.Spaces(ctx, e.DB.Client, cutoff.In(behind))
	require.NoError(t, err)
	assert.Zero(t, n, "a cutoff behind UTC")
	assert.Equal(t, gone, leftovers(t, e.Client, older))
	assert.Equal(t, kept, leftovers(t, e.Client, younger))
}

// Replicas purge at the same time: each space is removed exactly once, and
// the counts they report add up.
func TestSpacesConcurrently(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	now := time.Now().UTC()
	cutoff := now.Add(-graph.SpaceRetention)
	// More expired spaces than one batch, so every replica loops.
	const expired, young = 230, 7
	builders := make([]*ent.SpaceCreate, 0, expired+young)
	for i := 0; i < expired+young; i++ {
		at := now.Add(-8 * 24 * time.Hour).Add(time.Duration(i) * time.Second)
		if i >= expired {
			at = now.Add(-time.Hour)
		}
		builders = append(builders, e.Client.Space.Create().SetOrganizationID(e.Org.ID).
			SetTitle(fmt.Sprintf("Space %d", i)).SetDeletedAt(at.Truncate(time.Millisecond)))
	}
	spaces, err := e.Client.Space.CreateBulk(builders...).Save(ctx)
	require.NoError(t, err)
	revs := make([]*ent.RevisionCreate, len(spaces))
	for i, s := range spaces {
		revs[i] = e.Client.Revision.Create().SetSpaceID(s.ID).SetType(enum.RevisionTypeEdits)
	}
	require.NoError(t, e.Client.Revision.CreateBulk(revs...).Exec(ctx))
	rich := richSpace(t, e, "Rich")
	deletedAt(t, e, rich, now.Add(-10*24*time.Hour))
	live := richSpace(t, e, "Live")

	const replicas = 6
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		mu    sync.Mutex
		total int
		errs  []error
	)
	for r := 0; r < replicas; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			n, err := purge.Spaces(ctx, e.DB.Client, cutoff)
			mu.Lock()
			defer mu.Unlock()
			total += n
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	require.Empty(t, errs)
	assert.Equal(t, expired+1, total, "every expired space is counted exactly once")
	left, err := e.Client.Space.Query().Where(space.OrganizationID(e.Org.ID)).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, young+1, left)
	revisions, err := e.Client.Revision.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, young+kept["revisions"], revisions, "the revisions of purged spaces go with them")
	assert.Equal(t, gone, leftovers(t, e.Client, rich))
	assert.Equal(t, kept, leftovers(t, e.Client, live))
}

// Run purges at once and then on every tick, until its context ends.
func TestRun(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	now := time.Now().UTC()
	first := richSpace(t, e, "First")
	deletedAt(t, e, first, now.Add(-8*24*time.Hour))
	second := richSpace(t, e, "Second")
	deletedAt(t, e, second, now.Add(-time.Hour))

	var (
		mu    sync.Mutex
		clock = now
	)
	tick := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		purge.Run(ctx, e.DB.Client, 10*time.Millisecond, graph.SpaceRetention, tick, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	}()
	exists := func(id string) bool {
		ok, err := e.Client.Space.Query().Where(space.ID(id)).Exist(context.Background())
		require.NoError(t, err)
		return ok
	}
	require.Eventually(t, func() bool { return !exists(first) }, 10*time.Second, 5*time.Millisecond)
	assert.True(t, exists(second))
	mu.Lock()
	clock = clock.Add(graph.SpaceRetention)
	mu.Unlock()
	require.Eventually(t, func() bool { return !exists(second) }, 10*time.Second, 5*time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return when its context ended")
	}
}

// A purged space leaves the sites that published it, and a parent that
// lost its default site-space gets its next one as the default, as deleting
// a site-space through the API does; a space restored in time keeps its
// place.
func TestPurgeLeavesSitesWithADefault(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	now := time.Now().UTC()
	org := "/v1/orgs/" + e.Org.ID
	newSpace := func(title string) string {
		return e.MustDo(http.MethodPost, org+"/spaces", e.OwnerToken, map[string]any{"title": title}, http.StatusCreated)["id"].(string)
	}
	purged, staying, young := newSpace("Purged"), newSpace("Staying"), newSpace("Young")
	siteSpaces := func(site string) []map[string]any {
		items := e.MustDo(http.MethodGet, org+"/sites/"+site+"/site-spaces", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
		out := make([]map[string]any, len(items))
		for i, it := range items {
			out[i] = it.(map[string]any)
		}
		return out
	}
	// The purged space is the default of the first site, the only
	// site-space of the second.
	first := e.MustDo(http.MethodPost, org+"/sites", e.OwnerToken, map[string]any{"title": "Docs", "spaces": []string{purged, staying}},
		http.StatusCreated)["id"].(string)
	second := e.MustDo(http.MethodPost, org+"/sites", e.OwnerToken, map[string]any{"title": "Alone", "spaces": []string{purged}},
		http.StatusCreated)["id"].(string)
	third := e.MustDo(http.MethodPost, org+"/sites", e.OwnerToken, map[string]any{"title": "Kept", "spaces": []string{young, staying}},
		http.StatusCreated)["id"].(string)
	require.Equal(t, true, siteSpaces(first)[0]["default"])
	deletedAt(t, e, purged, now.Add(-30*24*time.Hour))
	deletedAt(t, e, young, now.Add(-time.Hour))

	n, err := purge.Spaces(ctx, e.DB.Client, now.Add(-graph.SpaceRetention))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	left := siteSpaces(first)
	require.Len(t, left, 1)
	assert.Equal(t, staying, left[0]["space"].(map[string]any)["id"])
	assert.Equal(t, true, left[0]["default"], "the site's root has a default site-space again")
	assert.Empty(t, siteSpaces(second))
	e.MustDo(http.MethodPost, "/v1/spaces/"+young+"/restore", e.OwnerToken, nil, http.StatusOK)
	kept := siteSpaces(third)
	require.Len(t, kept, 2)
	assert.Equal(t, young, kept[0]["space"].(map[string]any)["id"])
	assert.Equal(t, true, kept[0]["default"])
}

// TestSignInsRemovesWhatEnded: expired sign-ins under way, records of used
// proofs and sessions go; the rest, and API tokens of any age, stay.
func TestSignInsRemovesWhatEnded(t *testing.T) {
	e := servertest.New(t)
	ctx := t.Context()
	now := time.Now()
	for _, at := range []time.Time{now.Add(-time.Minute), now.Add(time.Minute)} {
		_, flow := auth.NewSession()
		e.Client.SignInFlow.Create().SetKind(enum.SignInKindEmail).SetSecretHash(flow).SetExpiresAt(at).ExecX(ctx)
		e.Client.SignInReplay.Create().SetKey("saml:p:" + flow).SetExpiresAt(at).ExecX(ctx)
		_, session := auth.NewSession()
		e.Client.APIToken.Create().SetUserID(e.Owner.ID).SetKind(enum.CredentialKindSession).SetLabel("Browser session").
			SetTokenHash(session).SetExpiresAt(at).ExecX(ctx)
		_, token := auth.NewToken()
		e.Client.APIToken.Create().SetUserID(e.Owner.ID).SetLabel("Old token").SetTokenHash(token).SetExpiresAt(at).ExecX(ctx)
	}
	n, err := purge.SignIns(ctx, e.Client, now)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, 1, e.Client.SignInFlow.Query().CountX(ctx))
	assert.Equal(t, 1, e.Client.SignInReplay.Query().CountX(ctx))
	assert.Equal(t, 4, e.Client.APIToken.Query().CountX(ctx), "the owner's token, both old tokens and the live session")
}
