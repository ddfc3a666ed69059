// Package server wires Bindery's HTTP surface: the middleware stack shared by
// /graphql and /v1, the two APIs, the playground and the health checks.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	"github.com/go-chi/chi/v5"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/logctx"
	"github.com/bindery/bindery/internal/openapi/worker"
	"github.com/bindery/bindery/internal/purge"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/webhook/deliver"
	"github.com/bindery/bindery/reader"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/server/playground"
	"github.com/bindery/bindery/signin"
)

// Server is a Bindery server over one database.
type Server struct {
	cfg      config.Config
	db       *store.DB
	resolver *graph.Resolver
	log      *slog.Logger
	limiter  *rateLimiter
	router   chi.Router
	bus      interface {
		events.Bus
		Close() error
	}
	// conns counts each token's subscription connections; stopping closes
	// when the server shuts down, which ends them.
	conns    connections
	stopping chan struct{}
	// draining is set when shutdown starts: /readyz answers 503.
	draining atomic.Bool
	// metricsLn is the bound listener of BINDERY_METRICS_ADDR, if the
	// caller bound it (UseMetricsListener).
	metricsLn net.Listener
	stopOnce  sync.Once
	// obs holds the server's metrics and tracer (observe.go).
	obs *observer
	// specs processes OpenAPI specs while the server runs.
	specs *worker.Worker
	// webhooks sends webhook deliveries while the server runs.
	webhooks *deliver.Worker
	// api is /v1.
	api *rest.API
	// sites serves published sites to their readers.
	sites *reader.Reader
	// signIn serves the sign-in pages; cop refuses the state-changing
	// requests that a session's cookie authenticates from other sites.
	signIn *signin.Handler
	cop    *http.CrossOriginProtection
	// secure is whether the public URL is https (see signin.SessionCookie).
	secure bool
}

// New builds the server. opts configure the application layer. Close
// releases what it holds.
func New(cfg config.Config, db *store.DB, log *slog.Logger, opts ...graph.Option) (*Server, error) {
	s := &Server{cfg: cfg, db: db, log: log, stopping: make(chan struct{})}
	// Events reach the subscribers of every server on one PostgreSQL; on
	// SQLite, one server's.
	if db.Dialect == dialect.Postgres {
		bus, err := events.NewPostgres(context.Background(), db.Source(), db.SQL, db.Traced(), log)
		if err != nil {
			return nil, err
		}
		s.bus = bus
	} else {
		s.bus = events.NewMemory()
	}
	obs, err := newObserver(cfg, db)
	if err != nil {
		s.bus.Close()
		return nil, fmt.Errorf("starting tracing: %w", err)
	}
	s.obs = obs
	opts = append([]graph.Option{graph.WithJobs(obs.jobs), graph.WithSubscriptionGauge(obs.subscriptions)}, opts...)
	s.specs = worker.New(db.Client, worker.Options{Refetch: cfg.OpenAPIRefetchInterval, Poll: cfg.OpenAPIPollInterval,
		AllowPrivate: cfg.ImportAllowPrivate, Log: log})
	var box *secrets.Box
	if cfg.SecretKey != "" {
		if box, err = secrets.FromBase64(cfg.SecretKey); err != nil {
			s.bus.Close()
			return nil, fmt.Errorf("BINDERY_SECRET_KEY: %w", err)
		}
	}
	s.webhooks = deliver.New(db.Client, deliver.Options{Poll: cfg.WebhookPollInterval, Timeout: cfg.WebhookTimeout,
		Retention: cfg.WebhookRetention, AllowPrivate: cfg.ImportAllowPrivate, Box: box, Log: log})
	// The objects of webhook events are rendered by /v1's presenters,
	// which are made over the resolver.
	var api *rest.API
	present := func(ctx context.Context, org string, t enum.WebhookEventType, subject string) (any, error) {
		return api.PresentWebhookObject(ctx, org, t, subject)
	}
	opts = append([]graph.Option{graph.WithLogger(log), graph.WithBus(s.bus), graph.WithWrites(db.Writes), graph.WithSpecWorker(s.specs.Wake),
		graph.WithWebhookWorker(s.webhooks.Wake), graph.WithWebhookPresenter(present)}, opts...)
	s.resolver = graph.New(db.Client, cfg, opts...)
	api = rest.New(s.resolver, log)
	s.api = api
	if s.sites, err = reader.New(s.resolver, cfg.PublicURL, int(cfg.PageCacheBytes), log); err != nil {
		s.bus.Close()
		return nil, err
	}
	// Email links: a few per address, and more per client, each quarter
	// of an hour.
	byAddress, byClient := newRateLimiterPer(5, 15*time.Minute, time.Now), newRateLimiterPer(30, 15*time.Minute, time.Now)
	s.signIn, err = signin.New(context.Background(), s.resolver, cfg, signin.Options{Log: log, Stylesheet: s.sites.Stylesheet(),
		Icon: s.sites.Icon(), AllowAddress: byAddress.allow, AllowClient: byClient.allow})
	if err != nil {
		s.bus.Close()
		return nil, err
	}
	s.cop = signin.CrossOriginProtection(cfg.CORSOrigins)
	s.secure = strings.HasPrefix(cfg.PublicURL, "https://")
	if cfg.RateLimit > 0 {
		s.limiter = newRateLimiter(cfg.RateLimit, time.Now)
	}
	s.router = s.routes()
	return s, nil
}

