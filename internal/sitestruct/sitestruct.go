// Package sitestruct keeps a published site's structure whole when its
// site-spaces go for a reason outside the site: their space leaves its
// organization, or is purged. Every parent of site-spaces (a section, or the
// site's root) that has any has exactly one default; a parent that loses its
// default to such a removal gives the role to its first site-space left, as
// deleting a site-space through the API does.
//
// Every transaction that changes a site's structure first locks the site's
// row (Lock), and no other row before it, so two of them cannot deadlock
// and each reads what the one before it left.
package sitestruct

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/internal/store"
)

// Lock locks the rows of the sites which selects, in ID order, until db's
// transaction ends, and returns them.
func Lock(ctx context.Context, db *ent.Client, which predicate.Site) ([]*ent.Site, error) {
	sites, err := db.Site.Query().Where(which).Unique(false).Order(site.ByID()).Modify(store.ForNoKeyUpdate).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("locking the site: %w", err)
	}
	return sites, nil
}

// Siblings restricts site-spaces to those of a parent: a section, or the
// site's root.
func Siblings(siteID string, sectionID *string) predicate.SiteSpace {
	if sectionID == nil {
		return sitespace.And(sitespace.SiteID(siteID), sitespace.SectionIDIsNil())
	}
	return sitespace.And(sitespace.SiteID(siteID), sitespace.SectionID(*sectionID))
}

// PromoteDefault makes the first site-space of a parent its default, after
// its default was removed; a parent left with none has no default. The
// caller holds the site's lock.
func PromoteDefault(ctx context.Context, db *ent.Client, siteID string, sectionID *string) error {
	next, err := db.SiteSpace.Query().Where(Siblings(siteID, sectionID)).
		Order(sitespace.ByPosition(), sitespace.ByID()).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("finding the next default site-space: %w", err)
	}
	if err := next.Update().SetIsDefault(true).Exec(ctx); err != nil {
		return fmt.Errorf("promoting a default site-space: %w", err)
	}
	return nil
}

// Detach removes the site-spaces of the spaces and gives each parent that
// lost its default a new one. The caller holds the lock of their sites.
func Detach(ctx context.Context, db *ent.Client, spaceIDs []string) error {
	gone, err := db.SiteSpace.Query().Where(sitespace.SpaceIDIn(spaceIDs...)).
		Order(sitespace.ByID()).All(ctx)
	if err != nil || len(gone) == 0 {
		return err
	}
	if _, err := db.SiteSpace.Delete().Where(sitespace.SpaceIDIn(spaceIDs...)).Exec(ctx); err != nil {
		return fmt.Errorf("removing site-spaces: %w", err)
	}
	for _, ss := range gone {
		// All are gone by now, so the one promoted is one that stays.
		if ss.IsDefault {
			if err := PromoteDefault(ctx, db, ss.SiteID, ss.SectionID); err != nil {
				return err
			}
		}
	}
	return nil
}
