// Package graph is Bindery's application layer. Its resolvers are the only
// place where application rules run: authorization, validation beyond the
// schema, and state changes. GraphQL calls them through gqlgen; /v1 calls the
// very same methods (see package rest), so the two APIs cannot disagree.
package graph

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/generated"
	"github.com/bindery/bindery/internal/adaptive"
	"github.com/bindery/bindery/internal/clock"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/events"
	gitremote "github.com/bindery/bindery/internal/gitsync"
	"github.com/bindery/bindery/internal/links"
	"github.com/bindery/bindery/internal/lru"
	"github.com/bindery/bindery/internal/mail"
	"github.com/bindery/bindery/internal/querycost"
	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/signedurl"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/telemetry"
)

// Resolver holds the application's dependencies.
type Resolver struct {
	policySet
	client *ent.Client
	cfg    config.Config
	now    func() time.Time
	log    *slog.Logger
	// batchWait is how long the per-request loaders collect keys.
	batchWait time.Duration
	// signer signs the expiring URLs of files and PDFs.
	signer *signedurl.Signer
	// objectCache holds content objects across requests; they are immutable.
	objectCache *content.Cache
	// decoded holds the decoded contents of recent revisions across
	// requests: a revision's roots name its content exactly.
	decoded *content.Decoded
	// linkCache holds the link analyses of recently read revisions.
	linkCache *links.Cache
	// adaptiveSchemas holds the compiled adaptive schemas of sites, by
	// site and the schema's update: compiled once per change of the site.
	adaptiveSchemas *lru.Cache[*adaptive.Schema]
	// search is the full-text index of the spaces' current content.
	search *search.Index
	// bus carries events to subscribers.
	bus events.Bus
	// writes counts the database's writes (see Generation); nil when
	// unknown, and then nothing is kept across requests on its strength.
	writes *store.Writes
	// origin names this server on the changes topic (see changesTopic).
	origin string
	// hostSites and proxies keep what the reader asks first of each
	// request: the site a hostname names, and a site's proxy.
	hostSites memo[[2]string]
	proxies   memo[string]
	// statements holds the SQL of the statements every request runs, built
	// once (see store.Statements).
	statements *store.Statements
	// viewers keeps the facts of recent tokens' users (see Authenticate).
	viewers *viewerCache
	// mailer sends invitations, retrying after mailBackoff, then twice
	// that, and so on; mailing counts the deliveries under way.
	mailer      mail.Sender
	mailBackoff time.Duration
	mailing     sync.WaitGroup
	// jobs counts the outcomes of background work; subscriptions, the
	// subscriptions running. Both may be nil.
	jobs          *telemetry.Jobs
	subscriptions Gauge
	// secretBox seals integrations' secrets; nil when no key is
	// configured, and then a publish with secrets is refused.
	secretBox *secrets.Box
	// wakeSpecWorker, when set, wakes this server's OpenAPI worker after a
	// spec gets a new source.
	wakeSpecWorker func()
	// presentWebhook renders the objects of webhook events (see
	// WebhookPresenter); wakeWebhooks wakes this server's webhook worker.
	presentWebhook WebhookPresenter
	wakeWebhooks   func()
	// gitSync runs Git sync operations; the server runs it, and a request
	// wakes it.
	gitSync *GitSyncWorker
	// gitCache keeps the objects of the branches that spaces sync with.
	gitCache *gitremote.Cache
}

// Gauge is a number that goes up and down: a Prometheus gauge.
type Gauge interface {
	Inc()
	Dec()
}

// WithJobs counts the outcomes of background work (invitation delivery)
// into j.
func WithJobs(j *telemetry.Jobs) Option { return func(r *Resolver) { r.jobs = j } }

// WithSubscriptionGauge keeps g at the number of subscriptions running.
func WithSubscriptionGauge(g Gauge) Option { return func(r *Resolver) { r.subscriptions = g } }

// Option configures a Resolver.
type Option func(*Resolver)

// WithClock replaces the clock, for tests.
func WithClock(now func() time.Time) Option { return func(r *Resolver) { r.now = now } }

// WithBatchWait sets how long the per-request loaders collect keys before
// they query (batchWait by default). The statement-bound tests lengthen it:
// on a machine whose CPU is taken by other tests, the siblings of a list
// may take more than a millisecond to reach a loader, which then queries
// in two batches, and a count that should be deterministic is not.
func WithBatchWait(d time.Duration) Option { return func(r *Resolver) { r.batchWait = d } }

// WithSpecWorker makes the resolver wake the OpenAPI worker after a spec
// gets a new source.
func WithSpecWorker(wake func()) Option { return func(r *Resolver) { r.wakeSpecWorker = wake } }

// WithLogger sets the logger of background work.
func WithLogger(l *slog.Logger) Option { return func(r *Resolver) { r.log = l } }

