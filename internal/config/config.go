// Package config holds the server's configuration: one struct, filled from
// flags and environment variables by cmd/bindery and passed down. There are
// no package-level settings.
package config

import (
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/mail"
	"github.com/bindery/bindery/internal/secrets"
)

// Config is the configuration of a Bindery server.
type Config struct {
	// Addr is the listen address.
	Addr string
	// DatabaseURL is a SQLite file path or a postgres:// URL.
	DatabaseURL string
	// PublicURL is the base URL clients use to reach this server; it prefixes
	// the urls.location of resources.
	PublicURL string
	// AppURL is the base URL of the dashboard front-end; it prefixes urls.app.
	AppURL    string
	LogLevel  slog.Level
	LogFormat string
	// Introspection enables GraphQL introspection.
	Introspection bool
	// ComplexityLimit and DepthLimit bound a GraphQL operation.
	ComplexityLimit int
	DepthLimit      int
	// GraphQLMaxBodyBytes bounds a /graphql JSON body, and the document of
	// a GET. Multipart uploads have MaxUploadBytes instead.
	GraphQLMaxBodyBytes int64
	// GraphQLTokenLimit, GraphQLFieldLimit and GraphQLAliasLimit bound a
	// GraphQL document before it is validated; see server/limits_graphql.go.
	GraphQLTokenLimit int
	GraphQLFieldLimit int
	GraphQLAliasLimit int
	// GraphQLMutationLimit bounds the root mutation fields of an operation.
	GraphQLMutationLimit int
	// RequestTimeout bounds the work of one /graphql or /v1 request.
	RequestTimeout time.Duration
	// SubscriptionsPerConnection bounds the GraphQL subscriptions one
	// WebSocket runs at once; SubscriptionConnections, the WebSockets and
	// event streams of one API token; SubscriptionKeepAlive is how often
	// an idle one is pinged.
	SubscriptionsPerConnection int
	SubscriptionConnections    int
	SubscriptionKeepAlive      time.Duration
	// RateLimit is the number of requests a user, with all their tokens, may
	// make per minute on one server, and the burst: a user's token bucket
	// holds that many points and refills at that many a minute. A GraphQL
	// operation spends 1 point plus 1 per 100 of complexity. 0 turns rate
	// limiting off.
	RateLimit int
	// PurgeInterval is how often deleted spaces past retention are purged.
	PurgeInterval time.Duration
	// OpenAPIRefetchInterval is how long after its last processing an
	// OpenAPI spec with a URL source is fetched again.
	OpenAPIRefetchInterval time.Duration
	// OpenAPIPollInterval is how often the OpenAPI worker looks for specs
	// to process that no request on this server woke it for.
	OpenAPIPollInterval time.Duration
	// WebhookPollInterval is how often the webhook worker looks for due
	// deliveries that no change on this server woke it for.
	WebhookPollInterval time.Duration
	// GitPollInterval is how often the branch of a space connected to Git
	// is read for new commits that no push event announced.
	GitPollInterval time.Duration
	// WebhookRetention is how long webhook deliveries, with the log of
	// their attempts, are kept.
	WebhookRetention time.Duration
	// WebhookTimeout bounds one webhook request, response included.
	WebhookTimeout time.Duration
	// Seed creates the owner user and demo content on an empty database.
	Seed bool
	// ShutdownTimeout bounds graceful shutdown.
	ShutdownTimeout time.Duration
	// DrainDelay is how long a stopping server keeps serving, with /readyz
	// answering 503, before it stops accepting connections.
	DrainDelay time.Duration
	// SigningSecret signs the expiring URLs of files and PDFs. Every replica
	// needs the same one; empty means a random secret for this process.
	SigningSecret string
	// SecretKey is the base64 of the 32-byte AES-256 key that encrypts
	// integrations' secrets at rest (see internal/secrets). Empty: on
	// SQLite, `bindery serve` keeps a key file beside the database; on
	// PostgreSQL, a publish with secrets is refused.
	SecretKey string
	// MaxUploadBytes bounds an uploaded file.
	MaxUploadBytes int64
	// ObjectCacheBytes bounds the content objects a server keeps in memory.
	ObjectCacheBytes int64
	// DecodedCacheBytes bounds the objects that the decoded contents and
	// pages a server keeps were decoded from; decoded, they take a few
	// times as much.
	DecodedCacheBytes int64
	// PageCacheBytes bounds the rendered pages of published sites a server
	// keeps.
	PageCacheBytes int64
	// GitCacheBytes bounds the Git objects a server keeps of the branches
	// of connected spaces, so that a sync fetches only what changed.
	GitCacheBytes int64
	// ImportAllowPrivate lets imports fetch from loopback, private and other
	// special-purpose addresses. For local testing only.
	ImportAllowPrivate bool
	// CORSOrigins are the origins whose pages may call the APIs from a
	// browser (normalized, see ParseOrigins); "*" allows any. Empty means no
	// CORS headers at all.
	CORSOrigins []string
	// DebugAddr is the address of a listener serving Go's profiler; empty
	// serves none.
	DebugAddr string
	// SMTPURL is the relay invitations are sent through
	// (smtp[s]://[user:password@]host[:port]); empty means they are only
	// logged. SMTPFrom is their sender address, required with a relay.
	SMTPURL  string
	SMTPFrom string
	// MetricsAddr is the address of a listener serving /metrics alone;
	// empty serves /metrics on Addr with the APIs.
	MetricsAddr string
	// OTLPEndpoint is the base URL of an OpenTelemetry collector taking
	// OTLP over HTTP; traces go to its /v1/traces. Empty turns tracing off.
	OTLPEndpoint string
	// MemoryLimit is the Go runtime's soft memory limit under `bindery
	// serve`, unless GOMEMLIMIT is set.
	MemoryLimit MemoryLimit
	// HeapFloorBytes is the heap below which the collector of `bindery
	// serve` does not start a cycle; 0 turns the floor off.
	HeapFloorBytes int64
	// SignUp says who may get an account by signing in (see SignUp).
	SignUp SignUp
	// OIDCProviders are the OpenID Connect providers people sign in with.
	OIDCProviders []OIDCProvider
	// SessionIdle ends a browser session unused for that long;
	// SessionLifetime ends it that long after its sign-in, used or not.
	SessionIdle     time.Duration
	SessionLifetime time.Duration
}

