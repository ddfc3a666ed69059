package graph

import (
	"context"
	"net/url"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/openapispec"
	"github.com/bindery/bindery/ent/openapispecversion"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// OpenAPI specs: an organization's OpenAPI documents, from a URL or a text.
// A create or a new source records the source and answers at once with
// processingState pending; the worker (internal/openapi/worker) fetches,
// parses and validates it in the background, and stores a version when the
// document changed.

// specsByCreation orders lists of specs, oldest first.
var specsByCreation = page.Order[*ent.OpenAPISpec, predicate.OpenAPISpec, openapispec.OrderOption]{
	Name: "openapi-specs", Column: openapispec.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(s *ent.OpenAPISpec) any { return s.CreatedAt }, ID: func(s *ent.OpenAPISpec) string { return s.ID },
}

// specVersionsByCreation orders a spec's versions, newest first.
var specVersionsByCreation = page.Order[*ent.OpenAPISpecVersion, predicate.OpenAPISpecVersion, openapispecversion.OrderOption]{
	Name: "openapi-spec-versions", Column: openapispecversion.FieldCreatedAt, KeyType: page.KeyTime, Desc: true,
	Key: func(v *ent.OpenAPISpecVersion) any { return v.CreatedAt }, ID: func(v *ent.OpenAPISpecVersion) string { return v.ID },
}

// specSource is a checked source: a URL or a text.
type specSource struct {
	url, text *string
}

// checkSpecSource checks that a source is exactly one of a URL and a text;
// the limits of each are its column's ent validator's
// (validate.OpenAPISourceURL, validate.OpenAPISourceText).
func checkSpecSource(in *model.OpenAPISpecSourceInput) (specSource, error) {
	switch {
	case in == nil || (in.URL == nil && in.Text == nil):
		return specSource{}, apperr.Invalid("source", "must have a url or a text")
	case in.URL != nil && in.Text != nil:
		return specSource{}, apperr.Invalid("source", "must have a url or a text, not both")
	}
	return specSource{url: in.URL, text: in.Text}, nil
}

// organizationOpenAPISpecs lists an organization's specs, for its members
// with a role.
func (r *Resolver) organizationOpenAPISpecs(ctx context.Context, o *ent.Organization, a page.Args) (*model.OpenAPISpecConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ReadSettings); err != nil {
		return nil, err
	}
	q := r.db(ctx).OpenAPISpec.Query().Where(openapispec.OrganizationID(o.ID))
	conn, err := page.Paginate(within(ctx), q, specsByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.openAPISpecs.loader(ctx)
	var versions []string
	for _, s := range conn.Nodes() {
		l.Prime(ctx, s.ID, s)
		if s.LastVersionID != nil {
			versions = append(versions, *s.LastVersionID)
		}
	}
	r.specVersions.prefetch(ctx, versions)
	return model.NewOpenAPISpecConnection(conn), nil
}

// specIDBySlug returns the ID of the organization's spec of a slug, or ""
// when there is none. It shows nothing by itself: the caller decides
// about the spec through its policy.
func (r *Resolver) specIDBySlug(ctx context.Context, orgID, slug string) (string, error) {
	ids, err := r.db(ctx).OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).
		IDs(internal(ctx, "the ID of an OpenAPI spec by its slug, decided by its policy next"))
	if err != nil || len(ids) == 0 {
		return "", err
	}
	return ids[0], nil
}

// openAPISpecBySlug loads an organization's spec by slug: not found, as
// for a slug without a spec, when the viewer cannot see it.
func (r *Resolver) openAPISpecBySlug(ctx context.Context, o *ent.Organization, slug string, a authz.Action) (*ent.OpenAPISpec, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.View); err != nil {
		return nil, err
	}
	id, err := r.specIDBySlug(ctx, o.ID, slug)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, r.openAPISpecs.notFound()
	}
	s, _, err := r.openAPISpecs.authorize(ctx, id, a)
	return s, err
}

// specChanged wakes this server's worker once the transaction commits, so
// that a new source is processed without waiting for the next poll; any
// other replica's worker may take it as well.
func (r *Resolver) specChanged(ctx context.Context) {
	if r.wakeSpecWorker != nil {
		r.afterCommit(ctx, r.wakeSpecWorker)
	}
}

// newSpec creates a spec of the organization; the caller has authorized.
func (r *Resolver) newSpec(ctx context.Context, orgID, slug string, src specSource) (*ent.OpenAPISpec, error) {
	if id, err := r.specIDBySlug(ctx, orgID, slug); err != nil {
		return nil, err
	} else if id != "" {
		return nil, apperr.Conflictf("The organization already has an OpenAPI spec with the slug %q", slug)
	}
	s, err := r.db(ctx).OpenAPISpec.Create().SetOrganizationID(orgID).SetSlug(slug).
		SetNillableSourceURL(src.url).SetNillableSourceText(src.text).Save(ctx)
	if err != nil {
		return nil, err
	}
	r.specChanged(ctx)
	return s, nil
}