// Close ends the server's subscriptions and stops listening for events.
func (s *Server) Close() error {
	s.stopOnce.Do(func() { close(s.stopping) })
	// The spans still buffered are exported, for a few seconds at most.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.obs.shutdown(ctx); err != nil {
		s.log.Warn("exporting the last spans", "error", err)
	}
	return s.bus.Close()
}

// Resolver returns the application layer.
func (s *Server) Resolver() *graph.Resolver { return s.resolver }

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

func (s *Server) routes() chi.Router {
	m := chi.NewRouter()
	m.Use(noSniff, requestID, accessLog(s.log, s.obs), s.recoverer)
	// Before authentication: a browser's preflight carries no token.
	if c := s.cors(); c != nil {
		m.Use(c)
	}
	m.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeStatus(w, http.StatusOK, "ok")
	})
	m.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		// Draining: a load balancer stops sending new requests while the
		// ones in flight finish.
		if s.draining.Load() {
			writeStatus(w, http.StatusServiceUnavailable, "draining")
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.db.Ping(ctx); err != nil {
			logctx.From(r.Context(), s.log).Warn("readiness check failed", "error", err)
			writeStatus(w, http.StatusServiceUnavailable, "database unavailable")
			return
		}
		writeStatus(w, http.StatusOK, "ok")
	})
	// /metrics, unauthenticated and not rate limited, unless it has an
	// address of its own (BINDERY_METRICS_ADDR, see observe.go).
	if s.cfg.MetricsAddr == "" {
		m.Method(http.MethodGet, "/metrics", s.MetricsHandler())
	}
	pg := playground.New("graphql", s.signInLinks("/playground")...)
	m.Get("/playground", pg.ServePage)
	m.Get(playground.AssetRoute, pg.ServeAsset)
	// The reader's assets, for the server's own pages.
	m.Get(reader.StaticPrefix+"*", s.sites.ServeStatic)
	m.With(s.deadline, anonymous, s.loaders).Group(s.signIn.Routes)
	// The app's views and the start page, to a browser (see session.go).
	m.Group(s.appViews)
	// Signed URLs carry their own authorization (see signed.go).
	m.Get("/files/{spaceId}/{blob}/{name}", s.serveFile)
	m.Get("/pdf/{spaceId}/{revisionId}", s.servePDF)
	// A Git host's push events carry their own: the connection's key.
	m.With(s.deadline, anonymous).Post("/git/push/{gitSyncId}", s.gitPushEvent)

	// The description of /v1 needs no token (see rest.ServeOpenAPI).
	m.Get("/v1/openapi.json", rest.ServeOpenAPI)
	m.Head("/v1/openapi.json", rest.ServeOpenAPI)

	// The API routes share one stack: deadline, viewer, rate limit, loaders.
	api := m.With(s.deadline, s.authenticate, s.rateLimit, s.loaders, s.eventStreams)
	api.Handle("/graphql", s.graphqlHTTP(s.graphqlHandler()))
	api.Mount("/v1", s.api.Routes())

	// Published sites, to anyone: what admits a visitor is the site's
	// visibility, and the share key or visitor token they bring.
	sites := m.With(s.deadline, anonymous, s.loaders)
	sites.Handle(reader.Prefix+"*", s.sites)
	sites.Handle(strings.TrimSuffix(reader.Prefix, "/")+"/{siteId}", s.sites)
	// A request to a published site's own hostname is the site's.
	m.NotFound(s.deadline(anonymous(s.loaders(http.HandlerFunc(s.siteHost)))).ServeHTTP)
	return m
}

