package rest

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/bindery/bindery/graph"
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
	items := graph.FanOut(ctx)
	err := concurrently(len(nodes), func(i int) error {
		var err error
		out.Items[i], err = present(items, nodes[i])
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
// so that what they load waits in the same loader batches.
func concurrently(n int, fn func(i int) error) error {
	var g errgroup.Group
	for i := range n {
		g.Go(func() error { return fn(i) })
	}
	return g.Wait()
}