// resetSpec gives a spec a new source, to be processed again: any claim on
// it is dropped, so a worker processing the old source cannot store it.
func (r *Resolver) resetSpec(ctx context.Context, s *ent.OpenAPISpec, src specSource) (*ent.OpenAPISpec, error) {
	u := s.Update().SetProcessingState(enum.OpenAPISpecProcessingStatePending).SetProgress(0).
		ClearClaimedBy().ClearClaimedUntil().ClearNextFetchAt()
	if src.url != nil {
		u.SetSourceURL(*src.url).ClearSourceText()
	} else {
		u.SetSourceText(*src.text).ClearSourceURL()
	}
	s, err := u.Save(ctx)
	if err != nil {
		return nil, err
	}
	r.specChanged(ctx)
	return s, nil
}

func (r *Resolver) createOpenAPISpec(ctx context.Context, in model.CreateOpenAPISpecInput) (*ent.OpenAPISpec, error) {
	src, err := checkSpecSource(in.Source)
	if err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.CreateOpenAPI,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*ent.OpenAPISpec, error) {
			return r.newSpec(ctx, o.ID, in.Slug, src)
		})
}

// putOpenAPISpec creates the spec of a slug, or gives the existing one a
// new source; created says which.
func (r *Resolver) putOpenAPISpec(ctx context.Context, in model.PutOpenAPISpecInput) (s *ent.OpenAPISpec, created bool, err error) {
	src, err := checkSpecSource(in.Source)
	if err != nil {
		return nil, false, err
	}
	type put struct {
		spec    *ent.OpenAPISpec
		created bool
	}
	out, err := mutate(ctx, r, r.orgs, in.OrganizationID, authz.ReadSettings,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (put, error) {
			id, err := r.specIDBySlug(ctx, o.ID, in.Slug)
			if err != nil {
				return put{}, err
			}
			if id == "" {
				if _, _, err := r.orgs.authorize(ctx, o.ID, authz.CreateOpenAPI); err != nil {
					return put{}, err
				}
				s, err := r.newSpec(ctx, o.ID, in.Slug, src)
				return put{s, true}, err
			}
			s, _, err := r.openAPISpecs.authorize(ctx, id, authz.Update)
			if err != nil {
				return put{}, err
			}
			s, err = r.resetSpec(ctx, s, src)
			return put{s, false}, err
		})
	return out.spec, out.created, err
}

func (r *Resolver) updateOpenAPISpec(ctx context.Context, in model.UpdateOpenAPISpecInput) (*ent.OpenAPISpec, error) {
	src, err := checkSpecSource(in.Source)
	if err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.openAPISpecs, in.ID, authz.Update, func(ctx context.Context, s *ent.OpenAPISpec, _ authz.Decision) (*ent.OpenAPISpec, error) {
		return r.resetSpec(ctx, s, src)
	})
}

func (r *Resolver) deleteOpenAPISpec(ctx context.Context, in model.DeleteOpenAPISpecInput) error {
	return act(ctx, r, r.openAPISpecs, in.ID, authz.Delete, func(ctx context.Context, s *ent.OpenAPISpec, _ authz.Decision) error {
		return r.db(ctx).OpenAPISpec.DeleteOne(s).Exec(ctx)
	})
}

// specVersions lists a spec's versions, newest first.
func (r *Resolver) specVersionList(ctx context.Context, s *ent.OpenAPISpec, a page.Args) (*model.OpenAPISpecVersionConnection, error) {
	q := r.db(ctx).OpenAPISpecVersion.Query().Where(openapispecversion.SpecID(s.ID))
	conn, err := page.Paginate(within(ctx), q, specVersionsByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.specVersions.loader(ctx)
	for _, v := range conn.Nodes() {
		l.Prime(ctx, v.ID, v)
	}
	return model.NewOpenAPISpecVersionConnection(conn), nil
}

func (r *Resolver) openAPISpecPermissions(ctx context.Context, s *ent.OpenAPISpec) (*authz.EditPermissions, error) {
	d, err := r.membersWithARole(ctx, s.OrganizationID)
	if err != nil {
		return nil, err
	}
	p := authz.ForEdit(authz.OpenAPISpecs, d)
	return &p, nil
}

func (r *Resolver) openAPISpecURLs(s *ent.OpenAPISpec) *model.OpenAPISpecURLs {
	slug := url.PathEscape(s.Slug)
	return &model.OpenAPISpecURLs{Location: r.cfg.PublicURL + "/v1/orgs/" + s.OrganizationID + "/openapi/" + slug,
		App: r.cfg.AppURL + "/o/" + s.OrganizationID + "/openapi/" + slug}
}
