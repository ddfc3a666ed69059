package graph

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/ent/revision"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/position"
	"github.com/bindery/bindery/internal/sitestruct"
)

// SpaceRetention is how long a deleted space can be restored before it is
// removed for good.
const SpaceRetention = 7 * 24 * time.Hour

// liveSpace returns a space the viewer can see and that is not deleted,
// with the action required on it.
func (r *Resolver) liveSpace(ctx context.Context, id string, a authz.Action) (*ent.Space, authz.Decision, error) {
	s, d, err := r.spaces.authorize(ctx, id, a)
	if err == nil {
		err = spaceLive(s)
	}
	return s, d, err
}

// spaceLive fails for a deleted space, which must be restored before it
// changes.
func spaceLive(s *ent.Space) error {
	if s.DeletedAt != nil {
		return apperr.Preconditionf("The space is deleted; restore it first")
	}
	return nil
}

// readableSpace returns a space for Query.space and /v1's space paths: the
// share key and visitor JWT the request presents for it are recorded first,
// so that every decision about it in the request takes them into account.
// A visitor JWT that is not valid is a 400 for a viewer who sees the space
// anyway (see visitorauth.go); for anyone else the space is not found.
func (r *Resolver) readableSpace(ctx context.Context, id string, shareKey, visitorToken *string) (*ent.Space, error) {
	r.PresentKeys(ctx, id, shareKey, visitorToken)
	s, _, err := r.spaces.get(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := r.visitorClaimsOf(ctx, s.ID, s.VisitorAuthPrivateKey); err != nil {
		return nil, err
	}
	return s, nil
}

// spaceVisitorAdmitted reports whether the request presented a valid
// visitor JWT for a visitor-auth space; one opens the space's organization
// to the viewer, as a share key does.
func (r *Resolver) spaceVisitorAdmitted(ctx context.Context, s *ent.Space) bool {
	if s.Visibility != enum.VisibilityVisitorAuth || !r.visitorAdmitted(ctx, s.ID, s.VisitorAuthPrivateKey) {
		return false
	}
	loadersFrom(ctx).openOrg(s.OrganizationID)
	return true
}

// rotateSpaceVisitorAuthKey gives a space a new visitor signing key and
// returns it: the only time it is shown. Its admin role rotates it, as it
// manages the space's share links.
func (r *Resolver) rotateSpaceVisitorAuthKey(ctx context.Context, spaceID string) (*ent.Space, string, error) {
	key := rotatedKey()
	s, err := mutate(ctx, r, r.spaces, spaceID, authz.UpdateAccess, func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.Space, error) {
		return s.Update().SetVisitorAuthPrivateKey(key).Save(internal(ctx, "the space its admin changes"))
	})
	if err != nil {
		return nil, "", err
	}
	return s, key, nil
}

// newSpace creates a space with its first revision, empty or with the
// content of roots, and returns both as stored. guestDefault stores a null
// default level (the guest level), which the insert cannot: the column
// defaults to inherit.
func (r *Resolver) newSpace(ctx context.Context, b *ent.SpaceCreate, authorID string, roots *ent.Revision,
	guestDefault bool) (*ent.Space, *ent.Revision, error) {
	db := r.db(ctx)
	s, err := b.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	rc := db.Revision.Create().SetSpaceID(s.ID).SetType(enum.RevisionTypeEdits).SetCreatedByID(authorID)
	if roots != nil {
		rc.SetNillablePagesRoot(roots.PagesRoot).
			SetNillableFilesRoot(roots.FilesRoot).
			SetNillableReusableContentsRoot(roots.ReusableContentsRoot).
			SetMessage("Duplicated from " + roots.SpaceID)
	}
	rev, err := rc.Save(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the first revision: %w", err)
	}
	// The space and its revision point at each other, so the space learns
	// its revision once that exists. One UPDATE, which keeps updatedAt as the
	// insert set it: UpdateOne would read the whole row back, and the row in
	// hand is the one stored but for these fields.
	u := db.Space.Update().Where(space.ID(s.ID)).SetRevisionID(rev.ID).SetUpdatedAt(s.UpdatedAt)
	if guestDefault {
		u.ClearDefaultLevel()
		s.DefaultLevel = nil
	}
	if err := u.Exec(ctx); err != nil {
		return nil, nil, fmt.Errorf("pointing the space at its first revision: %w", err)
	}
	s.RevisionID = &rev.ID
	return s, rev, nil
}

