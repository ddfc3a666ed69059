package gqlexec_test

import (
	"bytes"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/graph/gqlexec"
)

// An object's answer is the JSON its field set writes: the fields in order,
// a response name collected twice written once (its first value), nested
// objects and lists as they are.
func TestObjectWritesWhatItsFieldSetWrites(t *testing.T) {
	field := func(alias string) graphql.CollectedField {
		return graphql.CollectedField{Field: &ast.Field{Alias: alias, Name: alias}}
	}
	answer := func(fields []graphql.CollectedField, values ...graphql.Marshaler) (fromSet, fromObject string) {
		out := graphql.NewFieldSet(fields)
		copy(out.Values, values)
		var a, b bytes.Buffer
		out.MarshalGQL(&a)
		gqlexec.Object(fields, out).MarshalGQL(&b)
		return a.String(), b.String()
	}
	nested := func() graphql.Marshaler {
		out := graphql.NewFieldSet([]graphql.CollectedField{field("id")})
		out.Values[0] = graphql.MarshalString(`u"1`)
		return gqlexec.Object([]graphql.CollectedField{field("id")}, out)
	}
	for name, c := range map[string]struct {
		fields []graphql.CollectedField
		values []graphql.Marshaler
		want   string
	}{
		"no field": {want: `{}`},
		"scalars and null": {
			fields: []graphql.CollectedField{field("id"), field("number"), field("__typename"), field("mergedAt")},
			values: []graphql.Marshaler{graphql.MarshalString("cr_1"), graphql.MarshalInt(7), graphql.MarshalString("ChangeRequest"), graphql.Null},
			want:   `{"id":"cr_1","number":7,"__typename":"ChangeRequest","mergedAt":null}`,
		},
		"a name collected twice": {
			fields: []graphql.CollectedField{field("a"), field("b"), field("a"), field("c"), field("b")},
			values: []graphql.Marshaler{graphql.MarshalInt(1), graphql.MarshalInt(2), graphql.MarshalInt(3), graphql.MarshalInt(4), graphql.MarshalInt(5)},
			want:   `{"a":1,"b":2,"c":4}`,
		},
		"nested objects and lists": {
			fields: []graphql.CollectedField{field("createdBy"), field("nodes")},
			values: []graphql.Marshaler{nested(), graphql.Array{nested(), nested()}},
			want:   `{"createdBy":{"id":"u\"1"},"nodes":[{"id":"u\"1"},{"id":"u\"1"}]}`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			fromSet, fromObject := answer(c.fields, c.values...)
			assert.Equal(t, c.want, fromSet)
			assert.Equal(t, c.want, fromObject)
		})
	}
}
