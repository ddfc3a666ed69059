package main

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTuneGC: serve raises the collector's target unless GOGC is set, and
// then leaves the operator's value alone.
func TestTuneGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	t.Setenv("GOGC", "150")
	assert.False(t, tuneGC())
	assert.Equal(t, 100, debug.SetGCPercent(100), "an operator's GOGC is kept")

	t.Setenv("GOGC", "")
	assert.False(t, tuneGC(), "GOGC set, even empty, is the runtime's to read")

	// t.Setenv cannot unset; os.Unsetenv is restored by the Setenv above.
	unsetenv(t, "GOGC")
	assert.True(t, tuneGC())
	assert.Equal(t, serveGCPercent, debug.SetGCPercent(100))
}

// unsetenv removes an environment variable for the rest of the test; call
// t.Setenv on it first so that its value is restored.
func unsetenv(t *testing.T, key string) {
	t.Helper()
	assert.NoError(t, os.Unsetenv(key))
}
