package graph

import (
	"context"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/authz"
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

// ViewersUnread returns how many requests were authenticated without a
// statement (see viewerCache).
func (r *Resolver) ViewersUnread() int64 { return r.viewers.unread.Load() }

// SetKeptViewerAge sets how long a token is trusted without a statement;
// 0 reads it on every request. Set it before the first request.
func (r *Resolver) SetKeptViewerAge(d time.Duration) { r.viewers.age = d }

// ViewerTokenStatement builds the statement that reads a token alone, for
// tests of its plan.
func ViewerTokenStatement(d string) (string, []any) {
	return viewerTokenStatement(d).Query()
}

// MutateSpace runs write as a mutation of the space id with the action
// (see mutateLocked); lock, when not nil, is taken first.
func (r *Resolver) MutateSpace(ctx context.Context, id string, a authz.Action, lock func(context.Context) error,
	write func(ctx context.Context, s *ent.Space) (*ent.Space, error)) (*ent.Space, error) {
	return mutateLocked(ctx, r, lock, r.spaces, id, a, func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.Space, error) {
		return write(ctx, s)
	})
}

// WroteSpace records that a mutation's answer shows s (see policy.wrote).
func (r *Resolver) WroteSpace(ctx context.Context, s *ent.Space) { r.spaces.wrote(ctx, s) }

// CachedSpace returns the space the request's loader holds, without
// loading it; nil when it holds none.
func (r *Resolver) CachedSpace(ctx context.Context, id string) *ent.Space {
	th, ok := r.spaces.loader(ctx).direct.cache.Get(ctx, id)
	if !ok {
		return nil
	}
	s, _ := th()
	return s
}

// Writes returns the count of writes g names.
func (g Generation) Writes() uint64 { return g.writes }

// ChangesTopic is the topic on which servers announce their writes.
const ChangesTopic = changesTopic

// ReadBranches reads the heads of the connected branches due, as the
// worker's tidy does.
func (w *GitSyncWorker) ReadBranches(ctx context.Context) { w.readBranches(ctx) }
