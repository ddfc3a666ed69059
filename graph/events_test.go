package graph_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/server/servertest"
)

// TestEventsWaitForCommit: an event emitted in a transaction is published
// when it commits, and never when it rolls back.
func TestEventsWaitForCommit(t *testing.T) {
	e := servertest.New(t)
	r := e.Server.Resolver()
	ctx := r.WithLoaders(auth.WithViewer(context.Background(), &auth.Viewer{User: e.Owner}))
	sub, cancel := context.WithCancel(ctx)
	defer cancel()
	ch, err := r.Bus().Subscribe(sub, "test:topic")
	require.NoError(t, err)

	failed := errors.New("the change fails")
	err = r.InTx(ctx, func(ctx context.Context) error {
		r.Emit(ctx, events.New("test:topic", events.SpaceContent, "rolled back"))
		return failed
	})
	require.ErrorIs(t, err, failed)
	require.NoError(t, r.InTx(ctx, func(ctx context.Context) error {
		r.Emit(ctx, events.New("test:topic", events.SpaceContent, "first"))
		// A nested transaction joins the outer one: its events wait too.
		return r.InTx(ctx, func(ctx context.Context) error {
			r.Emit(ctx, events.New("test:topic", events.SpaceContent, "second"))
			select {
			case ev := <-ch:
				t.Errorf("published before the commit: %v", ev)
			default:
			}
			return nil
		})
	}))
	var got []string
	for len(got) < 2 {
		select {
		case ev := <-ch:
			got = append(got, ev.Subject)
		case <-time.After(5 * time.Second):
			require.FailNow(t, "no event", "got %v", got)
		}
	}
	assert.Equal(t, []string{"first", "second"}, got, "in order, and nothing of the rolled-back transaction")
}
