package graph

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/sharelink"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/ent/teammember"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
)

// viewerFacts is what authorization needs to know about the viewer across
// organizations. It is loaded once per request (and once per transaction).
type viewerFacts struct {
	user        *ent.User
	memberships map[string]*ent.Member // by organization ID
	grants      map[string]enum.Role   // by collection or space ID
}

// viewerFacts returns the viewer and their memberships and grants.
func (r *Resolver) viewerFacts(ctx context.Context) (*viewerFacts, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	l := loadersFrom(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.facts != nil {
		return l.facts, nil
	}
	db := r.db(ctx)
	ctx = internal(ctx, "the viewer's own memberships and grants")
	f := &viewerFacts{user: v.User, memberships: map[string]*ent.Member{}, grants: map[string]enum.Role{}}
	members, err := db.Member.Query().Where(member.UserID(v.User.ID), member.Disabled(false)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading memberships: %w", err)
	}
	for _, m := range members {
		f.memberships[m.OrganizationID] = m
	}
	teamIDs, err := db.TeamMember.Query().Where(teammember.UserID(v.User.ID)).
		Select(teammember.FieldTeamID).Strings(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading teams: %w", err)
	}
	grants, err := db.ContentGrant.Query().
		Where(contentgrant.Or(contentgrant.UserID(v.User.ID), contentgrant.TeamIDIn(teamIDs...))).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading grants: %w", err)
	}
	for _, g := range grants {
		target := g.CollectionID
		if target == nil {
			target = g.SpaceID
		}
		if target != nil {
			f.grants[*target] = enum.MaxRole(f.grants[*target], g.Role)
		}
	}
	l.facts = f
	return f, nil
}

// membership returns the viewer's membership of an organization in the form
// authorization takes.
func (f *viewerFacts) membership(orgID string) authz.Membership {
	m, ok := f.memberships[orgID]
	if !ok {
		return authz.Membership{}
	}
	ms := authz.Membership{Member: true}
	if m.Role != nil {
		ms.Role = *m.Role
	}
	return ms
}

// loadOrgAccess builds the authorization view of organizations for the
// viewer: one query for all their collections.
func (r *Resolver) loadOrgAccess(ctx context.Context, orgIDs []string) (map[string]*authz.Org, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*authz.Org, len(orgIDs))
	for _, id := range orgIDs {
		out[id] = &authz.Org{Membership: f.membership(id), Collections: map[string]authz.Collection{}, Grants: f.grants}
	}
	// The whole rows, so that the collection loader is primed with them:
	// the parent of any listed space or collection then costs nothing more.
	cols, err := r.db(ctx).Collection.Query().Where(collection.OrganizationIDIn(orgIDs...)).
		All(store.ScopedRead(ctx))
	if err != nil {
		return nil, fmt.Errorf("loading collections: %w", err)
	}
	colLoader := r.collections.loader(ctx)
	for _, c := range cols {
		out[c.OrganizationID].Collections[c.ID] = authz.Collection{ID: c.ID, Parent: deref(c.ParentID), Default: c.DefaultLevel}
		colLoader.Prime(ctx, c.ID, c)
	}
	ctx = internal(ctx, "what authorization decides from")
	// A stranger sees an organization when they can see some of its content;
	// without a share key, that is a public or unlisted space.
	var strangers []string
	for _, id := range orgIDs {
		if !out[id].Membership.Member {
			strangers = append(strangers, id)
		}
	}
	if len(strangers) > 0 {
		open, err := r.db(ctx).Space.Query().
			Where(space.OrganizationIDIn(strangers...), live(),
				space.VisibilityIn(enum.VisibilityPublic, enum.VisibilityUnlisted)).
			Unique(true).Select(space.FieldOrganizationID).Strings(ctx)
		if err != nil {
			return nil, fmt.Errorf("loading public content: %w", err)
		}
		for _, id := range open {
			out[id].SeesContent = true
		}
	}
	return out, nil
}

// orgAccess returns the authorization view of one organization.
func (r *Resolver) orgAccess(ctx context.Context, orgID string) (*authz.Org, error) {
	return load(ctx, loadersFrom(ctx).orgAccess, orgID)
}

// organizationDecision decides about an organization. A stranger who opened
// one of its share-link spaces with its key sees it too.
func (r *Resolver) organizationDecision(ctx context.Context, orgID string) (authz.Decision, error) {
	o, err := r.orgAccess(ctx, orgID)
	if err != nil {
		return authz.Decision{}, err
	}
	d := o.Organization()
	if !d.Visible() && loadersFrom(ctx).orgOpened(orgID) {
		d.Observer = true
	}
	return d, nil
}

func (r *Resolver) collectionDecision(ctx context.Context, c *ent.Collection) (authz.Decision, error) {
	o, err := r.orgAccess(ctx, c.OrganizationID)
	if err != nil {
		return authz.Decision{}, err
	}
	return o.Collection(c.ID), nil
}

// spaceDecision decides about a space. A deleted space is visible only to
// those who may restore it, and only during the retention period.
func (r *Resolver) spaceDecision(ctx context.Context, s *ent.Space) (authz.Decision, error) {
	if s.DeletedAt != nil && !s.DeletedAt.After(r.clock().Add(-SpaceRetention)) {
		return authz.Decision{}, nil
	}
	o, err := r.orgAccess(ctx, s.OrganizationID)
	if err != nil {
		return authz.Decision{}, err
	}
	shareKey, err := r.shareKeyValid(ctx, s)
	if err != nil {
		return authz.Decision{}, err
	}
	d := o.Space(authzSpace(s), shareKey)
	if s.DeletedAt != nil && !authz.Spaces.Allows(d, authz.Restore, false) {
		return authz.Decision{}, nil
	}
	return d, nil
}

func authzSpace(s *ent.Space) authz.Space {
	return authz.Space{ID: s.ID, Parent: deref(s.ParentID), Default: s.DefaultLevel, Visibility: s.Visibility}
}

// shareKeyValid reports whether the request presented a valid share key for a
// share-link space: an active share link of the space, or of a site that
// publishes it.
func (r *Resolver) shareKeyValid(ctx context.Context, s *ent.Space) (bool, error) {
	key := loadersFrom(ctx).shareKey(s.ID)
	if key == "" || s.Visibility != enum.VisibilityShareLink {
		return false, nil
	}
	ok, err := r.db(ctx).ShareLink.Query().Where(
		sharelink.Key(key), sharelink.Active(true),
		sharelink.Or(
			sharelink.SpaceID(s.ID),
			sharelink.HasSiteWith(site.HasSiteSpacesWith(sitespace.SpaceID(s.ID))),
		),
	).Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("checking share key: %w", err)
	}
	if ok {
		loadersFrom(ctx).openOrg(s.OrganizationID)
	}
	return ok, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
