package telemetry_test

import (
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/internal/telemetry"
)

func TestJobs(t *testing.T) {
	reg := prometheus.NewRegistry()
	j := telemetry.NewJobs(reg)
	j.Result("purge", nil)
	j.Result("purge", errors.New("down"))
	j.Record("mail", telemetry.Retry)
	j.Record("mail", telemetry.OK)
	n, err := testutil.GatherAndCount(reg, "bindery_background_jobs_total")
	assert.NoError(t, err)
	assert.Equal(t, 4, n, "one series per job and outcome")

	var none *telemetry.Jobs
	none.Result("purge", nil) // counts nothing, and does not panic
}
