package main

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseVmHWM(t *testing.T) {
	n, err := parseVmHWM([]byte("Name:\tbindery\nVmPeak:\t 1000 kB\nVmHWM:\t   52344 kB\nVmRSS:\t 50000 kB\n"))
	require.NoError(t, err)
	assert.EqualValues(t, 52344*1024, n)

	_, err = parseVmHWM([]byte("Name:\tbindery\n"))
	assert.ErrorContains(t, err, "no VmHWM")
	_, err = parseVmHWM([]byte("VmHWM:\t12 MB\n"))
	assert.ErrorContains(t, err, "unexpected VmHWM")
}

func TestParentOf(t *testing.T) {
	ppid, ok := parentOf([]byte("4242 (node) S 4200 4242 4242 0 -1"))
	assert.True(t, ok)
	assert.Equal(t, 4200, ppid)
	ppid, ok = parentOf([]byte("4243 (a) (b c) R 17 4243 4243 0 -1"))
	assert.True(t, ok, "a command name with spaces and parentheses")
	assert.Equal(t, 17, ppid)
	_, ok = parentOf([]byte("garbage"))
	assert.False(t, ok)
}

// The peak memory of a process can be read and reset through /proc.
func TestPeakRSSOfThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here")
	}
	self := []int{os.Getpid()}
	before, err := peakRSS(self)
	require.NoError(t, err)
	assert.Positive(t, before)
	require.NoError(t, resetPeakRSS(self))

	pids, err := descendants(os.Getpid(), func(argv []string) bool { return len(argv) > 0 })
	require.NoError(t, err)
	assert.True(t, slices.Contains(pids, os.Getpid()))
	none, err := descendants(os.Getpid(), func([]string) bool { return false })
	require.NoError(t, err)
	assert.Empty(t, none)
}
