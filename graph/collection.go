package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/position"
)

// destination checks that the viewer may put content under parent (a
// collection ID, or nil for the top level) of the organization, and returns
// the organization's authorization view.
func (r *Resolver) destination(ctx context.Context, orgID string, parent *string, field string) (*authz.Org, error) {
	if _, _, err := r.orgs.get(ctx, orgID); err != nil {
		return nil, err
	}
	o, err := r.orgAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if parent != nil {
		if !o.Collection(*parent).Visible() {
			return nil, apperr.Invalid(field, "the collection %q is not in this organization", *parent)
		}
	}
	if !o.ParentAccepts(deref(parent)) {
		if parent == nil {
			return nil, apperr.Forbidden("You need the %s role in this organization to add content at its top level",
				authz.Organizations.Min(authz.CreateContent))
		}
		return nil, apperr.Forbidden("You need the %s role on the collection to add content to it",
			authz.Collections.Min(authz.CreateContent))
	}
	return o, nil
}

func (r *Resolver) createCollection(ctx context.Context, in model.CreateCollectionInput) (*ent.Collection, error) {
	return transact(ctx, r, func(ctx context.Context) (*ent.Collection, error) {
		pos, err := r.newPlace(ctx, in.OrganizationID, in.ParentID)
		if err != nil {
			return nil, err
		}
		c, err := r.db(ctx).Collection.Create().
			SetOrganizationID(in.OrganizationID).
			SetNillableParentID(in.ParentID).
			SetTitle(titleOrUntitled(in.Title)).
			SetNillableDescription(in.Description).
			SetPosition(pos).
			Save(ctx)
		if err != nil {
			return nil, err
		}
		r.collections.wrote(ctx, c)
		return c, nil
	})
}

func (r *Resolver) updateCollection(ctx context.Context, in model.UpdateCollectionInput) (*ent.Collection, error) {
	return mutate(ctx, r, r.collections, in.ID, authz.Update, func(ctx context.Context, cur *ent.Collection, _ authz.Decision) (*ent.Collection, error) {
		u := r.db(ctx).Collection.UpdateOne(cur)
		if in.Title != nil {
			u.SetTitle(strings.TrimSpace(*in.Title))
		}
		apply(in.Description, u.SetNillableDescription, u.ClearDescription)
		apply(in.DefaultLevel, u.SetNillableDefaultLevel, u.ClearDefaultLevel)
		return u.Save(ctx)
	})
}

// deleteCollection deletes a collection and its nested collections, and
// deletes their spaces (restorable for the retention period).
func (r *Resolver) deleteCollection(ctx context.Context, in model.DeleteCollectionInput) error {
	return act(ctx, r, r.collections, in.ID, authz.Delete, func(ctx context.Context, c *ent.Collection, _ authz.Decision) error {
		o, err := r.orgAccess(ctx, c.OrganizationID)
		if err != nil {
			return err
		}
		ids := o.Subtree(c.ID)
		if err := r.db(ctx).Space.Update().
			Where(space.ParentIDIn(ids...), live()).
			SetDeletedAt(r.clock()).
			Exec(ctx); err != nil {
			return fmt.Errorf("deleting the collection's spaces: %w", err)
		}
		// Nested collections go with it (ON DELETE CASCADE); deleted spaces
		// lose their parent (ON DELETE SET NULL) and are restored at the top.
		return r.db(ctx).Collection.DeleteOneID(c.ID).Exec(ctx)
	})
}

// moveCollection moves a collection within its organization.
func (r *Resolver) moveCollection(ctx context.Context, in model.MoveCollectionInput) (*ent.Collection, error) {
	return mutateLocked(ctx, r, r.collectionLock(in.ID), r.collections, in.ID, authz.Move,
		func(ctx context.Context, c *ent.Collection, _ authz.Decision) (*ent.Collection, error) {
			parent := movedParent(c.ParentID, in.ParentID)
			o, err := r.destination(ctx, c.OrganizationID, parent, "parent")
			if err != nil {
				return nil, err
			}
			if parent != nil {
				for _, id := range o.Subtree(c.ID) {
					if id == *parent {
						return nil, apperr.Invalid("parent", "a collection cannot move into itself or into a collection it contains")
					}
				}
			}
			pos, err := r.reposition(ctx, c.OrganizationID, c.ID, c.ParentID, c.Position, parent, in.Position)
			if err != nil {
				return nil, err
			}
			u := r.db(ctx).Collection.UpdateOne(c).SetPosition(pos)
			if parent == nil {
				u.ClearParentID()
			} else {
				u.SetParentID(*parent)
			}
			return u.Save(ctx)
		})
}

// collectionLock is the placement lock of a collection's organization, and
// of the other organizations given (see lockForCollection), taken before
// the collection is read.
func (r *Resolver) collectionLock(id string, others ...string) func(ctx context.Context) error {
	return func(ctx context.Context) error { return r.lockForCollection(ctx, id, others...) }
}