// placed records, for the answer of a creation, the organization it went
// into, the viewer's access there and the parent collection, as the
// transaction's loaders hold them already.
func (r *Resolver) placed(ctx context.Context, orgID string, parent *string) error {
	o, _, err := r.orgs.get(ctx, orgID)
	if err != nil {
		return err
	}
	r.orgs.wrote(ctx, o)
	if err := r.wroteAccess(ctx, orgID); err != nil || parent == nil {
		return err
	}
	c, _, err := r.collections.get(ctx, *parent)
	if err != nil {
		return err
	}
	r.collections.wrote(ctx, c)
	return nil
}

// wroteAccess records the viewer's access to an organization, which a
// mutation that does not change it read to decide.
func (r *Resolver) wroteAccess(ctx context.Context, orgID string) error {
	access, err := r.orgAccess(ctx, orgID)
	if err != nil {
		return err
	}
	primeAfter(ctx, (*loaders).orgAccess, orgID, access)
	return nil
}

// wroteNewSpace records a space created with its first revision: its
// counters are 0.
func (r *Resolver) wroteNewSpace(ctx context.Context, s *ent.Space, rev *ent.Revision) {
	r.spaces.wrote(ctx, s)
	primeAfter(ctx, (*loaders).spaceCounts, s.ID, spaceCounts{})
	r.revisions.wrote(ctx, rev)
}

// wroteSpaces records spaces the transaction read whole, with counters it
// did not change.
func (r *Resolver) wroteSpaces(ctx context.Context, spaces []*ent.Space) {
	r.spaces.wrote(ctx, spaces...)
	for _, s := range spaces {
		primeAfter(ctx, (*loaders).spaceCounts, s.ID, countsOf(s))
	}
}

// createSpace creates a space last among its siblings. Its cost does not
// depend on the organization's size: the place comes from one indexed
// statement, and no lock is taken (see afterLast).
func (r *Resolver) createSpace(ctx context.Context, in model.CreateSpaceInput) (*ent.Space, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Space, error) {
		pos, err := r.newPlace(ctx, in.OrganizationID, in.ParentID)
		if err != nil {
			return nil, err
		}
		if err := r.placed(ctx, in.OrganizationID, in.ParentID); err != nil {
			return nil, err
		}
		title := titleOrUntitled(in.Title)
		b := r.db(ctx).Space.Create().
			SetOrganizationID(in.OrganizationID).
			SetNillableParentID(in.ParentID).
			SetTitle(title).
			SetNillableEmoji(in.Emoji).
			SetNillableEditMode(in.EditMode).
			SetNillableLanguage(in.Language).
			SetPosition(pos)
		s, rev, err := r.newSpace(ctx, b, v.User.ID, nil, false)
		if err != nil {
			return nil, err
		}
		r.wroteNewSpace(ctx, s, rev)
		r.emit(ctx, events.Webhook(in.OrganizationID, s.ID, enum.WebhookEventTypeSpaceCreated, s.ID))
		return s, nil
	})
}

func (r *Resolver) updateSpace(ctx context.Context, in model.UpdateSpaceInput) (*ent.Space, error) {
	_, setEditMode := in.EditMode.ValueOK()
	_, setDefault := in.DefaultLevel.ValueOK()
	action := authz.UpdateDetails
	if setEditMode || setDefault || in.Visibility != nil {
		action = authz.UpdateAccess
	}
	return mutate(ctx, r, r.spaces, in.ID, action, func(ctx context.Context, cur *ent.Space, _ authz.Decision) (*ent.Space, error) {
		if err := spaceLive(cur); err != nil {
			return nil, err
		}
		if err := spaceVisibilityAllowed(cur, in.Visibility); err != nil {
			return nil, err
		}
		// From the loaded row, which tells a change from none without a
		// statement (see the TimeMixin's hook).
		u := r.db(ctx).Space.UpdateOne(cur)
		if in.Visibility != nil {
			u.SetVisibility(*in.Visibility)
		}
		if in.Title != nil {
			u.SetTitle(strings.TrimSpace(*in.Title))
		}
		if v, set := in.Emoji.ValueOK(); set {
			u.SetEmoji(deref(v))
		}
		apply(in.Icon, u.SetNillableIcon, u.ClearIcon)
		apply(in.EditMode, u.SetNillableEditMode, u.ClearEditMode)
		apply(in.DefaultLevel, u.SetNillableDefaultLevel, u.ClearDefaultLevel)
		apply(in.Language, u.SetNillableLanguage, u.ClearLanguage)
		s, err := u.Save(ctx)
		if err != nil {
			return nil, err
		}
		r.emit(ctx, events.Webhook(s.OrganizationID, s.ID, enum.WebhookEventTypeSpaceUpdated, s.ID))
		return s, nil
	})
}

