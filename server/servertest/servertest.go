// Package servertest starts a whole Bindery server in-process for tests, on
// a fresh, migrated database: a SQLite file, or a PostgreSQL database when
// BINDERY_TEST_DATABASE_URL is set (see database.go). Every area's tests use
// it, so every test runs on both databases without extra code.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server"
)

// EnvDatabaseURL names the variable that selects PostgreSQL for tests.
const EnvDatabaseURL = "BINDERY_TEST_DATABASE_URL"

// Env is a running server with its database.
type Env struct {
	T      testing.TB
	Server *server.Server
	HTTP   *httptest.Server
	// DB is the server's database. Its client fails a write outside a
	// transaction (store.RequireTx).
	DB *store.DB
	// Client writes and inspects a test's fixtures: the same database,
	// without that check or the read guard.
	Client *ent.Client
	Config config.Config
	// Statements counts the SQL statements the server has run.
	Statements *atomic.Int64
	Clock      *Clock
	// DSN is where the database is.
	DSN string
	// Owner is an admin of Org; OwnerToken is theirs.
	Owner      *ent.User
	OwnerToken string
	Org        *ent.Organization
}

// TestSecretKey is the BINDERY_SECRET_KEY of test servers.
const TestSecretKey = "c2VydmVydGVzdC1zZWNyZXQta2V5LTAxMjM0NTY3ODk="

// Option adjusts the configuration of a test server.
type Option func(*config.Config)

// testLog is where servers log when a test does not ask for a logger.
var testLog = func() *slog.Logger {
	if os.Getenv("BINDERY_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}()

// loggers maps a configuration marker to the logger a test asked for.
var loggers sync.Map

// WithLog makes the server log to l.
func WithLog(l *slog.Logger) Option {
	return func(c *config.Config) {
		key := fmt.Sprintf("log-%p", l)
		loggers.Store(key, l)
		c.LogFormat = key
	}
}

// Clock is a settable clock for the application layer.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
}

// Now returns the real time plus the clock's offset.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// New starts a server on a fresh database with one organization and its
// admin.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	ctx := context.Background()
	counter := &atomic.Int64{}
	dsn := MigratedDSN(t)
	db, err := store.Open(ctx, dsn, store.WithDriver(func(d dialect.Driver) dialect.Driver {
		return &countingDriver{Driver: d, n: counter}
	}))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	// The server's writes belong in the resolvers' transactions: one that
	// escapes fails, and fails the test even where the error is only logged.
	// A test's own fixtures are written outside any transaction, and read
	// behind the read guard that refuses reads no policy accounts for,
	// through a client of their own on the same connections.
	db.Client.Use(store.RequireTx(func(err error) { t.Errorf("%s: %v", writer(), err) }))
	fixtures := db.NewClient()

	cfg := config.Default()
	cfg.RateLimit = 0
	cfg.PublicURL = "http://bindery.test"
	cfg.SigningSecret = "servertest-signing-secret-0123456789"
	cfg.SecretKey = TestSecretKey
	for _, o := range opts {
		o(&cfg)
	}
	log := testLog
	if l, ok := loggers.Load(cfg.LogFormat); ok {
		log = l.(*slog.Logger)
		cfg.LogFormat = "json"
	}
	require.NoError(t, cfg.Finish())
	clock := &Clock{}
	srv, err := server.New(cfg, db, log, serverOptions(clock)...)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })

	e := &Env{T: t, Server: srv, HTTP: hs, DB: db, Client: fixtures, Config: cfg, Statements: counter, Clock: clock, DSN: dsn}
	e.Owner = e.User("owner@example.com")
	e.OwnerToken = e.Token(e.Owner)
	e.Org, err = graph.CreateOrganization(ctx, fixtures, "Acme Docs", e.Owner.ID)
	require.NoError(t, err)
	return e
}

// writer returns where Bindery's code called the write that a hook runs
// for: the first caller outside ent, the store and this package.
func writer() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		fn := f.Function
		ours := strings.HasPrefix(fn, "github.com/bindery/bindery/") &&
			!strings.HasPrefix(fn, "github.com/bindery/bindery/ent") &&
			!strings.HasPrefix(fn, "github.com/bindery/bindery/internal/store.")
		if ours && (!strings.HasPrefix(fn, "github.com/bindery/bindery/server/servertest.") || strings.HasSuffix(f.File, "_test.go")) {
			return fmt.Sprintf("%s:%d (%s)", filepath.Base(f.File), f.Line, fn)
		}
		if !more {
			return "an unknown caller"
		}
	}
}

