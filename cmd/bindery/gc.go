package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/config"
)

// The garbage collector of `bindery serve` runs with the Go runtime's
// proportional target (GOGC, 100 unless set) above a heap floor
// (heapfloor.go), and a soft memory limit that follows the machine: by default 90% of the memory limit of the process's
// cgroup (a container's, a systemd unit's), none without one; or what
// BINDERY_MEMORY_LIMIT says; or GOMEMLIMIT, which the runtime has applied
// when the operator set it.
//
// The proportional target keeps the collector's cost in step with what is
// live, whatever the load: a nested read of a 250-page space, an import, a
// PDF render each hold tens of MiB at once. A fixed soft limit with GOGC
// off (72 MiB, tuned on small GraphQL answers over a 10–20 MiB live heap)
// made the collector run back to back once the live heap neared it: in
// `make bench-load`'s heavy mix it took 26–30% of the CPU against 7–10%,
// for a third of the requests (docs/performance.md, "The collector", with what the
// small reads gave up, and GOGC 200 measured too). The limit is what keeps a
// container from being killed for memory when the live heap grows: near
// it, the collector runs more often (at most half the CPU, the runtime's
// limiter) instead of the heap doubling past it.

// gcPercent returns GOGC as the runtime applies it: -1 when off.
func gcPercent() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 100
	}
	// Off is -1, which the metric shows as a uint64.
	return max(int64(s[0].Value.Uint64()), -1)
}

// cgroupUnlimited is where cgroup v1's memory.limit_in_bytes starts to mean
// no limit: it reads as the largest page count times the page size
// (9223372036854771712 with 4 KiB pages), never a real limit.
const cgroupUnlimited = 1 << 62

// cgroupMemoryLimit returns the memory limit, in bytes, of the cgroup the
// process runs in, as the file system fsys (the machine's root) shows it,
// or 0 when there is none. The limit of a cgroup is the smallest of its own
// and its ancestors' (a Kubernetes pod's, above its container's), so the
// walk goes from the process's cgroup up to the root, reading each level
// that the mount shows: inside a container whose cgroup is mounted as the
// root, the host's path to it does not exist there, and the root holds the
// container's limit.
//
// cgroup v2 (one hierarchy at /sys/fs/cgroup) has memory.max ("max" for
// none); v1 has memory.limit_in_bytes under /sys/fs/cgroup/memory. A hybrid
// machine mounts both, and the memory controller is v1's when /proc/self/cgroup
// names it.
func cgroupMemoryLimit(fsys fs.FS) (int64, error) {
	b, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil // not Linux, or no /proc
	}
	if err != nil {
		return 0, err
	}
	var dir, file, cgroup string
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		// hierarchy-ID:controllers:path
		f := strings.SplitN(s.Text(), ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			dir, file, cgroup = "sys/fs/cgroup/memory", "memory.limit_in_bytes", f[2]
		case f[0] == "0" && f[1] == "" && dir == "":
			dir, file, cgroup = "sys/fs/cgroup", "memory.max", f[2]
		}
	}
	if dir == "" {
		return 0, nil
	}
	var limit int64
	for p := path.Clean("/" + cgroup); ; p = path.Dir(p) {
		b, err := fs.ReadFile(fsys, path.Join(dir, p, file))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return 0, err
		default:
			v := strings.TrimSpace(string(b))
			n, err := strconv.ParseInt(v, 10, 64)
			if v != "max" && (err != nil || n < 0) {
				return 0, fmt.Errorf("%s: %q is not a memory limit", path.Join(dir, p, file), v)
			}
			if v != "max" && n < cgroupUnlimited && (limit == 0 || n < limit) {
				limit = n
			}
		}
		if p == "/" {
			return limit, nil
		}
	}
}

// memoryLimit is the soft memory limit that `bindery serve` gives the Go
// runtime, and what it comes from. An operator's GOMEMLIMIT (which the
// runtime applied at start) wins: ok is then false and nothing is to be
// set. A cgroup that cannot be read counts as none, with the error to log.
func memoryLimit(setting config.MemoryLimit, getenv func(string) string, fsys fs.FS) (limit int64, from string, ok bool, err error) {
	if getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1), "GOMEMLIMIT", false, nil
	}
	if setting.Bytes > 0 || setting.Percent == 0 {
		return setting.Of(0), "BINDERY_MEMORY_LIMIT", true, nil
	}
	cgroup, err := cgroupMemoryLimit(fsys)
	if cgroup == 0 {
		return math.MaxInt64, "no cgroup memory limit", true, err
	}
	return setting.Of(cgroup), setting.String() + " of the cgroup's " + strconv.FormatInt(cgroup, 10) + " bytes", true, nil
}

// tuneMemory sets the Go runtime's soft memory limit for `bindery serve`
// (see memoryLimit) and the heap floor (heapfloor.go), and logs them; stop
// ends the floor when the server stops.
func tuneMemory(setting config.MemoryLimit, floor int64, getenv func(string) string, log *slog.Logger) (stop func()) {
	limit, from, set, err := memoryLimit(setting, getenv, os.DirFS("/"))
	if err != nil {
		log.Warn("the cgroup's memory limit could not be read; no limit is set", "error", err)
	}
	if set {
		debug.SetMemoryLimit(limit)
	}
	shown := any("none")
	if limit < math.MaxInt64 {
		shown = limit
	}
	gogc := getenv("GOGC")
	if gogc == "" {
		gogc = "100"
	}
	held, stop := startHeapFloor(floor, gcPercent(), debug.SetMemoryLimit(-1))
	log.Info("garbage collector", "GOGC", gogc, "memory_limit", shown, "from", from, "heap_floor", held)
	return stop
}
