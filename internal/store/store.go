// Package store opens Bindery's database: SQLite through a pure-Go driver by
// default, or PostgreSQL through lib/pq when the DSN is a postgres:// URL. It
// also migrates the schema (migrate.go) and runs transactions.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/lib/pq"
	"modernc.org/sqlite" // SQLite driver, pure Go

	"github.com/bindery/bindery/ent"
	// The schema's defaults, validators and hooks, for every client Open makes.
	_ "github.com/bindery/bindery/ent/runtime"
	"github.com/bindery/bindery/internal/apperr"
)

// DefaultDSN is the embedded default: a SQLite file in the working directory.
const DefaultDSN = "bindery.db"

// DB is an open database.
type DB struct {
	Client  *ent.Client
	SQL     *sql.DB
	Dialect string
	// Writes counts the writes that commit through any of its clients.
	Writes *Writes
	driver dialect.Driver
	traced dialect.Driver
	source string
	// tracer makes spans of statements once set (see TraceWith).
	tracer *atomic.Pointer[tracer]
	// migrateSource is where migrations connect on PostgreSQL (see
	// migrator).
	migrateSource string
}

// Traced is a driver whose statements are traced like ent's (see
// TraceWith), beneath any driver a test wraps Client's in: for statements
// beside the application's own, such as the event bus's NOTIFY, which the
// statement counts of tests leave out, since SQLite has none.
func (d *DB) Traced() dialect.Driver { return d.traced }

// NewClient returns another ent client over the same connections, with none
// of the hooks or interceptors installed on Client: for tests, which set up
// and inspect data behind the application's back.
func (d *DB) NewClient() *ent.Client { return ent.NewClient(ent.Driver(d.driver)) }

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// sqliteDSN turns a file path (or a file: URI) into a modernc DSN with the
// pragmas Bindery relies on: foreign keys on, WAL so readers do not block the
// writer, a busy timeout so writers queue instead of failing, and IMMEDIATE
// transactions so a transaction never fails late when it first writes.
func sqliteDSN(dsn string) string {
	path, query, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	params, _ := url.ParseQuery(query)
	for _, p := range []string{"foreign_keys(1)", "journal_mode(WAL)", "busy_timeout(10000)", "synchronous(NORMAL)"} {
		params.Add("_pragma", p)
	}
	params.Set("_txlock", "immediate")
	params.Set("_time_format", "sqlite")
	return "file:" + path + "?" + params.Encode()
}

// Option configures Open.
type Option func(*options)

type options struct {
	wrap func(dialect.Driver) dialect.Driver
}

// WithDriver wraps the ent driver, for example to count statements in tests.
func WithDriver(wrap func(dialect.Driver) dialect.Driver) Option {
	return func(o *options) { o.wrap = wrap }
}

// Open connects to the database named by dsn. It does not migrate.
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if dsn == "" {
		dsn = DefaultDSN
	}
	dialectName, source, migrateSource := dialect.SQLite, sqliteDSN(dsn), ""
	if IsPostgres(dsn) {
		dialectName = dialect.Postgres
		var err error
		if source, err = withDefaults(dsn, map[string]string{"binary_parameters": "yes", "jit": "off"}); err != nil {
			return nil, fmt.Errorf("parsing the PostgreSQL URL: %w", err)
		}
		migrateSource = source
	}
	var connector driver.Connector
	var err error
	if dialectName == dialect.Postgres {
		connector, err = pq.NewConnector(source)
	} else {
		connector, err = sqlite.NewConnector(source)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s database: %w", dialectName, err)
	}
	db := sql.OpenDB(cachingConnector{connector})
	// Every open connection may stay idle: a request fans out over
	// several at once, and a pool that closes them opens new ones under
	// load, a PostgreSQL backend each, or a SQLite connection that parses
	// the whole schema again before its first statement. database/sql
	// keeps two by default.
	if dialectName == dialect.Postgres {
		db.SetMaxOpenConns(poolSize)
	}
	db.SetMaxIdleConns(poolSize)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connecting to %s database: %w", dialectName, err)
	}
	tr := &atomic.Pointer[tracer]{}
	traced := &tracing{Driver: entsql.OpenDB(dialectName, db), system: dbSystem(dialectName), tracer: tr}
	writes := &Writes{}
	var drv dialect.Driver = &writing{Driver: traced, w: writes}
	if o.wrap != nil {
		drv = o.wrap(drv)
	}
	return &DB{Client: ent.NewClient(ent.Driver(drv)), SQL: db, Dialect: dialectName, driver: drv, traced: traced,
		source: source, migrateSource: migrateSource, tracer: tr, Writes: writes}, nil
}

// Using returns d with its ent client on another driver over the same
// connections: a test's driver that records statements.
func (d *DB) Using(drv dialect.Driver) *DB {
	out := *d
	out.Client, out.driver = ent.NewClient(ent.Driver(drv)), drv
	return &out
}

