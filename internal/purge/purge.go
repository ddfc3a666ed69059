// Package purge permanently removes deleted spaces once their retention
// period is over.
//
// Several servers may share one database, so each removal is one conditional
// DELETE, in a transaction of its own with the removal of its search index: the replica whose statement removes the row did the work, and a
// replica that arrives second removes nothing. Nothing is claimed, so a
// crashed replica leaves nothing behind. The space's revisions, change
// requests, comments and links go with it through ON DELETE CASCADE; its
// site-spaces are removed first, under their sites' lock, so that a site
// keeps a default site-space wherever it has any (package sitestruct).
package purge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/sitestruct"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/telemetry"
)

// batch bounds how many spaces one pass looks at.
const batch = 100

// Spaces removes the spaces deleted before cutoff and returns how many this
// call removed.
func Spaces(ctx context.Context, client *ent.Client, cutoff time.Time) (int, error) {
	// Timestamps are stored in UTC, and SQLite compares them as text: a
	// cutoff in another zone would compare wrongly, and ahead of UTC it
	// would remove spaces that can still be restored.
	cutoff = cutoff.UTC()
	// Each space is removed on its own (see the package comment).
	total := 0
	for {
		ids, err := client.Space.Query().Where(space.DeletedAtLT(cutoff)).Limit(batch).
			IDs(store.InternalRead(ctx, "a background job"))
		if err != nil {
			return total, fmt.Errorf("finding spaces to purge: %w", err)
		}
		for _, id := range ids {
			n, err := purgeSpace(ctx, client, id, cutoff)
			if err != nil {
				return total, fmt.Errorf("purging space %s: %w", id, err)
			}
			total += n
		}
		if len(ids) < batch {
			return total, nil
		}
	}
}

// errKept rolls back the purge of a space that is no longer due.
var errKept = errors.New("the space is no longer due for purging")

// purgeSpace removes a space if it is still deleted before cutoff, and its
// search index with it: the index is the dialect's own table, which no
// foreign key ties to the space.
func purgeSpace(ctx context.Context, client *ent.Client, id string, cutoff time.Time) (n int, err error) {
	ctx = store.InternalRead(ctx, "a background job")
	err = store.WithTx(ctx, client, func(ctx context.Context, tx *ent.Client) error {
		// The site's lock comes before the space's row, as in every change
		// of a site's structure.
		if _, err := sitestruct.Lock(ctx, tx, site.HasSiteSpacesWith(sitespace.SpaceID(id))); err != nil {
			return err
		}
		if err := sitestruct.Detach(ctx, tx, []string{id}); err != nil {
			return err
		}
		if n, err = tx.Space.Delete().Where(space.ID(id), space.DeletedAtLT(cutoff)).Exec(ctx); err != nil {
			return err
		}
		if n == 0 {
			// Restored, or purged by another replica, since it was found:
			// its site-spaces stay.
			return errKept
		}
		return search.New(tx.Driver().Dialect()).Drop(ctx, tx.Driver(), []string{id})
	})
	if errors.Is(err, errKept) {
		return 0, nil
	}
	return n, err
}

// Run purges every interval until ctx ends. Each pass counts as a run of
// the "purge" job in outcomes (which may be nil).
func Run(ctx context.Context, client *ent.Client, interval, retention time.Duration, now func() time.Time, log *slog.Logger, outcomes *telemetry.Jobs) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := Spaces(ctx, client, now().Add(-retention))
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("purging deleted spaces", "error", err)
		case n > 0:
			log.Info("purged deleted spaces", "count", n)
		}
		ended, serr := SignIns(ctx, client, now())
		switch {
		case serr != nil && ctx.Err() == nil:
			log.Error("purging ended sign-ins and sessions", "error", serr)
		case ended > 0:
			log.Info("purged ended sign-ins and sessions", "count", ended)
		}
		if ctx.Err() == nil {
			outcomes.Result("purge", errors.Join(err, serr))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
