package graph

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/movedpage"
	"github.com/bindery/bindery/internal/content"
)

// recordMoves keeps the paths that pages of a space's main content had
// before a change (from, which diff compares with the new content) moved
// them, so that their old addresses on a published site lead to them. It
// costs a statement only when a page's path changed.
func (r *Resolver) recordMoves(ctx context.Context, spaceID string, from *content.Loaded, diff content.Diff) error {
	if from == nil || len(diff.Existed) == 0 {
		return nil
	}
	existed := make(map[string]bool, len(diff.Existed))
	for _, id := range diff.Existed {
		existed[id] = true
	}
	now := r.clock()
	var moves []*ent.MovedPageCreate
	for _, p := range diff.Pages {
		if !existed[p.Page.ID] {
			continue
		}
		old, err := from.Path(p.Page.ID)
		if err != nil || old == p.Path {
			continue
		}
		moves = append(moves, r.db(ctx).MovedPage.Create().SetSpaceID(spaceID).SetPath(old).
			SetPageID(p.Page.ID).SetMovedAt(now))
	}
	if len(moves) == 0 {
		return nil
	}
	err := r.db(ctx).MovedPage.CreateBulk(moves...).
		OnConflict(sql.ConflictColumns(movedpage.FieldSpaceID, movedpage.FieldPath)).UpdateNewValues().Exec(ctx)
	if err != nil {
		return fmt.Errorf("recording moved pages: %w", err)
	}
	return nil
}

// MovedPage returns the ID of the page of a space's main content that was
// at path before it moved; "" when none was. The caller has read the
// space's content, which this is part of.
func (r *Resolver) MovedPage(ctx context.Context, spaceID, path string) (string, error) {
	m, err := r.db(ctx).MovedPage.Query().Where(movedpage.SpaceID(spaceID), movedpage.Path(path)).
		Only(internal(ctx, "where a page of content the reader reads has moved"))
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return m.PageID, nil
}
