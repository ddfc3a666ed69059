package graph

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// batchWait is how long a loader collects keys before it queries. Sibling
// fields resolve concurrently, so a millisecond gathers a whole list.
const batchWait = time.Millisecond

// loaders are the per-request dataloaders: every nested field loads through
// them, so a list of N items costs a bounded number of queries, not N.
//
// The loaders of resources by ID come from the policies (see policy), one per
// type; the others are declared in newLoaders. Every loader is registered with
// its clearing as it is made, so none can be forgotten by clear.
type loaders struct {
	// entities holds the loader of each resource type, by type name.
	entities map[string]any
	// direct holds, by loader, the *directLoader that runs its batch
	// function at once (see load).
	direct map[any]any
	// spaceCounts holds the counters of spaces.
	spaceCounts *dataloader.Loader[string, spaceCounts]
	// orgAccess holds, per organization, what authorization needs to decide
	// for the viewer.
	orgAccess *dataloader.Loader[string, *authz.Org]
	// sharedUsers tells, per user, whether they share an organization with
	// the viewer.
	sharedUsers *dataloader.Loader[string, bool]
	// crComments counts the open comments of change requests.
	crComments *dataloader.Loader[string, int]
	// crContributors lists the contributors of change requests.
	crContributors *dataloader.Loader[string, []*ent.User]
	// replyCounts counts the replies of comments.
	replyCounts *dataloader.Loader[string, int]
	// reactions lists the reactions to comments and replies, by their ID.
	reactions *dataloader.Loader[string, []*ent.Reaction]
	// mentions lists the users comments and replies mention, by their ID.
	mentions *dataloader.Loader[string, []*ent.User]
	// memberCounts counts the spaces and teams of members.
	memberCounts *dataloader.Loader[string, countPair]
	// teamCounts counts the members and spaces of teams.
	teamCounts *dataloader.Loader[string, countPair]
	// mergedFrom finds, by revision, the change request whose merge made it.
	mergedFrom *dataloader.Loader[string, *ent.ChangeRequest]
	// nested holds the pages of nested lists primed by a listed page.
	nested *nestedPages

	clears []func()

	mu        sync.Mutex
	facts     *viewerFacts               // loaded on first use, see Resolver.viewerFacts
	contents  map[string]*content.Loaded // by revision ID, see Resolver.contentOf
	shareKeys map[string]string          // space ID to the share key the request presented
	keyOrgs   map[string]bool            // organizations a valid share key opened a space of
}

type loadersKey struct{}

// WithLoaders returns a context with fresh per-request loaders. Both
// transports call it once per request. When the viewer's facts were read
// with their token (Authenticate), the loaders start from them; once a
// mutation clears the loaders, they are read again.
func (r *Resolver) WithLoaders(ctx context.Context) context.Context {
	l := r.newLoaders(nil)
	if v := auth.ViewerFrom(ctx); v != nil && v.User != nil && v.Facts != nil {
		l.facts = &viewerFacts{user: v.User, loaded: true, memberships: v.Facts.Memberships, grants: v.Facts.Grants}
	}
	return withLoaders(ctx, l)
}

func withLoaders(ctx context.Context, l *loaders) context.Context {
	return context.WithValue(ctx, loadersKey{}, l)
}

func loadersFrom(ctx context.Context) *loaders {
	l, _ := ctx.Value(loadersKey{}).(*loaders)
	if l == nil {
		panic("graph: no loaders in context; wrap the request with Resolver.WithLoaders")
	}
	return l
}

// newBatchLoader makes a loader of the request from its batch function, and
// registers its clearing for clear and its batch function for loads that
// nothing can batch with (see load).
func newBatchLoader[V any](l *loaders, fn dataloader.BatchFunc[string, V]) *dataloader.Loader[string, V] {
	cache := dataloader.NewCache[string, V]()
	ld := dataloader.NewBatchedLoader(fn, dataloader.WithWait[string, V](batchWait),
		dataloader.WithCache[string, V](cache))
	l.direct[ld] = &directLoader[V]{cache: cache, fetch: fn}
	l.clears = append(l.clears, func() { ld.ClearAll() })
	return ld
}

// batched is a loader whose batch function returns values by key; a missing
// key loads as the zero value.
func batched[V any](l *loaders, fetch func(context.Context, []string) (map[string]V, error)) *dataloader.Loader[string, V] {
	return newBatchLoader(l, func(ctx context.Context, ids []string) []*dataloader.Result[V] {
		byID, err := fetch(ctx, ids)
		return results(ids, byID, err, true)
	})
}

