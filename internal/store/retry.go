package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/lib/pq"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// maxAttempts bounds the runs of one transaction that the database gives up
// on (see WithTx). Five, about 150ms of pauses at most: a transaction that
// loses five times in a row is contended beyond what waiting fixes, and the
// client hears so.
const maxAttempts = 5

// busyMessage is what a client hears when its transaction lost every
// attempt: nothing was written, and the same request may succeed later.
const busyMessage = "The request conflicted with concurrent changes and was not applied; try again"

// Retryable reports whether err is a failure of the whole transaction that
// the same transaction, run again, may not meet: PostgreSQL's
// serialization_failure (40001) and deadlock_detected (40P01), where the
// database rolled back one of the transactions to let the others go on;
// SQLite's SQLITE_BUSY and SQLITE_LOCKED, when another writer held the
// database longer than the busy timeout.
func Retryable(err error) bool {
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		return pqErr.Code == "40001" || pqErr.Code == "40P01"
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		// Extended codes (SQLITE_BUSY_SNAPSHOT...) keep the primary code
		// in the low byte.
		code := liteErr.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return false
}

// IsUniqueViolation reports whether err is a unique index's refusal of a
// row: PostgreSQL's unique_violation (23505), SQLite's
// SQLITE_CONSTRAINT_UNIQUE or SQLITE_CONSTRAINT_PRIMARYKEY. The caller,
// which knows the index, says what was taken.
func IsUniqueViolation(err error) bool {
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		return pqErr.Code == "23505"
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		code := liteErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// pause waits before the next attempt of a transaction: a random while up
// to 10ms, 20ms, 40ms... after the first, second, third failure ("full
// jitter"), so that the transactions that deadlocked together do not meet
// again at once. It returns early, with the context's error, when ctx ends.
func pause(ctx context.Context, failures int) error {
	ceiling := (10 * time.Millisecond) << (failures - 1)
	t := time.NewTimer(rand.N(ceiling) + time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