// anonymous makes the request's viewer the anonymous one: a reader of a
// published site brings no credentials of Bindery's own.
func anonymous(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(auth.WithViewer(r.Context(), auth.Anonymous())))
	})
}

// siteHost serves a request that no route of Bindery's own matched: a
// page of the published site whose hostname the request names, when there
// is one, under its basename when it has one.
func (s *Server) siteHost(w http.ResponseWriter, r *http.Request) {
	id, basename, err := s.resolver.PublishedSiteAt(r.Context(), r.Host)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if id == "" {
		http.NotFound(w, r)
		return
	}
	if basename != "" {
		prefix := "/" + basename + "/"
		if r.URL.Path == "/" || r.URL.Path == strings.TrimSuffix(prefix, "/") {
			http.Redirect(w, r, prefix, http.StatusFound)
			return
		}
		rest, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok {
			http.NotFound(w, r)
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + rest
		s.sites.ServeHost(w, r2, id, prefix)
		return
	}
	s.sites.ServeHost(w, r, id, "/")
}

func writeStatus(w http.ResponseWriter, code int, status string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": status})
}

// writeError answers an error raised before a handler ran, in the envelope of
// the API the request was for.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if r.URL.Path != "/graphql" {
		rest.WriteError(w, r, s.log, err)
		return
	}
	ae := apperr.From(err)
	if ae.Kind == apperr.Internal {
		logctx.From(r.Context(), s.log).Error("internal error", "error", err.Error())
	}
	// In the media type the client accepts: GraphQL over HTTP ("Accept")
	// says the server MUST respect the Accept header, so a client that asks
	// for application/json gets its 401 or 429 in application/json.
	gerr := &gqlerror.Error{Message: ae.Message, Extensions: map[string]any{"code": ae.Kind.Code()}}
	writeGraphQLError(w, r, ae.Kind.HTTPStatus(), gerr)
}

// Run serves on addr until ctx ends, then shuts down gracefully. The purge
// job, the OpenAPI worker, the webhook worker and the Git sync worker run
// alongside.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      max(120*time.Second, s.cfg.RequestTimeout+importAllowance+30*time.Second),
		IdleTimeout:       120 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	jobs, stopJobs := context.WithCancel(ctx)
	defer stopJobs()
	if err := s.listenMetrics(jobs); err != nil {
		return err
	}
	var background sync.WaitGroup
	for _, run := range []func(context.Context){
		func(ctx context.Context) {
			purge.Run(ctx, s.db.Client, s.cfg.PurgeInterval, graph.SpaceRetention, time.Now, s.log, s.obs.jobs)
		},
		s.specs.Run, s.webhooks.Run, s.resolver.GitSync().Run,
	} {
		background.Go(func() { run(jobs) })
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		stopJobs()
		background.Wait()
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	s.draining.Store(true)
	s.log.Info("shutting down", "drain_delay", s.cfg.DrainDelay.String())
	// /readyz answers 503 from here; the listener stays open for the drain
	// delay so that load balancers see it before connections are refused.
	if s.cfg.DrainDelay > 0 {
		time.Sleep(s.cfg.DrainDelay)
	}
	stopJobs()
	// Subscriptions end first: Shutdown waits for event streams, and does
	// not see WebSockets, which are no longer HTTP.
	s.stopOnce.Do(func() { close(s.stopping) })
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	background.Wait()
	if !s.resolver.WaitForMail(shutdownCtx) {
		s.log.Warn("shut down with invitations still being sent")
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// Webhooks returns the server's webhook worker, for tests that drive it.
func (s *Server) Webhooks() *deliver.Worker { return s.webhooks }

// signInLinks are the ways to sign in that the playground offers, each
// coming back to returnTo.
func (s *Server) signInLinks(returnTo string) []playground.Link {
	back := "?return_to=" + url.QueryEscape(returnTo)
	links := []playground.Link{{Label: "Sign in by email", URL: "/auth/sign-in" + back}}
	for _, p := range s.cfg.OIDCProviders {
		links = append(links, playground.Link{Label: "Sign in with " + p.Name, URL: "/auth/oidc/" + p.Slug() + back})
	}
	return links
}
