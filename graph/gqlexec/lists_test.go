package gqlexec_test

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/bindery/bindery/graph/gqlexec"
)

// recorder notes the order in which elements run and how many ran at once.
type recorder struct {
	mu      sync.Mutex
	order   []int
	running atomic.Int32
	peak    atomic.Int32
}

func (r *recorder) enter(i int) {
	n := r.running.Add(1)
	for p := r.peak.Load(); n > p && !r.peak.CompareAndSwap(p, n); p = r.peak.Load() {
	}
	r.mu.Lock()
	r.order = append(r.order, i)
	r.mu.Unlock()
}

func (r *recorder) leave() { r.running.Add(-1) }

func str(s string) graphql.Marshaler { return graphql.MarshalString(s) }

func render(a graphql.Array) string {
	var b bytes.Buffer
	a.MarshalGQL(&b)
	return b.String()
}

func itoa(i int) string { return string(rune('a' + i)) }

// TestInOrderWithoutMisses: with nothing to load, the elements run one
// after another, never two at once, and the answer is in order.
func TestInOrderWithoutMisses(t *testing.T) {
	var r recorder
	got := gqlexec.MarshalSlice(context.Background(), 5, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		r.enter(i)
		defer r.leave()
		fc := graphql.GetFieldContext(ctx)
		require.NotNil(t, fc.Index)
		assert.Equal(t, i, *fc.Index, "the element's path index")
		return str(itoa(i))
	})
	assert.Equal(t, `["a","b","c","d","e"]`, render(got))
	assert.Equal(t, []int{0, 1, 2, 3, 4}, r.order)
	assert.EqualValues(t, 1, r.peak.Load(), "one element at a time")
}

// TestMissStartsTheRest: an element whose load misses starts every element
// after it before it waits, as gqlgen's goroutine per element would have,
// so that their loads can join its batch; each element runs once.
func TestMissStartsTheRest(t *testing.T) {
	const n = 6
	var ran [n]atomic.Int32
	var joined sync.WaitGroup
	joined.Add(n - 3) // elements 3..5 must start while element 2 waits
	got := gqlexec.MarshalSlice(context.Background(), n, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		ran[i].Add(1)
		switch {
		case i == 2:
			gqlexec.Missed(ctx)
			waitOrFail(t, &joined, "the elements after a miss start before it waits")
		case i > 2:
			joined.Done()
		}
		return str(itoa(i))
	})
	assert.Equal(t, `["a","b","c","d","e","f"]`, render(got))
	for i := range ran {
		assert.EqualValues(t, 1, ran[i].Load(), "element %d runs once", i)
	}
}

// TestMissReleasesEnclosingLists: a miss in a nested list starts the rest of
// the enclosing list too, whose elements' loads belong to the same batch.
func TestMissReleasesEnclosingLists(t *testing.T) {
	var innerJoined sync.WaitGroup
	innerJoined.Add(2) // outer elements 1 and 2 start while outer 0's inner list waits
	outer := gqlexec.MarshalSlice(context.Background(), 3, 0, false, func(ctx context.Context, o int) graphql.Marshaler {
		if o > 0 {
			innerJoined.Done()
			return str(itoa(o))
		}
		inner := gqlexec.MarshalSlice(ctx, 2, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
			if i == 0 {
				gqlexec.Missed(ctx)
				waitOrFail(t, &innerJoined, "the outer list's rest starts on an inner miss")
			}
			return str(itoa(i))
		})
		return inner
	})
	assert.Equal(t, `[["a","b"],"b","c"]`, render(outer))
}

// TestMissedOutsideAListDoesNothing: a load outside any list, or after its
// list has answered (a deferred fragment), starts nothing.
func TestMissedOutsideAListDoesNothing(t *testing.T) {
	gqlexec.Missed(context.Background())
	var kept context.Context
	calls := 0
	got := gqlexec.MarshalSlice(context.Background(), 2, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		calls++
		kept = ctx
		return str(itoa(i))
	})
	gqlexec.Missed(kept)
	assert.Equal(t, `["a","b"]`, render(got))
	assert.Equal(t, 2, calls)
}

// TestPanicMakesTheListNull: an element that panics is reported as an
// error of the response and the list is null, as with gqlgen's own.
func TestPanicMakesTheListNull(t *testing.T) {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	got := gqlexec.MarshalSlice(ctx, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		if i == 1 {
			panic("boom")
		}
		return str(itoa(i))
	})
	assert.Nil(t, got)
	errs := graphql.GetErrors(ctx)
	require.Len(t, errs, 1)
	assert.IsType(t, &gqlerror.Error{}, errs[0])
}

func waitOrFail(t *testing.T, wg *sync.WaitGroup, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error(what)
	}
}
