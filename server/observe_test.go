package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

// scrape fetches url and parses the Prometheus text format.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(res.Body)
	require.NoError(t, err)
	return families
}

// value returns the counter (or histogram count) of the series of family
// whose labels include want, and whether there is one.
func value(families map[string]*dto.MetricFamily, family string, want map[string]string) (float64, bool) {
	f, ok := families[family]
	if !ok {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		}
	}
	return 0, false
}

// After a few requests, /metrics counts them by route pattern and status,
// and the GraphQL operations by name and result; a raw path is never a
// label.
func TestMetrics(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	orgPath := "/v1/orgs/" + e.Org.ID
	require.Equal(t, http.StatusOK, e.Do(http.MethodGet, orgPath, e.OwnerToken, nil).Status)
	require.Equal(t, http.StatusOK, e.Do(http.MethodGet, orgPath, e.OwnerToken, nil).Status)
	require.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, "/nowhere/"+e.Org.ID, e.OwnerToken, nil).Status)
	require.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, "/v1/nowhere/"+e.Org.ID, e.OwnerToken, nil).Status)
	require.Empty(t, e.GraphQL(e.OwnerToken, `query Me { viewer { id } }`, nil).Errors)
	require.Empty(t, e.GraphQL(e.OwnerToken, `{ viewer { id } }`, nil).Errors)
	// An error while executing counts under the operation's name; before
	// an operation runs (a document that does not parse or validate), as
	// (invalid).
	require.NotEmpty(t, e.GraphQL(e.OwnerToken, `query Missing { space(id: "spc_doesnotexist") { id } }`, nil).Errors)
	require.NotEmpty(t, e.GraphQL(e.OwnerToken, `query Broken { viewer { nope } }`, nil).Errors)
	require.NotEmpty(t, e.GraphQL(e.OwnerToken, `query {`, nil).Errors)

	families := scrape(t, e.HTTP.URL+"/metrics")
	for _, c := range []struct {
		family string
		labels map[string]string
		want   float64
	}{
		{"bindery_http_requests_total", map[string]string{"method": "GET", "route": "/v1/orgs/{organizationId}", "status": "200"}, 2},
		{"bindery_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/v1/orgs/{organizationId}", "status": "200"}, 2},
		{"bindery_http_requests_total", map[string]string{"method": "GET", "route": "(unmatched)", "status": "404"}, 2},
		{"bindery_http_requests_total", map[string]string{"method": "POST", "route": "/graphql", "status": "200"}, 5}, // application/json: errors too are 200
		{"bindery_graphql_operations_total", map[string]string{"operation": "Me", "result": "ok"}, 1},
		{"bindery_graphql_operations_total", map[string]string{"operation": "(anonymous)", "result": "ok"}, 1},
		{"bindery_graphql_operations_total", map[string]string{"operation": "Missing", "result": "error"}, 1},
		{"bindery_graphql_operations_total", map[string]string{"operation": "(invalid)", "result": "error"}, 2},
		{"bindery_graphql_operation_duration_seconds", map[string]string{"operation": "Me"}, 1},
		{"bindery_graphql_subscriptions_active", nil, 0},
		{"bindery_subscription_connections_active", nil, 0},
	} {
		got, ok := value(families, c.family, c.labels)
		if assert.True(t, ok, "%s%v is missing", c.family, c.labels) {
			assert.Equal(t, c.want, got, "%s%v", c.family, c.labels)
		}
	}
	// The pool, the runtime and the process.
	for _, name := range []string{"go_sql_open_connections", "go_sql_in_use_connections", "go_sql_wait_count_total",
		"go_goroutines", "process_cpu_seconds_total", "go_gc_gogc_percent", "go_gc_gomemlimit_bytes",
		"go_cpu_classes_gc_total_cpu_seconds_total", "go_cpu_classes_total_cpu_seconds_total", "go_cpu_classes_idle_cpu_seconds_total"} {
		assert.Contains(t, families, name)
	}
	_, ok := value(families, "go_sql_open_connections", map[string]string{"db_name": "bindery"})
	assert.True(t, ok)
	// Every route label is a pattern or a fixed label, never a path.
	for _, name := range []string{"bindery_http_requests_total", "bindery_http_request_duration_seconds"} {
		for _, m := range families[name].Metric {
			for _, l := range m.Label {
				assert.NotContains(t, l.GetValue(), e.Org.ID, "%s has a raw path as a label", name)
				assert.NotContains(t, l.GetValue(), "nowhere", "%s has a raw path as a label", name)
			}
		}
	}
}

