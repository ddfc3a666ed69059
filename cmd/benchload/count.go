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

// statements is the number of SQL statements one request sent: n, or
// from n to max when repeated requests differed (a dataloader's batch can
// split when its wait window passes before every key has arrived); tx of
// them are transactions' BEGIN and COMMIT or ROLLBACK pairs.
type statements struct {
	n, max, tx int64
}

// String shows the count, with the transactions it includes.
func (s statements) String() string {
	if s.n < 0 {
		return "n/a"
	}
	out := fmt.Sprint(s.n)
	if s.max > s.n {
		out += fmt.Sprintf("–%d", s.max)
	}
	if s.tx > 0 {
		out += fmt.Sprintf(" (%d tx)", s.tx)
	}
	return out
}

// add accounts for one more counted request.
func (s statements) add(n, tx int64, first bool) statements {
	if first || n < s.n {
		s.n, s.tx = n, tx
	}
	s.max = max(s.max, n)
	return s
}

// unknownStatements is shown where nothing was counted.
var unknownStatements = statements{n: -1}

// countedRequests is how many requests of a workload are counted, after
// one to warm up.
const countedRequests = 3

// countStatements counts the statements one request of each workload costs,
// deterministically, not under load: it serves the workload's first request
// with an in-process Bindery (server.New, the code bindery serve runs) over
// the same database, its ent driver wrapped in a store.Counter, once to warm
// up (a token's first use in a minute is recorded) and then countedRequests
// times. BEGIN, COMMIT and ROLLBACK count as statements.
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
	defer srv.Close()
	out := make([]statements, len(ws))
	for i := range ws {
		if ws[i].checks != nil {
			// A mix has no one count; its requests' own workloads do.
			out[i] = unknownStatements
			continue
		}
		for k := 0; k <= countedRequests; k++ {
			c.Reset()
			if err := serveOnce(ctx, srv, &ws[i]); err != nil {
				return nil, err
			}
			if k > 0 {
				out[i] = out[i].add(c.Statements(), c.Transactions(), k == 1)
			}
		}
	}
	return out, nil
}

// inProcessServer returns a Bindery server on db configured like the one
// the benchmark starts, without a listener.
func inProcessServer(db *store.DB) (*server.Server, error) {
	cfg := config.Default()
	cfg.RateLimit = 0
	cfg.ImportAllowPrivate = true
	if err := cfg.Finish(); err != nil {
		return nil, err
	}
	return server.New(cfg, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
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
	return statements{}.add(b.statements.Load(), 0, true), nil
}

// serveOnce serves the workload's first request in-process.
func serveOnce(ctx context.Context, h http.Handler, w *workload) error {
	r := w.requests[0]
	req := httptest.NewRequestWithContext(ctx, r.method, r.url, bytes.NewReader(r.body))
	w.header(req.Header, r)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if p := problem(r.graphql, rec.Code, rec.Body.Bytes(), nil); p != "" {
		return fmt.Errorf("counting the statements of %s %s: %s", w.target, w.name, p)
	}
	return nil
}
