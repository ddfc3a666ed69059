package store

import (
	"context"
	"strings"
	"sync/atomic"

	"entgo.io/ent/dialect"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Tracing: every statement ent runs becomes a span, a child of the span in
// its context (a sampled one, which may have ended: a GraphQL resolver's
// span ends before the fields under it resolve), once TraceWith gave the database a tracer provider. Until
// then (and for good, when tracing is off) a statement costs one atomic
// load more, and a transaction nothing.

// tracing is the driver wrapper Open installs under every other.
type tracing struct {
	dialect.Driver
	system string
	tracer *atomic.Pointer[tracer]
}

type tracer struct{ trace.Tracer }

// TraceWith makes a span of every statement of d's client whose context
// carries a sampled span. A nil tp turns it off.
func (d *DB) TraceWith(tp trace.TracerProvider) {
	if d.tracer == nil {
		return
	}
	if tp == nil {
		d.tracer.Store(nil)
		return
	}
	d.tracer.Store(&tracer{tp.Tracer("github.com/bindery/bindery/internal/store")})
}

// dbSystem is the OpenTelemetry db.system.name of a dialect.
func dbSystem(dialectName string) string {
	if dialectName == dialect.Postgres {
		return "postgresql"
	}
	return "sqlite"
}

// start begins the span of a statement, or returns nil.
func (t *tracing) start(ctx context.Context, query string) (context.Context, trace.Span) {
	tr := t.tracer.Load()
	if tr == nil || !trace.SpanContextFromContext(ctx).IsSampled() {
		return ctx, nil
	}
	return tr.Start(ctx, operation(query), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system.name", t.system), attribute.String("db.query.text", query)))
}

// end ends a statement's span, with its error.
func end(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "")
	}
	span.End()
}

// operation is the first keyword of a statement (SELECT, INSERT, ...), the
// span's name: the statement itself is an attribute.
func operation(query string) string {
	query = strings.TrimLeft(query, " \t\n(")
	if i := strings.IndexAny(query, " \t\n("); i > 0 {
		query = query[:i]
	}
	if query == "" {
		return "SQL"
	}
	return strings.ToUpper(query)
}

func (t *tracing) Exec(ctx context.Context, query string, args, v any) error {
	ctx, span := t.start(ctx, query)
	err := t.Driver.Exec(ctx, query, args, v)
	end(span, err)
	return err
}

func (t *tracing) Query(ctx context.Context, query string, args, v any) error {
	ctx, span := t.start(ctx, query)
	err := t.Driver.Query(ctx, query, args, v)
	end(span, err)
	return err
}

func (t *tracing) Tx(ctx context.Context) (dialect.Tx, error) {
	tctx, span := t.start(ctx, "BEGIN")
	tx, err := t.Driver.Tx(tctx)
	end(span, err)
	if err != nil || span == nil {
		return tx, err
	}
	return &tracingTx{Tx: tx, t: t, ctx: ctx}, nil
}

// tracingTx traces the statements of a transaction begun with a sampled
// span; its COMMIT or ROLLBACK is a child of the span it began in.
type tracingTx struct {
	dialect.Tx
	t   *tracing
	ctx context.Context
}

func (x *tracingTx) Exec(ctx context.Context, query string, args, v any) error {
	ctx, span := x.t.start(ctx, query)
	err := x.Tx.Exec(ctx, query, args, v)
	end(span, err)
	return err
}

func (x *tracingTx) Query(ctx context.Context, query string, args, v any) error {
	ctx, span := x.t.start(ctx, query)
	err := x.Tx.Query(ctx, query, args, v)
	end(span, err)
	return err
}

func (x *tracingTx) Commit() error {
	_, span := x.t.start(x.ctx, "COMMIT")
	err := x.Tx.Commit()
	end(span, err)
	return err
}

func (x *tracingTx) Rollback() error {
	_, span := x.t.start(x.ctx, "ROLLBACK")
	err := x.Tx.Rollback()
	end(span, err)
	return err
}
