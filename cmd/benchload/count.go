package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server"
)

// statements is the number of SQL statements one request sent.
type statements struct {
	n, tx int64
}

// String shows the count, with the transactions it includes.
func (s statements) String() string {
	switch {
	case s.n < 0:
		return "n/a"
	case s.tx == 0:
		return fmt.Sprint(s.n)
	}
	return fmt.Sprintf("%d (%d tx)", s.n, s.tx)
}

// unknownStatements is shown where nothing was counted.
var unknownStatements = statements{n: -1}

// countStatements counts, deterministically, the statements one request of
// each workload costs: it serves the workload's first request with an
// in-process Bindery (server.New, the code bindery serve runs) over the
// same database, its ent driver wrapped in a store.Counter, once to warm up
// (a token's first use in a minute records it) and once counted. BEGIN,
// COMMIT and ROLLBACK count as statements.
func countStatements(ctx context.Context, dsn string, ws []workload) ([]statements, error) {
	var c store.Counter
	db, err := store.Open(ctx, dsn, store.WithDriver(c.Wrap))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	srv, err := inProcessServer(db)
	if err != nil {
		return nil, err
	}
	out := make([]statements, len(ws))
	for i := range ws {
		for warm := true; ; warm = false {
			c.Reset()
			if err := serveOnce(ctx, srv, &ws[i]); err != nil {
				return nil, err
			}
			if !warm {
				break
			}
		}
		out[i] = statements{n: c.Statements(), tx: c.Transactions()}
	}
	return out, nil
}

// inProcessServer returns a Bindery server on db configured like the one
// the benchmark starts, without a listener.
func inProcessServer(db *store.DB) (*server.Server, error) {
	cfg := config.Default()
	cfg.RateLimit = 0
	if err := cfg.Finish(); err != nil {
		return nil, err
	}
	return server.New(cfg, db, slog.New(slog.NewTextHandler(io.Discard, nil))), nil
}

// countBaselineStatements counts the statements of the baseline's request
// the same way.
func countBaselineStatements(ctx context.Context, dsn string, w *workload) (statements, error) {
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return unknownStatements, err
	}
	defer db.Close()
	b := newBaseline(db)
	if err := serveOnce(ctx, b.handler(), w); err != nil {
		return unknownStatements, err
	}
	return statements{n: b.statements.Load()}, nil
}

// serveOnce serves the workload's first request in-process.
func serveOnce(ctx context.Context, h http.Handler, w *workload) error {
	r := w.requests[0]
	req := httptest.NewRequestWithContext(ctx, r.method, r.url, bytes.NewReader(r.body))
	w.header(req.Header, r)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if p := problem(w.graphql, rec.Code, rec.Body.Bytes(), nil); p != "" {
		return fmt.Errorf("counting the statements of %s %s: %s", w.target, w.name, p)
	}
	return nil
}
