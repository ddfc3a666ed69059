package graph

import (
	"context"
	"fmt"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/graph-gophers/dataloader/v7"

	"github.com/bindery/bindery/graph/gqlexec"
)

// A dataloader batches the keys that arrive within its wait (batchWait), so
// that the siblings of a list, which gqlgen resolves concurrently, load in
// one query. A load that has no sibling would only wait: a point read, a
// /v1 handler, a field of an object that is not in a list. Such a load runs
// the loader's batch function at once instead, through the same cache, so
// that a key is still read once per request. Lists prime their items' needs
// in fixed batches (see primeSpaces, primeChangeRequests), which, outside a
// list, do not wait either.

// directLoader runs a loader's batch function at once for the keys it is not
// holding yet.
type directLoader[V any] struct {
	mu    sync.Mutex
	cache *dataloader.InMemoryCache[string, V]
	fetch dataloader.BatchFunc[string, V]
}

// fanOutKey marks a context whose loads have siblings to batch with.
type fanOutKey struct{}

// FanOut returns a context for one of several items resolved concurrently,
// whose loads batch with each other's: /v1 presents the items of a list
// with it. In GraphQL, gqlgen's list elements are recognised by their field
// context.
func FanOut(ctx context.Context) context.Context { return context.WithValue(ctx, fanOutKey{}, true) }

// fannedOut reports whether a load has siblings that may batch with it.
func fannedOut(ctx context.Context) bool {
	if ctx.Value(fanOutKey{}) != nil {
		return true
	}
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		if fc.Index != nil {
			return true
		}
	}
	return false
}

// load fetches one value through a loader: from the cache the loader and
// its direct path share when it holds the key (most loads of a primed
// list, which need neither the search for siblings nor the loader's own
// bookkeeping); otherwise batched with its siblings when it has some, at
// once when not.
func load[T any](ctx context.Context, ld *batchLoader[T], id string) (T, error) {
	if t, ok := ld.direct.cache.Get(ctx, id); ok {
		return t()
	}
	if !fannedOut(ctx) {
		vs, errs := ld.direct.load(ctx, []string{id})
		return vs[0], errs[0]
	}
	gqlexec.Missed(ctx)
	return ld.Load(ctx, id)()
}

// loadMany fetches values through a loader: batched with its siblings' when
// it has some, otherwise the keys it does not hold in one batch, at once.
func loadMany[T any](ctx context.Context, ld *batchLoader[T], ids []string) ([]T, []error) {
	if !fannedOut(ctx) {
		return ld.direct.load(ctx, ids)
	}
	ld.missed(ctx, ids...)
	return ld.LoadMany(ctx, ids)()
}

// missed starts the siblings of the list elements around ctx that gqlgen
// marshals one at a time (see gqlexec) when a key is not cached, before the
// load waits for its batch, so that their loads join the batch.
func (ld *batchLoader[T]) missed(ctx context.Context, ids ...string) {
	for _, id := range ids {
		if _, ok := ld.direct.cache.Get(ctx, id); !ok {
			gqlexec.Missed(ctx)
			return
		}
	}
}

// load returns the values of keys, reading those not cached in one call of
// the batch function. Each key read is cached as it is claimed, so that a
// concurrent load of the same key waits for this one instead of reading it
// again.
func (d *directLoader[V]) load(ctx context.Context, keys []string) ([]V, []error) {
	thunks := make([]dataloader.Thunk[V], len(keys))
	var missing []string
	results := map[string]*dataloader.Result[V]{}
	done := make(chan struct{})
	d.mu.Lock()
	for i, k := range keys {
		if t, ok := d.cache.Get(ctx, k); ok {
			thunks[i] = t
			continue
		}
		if _, claimed := results[k]; !claimed {
			missing = append(missing, k)
			results[k] = nil
			d.cache.Set(ctx, k, func() (V, error) {
				<-done
				res := results[k]
				return res.Data, res.Error
			})
		}
		thunks[i], _ = d.cache.Get(ctx, k)
	}
	d.mu.Unlock()
	if len(missing) > 0 {
		d.fetchInto(ctx, missing, results)
		close(done)
	}
	vs, errs := make([]V, len(keys)), make([]error, len(keys))
	for i, t := range thunks {
		vs[i], errs[i] = t()
	}
	return vs, errs
}

// fetchInto runs the batch function for keys and records a result for each,
// an error when it panics or answers the wrong number of results.
func (d *directLoader[V]) fetchInto(ctx context.Context, keys []string, into map[string]*dataloader.Result[V]) {
	var res []*dataloader.Result[V]
	defer func() {
		if p := recover(); p != nil {
			res = nil
			for _, k := range keys {
				into[k] = &dataloader.Result[V]{Error: fmt.Errorf("loading %s: panic: %v", k, p)}
			}
		}
	}()
	res = d.fetch(ctx, keys)
	for i, k := range keys {
		if len(res) != len(keys) {
			into[k] = &dataloader.Result[V]{Error: fmt.Errorf("loading %s: %d results for %d keys", k, len(res), len(keys))}
			continue
		}
		into[k] = res[i]
	}
}
