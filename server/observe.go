package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/telemetry"
)

// This file holds what an operator sees of a running server besides its
// log: Prometheus metrics, in a registry of the server's own (not the
// global one), and OpenTelemetry traces when an OTLP endpoint is set. The
// metrics are listed in docs/operations.md, "Metrics".

// Fixed label values. None is a valid GraphQL name (names cannot hold
// parentheses), so none can be mistaken for an operation's.
const (
	// labelUnmatched is the route of a request no route matched.
	labelUnmatched = "(unmatched)"
	// labelAnonymous is the operation of an anonymous GraphQL operation.
	labelAnonymous = "(anonymous)"
	// labelInvalid is the operation of a GraphQL request refused before an
	// operation was chosen: a document that does not parse, an unknown
	// operationName.
	labelInvalid = "(invalid)"
	// labelOther is the operation or method past the bounds below.
	labelOther = "(other)"
)

// The bounds of the operation label: names longer than
// maxOperationNameLabel, and the names first seen after maxOperationNames
// others, are counted as labelOther. Clients name their operations, so the
// bound keeps a client from growing the series without end.
const (
	maxOperationNameLabel = 64
	maxOperationNames     = 200
)

// observer holds a server's metrics and tracer.
type observer struct {
	registry *prometheus.Registry

	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// series caches the HTTP series of each route, method and status, so
	// that a request finds its own without building labels.
	seriesMu sync.RWMutex
	series   map[httpKey]*httpSeries

	operations  *prometheus.CounterVec
	opDurations *prometheus.HistogramVec
	opsMu       sync.RWMutex
	ops         map[string]*operationSeries

	subscriptions prometheus.Gauge
	connections   prometheus.Gauge
	jobs          *telemetry.Jobs

	// tracer is nil when tracing is off: every trace path starts with
	// that check.
	tracer     trace.Tracer
	provider   *sdktrace.TracerProvider
	propagator propagation.TextMapPropagator
}

