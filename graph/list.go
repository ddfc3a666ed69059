package graph

import (
	"context"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Orders of the lists. Each name is part of its cursors.
var (
	organizationsByCreation = page.Order[*ent.Organization, predicate.Organization, organization.OrderOption]{
		Name: "organizations", Column: organization.FieldCreatedAt, KeyType: page.KeyTime,
		Key: func(o *ent.Organization) any { return o.CreatedAt }, ID: func(o *ent.Organization) string { return o.ID },
	}
	collectionsByCreation = page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{
		Name: "collections", Column: collection.FieldCreatedAt, KeyType: page.KeyTime,
		Key: func(c *ent.Collection) any { return c.CreatedAt }, ID: func(c *ent.Collection) string { return c.ID },
	}
	collectionsByPosition = page.Order[*ent.Collection, predicate.Collection, collection.OrderOption]{
		Name: "collections-by-position", Column: collection.FieldPosition, KeyType: page.KeyFloat,
		Key: func(c *ent.Collection) any { return c.Position }, ID: func(c *ent.Collection) string { return c.ID },
	}
	spacesByCreation = page.Order[*ent.Space, predicate.Space, space.OrderOption]{
		Name: "spaces", Column: space.FieldCreatedAt, KeyType: page.KeyTime,
		Key: func(s *ent.Space) any { return s.CreatedAt }, ID: func(s *ent.Space) string { return s.ID },
	}
	spacesNewestFirst = page.Order[*ent.Space, predicate.Space, space.OrderOption]{
		Name: "spaces-desc", Column: space.FieldCreatedAt, KeyType: page.KeyTime, Desc: true,
		Key: func(s *ent.Space) any { return s.CreatedAt }, ID: func(s *ent.Space) string { return s.ID },
	}
	spacesByPosition = page.Order[*ent.Space, predicate.Space, space.OrderOption]{
		Name: "spaces-by-position", Column: space.FieldPosition, KeyType: page.KeyFloat,
		Key: func(s *ent.Space) any { return s.Position }, ID: func(s *ent.Space) string { return s.ID },
	}
	tokensByCreation = page.Order[*ent.APIToken, predicate.APIToken, apitoken.OrderOption]{
		Name: "api-tokens", Column: apitoken.FieldCreatedAt, KeyType: page.KeyTime,
		Key: func(t *ent.APIToken) any { return t.CreatedAt }, ID: func(t *ent.APIToken) string { return t.ID },
	}
)

// MaxFilterLength is the longest text a list is filtered by (a title, a
// name, a search of members, an external ID): no title or name it matches
// is longer, and SQLite refuses a LIKE pattern of about 50,000 characters
// as too complex.
const MaxFilterLength = 256

// checkFilter refuses a list's text filter over MaxFilterLength
// characters, naming the argument (the /v1 query parameter of the same
// name).
func checkFilter(name string, s *string) error {
	if s != nil && utf8.RuneCountInString(*s) > MaxFilterLength {
		return apperr.Invalid(name, "must be at most %d characters", MaxFilterLength)
	}
	return nil
}

// args collects connection arguments.
func args(first *int, after *page.Cursor, last *int, before *page.Cursor) page.Args {
	return page.Args{First: first, After: after, Last: last, Before: before}
}

// spaceScope turns the viewer's scope of an organization's spaces into a
// predicate. It is the SQL form of authz.SpaceScope.Includes.
func spaceScope(sc authz.SpaceScope) predicate.Space {
	if sc.All {
		return func(*sql.Selector) {}
	}
	ors := []predicate.Space{space.VisibilityEQ(enum.VisibilityPublic)}
	if sc.Unlisted {
		ors = append(ors, space.VisibilityEQ(enum.VisibilityUnlisted))
	}
	if sc.RoleDefaults {
		ors = append(ors, space.And(space.DefaultLevelNotNil(), space.DefaultLevelNEQ(enum.DefaultLevelInherit)))
	}
	var inherit []predicate.Space
	if sc.InheritRoot {
		inherit = append(inherit, space.ParentIDIsNil())
	}
	if len(sc.InheritParents) > 0 {
		inherit = append(inherit, space.ParentIDIn(sc.InheritParents...))
	}
	if len(inherit) > 0 {
		ors = append(ors, space.And(space.DefaultLevelEQ(enum.DefaultLevelInherit), space.Or(inherit...)))
	}
	if len(sc.GrantedSpaces) > 0 {
		ors = append(ors, space.IDIn(sc.GrantedSpaces...))
	}
	if len(sc.GrantedParents) > 0 {
		ors = append(ors, space.ParentIDIn(sc.GrantedParents...))
	}
	if len(sc.InCollectionParents) > 0 {
		ors = append(ors, space.And(space.VisibilityEQ(enum.VisibilityInCollection), space.ParentIDIn(sc.InCollectionParents...)))
	}
	return space.Or(ors...)
}

// collectionScope restricts collections to those the viewer can see.
func collectionScope(o *authz.Org) predicate.Collection {
	ids, all := o.VisibleCollections()
	if all {
		return func(*sql.Selector) {}
	}
	return collection.IDIn(ids...)
}

// live selects spaces that are not deleted.
func live() predicate.Space { return space.DeletedAtIsNil() }

// restorable selects deleted spaces still inside the retention period.
func restorable(now time.Time) predicate.Space {
	return space.And(space.DeletedAtNotNil(), space.DeletedAtGT(now.Add(-SpaceRetention)))
}

// Conversions of pages into GraphQL connections. A nil page (a list the
// viewer may not read) stays nil.

func connection[T, C any](p *page.Connection[T], err error, wrap func(*page.Connection[T]) *C) (*C, error) {
	if err != nil || p == nil {
		return nil, err
	}
	return wrap(p), nil
}

func spaceConnection(p *page.Connection[*ent.Space], err error) (*model.SpaceConnection, error) {
	return connection(p, err, model.NewSpaceConnection)
}

func collectionConnection(p *page.Connection[*ent.Collection], err error) (*model.CollectionConnection, error) {
	return connection(p, err, model.NewCollectionConnection)
}

func organizationConnection(p *page.Connection[*ent.Organization], err error) (*model.OrganizationConnection, error) {
	return connection(p, err, model.NewOrganizationConnection)
}

func apiTokenConnection(p *page.Connection[*ent.APIToken], err error) (*model.APITokenConnection, error) {
	return connection(p, err, model.NewAPITokenConnection)
}

func sessionConnection(p *page.Connection[*ent.APIToken], err error) (*model.SessionConnection, error) {
	return connection(p, err, model.NewSessionConnection)
}

// spacePage paginates spaces and loads what the page's items need in fixed
// batches (see primeSpaces), so that a page costs the same statements
// whatever its length.
func (r *Resolver) spacePage(ctx context.Context, q *ent.SpaceQuery,
	o page.Order[*ent.Space, predicate.Space, space.OrderOption], a page.Args) (*page.Connection[*ent.Space], error) {
	conn, err := page.Paginate(ctx, q, o, a)
	if err != nil {
		return nil, err
	}
	return conn, r.primeSpaces(ctx, conn.Nodes())
}

func changeRequestConnection(p *page.Connection[*ent.ChangeRequest], err error) (*model.ChangeRequestConnection, error) {
	return connection(p, err, model.NewChangeRequestConnection)
}
