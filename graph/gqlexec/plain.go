package gqlexec

import (
	"context"
	"reflect"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Plain reports whether an operation's field middleware does nothing a
// field read straight from its object's struct needs: it is gqlgen's own,
// which only calls the resolver, or made only of ResolversOnly middleware.
// The generated code (graph/internal/gqlgen, direct.go) writes such a field
// without graphql.ResolveField only then: a field middleware installed any
// other way (handler.Server's AroundFields or Use, an auth check, per-field
// tracing) makes every field of every operation go through ResolveField,
// and so through it.
func Plain(oc *graphql.OperationContext) bool {
	p := codeOf(oc.ResolverMiddleware)
	return p == passThrough || p == resolversOnlyCode || p == resolversOnlyFirstCode
}

// ResolversOnly is a handler extension that runs Func as the field
// middleware of every field but those read straight from their object's
// struct (see Plain): middleware that only guards resolvers, such as one
// that calls no more of them once the operation's context has ended, and
// has nothing to do for a value already in memory. It wraps the field
// middleware installed before it (gqlgen's, and ResolversOnly installed
// earlier), so that the last installed runs first. Beside field middleware
// of any other kind, every field goes through ResolveField and it runs on
// all of them.
type ResolversOnly struct {
	Name string
	Func graphql.FieldMiddleware
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = ResolversOnly{}

// ExtensionName returns r.Name.
func (r ResolversOnly) ExtensionName() string { return r.Name }

// Validate accepts every schema.
func (ResolversOnly) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext puts r.Func around the operation's field
// middleware.
func (r ResolversOnly) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	switch {
	case codeOf(oc.ResolverMiddleware) == passThrough:
		// gqlgen's own only calls the resolver: r.Func can be handed the
		// resolver itself, rather than a closure around gqlgen's for
		// every field.
		oc.ResolverMiddleware = resolversOnlyFirst(r.Func)
	case Plain(oc):
		oc.ResolverMiddleware = resolversOnly(r.Func, oc.ResolverMiddleware)
	default:
		oc.ResolverMiddleware = around(r.Func, oc.ResolverMiddleware)
	}
	return nil
}

// resolversOnly and around put f around next the same way; Plain tells
// their middleware apart by its code. Inlined, a function's closures get
// code of their own at each call site: they are not.
//
//go:noinline
func resolversOnly(f, next graphql.FieldMiddleware) graphql.FieldMiddleware {
	return func(ctx context.Context, res graphql.Resolver) (any, error) {
		return f(ctx, func(ctx context.Context) (any, error) { return next(ctx, res) })
	}
}

// resolversOnlyFirst is resolversOnly around gqlgen's own middleware,
// which only calls the resolver.
//
//go:noinline
func resolversOnlyFirst(f graphql.FieldMiddleware) graphql.FieldMiddleware {
	return func(ctx context.Context, res graphql.Resolver) (any, error) { return f(ctx, res) }
}

//go:noinline
func around(f, next graphql.FieldMiddleware) graphql.FieldMiddleware {
	return func(ctx context.Context, res graphql.Resolver) (any, error) {
		return f(ctx, func(ctx context.Context) (any, error) { return next(ctx, res) })
	}
}

// codeOf returns the code of a function: the same for every closure of one
// function literal.
func codeOf(f graphql.FieldMiddleware) uintptr { return reflect.ValueOf(f).Pointer() }

var (
	// passThrough is the code of gqlgen's field middleware when no
	// extension intercepts fields, taken from an executor that has none.
	passThrough = func() uintptr {
		schema := gqlparser.MustLoadSchema(&ast.Source{Input: "type Query { a: Int }"})
		oc, errs := executor.New(&graphql.ExecutableSchemaMock{SchemaFunc: func() *ast.Schema { return schema }}).
			CreateOperationContext(graphql.StartOperationTrace(context.Background()), &graphql.RawParams{Query: "{ a }"})
		if errs != nil {
			panic(errs)
		}
		return codeOf(oc.ResolverMiddleware)
	}()
	resolversOnlyCode      = codeOf(resolversOnly(nil, nil))
	resolversOnlyFirstCode = codeOf(resolversOnlyFirst(nil))
)
