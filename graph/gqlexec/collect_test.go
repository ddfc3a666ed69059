package gqlexec_test

import (
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/graph/gqlexec"
)

// Within a list, CollectFields answers what gqlgen's CollectFields answers,
// for each type of the list's elements, and collects each selection and
// type once for the outermost list and every list within it: the other
// elements find it without allocating.
func TestCollectFieldsRemembersPerList(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `
		type Query { things: [Thing!]! }
		interface Thing { id: ID! }
		type Book implements Thing { id: ID! title: String! }
		type Page implements Thing { id: ID! path: String! }`})
	oc, errs := executor.New(&graphql.ExecutableSchemaMock{SchemaFunc: func() *ast.Schema { return schema }}).
		CreateOperationContext(graphql.StartOperationTrace(context.Background()), &graphql.RawParams{
			Query: `{ things { id ... on Book { title } ... on Page { path id } } }`,
		})
	require.Nil(t, errs)
	sel := oc.Operation.SelectionSet[0].(*ast.Field).SelectionSet
	book, page := []string{"Book", "Thing"}, []string{"Page", "Thing"}
	names := func(fields []graphql.CollectedField) (out []string) {
		for _, f := range fields {
			out = append(out, f.Alias)
		}
		return out
	}
	ctx := context.Background()
	assert.Equal(t, []string{"id", "title"}, names(gqlexec.CollectFields(ctx, oc, sel, book)), "outside a list")

	var first []graphql.CollectedField
	gqlexec.MarshalSlice(ctx, 3, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		satisfies := book
		if i == 1 {
			satisfies = page
		}
		fields := gqlexec.CollectFields(ctx, oc, sel, satisfies)
		assert.Equal(t, names(graphql.CollectFields(oc, sel, satisfies)), names(fields), "element %d", i)
		if i == 0 {
			first = fields
		}
		if i == 2 {
			assert.Same(t, &first[0], &fields[0], "the third element finds what the first collected")
			// A list within the element finds it too.
			gqlexec.MarshalSlice(ctx, 1, 0, false, func(ctx context.Context, _ int) graphql.Marshaler {
				var again []graphql.CollectedField
				allocs := testing.AllocsPerRun(10, func() { again = gqlexec.CollectFields(ctx, oc, sel, book) })
				assert.Zero(t, allocs)
				assert.Same(t, &first[0], &again[0])
				return graphql.Null
			})
		}
		return graphql.Null
	})
}
