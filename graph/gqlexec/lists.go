// Package gqlexec runs the elements of a GraphQL list the way Bindery's
// loaders need, with a goroutine only where one buys a batch; answers an
// object with one allocation rather than gqlgen's several (Answer,
// object.go); remembers the fields a list's objects collect
// (CollectFields, collect.go); and answers a query's scalar fields with a
// pointer to their value (StringAt and its kind, scalar.go).
//
// gqlgen marshals every list of objects with graphql.MarshalSliceConcurrently,
// a goroutine per element, so that the elements' loads reach a dataloader
// together and share one query. When the list's page primed what its items
// show (see graph/nested.go), nothing waits and the goroutines are pure cost:
// starting them, growing their stacks and collecting their garbage was about
// a fifth of the CPU of a nested read of 50 spaces and 500 change requests.
// gqlgen v0.17.95 has no switch for it (its issues #3202 and #4321 ask for
// one), so the code generator (graph/internal/gqlgen) makes the generated
// code call MarshalSlice instead.
//
// MarshalSlice runs the elements one after another in the caller's
// goroutine, until one of them is about to wait for a load that is not
// cached: the loader calls Missed first, which starts the remaining elements
// at once, each in a goroutine, so that their loads join the waiting one's
// batch as they would have with gqlgen. Missed releases the enclosing lists
// too, up to the first one already running concurrently, so that a batch
// sees every sibling it would have seen. The statements a request costs are
// those of the concurrent marshalling; only the goroutines go.
package gqlexec

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
)

// list is one list being marshalled.
type list struct {
	ctx              context.Context // the list's context, with the list in it
	parent           *list           // the enclosing list, if any
	marshal          func(ctx context.Context, i int) graphql.Marshaler
	omitPanicHandler bool
	ret              graphql.Array
	// The elements' field contexts, indices and contexts, made at once
	// rather than three allocations for each element.
	elements  []element
	collected collections // see CollectFields
	failed    atomic.Bool // an element panicked: the list is null
	wg        sync.WaitGroup

	mu       sync.Mutex
	current  int  // the element running in the caller's goroutine
	released bool // the elements after current have been started
	done     bool // the caller has run its last element: start nothing more
}

type listKey struct{}

// element is what a list element's context is made of.
type element struct {
	fc    graphql.FieldContext
	index int
	ctx   fieldContext
}

// MarshalSlice marshals the elements of a list; its signature and its
// answers are those of graphql.MarshalSliceConcurrently, which it calls for a
// list with a worker limit.
func MarshalSlice(ctx context.Context, length int, workerLimit int64, omitPanicHandler bool,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler) graphql.Array {
	if workerLimit > 0 {
		return graphql.MarshalSliceConcurrently(ctx, length, workerLimit, omitPanicHandler, marshalElement)
	}
	l := &list{marshal: marshalElement, omitPanicHandler: omitPanicHandler, ret: make(graphql.Array, length),
		elements: make([]element, length)}
	l.parent, _ = ctx.Value(listKey{}).(*list)
	l.ctx = context.WithValue(ctx, listKey{}, l)
	for i := 0; i < length; {
		l.ret[i] = l.element(i)
		i++
		l.mu.Lock()
		if l.released || i == length {
			l.done = true
			l.mu.Unlock()
			break
		}
		l.current = i
		l.mu.Unlock()
	}
	l.wg.Wait()
	if l.failed.Load() {
		return nil
	}
	return l.ret
}

// element marshals element i, recovering a panic into the response's
// errors as gqlgen does.
func (l *list) element(i int) (m graphql.Marshaler) {
	e := &l.elements[i]
	e.index = i
	e.fc.Index = &e.index
	ctx := e.ctx.with(l.ctx, &e.fc)
	if !l.omitPanicHandler {
		defer func() {
			if r := recover(); r != nil {
				graphql.AddError(ctx, graphql.Recover(ctx, r))
				l.failed.Store(true)
			}
		}()
	}
	return l.marshal(ctx, i)
}

// Missed tells the lists being marshalled around ctx that a load is about to
// wait for a batch: each list still running one element at a time starts
// the rest of its elements, concurrently, so that their loads can join it.
// Outside such a list it does nothing.
func Missed(ctx context.Context) {
	l, _ := ctx.Value(listKey{}).(*list)
	for l != nil && l.release() {
		l = l.parent
	}
}

// release starts the elements after the current one, each in a goroutine;
// it reports false when there was nothing left to release: the list was
// released before (and its enclosing lists with it) or has finished, as
// when a deferred fragment loads after its list was answered.
func (l *list) release() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released || l.done {
		return false
	}
	l.released = true
	for j := l.current + 1; j < len(l.ret); j++ {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.ret[j] = l.element(j)
		}()
	}
	return true
}
