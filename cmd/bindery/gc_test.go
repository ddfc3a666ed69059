package main

import (
	"bytes"
	"context"
	"math"
	"net"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

// cgroupFS is a machine's root with /proc/self/cgroup and the cgroup
// files given.
func cgroupFS(self string, files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	if self != "" {
		fsys["proc/self/cgroup"] = &fstest.MapFile{Data: []byte(self)}
	}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data + "\n")}
	}
	return fsys
}

func TestCgroupMemoryLimit(t *testing.T) {
	for name, c := range map[string]struct {
		fsys fstest.MapFS
		want int64
	}{
		"v2, a container's own namespace": {cgroupFS("0::/\n", map[string]string{
			"sys/fs/cgroup/memory.max": "536870912"}), 512 << 20},
		"v2, a systemd unit in a limited slice": {cgroupFS("0::/system.slice/bindery.service\n", map[string]string{
			"sys/fs/cgroup/system.slice/bindery.service/memory.max": "max",
			"sys/fs/cgroup/system.slice/memory.max":                 "1073741824"}), 1 << 30},
		"v2, a pod's limit under its container's": {cgroupFS("0::/kubepods/pod1/ctr\n", map[string]string{
			"sys/fs/cgroup/kubepods/pod1/ctr/memory.max": "2147483648",
			"sys/fs/cgroup/kubepods/pod1/memory.max":     "1073741824",
			"sys/fs/cgroup/kubepods/memory.max":          "max"}), 1 << 30},
		"v2, no limit anywhere": {cgroupFS("0::/user.slice/session-1.scope\n", map[string]string{
			"sys/fs/cgroup/user.slice/session-1.scope/memory.max": "max",
			"sys/fs/cgroup/user.slice/memory.max":                 "max"}), 0},
		"v1, a container that sees its cgroup as the root": {cgroupFS("5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n", map[string]string{
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "268435456"}), 256 << 20},
		"v1, hybrid: the memory controller is v1's": {cgroupFS("4:memory:/svc\n0::/svc\n", map[string]string{
			"sys/fs/cgroup/memory/svc/memory.limit_in_bytes": "402653184",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":     "9223372036854771712",
			"sys/fs/cgroup/svc/memory.max":                   "max"}), 384 << 20},
		"v1, unlimited": {cgroupFS("4:memory:/process_api/x\n0::/\n", map[string]string{
			"sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": "9223372036854771712",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":               "9223372036854771712"}), 0},
		"no cgroup file (not Linux)":    {cgroupFS("", nil), 0},
		"cgroups without a memory file": {cgroupFS("0::/\n", nil), 0},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := cgroupMemoryLimit(c.fsys)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	_, err := cgroupMemoryLimit(cgroupFS("0::/\n", map[string]string{"sys/fs/cgroup/memory.max": "lots"}))
	assert.ErrorContains(t, err, `"lots" is not a memory limit`)
}

// The limit serve sets: a share of the cgroup's, none without one, a size
// whatever the cgroup, none when off; an operator's GOMEMLIMIT wins.
func TestMemoryLimitSetting(t *testing.T) {
	limited := cgroupFS("0::/\n", map[string]string{"sys/fs/cgroup/memory.max": "1073741824"})
	unlimited := cgroupFS("0::/\n", map[string]string{"sys/fs/cgroup/memory.max": "max"})
	v1 := cgroupFS("4:memory:/\n", map[string]string{"sys/fs/cgroup/memory/memory.limit_in_bytes": "2147483648"})
	noenv := func(string) string { return "" }
	for name, c := range map[string]struct {
		setting config.MemoryLimit
		fsys    fstest.MapFS
		want    int64
		from    string
	}{
		"the default, cgroup v2": {config.Default().MemoryLimit, limited, 966367641, "90% of the cgroup's 1073741824 bytes"},
		"the default, cgroup v1": {config.Default().MemoryLimit, v1, 1932735283, "90% of the cgroup's 2147483648 bytes"},
		"the default, no limit":  {config.Default().MemoryLimit, unlimited, math.MaxInt64, "no cgroup memory limit"},
		"another share":          {config.MemoryLimit{Percent: 50}, limited, 512 << 20, "50% of the cgroup's 1073741824 bytes"},
		"a size":                 {config.MemoryLimit{Bytes: 3 << 30}, limited, 3 << 30, "BINDERY_MEMORY_LIMIT"},
		"off":                    {config.MemoryLimit{}, limited, math.MaxInt64, "BINDERY_MEMORY_LIMIT"},
	} {
		t.Run(name, func(t *testing.T) {
			limit, from, set, err := memoryLimit(c.setting, noenv, c.fsys)
			require.NoError(t, err)
			assert.True(t, set)
			assert.Equal(t, c.want, limit)
			assert.Equal(t, c.from, from)
		})
	}

	before := debug.SetMemoryLimit(700 << 20)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	operator := func(k string) string { return map[string]string{"GOMEMLIMIT": "700MiB"}[k] }
	limit, from, set, err := memoryLimit(config.MemoryLimit{Bytes: 1 << 30}, operator, limited)
	require.NoError(t, err)
	assert.False(t, set, "the runtime applied the operator's GOMEMLIMIT; nothing replaces it")
	assert.Equal(t, "GOMEMLIMIT", from)
	assert.Equal(t, int64(700<<20), limit)
}

// bindery serve applies BINDERY_MEMORY_LIMIT and the heap floor, leaves
// the proportional target to GOGC once stopped, and keeps an operator's
// GOMEMLIMIT. It changes the
// process's collector, so it does not run beside other tests.
func TestServeAppliesMemoryLimit(t *testing.T) {
	beforeLimit, beforePercent := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	t.Cleanup(func() {
		debug.SetMemoryLimit(beforeLimit)
		debug.SetGCPercent(beforePercent)
	})
	serveWith := func(env map[string]string) string {
		t.Helper()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		env["BINDERY_ADDR"] = ln.Addr().String()
		ln.Close()
		env["BINDERY_DATABASE_URL"] = dsn(t)
		env["BINDERY_LOG_FORMAT"] = "text"
		env["BINDERY_SEED"] = "false"
		ctx, cancel := context.WithCancel(context.Background())
		var stderr servertest.SyncBuffer
		done := make(chan error, 1)
		go func() {
			done <- run(ctx, []string{"bindery", "serve"}, func(k string) string { return env[k] }, &bytes.Buffer{}, &stderr)
		}()
		require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "bindery is serving") },
			90*time.Second, 20*time.Millisecond, stderr.String())
		cancel()
		require.NoError(t, <-done)
		return stderr.String()
	}

	log := serveWith(map[string]string{"BINDERY_MEMORY_LIMIT": "300MiB"})
	assert.Equal(t, int64(300<<20), debug.SetMemoryLimit(-1))
	assert.Equal(t, 100, debug.SetGCPercent(100), "Go's proportional target stays on")
	assert.Contains(t, log, `msg="garbage collector" GOGC=100 memory_limit=314572800 from=BINDERY_MEMORY_LIMIT heap_floor=50331648`)

	debug.SetMemoryLimit(123 << 20) // as the runtime applies GOMEMLIMIT at start
	log = serveWith(map[string]string{"BINDERY_MEMORY_LIMIT": "300MiB", "GOMEMLIMIT": "123MiB", "GOGC": "150"})
	assert.Equal(t, int64(123<<20), debug.SetMemoryLimit(-1), "the operator's GOMEMLIMIT wins")
	assert.Contains(t, log, `GOGC=150 memory_limit=128974848 from=GOMEMLIMIT`)

	log = serveWith(map[string]string{"BINDERY_MEMORY_LIMIT": "off"})
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1))
	assert.Contains(t, log, "memory_limit=none from=BINDERY_MEMORY_LIMIT heap_floor=50331648")

	log = serveWith(map[string]string{"BINDERY_MEMORY_LIMIT": "64MiB", "BINDERY_HEAP_FLOOR_BYTES": "33554432"})
	assert.Contains(t, log, "memory_limit=67108864 from=BINDERY_MEMORY_LIMIT heap_floor=16777216", "a quarter of the limit at most")
	log = serveWith(map[string]string{"BINDERY_HEAP_FLOOR_BYTES": "0"})
	assert.Contains(t, log, "heap_floor=0")
	assert.Equal(t, 100, debug.SetGCPercent(100), "a server that stopped leaves GOGC as it found it")
}
