package gqlexec

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// fieldContext is a context holding a field context, as
// graphql.WithFieldContext makes one, but in memory its caller provides: a
// list makes its elements' contexts in one slice (see element) rather than
// one context.WithValue each.
type fieldContext struct {
	context.Context
	fc *graphql.FieldContext
	// resolving is the field's resolving (see ResolveField), if it is
	// resolved by ResolveField: what its resolver finds in its context.
	resolving any
}

// resolvingKey is the key of a field's resolving.
type resolvingKey struct{}

// with makes c parent's child holding fc, whose parent becomes parent's
// field context, as graphql.WithFieldContext does, and returns it.
func (c *fieldContext) with(parent context.Context, fc *graphql.FieldContext) context.Context {
	fc.Parent = graphql.GetFieldContext(parent)
	*c = fieldContext{Context: parent, fc: fc}
	return c
}

// Value answers the field context under gqlgen's key, and the parent's
// value under any other.
func (c *fieldContext) Value(key any) any {
	switch {
	case key == fieldContextKey:
		return c.fc
	case key == resolvingKey{} && c.resolving != nil:
		return c.resolving
	}
	return c.Context.Value(key)
}

// fieldContextKey is the key gqlgen keeps a field context under. It is
// unexported; graphql.GetFieldContext shows it by looking it up in a
// context that remembers the key it is asked for.
var fieldContextKey = func() any {
	p := &keyProbe{Context: context.Background()}
	graphql.GetFieldContext(p)
	if p.key == nil {
		panic("gqlexec: graphql.GetFieldContext looks up no key in its context")
	}
	return p.key
}()

type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	p.key = key
	return nil
}