// Default returns the configuration used when nothing is set.
func Default() Config {
	return Config{
		Addr:            "127.0.0.1:8080",
		DatabaseURL:     "bindery.db",
		LogLevel:        slog.LevelInfo,
		LogFormat:       "json",
		Introspection:   true,
		ComplexityLimit: 100000,
		DepthLimit:      12,
		// A page's markdown may be 1 MiB (validate.MaxMarkdownBytes), and
		// must fit, JSON-escaped, in one setPageMarkdown request.
		GraphQLMaxBodyBytes:        2 << 20,
		GraphQLTokenLimit:          15000,
		GraphQLFieldLimit:          1000,
		GraphQLAliasLimit:          100,
		GraphQLMutationLimit:       10,
		RequestTimeout:             30 * time.Second,
		SubscriptionsPerConnection: 20,
		SubscriptionConnections:    10,
		SubscriptionKeepAlive:      25 * time.Second,
		RateLimit:                  1200,
		PurgeInterval:              time.Hour,
		OpenAPIRefetchInterval:     time.Hour,
		OpenAPIPollInterval:        10 * time.Second,
		WebhookPollInterval:        5 * time.Second,
		GitPollInterval:            time.Minute,
		WebhookRetention:           30 * 24 * time.Hour,
		WebhookTimeout:             10 * time.Second,
		Seed:                       true,
		ShutdownTimeout:            20 * time.Second,
		MaxUploadBytes:             25 << 20,
		ObjectCacheBytes:           64 << 20,
		DecodedCacheBytes:          64 << 20,
		PageCacheBytes:             32 << 20,
		GitCacheBytes:              64 << 20,
		MemoryLimit:                MemoryLimit{Percent: 90},
		HeapFloorBytes:             48 << 20,
		SignUp:                     SignUpClosed,
		SessionIdle:                14 * 24 * time.Hour,
		SessionLifetime:            30 * 24 * time.Hour,
	}
}

