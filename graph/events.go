package graph

import (
	"context"

	"github.com/bindery/bindery/internal/events"
)

// WithBus sets the bus that carries events to subscribers; by default, one
// inside the process.
func WithBus(b events.Bus) Option { return func(r *Resolver) { r.bus = b } }

// Bus returns the bus events are published on.
func (r *Resolver) Bus() events.Bus { return r.bus }

// pendingKey holds the events of the transaction in a context.
type pendingKey struct{}

// pending is what a transaction will publish once it commits.
type pending struct{ events []events.Event }

// emit publishes an event once the transaction of ctx commits, and never if
// it rolls back; outside a transaction, at once. A failure to publish is
// logged: the change it reports is made.
func (r *Resolver) emit(ctx context.Context, e events.Event) {
	if p, ok := ctx.Value(pendingKey{}).(*pending); ok {
		p.events = append(p.events, e)
		return
	}
	r.publish(ctx, []events.Event{e})
}

// withPending returns a context whose emitted events wait for the
// transaction that runs in it, and whether they are new: the first r.tx of
// a transaction publishes them when it commits.
func withPending(ctx context.Context) (context.Context, *pending, bool) {
	if p, ok := ctx.Value(pendingKey{}).(*pending); ok {
		return ctx, p, false
	}
	p := &pending{}
	return context.WithValue(ctx, pendingKey{}, p), p, true
}

func (r *Resolver) publish(ctx context.Context, evs []events.Event) {
	if len(evs) == 0 {
		return
	}
	if err := r.bus.Publish(context.WithoutCancel(ctx), evs...); err != nil {
		r.log.ErrorContext(ctx, "publishing events", "error", err, "events", len(evs))
	}
}
