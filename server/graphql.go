package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/bindery/bindery/graph/gqlexec"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/logctx"
)

// codeDepth is the stable extensions.code of an operation nested too deeply.
// An operation over the complexity limit gets gqlgen's
// COMPLEXITY_LIMIT_EXCEEDED.
const codeDepth = "DEPTH_LIMIT_EXCEEDED"

// graphqlHandler builds the GraphQL endpoint with explicit transports.
func (s *Server) graphqlHandler() http.Handler {
	srv := handler.New(s.resolver.Schema())
	// Subscriptions first: gqlgen serves a request with the first transport
	// that takes it, and a WebSocket's upgrade is a GET, an event stream a
	// POST (see subscriptions.go).
	srv.AddTransport(s.websocketTransport())
	srv.AddTransport(transport.SSE{KeepAlivePingInterval: s.cfg.SubscriptionKeepAlive})
	srv.AddTransport(transport.Options{AllowedMethods: []string{http.MethodGet, http.MethodPost, http.MethodOptions}})
	srv.AddTransport(transport.GET{})
	// POST picks an answer's media type with graphqlResponseType, as
	// gqlgen's would without UseGrapQLResponseJsonByDefault:
	// application/json when Accept is empty, */*, application/* or
	// application/json.
	srv.AddTransport(graphqlPOST{})
	// GraphQL multipart requests carry uploads. The body may exceed the file
	// limit by the operations and map parts; the resolver checks the file.
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: s.cfg.MaxUploadBytes + 1<<20, MaxMemory: 8 << 20})
	validated := lru.New[*ast.QueryDocument](1000)
	srv.SetQueryCache(validated)
	// The document limits run before gqlgen parses and validates (see
	// limits_graphql.go); gqlgen's parser gets the same token limit.
	srv.SetParserTokenLimit(s.cfg.GraphQLTokenLimit)
	srv.Use(documentLimits{tokens: s.cfg.GraphQLTokenLimit, fields: s.cfg.GraphQLFieldLimit,
		aliases: s.cfg.GraphQLAliasLimit, validated: validated})
	if s.cfg.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(mutationLimit{max: s.cfg.GraphQLMutationLimit})
	srv.Use(depthLimit{max: s.cfg.DepthLimit})
	srv.Use(&extension.ComplexityLimit{Func: func(context.Context, *graphql.OperationContext) int {
		return s.cfg.ComplexityLimit
	}})
	srv.Use(&graphqlCharge{}) // the rate limit's charge, after the complexity is known (ratelimit.go)
	// Metrics, the access log's operation name, and spans when tracing:
	// outside the deadline, so that they see the operations it ends.
	srv.Use(graphqlObserver{s.obs})
	// Field middleware, each around those installed before it. Both are for
	// resolvers only: a field read straight from a struct calls none, has
	// nothing to stop or trace, and the generated code writes it without
	// them (gqlexec.Plain). Field middleware installed any other way makes
	// every field go through it.
	srv.Use(gqlexec.ResolversOnly{Name: "StopWhenDone", Func: stopWhenDone})
	if s.obs.tracer != nil {
		srv.Use(gqlexec.ResolversOnly{Name: "FieldTracer", Func: graphqlTracer{s.obs}.InterceptField})
	}
	srv.AroundOperations(s.operationDeadline)
	srv.AroundResponses(s.oneEndError)
	srv.SetErrorPresenter(s.presentGraphQLError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		logctx.From(ctx, s.log).Error("panic in resolver", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		return errors.New("panic in resolver")
	})
	return srv
}

// presentGraphQLError gives every error an extensions.code. Application
// errors carry their kind; errors gqlgen raised about the request itself are
// client errors; anything else is a server fault, logged with the request ID
// and reported with a generic message.
func (s *Server) presentGraphQLError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	if gerr.Extensions == nil {
		gerr.Extensions = map[string]any{}
	}
	if _, ok := gerr.Extensions["code"]; ok {
		return gerr
	}
	cause := gerr.Unwrap()
	var enumErr *enum.Error
	switch {
	case cause == nil:
		// Raised by gqlgen while coercing the request: a client error.
		gerr.Extensions["code"] = apperr.InvalidArgument.Code()
		return gerr
	case errors.As(cause, &enumErr):
		gerr.Extensions["code"] = apperr.InvalidArgument.Code()
		return gerr
	case isIntrospection(gerr.Path) && cause.Error() == "introspection disabled":
		// gqlgen refuses the __schema and __type fields with a plain error.
		gerr.Message = "GraphQL introspection is disabled on this server"
		gerr.Extensions["code"] = "INTROSPECTION_DISABLED"
		return gerr
	}
	ae := argumentError(ctx, gerr.Path, apperr.FromContext(ctx, cause))
	gerr.Extensions["code"] = ae.Kind.Code()
	if ae.Field != "" {
		gerr.Extensions["field"] = ae.Field
	}
	gerr.Message = ae.Message
	if ae.Kind == apperr.Internal {
		logctx.From(ctx, s.log).Error("internal error", "error", cause.Error(), "path", gerr.Path.String())
	}
	return gerr
}

// argumentError names the argument an InvalidArgument without a field is
// about, when gqlgen raised it while reading the argument: a scalar's
// UnmarshalGQL (a page cursor's) does not know the argument's name, but the
// error's path ends with it, one step past the field.
func argumentError(ctx context.Context, path ast.Path, ae *apperr.Error) *apperr.Error {
	fc := graphql.GetFieldContext(ctx)
	if ae.Kind != apperr.InvalidArgument || ae.Field != "" || fc == nil || fc.Field.Field == nil || len(path) == 0 {
		return ae
	}
	name, ok := path[len(path)-1].(ast.PathName)
	if !ok || string(name) == fc.Field.Alias {
		return ae
	}
	return apperr.From(apperr.Invalid(string(name), "%s", ae.Message))
}

// isIntrospection reports whether a path ends at an introspection field.
func isIntrospection(p ast.Path) bool {
	if len(p) == 0 {
		return false
	}
	name, ok := p[len(p)-1].(ast.PathName)
	return ok && strings.HasPrefix(string(name), "__")
}

// depthLimit refuses operations nested deeper than max fields. Introspection
// fields are not counted, so GraphiQL's schema query always works.
type depthLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (d depthLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, map[string]bool{}); depth > d.max {
		err := gqlerror.Errorf("The operation is %d fields deep; the limit is %d", depth, d.max)
		err.Extensions = map[string]any{"code": codeDepth, "depth": depth, "limit": d.max}
		return err
	}
	return nil
}

func selectionDepth(set ast.SelectionSet, frags ast.FragmentDefinitionList, visiting map[string]bool) int {
	max := 0
	for _, sel := range set {
		var depth int
		switch s := sel.(type) {
		case *ast.Field:
			if len(s.Name) > 1 && s.Name[:2] == "__" {
				continue
			}
			depth = 1 + selectionDepth(s.SelectionSet, frags, visiting)
		case *ast.InlineFragment:
			depth = selectionDepth(s.SelectionSet, frags, visiting)
		case *ast.FragmentSpread:
			if visiting[s.Name] {
				continue
			}
			if f := frags.ForName(s.Name); f != nil {
				visiting[s.Name] = true
				depth = selectionDepth(f.SelectionSet, frags, visiting)
				delete(visiting, s.Name)
			}
		}
		if depth > max {
			max = depth
		}
	}
	return max
}
