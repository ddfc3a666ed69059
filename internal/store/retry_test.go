package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/store"
)

func TestRetryable(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&pq.Error{Code: "40001"}, true},
		{fmt.Errorf("updating: %w", &pq.Error{Code: "40P01"}), true},
		{&pq.Error{Code: "23505"}, false},
		{errors.New("deadlock detected"), false},
		{nil, false},
	} {
		assert.Equal(t, c.want, store.Retryable(c.err), "%v", c.err)
	}
}

// A transaction the database gave up on runs again, from the start and
// with nothing of the lost run left; one that keeps losing ends as a
// conflict; a joined transaction is the caller's to retry; other errors are
// not retried.
func TestWithTxRetries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, freshDSN(t))
	require.NoError(t, db.Migrate(ctx))
	users := func() int { return db.Client.User.Query().CountX(ctx) }
	var made atomic.Int64
	attempt := func(runs *int, failures int, fail error) func(ctx context.Context, tx *ent.Client) error {
		return func(ctx context.Context, tx *ent.Client) error {
			*runs++
			if err := tx.User.Create().SetEmail(fmt.Sprintf("run%d@example.com", made.Add(1))).
				SetDisplayName("Run").Exec(ctx); err != nil {
				return err
			}
			if *runs <= failures {
				return fmt.Errorf("writing: %w", fail)
			}
			return nil
		}
	}
	deadlock := &pq.Error{Code: "40P01", Message: "deadlock detected"}

	runs := 0
	require.NoError(t, store.WithTx(ctx, db.Client, attempt(&runs, 2, deadlock)))
	assert.Equal(t, 3, runs)
	assert.Equal(t, 1, users(), "the lost runs wrote nothing")

	runs = 0
	err := store.WithTx(ctx, db.Client, attempt(&runs, 100, &pq.Error{Code: "40001"}))
	assert.Equal(t, 5, runs, "a bounded number of runs")
	assert.Equal(t, apperr.Conflict, apperr.KindOf(err), "%v", err)
	assert.Contains(t, apperr.From(err).Message, "try again")
	assert.Equal(t, 1, users())

	runs = 0
	err = store.WithTx(ctx, db.Client, attempt(&runs, 1, errors.New("broken")))
	assert.EqualError(t, err, "writing: broken")
	assert.Equal(t, 1, runs, "not retried")

	outer, inner := 0, 0
	require.NoError(t, store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		outer++
		err := store.WithTx(ctx, db.Client, attempt(&inner, 1, deadlock))
		if outer == 1 {
			assert.True(t, store.Retryable(err), "the joined call returns the failure: %v", err)
		}
		return err
	}))
	assert.Equal(t, 2, outer, "the outermost call retries")
	assert.Equal(t, 2, inner, "the joined call ran once per run of the outer one")
	assert.Equal(t, 2, users())
}

// Two transactions that lock two rows in opposite orders deadlock on
// PostgreSQL; the one the database rolls back runs again, and both succeed.
func TestWithTxRetriesADeadlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, freshDSN(t))
	if db.Dialect != dialect.Postgres {
		t.Skip("SQLite runs one writing transaction at a time: no deadlock")
	}
	require.NoError(t, db.Migrate(ctx))
	a := db.Client.User.Create().SetEmail("a@example.com").SetDisplayName("A").SaveX(ctx)
	b := db.Client.User.Create().SetEmail("b@example.com").SetDisplayName("B").SaveX(ctx)
	for round := range 3 {
		var (
			both  sync.WaitGroup
			wg    sync.WaitGroup
			runs  atomic.Int64
			errs  [2]error
			order = [2][2]string{{a.ID, b.ID}, {b.ID, a.ID}}
		)
		both.Add(2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				first := true
				errs[i] = store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
					runs.Add(1)
					name := fmt.Sprintf("round %d by %d", round, i)
					if err := tx.User.Update().Where(user.ID(order[i][0])).SetDisplayName(name).Exec(ctx); err != nil {
						return err
					}
					if first {
						// Both hold their first row before either asks
						// for its second.
						first = false
						both.Done()
						both.Wait()
					}
					return tx.User.Update().Where(user.ID(order[i][1])).SetDisplayName(name).Exec(ctx)
				})
			}()
		}
		wg.Wait()
		require.NoError(t, errs[0])
		require.NoError(t, errs[1])
		// At least one of the two ran again. On a loaded machine a round
		// has been seen to take a fourth run, so the count is a floor;
		// both finishing without error is the point.
		assert.GreaterOrEqual(t, runs.Load(), int64(3), "one of the two ran again")
	}
}
