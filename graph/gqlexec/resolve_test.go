package gqlexec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/graph/gqlexec"
)

// exec stands for the generated code's execution context.
type exec struct{ calls int }

type ctxKey struct{}

// outcome is what resolving a field left: the answer written, the
// response's errors, and a panic that got out.
type outcome struct {
	answer string
	errors string
	panic  any
	seen   any // the context value the marshaller saw
}

// ResolveField does what graphql.ResolveField does, for every way a field
// can end: a value, null where allowed or not, a failing field context,
// an error, a panic recovered or not, a value of the wrong type, a value
// that is already an answer, a field marked non-null by middleware, and the
// middleware's context handed to the marshaller.
func TestResolveFieldDoesWhatGQLGenDoes(t *testing.T) {
	type scenario struct {
		value      any
		err        error
		panics     bool
		initErr    bool
		nonNull    bool
		recover    bool
		markNonNil bool
	}
	scenarios := map[string]scenario{
		"a value":                         {value: "v"},
		"a value, required":               {value: "v", nonNull: true},
		"null":                            {},
		"null, required":                  {nonNull: true},
		"the field context fails":         {initErr: true, value: "v"},
		"an error":                        {err: errors.New("boom")},
		"an error, required":              {err: errors.New("boom"), nonNull: true},
		"a panic, recovered":              {panics: true, recover: true},
		"a panic":                         {panics: true},
		"a value of another type":         {value: 7},
		"an answer":                       {value: graphql.MarshalInt(9)},
		"marked non-null, null":           {markNonNil: true},
		"marked non-null, an error":       {markNonNil: true, err: errors.New("boom")},
		"marked non-null, null, required": {markNonNil: true, nonNull: true},
	}
	run := func(s scenario, ours bool) (o outcome) {
		oc := &graphql.OperationContext{
			RecoverFunc: func(_ context.Context, p any) error { return fmt.Errorf("recovered: %v", p) },
			ResolverMiddleware: func(ctx context.Context, next graphql.Resolver) (any, error) {
				if s.markNonNil {
					graphql.MarkNonNull(ctx)
				}
				return next(context.WithValue(ctx, ctxKey{}, "middleware"))
			},
		}
		ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, oc.RecoverFunc)
		ctx = graphql.WithOperationContext(ctx, oc)
		field := graphql.CollectedField{Field: &ast.Field{Alias: "f", Name: "f"}}
		initFC := func(_ *exec, _ context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			if s.initErr {
				return nil, errors.New("no field context")
			}
			return &graphql.FieldContext{Object: "T", Field: field, IsResolver: true}, nil
		}
		resolve := func(_ context.Context, e *exec, _ *string) (any, error) {
			e.calls++
			if s.panics {
				panic("resolver panic")
			}
			return s.value, s.err
		}
		marshal := func(_ *exec, ctx context.Context, _ ast.SelectionSet, v string) graphql.Marshaler {
			o.seen = ctx.Value(ctxKey{})
			return graphql.MarshalString(v)
		}
		defer func() {
			o.panic = recover()
			o.errors = fmt.Sprint(graphql.GetErrors(ctx))
		}()
		e, obj := &exec{}, new(string)
		var m graphql.Marshaler
		if ours {
			m = gqlexec.ResolveField(ctx, oc, field, e, obj, initFC, resolve, marshal, s.recover, s.nonNull)
		} else {
			m = graphql.ResolveField(ctx, oc, field,
				func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
					return initFC(e, ctx, field)
				},
				func(ctx context.Context) (any, error) { return resolve(ctx, e, obj) },
				nil,
				func(ctx context.Context, sel ast.SelectionSet, v string) graphql.Marshaler {
					return marshal(e, ctx, sel, v)
				},
				s.recover, s.nonNull)
		}
		switch m {
		case graphql.Null:
			o.answer = "Null"
		case graphql.RequiredNull:
			o.answer = "RequiredNull"
		default:
			var b bytes.Buffer
			m.MarshalGQL(&b)
			o.answer = b.String()
		}
		return o
	}
	for name, s := range scenarios {
		t.Run(name, func(t *testing.T) {
			want, got := run(s, false), run(s, true)
			assert.Equal(t, want, got)
		})
	}
}
