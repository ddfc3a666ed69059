package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
)

// Statements builds each hot statement once and runs it many times.
//
// ent builds a statement's SQL anew on every run: quoting identifiers,
// wrapping predicates, joining strings. For the statements that every
// request runs (the token check, what authorization decides from, a
// resource by its ID) that cost more Go time than the round trip to the
// database (a CPU profile of GET /v1/spaces/{id} under load: 40% of each
// statement). A statement here is built once per shape by ent's own builder,
// with Param(i) standing for its i-th argument, and the SQL is kept; a run
// passes new arguments in place of the params and scans the rows as ent
// would (the generated ScanRows, or plain Scan). The SQL is exactly what ent
// would have sent, and the statements still go through the request's driver
// and transaction, so they are counted, and prepared once per connection on
// PostgreSQL, like any other.
//
// A shape is whatever changes the SQL besides argument values: the number
// of IDs in an IN list (see PadIDs), an optional join. Its key names it, and
// must name every such choice of the build function.
type Statements struct {
	mu    sync.RWMutex
	built map[shape]*builtStatement
}

// shape names a built statement: its key, for one dialect.
type shape struct{ dialect, key string }

// NewStatements returns an empty cache of statements.
func NewStatements() *Statements {
	return &Statements{built: map[shape]*builtStatement{}}
}

// maxShapes bounds the cache: past it, a statement is built for each run,
// as ent would. Shapes are few by construction (keys are fixed strings and
// IN lists are padded to powers of two), so reaching it is a bug that costs
// speed, not correctness.
const maxShapes = 1024

type builtStatement struct {
	query string
	// args are the arguments of the built statement: a constant, or, where
	// slots says so, the run's argument of that index.
	args  []any
	slots []int
}

// paramPrefix starts the text of a Param. A NUL byte is never in a value
// that reaches the database (validate refuses it at the boundary), so a
// param cannot be mistaken for a real argument.
const paramPrefix = "\x00bindery-param-"

// Param stands for the i-th argument of a run while a statement is built.
// It is a string, so that it goes where ent's generated predicates take one
// (space.IDIn(Params(n)...)).
func Param(i int) string { return paramPrefix + strconv.Itoa(i) }

// Params returns Param(0) to Param(n-1).
func Params(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = Param(i)
	}
	return out
}

// PadIDs returns ids lengthened to the next power of two (at least 1) by
// repeating the last, so that an IN list of any length takes one of a few
// shapes; a repeated ID matches nothing more.
func PadIDs(ids []string) []string {
	n := 1
	for n < len(ids) {
		n *= 2
	}
	if n == len(ids) || len(ids) == 0 {
		return ids
	}
	out := make([]string, n)
	copy(out, ids)
	for i := len(ids); i < n; i++ {
		out[i] = ids[len(ids)-1]
	}
	return out
}

// Build returns the SQL and arguments of a statement for a dialect, with
// Param(i) in place of the i-th argument of a run.
type Build func(dialectName string) (query string, args []any, err error)

// Selector builds a statement with ent's SQL builder.
func Selector(build func(d string) sql.Querier) Build {
	return func(d string) (string, []any, error) {
		q, args := build(d).Query()
		return q, args, nil
	}
}

// Query builds a statement from an ent query, as ent would run it: run
// receives a client whose driver records the first statement instead of
// running it. The query must be one statement (no eager loading).
func Query(run func(ctx context.Context, c *ent.Client) error) Build {
	return func(d string) (string, []any, error) {
		rec := &recorder{dialect: d}
		err := run(context.Background(), ent.NewClient(ent.Driver(rec)))
		if !rec.done {
			if err == nil {
				err = errors.New("no statement")
			}
			return "", nil, fmt.Errorf("building a statement: %w", err)
		}
		return rec.query, rec.args, nil
	}
}

// Query runs the statement of key on drv with args, building it on first
// use. The caller closes the rows (ScanRows does).
func (s *Statements) Query(ctx context.Context, drv dialect.Driver, key string, build Build, args ...any) (*sql.Rows, error) {
	b, err := s.statement(shape{drv.Dialect(), key}, build)
	if err != nil {
		return nil, err
	}
	runArgs := make([]any, len(b.args))
	for i, a := range b.args {
		if slot := b.slots[i]; slot >= 0 {
			if slot >= len(args) {
				return nil, fmt.Errorf("statement %q: argument %d of %d", key, slot, len(args))
			}
			a = args[slot]
		}
		runArgs[i] = a
	}
	rows := &sql.Rows{}
	if err := drv.Query(ctx, b.query, runArgs, rows); err != nil {
		return nil, err
	}
	return rows, nil
}

func (s *Statements) statement(key shape, build Build) (*builtStatement, error) {
	s.mu.RLock()
	b := s.built[key]
	s.mu.RUnlock()
	if b != nil {
		return b, nil
	}
	query, args, err := build(key.dialect)
	if err != nil {
		return nil, err
	}
	b = &builtStatement{query: query, args: args, slots: make([]int, len(args))}
	for i, a := range args {
		b.slots[i] = -1
		if p, ok := a.(string); ok && strings.HasPrefix(p, paramPrefix) {
			n, err := strconv.Atoi(p[len(paramPrefix):])
			if err != nil {
				return nil, fmt.Errorf("statement %q: malformed param %q", key.key, p)
			}
			b.slots[i], b.args[i] = n, nil
		}
	}
	s.mu.Lock()
	if len(s.built) < maxShapes {
		s.built[key] = b
	}
	s.mu.Unlock()
	return b, nil
}

// recorder is a driver that records the first statement it is asked to run
// and runs none.
type recorder struct {
	dialect string
	done    bool
	query   string
	args    []any
}

var errRecorded = errors.New("statement recorded, not run")

func (r *recorder) record(query string, args any) error {
	if !r.done {
		r.done, r.query = true, query
		r.args, _ = args.([]any)
	}
	return errRecorded
}

func (r *recorder) Exec(_ context.Context, query string, args, _ any) error {
	return r.record(query, args)
}

func (r *recorder) Query(_ context.Context, query string, args, _ any) error {
	return r.record(query, args)
}

func (r *recorder) Tx(context.Context) (dialect.Tx, error) {
	return nil, errors.New("a built statement cannot run a transaction")
}

func (r *recorder) Close() error    { return nil }
func (r *recorder) Dialect() string { return r.dialect }
