package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/logctx"
	"github.com/bindery/bindery/signin"
)

// noSniff tells browsers to trust the Content-Type of every response, errors
// included, rather than guess one from the body: a JSON error or an uploaded
// file is then never run as a script or rendered as HTML.
func noSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// requestID gives every request an ID: the caller's X-Request-Id when it is
// sane, otherwise a fresh one. Every log line of the request carries it.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rid := r.Header.Get("X-Request-Id")
		if !requestIDPattern.MatchString(rid) {
			var b [12]byte
			_, _ = rand.Read(b[:])
			rid = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", rid)
		ctx := logctx.WithRequestID(r.Context(), rid)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	// info is what the access log learns from inner layers.
	info requestInfo
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Flush lets streaming handlers flush through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// accessLog writes one line per request, with the user and the GraphQL
// operation the inner layers found (see requestInfo), and counts it in o's
// metrics. When tracing, the request's span starts and ends here.
func accessLog(log *slog.Logger, o *observer) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			ctx := context.WithValue(r.Context(), requestInfoKey{}, &rec.info)
			var span trace.Span
			if o.tracer != nil {
				ctx, span = o.startHTTP(ctx, r)
			}
			r = r.WithContext(ctx)
			next.ServeHTTP(rec, r)
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			elapsed := time.Since(start)
			o.observeHTTP(r, rec.status, elapsed)
			if span != nil {
				endHTTP(span, r, rec.status)
			}
			level := slog.LevelInfo
			if rec.status >= 500 {
				level = slog.LevelError
			}
			args := make([]any, 0, 16)
			args = append(args, "method", r.Method, "path", r.URL.Path, "status", rec.status,
				"bytes", rec.bytes, "duration_ms", elapsed.Milliseconds())
			userID, op := rec.info.get()
			if userID != "" {
				args = append(args, "user_id", userID)
			}
			if op != "" {
				args = append(args, "operation", op)
			}
			if span != nil {
				args = append(args, "trace_id", span.SpanContext().TraceID().String())
			}
			logctx.From(r.Context(), log).Log(r.Context(), level, "request", args...)
		})
	}
}

// recoverer turns a panic into a generic 500; the stack goes to the log.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				logctx.From(r.Context(), s.log).Error("panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				s.writeError(w, r, fmt.Errorf("panic: %v", p))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// authenticate sets the viewer from the bearer token, or else from the
// session cookie of a signed-in browser. Every API route needs one: a
// missing, malformed, unknown or expired token or session is a 401. A
// request the cookie authenticates that would change something is refused
// when another site made it (http.CrossOriginProtection), unless that site
// is one of BINDERY_CORS_ORIGINS; a bearer token is never sent by a
// browser on its own, and needs no such check.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		scheme, token, found := strings.Cut(h, " ")
		if h == "" && isWebSocket(r) {
			// A browser cannot send the header: the WebSocket authenticates
			// in its connection_init (see subscriptions.go).
			next.ServeHTTP(w, r)
			return
		}
		session := ""
		if h == "" {
			session = signin.SessionSecret(r, s.secure)
			if session == "" {
				s.writeError(w, r, apperr.Unauthenticatedf("Authentication is required: send an API token as 'Authorization: Bearer <token>', or sign in at /auth/sign-in"))
				return
			}
			if err := s.cop.Check(r); err != nil {
				s.writeError(w, r, apperr.Forbidden("A request from another site may not act with your session: send an API token instead"))
				return
			}
		} else if !found || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			s.writeError(w, r, apperr.Unauthenticatedf("The Authorization header must be 'Bearer <token>'"))
			return
		}
		var v *auth.Viewer
		var err error
		if session != "" {
			v, err = s.resolver.AuthenticateSession(r.Context(), session, time.Now())
		} else {
			v, err = s.resolver.Authenticate(r.Context(), strings.TrimSpace(token), time.Now())
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		secret := session
		if secret == "" {
			secret = strings.TrimSpace(token)
		}
		s.resolver.RecordUse(r.Context(), secret, v, time.Now())
		setUser(r.Context(), v.User.ID)
		ctx := auth.WithViewer(r.Context(), v)
		ctx = logctx.With(ctx, "user_id", v.User.ID)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// loaders gives each request its own dataloaders.
func (s *Server) loaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(s.resolver.WithLoaders(r.Context())))
	})
}
