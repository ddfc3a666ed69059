package graph

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/authz"
)

// A mutation states its rule and its write; the plumbing around them is
// here, the same for every mutation:
//
//   - transact runs the write in one transaction (see Resolver.tx): retried
//     from the start when the database gives up on it, its events (emit)
//     published once it commits.
//   - mutate and act authorize the one resource the write acts on (for a
//     create, its parent) with the action, before the write runs; with a
//     lock, the lock is taken before the resource is read.
//   - What the answer shows is recorded as the write goes (policy.wrote,
//     primeAfter, or what mutate's write returns). The end of the
//     transaction clears the request's loaders, since the data they held may
//     have changed; once it commits, they are primed with what was recorded,
//     so that the answer reads none of it again. A run the database gave up
//     on forgets what it recorded, as it forgets its events.

// transact runs write in one transaction and returns what it returns once
// the transaction commits.
func transact[R any](ctx context.Context, r *Resolver, write func(ctx context.Context) (R, error)) (R, error) {
	var out R
	err := r.tx(ctx, func(ctx context.Context) error {
		var err error
		out, err = write(ctx)
		return err
	})
	if err != nil {
		var zero R
		return zero, err
	}
	return out, nil
}

// mutate runs a mutation of the resource id of policy p: in one
// transaction (see transact), it authorizes the action on the resource and
// runs write with it and the decision. What write returns, when it is of
// the resource's type (the resource as updated, or a copy of it), is what
// the answer shows: it is recorded (see policy.wrote). A create authorizes
// its parent, and records what it creates itself.
func mutate[T ent.Noder, P ~func(*sql.Selector), R any](ctx context.Context, r *Resolver, p *policy[T, P], id string,
	a authz.Action, write func(ctx context.Context, x T, d authz.Decision) (R, error)) (R, error) {
	return mutateLocked(ctx, r, nil, p, id, a, write)
}

// mutateLocked is mutate for a write that takes a lock first, before it
// reads anything, so that what it reads is what the transaction before it
// left (see lockSite); lock may be nil.
func mutateLocked[T ent.Noder, P ~func(*sql.Selector), R any](ctx context.Context, r *Resolver, lock func(ctx context.Context) error,
	p *policy[T, P], id string, a authz.Action, write func(ctx context.Context, x T, d authz.Decision) (R, error)) (R, error) {
	return transact(ctx, r, func(ctx context.Context) (R, error) {
		var zero R
		if lock != nil {
			if err := lock(ctx); err != nil {
				return zero, err
			}
		}
		x, d, err := p.authorize(ctx, id, a)
		if err != nil {
			return zero, err
		}
		out, err := write(ctx, x, d)
		if err != nil {
			return zero, err
		}
		if v, ok := any(out).(T); ok && any(v) != any(*new(T)) {
			p.wrote(ctx, v)
		}
		return out, nil
	})
}

// act is mutate for a write that answers nothing, such as a delete.
func act[T ent.Noder, P ~func(*sql.Selector)](ctx context.Context, r *Resolver, p *policy[T, P], id string, a authz.Action,
	write func(ctx context.Context, x T, d authz.Decision) error) error {
	_, err := mutate(ctx, r, p, id, a, func(ctx context.Context, x T, d authz.Decision) (struct{}, error) {
		return struct{}{}, write(ctx, x, d)
	})
	return err
}

// wrote records that the answer of the transaction in ctx shows vs, as
// the transaction read or wrote them: the request's loader of the type
// holds them once it commits (see primeAfter).
func (p *policy[T, P]) wrote(ctx context.Context, vs ...T) {
	for _, v := range vs {
		primeAfter(ctx, func(l *loaders) *batchLoader[T] { return l.entity(p).(*batchLoader[T]) }, p.idOf(v), v)
	}
}

// primeAfter primes a loader of the request (loader picks it) with v at key
// once the transaction of ctx commits and the request's loaders are
// cleared; outside a transaction, at once. Of two records of one key, the
// later wins: it is what the transaction left.
func primeAfter[V any](ctx context.Context, loader func(*loaders) *batchLoader[V], key string, v V) {
	prime := func(ctx context.Context) { loader(loadersFrom(ctx)).Prime(ctx, key, v) }
	if p, ok := ctx.Value(pendingKey{}).(*pending); ok {
		p.primes = append(p.primes, prime)
		return
	}
	loader(loadersFrom(ctx)).Clear(ctx, key)
	prime(ctx)
}

// primeRecorded primes the request's loaders in ctx with what a committed
// transaction recorded: the latest record of a key first, since a key
// primed keeps its value.
func primeRecorded(ctx context.Context, primes []func(context.Context)) {
	for i := len(primes) - 1; i >= 0; i-- {
		primes[i](ctx)
	}
}
