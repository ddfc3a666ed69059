package store

import (
	"context"
	"fmt"

	entgo "entgo.io/ent"

	"github.com/bindery/bindery/ent"
)

// readKey marks a context whose reads of protected types are accounted for.
type readKey struct{}

// ScopedRead marks reads whose rows are each decided by authorization before
// anything is shown, or whose query applies the viewer's scope: the loaders
// of graph's resource policies and its list queries. Only they should call it.
func ScopedRead(ctx context.Context) context.Context {
	return context.WithValue(ctx, readKey{}, "scoped")
}

// InternalRead marks reads that show nothing to a viewer by themselves: locks,
// positions, counts of a resource already authorized, background jobs, the
// token check, the command line. The reason is for the reader of the code.
func InternalRead(ctx context.Context, reason string) context.Context {
	_ = reason
	return context.WithValue(ctx, readKey{}, "internal")
}

// ReadMark is how a context's reads are accounted for; nil when they are not.
type ReadMark any

// ReadMarkOf returns the mark of ctx, to carry it to reads that run later on
// behalf of the same query (a list's count).
func ReadMarkOf(ctx context.Context) ReadMark { return ctx.Value(readKey{}) }

// WithReadMark returns ctx with a mark from ReadMarkOf; a nil mark leaves ctx
// as it is.
func WithReadMark(ctx context.Context, m ReadMark) context.Context {
	if m == nil {
		return ctx
	}
	return context.WithValue(ctx, readKey{}, m)
}

// ErrUnscopedRead is the error of a read of a protected type that no policy
// accounted for: a resolver that forgot authorization fails instead of leaking.
type ErrUnscopedRead struct{ Type string }

func (e *ErrUnscopedRead) Error() string {
	return fmt.Sprintf("store: unscoped read of %s: read it through its policy, or mark the context with store.InternalRead", e.Type)
}

// FailClosed returns an interceptor that refuses queries of the protected ent
// types (by ent type name, e.g. "Space") unless the context says how they are
// authorized (ScopedRead or InternalRead). The refusal is a server fault, so
// it is logged and answered with a generic 500: it is a bug, never a leak.
func FailClosed(protected ...string) ent.Interceptor {
	set := make(map[string]bool, len(protected))
	for _, t := range protected {
		set[t] = true
	}
	return ent.InterceptFunc(func(next ent.Querier) ent.Querier {
		return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
			if qc := entgo.QueryFromContext(ctx); qc != nil && set[qc.Type] && ctx.Value(readKey{}) == nil {
				t := qc.Type
				return nil, &ErrUnscopedRead{Type: t}
			}
			return next.Query(ctx, q)
		})
	})
}
