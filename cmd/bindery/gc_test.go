package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTuneGC: serve paces the collector by a memory limit unless GOGC is
// set, keeps an operator's GOMEMLIMIT, and leaves an operator's GOGC alone.
func TestTuneGC(t *testing.T) {
	beforePercent, beforeLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(beforePercent)
		debug.SetMemoryLimit(beforeLimit)
	})

	t.Setenv("GOGC", "150")
	assert.False(t, tuneGC())
	assert.Equal(t, 100, debug.SetGCPercent(100), "an operator's GOGC is kept")
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "and no limit is added")

	t.Setenv("GOGC", "")
	assert.False(t, tuneGC(), "GOGC set, even empty, is the runtime's to read")

	// t.Setenv cannot unset; os.Unsetenv is restored by the Setenv above.
	unsetenv(t, "GOGC")
	t.Setenv("GOMEMLIMIT", "")
	unsetenv(t, "GOMEMLIMIT")
	assert.True(t, tuneGC())
	assert.Equal(t, -1, debug.SetGCPercent(100), "the limit alone paces the collector")
	assert.Equal(t, int64(serveMemoryLimit), debug.SetMemoryLimit(math.MaxInt64))

	// An operator's limit (applied by the runtime at start) is kept.
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30)
	assert.True(t, tuneGC())
	assert.Equal(t, -1, debug.SetGCPercent(100))
	assert.Equal(t, int64(1<<30), debug.SetMemoryLimit(math.MaxInt64))
}

// unsetenv removes an environment variable for the rest of the test; call
// t.Setenv on it first so that its value is restored.
func unsetenv(t *testing.T, key string) {
	t.Helper()
	assert.NoError(t, os.Unsetenv(key))
}
