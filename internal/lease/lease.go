// Package lease runs background jobs that are claimed from a table under a
// lease, so that any number of servers share one database's work without
// doing a job twice.
//
// A worker supplies what is its own (Jobs): which rows are due, how one is
// taken, what a claimed row's job holds, and what the job does, including
// how its result or failure is recorded. The runner claims, steps and runs
// the loop.
//
// A claim is taken through store.Claim: on PostgreSQL a SELECT ... FOR
// UPDATE SKIP LOCKED picks the row, so concurrent runners pick different
// rows without waiting on each other; on SQLite, which has one writer at a
// time, a conditional UPDATE takes a candidate only if it is still due. A
// claim is a lease (the row's claimed_until) with a token (its claimed_by):
// a runner that dies mid-job leaves a lease that ends, and another runner
// then takes the row again. A job records its result only with a
// conditional UPDATE that requires its token, and reports ErrLost when the
// token is gone, so a runner whose lease ran out records nothing.
package lease

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/store"
)

// Defaults of Config.
const (
	DefaultLease = 2 * time.Minute
	DefaultPoll  = 10 * time.Second
)

// candidates is how many due rows a claim on SQLite tries.
const candidates = 8

// ErrLost is the end of a job whose claim is gone: another runner took the
// row after the lease ended, or a change to the row cancelled the job. Its
// result was not recorded; it is no error of the runner's.
var ErrLost = errors.New("the claim on the job was lost")

// Claim is a runner's claim on a row.
type Claim struct {
	// Token is the claim's, stored in the row's claimed_by; recording a
	// result requires it.
	Token string
	// At is when the row was claimed: it was due then.
	At time.Time
	// Until is when the lease ends, stored in the row's claimed_until.
	Until time.Time
}

// Jobs is what a worker supplies to a runner. J is its job: what it reads
// of a claimed row.
type Jobs[J any] struct {
	// Find returns the IDs of up to limit rows due at now, in the order
	// they should be taken. With lock set it runs in the claim's
	// transaction and must lock what it returns, skipping locked rows
	// (FOR UPDATE SKIP LOCKED).
	Find func(ctx context.Context, tx *ent.Client, now time.Time, limit int, lock bool) ([]string, error)
	// Take claims row id if it is still due at c.At: a conditional UPDATE
	// that sets claimed_by to c.Token and claimed_until to c.Until. It
	// reports whether it took the row.
	Take func(ctx context.Context, tx *ent.Client, id string, c Claim) (bool, error)
	// Load reads the job of row id, claimed with c.
	Load func(ctx context.Context, id string, c Claim) (J, error)
	// Process runs a claimed job to its end and records its result, or its
	// failure and when to try again, only while the claim holds; ErrLost
	// when it no longer does.
	Process func(ctx context.Context, j J) error
	// Tidy, when set, runs at every poll of Run, for housekeeping such as
	// pruning old rows; it logs its own errors.
	Tidy func(ctx context.Context)
}

// Config configures a Runner. Zero values take the defaults.
type Config struct {
	// What names a job in errors and logs: "an OpenAPI spec".
	What string
	// Lease is how long a claim lasts; it must outlast a job.
	Lease time.Duration
	// Poll is how often Run looks for work when nothing wakes it.
	Poll time.Duration
	Now  func() time.Time
	Log  *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.What == "" {
		c.What = "a job"
	}
	if c.Lease <= 0 {
		c.Lease = DefaultLease
	}
	if c.Poll <= 0 {
		c.Poll = DefaultPoll
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Runner claims and runs the jobs of one table.
type Runner[J any] struct {
	client *ent.Client
	cfg    Config
	jobs   Jobs[J]
	wake   chan struct{}
}

// New returns a runner of jobs over client.
func New[J any](client *ent.Client, cfg Config, jobs Jobs[J]) *Runner[J] {
	return &Runner[J]{client: client, cfg: cfg.withDefaults(), jobs: jobs, wake: make(chan struct{}, 1)}
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Claim claims one due row and returns its job, or the zero J when none
// is due.
func (r *Runner[J]) Claim(ctx context.Context) (J, error) {
	j, _, err := r.claim(ctx)
	return j, err
}

func (r *Runner[J]) claim(ctx context.Context) (j J, ok bool, err error) {
	now := r.cfg.Now().UTC()
	c := Claim{Token: newToken(), At: now, Until: now.Add(r.cfg.Lease)}
	id, err := store.Claim{Candidates: candidates,
		Find: func(ctx context.Context, tx *ent.Client, limit int, lock bool) ([]string, error) {
			return r.jobs.Find(ctx, tx, now, limit, lock)
		},
		Take: func(ctx context.Context, tx *ent.Client, id string) (bool, error) {
			return r.jobs.Take(ctx, tx, id, c)
		}}.One(ctx, r.client)
	if err != nil {
		return j, false, fmt.Errorf("claiming %s: %w", r.cfg.What, err)
	}
	if id == "" {
		return j, false, nil
	}
	if j, err = r.jobs.Load(ctx, id, c); err != nil {
		return j, false, fmt.Errorf("reading a claim on %s: %w", r.cfg.What, err)
	}
	return j, true, nil
}

// Step claims one due row and runs its job; it reports whether there was
// one. A lost claim is no error: another runner, or a change to the row,
// took over.
func (r *Runner[J]) Step(ctx context.Context) (bool, error) {
	j, ok, err := r.claim(ctx)
	if err != nil || !ok {
		return false, err
	}
	if err := r.jobs.Process(ctx, j); err != nil && !errors.Is(err, ErrLost) {
		return true, err
	}
	return true, nil
}

// Drain runs steps until nothing is due, a step fails or ctx ends, and
// returns how many jobs it ran.
func (r *Runner[J]) Drain(ctx context.Context) (int, error) {
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		did, err := r.Step(ctx)
		if err != nil || !did {
			return n, err
		}
		n++
	}
}

// Wake makes Run look for work now.
func (r *Runner[J]) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run runs jobs until ctx ends: whatever is due, then again every Poll
// (after Tidy) or when woken. A failed job is logged and the rest wait for
// the next poll or wake. When ctx ends, the job under way sees it, and Run
// returns once that job does; its lease is left to end.
func (r *Runner[J]) Run(ctx context.Context) {
	t := time.NewTicker(r.cfg.Poll)
	defer t.Stop()
	for {
		if _, err := r.Drain(ctx); err != nil && ctx.Err() == nil {
			r.cfg.Log.Error("processing "+r.cfg.What, "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if r.jobs.Tidy != nil {
				r.jobs.Tidy(ctx)
			}
		case <-r.wake:
		}
	}
}
