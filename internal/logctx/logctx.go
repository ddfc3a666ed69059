// Package logctx carries a request's log attributes (its request ID first)
// in the context, so that every log line of a request can be joined up.
package logctx

import (
	"context"
	"log/slog"
)

type key struct{}

// WithRequestID returns a context whose log lines carry the request ID.
func WithRequestID(ctx context.Context, id string) context.Context {
	return With(ctx, "request_id", id)
}

// With returns a context whose log lines carry the attributes.
func With(ctx context.Context, args ...any) context.Context {
	prev, _ := ctx.Value(key{}).([]any)
	attrs := append(append([]any(nil), prev...), args...)
	return context.WithValue(ctx, key{}, attrs)
}

// RequestID returns the request ID of the context, or "".
func RequestID(ctx context.Context) string {
	attrs, _ := ctx.Value(key{}).([]any)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i] == "request_id" {
			s, _ := attrs[i+1].(string)
			return s
		}
	}
	return ""
}

// From returns the logger with the context's attributes.
func From(ctx context.Context, l *slog.Logger) *slog.Logger {
	if attrs, _ := ctx.Value(key{}).([]any); len(attrs) > 0 {
		return l.With(attrs...)
	}
	return l
}
