// Package querycost weighs GraphQL fields for the complexity limit, so that
// the limit bounds the rows a query may load.
package querycost

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/internal/page"
)

// Weighted is the executable schema with the cost of every connection field
// derived from the schema itself: a field whose type is a connection costs 1
// plus its items' cost times the number of items it may return (first or
// last, else the default page). So no connection can be added without a
// weight, and the complexity limit bounds the rows a query may load. A few
// fields that compute much on each call cost more (costly).
type Weighted struct {
	graphql.ExecutableSchema
}

// Complexity weighs connection fields and leaves the rest to gqlgen.
func (w Weighted) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if c, ok := costly[typeName+"."+field]; ok {
		return c + child, true
	}
	if def := w.Schema().Types[typeName]; def != nil {
		if f := def.Fields.ForName(field); f != nil && IsConnection(f.Type.Name()) {
			return connectionCost(child, intArg(args, "first"), intArg(args, "last")), true
		}
	}
	return w.ExecutableSchema.Complexity(ctx, typeName, field, child, args)
}

// costly are fields that compute much on each call, with their cost: a
// page's document converts up to 1 MiB of markdown, a comment's up to 64 KiB.
var costly = map[string]int{"RevisionPage.document": 50, "CommentBody.document": 4}

// IsConnection reports whether a type name is a Relay connection's.
func IsConnection(typeName string) bool { return strings.HasSuffix(typeName, "Connection") }

// intArg reads an integer argument as gqlgen passes raw arguments: an
// int64 literal, or a variable's JSON number.
func intArg(args map[string]any, name string) *int {
	var n int64
	switch v := args[name].(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	case float64:
		n = int64(v)
	case json.Number:
		i, err := v.Int64()
		if err != nil {
			return nil
		}
		n = i
	default:
		return nil
	}
	// Larger values fail the argument's own validation; the cost only needs
	// to be large.
	m := int(min(max(n, 0), 1<<20))
	return &m
}

// connectionCost weighs a connection field by the number of items it can
// return.
func connectionCost(child int, first, last *int) int {
	n := page.DefaultLimit
	switch {
	case first != nil:
		n = *first
	case last != nil:
		n = *last
	}
	if n < 1 {
		n = 1
	}
	return 1 + child*n
}
