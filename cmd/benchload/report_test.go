package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWriteTable(t *testing.T) {
	rows := []row{
		{target: "baseline", workload: "REST `GET /v1/spaces/{id}`", baseline: true, statements: statements{n: 2},
			sum: summary{Requests: 40000, RPS: 4000, P50: 1500 * time.Microsecond, P99: 12 * time.Millisecond}, peakRSS: 40 << 20, processes: 1,
			serverCPU: 120 * time.Microsecond, databaseCPU: 95400 * time.Nanosecond, gcShare: 0.064},
		{target: "Bindery", workload: "GraphQL `node(id:)` of a space", statements: statements{n: 7, tx: 1},
			sum: summary{Requests: 10000, RPS: 1000, P50: 6 * time.Millisecond, P99: 56789 * time.Microsecond}, peakRSS: 55 << 20, processes: 1},
		{target: "PostGraphile", workload: "GraphQL `spaceById(id:)`", statements: unknownStatements,
			sum: summary{Requests: 300, Errors: 3, RPS: 30, FirstError: "HTTP 502: bad gateway"}, peakRSS: 300 << 20, processes: 3},
	}
	var b strings.Builder
	writeTable(&b, rows)
	assert.Equal(t, `| Server | Workload | req/s | p50 | p99 | errors | SQL/req | server CPU/req | DB CPU/req | GC CPU | peak RSS | req/s vs baseline |
|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|
| baseline | REST `+"`GET /v1/spaces/{id}`"+` | 4000 | 1.50 ms | 12.00 ms | 0 | 2 | 120 µs | 95 µs | 6% | 40 MiB | 1.00× |
| Bindery | GraphQL `+"`node(id:)`"+` of a space | 1000 | 6.00 ms | 56.79 ms | 0 | 7 (1 tx) | n/a | n/a | n/a | 55 MiB | 0.25× |
| PostGraphile | GraphQL `+"`spaceById(id:)`"+` | 30 | 0.00 ms | 0.00 ms | **3 of 300** | n/a | n/a | n/a | n/a | 300 MiB (3 processes) | 0.0075× |

**WARNING: PostGraphile GraphQL `+"`spaceById(id:)`"+` had 3 errors in 300 requests; its figures are not valid.** First: HTTP 502: bad gateway
`, b.String())
}

// Each Bindery's rows are compared with each anchor's, workload by
// workload, on a line that names both.
func TestAnchorRatios(t *testing.T) {
	rows := []row{
		{target: "baseline", key: "get", baseline: true, sum: summary{RPS: 5000}},
		{target: "Bindery", key: "get", sum: summary{RPS: 4000}},
		{target: "Bindery", key: "node", sum: summary{RPS: 3000}},
		{target: "Bindery `GOGC=off`", key: "node", sum: summary{RPS: 3300}},
		{target: "Bindery", key: "nested", sum: summary{RPS: 300}},
		{target: "Bindery `GOGC=off`", key: "nested", sum: summary{RPS: 400}},
		{target: "PostGraphile 4", key: "node", anchor: true, sum: summary{RPS: 2500}},
		{target: "PostGraphile 5", key: "node", anchor: true, sum: summary{RPS: 2000}},
		{target: "PostGraphile 4", key: "nested", anchor: true, sum: summary{RPS: 200}},
		{target: "PostGraphile 5", key: "nested", anchor: true, sum: summary{RPS: 120}},
	}
	assert.Equal(t, []string{
		"req/s of Bindery ÷ PostGraphile 4: node 1.20×, nested 1.50×.",
		"req/s of Bindery `GOGC=off` ÷ PostGraphile 4: node 1.32×, nested 2.00×.",
		"req/s of Bindery ÷ PostGraphile 5: node 1.50×, nested 2.50×.",
		"req/s of Bindery `GOGC=off` ÷ PostGraphile 5: node 1.65×, nested 3.33×.",
	}, anchorRatios(rows))
	assert.Empty(t, anchorRatios(rows[:6]), "no anchor")

	var b strings.Builder
	writeTable(&b, rows[4:])
	assert.Contains(t, b.String(), "|\n\nreq/s of Bindery ÷ PostGraphile 4: nested 1.50×.\n"+
		"req/s of Bindery `GOGC=off` ÷ PostGraphile 4: nested 2.00×.\n")
}

func TestWriteTableWithoutBaseline(t *testing.T) {
	var b strings.Builder
	writeTable(&b, []row{{target: "Bindery", workload: "w", sum: summary{RPS: 10}}})
	assert.Contains(t, b.String(), "| Bindery | w | 10 | 0.00 ms | 0.00 ms | 0 | 0 | n/a | n/a | n/a | n/a | n/a |")
}

// A mixed workload's kinds are listed below the table.
func TestWriteTableKinds(t *testing.T) {
	var b strings.Builder
	writeTable(&b, []row{{target: "Bindery `GOGC=off`", workload: "heavy mix", sum: summary{RPS: 2.46}, gcShare: 0.351, kinds: []kindSummary{
		{kind: "space read", requests: 30, p50: 250 * time.Millisecond, p99: time.Second},
		{kind: "PDF", requests: 2, p50: 4 * time.Second, p99: 5 * time.Second}}}})
	assert.Contains(t, b.String(), "| heavy mix | 2.5 | 0.00 ms | 0.00 ms | 0 | 0 | n/a | n/a | 35% | n/a | n/a |")
	assert.Contains(t, b.String(), "\nBindery `GOGC=off`, heavy mix, requests by kind: space read: 30, p50 250.00 ms, p99 1000.00 ms; "+
		"PDF: 2, p50 4000.00 ms, p99 5000.00 ms.\n")
}

func TestStatements(t *testing.T) {
	var s statements
	s = s.add(110, 0, true)
	s = s.add(109, 0, false)
	s = s.add(110, 0, false)
	assert.Equal(t, "109–110", s.String(), "a range when a dataloader batch split")
	assert.Equal(t, "5 (1 tx)", statements{}.add(5, 1, true).String())
	assert.Equal(t, "7", statements{}.add(7, 0, true).add(7, 0, false).String())
	assert.Equal(t, "n/a", unknownStatements.String())
}

func TestStatTicks(t *testing.T) {
	n, ok := statTicks([]byte("4243 (a) (b c) R 17 4243 4243 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 1 0"))
	assert.True(t, ok, "a command name with spaces and parentheses")
	assert.EqualValues(t, 281, n)
	_, ok = statTicks([]byte("4243 (a) R 17"))
	assert.False(t, ok)
}

func TestSlug(t *testing.T) {
	assert.Equal(t, "bindery-rest-get-v1-spaces-id", slug("Bindery REST `GET /v1/spaces/{id}`"))
}
