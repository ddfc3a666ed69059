package graph

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/store"
)

// policy states, for one resource type, everything authorization needs, in
// one place: how to load it by ID (as not found when the viewer cannot see
// it), the decision, the rules of its actions (an authz.Table), its owner
// where it has one, and the scope its lists apply. Resolvers call get,
// authorize and require with an action; nothing else decides.
//
// A policy is also the resource's declaration: its per-request loader (and
// that loader's clearing) and its node(id:) lookup come from it, so a new
// resource type is one policy in Resolver.policies.
type policy[T ent.Noder, P ~func(*sql.Selector)] struct {
	// typeName is the GraphQL type, which is also the ent type.
	typeName string
	prefix   string
	table    authz.Table
	fetch    func(ctx context.Context, db *ent.Client, ids []string) ([]T, error)
	idOf     func(T) string
	// decide returns the viewer's access; a decision that is not visible
	// hides the resource.
	decide func(ctx context.Context, v T) (authz.Decision, error)
	// owner returns the ID of the user who owns a resource; nil when the
	// type has no owner.
	owner func(T) *string
	// scope restricts a list of the type, inside an organization, to what
	// the viewer can see; nil when lists of the type are scoped by their
	// parent, which is authorized first.
	scope func(o *authz.Org) P
	// orgOf returns the organization a resource belongs to, for the types
	// an organization's path names (see inOrganization); nil for others.
	orgOf func(T) string
}

// anyPolicy is what every policy offers, whatever its type.
type anyPolicy interface {
	name() string
	idPrefix() string
	rules() authz.Table
	// newLoader returns the type's per-request loader, registered with the
	// request's loaders.
	newLoader(r *Resolver, l *loaders) any
	node(ctx context.Context, id string) (ent.Noder, error)
	// prefetch loads rows of the type in one batch, without deciding.
	prefetch(ctx context.Context, ids []string)
}

func (p *policy[T, P]) name() string       { return p.typeName }
func (p *policy[T, P]) idPrefix() string   { return p.prefix }
func (p *policy[T, P]) rules() authz.Table { return p.table }

func (p *policy[T, P]) newLoader(r *Resolver, l *loaders) any {
	return newLoader(l, func(ctx context.Context, ids []string) ([]T, error) {
		// Every row read here is decided before it is shown (see get).
		return p.fetch(store.ScopedRead(ctx), r.db(ctx), ids)
	}, p.idOf)
}

func (p *policy[T, P]) node(ctx context.Context, id string) (ent.Noder, error) {
	v, _, err := p.get(ctx, id)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (p *policy[T, P]) prefetch(ctx context.Context, ids []string) {
	_, _ = loadMany(ctx, p.loader(ctx), ids)
}

// loader returns the request's loader of the type.
func (p *policy[T, P]) loader(ctx context.Context) *batchLoader[T] {
	return loadersFrom(ctx).entity(p).(*batchLoader[T])
}

// notFound is the error of an ID the viewer cannot see, the same as for one
// that does not exist.
func (p *policy[T, P]) notFound() error {
	return apperr.NotFoundf("%s not found", strings.ToUpper(p.table.Name[:1])+p.table.Name[1:])
}

// inOrganization loads a resource of an organization with the action, for
// a path or field that names both: one of another organization is not
// found, as if it did not exist.
func (p *policy[T, P]) inOrganization(ctx context.Context, orgID, id string, a authz.Action) (T, error) {
	x, _, err := p.authorize(ctx, id, a)
	if err == nil && p.orgOf(x) != orgID {
		err = p.notFound()
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return x, nil
}

// get loads a resource the viewer can see, with the decision about it.
func (p *policy[T, P]) get(ctx context.Context, id string) (T, authz.Decision, error) {
	var zero T
	v, err := load(ctx, p.loader(ctx), id)
	if ent.IsNotFound(err) {
		return zero, authz.Decision{}, p.notFound()
	}
	if err != nil {
		return zero, authz.Decision{}, err
	}
	d, err := p.decide(ctx, v)
	if err != nil {
		return zero, d, err
	}
	if !d.Visible() {
		return zero, d, p.notFound()
	}
	return v, d, nil
}

// authorize loads a resource and requires the action on it.
func (p *policy[T, P]) authorize(ctx context.Context, id string, a authz.Action) (T, authz.Decision, error) {
	v, d, err := p.get(ctx, id)
	if err != nil {
		return v, d, err
	}
	return v, d, p.require(ctx, v, d, a)
}

// require checks an action on a resource the viewer sees: PermissionDenied
// names the role it needs.
func (p *policy[T, P]) require(ctx context.Context, v T, d authz.Decision, a authz.Action) error {
	owner := false
	if p.owner != nil {
		if o := p.owner(v); o != nil {
			viewer, err := auth.RequireViewer(ctx)
			if err != nil {
				return err
			}
			owner = *o == viewer.User.ID
		}
	}
	if p.table.Allows(d, a, owner) {
		return nil
	}
	rule := p.table.Rules[a]
	doc, _, _ := strings.Cut(rule.Doc, " (") // the docs' notes are not for the message
	return apperr.Forbidden("You need the %s role on this %s to %s", rule.Min, p.table.Name,
		strings.ToLower(doc[:1])+doc[1:])
}

// visible resolves a relation to a resource: nil when there is none or the
// viewer cannot see it. Both APIs show such a relation the same way: GraphQL
// as null, /v1 by leaving the member out.
func (p *policy[T, P]) visible(ctx context.Context, id *string) (T, error) {
	var zero T
	if id == nil {
		return zero, nil
	}
	v, _, err := p.get(ctx, *id)
	if apperr.KindOf(err) == apperr.NotFound {
		return zero, nil
	}
	return v, err
}

// scoped returns the predicate of a list of the type inside an organization,
// and a context whose reads the scope accounts for.
func (p *policy[T, P]) scoped(ctx context.Context, o *authz.Org) (context.Context, P) {
	return store.ScopedRead(ctx), p.scope(o)
}

// within returns a context for a list scoped by its parent: the caller has
// authorized the parent, and every item of the list is visible with it.
func within(ctx context.Context) context.Context { return store.ScopedRead(ctx) }

// internal returns a context for reads that show nothing by themselves (see
// store.InternalRead).
func internal(ctx context.Context, reason string) context.Context {
	return store.InternalRead(ctx, reason)
}
