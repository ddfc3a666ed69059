package gqlexec

import (
	"context"
	"sync/atomic"
	"unsafe"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// CollectFields returns graphql.CollectFields(oc, sel, satisfies), and
// remembers it in the outermost list being marshalled around ctx, for the
// other objects of that list's elements.
//
// gqlgen caches collected fields per operation, but finds them again for
// every object: it hashes the names of the object's types with a hasher it
// allocates, and takes a lock. The elements of a list share the selection
// and, but for unions and interfaces, the type, so the list remembers what
// its elements collected by the identity of the selection and of the
// generated code's list of types (a variable per type), which costs a few
// comparisons. The outermost list remembers for the lists within it, which
// would each collect again otherwise. Outside a list it is gqlgen's
// function.
//
// The code generator (graph/internal/gqlgen) makes the generated code call
// it; gqlgen has no option for it.
func CollectFields(ctx context.Context, oc *graphql.OperationContext, sel ast.SelectionSet, satisfies []string) []graphql.CollectedField {
	l, _ := ctx.Value(listKey{}).(*list)
	if l == nil {
		return graphql.CollectFields(oc, sel, satisfies)
	}
	for l.parent != nil {
		l = l.parent
	}
	key := collectKey{sel: unsafe.SliceData(sel), n: len(sel), satisfies: unsafe.SliceData(satisfies)}
	known := l.collected.Load()
	if known != nil {
		for i := range *known {
			if (*known)[i].key == key {
				return (*known)[i].fields
			}
		}
	}
	fields := graphql.CollectFields(oc, sel, satisfies)
	// Elements running at once may each add what they collected; one of
	// two adding the same key is lost and found again by the next.
	var next []collected
	if known != nil {
		next = append(next, *known...)
	}
	next = append(next, collected{key: key, fields: fields})
	l.collected.CompareAndSwap(known, &next)
	return fields
}

// collectKey identifies what CollectFields collects from within one
// operation: a selection (its elements and its length) and a type's list
// of the types it satisfies. The variables the collection depends on are
// those of the operation.
type collectKey struct {
	sel       *ast.Selection
	n         int
	satisfies *string
}

// collected is what CollectFields collected for a key.
type collected struct {
	key    collectKey
	fields []graphql.CollectedField
}

// collections is what a list's elements collected, replaced whole when an
// element collects something new.
type collections = atomic.Pointer[[]collected]
