package graph

import (
	"context"
	"errors"

	"golang.org/x/sync/errgroup"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/id"
)

// maxNodes bounds nodes(ids:).
const maxNodes = 100

// node resolves any ID the viewer can see. The type comes from the ID's
// prefix, which names the type's policy, so the lookup touches one table; an
// ID the viewer cannot see resolves to null, exactly like an unknown one.
func (r *Resolver) node(ctx context.Context, nodeID string) (ent.Noder, error) {
	p := r.policyOf(id.PrefixOf(nodeID))
	if p == nil {
		return nil, nil
	}
	n, err := p.node(ctx, nodeID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	return n, err
}

// policyOf returns the policy of the type an ID prefix names, or nil.
func (r *Resolver) policyOf(prefix string) anyPolicy {
	for _, p := range r.policies {
		if p.idPrefix() == prefix {
			return p
		}
	}
	return nil
}

func (r *Resolver) nodes(ctx context.Context, ids []string) ([]ent.Noder, error) {
	if len(ids) > maxNodes {
		return nil, apperr.Invalid("ids", "at most %d IDs may be asked at once", maxNodes)
	}
	// Each type's rows load in one batch first; then the IDs resolve at
	// once, as sibling fields do, so that what deciding about them loads
	// shares batches too: the cost does not grow with the number of IDs.
	byType := map[anyPolicy][]string{}
	for _, nid := range ids {
		if p := r.policyOf(id.PrefixOf(nid)); p != nil {
			byType[p] = append(byType[p], nid)
		}
	}
	for p, ids := range byType {
		p.prefetch(ctx, ids)
	}
	out := make([]ent.Noder, len(ids))
	var g errgroup.Group
	for i, nid := range ids {
		g.Go(func() (err error) {
			out[i], err = r.node(ctx, nid)
			return err
		})
	}
	return out, g.Wait()
}

func (r *Resolver) revisionParents(ctx context.Context, rev *ent.Revision) ([]*ent.Revision, error) {
	if !loadersFrom(ctx).spacePublished(rev.SpaceID) {
		// Whoever sees a revision sees its parents, in the same space,
		// unless only a site publishes the space to them.
		parents, errs := loadMany(ctx, r.revisions.loader(ctx), rev.Parents)
		return parents, errors.Join(errs...)
	}
	r.revisions.prefetch(ctx, rev.Parents)
	parents := make([]*ent.Revision, 0, len(rev.Parents))
	for _, id := range rev.Parents {
		// Parents are in the revision's space, but not every reader of a
		// revision reads its parents (see revisionDecision).
		p, err := r.revisions.visible(ctx, &id)
		if err != nil {
			return nil, err
		}
		if p != nil {
			parents = append(parents, p)
		}
	}
	return parents, nil
}

// visibleOrganization resolves a relation to an organization: null when the
// viewer cannot see it.
func (r *Resolver) visibleOrganization(ctx context.Context, orgID string) (*ent.Organization, error) {
	return r.orgs.visible(ctx, &orgID)
}

// visibleCollection resolves a relation to a collection: null when there is
// none or the viewer cannot see it.
func (r *Resolver) visibleCollection(ctx context.Context, colID *string) (*ent.Collection, error) {
	return r.collections.visible(ctx, colID)
}

// The relations of an object as /v1 presents them: by ID, under the rule of
// the resolvers above, decided without loading the related row when the
// decision needs none. Each answers "" where its resolver answers null.

// VisibleOrganizationID is the ID of visibleOrganization.
func (r *Resolver) VisibleOrganizationID(ctx context.Context, orgID string) (string, error) {
	d, err := r.organizationDecision(ctx, orgID)
	if err != nil || !d.Visible() {
		return "", err
	}
	return orgID, nil
}

// VisibleCollectionID is the ID of visibleCollection, for a collection of
// the organization.
func (r *Resolver) VisibleCollectionID(ctx context.Context, orgID string, colID *string) (string, error) {
	if colID == nil {
		return "", nil
	}
	o, err := r.orgAccess(ctx, orgID)
	if err != nil || !o.Collection(*colID).Visible() {
		return "", err
	}
	return *colID, nil
}

// VisibleRevisionID is the ID of a relation to a revision of the space:
// whoever sees the space sees its revisions, a published site's reader
// only its current one (see revisionDecision).
func (r *Resolver) VisibleRevisionID(ctx context.Context, spaceID string, revID *string) (string, error) {
	if revID == nil {
		return "", nil
	}
	s, d, err := r.spaces.get(ctx, spaceID)
	if apperr.KindOf(err) == apperr.NotFound || err == nil && !revisionVisible(s, d, *revID) {
		return "", nil
	}
	return *revID, err
}
