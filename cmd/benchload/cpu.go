package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CPU per request splits a workload's cost between the server and the
// database: the CPU time (user and system) their processes spent during the
// run, from /proc/<pid>/stat, divided by the requests served. Unlike req/s,
// it hardly depends on what else the machine runs, so it shows where a
// change's gain or loss went. The database's is the sum over the local
// PostgreSQL's processes (the postmaster, its backends and workers); for
// SQLite, which runs inside the server, there is none.

// clockTicks is the unit of /proc/<pid>/stat's times: USER_HZ, 100 on
// every Linux architecture Go runs on.
const clockTicks = 100

// cpuTime returns the CPU time the processes have used, summed. A process
// that is gone counts for nothing.
func cpuTime(pids []int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if n, ok := statTicks(b); ok {
			ticks += n
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// statTicks reads utime plus stime from the text of /proc/<pid>/stat
// (fields 14 and 15; the command name, field 2, may hold spaces and
// parentheses).
func statTicks(stat []byte) (int64, bool) {
	f := statFields(stat)
	// f[0] is field 3 (state), so utime and stime are f[11] and f[12].
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	return u + s, err1 == nil && err2 == nil
}

// postgresPIDs returns the processes of a PostgreSQL server on this
// machine, by their command name; none when it runs elsewhere.
func postgresPIDs() []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, dir := range dirs {
		b, err := os.ReadFile(dir + "/comm")
		if err != nil || strings.TrimSpace(string(b)) != "postgres" {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		out = append(out, pid)
	}
	return out
}

// cpuMeter measures the CPU time that a server's and the database's
// processes spend between start and stop.
type cpuMeter struct {
	server      []int
	serverStart time.Duration
	// database holds the PostgreSQL processes' times at the start, by
	// pid; nil for SQLite.
	database map[int]time.Duration
}

func startCPUMeter(server []int, postgres bool) *cpuMeter {
	m := &cpuMeter{server: server, serverStart: cpuTime(server)}
	if postgres {
		m.database = map[int]time.Duration{}
		for _, pid := range postgresPIDs() {
			m.database[pid] = cpuTime([]int{pid})
		}
	}
	return m
}

// stop returns the server's and the database's CPU time per request over n
// requests; the database's is 0 when unknown. A backend that started
// during the run counts in full; one that ended during it is lost, which
// the pooled connections of the servers measured here avoid.
func (m *cpuMeter) stop(n int) (server, database time.Duration) {
	if n == 0 {
		return 0, 0
	}
	server = (cpuTime(m.server) - m.serverStart) / time.Duration(n)
	if m.database == nil {
		return server, 0
	}
	var used time.Duration
	for _, pid := range postgresPIDs() {
		used += cpuTime([]int{pid}) - m.database[pid]
	}
	return server, max(used, 0) / time.Duration(n)
}
