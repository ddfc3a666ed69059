package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// The collector's share of a server's CPU comes from the runtime's own
// accounting, which Bindery's /metrics exposes (runtime/metrics'
// /cpu/classes/...): the CPU time the collector took (its assists, its
// workers and its pauses) over the time the process's Ps were busy (the
// total less idle), between the start and the end of a run.

// cpuClasses is a reading of the runtime's CPU time counters, in seconds.
type cpuClasses struct {
	gc, total, idle float64
}

// the metrics read, by name.
var cpuClassMetrics = map[string]func(*cpuClasses) *float64{
	"go_cpu_classes_gc_total_cpu_seconds_total": func(c *cpuClasses) *float64 { return &c.gc },
	"go_cpu_classes_total_cpu_seconds_total":    func(c *cpuClasses) *float64 { return &c.total },
	"go_cpu_classes_idle_cpu_seconds_total":     func(c *cpuClasses) *float64 { return &c.idle },
}

// readCPUClasses reads the counters from a Prometheus /metrics URL.
func readCPUClasses(ctx context.Context, client *http.Client, url string) (cpuClasses, error) {
	var c cpuClasses
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return c, err
	}
	res, err := client.Do(req)
	if err != nil {
		return c, fmt.Errorf("reading the collector's CPU time: %w", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return c, err
	}
	if res.StatusCode != http.StatusOK {
		return c, fmt.Errorf("reading the collector's CPU time: GET %s: HTTP %d", url, res.StatusCode)
	}
	return parseCPUClasses(b)
}

// parseCPUClasses reads the counters from Prometheus's text format.
func parseCPUClasses(text []byte) (cpuClasses, error) {
	var c cpuClasses
	found := 0
	s := bufio.NewScanner(bytes.NewReader(text))
	for s.Scan() {
		name, value, ok := strings.Cut(s.Text(), " ")
		field := cpuClassMetrics[name]
		if !ok || field == nil {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return c, fmt.Errorf("%s: %q is not a number", name, value)
		}
		*field(&c) = v
		found++
	}
	if found != len(cpuClassMetrics) {
		return c, fmt.Errorf("/metrics lacks the runtime's CPU classes (go_cpu_classes_*)")
	}
	return c, s.Err()
}

// gcShare is the collector's share of the busy CPU time between two
// readings; 0 when nothing ran.
func gcShare(before, after cpuClasses) float64 {
	busy := (after.total - after.idle) - (before.total - before.idle)
	if busy <= 0 {
		return 0
	}
	return (after.gc - before.gc) / busy
}
