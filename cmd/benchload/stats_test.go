package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func ms(ns ...int) []time.Duration {
	out := make([]time.Duration, len(ns))
	for i, n := range ns {
		out[i] = time.Duration(n) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	upTo := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	for _, c := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"none", nil, 50, 0},
		{"one", ms(7), 99, 7 * time.Millisecond},
		{"p50 of an even count is the lower middle", ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{"p50 of an odd count is the middle", ms(1, 2, 3, 4, 5), 50, 3 * time.Millisecond},
		{"p99 of 100 is the 99th", ms(upTo(100)...), 99, 99 * time.Millisecond},
		{"p99 of 101 is the 100th", ms(upTo(101)...), 99, 100 * time.Millisecond},
		{"p99 of 200 is the 198th", ms(upTo(200)...), 99, 198 * time.Millisecond},
		{"p100 is the largest", ms(1, 2, 3), 100, 3 * time.Millisecond},
		{"p0 is the smallest", ms(1, 2, 3), 0, 1 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, percentile(c.sorted, c.p))
		})
	}
}

func TestSummarize(t *testing.T) {
	s := summarize(result{latencies: ms(5, 1, 4, 2, 3), errors: 1, firstError: "HTTP 500: boom", elapsed: 2 * time.Second})
	assert.Equal(t, summary{Requests: 5, Errors: 1, RPS: 2.5, P50: 3 * time.Millisecond, P99: 5 * time.Millisecond,
		FirstError: "HTTP 500: boom"}, s)
	assert.Equal(t, summary{}, summarize(result{}), "no requests, no division by zero")
}

func TestSummarizeKinds(t *testing.T) {
	r := result{latencies: ms(10, 4000, 20, 30, 5000), kinds: []string{"read", "PDF", "read", "read", "PDF"}}
	assert.Equal(t, []kindSummary{
		{kind: "read", requests: 3, p50: 20 * time.Millisecond, p99: 30 * time.Millisecond},
		{kind: "PDF", requests: 2, p50: 4 * time.Second, p99: 5 * time.Second},
	}, summarizeKinds(r))
}

func TestMedian(t *testing.T) {
	assert.InDelta(t, 2.0, median([]float64{3, 1, 2}), 1e-9)
	assert.InDelta(t, 2.5, median([]float64{4, 1, 3, 2}), 1e-9, "the mean of the middle two")
	assert.Zero(t, median(nil))
}