// serverOptions are the options of every test server: its clock, and a
// token kept without a statement for as long as nothing is written, so
// that the statements a request takes do not depend on how fast the
// machine is (see graph.WithKeptViewerAge).
func serverOptions(clock *Clock) []graph.Option {
	return []graph.Option{graph.WithClock(clock.Now), graph.WithKeptViewerAge(time.Hour)}
}

// Reuse starts a second server on e's database, with empty caches: what a
// restarted server, or another replica, sees.
func Reuse(t testing.TB, e *Env, opts ...graph.Option) *Env {
	t.Helper()
	srv, err := server.New(e.Config, e.DB, testLog, append(serverOptions(e.Clock), opts...)...)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	out := *e
	out.T, out.Server, out.HTTP = t, srv, hs
	return &out
}

// Replica starts a server on e's database through connections of its own,
// as another process would: it hears of the other servers' writes only
// through the database (on PostgreSQL, its notifications).
func Replica(t testing.TB, e *Env) *Env {
	t.Helper()
	db, err := store.Open(context.Background(), e.DSN)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	srv, err := server.New(e.Config, db, testLog, serverOptions(e.Clock)...)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	out := *e
	out.T, out.Server, out.HTTP, out.DB, out.Statements = t, srv, hs, db, &atomic.Int64{}
	return &out
}

// IsPostgres reports whether the tests run on PostgreSQL.
func IsPostgres() bool { return os.Getenv(EnvDatabaseURL) != "" }

// User returns the user with the email, creating them if needed.
func (e *Env) User(email string) *ent.User {
	e.T.Helper()
	ctx := context.Background()
	u, err := graph.EnsureUser(ctx, e.Client, email)
	require.NoError(e.T, err)
	return u
}

// Token issues a token to a user.
func (e *Env) Token(u *ent.User) string {
	e.T.Helper()
	tok, _, err := graph.IssueToken(context.Background(), e.Client, u.ID, "test", nil)
	require.NoError(e.T, err)
	return tok
}

// Member makes a new user a member of the organization with the role (empty
// for a guest) and returns their token.
func (e *Env) Member(orgID string, role enum.Role, email string) (string, *ent.User) {
	e.T.Helper()
	u := e.User(email)
	c := e.Client.Member.Create().SetOrganizationID(orgID).SetUserID(u.ID)
	if role != "" {
		c.SetRole(role)
	}
	require.NoError(e.T, c.OnConflictColumns(member.FieldOrganizationID, member.FieldUserID).UpdateRole().Exec(context.Background()))
	return e.Token(u), u
}

// Response is an HTTP response read whole.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic value.
func (r *Response) JSON() map[string]any {
	var v map[string]any
	_ = json.Unmarshal(r.Body, &v)
	return v
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// Decode decodes the body into v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), string(r.Body))
}

// Do sends a request to the server. body is JSON-encoded unless it is a
// string or nil. A /v1 answer is validated against the official spec (an
// extension's, against Bindery's own document; see CheckSpec).
func (e *Env) Do(method, path, token string, body any) *Response {
	e.T.Helper()
	return e.do(method, path, token, body, CheckSpec)
}

// DoBindery sends a request as Do does, but validates the /v1 answer
// against Bindery's own document alone (CheckBinderySpec): for answers
// holding one of Bindery's additions to an official schema, such as a
// redirect to a url.
func (e *Env) DoBindery(method, path, token string, body any) *Response {
	e.T.Helper()
	return e.do(method, path, token, body, CheckBinderySpec)
}

func (e *Env) do(method, path, token string, body any, check func(testing.TB, *http.Request, *Response)) *Response {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(e.T, err)
		if string(raw) != "null" { // a nil map or slice: no body
			rd = bytes.NewReader(raw)
		}
	}
	req, err := http.NewRequest(method, e.HTTP.URL+path, rd)
	require.NoError(e.T, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	out := e.send(req)
	if strings.HasPrefix(req.URL.Path, "/v1/") && !e.skipSpec(req) {
		check(e.T, req, out)
	}
	return out
}