// reposition returns the new position of an item moving from (oldParent,
// oldPos) to newParent at the requested position. A move that changes
// nothing is a Conflict, as in the official API.
func (r *Resolver) reposition(ctx context.Context, orgID, id string, oldParent *string, oldPos float64,
	newParent *string, pos *model.ContentPositionInput) (float64, error) {
	sibs, err := r.siblings(ctx, orgID, newParent, id)
	if err != nil {
		return 0, err
	}
	var before, after *string
	if pos != nil {
		before, after = pos.Before, pos.After
	}
	k, err := position.Index(sibs, before, after)
	if err != nil {
		return 0, err
	}
	if deref(oldParent) == deref(newParent) {
		p1, n1 := position.Neighbours(sibs, position.Current(sibs, id, oldPos))
		p2, n2 := position.Neighbours(sibs, k)
		if p1 == p2 && n1 == n2 {
			return 0, apperr.Conflictf("The move would not change anything")
		}
	}
	return r.place(ctx, sibs, k)
}

// transferCollection moves a collection, with everything in it, to the top
// level of another organization.
func (r *Resolver) transferCollection(ctx context.Context, in model.TransferCollectionInput) (*ent.Collection, error) {
	return mutateLocked(ctx, r, r.collectionLock(in.ID, in.OrganizationID), r.collections, in.ID, authz.Transfer,
		func(ctx context.Context, c *ent.Collection, _ authz.Decision) (*ent.Collection, error) {
			if in.OrganizationID == c.OrganizationID {
				return nil, apperr.Conflictf("The collection already belongs to this organization")
			}
			if _, _, err := r.orgs.get(ctx, in.OrganizationID); err != nil {
				return nil, apperr.Invalid("organization", "the organization %q was not found", in.OrganizationID)
			}
			if _, err := r.destination(ctx, in.OrganizationID, nil, "organization"); err != nil {
				return nil, err
			}
			o, err := r.orgAccess(ctx, c.OrganizationID)
			if err != nil {
				return nil, err
			}
			ids := o.Subtree(c.ID)
			db := r.db(ctx)
			spaceIDs, err := db.Space.Query().Where(space.ParentIDIn(ids...)).
				IDs(internal(ctx, "the spaces of a collection the viewer administers"))
			if err != nil {
				return nil, err
			}
			if err := r.detachSpaces(ctx, spaceIDs); err != nil {
				return nil, err
			}
			if err := db.Space.Update().Where(space.IDIn(spaceIDs...)).SetOrganizationID(in.OrganizationID).Exec(ctx); err != nil {
				return nil, err
			}
			if _, err := db.ContentGrant.Delete().Where(contentgrant.CollectionIDIn(ids...)).Exec(ctx); err != nil {
				return nil, err
			}
			if err := db.Collection.Update().Where(collection.IDIn(ids...)).SetOrganizationID(in.OrganizationID).Exec(ctx); err != nil {
				return nil, err
			}
			pos, err := r.lastPosition(ctx, in.OrganizationID, nil, c.ID)
			if err != nil {
				return nil, err
			}
			return db.Collection.UpdateOne(c).ClearParentID().SetPosition(pos).Save(ctx)
		})
}

func (r *Resolver) collectionURLs(c *ent.Collection) *model.CollectionURLs {
	return &model.CollectionURLs{
		Location: r.cfg.PublicURL + "/v1/collections/" + c.ID,
		App:      r.cfg.AppURL + "/c/" + c.ID,
	}
}

func (r *Resolver) collectionPermissions(ctx context.Context, c *ent.Collection) (*authz.CollectionPermissions, error) {
	d, err := r.collectionDecision(ctx, c)
	if err != nil {
		return nil, err
	}
	p := authz.ForCollection(d)
	return &p, nil
}

// collectionSpaces lists the live spaces directly in a collection that the
// viewer can see, in order.
func (r *Resolver) collectionSpaces(ctx context.Context, c *ent.Collection, a page.Args) (*page.Connection[*ent.Space], error) {
	if _, _, err := r.collections.get(ctx, c.ID); err != nil {
		return nil, err
	}
	o, err := r.orgAccess(ctx, c.OrganizationID)
	if err != nil {
		return nil, err
	}
	ctx, scope := r.spaces.scoped(ctx, o)
	q := r.db(ctx).Space.Query().Where(space.ParentID(c.ID), live(), scope)
	return r.spacePage(ctx, q, spacesByPosition, a)
}

// collectionChildren lists the collections directly in a collection that the
// viewer can see, in order.
func (r *Resolver) collectionChildren(ctx context.Context, c *ent.Collection, a page.Args) (*page.Connection[*ent.Collection], error) {
	if _, _, err := r.collections.get(ctx, c.ID); err != nil {
		return nil, err
	}
	o, err := r.orgAccess(ctx, c.OrganizationID)
	if err != nil {
		return nil, err
	}
	ctx, scope := r.collections.scoped(ctx, o)
	q := r.db(ctx).Collection.Query().Where(collection.ParentID(c.ID), scope)
	return page.Paginate(ctx, q, collectionsByPosition, a)
}
