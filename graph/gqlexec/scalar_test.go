package gqlexec_test

import (
	"bytes"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/graph/gqlexec"
)

func operation(op ast.Operation) *graphql.OperationContext {
	return &graphql.OperationContext{Operation: &ast.OperationDefinition{Operation: op}}
}

func written(m graphql.Marshaler) string {
	var b bytes.Buffer
	m.MarshalGQL(&b)
	return b.String()
}

// A field answered in place writes what gqlgen's marshallers write, for
// every kind of operation, and null for an optional field without a value.
func TestInPlaceWritesWhatGqlgenWrites(t *testing.T) {
	s, n, b := "a \"quoted\"\n<line>\u2028", -42, true
	for _, op := range []ast.Operation{ast.Query, ast.Mutation, ast.Subscription} {
		oc := operation(op)
		assert.Equal(t, written(graphql.MarshalString(s)), written(gqlexec.StringAt(oc, &s)), op)
		assert.Equal(t, written(graphql.MarshalString(s)), written(gqlexec.OptionalStringAt(oc, &s)), op)
		assert.Equal(t, written(graphql.MarshalInt(n)), written(gqlexec.IntAt(oc, &n)), op)
		assert.Equal(t, written(graphql.MarshalInt(n)), written(gqlexec.OptionalIntAt(oc, &n)), op)
		assert.Equal(t, written(graphql.MarshalBoolean(b)), written(gqlexec.BooleanAt(oc, &b)), op)
		assert.Equal(t, written(graphql.MarshalBoolean(b)), written(gqlexec.OptionalBooleanAt(oc, &b)), op)
		assert.Equal(t, graphql.Null, gqlexec.OptionalStringAt(oc, nil), op)
		assert.Equal(t, graphql.Null, gqlexec.OptionalIntAt(oc, nil), op)
		assert.Equal(t, graphql.Null, gqlexec.OptionalBooleanAt(oc, nil), op)
	}
}

// A query's fields are answered in place, without an allocation, and so
// show their object's value when the answer is written; a mutation's copy
// the value when they are resolved, since a later mutation field may write
// to an object an earlier one answered.
func TestInPlaceOnlyForQueries(t *testing.T) {
	type object struct {
		Title  string
		Number int
		Open   bool
	}
	obj := &object{Title: "before", Number: 1, Open: true}
	query, mutation := operation(ast.Query), operation(ast.Mutation)

	allocs := testing.AllocsPerRun(100, func() {
		_ = gqlexec.StringAt(query, &obj.Title)
		_ = gqlexec.IntAt(query, &obj.Number)
		_ = gqlexec.BooleanAt(query, &obj.Open)
	})
	require.Zero(t, allocs)

	q := []graphql.Marshaler{gqlexec.StringAt(query, &obj.Title), gqlexec.IntAt(query, &obj.Number), gqlexec.BooleanAt(query, &obj.Open)}
	m := []graphql.Marshaler{gqlexec.StringAt(mutation, &obj.Title), gqlexec.IntAt(mutation, &obj.Number), gqlexec.BooleanAt(mutation, &obj.Open)}
	*obj = object{Title: "after", Number: 2}
	assert.Equal(t, []string{`"after"`, "2", "false"}, []string{written(q[0]), written(q[1]), written(q[2])})
	assert.Equal(t, []string{`"before"`, "1", "true"}, []string{written(m[0]), written(m[1]), written(m[2])})
}
