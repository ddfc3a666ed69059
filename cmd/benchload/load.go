package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// result is what a run of a workload measured.
type result struct {
	// latencies holds every completed request's, errors included, and
	// kinds the kind of each.
	latencies []time.Duration
	kinds     []string
	errors    int
	// firstError describes the first error.
	firstError string
	elapsed    time.Duration
}

// drive sends the workload's requests in turn from concurrency workers,
// each sending its next request when the previous one is answered, until d
// has passed. A request is timed from sending to reading the whole answer.
func drive(ctx context.Context, client *http.Client, w *workload, concurrency int, d time.Duration) (result, error) {
	next := w.rotation
	if next == nil {
		next = new(atomic.Uint64)
	}
	deadline := time.Now().Add(d)
	parts := make([]result, concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for k := range parts {
		wg.Add(1)
		go func(part *result) {
			defer wg.Done()
			part.latencies = make([]time.Duration, 0, 4096)
			var buf bytes.Buffer
			for ctx.Err() == nil && time.Now().Before(deadline) {
				r := w.requests[int(next.Add(1)-1)%len(w.requests)]
				t0 := time.Now()
				problem := send(ctx, client, w, r, &buf)
				if ctx.Err() != nil {
					return
				}
				part.latencies = append(part.latencies, time.Since(t0))
				part.kinds = append(part.kinds, r.kind)
				if problem != "" {
					if part.errors == 0 {
						part.firstError = problem
					}
					part.errors++
				}
			}
		}(&parts[k])
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return result{}, err
	}
	var all result
	all.elapsed = time.Since(start)
	for _, p := range parts {
		all.latencies = append(all.latencies, p.latencies...)
		all.kinds = append(all.kinds, p.kinds...)
		if all.errors == 0 {
			all.firstError = p.firstError
		}
		all.errors += p.errors
	}
	return all, nil
}

// send sends one request and reads the whole answer into buf. It returns
// what was wrong with it, or "".
func send(ctx context.Context, client *http.Client, w *workload, r request, buf *bytes.Buffer) string {
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, bytes.NewReader(r.body))
	if err != nil {
		return err.Error()
	}
	if r.body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	w.header(req.Header, r)
	res, err := client.Do(req)
	if err != nil {
		return err.Error()
	}
	buf.Reset()
	_, err = buf.ReadFrom(res.Body)
	res.Body.Close()
	return problem(r.graphql, res.StatusCode, buf.Bytes(), err)
}

// problem says what is wrong with an answer, or returns "": a status other
// than 2xx, an unreadable body, or GraphQL errors.
func problem(graphql bool, status int, body []byte, readErr error) string {
	switch {
	case status/100 != 2:
		return fmt.Sprintf("HTTP %d: %s", status, snippet(body))
	case readErr != nil:
		return "reading the answer: " + readErr.Error()
	case graphql && bytes.Contains(body, []byte(`"errors":`)):
		return "GraphQL errors: " + snippet(body)
	}
	return ""
}

// checkOnce sends the workload's first request and validates the answer;
// in a mixed workload, the first request of each kind.
func checkOnce(ctx context.Context, client *http.Client, w *workload) error {
	checks := w.checks
	if checks == nil {
		checks = map[string]func([]byte) error{w.requests[0].kind: w.check}
	}
	var buf bytes.Buffer
	checked := map[string]bool{}
	for _, r := range w.requests {
		check, ok := checks[r.kind]
		if !ok || checked[r.kind] {
			continue
		}
		checked[r.kind] = true
		if p := send(ctx, client, w, r, &buf); p != "" {
			return fmt.Errorf("%s %s: %s", w.target, label(w.name, r.kind), p)
		}
		if err := check(buf.Bytes()); err != nil {
			return fmt.Errorf("%s %s: %w", w.target, label(w.name, r.kind), err)
		}
	}
	return nil
}

// label names a workload, or a kind of request of a mixed one.
func label(name, kind string) string {
	if kind == "" {
		return name
	}
	return name + ", " + kind
}