// New returns the application layer over client.
func New(client *ent.Client, cfg config.Config, opts ...Option) *Resolver {
	r := &Resolver{client: client, cfg: cfg, now: clock.Now, log: slog.Default(), batchWait: batchWait,
		objectCache: content.NewCache(int(cfg.ObjectCacheBytes)), decoded: content.NewDecoded(int(cfg.DecodedCacheBytes)), bus: events.NewMemory(),
		adaptiveSchemas: lru.New[*adaptive.Schema](1024, 1), statements: store.NewStatements(),
		viewers: newViewerCache(), hostSites: newMemo[[2]string](1024), proxies: newMemo[string](1024),
		gitCache: gitremote.NewCache(cfg.GitCacheBytes)}
	if drv := client.Driver(); drv != nil {
		r.search = search.New(drv.Dialect())
	}
	for _, o := range opts {
		o(r)
	}
	r.linkCache = links.NewCache(linkCacheEntries, links.Options{InApp: []string{cfg.AppURL, cfg.PublicURL}})
	r.mailer, r.mailBackoff = mail.Log{Logger: r.log}, time.Second
	if cfg.SMTPURL != "" {
		s, err := mail.NewSMTP(cfg.SMTPURL, cfg.SMTPFrom)
		if err != nil {
			// config.Finish checked the URL: this is a programming error.
			panic(fmt.Sprintf("graph: BINDERY_SMTP_URL: %v", err))
		}
		r.mailer = s
	}
	r.gitSync = newGitSyncWorker(r, 0, r.log)
	r.declarePolicies()
	// A read of a protected type that no policy accounts for fails.
	client.Intercept(store.FailClosed(r.protectedTypes()...))
	if r.writes != nil {
		r.origin = rand.Text()
		r.announceWrites()
		go r.followWrites()
	}
	secret := []byte(cfg.SigningSecret)
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			panic(fmt.Sprintf("graph: no randomness for a signing secret: %v", err))
		}
		r.log.Warn("BINDERY_SIGNING_SECRET is not set: file and PDF URLs work only on this process until it restarts")
	}
	r.signer = signedurl.New(secret)
	if cfg.SecretKey != "" {
		box, err := secrets.FromBase64(cfg.SecretKey)
		if err != nil {
			// config.Finish checked the key: this is a programming error.
			panic(fmt.Sprintf("graph: BINDERY_SECRET_KEY: %v", err))
		}
		r.secretBox = box
	}
	return r
}

// WaitForMail waits for the email deliveries under way, as a server that
// shuts down should, until ctx ends; it reports whether they all ended.
func (r *Resolver) WaitForMail(ctx context.Context) bool {
	done := make(chan struct{})
	go func() {
		r.mailing.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// Schema returns the executable GraphQL schema.
func (r *Resolver) Schema() graphql.ExecutableSchema {
	return querycost.Weighted{ExecutableSchema: generated.NewExecutableSchema(generated.Config{Resolvers: r})}
}

// Signer returns the signer of expiring URLs, which the server checks.
func (r *Resolver) Signer() *signedurl.Signer { return r.signer }

// Client returns the ent client the resolver reads and writes.
func (r *Resolver) Client() *ent.Client { return r.client }

// db returns the client of the transaction in ctx, if any, or the base client.
func (r *Resolver) db(ctx context.Context) *ent.Client {
	if c := ent.FromContext(ctx); c != nil {
		return c
	}
	return r.client
}

// Now is the resolver's clock, for checks outside the application layer.
func (r *Resolver) Now() time.Time { return r.clock() }

// clock returns the current time as stored: UTC, millisecond precision.
func (r *Resolver) clock() time.Time { return r.now().UTC().Truncate(time.Millisecond) }

// tx runs a mutation in one transaction, for /v1 and GraphQL alike.
//
// The transaction lives inside the mutation resolver rather than around the
// whole request: gqlgen resolves the payload's fields concurrently, and a
// transaction is one connection that must not be shared between goroutines.
// So the writes commit when the resolver returns, and the payload is read
// after, like any later read. Inside the transaction, reads go through fresh
// loaders bound to it; when it ends, the request's loaders are cleared,
// because the data they cached may have changed.
//
// Events emitted inside (see emit) are published once the outermost
// transaction commits, and never when it rolls back. So are the request's
// loaders primed, after they are cleared, with what the mutation recorded
// that its answer shows (see primeAfter, and mutate).
//
// A transaction the database gives up on (a deadlock, a serialization
// failure, a busy SQLite) runs fn again from the start, in a new
// transaction (see store.WithTx): so fn must keep what it learns in
// variables each run sets anew. What a lost run emitted, scheduled or
// recorded is forgotten with it.
func (r *Resolver) tx(ctx context.Context, fn func(ctx context.Context) error) error {
	outer := loadersFrom(ctx)
	request := ctx
	ctx, p, first := withPending(ctx)
	err := store.WithTx(ctx, r.client, func(ctx context.Context, _ *ent.Client) error {
		if first {
			*p = pending{}
		}
		if tx := ent.TxFromContext(ctx); first && tx != nil {
			// The transaction may be a caller's that this one joined:
			// its commit is the one that counts.
			tx.OnCommit(func(next ent.Committer) ent.Committer {
				return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
					err := next.Commit(ctx, tx)
					if err == nil {
						r.publish(ctx, p.events)
						for _, fn := range p.after {
							fn()
						}
					}
					return err
				})
			})
		}
		inner := r.newLoaders(outer)
		if err := fn(withLoaders(ctx, inner)); err != nil {
			return err
		}
		return p.err
	})
	outer.clear()
	if first && err == nil {
		primeRecorded(request, p.primes)
	}
	return err
}

// apply carries an optional input field into an update: absent leaves the
// field as it is, null clears it, a value sets it.
func apply[T, B any](o graphql.Omittable[*T], set func(*T) B, clear func() B) {
	switch v, ok := o.ValueOK(); {
	case !ok:
	case v == nil:
		clear()
	default:
		set(v)
	}
}
