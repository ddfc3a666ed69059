package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// With rounds, a row shows each server's round of median req/s, all its
// figures from that round, and a ratio to an anchor is the median of the
// ratios within each round: here 1.20× for node, where the medians'
// ratio would be 1100 ÷ 1000.
func TestWriteTableRounds(t *testing.T) {
	dur := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	node := func(target string, anchor bool, round int, rps float64, p50 int) row {
		return row{target: target, key: "node", workload: "node", anchor: anchor, round: round, statements: statements{n: 1},
			sum: summary{Requests: int(rps) * 10, RPS: rps, P50: dur(p50), P99: dur(2 * p50)}}
	}
	nested := func(target string, anchor bool, round int, rps float64) row {
		return row{target: target, key: "nested", workload: "nested", anchor: anchor, round: round, statements: statements{n: 4},
			sum: summary{Requests: int(rps) * 10, RPS: rps, P50: dur(20), P99: dur(40)}}
	}
	get := func(round int, rps float64) row {
		return row{target: "Bindery", key: "get", workload: "get", round: round, statements: statements{n: 2},
			sum: summary{Requests: int(rps) * 10, RPS: rps, P50: dur(3), P99: dur(6)}}
	}
	rows := []row{{target: "baseline", key: "get", workload: "get", baseline: true, statements: statements{n: 2},
		sum: summary{Requests: 40000, RPS: 4000, P50: dur(2), P99: dur(4)}}}
	for _, r := range []struct {
		get, node, pgNode, nested, pgNested float64
		p50                                 int
	}{
		{3000, 1200, 1000, 300, 250, 7},
		{2000, 900, 750, 330, 300, 9},
		{2600, 1100, 1000, 240, 230, 8},
	} {
		round := len(rows)/5 + 1
		rows = append(rows, get(round, r.get), node("Bindery", false, round, r.node, r.p50), node("PostGraphile 5", true, round, r.pgNode, r.p50),
			nested("Bindery", false, round, r.nested), nested("PostGraphile 5", true, round, r.pgNested))
	}
	rows[9].sum.Errors, rows[9].sum.FirstError = 1, "HTTP 500"
	require.Equal(t, "Bindery", rows[9].target)
	require.Equal(t, 2, rows[9].round)

	var b strings.Builder
	writeTable(&b, rows)
	assert.Equal(t, `| Server | Workload | req/s | req/s range | p50 | p99 | errors | SQL/req | server CPU/req | DB CPU/req | GC CPU | peak RSS | req/s vs baseline |
|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|
| baseline | get | 4000 | one run | 2.00 ms | 4.00 ms | 0 | 2 | n/a | n/a | n/a | n/a | 1.00× |
| Bindery | get | 2600 | 2000–3000 | 3.00 ms | 6.00 ms | 0 | 2 | n/a | n/a | n/a | n/a | 0.65× |
| Bindery | node | 1100 | 900–1200 | 8.00 ms | 16.00 ms | 0 | 1 | n/a | n/a | n/a | n/a | 0.28× |
| PostGraphile 5 | node | 1000 | 750–1000 | 7.00 ms | 14.00 ms | 0 | 1 | n/a | n/a | n/a | n/a | 0.25× |
| Bindery | nested | 300 | 240–330 | 20.00 ms | 40.00 ms | 0 | 4 | n/a | n/a | n/a | n/a | 0.075× |
| PostGraphile 5 | nested | 250 | 230–300 | 20.00 ms | 40.00 ms | 0 | 4 | n/a | n/a | n/a | n/a | 0.062× |

Each workload ran on each server in 3 interleaved rounds. A row shows the round of median req/s (of an even number, the slower of the middle two), every column from that round; the range is of req/s over the rounds. A ratio below is the median of the ratios taken within each round, where both servers met the same state of the machine.

req/s of Bindery ÷ PostGraphile 5: node 1.20× (rounds: 1.10–1.20×), nested 1.10× (rounds: 1.04–1.20×).

**WARNING: Bindery nested, round 2 of 3 had 1 errors in 3300 requests; its figures are not valid.** First: HTTP 500
`, b.String())
}

// Of an even number of rounds, a row is the slower middle round, and the
// ratio the mean of the middle two; without an anchor, the note below the
// table speaks of no ratio.
func TestWriteTableEvenRounds(t *testing.T) {
	rows := []row{
		{target: "Bindery", key: "node", workload: "node", round: 1, sum: summary{RPS: 1300, P50: time.Millisecond}},
		{target: "PostGraphile 4", key: "node", workload: "node", anchor: true, round: 1, sum: summary{RPS: 1000}},
		{target: "Bindery", key: "node", workload: "node", round: 2, sum: summary{RPS: 1100, P50: 2 * time.Millisecond}},
		{target: "PostGraphile 4", key: "node", workload: "node", anchor: true, round: 2, sum: summary{RPS: 1000}},
	}
	var b strings.Builder
	writeTable(&b, rows)
	assert.Contains(t, b.String(), "| Bindery | node | 1100 | 1100–1300 | 2.00 ms |")
	assert.Contains(t, b.String(), "\nreq/s of Bindery ÷ PostGraphile 4: node 1.20× (rounds: 1.10–1.30×).\n")

	b.Reset()
	writeTable(&b, []row{rows[0], rows[2]})
	assert.Contains(t, b.String(), "the range is of req/s over the rounds.\n")
	assert.NotContains(t, b.String(), "ratio", "no anchor, no ratios to speak of")
}