// spaceVisibilityAllowed checks a visibility asked of a space, if any.
// visitor-auth needs no visitor signing key: without one the space admits
// its members only, until its admin rotates a key.
// A space moved out of its collection keeps in-collection, which then lets
// in no one beyond its members, as private does (authz.visibilityRole).
func spaceVisibilityAllowed(s *ent.Space, v *enum.Visibility) error {
	switch {
	case v == nil:
		return nil
	case *v == enum.VisibilityInCollection && s.ParentID == nil:
		return apperr.Invalid("visibility", "in-collection is only for a space in a collection")
	}
	return nil
}

// deleteSpace deletes a space softly: it stays restorable for the retention
// period, then the purge job removes it. Deleting a deleted space is a no-op.
func (r *Resolver) deleteSpace(ctx context.Context, in model.DeleteSpaceInput) error {
	return act(ctx, r, r.spaces, in.ID, authz.Delete, func(ctx context.Context, s *ent.Space, _ authz.Decision) error {
		if s.DeletedAt != nil {
			return nil
		}
		if err := r.db(ctx).Space.UpdateOne(s).SetDeletedAt(r.clock()).Exec(ctx); err != nil {
			return err
		}
		r.emit(ctx, events.Webhook(s.OrganizationID, s.ID, enum.WebhookEventTypeSpaceDeleted, s.ID))
		return nil
	})
}

// restoreSpace brings a deleted space back, last among its siblings.
func (r *Resolver) restoreSpace(ctx context.Context, in model.RestoreSpaceInput) (*ent.Space, error) {
	return mutateLocked(ctx, r, r.spaceLock(in.ID), r.spaces, in.ID, authz.Restore,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.Space, error) {
			if s.DeletedAt == nil {
				return nil, apperr.Conflictf("The space is not deleted")
			}
			pos, err := r.lastPosition(ctx, s.OrganizationID, s.ParentID, s.ID)
			if err != nil {
				return nil, err
			}
			out, err := r.db(ctx).Space.UpdateOne(s).ClearDeletedAt().SetPosition(pos).Save(ctx)
			if err != nil {
				return nil, err
			}
			r.emit(ctx, events.Webhook(s.OrganizationID, s.ID, enum.WebhookEventTypeSpaceRestored, s.ID))
			return out, nil
		})
}

// spaceLock is the placement lock of a space's organization, and of the
// other organizations given (see lockForSpace), taken before the space is
// read.
func (r *Resolver) spaceLock(spaceID string, others ...string) func(ctx context.Context) error {
	return func(ctx context.Context) error { return r.lockForSpace(ctx, spaceID, others...) }
}

// copyTitle names a duplicate, within the 50 characters of a title. A title
// cut to make room does not keep a space at its end.
func copyTitle(title string) string {
	const suffix = " (copy)"
	if room := 50 - utf8.RuneCountInString(suffix); utf8.RuneCountInString(title) > room {
		title = strings.TrimRightFunc(string([]rune(title)[:room]), unicode.IsSpace)
	}
	return title + suffix
}

// duplicateSpace copies a space and its current content next to it. The copy
// shares the content objects, which are immutable, so nothing is copied.
func (r *Resolver) duplicateSpace(ctx context.Context, in model.DuplicateSpaceInput) (*ent.Space, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return mutateLocked(ctx, r, r.spaceLock(in.ID), r.spaces, in.ID, authz.Duplicate,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.Space, error) {
			if err := spaceLive(s); err != nil {
				return nil, err
			}
			if _, err := r.destination(ctx, s.OrganizationID, s.ParentID, "parent"); err != nil {
				return nil, err
			}
			if err := r.placed(ctx, s.OrganizationID, s.ParentID); err != nil {
				return nil, err
			}
			rev, err := r.db(ctx).Revision.Get(internal(ctx, "the revision of a space the viewer reads"), deref(s.RevisionID))
			if err != nil {
				return nil, fmt.Errorf("loading the space's revision: %w", err)
			}
			sibs, err := r.siblings(ctx, s.OrganizationID, s.ParentID, "")
			if err != nil {
				return nil, err
			}
			pos, err := r.place(ctx, sibs, position.Current(sibs, s.ID, s.Position))
			if err != nil {
				return nil, err
			}
			b := r.db(ctx).Space.Create().
				SetOrganizationID(s.OrganizationID).
				SetNillableParentID(s.ParentID).
				SetTitle(copyTitle(s.Title)).
				SetEmoji(s.Emoji).
				SetNillableIcon(s.Icon).
				SetVisibility(s.Visibility).
				SetNillableEditMode(s.EditMode).
				SetNillableDefaultLevel(s.DefaultLevel).
				SetNillableLanguage(s.Language).
				SetPosition(pos)
			cp, cpRev, err := r.newSpace(ctx, b, v.User.ID, rev, s.DefaultLevel == nil)
			if err != nil {
				return nil, err
			}
			r.wroteNewSpace(ctx, cp, cpRev)
			// The copy has the same content, so it is found by the same words.
			return cp, r.search.Copy(ctx, r.db(ctx).Driver(), s.ID, cp.ID, s.OrganizationID)
		})
}

