// Package telemetry holds what Bindery's background work shares with the
// server's metrics: a counter of job outcomes that any job records into, and
// that counts nothing when there is no server to scrape it (nil).
package telemetry

import "github.com/prometheus/client_golang/prometheus"

// Outcome is how one run of a background job ended.
type Outcome string

// The outcomes of a job.
const (
	// OK: the job did its work.
	OK Outcome = "ok"
	// Retry: an attempt failed and the job tries again.
	Retry Outcome = "retry"
	// Failed: the job gave up; its error is logged.
	Failed Outcome = "error"
)

// Jobs counts the outcomes of background jobs, as
// bindery_background_jobs_total{job, outcome}. Job names are constants of
// the code ("mail", "purge"), never data. A nil *Jobs counts nothing, so
// code and tests without a server need none.
type Jobs struct {
	outcomes *prometheus.CounterVec
}

// NewJobs registers the counter with reg.
func NewJobs(reg prometheus.Registerer) *Jobs {
	j := &Jobs{outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bindery_background_jobs_total",
		Help: "Runs of background jobs (mail: one invitation delivery; purge: one pass) by job and outcome (ok, retry, error).",
	}, []string{"job", "outcome"})}
	reg.MustRegister(j.outcomes)
	return j
}

// Record counts one outcome of job.
func (j *Jobs) Record(job string, o Outcome) {
	if j == nil {
		return
	}
	j.outcomes.WithLabelValues(job, string(o)).Inc()
}

// Result counts OK when err is nil, Failed otherwise.
func (j *Jobs) Result(job string, err error) {
	if err != nil {
		j.Record(job, Failed)
		return
	}
	j.Record(job, OK)
}
