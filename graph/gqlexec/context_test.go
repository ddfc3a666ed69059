package gqlexec

import (
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
)

// A fieldContext holds a field context as graphql.WithFieldContext's
// context does: gqlgen finds it, its parent and its path, the parent's
// values and cancellation pass through, and it takes no allocation.
func TestFieldContextIsWithFieldContext(t *testing.T) {
	type other struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), other{}, "kept"))
	outer := &graphql.FieldContext{Field: graphql.CollectedField{Field: &ast.Field{Alias: "spaces"}}}
	parent = graphql.WithFieldContext(parent, outer)

	index := 3
	theirs := &graphql.FieldContext{Index: &index}
	ours := &graphql.FieldContext{Index: &index}
	want := graphql.WithFieldContext(parent, theirs)
	var c fieldContext
	got := c.with(parent, ours)

	require.Same(t, ours, graphql.GetFieldContext(got))
	assert.Same(t, outer, ours.Parent)
	assert.Equal(t, graphql.GetPath(want), graphql.GetPath(got))
	assert.Equal(t, "kept", got.Value(other{}))

	derived, stop := context.WithCancel(got)
	defer stop()
	cancel()
	<-derived.Done()
	assert.ErrorIs(t, got.Err(), context.Canceled)

	allocs := testing.AllocsPerRun(100, func() { _ = c.with(parent, ours) })
	assert.Zero(t, allocs)
}
