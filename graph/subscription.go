package graph

import (
	"context"
	"sync/atomic"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/events"
)

// slotsKey holds a connection's subscription slots in a context.
type slotsKey struct{}

// slots bounds the subscriptions one connection runs at once.
type slots struct {
	used atomic.Int64
	max  int64
}

// WithSubscriptionLimit returns a context whose subscriptions, those of one
// connection, number at most max at once.
func WithSubscriptionLimit(ctx context.Context, max int) context.Context {
	return context.WithValue(ctx, slotsKey{}, &slots{max: int64(max)})
}

// take reserves a slot of the connection of ctx, if it has a limit.
func take(ctx context.Context) (release func(), err error) {
	s, ok := ctx.Value(slotsKey{}).(*slots)
	if !ok {
		return func() {}, nil
	}
	if s.used.Add(1) > s.max {
		s.used.Add(-1)
		return nil, apperr.RateLimitedf("This connection runs %d subscriptions already, the most it may: end one first", s.max)
	}
	return func() { s.used.Add(-1) }, nil
}

// watch subscribes to topic for the viewer of ctx. allowed decides whether
// the viewer may watch: at once, where a refusal is the subscription's
// error, and again before every event, where it ends the subscription.
// Before each event the request's loaders forget what they read, so that
// the event's fields show the data as it is then.
func (r *Resolver) watch(ctx context.Context, topic string, allowed func(ctx context.Context) error) (<-chan *events.Event, error) {
	if err := allowed(ctx); err != nil {
		return nil, err
	}
	release, err := take(ctx)
	if err != nil {
		return nil, err
	}
	in, err := r.bus.Subscribe(ctx, topic)
	if err != nil {
		release()
		return nil, err
	}
	out := make(chan *events.Event)
	if r.subscriptions != nil {
		r.subscriptions.Inc()
		release = func(release func()) func() {
			return func() { r.subscriptions.Dec(); release() }
		}(release)
	}
	go func() {
		defer close(out)
		defer release()
		for e := range in {
			loadersFrom(ctx).clear()
			if err := allowed(ctx); err != nil {
				return
			}
			select {
			case out <- &e:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// watchSpace subscribes to a topic of a space whoever sees the space may
// watch.
func (r *Resolver) watchSpace(ctx context.Context, spaceID, topic string) (<-chan *events.Event, error) {
	return r.watch(ctx, topic, func(ctx context.Context) error {
		_, _, err := r.spaces.get(ctx, spaceID)
		return err
	})
}

// watchComments subscribes to the comments of a space, or of one of its
// change requests.
func (r *Resolver) watchComments(ctx context.Context, spaceID string, changeRequestID *string) (<-chan *events.Event, error) {
	crID := deref(changeRequestID)
	return r.watch(ctx, events.CommentsTopic(spaceID, crID), func(ctx context.Context) error {
		if _, _, err := r.spaces.get(ctx, spaceID); err != nil || crID == "" {
			return err
		}
		cr, _, err := r.changeRequests.get(ctx, crID)
		if err != nil {
			return err
		}
		if cr.SpaceID != spaceID {
			return apperr.NotFoundf("Change request not found")
		}
		return nil
	})
}
