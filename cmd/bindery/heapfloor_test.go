package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestFloorPercent(t *testing.T) {
	const mib = 1 << 20
	for name, c := range map[string]struct{ floor, base, live, want int64 }{
		"a small live heap collects at the floor":       {48 * mib, 100, 12 * mib, 300},
		"a live heap at half the floor: GOGC's target":  {48 * mib, 100, 24 * mib, 100},
		"a live heap over the floor: GOGC's target":     {48 * mib, 100, 200 * mib, 100},
		"an operator's larger GOGC wins":                {48 * mib, 400, 12 * mib, 400},
		"an operator's smaller GOGC, over a tiny heap":  {48 * mib, 50, 4 * mib, 1100},
		"before the first cycle (no live heap known)":   {48 * mib, 100, 0, 100},
		"a live heap just under the floor":              {48 * mib, 100, 47 * mib, 100},
		"a live heap of a third: twice GOGC's increase": {48 * mib, 100, 16 * mib, 200},
		"a floor past any heap: GOGC's largest":         {1 << 62, 100, 1, math.MaxInt32},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, c.want, floorPercent(c.floor, c.base, c.live))
		})
	}
}

// The floor raises GOGC over this test process's small live heap, follows
// the live heap from cycle to cycle, is capped by the memory limit, and
// gives GOGC back when stopped. It changes the process's collector, so it
// does not run beside other tests.
func TestHeapFloorFollowsTheLiveHeap(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	cycles := func() {
		// The cleanup that adjusts runs after the cycle that freed its
		// object: two cycles and a moment.
		runtime.GC()
		runtime.GC()
	}

	held, stop := startHeapFloor(256<<20, 100, 1<<40)
	assert.Equal(t, int64(256<<20), held)
	cycles()
	assert.Eventually(t, func() bool { return gcPercent() > 300 }, 5*time.Second, 10*time.Millisecond,
		"GOGC is raised over a live heap far below the floor")

	live := make([][]byte, 200)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	cycles()
	assert.Eventually(t, func() bool { return gcPercent() == 100 }, 5*time.Second, 10*time.Millisecond,
		"with 200 MiB live, GOGC's own target is past the floor")
	runtime.KeepAlive(live)
	live = nil
	cycles()
	assert.Eventually(t, func() bool { return gcPercent() > 300 }, 5*time.Second, 10*time.Millisecond,
		"raised again once the live heap is small")

	stop()
	assert.Equal(t, int64(100), gcPercent(), "stopped, GOGC is the base again")
	cycles()
	assert.Never(t, func() bool { return gcPercent() != 100 }, 100*time.Millisecond, 10*time.Millisecond,
		"and stays so after further cycles")

	held, stop = startHeapFloor(1<<40, 100, 1<<36)
	assert.Equal(t, int64(1<<34), held, "at most a quarter of the memory limit")
	stop()
	held, stop = startHeapFloor(48<<20, -1, 1<<40)
	assert.Zero(t, held, "with GOGC off there is no target to raise")
	stop()
	held, _ = startHeapFloor(0, 100, 1<<40)
	assert.Zero(t, held, "a floor of 0 is none")
}
