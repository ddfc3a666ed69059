package gqlexec

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// A query's String, ID, Int and Boolean fields read straight from their
// object's struct (see Plain) are answered by a pointer to the struct's
// field, which an interface holds without an allocation; gqlgen's
// graphql.MarshalString and its kind box the value in a closure, one
// allocation for every such field of every object: 2,000 of a nested read
// of 500 change requests and their authors.
//
// The value is then read when the response is written rather than when the
// field is resolved. Nothing writes to an object a query has loaded: its
// resolvers load and build objects and return them. A mutation does write
// to objects it has answered (the space whose sequence a new change request
// took), and a later mutation field of the same request may write to one an
// earlier field answered, so mutations and subscriptions keep the copy.

// String writes the string it points to as a JSON string.
type String string

// MarshalGQL writes *s as graphql.MarshalString would.
func (s *String) MarshalGQL(w io.Writer) { graphql.MarshalString(string(*s)).MarshalGQL(w) }

// Int writes the int it points to as a JSON number.
type Int int

// MarshalGQL writes *n as graphql.MarshalInt would.
func (n *Int) MarshalGQL(w io.Writer) { graphql.MarshalInt(int(*n)).MarshalGQL(w) }

// Boolean writes the bool it points to as a JSON boolean.
type Boolean bool

// MarshalGQL writes *b as graphql.MarshalBoolean would.
func (b *Boolean) MarshalGQL(w io.Writer) { graphql.MarshalBoolean(bool(*b)).MarshalGQL(w) }

// StringAt answers a required String or ID field whose value is *p.
func StringAt(oc *graphql.OperationContext, p *string) graphql.Marshaler {
	if inPlace(oc) {
		return (*String)(p)
	}
	return graphql.MarshalString(*p)
}

// OptionalStringAt answers an optional String or ID field whose value is
// p: null when p is nil.
func OptionalStringAt(oc *graphql.OperationContext, p *string) graphql.Marshaler {
	if p == nil {
		return graphql.Null
	}
	return StringAt(oc, p)
}

// IntAt answers a required Int field whose value is *p.
func IntAt(oc *graphql.OperationContext, p *int) graphql.Marshaler {
	if inPlace(oc) {
		return (*Int)(p)
	}
	return graphql.MarshalInt(*p)
}

// OptionalIntAt answers an optional Int field whose value is p.
func OptionalIntAt(oc *graphql.OperationContext, p *int) graphql.Marshaler {
	if p == nil {
		return graphql.Null
	}
	return IntAt(oc, p)
}

// BooleanAt answers a required Boolean field whose value is *p.
func BooleanAt(oc *graphql.OperationContext, p *bool) graphql.Marshaler {
	if inPlace(oc) {
		return (*Boolean)(p)
	}
	return graphql.MarshalBoolean(*p)
}

// OptionalBooleanAt answers an optional Boolean field whose value is p.
func OptionalBooleanAt(oc *graphql.OperationContext, p *bool) graphql.Marshaler {
	if p == nil {
		return graphql.Null
	}
	return BooleanAt(oc, p)
}

// inPlace reports whether oc's fields may be answered in place: it is a
// query.
func inPlace(oc *graphql.OperationContext) bool {
	return oc.Operation != nil && oc.Operation.Operation == ast.Query
}