// Operation names are bounded: past the longest name and the most names,
// operations count as "(other)".
func TestMetricsOperationNamesBounded(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	long := "Q" + strings.Repeat("x", 64)
	require.Empty(t, e.GraphQL(e.OwnerToken, `query `+long+` { viewer { id } }`, nil).Errors)
	families := scrape(t, e.HTTP.URL+"/metrics")
	got, ok := value(families, "bindery_graphql_operations_total", map[string]string{"operation": "(other)", "result": "ok"})
	assert.True(t, ok)
	assert.Equal(t, 1.0, got)
	_, ok = value(families, "bindery_graphql_operations_total", map[string]string{"operation": long})
	assert.False(t, ok)
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// With BINDERY_METRICS_ADDR, /metrics is served there and only there.
func TestMetricsAddr(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	e := servertest.New(t, func(c *config.Config) { c.MetricsAddr = addr })
	assert.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, "/metrics", "", nil).Status)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Server.Run(ctx, ln) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	var res *http.Response
	require.Eventually(t, func() bool {
		res, err = http.Get("http://" + addr + "/metrics")
		return err == nil
	}, 10*time.Second, 10*time.Millisecond)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(body), "bindery_http_requests_total")
	// Run's purge job made its first pass, and counted it.
	require.Eventually(t, func() bool {
		n, _ := value(scrape(t, "http://"+addr+"/metrics"), "bindery_background_jobs_total",
			map[string]string{"job": "purge", "outcome": "ok"})
		return n >= 1
	}, 10*time.Second, 10*time.Millisecond)
	// The main listener of Run does not serve it either.
	res, err = http.Get("http://" + ln.Addr().String() + "/metrics")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
}

// collector is an in-process OpenTelemetry collector taking OTLP/HTTP in
// protobuf.
type collector struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" {
		http.NotFound(w, r)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			c.spans = append(c.spans, ss.Spans...)
		}
	}
	c.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// With OTEL_EXPORTER_OTLP_ENDPOINT, a request is one trace: its HTTP span,
// the GraphQL operation's and resolvers' spans, and its SQL statements'.
func TestTracing(t *testing.T) {
	t.Parallel()
	col := &collector{}
	otlp := httptest.NewServer(col)
	t.Cleanup(otlp.Close)
	var logs servertest.SyncBuffer
	e := servertest.New(t, func(c *config.Config) { c.OTLPEndpoint = otlp.URL },
		servertest.WithLog(slog.New(slog.NewJSONHandler(&logs, nil))))

	res := e.GraphQL(e.OwnerToken, `query MyOrgs { viewer { organizations(first: 5) { nodes { id } } } }`, nil)
	require.Empty(t, res.Errors)
	require.NoError(t, e.Server.FlushTraces(context.Background()))

	col.mu.Lock()
	defer col.mu.Unlock()
	byName := map[string]*tracepb.Span{}
	for _, s := range col.spans {
		byName[s.Name] = s
	}
	httpSpan := byName["POST /graphql"]
	require.NotNil(t, httpSpan, "the HTTP span, in %v", names(col.spans))
	assert.Equal(t, tracepb.Span_SPAN_KIND_SERVER, httpSpan.Kind)
	op := byName["query MyOrgs"]
	require.NotNil(t, op, "the operation's span, in %v", names(col.spans))
	resolver := byName["User.organizations"]
	require.NotNil(t, resolver, "the resolver's span, in %v", names(col.spans))
	var sqlSpan *tracepb.Span
	for _, s := range col.spans {
		if s.Name == "SELECT" && bytes.Equal(s.TraceId, op.TraceId) && isUnder(col.spans, s, op) {
			sqlSpan = s
		}
	}
	require.NotNil(t, sqlSpan, "an SQL span under the operation, in %v", names(col.spans))
	assert.True(t, bytes.Equal(httpSpan.TraceId, op.TraceId), "one trace")
	assert.True(t, bytes.Equal(op.ParentSpanId, httpSpan.SpanId) || isUnder(col.spans, op, httpSpan))
	assert.True(t, isUnder(col.spans, resolver, op))
	var query string
	for _, a := range sqlSpan.Attributes {
		if a.Key == "db.query.text" {
			query = a.Value.GetStringValue()
		}
	}
	assert.Contains(t, strings.ToUpper(query), "SELECT")
	// The trivial fields (id) have no span.
	assert.NotContains(t, byName, "Organization.id")
	// The access log names the trace.
	assert.Contains(t, logs.String(), `"trace_id":"`+hex.EncodeToString(httpSpan.TraceId)+`"`)
}

// On PostgreSQL, the event bus's NOTIFY, which runs beside ent, is a span
// of the request that published the event too.
func TestTracingEventNotify(t *testing.T) {
	t.Parallel()
	col := &collector{}
	otlp := httptest.NewServer(col)
	t.Cleanup(otlp.Close)
	e := servertest.New(t, func(c *config.Config) { c.OTLPEndpoint = otlp.URL })
	if e.DB.Dialect != dialect.Postgres {
		t.Skip("the bus sends NOTIFY on PostgreSQL only")
	}
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Traced"},
		http.StatusCreated)["id"].(string)
	res := e.GraphQL(e.OwnerToken, `mutation Open($s: ID!) { createChangeRequest(input: {spaceId: $s, subject: "Fix"}) {
	  changeRequest { id } } }`, map[string]any{"s": space})
	require.Empty(t, res.Errors)
	require.NoError(t, e.Server.FlushTraces(context.Background()))

	col.mu.Lock()
	defer col.mu.Unlock()
	var op, notify *tracepb.Span
	for _, s := range col.spans {
		if s.Name == "mutation Open" {
			op = s
		}
	}
	require.NotNil(t, op, "the operation's span, in %v", names(col.spans))
	for _, s := range col.spans {
		for _, a := range s.Attributes {
			if a.Key == "db.query.text" && strings.Contains(a.Value.GetStringValue(), "pg_notify") && bytes.Equal(s.TraceId, op.TraceId) {
				notify = s
			}
		}
	}
	require.NotNil(t, notify, "a span of the NOTIFY in the operation's trace, in %v", names(col.spans))
	assert.Equal(t, "SELECT", notify.Name)
}