// Env lists the environment variables read by FromEnv, with their meaning.
// The README's configuration table is checked against it.
var Env = []struct{ Name, Flag, Default, Meaning string }{
	{"BINDERY_ADDR", "--addr", "127.0.0.1:8080", "Address the server listens on."},
	{"BINDERY_DATABASE_URL", "--db", "bindery.db", "SQLite file path, or a postgres:// or postgresql:// URL."},
	{"BINDERY_PUBLIC_URL", "", "http://<addr>", "Base URL clients reach the server at; prefixes `urls.location`."},
	{"BINDERY_APP_URL", "", "the public URL", "Base URL of the dashboard; prefixes `urls.app`."},
	{"BINDERY_LOG_LEVEL", "", "info", "debug, info, warn or error."},
	{"BINDERY_LOG_FORMAT", "", "json", "json or text."},
	{"BINDERY_GRAPHQL_INTROSPECTION", "--no-introspection", "true", "Set to false to turn GraphQL introspection off."},
	{"BINDERY_GRAPHQL_COMPLEXITY_LIMIT", "", "100000", "Maximum complexity of a GraphQL operation."},
	{"BINDERY_GRAPHQL_DEPTH_LIMIT", "", "12", "Maximum depth of a GraphQL operation."},
	{"BINDERY_GRAPHQL_MAX_BODY_BYTES", "", "2097152", "Largest /graphql JSON body, and GraphQL document of a GET (2 MiB: a page's 1 MiB of markdown fits, escaped). Over it: 413."},
	{"BINDERY_GRAPHQL_TOKEN_LIMIT", "", "15000", "Most tokens (names, punctuation, values) the parser reads of a GraphQL document."},
	{"BINDERY_GRAPHQL_FIELD_LIMIT", "", "1000", "Most fields a GraphQL document may write, counted before validation."},
	{"BINDERY_GRAPHQL_ALIAS_LIMIT", "", "100", "Most aliased fields a GraphQL document may write."},
	{"BINDERY_GRAPHQL_MUTATION_LIMIT", "", "10", "Most root mutation fields one GraphQL operation may run."},
	{"BINDERY_REQUEST_TIMEOUT", "", "30s", "How long a /graphql or /v1 request may work; an import gets 60s more. Past it: 504."},
	{"BINDERY_SUBSCRIPTIONS_PER_CONNECTION", "", "20", "Most GraphQL subscriptions one WebSocket may run at once."},
	{"BINDERY_SUBSCRIPTION_CONNECTIONS", "", "10", "Most subscription WebSockets and event streams one API token may hold open on one server."},
	{"BINDERY_SUBSCRIPTION_KEEPALIVE", "", "25s", "How often an open subscription is pinged (a graphql-transport-ws ping, an SSE comment) to keep proxies from closing it."},
	{"BINDERY_RATE_LIMIT", "", "1200", "Requests per minute per user (all their tokens) on one server, and the burst a full budget allows; a GraphQL operation costs 1 + complexity/100. 0 turns it off."},
	{"BINDERY_PURGE_INTERVAL", "", "1h", "How often deleted spaces older than 7 days are purged."},
	{"BINDERY_SEED", "--no-seed", "true", "Set to false to skip creating the owner and demo content on an empty database."},
	{"BINDERY_SIGNING_SECRET", "", "random per process", "At least 32 characters; signs the one-hour URLs of files and PDFs. Set the same value on every replica, or URLs break across replicas and restarts."},
	{"BINDERY_SECRET_KEY", "", "a key file beside the SQLite database", "Base64 of 32 random bytes (`openssl rand -base64 32`); encrypts integrations' secrets at rest (AES-256-GCM). Unset on SQLite: `bindery serve` keeps a key in `bindery.secret-key` (mode 0600) beside the database and warns. Required on PostgreSQL to publish an integration with secrets. Change it with `bindery secrets rotate`."},
	{"BINDERY_MAX_UPLOAD_BYTES", "", "26214400", "Largest file an upload may carry (25 MiB)."},
	{"BINDERY_OBJECT_CACHE_BYTES", "", "67108864", "Memory for content objects (pages, trees) kept across requests (64 MiB)."},
	{"BINDERY_DECODED_CACHE_BYTES", "", "67108864", "Size of the content objects whose decoded contents and pages are kept across requests (64 MiB); decoded, they take a few times as much. A space's content is kept when it is at most half of it, so that a page read costs the same whatever the space's size."},
	{"BINDERY_PAGE_CACHE_BYTES", "", "33554432", "Memory for the rendered pages of published sites kept across requests (32 MiB); a page larger than an eighth of it is not kept. An edit or a change of the site shows at the next request whatever is kept."},
	{"BINDERY_GIT_CACHE_BYTES", "", "67108864", "Memory for the Git objects (the files and trees of the last commit) kept of the branches that spaces sync with (64 MiB), so that a sync fetches and pushes only what changed; a branch larger than half of it is not kept, and is fetched whole each time."},
	{"BINDERY_IMPORT_ALLOW_PRIVATE", "", "false", "For local testing only: set to 1 to let imports, OpenAPI specs, webhooks and Git sync reach loopback, private and link-local addresses. Never set it in production: it opens server-side request forgery."},
	{"BINDERY_OPENAPI_REFETCH_INTERVAL", "", "1h", "How long after its last processing an OpenAPI spec with a URL source is fetched again; a version is stored only when the document changed."},
	{"BINDERY_OPENAPI_POLL_INTERVAL", "", "10s", "How often each server's OpenAPI worker looks for specs to process (a spec created or updated on this server is processed at once)."},
	{"BINDERY_DEBUG_ADDR", "", "none", "Address (`127.0.0.1:6060`) of a separate listener serving Go's profiler at `/debug/pprof/`, unauthenticated: keep it private."},
	{"BINDERY_SMTP_URL", "", "none", "SMTP relay that sends invitations: `smtp://` (STARTTLS when offered) or `smtps://`, with optional `user:password@`. Unset: invitations are logged, not sent."},
	{"BINDERY_SMTP_FROM", "", "none", "Sender address of invitations; required with `BINDERY_SMTP_URL`."},
	{"BINDERY_DRAIN_DELAY", "", "0s", "How long a stopping server keeps serving with `/readyz` answering 503 before it refuses connections; behind a load balancer, set it above the health check's interval (`10s`)."},
	{"BINDERY_CORS_ORIGINS", "", "none", "Comma-separated origins (`https://app.example.com`) whose pages may call the APIs from a browser, or `*` for any; see docs/api/conventions.md, Browsers and CORS."},
	{"BINDERY_METRICS_ADDR", "", "the main address", "Address (`127.0.0.1:9090`) of a separate listener serving Prometheus metrics at `/metrics`; set, `/metrics` is no longer served on the main address. Unauthenticated: keep it private."},
	{"BINDERY_MEMORY_LIMIT", "", "90%", "Soft memory limit of the Go runtime under `serve`: a share of the cgroup's memory limit (`90%`; none when the machine or container sets no limit), a size (`512MiB`, `2GiB`), or `off`. `GOMEMLIMIT`, when set, wins. See docs/operations.md, Memory."},
	{"BINDERY_HEAP_FLOOR_BYTES", "", "50331648", "Heap below which the garbage collector of `serve` does not start a cycle (48 MiB), whatever `GOGC`'s target over a small live heap; 0 for none. At most a quarter of the soft memory limit. See docs/operations.md, Memory."},
	{"BINDERY_SIGN_UP", "", "closed", "Who gets an account by signing in with an address Bindery does not know: `closed` (nobody; invitations and SAML make accounts) or `domains` (people whose email domain an organization lists in `emailDomains`). See docs/sign-in.md."},
	{"BINDERY_OIDC_PROVIDERS", "", "none", "OpenID Connect providers people sign in with: a JSON array of `{\"name\", \"issuer\", \"clientId\", \"clientSecret\", \"scopes\"}`; each one's redirect URI is `<public URL>/auth/oidc/<name in lower case>/callback`. See docs/sign-in.md."},
	{"BINDERY_SESSION_IDLE", "", "336h", "A browser session unused for this long ends (14 days)."},
	{"BINDERY_SESSION_LIFETIME", "", "720h", "A browser session ends this long after its sign-in, used or not (30 days)."},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "none", "Base URL (`http://127.0.0.1:4318`) of an OpenTelemetry collector taking OTLP over HTTP; traces are sent to its `/v1/traces`. Unset: no tracing."},
}

