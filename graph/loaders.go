package graph

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/revision"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// batchWait is how long a loader collects keys before it queries. Sibling
// fields resolve concurrently, so a millisecond gathers a whole list.
const batchWait = time.Millisecond

// loaders are the per-request dataloaders: every nested field loads through
// them, so a list of N items costs a bounded number of queries, not N.
type loaders struct {
	users         *dataloader.Loader[string, *ent.User]
	organizations *dataloader.Loader[string, *ent.Organization]
	collections   *dataloader.Loader[string, *ent.Collection]
	spaces        *dataloader.Loader[string, *ent.Space]
	revisions     *dataloader.Loader[string, *ent.Revision]
	spaceCounts   *dataloader.Loader[string, spaceCounts]
	// orgAccess holds, per organization, what authorization needs to decide
	// for the viewer.
	orgAccess *dataloader.Loader[string, *authz.Org]

	changeRequests *dataloader.Loader[string, *ent.ChangeRequest]
	// sharedUsers tells, per user, whether they share an organization with
	// the viewer.
	sharedUsers *dataloader.Loader[string, bool]
	// crComments counts the open comments of change requests.
	crComments *dataloader.Loader[string, int]

	mu        sync.Mutex
	facts     *viewerFacts               // loaded on first use, see Resolver.viewerFacts
	contents  map[string]*content.Loaded // by revision ID, see Resolver.contentOf
	shareKeys map[string]string          // space ID to the share key the request presented
}

type loadersKey struct{}

