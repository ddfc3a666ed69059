package main

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// summary is a run's figures.
type summary struct {
	Requests, Errors int
	// RPS is requests completed per second, errors included.
	RPS      float64
	P50, P99 time.Duration
	// FirstError describes the first error, if any.
	FirstError string
}

func summarize(r result) summary {
	s := summary{Requests: len(r.latencies), Errors: r.errors, FirstError: r.firstError}
	if r.elapsed > 0 {
		s.RPS = float64(len(r.latencies)) / r.elapsed.Seconds()
	}
	sorted := slices.Clone(r.latencies)
	slices.Sort(sorted)
	s.P50 = percentile(sorted, 50)
	s.P99 = percentile(sorted, 99)
	return s
}

// percentile returns the nearest-rank p-th percentile of sorted latencies:
// the smallest one that at least p percent of them do not exceed. It is 0
// for no latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p * float64(len(sorted)) / 100))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// kindSummary is the figures of one kind of request of a mixed workload.
type kindSummary struct {
	kind     string
	requests int
	p50, p99 time.Duration
}

func (k kindSummary) String() string {
	return fmt.Sprintf("%s: %d, p50 %s, p99 %s", k.kind, k.requests, millis(k.p50), millis(k.p99))
}

// summarizeKinds summarizes each kind of request of a run, in the order
// the kinds first completed.
func summarizeKinds(r result) []kindSummary {
	by := map[string][]time.Duration{}
	var order []string
	for i, d := range r.latencies {
		k := r.kinds[i]
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], d)
	}
	out := make([]kindSummary, len(order))
	for i, k := range order {
		sorted := by[k]
		slices.Sort(sorted)
		out[i] = kindSummary{kind: k, requests: len(sorted), p50: percentile(sorted, 50), p99: percentile(sorted, 99)}
	}
	return out
}

// median is the middle of xs, or the mean of the middle two of an even
// number; 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