// FromEnv overlays the environment onto c.
func (c *Config) FromEnv(getenv func(string) string) error {
	str := func(name string, dst *string) {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	str("BINDERY_ADDR", &c.Addr)
	str("BINDERY_DATABASE_URL", &c.DatabaseURL)
	str("BINDERY_PUBLIC_URL", &c.PublicURL)
	str("BINDERY_APP_URL", &c.AppURL)
	str("BINDERY_LOG_FORMAT", &c.LogFormat)
	str("BINDERY_SIGNING_SECRET", &c.SigningSecret)
	str("BINDERY_SECRET_KEY", &c.SecretKey)
	str("BINDERY_DEBUG_ADDR", &c.DebugAddr)
	str("BINDERY_SMTP_URL", &c.SMTPURL)
	str("BINDERY_SMTP_FROM", &c.SMTPFrom)
	str("BINDERY_METRICS_ADDR", &c.MetricsAddr)
	str("OTEL_EXPORTER_OTLP_ENDPOINT", &c.OTLPEndpoint)
	if v := getenv("BINDERY_LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("BINDERY_LOG_LEVEL: %w", err)
		}
	}
	for name, dst := range map[string]*bool{"BINDERY_GRAPHQL_INTROSPECTION": &c.Introspection, "BINDERY_SEED": &c.Seed,
		"BINDERY_IMPORT_ALLOW_PRIVATE": &c.ImportAllowPrivate} {
		if v := getenv(name); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s: %q is not a boolean", name, v)
			}
			*dst = b
		}
	}
	for name, dst := range map[string]*int{"BINDERY_GRAPHQL_COMPLEXITY_LIMIT": &c.ComplexityLimit,
		"BINDERY_GRAPHQL_DEPTH_LIMIT": &c.DepthLimit, "BINDERY_RATE_LIMIT": &c.RateLimit,
		"BINDERY_GRAPHQL_TOKEN_LIMIT": &c.GraphQLTokenLimit, "BINDERY_GRAPHQL_FIELD_LIMIT": &c.GraphQLFieldLimit,
		"BINDERY_GRAPHQL_ALIAS_LIMIT": &c.GraphQLAliasLimit, "BINDERY_GRAPHQL_MUTATION_LIMIT": &c.GraphQLMutationLimit,
		"BINDERY_SUBSCRIPTIONS_PER_CONNECTION": &c.SubscriptionsPerConnection,
		"BINDERY_SUBSCRIPTION_CONNECTIONS":     &c.SubscriptionConnections} {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("%s: %q is not a non-negative integer", name, v)
			}
			*dst = n
		}
	}
	if v := getenv("BINDERY_CORS_ORIGINS"); v != "" {
		origins, err := ParseOrigins(v)
		if err != nil {
			return fmt.Errorf("BINDERY_CORS_ORIGINS: %w", err)
		}
		c.CORSOrigins = origins
	}
	for name, dst := range map[string]*int64{"BINDERY_MAX_UPLOAD_BYTES": &c.MaxUploadBytes,
		"BINDERY_GRAPHQL_MAX_BODY_BYTES": &c.GraphQLMaxBodyBytes, "BINDERY_OBJECT_CACHE_BYTES": &c.ObjectCacheBytes,
		"BINDERY_DECODED_CACHE_BYTES": &c.DecodedCacheBytes, "BINDERY_PAGE_CACHE_BYTES": &c.PageCacheBytes,
		"BINDERY_GIT_CACHE_BYTES": &c.GitCacheBytes} {
		if v := getenv(name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				return fmt.Errorf("%s: %q is not a positive integer", name, v)
			}
			*dst = n
		}
	}
	if err := c.signInFromEnv(getenv); err != nil {
		return err
	}
	if v := getenv("BINDERY_MEMORY_LIMIT"); v != "" {
		m, err := ParseMemoryLimit(v)
		if err != nil {
			return fmt.Errorf("BINDERY_MEMORY_LIMIT: %w", err)
		}
		c.MemoryLimit = m
	}
	if v := getenv("BINDERY_HEAP_FLOOR_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("BINDERY_HEAP_FLOOR_BYTES: %q is not a size in bytes (0 for none)", v)
		}
		c.HeapFloorBytes = n
	}
	if v := getenv("BINDERY_DRAIN_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("BINDERY_DRAIN_DELAY: %q is not a duration of 0 or more", v)
		}
		c.DrainDelay = d
	}
	for name, dst := range map[string]*time.Duration{"BINDERY_PURGE_INTERVAL": &c.PurgeInterval,
		"BINDERY_REQUEST_TIMEOUT": &c.RequestTimeout, "BINDERY_SUBSCRIPTION_KEEPALIVE": &c.SubscriptionKeepAlive,
		"BINDERY_OPENAPI_REFETCH_INTERVAL": &c.OpenAPIRefetchInterval, "BINDERY_OPENAPI_POLL_INTERVAL": &c.OpenAPIPollInterval,
		"BINDERY_WEBHOOK_POLL_INTERVAL": &c.WebhookPollInterval, "BINDERY_WEBHOOK_RETENTION": &c.WebhookRetention,
		"BINDERY_WEBHOOK_TIMEOUT": &c.WebhookTimeout, "BINDERY_GIT_POLL_INTERVAL": &c.GitPollInterval} {
		if v := getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("%s: %q is not a positive duration", name, v)
			}
			*dst = d
		}
	}
	return nil
}