// WithLoaders returns a context with fresh per-request loaders. Both
// transports call it once per request.
func (r *Resolver) WithLoaders(ctx context.Context) context.Context {
	return withLoaders(ctx, r.newLoaders(nil))
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

func (r *Resolver) newLoaders(shareKeys map[string]string) *loaders {
	l := &loaders{shareKeys: map[string]string{}, contents: map[string]*content.Loaded{}}
	for k, v := range shareKeys {
		l.shareKeys[k] = v
	}
	l.users = newLoader(func(ctx context.Context, ids []string) ([]*ent.User, error) {
		return r.db(ctx).User.Query().Where(user.IDIn(ids...)).All(ctx)
	}, func(u *ent.User) string { return u.ID })
	l.organizations = newLoader(func(ctx context.Context, ids []string) ([]*ent.Organization, error) {
		return r.db(ctx).Organization.Query().Where(organization.IDIn(ids...)).All(ctx)
	}, func(o *ent.Organization) string { return o.ID })
	l.collections = newLoader(func(ctx context.Context, ids []string) ([]*ent.Collection, error) {
		return r.db(ctx).Collection.Query().Where(collection.IDIn(ids...)).All(ctx)
	}, func(c *ent.Collection) string { return c.ID })
	l.spaces = newLoader(func(ctx context.Context, ids []string) ([]*ent.Space, error) {
		return r.db(ctx).Space.Query().Where(space.IDIn(ids...)).All(ctx)
	}, func(s *ent.Space) string { return s.ID })
	l.revisions = newLoader(func(ctx context.Context, ids []string) ([]*ent.Revision, error) {
		return r.db(ctx).Revision.Query().Where(revision.IDIn(ids...)).All(ctx)
	}, func(v *ent.Revision) string { return v.ID })
	l.changeRequests = newLoader(func(ctx context.Context, ids []string) ([]*ent.ChangeRequest, error) {
		return r.db(ctx).ChangeRequest.Query().Where(changerequest.IDIn(ids...)).All(ctx)
	}, func(c *ent.ChangeRequest) string { return c.ID })
	l.crComments = dataloader.NewBatchedLoader(func(ctx context.Context, ids []string) []*dataloader.Result[int] {
		counts, err := r.loadChangeRequestComments(ctx, ids)
		return results(ids, counts, err, true)
	}, dataloader.WithWait[string, int](batchWait))
	l.sharedUsers = dataloader.NewBatchedLoader(func(ctx context.Context, ids []string) []*dataloader.Result[bool] {
		shared, err := r.loadSharedUsers(ctx, ids)
		return results(ids, shared, err, true)
	}, dataloader.WithWait[string, bool](batchWait))
	l.spaceCounts = dataloader.NewBatchedLoader(func(ctx context.Context, ids []string) []*dataloader.Result[spaceCounts] {
		counts, err := r.loadSpaceCounts(ctx, ids)
		return results(ids, counts, err, true)
	}, dataloader.WithWait[string, spaceCounts](batchWait))
	l.orgAccess = dataloader.NewBatchedLoader(func(ctx context.Context, ids []string) []*dataloader.Result[*authz.Org] {
		orgs, err := r.loadOrgAccess(ctx, ids)
		return results(ids, orgs, err, true)
	}, dataloader.WithWait[string, *authz.Org](batchWait))
	return l
}

// newLoader returns a loader of entities by ID. A missing ID loads as an ent
// not-found error.
func newLoader[T any](fetch func(context.Context, []string) ([]T, error), idOf func(T) string) *dataloader.Loader[string, T] {
	return dataloader.NewBatchedLoader(func(ctx context.Context, ids []string) []*dataloader.Result[T] {
		items, err := fetch(ctx, ids)
		byID := make(map[string]T, len(items))
		for _, it := range items {
			byID[idOf(it)] = it
		}
		return results(ids, byID, err, false)
	}, dataloader.WithWait[string, T](batchWait))
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
	l.users.ClearAll()
	l.organizations.ClearAll()
	l.collections.ClearAll()
	l.spaces.ClearAll()
	l.revisions.ClearAll()
	l.changeRequests.ClearAll()
	l.crComments.ClearAll()
	l.sharedUsers.ClearAll()
	l.spaceCounts.ClearAll()
	l.orgAccess.ClearAll()
	l.mu.Lock()
	l.facts = nil
	l.contents = map[string]*content.Loaded{}
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

func (l *loaders) shareKey(spaceID string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shareKeys[spaceID]
}

// load fetches one entity through a loader.
func load[T any](ctx context.Context, l *dataloader.Loader[string, T], id string) (T, error) {
	return l.Load(ctx, id)()
}

// spaceCounts are the counters of a space.
type spaceCounts struct {
	Comments, ChangeRequests, Open, Draft int
}

func (r *Resolver) loadSpaceCounts(ctx context.Context, ids []string) (map[string]spaceCounts, error) {
	var crs []struct {
		SpaceID string                   `json:"space_id"`
		Status  enum.ChangeRequestStatus `json:"status"`
		Count   int                      `json:"count"`
	}
	err := r.db(ctx).ChangeRequest.Query().Where(changerequest.SpaceIDIn(ids...)).
		GroupBy(changerequest.FieldSpaceID, changerequest.FieldStatus).Aggregate(ent.Count()).Scan(ctx, &crs)
	if err != nil {
		return nil, fmt.Errorf("counting change requests: %w", err)
	}
	var comments []struct {
		SpaceID string `json:"space_id"`
		Count   int    `json:"count"`
	}
	err = r.db(ctx).Comment.Query().
		Where(comment.SpaceIDIn(ids...), comment.ChangeRequestIDIsNil(), comment.StatusEQ(enum.CommentStatusOpen)).
		GroupBy(comment.FieldSpaceID).Aggregate(ent.Count()).Scan(ctx, &comments)
	if err != nil {
		return nil, fmt.Errorf("counting comments: %w", err)
	}
	out := make(map[string]spaceCounts, len(ids))
	for _, c := range crs {
		sc := out[c.SpaceID]
		sc.ChangeRequests += c.Count
		switch c.Status {
		case enum.ChangeRequestStatusOpen:
			sc.Open += c.Count
		case enum.ChangeRequestStatusDraft:
			sc.Draft += c.Count
		}
		out[c.SpaceID] = sc
	}
	for _, c := range comments {
		sc := out[c.SpaceID]
		sc.Comments = c.Count
		out[c.SpaceID] = sc
	}
	return out, nil
}

// loadChangeRequestComments counts the open comments of change requests.
func (r *Resolver) loadChangeRequestComments(ctx context.Context, ids []string) (map[string]int, error) {
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
