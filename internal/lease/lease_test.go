package lease_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/openapispec"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/lease"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// The runner is table-agnostic; these tests run it over the OpenAPI specs
// table, which has the columns of a lease (claimed_by, claimed_until), with
// jobs of their own: a spec is due while PENDING, and its job marks it
// COMPLETE.

type job struct{ id, token string }

type table struct {
	t      *testing.T
	client *ent.Client
	clock  *servertest.Clock
	org    string
	rows   int
}

func newTable(t *testing.T) *table {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, servertest.MigratedDSN(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	org, err := db.Client.Organization.Create().SetTitle("Leases").Save(ctx)
	require.NoError(t, err)
	return &table{t: t, client: db.Client, clock: &servertest.Clock{}, org: org.ID}
}

func reads(ctx context.Context) context.Context { return store.InternalRead(ctx, "tests") }

// add adds n due rows and returns their IDs.
func (tb *table) add(n int) []string {
	tb.t.Helper()
	var ids []string
	for range n {
		tb.rows++
		s, err := tb.client.OpenAPISpec.Create().SetOrganizationID(tb.org).SetSlug(fmt.Sprintf("spec-%d", tb.rows)).
			SetSourceText("x").Save(context.Background())
		require.NoError(tb.t, err)
		ids = append(ids, s.ID)
	}
	return ids
}

// done returns the IDs of the rows whose job recorded its result.
func (tb *table) done() []string {
	tb.t.Helper()
	ids, err := tb.client.OpenAPISpec.Query().Where(openapispec.ProcessingStateEQ(enum.OpenAPISpecProcessingStateComplete)).
		IDs(reads(context.Background()))
	require.NoError(tb.t, err)
	return ids
}

func due(now time.Time) predicate.OpenAPISpec {
	return openapispec.And(openapispec.ProcessingStateEQ(enum.OpenAPISpecProcessingStatePending),
		openapispec.Or(openapispec.ClaimedUntilIsNil(), openapispec.ClaimedUntilLT(now)))
}

// record is a job's end: the row is COMPLETE if the claim holds.
func (tb *table) record(ctx context.Context, j *job) error {
	return store.WithTx(ctx, tb.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.OpenAPISpec.Update().Where(openapispec.ID(j.id), openapispec.ClaimedBy(j.token)).
			SetProcessingState(enum.OpenAPISpecProcessingStateComplete).ClearClaimedBy().ClearClaimedUntil().Save(ctx)
		if err == nil && n == 0 {
			return lease.ErrLost
		}
		return err
	})
}

// jobs are the table's jobs, which run process (or record when it is
// nil) and tidy.
func (tb *table) jobs(process func(ctx context.Context, j *job) error, tidy func(context.Context)) lease.Jobs[*job] {
	if process == nil {
		process = tb.record
	}
	return lease.Jobs[*job]{
		Find: func(ctx context.Context, tx *ent.Client, now time.Time, limit int, lock bool) ([]string, error) {
			q := tx.OpenAPISpec.Query().Where(due(now)).Order(openapispec.ByID()).Limit(limit)
			if lock {
				q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
			}
			return q.IDs(reads(ctx))
		},
		Take: func(ctx context.Context, tx *ent.Client, id string, c lease.Claim) (bool, error) {
			n, err := tx.OpenAPISpec.Update().Where(openapispec.ID(id), due(c.At)).
				SetClaimedBy(c.Token).SetClaimedUntil(c.Until).Save(ctx)
			return n == 1, err
		},
		Load: func(ctx context.Context, id string, c lease.Claim) (*job, error) {
			return &job{id: id, token: c.Token}, nil
		},
		Process: process,
		Tidy:    tidy,
	}
}

// runner returns a runner of the table's jobs on its clock.
func (tb *table) runner(cfg lease.Config, process func(ctx context.Context, j *job) error) *lease.Runner[*job] {
	cfg.Now = tb.clock.Now
	return lease.New(tb.client, cfg, tb.jobs(process, nil))
}

// run runs r until the test ends, or until the returned stop is called.
func run(t *testing.T, r *lease.Runner[*job]) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		r.Run(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-stopped:
			case <-time.After(10 * time.Second):
				t.Error("Run did not return after its context ended")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func receive[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("nothing arrived in 10 s")
		panic("unreachable")
	}
}

