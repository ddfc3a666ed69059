package rest

import (
	"context"
	"sync"

	"github.com/bindery/bindery/internal/page"
)

// listJSON is the official list envelope.
type listJSON[T any] struct {
	Items []T      `json:"items"`
	Count int      `json:"count"`
	Next  *nextRef `json:"next,omitempty"`
}

type nextRef struct {
	Page string `json:"page"`
}

// presentList presents a page. Items are presented concurrently, as GraphQL
// resolves sibling fields, so that their nested loads batch: all items wait
// in the same loader batches. A page holds at most page.MaxLimit items.
func presentList[N, J any](ctx context.Context, nodes []N, info page.Info, count func(context.Context) (int, error),
	present func(context.Context, N) (J, error)) (listJSON[J], error) {
	out := listJSON[J]{Items: make([]J, len(nodes))}
	err := concurrently(len(nodes), func(i int) error {
		var err error
		out.Items[i], err = present(ctx, nodes[i])
		return err
	})
	if err != nil {
		return out, err
	}
	total, err := count(ctx)
	if err != nil {
		return out, err
	}
	out.Count = total
	if info.HasNextPage && info.EndCursor != nil {
		out.Next = &nextRef{Page: info.EndCursor.String()}
	}
	return out, nil
}

// concurrently runs fn for 0..n-1 at once, as gqlgen resolves sibling fields,
// so that what they load waits in the same loader batches, and returns the
// first error by index.
func concurrently(n int, fn func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
