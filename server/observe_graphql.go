package server

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// operationSeries are the series of one operation label.
type operationSeries struct {
	ok, failed prometheus.Counter
	duration   prometheus.Observer
}

// operationSeriesOf returns the series of an operation's name, bounded
// (see maxOperationNames).
func (o *observer) operationSeriesOf(name string) *operationSeries {
	switch {
	case name == "":
		name = labelAnonymous
	case len(name) > maxOperationNameLabel:
		name = labelOther
	}
	o.opsMu.RLock()
	s, ok := o.ops[name]
	o.opsMu.RUnlock()
	if ok {
		return s
	}
	o.opsMu.Lock()
	defer o.opsMu.Unlock()
	if s, ok := o.ops[name]; ok {
		return s
	}
	if len(o.ops) >= maxOperationNames && name != labelAnonymous && name != labelInvalid {
		name = labelOther
		if s, ok := o.ops[name]; ok {
			return s
		}
	}
	s = &operationSeries{
		ok:       o.operations.WithLabelValues(name, "ok"),
		failed:   o.operations.WithLabelValues(name, "error"),
		duration: o.opDurations.WithLabelValues(name),
	}
	o.ops[name] = s
	return s
}

// graphqlObserver counts GraphQL operations, tells the access log their
// names, and, when tracing, makes a span of each.
type graphqlObserver struct{ o *observer }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.ResponseInterceptor
} = graphqlObserver{}

func (graphqlObserver) ExtensionName() string                   { return "Observer" }
func (graphqlObserver) Validate(graphql.ExecutableSchema) error { return nil }

// operationState follows one operation from its start to its first
// response, which decides its result.
type operationState struct {
	series       *operationSeries
	start        time.Time
	subscription bool
	span         trace.Span
	next         graphql.ResponseHandler
	done         bool
}

type operationKey struct{}

func (g graphqlObserver) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	name, kind := oc.Operation.Name, oc.Operation.Operation
	setOperation(ctx, name)
	st := &operationState{series: g.o.operationSeriesOf(name), start: time.Now(), subscription: kind == ast.Subscription}
	if g.o.tracer != nil && trace.SpanContextFromContext(ctx).IsSampled() {
		spanName := string(kind)
		if name != "" {
			spanName += " " + name
		}
		ctx, st.span = g.o.tracer.Start(ctx, spanName, trace.WithAttributes(
			attribute.String("graphql.operation.type", string(kind)),
			attribute.String("graphql.operation.name", name)))
	}
	st.next = next(context.WithValue(ctx, operationKey{}, st))
	return st.respond
}

// respond passes on the operation's responses, counting the first: a
// query's or mutation's only one, a subscription's first event or error.
func (st *operationState) respond(ctx context.Context) *graphql.Response {
	resp := st.next(ctx)
	if st.done {
		return resp
	}
	st.done = true
	failed := resp != nil && len(resp.Errors) > 0
	if failed {
		st.series.failed.Inc()
	} else {
		st.series.ok.Inc()
	}
	if !st.subscription {
		st.series.duration.Observe(time.Since(st.start).Seconds())
	}
	if st.span != nil {
		if failed {
			st.span.SetStatus(codes.Error, resp.Errors.Error())
		}
		st.span.End()
	}
	return resp
}

// InterceptResponse counts the operations refused before they ran (a
// document that does not parse or validate, a limit exceeded): gqlgen
// answers them without InterceptOperation.
func (g graphqlObserver) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if ctx.Value(operationKey{}) != nil {
		return resp
	}
	name := labelInvalid
	if graphql.HasOperationContext(ctx) {
		if oc := graphql.GetOperationContext(ctx); oc.Operation != nil {
			name = oc.Operation.Name
			setOperation(ctx, name)
		}
	}
	g.o.operationSeriesOf(name).failed.Inc()
	return resp
}

// graphqlTracer makes a span of every field a resolver computes. It is
// installed only when tracing is on: otherwise no field pays for it.
type graphqlTracer struct{ o *observer }

var _ interface {
	graphql.HandlerExtension
	graphql.FieldInterceptor
} = graphqlTracer{}

func (graphqlTracer) ExtensionName() string                   { return "FieldTracer" }
func (graphqlTracer) Validate(graphql.ExecutableSchema) error { return nil }

func (g graphqlTracer) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !fc.IsResolver || !trace.SpanContextFromContext(ctx).IsSampled() {
		return next(ctx)
	}
	ctx, span := g.o.tracer.Start(ctx, fc.Object+"."+fc.Field.Name, trace.WithAttributes(
		attribute.String("graphql.field.path", fc.Path().String())))
	res, err := next(ctx)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "")
	}
	span.End()
	return res, err
}