// Finish fills derived values and checks the whole configuration.
func (c *Config) Finish() error {
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.AppURL == "" {
		c.AppURL = c.PublicURL
	}
	c.AppURL = strings.TrimRight(c.AppURL, "/")
	for name, v := range map[string]string{"BINDERY_PUBLIC_URL": c.PublicURL, "BINDERY_APP_URL": c.AppURL} {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s: %q is not an http(s) URL", name, v)
		}
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		return fmt.Errorf("BINDERY_LOG_FORMAT: %q is neither json nor text", c.LogFormat)
	}
	if c.SigningSecret != "" && len(c.SigningSecret) < 32 {
		return fmt.Errorf("BINDERY_SIGNING_SECRET: must be at least 32 characters")
	}
	if c.SecretKey != "" {
		// The message never repeats the key.
		if _, err := secrets.ParseKey(c.SecretKey); err != nil {
			return fmt.Errorf("BINDERY_SECRET_KEY: %w", err)
		}
	}
	if c.ComplexityLimit < 1 || c.DepthLimit < 1 {
		return fmt.Errorf("the GraphQL complexity and depth limits must be positive")
	}
	if c.GraphQLMaxBodyBytes < 1 || c.GraphQLTokenLimit < 1 || c.GraphQLFieldLimit < 1 || c.GraphQLAliasLimit < 0 ||
		c.GraphQLMutationLimit < 1 || c.RequestTimeout <= 0 {
		return fmt.Errorf("the GraphQL body, token, field and mutation limits and the request timeout must be positive")
	}
	if c.SubscriptionsPerConnection < 1 || c.SubscriptionConnections < 1 {
		return fmt.Errorf("BINDERY_SUBSCRIPTIONS_PER_CONNECTION and BINDERY_SUBSCRIPTION_CONNECTIONS must be positive")
	}
	if c.OTLPEndpoint != "" {
		u, err := url.Parse(c.OTLPEndpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT: %q is not an http(s) URL", c.OTLPEndpoint)
		}
	}
	if err := c.finishSignIn(); err != nil {
		return err
	}
	if c.SMTPURL != "" {
		if _, err := mail.ParseURL(c.SMTPURL); err != nil {
			// The URL may hold a password: the message does not repeat it.
			return fmt.Errorf("BINDERY_SMTP_URL: %w", err)
		}
		if _, err := netmail.ParseAddress(c.SMTPFrom); err != nil {
			return fmt.Errorf("BINDERY_SMTP_FROM: %q is not an email address (required with BINDERY_SMTP_URL)", c.SMTPFrom)
		}
	}
	return nil
}

// ParseOrigins reads a comma-separated list of origins: "*", or a scheme
// (http or https), a host and an optional port, as a browser sends them in
// its Origin header. Scheme and host are lowercased, a trailing slash and a
// default port are dropped; anything else, a path for one, is an error,
// since no browser would ever send it.
func ParseOrigins(list string) ([]string, error) {
	var out []string
	for _, raw := range strings.Split(list, ",") {
		o := strings.TrimSpace(raw)
		if o == "" {
			continue
		}
		if o == "*" {
			out = append(out, o)
			continue
		}
		u, err := url.Parse(strings.TrimSuffix(o, "/"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
			u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
			return nil, fmt.Errorf("%q is not an origin such as https://app.example.com", o)
		}
		host := strings.ToLower(u.Host)
		if port := u.Port(); (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
			host = strings.TrimSuffix(host, ":"+port)
		}
		out = append(out, strings.ToLower(u.Scheme)+"://"+host)
	}
	return out, nil
}