// logBuffer is a log's output, written by Run's goroutine and read by the
// test's.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A claim holds a row for its lease: no other runner takes it, until the
// lease ends; then the first runner's late result is not recorded, and
// Step does not count the lost claim as an error.
func TestClaimHoldsForTheLease(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	ctx := context.Background()
	ids := tb.add(1)
	dead := tb.runner(lease.Config{Lease: time.Minute}, nil)
	alive := tb.runner(lease.Config{Lease: time.Minute}, nil)

	j, err := dead.Claim(ctx)
	require.NoError(t, err)
	require.NotNil(t, j)
	assert.Equal(t, ids[0], j.id)
	s, err := tb.client.OpenAPISpec.Get(reads(ctx), ids[0])
	require.NoError(t, err)
	assert.Equal(t, j.token, *s.ClaimedBy)
	assert.WithinDuration(t, tb.clock.Now().Add(time.Minute), *s.ClaimedUntil, time.Second)

	none, err := alive.Claim(ctx)
	require.NoError(t, err)
	assert.Nil(t, none, "the lease holds")
	tb.clock.Advance(59 * time.Second)
	n, err := alive.Drain(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "the lease holds")

	tb.clock.Advance(2 * time.Second)
	again, err := alive.Claim(ctx)
	require.NoError(t, err)
	require.NotNil(t, again, "the lease ended: taken again")
	assert.NotEqual(t, j.token, again.token)
	assert.ErrorIs(t, tb.record(ctx, j), lease.ErrLost, "the late result is not recorded")
	assert.Empty(t, tb.done())
	require.NoError(t, tb.record(ctx, again))
	assert.Equal(t, ids, tb.done())

	// A job that finds its claim lost is no error of Step's.
	tb.add(1)
	lost := tb.runner(lease.Config{}, func(context.Context, *job) error { return fmt.Errorf("storing: %w", lease.ErrLost) })
	did, err := lost.Step(ctx)
	assert.True(t, did)
	assert.NoError(t, err)
	// Any other failure is.
	tb.clock.Advance(3 * time.Minute)
	failing := tb.runner(lease.Config{}, func(context.Context, *job) error { return errors.New("boom") })
	did, err = failing.Step(ctx)
	assert.True(t, did)
	assert.EqualError(t, err, "boom")
}

// Three runners draining one table at once run each job exactly once (on
// PostgreSQL through SKIP LOCKED, on SQLite through the conditional
// UPDATE).
func TestRunnersShareTheWork(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	ids := tb.add(30)
	var mu sync.Mutex
	ran := map[string]int{}
	process := func(ctx context.Context, j *job) error {
		mu.Lock()
		ran[j.id]++
		mu.Unlock()
		return tb.record(ctx, j)
	}
	var wg sync.WaitGroup
	counts := make([]int, 3)
	for i := range counts {
		r := tb.runner(lease.Config{}, process)
		wg.Go(func() {
			n, err := r.Drain(context.Background())
			assert.NoError(t, err)
			counts[i] = n
		})
	}
	wg.Wait()
	assert.Equal(t, len(ids), counts[0]+counts[1]+counts[2], "jobs per runner: %v", counts)
	assert.Len(t, ran, len(ids))
	for id, n := range ran {
		assert.Equal(t, 1, n, "%s ran %d times", id, n)
	}
	assert.ElementsMatch(t, ids, tb.done())
}

// Run takes what is due when it starts, and new work as soon as it is
// woken, without waiting for the poll; Tidy runs at polls, not at wakes. A
// failed job is logged and does not stop the loop.
func TestRunWakes(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	first := tb.add(1)
	processed := make(chan string, 10)
	tidied := make(chan struct{}, 10)
	failed := false
	var logs logBuffer
	r := lease.New(tb.client, lease.Config{What: "a test row", Poll: time.Hour, Now: tb.clock.Now,
		Log: slog.New(slog.NewTextHandler(&logs, nil))}, tb.jobs(func(ctx context.Context, j *job) error {
		if !failed {
			failed = true
			processed <- ""
			return errors.New("boom")
		}
		err := tb.record(ctx, j)
		processed <- j.id
		return err
	}, func(context.Context) { tidied <- struct{}{} }))
	stop := run(t, r)

	// The first job, due at the start, fails: logged, and the loop waits.
	assert.Empty(t, receive(t, processed))
	ids := tb.add(1)
	r.Wake()
	assert.Equal(t, ids[0], receive(t, processed), "woken: the new row, the failed one is under its lease")
	assert.Contains(t, logs.String(), "processing a test row")
	assert.Contains(t, logs.String(), "boom")

	// Once its lease ends, the failed row is taken at the next wake.
	tb.clock.Advance(lease.DefaultLease + time.Second)
	r.Wake()
	assert.Equal(t, first[0], receive(t, processed))
	stop()
	assert.ElementsMatch(t, append(first, ids...), tb.done())
	assert.Empty(t, tidied, "Tidy waits for a poll")
}

// Run polls every Poll, tidying first, and so finds work nobody woke it
// for.
func TestRunPolls(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	tidied := make(chan struct{}, 100)
	processed := make(chan string, 10)
	r := lease.New(tb.client, lease.Config{Poll: 20 * time.Millisecond, Now: tb.clock.Now},
		tb.jobs(func(ctx context.Context, j *job) error {
			processed <- j.id
			return tb.record(ctx, j)
		}, func(context.Context) { tidied <- struct{}{} }))
	run(t, r)
	receive(t, tidied)
	ids := tb.add(1)
	assert.Equal(t, ids[0], receive(t, processed), "found at a poll")
}

// When its context ends, Run returns once the job under way does; the
// job's row stays under its lease, and another runner takes it once the
// lease ends.
func TestRunStopsWithItsContext(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	ids := tb.add(1)
	started := make(chan struct{})
	r := tb.runner(lease.Config{Poll: time.Hour}, func(ctx context.Context, j *job) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	})
	stop := run(t, r)
	receive(t, started)
	stop()
	assert.Empty(t, tb.done(), "the job was cut short")

	other := tb.runner(lease.Config{}, nil)
	n, err := other.Drain(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "the lease holds")
	tb.clock.Advance(lease.DefaultLease + time.Second)
	n, err = other.Drain(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, ids, tb.done())

	// A runner whose context has ended takes nothing.
	tb.add(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n, err = other.Drain(ctx)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, n)
}
