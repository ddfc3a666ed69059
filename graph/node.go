package graph

import (
	"context"
	"errors"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/id"
)

// maxNodes bounds nodes(ids:).
const maxNodes = 100

// node resolves any ID the viewer can see. The type comes from the ID's
// prefix, so the lookup touches one table; an ID the viewer cannot see
// resolves to null, exactly like an unknown one.
func (r *Resolver) node(ctx context.Context, nodeID string) (ent.Noder, error) {
	var (
		n   ent.Noder
		err error
	)
	switch id.PrefixOf(nodeID) {
	case id.User:
		n, err = r.user(ctx, nodeID)
	case id.Organization:
		n, _, err = r.organization(ctx, nodeID)
	case id.Collection:
		n, _, err = r.collection(ctx, nodeID)
	case id.Space:
		n, _, err = r.space(ctx, nodeID)
	case id.Revision:
		n, err = r.revision(ctx, nodeID)
	case id.ChangeRequest:
		n, _, _, err = r.changeRequest(ctx, nodeID)
	case id.APIToken:
		n, err = r.ownToken(ctx, nodeID)
	default:
		return nil, nil
	}
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, nil
		}
		return nil, err
	}
	return n, nil
}

func (r *Resolver) nodes(ctx context.Context, ids []string) ([]ent.Noder, error) {
	if len(ids) > maxNodes {
		return nil, apperr.Invalid("ids", "at most %d IDs may be asked at once", maxNodes)
	}
	out := make([]ent.Noder, len(ids))
	for i, nid := range ids {
		n, err := r.node(ctx, nid)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// revision returns a revision of a space the viewer can see.
func (r *Resolver) revision(ctx context.Context, revID string) (*ent.Revision, error) {
	rev, err := load(ctx, loadersFrom(ctx).revisions, revID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("Revision not found")
	}
	if err != nil {
		return nil, err
	}
	if _, _, err := r.space(ctx, rev.SpaceID); err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.NotFoundf("Revision not found")
		}
		return nil, err
	}
	return rev, nil
}

func (r *Resolver) revisionParents(ctx context.Context, rev *ent.Revision) ([]*ent.Revision, error) {
	thunk := loadersFrom(ctx).revisions.LoadMany(ctx, rev.Parents)
	parents, errs := thunk()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return parents, nil
}

// ownToken returns one of the viewer's API tokens.
func (r *Resolver) ownToken(ctx context.Context, tokenID string) (*ent.APIToken, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	t, err := r.db(ctx).APIToken.Query().Where(apitoken.ID(tokenID), apitoken.UserID(v.User.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("API token not found")
	}
	return t, err
}

// visibleOrganization resolves a relation to an organization: null when the
// viewer cannot see it.
func (r *Resolver) visibleOrganization(ctx context.Context, orgID string) (*ent.Organization, error) {
	o, _, err := r.organization(ctx, orgID)
	return hideNotFound(o, err)
}

// visibleCollection resolves a relation to a collection: null when there is
// none or the viewer cannot see it.
func (r *Resolver) visibleCollection(ctx context.Context, colID *string) (*ent.Collection, error) {
	if colID == nil {
		return nil, nil
	}
	c, _, err := r.collection(ctx, *colID)
	return hideNotFound(c, err)
}

func hideNotFound[T any](v *T, err error) (*T, error) {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.NotFound {
		return nil, nil
	}
	return v, err
}