func (r *Resolver) moveSpace(ctx context.Context, in model.MoveSpaceInput) (*ent.Space, error) {
	return mutateLocked(ctx, r, r.spaceLock(in.ID), r.spaces, in.ID, authz.Move,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.Space, error) {
			if err := spaceLive(s); err != nil {
				return nil, err
			}
			parent := movedParent(s.ParentID, in.ParentID)
			if _, err := r.destination(ctx, s.OrganizationID, parent, "parent"); err != nil {
				return nil, err
			}
			pos, err := r.reposition(ctx, s.OrganizationID, s.ID, s.ParentID, s.Position, parent, in.Position)
			if err != nil {
				return nil, err
			}
			u := r.db(ctx).Space.UpdateOne(s).SetPosition(pos)
			if parent == nil {
				u.ClearParentID()
			} else {
				u.SetParentID(*parent)
			}
			return u.Save(ctx)
		})
}

// transferSpace moves a space to another organization.
func (r *Resolver) transferSpace(ctx context.Context, in model.TransferSpaceInput) (*ent.Space, error) {
	return mutateLocked(ctx, r, r.spaceLock(in.ID, in.OrganizationID), r.spaces, in.ID, authz.Transfer,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.Space, error) {
			if s.DeletedAt != nil {
				return nil, apperr.Preconditionf("A deleted space cannot be transferred; restore it first")
			}
			if in.OrganizationID == s.OrganizationID {
				return nil, apperr.Conflictf("The space already belongs to this organization")
			}
			if _, _, err := r.orgs.get(ctx, in.OrganizationID); err != nil {
				if apperr.KindOf(err) != apperr.NotFound {
					return nil, err
				}
				return nil, apperr.Invalid("organization", "the organization %q was not found", in.OrganizationID)
			}
			if _, err := r.destination(ctx, in.OrganizationID, in.ParentID, "parent"); err != nil {
				return nil, err
			}
			if err := r.detachSpaces(ctx, []string{s.ID}); err != nil {
				return nil, err
			}
			pos, err := r.lastPosition(ctx, in.OrganizationID, in.ParentID, s.ID)
			if err != nil {
				return nil, err
			}
			u := r.db(ctx).Space.UpdateOne(s).SetOrganizationID(in.OrganizationID).SetPosition(pos)
			if in.ParentID == nil {
				u.ClearParentID()
			} else {
				u.SetParentID(*in.ParentID)
			}
			out, err := u.Save(ctx)
			if err != nil {
				return nil, err
			}
			return out, r.search.Move(ctx, r.db(ctx).Driver(), s.ID, in.OrganizationID)
		})
}

// detachSpaces removes what ties spaces to their organization before they
// leave it: explicit grants, which name its members and teams, links into
// its sites, and its integrations' installations.
func (r *Resolver) detachSpaces(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	db := r.db(ctx)
	if err := r.detachFromSites(ctx, ids); err != nil {
		return err
	}
	if _, err := db.ContentGrant.Delete().Where(contentgrant.SpaceIDIn(ids...)).Exec(ctx); err != nil {
		return fmt.Errorf("removing grants: %w", err)
	}
	installs, err := db.IntegrationInstallation.Query().
		Where(integrationinstallation.HasSpacesWith(space.IDIn(ids...))).
		All(internal(ctx, "installations of spaces the viewer administers"))
	if err != nil {
		return err
	}
	for _, in := range installs {
		if err := db.IntegrationInstallation.UpdateOne(in).RemoveSpaceIDs(ids...).Exec(ctx); err != nil {
			return fmt.Errorf("removing installations: %w", err)
		}
	}
	return nil
}

