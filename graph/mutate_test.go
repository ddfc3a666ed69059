package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lib/pq"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/server/servertest"
)

// mutEnv is a server with two spaces, and a request context of its owner.
func mutEnv(t *testing.T) (*graph.Resolver, context.Context, *ent.Space, *ent.Space) {
	t.Helper()
	e := servertest.New(t)
	r := e.Server.Resolver()
	ctx := r.WithLoaders(auth.WithViewer(context.Background(), &auth.Viewer{User: e.Owner}))
	var spaces []*ent.Space
	for _, title := range []string{"One", "Two"} {
		p, err := r.Mutation().CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: e.Org.ID, Title: &title})
		require.NoError(t, err)
		spaces = append(spaces, p.Space)
	}
	return r, r.WithLoaders(ctx), spaces[0], spaces[1]
}

// retitle is a write that renames the space it is given.
func retitle(title string) func(ctx context.Context, s *ent.Space) (*ent.Space, error) {
	return func(ctx context.Context, s *ent.Space) (*ent.Space, error) {
		return ent.FromContext(ctx).Space.UpdateOne(s).SetTitle(title).Save(ctx)
	}
}

// TestMutationPrimesWhatItWrote: once a mutation commits, the request's
// loaders hold what its write returned and what it recorded, as the
// transaction left them, and nothing else it read.
func TestMutationPrimesWhatItWrote(t *testing.T) {
	r, ctx, one, two := mutEnv(t)
	out, err := r.MutateSpace(ctx, one.ID, authz.UpdateDetails, nil, func(ctx context.Context, s *ent.Space) (*ent.Space, error) {
		// Recorded as it was, then as written: the answer shows the latter.
		r.WroteSpace(ctx, two)
		other, err := ent.FromContext(ctx).Space.UpdateOne(two).SetTitle("Two, renamed").Save(ctx)
		if err != nil {
			return nil, err
		}
		r.WroteSpace(ctx, other)
		return retitle("One, renamed")(ctx, s)
	})
	require.NoError(t, err)
	assert.Equal(t, "One, renamed", out.Title)
	if got := r.CachedSpace(ctx, one.ID); assert.NotNil(t, got, "what the write returned is primed") {
		assert.Equal(t, "One, renamed", got.Title)
	}
	if got := r.CachedSpace(ctx, two.ID); assert.NotNil(t, got, "what the write recorded is primed") {
		assert.Equal(t, "Two, renamed", got.Title, "the later record of a key wins")
	}
}

// TestMutationRolledBackPrimesNothing: a mutation that fails leaves the
// request's loaders cleared, without what it recorded.
func TestMutationRolledBackPrimesNothing(t *testing.T) {
	r, ctx, one, _ := mutEnv(t)
	_, err := r.Mutation().UpdateSpace(ctx, model.UpdateSpaceInput{ID: one.ID}) // loads it into the request's loaders
	require.NoError(t, err)
	failed := errors.New("the write fails")
	_, err = r.MutateSpace(ctx, one.ID, authz.UpdateDetails, nil, func(ctx context.Context, s *ent.Space) (*ent.Space, error) {
		s, err := retitle("Never")(ctx, s)
		if err != nil {
			return nil, err
		}
		r.WroteSpace(ctx, s)
		return nil, failed
	})
	require.ErrorIs(t, err, failed)
	assert.Nil(t, r.CachedSpace(ctx, one.ID), "cleared, and not primed with what rolled back")
}

// TestMutationRetriedForgetsTheLostRun: a run the database gives up on is
// run again, and what it recorded is forgotten with it.
func TestMutationRetriedForgetsTheLostRun(t *testing.T) {
	r, ctx, one, two := mutEnv(t)
	runs := 0
	out, err := r.MutateSpace(ctx, one.ID, authz.UpdateDetails, nil, func(ctx context.Context, s *ent.Space) (*ent.Space, error) {
		runs++
		if runs == 1 {
			lost := *two
			lost.Title = "Lost"
			r.WroteSpace(ctx, &lost)
			// A serialization failure: the transaction runs again.
			return nil, &pq.Error{Code: "40001"}
		}
		return retitle("Kept")(ctx, s)
	})
	require.NoError(t, err)
	assert.Equal(t, 2, runs)
	assert.Equal(t, "Kept", out.Title)
	assert.Nil(t, r.CachedSpace(ctx, two.ID), "the lost run's record is forgotten")
	if got := r.CachedSpace(ctx, one.ID); assert.NotNil(t, got) {
		assert.Equal(t, "Kept", got.Title)
	}
}

// TestMutationAuthorizesBeforeItWrites: the write runs only on a resource
// the viewer may act on, after the lock.
func TestMutationAuthorizesBeforeItWrites(t *testing.T) {
	r, ctx, one, _ := mutEnv(t)
	wrote := false
	write := func(ctx context.Context, s *ent.Space) (*ent.Space, error) { wrote = true; return s, nil }
	_, err := r.MutateSpace(ctx, "spc_missing", authz.UpdateDetails, nil, write)
	assert.Equal(t, apperr.NotFound, apperr.KindOf(err))
	assert.False(t, wrote, "no write on what the viewer cannot see")

	locked := errors.New("the lock fails")
	_, err = r.MutateSpace(ctx, "spc_missing", authz.UpdateDetails, func(context.Context) error { return locked }, write)
	assert.ErrorIs(t, err, locked, "the lock is taken before the resource is read")
	assert.False(t, wrote)

	// A stranger does not see the space.
	stranger := r.WithLoaders(auth.WithViewer(context.Background(), &auth.Viewer{User: &ent.User{ID: "usr_stranger"}}))
	_, err = r.MutateSpace(stranger, one.ID, authz.UpdateDetails, nil, write)
	assert.Equal(t, apperr.NotFound, apperr.KindOf(err))
	assert.False(t, wrote)

	_, err = r.MutateSpace(ctx, one.ID, authz.UpdateDetails, nil, write)
	require.NoError(t, err)
	assert.True(t, wrote)
}
