package gqlexec

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// Object returns an object's answer: the values of out, the field set its
// fields were resolved into, each under its field's response name. It
// writes the JSON that out would write itself.
//
// The generated code answers out, whose MarshalGQL (gqlgen's
// marshalFieldSet) makes a map of the names it has written, to skip a name
// collected twice, and hands each field to it through an iterator that
// allocates a copy of the field: two allocations and more for every object
// of every response, a third of the objects' marshalling in a nested read
// of 500 change requests. An object has a handful of fields, so Object
// finds a repeated name among those before it instead.
//
// The code generator (graph/internal/gqlgen) makes the generated code call
// it; gqlgen has no option for it.
func Object(fields []graphql.CollectedField, out *graphql.FieldSet) graphql.Marshaler {
	return &object{fields: fields, values: out.Values}
}

type object struct {
	fields []graphql.CollectedField
	values []graphql.Marshaler
}

func (o *object) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, "{")
	first := true
	for i := range o.fields {
		name := o.fields[i].Alias
		if written(o.fields[:i], name) {
			continue
		}
		if !first {
			_, _ = io.WriteString(w, ",")
		}
		first = false
		// A response name is a GraphQL name, [_A-Za-z][_0-9A-Za-z]*: it
		// needs no escaping.
		_, _ = io.WriteString(w, `"`)
		_, _ = io.WriteString(w, name)
		_, _ = io.WriteString(w, `":`)
		o.values[i].MarshalGQL(w)
	}
	_, _ = io.WriteString(w, "}")
}

// written reports whether a field of before answers under name.
func written(before []graphql.CollectedField, name string) bool {
	for i := range before {
		if before[i].Alias == name {
			return true
		}
	}
	return false
}
