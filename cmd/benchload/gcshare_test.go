package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCPUClasses(t *testing.T) {
	text := `# HELP go_cpu_classes_gc_total_cpu_seconds_total Estimated total CPU time spent performing GC tasks.
# TYPE go_cpu_classes_gc_total_cpu_seconds_total counter
go_cpu_classes_gc_total_cpu_seconds_total 1.5
go_cpu_classes_gc_mark_assist_cpu_seconds_total 0.25
go_cpu_classes_idle_cpu_seconds_total 10
go_cpu_classes_total_cpu_seconds_total 16
go_goroutines 12
`
	c, err := parseCPUClasses([]byte(text))
	require.NoError(t, err)
	assert.Equal(t, cpuClasses{gc: 1.5, total: 16, idle: 10}, c)

	_, err = parseCPUClasses([]byte("go_goroutines 12\n"))
	assert.ErrorContains(t, err, "lacks the runtime's CPU classes")

	// 6 s busy before, 16 after: 1.5 of the 10 s in between was the
	// collector's.
	after := cpuClasses{gc: 3, total: 30, idle: 14}
	assert.InDelta(t, 0.15, gcShare(c, after), 1e-9)
	assert.Zero(t, gcShare(c, c), "nothing ran")
}
