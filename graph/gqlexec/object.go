package gqlexec

import (
	"context"
	"io"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// Answer is an object's answer: the field set its fields are resolved into
// (FieldSet), the fields that run after the others (Later, Dispatch), and
// the JSON it writes (MarshalGQL).
//
// gqlgen's generated code makes, for every object of every response, a
// field set and its slice of values, queues each field with a resolver in
// a closure appended to a slice of the set's, and answers the set, whose
// MarshalGQL makes a map of the names it has written and hands each field
// to it through an iterator that copies the field. Answer is one
// allocation for an object of a few fields, keeps the queued fields in it
// too, and finds a repeated name among the fields before it instead of in
// a map: in a nested read of 500 change requests and their authors, those
// were a fifth of the allocations.
//
// The code generator (graph/internal/gqlgen) makes the generated code use
// it; gqlgen has no option for it.
type Answer struct {
	fs     graphql.FieldSet
	fields []graphql.CollectedField
	later  []later
	// Most objects have at most one field resolved later: its room is in
	// the same allocation, as is the room for the values of an object of
	// up to eight fields (see NewObject).
	laterRoom [1]later
}

// An answer with room for up to N values, in one allocation sized to the
// object: an author's two fields take 208 bytes, not the 288 of one size
// for all, and those bytes were the most a nested read allocated.
type (
	answer2 struct {
		Answer
		room [2]graphql.Marshaler
	}
	answer4 struct {
		Answer
		room [4]graphql.Marshaler
	}
	answer6 struct {
		Answer
		room [6]graphql.Marshaler
	}
	answer8 struct {
		Answer
		room [8]graphql.Marshaler
	}
)

// later is a field queued by Later.
type later struct {
	i int
	f func(context.Context, *graphql.FieldSet) graphql.Marshaler
}

// NewObject starts the answer of an object whose collected fields are
// fields.
func NewObject(fields []graphql.CollectedField) *Answer {
	var a *Answer
	switch n := len(fields); {
	case n <= 2:
		o := new(answer2)
		a = o.withValues(o.room[:n:n])
	case n <= 4:
		o := new(answer4)
		a = o.withValues(o.room[:n:n])
	case n <= 6:
		o := new(answer6)
		a = o.withValues(o.room[:n:n])
	case n <= 8:
		o := new(answer8)
		a = o.withValues(o.room[:n:n])
	default:
		a = new(Answer).withValues(make([]graphql.Marshaler, n))
	}
	a.fields = fields
	a.later = a.laterRoom[:0]
	return a
}

func (a *Answer) withValues(values []graphql.Marshaler) *Answer {
	a.fs.Values = values
	return a
}

// FieldSet is the field set the object's fields are resolved into. Its
// own MarshalGQL, views and delayed fields are not used: the answer is
// written by a's MarshalGQL, and fields resolved later are queued with
// Later.
func (a *Answer) FieldSet() *graphql.FieldSet { return &a.fs }

// Later queues field i, resolved by f, for Dispatch: what
// graphql.FieldSet.Concurrently does, without a closure around f.
func (a *Answer) Later(i int, f func(context.Context, *graphql.FieldSet) graphql.Marshaler) {
	a.later = append(a.later, later{i: i, f: f})
}

// Dispatch resolves the fields queued with Later as
// graphql.FieldSet.Dispatch does: one in the caller's goroutine, the
// others each in a goroutine of its own, so that their loads can share a
// batch. f recovers its own panics, as the generated code's do.
func (a *Answer) Dispatch(ctx context.Context) {
	switch len(a.later) {
	case 0:
	case 1:
		a.fs.Values[a.later[0].i] = a.later[0].f(ctx, &a.fs)
	default:
		var wg sync.WaitGroup
		for _, l := range a.later[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a.fs.Values[l.i] = l.f(ctx, &a.fs)
			}()
		}
		a.fs.Values[a.later[0].i] = a.later[0].f(ctx, &a.fs)
		wg.Wait()
	}
}

// MarshalGQL writes the object: the value of each field under its
// response name, a name collected twice written once, with its first
// value, as gqlgen's field set writes it.
func (a *Answer) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, "{")
	first := true
	for i := range a.fields {
		name := a.fields[i].Alias
		if written(a.fields[:i], name) {
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
		a.fs.Values[i].MarshalGQL(w)
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

// TypeName is the answer of __typename: the name, written as a JSON
// string. A GraphQL name needs no escaping, and a constant TypeName in an
// interface takes no allocation, where graphql.MarshalString's closure
// takes one for every object that asks for its type (as clients that
// cache by type, such as Apollo's, have every object do).
type TypeName string

// MarshalGQL writes the name in quotes.
func (n TypeName) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, `"`)
	_, _ = io.WriteString(w, string(n))
	_, _ = io.WriteString(w, `"`)
}