func (r *Resolver) newLoaders(shareKeys map[string]string) *loaders {
	l := &loaders{entities: map[string]any{}, direct: map[any]any{}, shareKeys: map[string]string{},
		keyOrgs: map[string]bool{}, contents: map[string]*content.Loaded{}}
	for k, v := range shareKeys {
		l.shareKeys[k] = v
	}
	for _, p := range r.policies {
		l.entities[p.name()] = p.newLoader(r, l)
	}
	l.crComments = batched(l, r.loadChangeRequestComments)
	l.crContributors = batched(l, r.loadChangeRequestContributors)
	l.mergedFrom = batched(l, r.loadMergedFrom)
	l.replyCounts = batched(l, r.loadReplyCounts)
	l.memberCounts = batched(l, r.loadMemberCounts)
	l.teamCounts = batched(l, r.loadTeamCounts)
	l.reactions = batched(l, r.loadReactions)
	l.mentions = batched(l, r.loadMentions)
	l.sharedUsers = batched(l, r.loadSharedUsers)
	l.spaceCounts = batched(l, r.loadSpaceCounts)
	l.orgAccess = batched(l, r.loadOrgAccess)
	l.nested = newNestedPages(l)
	return l
}

// newLoader returns a loader of entities by ID. A missing ID loads as an ent
// not-found error.
func newLoader[T any](l *loaders, fetch func(context.Context, []string) ([]T, error), idOf func(T) string) *dataloader.Loader[string, T] {
	return newBatchLoader(l, func(ctx context.Context, ids []string) []*dataloader.Result[T] {
		items, err := fetch(ctx, ids)
		byID := make(map[string]T, len(items))
		for _, it := range items {
			byID[idOf(it)] = it
		}
		return results(ids, byID, err, false)
	})
}

// results orders batch results by key. Missing keys are not-found errors, or
// zero values when zeroOK.
func results[T any](keys []string, byKey map[string]T, err error, zeroOK bool) []*dataloader.Result[T] {
	out := make([]*dataloader.Result[T], len(keys))
	for i, k := range keys {
		switch v, ok := byKey[k]; {
		case err != nil:
			out[i] = &dataloader.Result[T]{Error: err}
		case ok || zeroOK:
			out[i] = &dataloader.Result[T]{Data: v}
		default:
			out[i] = &dataloader.Result[T]{Error: &ent.NotFoundError{}}
		}
	}
	return out
}

// clear drops everything cached, after a mutation changed the data.
func (l *loaders) clear() {
	if l == nil {
		return
	}
	for _, c := range l.clears {
		c()
	}
	l.mu.Lock()
	l.facts = nil
	l.contents = map[string]*content.Loaded{}
	l.keyOrgs = map[string]bool{}
	l.mu.Unlock()
}

func (l *loaders) viewerShareKeys() map[string]string {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]string, len(l.shareKeys))
	for k, v := range l.shareKeys {
		out[k] = v
	}
	return out
}

func (l *loaders) setShareKey(spaceID, key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shareKeys[spaceID] = key
}

// openOrg records that a valid share key opened a space of the organization,
// which makes the organization visible to the viewer (see authz.Org).
func (l *loaders) openOrg(orgID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keyOrgs[orgID] = true
}

func (l *loaders) orgOpened(orgID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keyOrgs[orgID]
}

func (l *loaders) shareKey(spaceID string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shareKeys[spaceID]
}

// spaceCounts are the counters of a space.
type spaceCounts struct {
	Comments, ChangeRequests, Open, Draft int
}

// loadChangeRequestComments counts the open comments of change requests.
func (r *Resolver) loadChangeRequestComments(ctx context.Context, ids []string) (map[string]int, error) {
	ctx = internal(ctx, "counts of change requests the viewer sees")
	var rows []struct {
		ChangeRequestID string `json:"change_request_id"`
		Count           int    `json:"count"`
	}
	err := r.db(ctx).Comment.Query().
		Where(comment.ChangeRequestIDIn(ids...), comment.StatusEQ(enum.CommentStatusOpen)).
		GroupBy(comment.FieldChangeRequestID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("counting change request comments: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, row := range rows {
		out[row.ChangeRequestID] = row.Count
	}
	return out, nil
}

// loadChangeRequestContributors lists the contributors of change requests,
// in ID order: two statements for any number of change requests.
func (r *Resolver) loadChangeRequestContributors(ctx context.Context, ids []string) (map[string][]*ent.User, error) {
	crs, err := r.db(ctx).ChangeRequest.Query().Where(changerequest.IDIn(ids...)).
		WithContributors(func(q *ent.UserQuery) { q.Order(user.ByID()) }).
		All(internal(ctx, "contributors of change requests the viewer sees"))
	if err != nil {
		return nil, fmt.Errorf("loading contributors: %w", err)
	}
	out := make(map[string][]*ent.User, len(crs))
	for _, cr := range crs {
		out[cr.ID] = cr.Edges.Contributors
		if out[cr.ID] == nil {
			out[cr.ID] = []*ent.User{}
		}
	}
	return out, nil
}
