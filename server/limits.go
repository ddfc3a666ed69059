package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/importer"
	"github.com/bindery/bindery/internal/logctx"
)

// Every /graphql and /v1 request works under a deadline, its context's,
// which every query observes: past it, the database refuses the next
// statement, and the answer is a 504 (/v1) or a TIMEOUT error (GraphQL).
// The same context ends when the client goes away, and then the work stops
// the same way (see stopWhenDone).
//
// The deadline is cfg.RequestTimeout, except for an import, which fetches
// from the network under its own limit (importer.DefaultTimeout) and gets
// that much more. /v1 names an import in its path; a GraphQL request is
// given the longer deadline until its operation is known, and then the one
// its operation needs (see operationDeadline).

// importAllowance is the time an import gets on top of the request timeout.
const importAllowance = importer.DefaultTimeout

// deadline bounds the context of an API request.
func (s *Server) deadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isSubscription(r) {
			next.ServeHTTP(w, r)
			return
		}
		budget := s.cfg.RequestTimeout
		if r.URL.Path == "/graphql" || isV1Import(r) {
			budget += importAllowance
		}
		ctx, cancel := context.WithTimeout(r.Context(), budget)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// isV1Import reports whether a request is one of /v1's imports:
// POST /v1/spaces/{spaceId}/content/import and its change request twin.
func isV1Import(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/spaces/") &&
		strings.HasSuffix(r.URL.Path, "/content/import")
}

// operationDeadline gives a GraphQL operation its deadline, counted from
// when it starts: the request timeout, or more for an import. The context
// ends when the response is made, as gqlgen runs the operation only then.
//
// A subscription has no deadline: it lasts until its client, its access or
// the server ends it.
func (s *Server) operationDeadline(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	budget := s.cfg.RequestTimeout
	if oc := graphql.GetOperationContext(ctx); oc.Operation != nil {
		if oc.Operation.Operation == ast.Subscription {
			return next(ctx)
		}
		// One allowance, however many imports: the request's own deadline
		// has only one (see deadline).
		if slices.Contains(rootFields(oc), "importContent") {
			budget += importAllowance
		}
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	h := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		defer cancel()
		resp := h(ctx)
		if resp == nil && ctx.Err() != nil {
			// gqlgen answers nothing at all, a JSON null, for an
			// operation whose context ended before it started.
			ae := apperr.FromContext(ctx, ctx.Err())
			return &graphql.Response{Errors: gqlerror.List{{Message: ae.Message, Extensions: map[string]any{"code": ae.Kind.Code()}}}}
		}
		return resp
	}
}

// stopWhenDone resolves no further field once the operation's context has
// ended, past its deadline or because the client left: gqlgen itself would
// go on calling every resolver of every item, each to fail on its first
// query.
func stopWhenDone(ctx context.Context, next graphql.Resolver) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return next(ctx)
}

// oneEndError keeps, of the errors a response collects after its context
// ended, a single one about the end, without a path: every field still
// pending failed the same way, and a client wants to hear it once.
func (s *Server) oneEndError(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || ctx.Err() == nil || len(resp.Errors) == 0 {
		return resp
	}
	var kept gqlerror.List
	var end *gqlerror.Error
	for _, e := range resp.Errors {
		code, _ := e.Extensions["code"].(string)
		if code != apperr.Timeout.Code() && code != apperr.Canceled.Code() {
			kept = append(kept, e)
			continue
		}
		if end == nil {
			end = &gqlerror.Error{Message: e.Message, Extensions: map[string]any{"code": code}}
		}
	}
	if end != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			logctx.From(ctx, s.log).Warn("GraphQL operation ran past its deadline", "errors", len(resp.Errors)-len(kept))
		}
		kept = append(kept, end)
	}
	resp.Errors = kept
	return resp
}
