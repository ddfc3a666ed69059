package gqlexec_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		answer := gqlexec.NewObject(fields)
		copy(answer.FieldSet().Values, values)
		var a, b bytes.Buffer
		out.MarshalGQL(&a)
		answer.MarshalGQL(&b)
		return a.String(), b.String()
	}
	nested := func() graphql.Marshaler {
		answer := gqlexec.NewObject([]graphql.CollectedField{field("id")})
		answer.FieldSet().Values[0] = graphql.MarshalString(`u"1`)
		return answer
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

// Fields queued with Later are resolved by Dispatch into their own places,
// each exactly once, however many there are; with more than one, they run
// at once, as gqlgen's field set runs them.
func TestDispatchResolvesEveryQueuedField(t *testing.T) {
	field := func(alias string) graphql.CollectedField {
		return graphql.CollectedField{Field: &ast.Field{Alias: alias, Name: alias}}
	}
	for _, queued := range []int{0, 1, 2, 3, 8} {
		fields := make([]graphql.CollectedField, queued+1)
		fields[0] = field("id")
		for i := 1; i <= queued; i++ {
			fields[i] = field(fmt.Sprint("f", i))
		}
		answer := gqlexec.NewObject(fields)
		answer.FieldSet().Values[0] = graphql.MarshalString("x")
		var runs atomic.Int32
		// With several queued, each waits until all have started: they
		// finish only if they run at once.
		var started sync.WaitGroup
		started.Add(queued)
		for i := 1; i <= queued; i++ {
			answer.Later(i, func(_ context.Context, fs *graphql.FieldSet) graphql.Marshaler {
				runs.Add(1)
				require.Same(t, answer.FieldSet(), fs)
				if queued > 1 {
					started.Done()
					started.Wait()
				}
				return graphql.MarshalInt(i)
			})
		}
		answer.Dispatch(context.Background())
		assert.Equal(t, int32(queued), runs.Load())
		var b bytes.Buffer
		answer.MarshalGQL(&b)
		want := `{"id":"x"`
		for i := 1; i <= queued; i++ {
			want += fmt.Sprintf(`,"f%d":%d`, i, i)
		}
		assert.Equal(t, want+"}", b.String(), "%d queued", queued)
	}
}

// A __typename answer is the name in quotes, and a constant one takes no
// allocation.
func TestTypeName(t *testing.T) {
	var b bytes.Buffer
	gqlexec.TypeName("ChangeRequest").MarshalGQL(&b)
	assert.Equal(t, `"ChangeRequest"`, b.String())
	var m graphql.Marshaler
	assert.Zero(t, testing.AllocsPerRun(100, func() { m = gqlexec.TypeName("ChangeRequest") }))
	assert.NotNil(t, m)
}
