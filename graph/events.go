package graph

import (
	"context"

	"github.com/bindery/bindery/ent"

	"github.com/bindery/bindery/internal/events"
)

// WithBus sets the bus that carries events to subscribers; by default, one
// inside the process.
func WithBus(b events.Bus) Option { return func(r *Resolver) { r.bus = b } }

// Bus returns the bus events are published on.
func (r *Resolver) Bus() events.Bus { return r.bus }

// pendingKey holds the events of the transaction in a context.
type pendingKey struct{}

// pending is what a transaction will publish, and the work it will start,
// once it commits.
type pending struct {
	events []events.Event
	after  []func()
	// err is the first failure to write the webhook outbox: the
	// transaction rolls back with it, so no change goes unreported.
	err error
	// endpoints caches, per organization, the active webhook endpoints the
	// transaction read, so that a mutation emitting many events reads them
	// once.
	endpoints map[string][]*ent.WebhookEndpoint
	// primes fill the request's loaders, cleared after the transaction,
	// with what its answer shows (see primeAfter).
	primes []func(ctx context.Context)
}

// afterCommit runs fn once the transaction of ctx commits, and never if it
// rolls back; outside a transaction, at once. It is for work outside the
// database that reports a change, such as sending email: the change must
// be made before anyone hears of it.
func (r *Resolver) afterCommit(ctx context.Context, fn func()) {
	if p, ok := ctx.Value(pendingKey{}).(*pending); ok {
		p.after = append(p.after, fn)
		return
	}
	fn()
}

// emit publishes an event once the transaction of ctx commits, and never if
// it rolls back; outside a transaction, at once. A failure to publish is
// logged: the change it reports is made.
//
// A webhook event (events.Event.For) is also written to the webhook outbox
// now, in the transaction of the change (see enqueueWebhooks): it commits
// or rolls back with the change. A failure to write it fails the
// transaction.
func (r *Resolver) emit(ctx context.Context, e events.Event) {
	p, inTx := ctx.Value(pendingKey{}).(*pending)
	if e.Webhook != "" && e.Organization != "" {
		err := r.enqueueWebhooks(ctx, e)
		switch {
		case err != nil && inTx:
			if p.err == nil {
				p.err = err
			}
		case err != nil:
			r.log.ErrorContext(ctx, "writing webhook deliveries", "error", err, "event", e.Webhook)
		}
	}
	if e.Topic == "" {
		return
	}
	if inTx {
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