// detachFromSites removes the site-spaces of spaces that leave their
// organization, under the lock of their sites, and gives each parent that
// lost its default a new one (see package sitestruct).
func (r *Resolver) detachFromSites(ctx context.Context, ids []string) error {
	if err := r.lockSite(ctx, site.HasSiteSpacesWith(sitespace.SpaceIDIn(ids...))); err != nil {
		return err
	}
	return sitestruct.Detach(internal(ctx, "the site-spaces of spaces that leave their organization"), r.db(ctx), ids)
}

func (r *Resolver) spaceURLs(s *ent.Space) *model.SpaceURLs {
	return &model.SpaceURLs{
		Location: r.cfg.PublicURL + "/v1/spaces/" + s.ID,
		App:      r.cfg.AppURL + "/s/" + s.ID,
		Icon:     s.Icon,
	}
}

func (r *Resolver) spacePermissions(ctx context.Context, s *ent.Space) (*authz.SpacePermissions, error) {
	d, err := r.spaceDecision(ctx, s)
	if err != nil {
		return nil, err
	}
	p := authz.ForSpace(d)
	return &p, nil
}

func (r *Resolver) spaceCounts(ctx context.Context, s *ent.Space) (spaceCounts, error) {
	if hidden, err := r.changesHidden(ctx, s.ID); hidden || err != nil {
		return spaceCounts{}, err
	}
	return load(ctx, loadersFrom(ctx).spaceCounts(), s.ID)
}

// primeSpaces loads, for a page of spaces, what its items will ask for: their
// current revisions and parent collections, each in one batch (their
// counters come with their rows), and
// primes the request's loaders with them. Loader batches alone are not
// enough: a batch holds the keys that arrive within its short wait, so a long
// page, or a busy machine, splits into batches and the cost grows with the
// page. Primed, a page costs the same statements whatever its length.
//
// /v1 presents every space whole; GraphQL loads only what its items select.
func (r *Resolver) primeSpaces(ctx context.Context, spaces []*ent.Space) error {
	if len(spaces) == 0 {
		return nil
	}
	spaceLoader, revLoader, colLoader := r.spaces.loader(ctx), r.revisions.loader(ctx), r.collections.loader(ctx)
	revisions, parents := spaceListNeeds(ctx)
	var revIDs, parentIDs []string
	seen := map[string]bool{}
	for _, s := range spaces {
		spaceLoader.Prime(ctx, s.ID, s)
		if s.RevisionID != nil {
			revIDs = append(revIDs, *s.RevisionID)
		}
		if s.ParentID != nil && !seen[*s.ParentID] {
			seen[*s.ParentID] = true
			parentIDs = append(parentIDs, *s.ParentID)
		}
	}
	if err := r.primeSpaceChangeRequests(ctx, spaces); err != nil {
		return err
	}
	// Primed rows are decided when they are read, as with the loaders.
	ctx = internal(ctx, "priming the loaders of a listed page")
	db := r.db(ctx)
	primeCounts(ctx, spaces) // columns of their rows
	if revisions && len(revIDs) > 0 {
		revs, err := db.Revision.Query().Where(revision.IDIn(revIDs...)).All(ctx)
		if err != nil {
			return fmt.Errorf("loading revisions: %w", err)
		}
		for _, rev := range revs {
			revLoader.Prime(ctx, rev.ID, rev)
		}
	}
	if parents && len(parentIDs) > 0 {
		cols, err := db.Collection.Query().Where(collection.IDIn(parentIDs...)).All(ctx)
		if err != nil {
			return fmt.Errorf("loading parent collections: %w", err)
		}
		for _, c := range cols {
			colLoader.Prime(ctx, c.ID, c)
		}
	}
	return nil
}

// spaceListNeeds reports what the items of a list of spaces need loaded: in
// GraphQL, what the list's nodes or edges select; in /v1, which presents every
// space whole, nothing (it names revisions and parents by ID, see
// VisibleRevisionID).
func spaceListNeeds(ctx context.Context) (revisions, parents bool) {
	sel, ok := itemSelection(ctx, "SpaceConnection", "SpaceEdge", "Space")
	if !ok {
		return false, false
	}
	return sel["revision"], sel["parent"]
}

// itemSelection returns the fields a GraphQL connection's items select,
// through nodes or edges; ok is false outside GraphQL (in /v1), where items
// are presented whole.
func itemSelection(ctx context.Context, connection, edge, item string) (fields map[string]bool, ok bool) {
	collected, ok := itemFields(ctx, connection, edge, item)
	if !ok {
		return nil, false
	}
	fields = map[string]bool{}
	for _, f := range collected {
		fields[f.Name] = true
	}
	return fields, true
}