// isUnder reports whether s descends from ancestor.
func isUnder(spans []*tracepb.Span, s, ancestor *tracepb.Span) bool {
	byID := map[string]*tracepb.Span{}
	for _, x := range spans {
		byID[string(x.SpanId)] = x
	}
	for p := byID[string(s.ParentSpanId)]; p != nil; p = byID[string(p.ParentSpanId)] {
		if bytes.Equal(p.SpanId, ancestor.SpanId) {
			return true
		}
	}
	return false
}

func names(spans []*tracepb.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// The access log's line of a request names its user and its GraphQL
// operation, which only inner layers know.
func TestAccessLogUserAndOperation(t *testing.T) {
	t.Parallel()
	var buf servertest.SyncBuffer
	e := servertest.New(t, servertest.WithLog(slog.New(slog.NewJSONHandler(&buf, nil))))
	require.Empty(t, e.GraphQL(e.OwnerToken, `query WhoAmI { viewer { id } }`, nil).Errors)
	require.Equal(t, http.StatusOK, e.Do(http.MethodGet, "/v1/orgs/"+e.Org.ID, e.OwnerToken, nil).Status)
	require.Equal(t, http.StatusUnauthorized, e.Do(http.MethodGet, "/v1/orgs/"+e.Org.ID, "", nil).Status)

	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		if m["msg"] == "request" {
			lines = append(lines, m)
		}
	}
	require.Len(t, lines, 3)
	assert.Equal(t, "/graphql", lines[0]["path"])
	assert.Equal(t, e.Owner.ID, lines[0]["user_id"])
	assert.Equal(t, "WhoAmI", lines[0]["operation"])
	assert.Equal(t, e.Owner.ID, lines[1]["user_id"])
	assert.NotContains(t, lines[1], "operation")
	assert.NotContains(t, lines[2], "user_id", "no token, no user")
}

// Subscriptions and their connections are gauges; background jobs count
// their outcomes (here, invitations delivered by the logging mailer).
func TestMetricsSubscriptionsAndJobs(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := newSpace(t, e, e.OwnerToken)
	c := watchChangeRequests(t, e, e.OwnerToken, space)
	families := scrape(t, e.HTTP.URL+"/metrics")
	got, _ := value(families, "bindery_graphql_subscriptions_active", nil)
	assert.Equal(t, 1.0, got)
	got, _ = value(families, "bindery_subscription_connections_active", nil)
	assert.Equal(t, 1.0, got)
	c.send(wsMessage{ID: "1", Type: "complete"})
	require.Eventually(t, func() bool {
		got, _ := value(scrape(t, e.HTTP.URL+"/metrics"), "bindery_graphql_subscriptions_active", nil)
		return got == 0
	}, 10*time.Second, 10*time.Millisecond)

	e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken,
		map[string]any{"emails": []string{"ann@example.com", "bob@example.com"}}, http.StatusOK)
	require.True(t, e.Server.Resolver().WaitForMail(context.Background()))
	got, ok := value(scrape(t, e.HTTP.URL+"/metrics"), "bindery_background_jobs_total", map[string]string{"job": "mail", "outcome": "ok"})
	assert.True(t, ok)
	assert.Equal(t, 2.0, got)
}

// /metrics needs no token and is not rate limited: a scraper is no user.
func TestMetricsUnauthenticatedAndUnlimited(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.RateLimit = 1 })
	for range 5 {
		res := e.Do(http.MethodGet, "/metrics", "", nil)
		require.Equal(t, http.StatusOK, res.Status)
		assert.Contains(t, res.Header.Get("Content-Type"), "text/plain")
	}
}

// BenchmarkGetSpaceRESTTraced is BenchmarkGetSpaceREST with every request
// traced and exported to an in-process collector that drops the spans
// unread: what tracing costs (with the collector's HTTP, amortized over the
// batches).
func BenchmarkGetSpaceRESTTraced(b *testing.B) {
	otlp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	b.Cleanup(otlp.Close)
	e := servertest.New(b, func(c *config.Config) { c.OTLPEndpoint = otlp.URL })
	sp := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Point"}, http.StatusCreated)
	benchGet(b, e, "/v1/spaces/"+sp["id"].(string), 4)
}
