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
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Items[i], errs[i] = present(ctx, n)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
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
