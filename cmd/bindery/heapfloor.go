package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The heap floor: the collector does not start a cycle before the heap has
// grown to the floor, however small the live heap. The proportional target
// (GOGC 100) alone starts one each time the heap doubles what was live, and
// a server whose caches are still empty lives on a few MiB: answering the
// nested GraphQL read of make bench-load, it spent 12% of its CPU
// collecting, where a server with tens of MiB live collects a few times
// less often for the same requests (docs/performance.md, "The collector").
// After each cycle the floor sets GOGC to whichever target is larger, the
// floor or GOGC's over the live heap: at the default 48 MiB, a server with
// 12 MiB live collects at 48 MiB, one with 200 MiB live at 400 MiB as
// before. The runtime's soft memory limit still bounds the heap, and the
// floor is at most a quarter of it.

// heapFloor keeps the heap's target at floor bytes or more, over GOGC base.
type heapFloor struct {
	floor, base int64

	mu      sync.Mutex
	live    []metrics.Sample
	percent int64 // the GOGC set last
	stopped bool
}

// floorPercent returns the GOGC that sets the target of a heap with live
// bytes live at floor bytes, or base when base gives more. The target is
// about live × (1 + GOGC/100).
func floorPercent(floor, base, live int64) int64 {
	if live <= 0 || floor <= live {
		return base
	}
	return max(base, int64(min(float64(floor)/float64(live)*100-100, math.MaxInt32)))
}

// startHeapFloor holds the heap's target at floor bytes or more over GOGC
// base until stop is called, which sets GOGC back to base. It returns what
// it holds to, which the memory limit may lower: 0 when there is nothing
// to do (no floor, or GOGC off).
func startHeapFloor(floor, base, memoryLimit int64) (held int64, stop func()) {
	floor = min(floor, memoryLimit/4)
	if floor <= 0 || base < 0 {
		return 0, func() {}
	}
	h := &heapFloor{floor: floor, base: base, percent: base,
		live: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	h.adjust()
	h.arm()
	return floor, h.stop
}

// stop ends the floor and sets GOGC back to base.
func (h *heapFloor) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	if h.percent != h.base {
		debug.SetGCPercent(int(h.base))
	}
}

// sentinel is an object the collector frees each cycle; it has a pointer,
// so that it is not one of the tiny allocations a cleanup may never run
// for.
type sentinel struct{ _ *int }

// arm runs adjust after the next cycle, and arms the one after: a cleanup
// runs once the collector has found its object unreachable.
func (h *heapFloor) arm() {
	runtime.AddCleanup(new(sentinel), func(h *heapFloor) {
		if h.adjust() {
			h.arm()
		}
	}, h)
}

// adjust sets GOGC for the live heap the last cycle left, and reports
// whether the floor still holds. It moves GOGC only when the target moves
// by a tenth or comes back to base, not every cycle.
func (h *heapFloor) adjust() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return false
	}
	metrics.Read(h.live)
	p := floorPercent(h.floor, h.base, int64(h.live[0].Value.Uint64()))
	if p == h.percent || (p != h.base && p*10 > h.percent*9 && p*10 < h.percent*11) {
		return true
	}
	debug.SetGCPercent(int(p))
	h.percent = p
	return true
}