// cpuClasses adds the runtime's estimate of where the process's CPU time
// goes (runtime/metrics' /cpu/classes/...): the collector's share of it,
// rate(go_cpu_classes_gc_total_cpu_seconds_total) over
// rate(go_cpu_classes_total_cpu_seconds_total - go_cpu_classes_idle_cpu_seconds_total),
// is what shows a collector working too hard, as `make bench-load` reports it.
var cpuClasses = collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/cpu/classes/`)}

func newObserver(cfg config.Config, db *store.DB) (*observer, error) {
	reg := prometheus.NewRegistry()
	o := &observer{
		registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bindery_http_requests_total",
			Help: "HTTP requests by method, route pattern and status code.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "bindery_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method, route pattern and status code.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route", "status"}),
		series: map[httpKey]*httpSeries{},
		operations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bindery_graphql_operations_total",
			Help: "GraphQL operations by operation name and result (ok, error).",
		}, []string{"operation", "result"}),
		opDurations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "bindery_graphql_operation_duration_seconds",
			Help:    "Time to execute a GraphQL query or mutation, by operation name.",
			Buckets: prometheus.DefBuckets,
		}, []string{"operation"}),
		ops: map[string]*operationSeries{},
		subscriptions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bindery_graphql_subscriptions_active",
			Help: "GraphQL subscriptions running.",
		}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bindery_subscription_connections_active",
			Help: "Subscription connections (WebSockets and event streams) open.",
		}),
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
	reg.MustRegister(o.requests, o.duration, o.operations, o.opDurations, o.subscriptions, o.connections,
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(cpuClasses)), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(db.SQL, "bindery"))
	o.jobs = telemetry.NewJobs(reg)
	if cfg.OTLPEndpoint != "" {
		if err := o.startTracing(cfg.OTLPEndpoint); err != nil {
			return nil, err
		}
		db.TraceWith(o.provider)
	}
	return o, nil
}

// startTracing exports spans over OTLP/HTTP to endpoint's /v1/traces. The
// SDK reads the rest of OpenTelemetry's environment: OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_EXPORTER_OTLP_HEADERS.
func (o *observer) startTracing(endpoint string) error {
	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimRight(endpoint, "/")+"/v1/traces"))
	if err != nil {
		return err
	}
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "bindery")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return err
	}
	o.provider = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	o.tracer = o.provider.Tracer("github.com/bindery/bindery/server")
	return nil
}

// flush exports the spans ended so far.
func (o *observer) flush(ctx context.Context) error {
	if o.provider == nil {
		return nil
	}
	return o.provider.ForceFlush(ctx)
}

// shutdown exports what is left and stops tracing.
func (o *observer) shutdown(ctx context.Context) error {
	if o.provider == nil {
		return nil
	}
	return o.provider.Shutdown(ctx)
}

// FlushTraces exports the spans ended so far; for tests.
func (s *Server) FlushTraces(ctx context.Context) error { return s.obs.flush(ctx) }

// MetricsHandler serves the server's metrics in Prometheus's format.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.obs.registry, promhttp.HandlerOpts{})
}

// ServeMetrics serves /metrics alone on its own listener until ctx ends:
// BINDERY_METRICS_ADDR, so that the metrics need not be reachable where the
// APIs are. Like the profiler's (debug.go), it has no authentication.
func ServeMetrics(ctx context.Context, ln net.Listener, metrics http.Handler, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	log.Info("serving metrics", "addr", ln.Addr().String())
	return serveUntilDone(ctx, ln, mux)
}

// UseMetricsListener makes Run serve the metrics of BINDERY_METRICS_ADDR on
// ln, which the caller bound before anything else (bindery serve binds its
// ports before it touches the database). Without it, Run binds the address.
func (s *Server) UseMetricsListener(ln net.Listener) { s.metricsLn = ln }

// listenMetrics starts the metrics listener of BINDERY_METRICS_ADDR, if
// set, until ctx ends.
func (s *Server) listenMetrics(ctx context.Context) error {
	if s.cfg.MetricsAddr == "" {
		return nil
	}
	ln := s.metricsLn
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", s.cfg.MetricsAddr); err != nil {
			return fmt.Errorf("listening on BINDERY_METRICS_ADDR: %w", err)
		}
	}
	go func() {
		if err := ServeMetrics(ctx, ln, s.MetricsHandler(), s.log); err != nil {
			s.log.Error("serving metrics", "error", err)
		}
	}()
	return nil
}

// requestInfo is what the inner layers of a request tell the access log,
// which runs outside them: the authenticated user and the GraphQL
// operation. accessLog puts it in the request's context.
type requestInfo struct {
	mu        sync.Mutex
	userID    string
	operation string
}

type requestInfoKey struct{}

func requestInfoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return info
}

// setUser records the authenticated user of the request in ctx.
func setUser(ctx context.Context, userID string) {
	if info := requestInfoFrom(ctx); info != nil {
		info.mu.Lock()
		info.userID = userID
		info.mu.Unlock()
	}
}

// setOperation records the GraphQL operation of the request in ctx: of a
// WebSocket, the last one started.
func setOperation(ctx context.Context, name string) {
	if info := requestInfoFrom(ctx); info != nil {
		info.mu.Lock()
		info.operation = name
		info.mu.Unlock()
	}
}

func (i *requestInfo) get() (userID, operation string) {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.userID, i.operation
}

// httpKey names the series of a request: its method, status and chi's
// route patterns (one per router the request went through), without
// joining them into a string on every request.
type httpKey struct {
	method     string
	status     int
	p0, p1, p2 string
}

type httpSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// methodLabel bounds the method label to the methods Bindery knows.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return labelOther
}

// routeLabel is a request's route pattern: never its path, which would make
// a series of every ID.
func routeLabel(rctx *chi.Context) string {
	if rctx == nil || len(rctx.RoutePatterns) == 0 {
		return labelUnmatched
	}
	// /v1 is a router of its own, mounted: its mount's pattern alone means
	// no route of /v1 matched.
	if len(rctx.RoutePatterns) == 1 && rctx.RoutePatterns[0] == "/v1/*" {
		return labelUnmatched
	}
	return rctx.RoutePattern()
}

// observeHTTP counts a request.
func (o *observer) observeHTTP(r *http.Request, status int, elapsed time.Duration) {
	rctx := chi.RouteContext(r.Context())
	key := httpKey{method: methodLabel(r.Method), status: status}
	if rctx != nil {
		switch p := rctx.RoutePatterns; len(p) {
		case 0:
		case 1:
			key.p0 = p[0]
		case 2:
			key.p0, key.p1 = p[0], p[1]
		case 3:
			key.p0, key.p1, key.p2 = p[0], p[1], p[2]
		default:
			key.p0, key.p1 = rctx.RoutePattern(), "\x00"
		}
	}
	o.seriesMu.RLock()
	s, ok := o.series[key]
	o.seriesMu.RUnlock()
	if !ok {
		route := routeLabel(rctx)
		if key.p1 == "\x00" {
			route = key.p0
		}
		labels := prometheus.Labels{"method": key.method, "route": route, "status": strconv.Itoa(status)}
		s = &httpSeries{requests: o.requests.With(labels), duration: o.duration.With(labels)}
		o.seriesMu.Lock()
		o.series[key] = s
		o.seriesMu.Unlock()
	}
	s.requests.Inc()
	s.duration.Observe(elapsed.Seconds())
}

// startHTTP begins the span of a request, continuing the trace of its
// traceparent header if it has one. Its name gets the route once routed.
func (o *observer) startHTTP(ctx context.Context, r *http.Request) (context.Context, trace.Span) {
	ctx = o.propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
	return o.tracer.Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(
		attribute.String("http.request.method", r.Method),
		attribute.String("url.path", r.URL.Path),
		attribute.String("user_agent.original", r.UserAgent()),
	))
}

// endHTTP names the span of a request by its route and ends it.
func endHTTP(span trace.Span, r *http.Request, status int) {
	route := routeLabel(chi.RouteContext(r.Context()))
	span.SetName(r.Method + " " + route)
	span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
	if status >= 500 {
		span.SetStatus(codes.Error, "")
	}
	span.End()
}
