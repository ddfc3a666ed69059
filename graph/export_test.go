package graph

import (
	"context"

	"github.com/bindery/bindery/internal/events"
)

// InTx runs fn in a transaction of the application layer, as a mutation
// does, for tests of what transactions do.
func (r *Resolver) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return r.tx(ctx, fn)
}

// Emit emits an event as a mutation does.
func (r *Resolver) Emit(ctx context.Context, e events.Event) { r.emit(ctx, e) }

// AccessStatement builds the access statement, for tests of its plan.
func AccessStatement(d, userID string, withFacts bool, orgIDs []string) (string, []any) {
	return accessStatement(d, userID, withFacts, orgIDs).Query()
}

// ViewerStatement builds the token statement, for tests of its plan.
func ViewerStatement(d string) (string, []any) {
	return viewerStatement(d).Query()
}

// ViewerCacheHits returns how many requests reused the facts of their
// token's user (see viewerCache).
func (r *Resolver) ViewerCacheHits() int64 { return r.viewers.hits.Load() }

// ViewerTokenStatement builds the statement that reads a token alone, for
// tests of its plan.
func ViewerTokenStatement(d string) (string, []any) {
	return viewerTokenStatement(d).Query()
}