// Source returns what the database was opened with: for PostgreSQL, the
// URL a connection of its own (a LISTEN) takes.
func (d *DB) Source() string { return d.source }

// InSchema returns a PostgreSQL URL whose sessions work in the schema: for
// tests and benchmarks, which each make a schema of their own.
func InSchema(dsn, schema string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// poolSize bounds the PostgreSQL connections of one server, and the
// idle ones of either database.
const poolSize = 20

// withDefaults returns a PostgreSQL URL with the given parameters, except
// those the URL sets itself. lib/pq sends unknown parameters as settings.
//
// Requests connect with binary_parameters=yes, so that a statement lib/pq
// does not prepare is one round trip, not two; most are prepared once per
// connection and kept (see cachingConnector).
// Connections run with jit=off: Bindery's statements are short, and
// PostgreSQL compiles one whenever the planner's estimate of its cost
// passes jit_above_cost, which an organization search's plan over many
// spaces does (about 130 ms of compiling for 40 ms of work), and so do
// the migrations' catalog queries.
func withDefaults(dsn string, params map[string]string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	q := u.Query()
	for k, v := range params {
		if q.Get(k) == "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Close closes the database.
func (d *DB) Close() error { return d.Client.Close() }

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.SQL.PingContext(ctx) }

// WithTx runs fn in a transaction of client and commits it when fn returns
// nil. The transaction's client is in the context fn receives, see
// ent.FromContext. A transaction already in ctx is joined instead, so that
// nested calls stay atomic.
//
// A transaction that the database gives up on (a deadlock or serialization
// failure on PostgreSQL, a busy or locked database on SQLite, see Retryable)
// is run again from the start, up to maxAttempts in all, a short random
// while apart; after the last, WithTx returns a Conflict (apperr) that asks
// the client to try again. Only the outermost call retries: a joined
// transaction is the caller's, and is already lost. So fn may run more than
// once, and must leave nothing behind outside the transaction that a rerun
// would not overwrite.
func WithTx(ctx context.Context, client *ent.Client, fn func(ctx context.Context, tx *ent.Client) error) error {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return fn(ctx, tx.Client())
	}
	for attempt := 1; ; attempt++ {
		err := runTx(ctx, client, fn)
		if err == nil || !Retryable(err) {
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("%w (after %d attempts: %w)", apperr.Conflictf(busyMessage), attempt, err)
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
}

// runTx is one attempt of WithTx.
func runTx(ctx context.Context, client *ent.Client, fn func(ctx context.Context, tx *ent.Client) error) (err error) {
	tx, err := client.Tx(ctx)
	if err != nil {
		return fmt.Errorf("starting transaction: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	txCtx := ent.NewTxContext(ent.NewContext(ctx, tx.Client()), tx)
	if err := fn(txCtx, tx.Client()); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return errors.Join(err, fmt.Errorf("rolling back: %w", rerr))
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing transaction: %w", err)
	}
	return nil
}

// outsideTxKey marks a context whose writes run outside a transaction on
// purpose.
type outsideTxKey struct{}

// OutsideTx marks ctx for writes that run outside a transaction on purpose:
// a statement whose effect stands alone, such as recording when a token was
// last used, or a job whose every statement is its own unit. Every other
// write belongs in a transaction (WithTx). Tests install RequireTx, which
// fails the writes that are in neither.
func OutsideTx(ctx context.Context) context.Context {
	return context.WithValue(ctx, outsideTxKey{}, true)
}

// RequireTx returns an ent hook that fails every mutation run outside a
// transaction, unless its context is marked with OutsideTx. report, when not
// nil, receives the error too, so that a caller which only logs a failed
// write cannot hide it from a test.
func RequireTx(report func(error)) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if outside, _ := ctx.Value(outsideTxKey{}).(bool); !outside {
				// Generated mutations know their transaction; Tx fails
				// when they run on a client outside one.
				if txm, ok := m.(interface{ Tx() (*ent.Tx, error) }); ok {
					if _, err := txm.Tx(); err != nil {
						err := fmt.Errorf("%s of %s outside a transaction: run it in store.WithTx, or mark its context with store.OutsideTx", m.Op(), m.Type())
						if report != nil {
							report(err)
						}
						return nil, err
					}
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// seedLock is the PostgreSQL advisory lock key held while seeding.
const seedLock = 0x73656564 // "seed"

// LockSeed serializes first-start seeding between replicas: on PostgreSQL it
// takes a transaction-scoped advisory lock; SQLite transactions are already
// serialized (they begin IMMEDIATE).
func (d *DB) LockSeed(ctx context.Context, tx *ent.Client) error {
	if d.Dialect != dialect.Postgres {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", seedLock); err != nil {
		return fmt.Errorf("taking the seed lock: %w", err)
	}
	return nil
}