// skipSpec reports whether a request is outside the official spec and
// Bindery's extensions: a route that does not exist, answered by the
// router's 404.
func (e *Env) skipSpec(req *http.Request) bool {
	router, _, err := loadSpec()
	if err != nil {
		return false
	}
	own, _, err := loadBindery()
	if err != nil {
		return false
	}
	r := req.Clone(context.Background())
	r.URL.Host, r.URL.Scheme, r.Host = "", "", ""
	if _, _, err := own.FindRoute(r); err == nil {
		return false
	}
	_, _, err = router.FindRoute(r)
	return err != nil
}

// GQLResponse is a GraphQL response.
type GQLResponse struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// Code returns the extensions.code of the first error, or "".
func (g *GQLResponse) Code() string {
	if len(g.Errors) == 0 {
		return ""
	}
	c, _ := g.Errors[0].Extensions["code"].(string)
	return c
}

// Into decodes data into v, failing the test on any error.
func (g *GQLResponse) Into(t testing.TB, v any) {
	t.Helper()
	require.Empty(t, g.Errors, "GraphQL errors")
	require.NoError(t, json.Unmarshal(g.Data, v))
}

// GraphQL posts an operation to /graphql.
func (e *Env) GraphQL(token, query string, vars map[string]any) *GQLResponse {
	e.T.Helper()
	res := e.Do(http.MethodPost, "/graphql", token, map[string]any{"query": query, "variables": vars})
	g := &GQLResponse{Status: res.Status}
	require.NoError(e.T, json.Unmarshal(res.Body, g), string(res.Body))
	return g
}

// Upload posts a GraphQL multipart request (the GraphQL multipart request
// spec) whose variable fileVar is a file with the given name, type and bytes.
func (e *Env) Upload(token, query string, vars map[string]any, fileVar, name, contentType string, data []byte) *GQLResponse {
	e.T.Helper()
	ops, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(e.T, err)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(e.T, mw.WriteField("operations", string(ops)))
	require.NoError(e.T, mw.WriteField("map", `{"0":["variables.`+fileVar+`"]}`))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="0"; filename=%q`, name))
	h.Set("Content-Type", contentType)
	part, err := mw.CreatePart(h)
	require.NoError(e.T, err)
	_, err = part.Write(data)
	require.NoError(e.T, err)
	require.NoError(e.T, mw.Close())
	req, err := http.NewRequest(http.MethodPost, e.HTTP.URL+"/graphql", &body)
	require.NoError(e.T, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res := e.send(req)
	g := &GQLResponse{Status: res.Status}
	require.NoError(e.T, json.Unmarshal(res.Body, g), string(res.Body))
	return g
}

// Get fetches an absolute URL the server handed out, such as a signed
// download URL, from the test server.
func (e *Env) Get(rawURL string) *Response {
	e.T.Helper()
	req, err := http.NewRequest(http.MethodGet, strings.Replace(rawURL, e.Config.PublicURL, e.HTTP.URL, 1), nil)
	require.NoError(e.T, err)
	return e.send(req)
}

// send runs a request against the server and reads the whole response.
func (e *Env) send(req *http.Request) *Response {
	e.T.Helper()
	res, err := e.HTTP.Client().Do(req)
	require.NoError(e.T, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(e.T, err)
	return &Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// countingDriver counts the statements run through ent.
type countingDriver struct {
	dialect.Driver
	n *atomic.Int64
}

// logSQL prints every statement when BINDERY_TEST_LOG_SQL is set, to see
// what a statement bound counts.
var logSQL = os.Getenv("BINDERY_TEST_LOG_SQL") != ""

func count(n *atomic.Int64, query string) {
	n.Add(1)
	if logSQL {
		fmt.Fprintf(os.Stderr, "SQL %d: %s\n", n.Load(), query)
	}
}

func (d *countingDriver) Exec(ctx context.Context, query string, args, v any) error {
	count(d.n, query)
	return d.Driver.Exec(ctx, query, args, v)
}

func (d *countingDriver) Query(ctx context.Context, query string, args, v any) error {
	count(d.n, query)
	return d.Driver.Query(ctx, query, args, v)
}

func (d *countingDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &countingTx{Tx: tx, n: d.n}, nil
}

type countingTx struct {
	dialect.Tx
	n *atomic.Int64
}

func (t *countingTx) Exec(ctx context.Context, query string, args, v any) error {
	count(t.n, query)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t *countingTx) Query(ctx context.Context, query string, args, v any) error {
	count(t.n, query)
	return t.Tx.Query(ctx, query, args, v)
}
