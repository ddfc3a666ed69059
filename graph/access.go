package graph

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/organization"
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
// organizations: who they are, known without a query, and their memberships
// and grants, loaded once per request (and once per transaction) together
// with the first organizations decided about (see loadOrgAccess).
type viewerFacts struct {
	user *ent.User
	// loaded says whether memberships and grants are.
	loaded      bool
	memberships map[string]authz.Membership // by organization ID
	grants      map[string]enum.Role        // by collection or space ID
}

// viewerFacts returns the viewer. Their memberships and grants come with
// memberships (or with the first access decision).
func (r *Resolver) viewerFacts(ctx context.Context) (*viewerFacts, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	l := loadersFrom(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.facts == nil {
		l.facts = &viewerFacts{user: v.User}
	}
	return l.facts, nil
}

// factsLoaded returns the viewer's facts and whether their memberships and
// grants are loaded.
func (r *Resolver) factsLoaded(ctx context.Context) (*viewerFacts, bool, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, false, err
	}
	l := loadersFrom(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	return f, f.loaded, nil
}

// memberships returns the viewer's facts with their memberships and grants
// loaded.
func (r *Resolver) memberships(ctx context.Context) (*viewerFacts, error) {
	f, loaded, err := r.factsLoaded(ctx)
	if err != nil || loaded {
		return f, err
	}
	if _, err := r.loadOrgAccess(ctx, nil); err != nil {
		return nil, err
	}
	return f, nil
}

// Kinds of the rows of the access statement.
const (
	accessMember     = "m" // a: organization, b: role (null for a guest)
	accessGrant      = "g" // a: collection or space, b: role
	accessCollection = "c" // a: collection, b: parent, c: default level, d: organization
	accessOpen       = "o" // a: an organization with public or unlisted content
)

// accessRow is a row of the access statement; its columns mean what its kind
// says.
type accessRow struct {
	Kind string
	A    string
	B    *string
	C    *string
	D    *string
}

// loadOrgAccess builds the authorization view of organizations for the
// viewer, in one statement per request: the viewer's memberships and grants
// (the first time), the organizations' collections, and, for those the viewer
// is not a member of, whether they have public or unlisted content. The
// collection rows prime the collection loader's decisions; the collections
// themselves load by ID when a field asks for one.
func (r *Resolver) loadOrgAccess(ctx context.Context, orgIDs []string) (map[string]*authz.Org, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, err
	}
	l := loadersFrom(ctx)
	l.mu.Lock()
	withFacts := !f.loaded
	l.mu.Unlock()
	rows, err := r.accessRows(ctx, f.user.ID, withFacts, orgIDs)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if withFacts && !f.loaded {
		f.memberships, f.grants = accessFacts(rows)
		f.loaded = true
	}
	return accessOrgs(rows, orgIDs, f.memberships, f.grants), nil
}

// accessOf returns the authorization view of one organization for a user
// other than the viewer, such as a member whose access an admin reads: one
// access statement. Its rows of the organization's collections are the
// viewer's too: when the viewer is a member, whose view needs nothing else
// beyond their facts, it primes the viewer's view of the organization, which
// the permissions of the listed content then decide from without a
// statement of their own.
func (r *Resolver) accessOf(ctx context.Context, userID, orgID string) (*authz.Org, error) {
	rows, err := r.accessRows(ctx, userID, true, []string{orgID})
	if err != nil {
		return nil, err
	}
	if f, loaded, err := r.factsLoaded(ctx); err == nil && loaded {
		l := loadersFrom(ctx)
		var viewer *authz.Org
		l.mu.Lock()
		if f.memberships[orgID].Member {
			viewer = accessOrgs(rows, []string{orgID}, f.memberships, f.grants)[orgID]
		}
		l.mu.Unlock()
		if viewer != nil {
			l.orgAccess().Prime(ctx, orgID, viewer)
		}
	}
	memberships, grants := accessFacts(rows)
	return accessOrgs(rows, []string{orgID}, memberships, grants)[orgID], nil
}

// accessFacts reads a user's memberships and grants from access rows.
func accessFacts(rows []accessRow) (map[string]authz.Membership, map[string]enum.Role) {
	memberships, grants := map[string]authz.Membership{}, map[string]enum.Role{}
	for _, row := range rows {
		switch row.Kind {
		case accessMember:
			m := authz.Membership{Member: true}
			if row.B != nil {
				m.Role = enum.Role(*row.B)
			}
			memberships[row.A] = m
		case accessGrant:
			grants[row.A] = enum.MaxRole(grants[row.A], enum.Role(deref(row.B)))
		}
	}
	return memberships, grants
}

// accessOrgs builds the authorization view of organizations from access
// rows and the user's memberships and grants.
func accessOrgs(rows []accessRow, orgIDs []string, memberships map[string]authz.Membership,
	grants map[string]enum.Role) map[string]*authz.Org {
	out := make(map[string]*authz.Org, len(orgIDs))
	for _, id := range orgIDs {
		out[id] = &authz.Org{Membership: memberships[id], Collections: map[string]authz.Collection{}, Grants: grants}
	}
	for _, row := range rows {
		switch row.Kind {
		case accessCollection:
			c := authz.Collection{ID: row.A, Parent: deref(row.B)}
			if row.C != nil {
				d := enum.DefaultLevel(*row.C)
				c.Default = &d
			}
			if o := out[deref(row.D)]; o != nil {
				o.Collections[c.ID] = c
			}
		case accessOpen:
			if o := out[row.A]; o != nil && !o.Membership.Member {
				o.SeesContent = true
			}
		}
	}
	return out
}

// accessRows runs the access statement: a union of the rows loadOrgAccess
// reads, so that deciding about a request's content costs one round trip.
// It is built once per shape (with or without the user's facts, and the
// number of organizations padded to a power of two; see store.Statements).
func (r *Resolver) accessRows(ctx context.Context, userID string, withFacts bool, orgIDs []string) ([]accessRow, error) {
	if !withFacts && len(orgIDs) == 0 {
		return nil, nil
	}
	var padded []string
	if len(orgIDs) > 0 {
		padded = store.PadIDs(orgIDs)
	}
	args := make([]any, 0, 1+len(padded))
	args = append(args, userID)
	for _, id := range padded {
		args = append(args, id)
	}
	key := fmt.Sprintf("access facts=%t orgs=%d", withFacts, len(padded))
	rows, err := r.statements.Query(ctx, r.db(ctx).Driver(), key, store.Selector(func(d string) sql.Querier {
		params := store.Params(len(args))
		return accessStatement(d, params[0], withFacts, params[1:])
	}), args...)
	if err != nil {
		return nil, fmt.Errorf("loading what authorization decides from: %w", err)
	}
	defer rows.Close()
	var out []accessRow
	for rows.Next() {
		var row accessRow
		var a, b, c, d sql.NullString
		if err := rows.Scan(&row.Kind, &a, &b, &c, &d); err != nil {
			return nil, fmt.Errorf("loading what authorization decides from: %w", err)
		}
		row.A = a.String
		row.B, row.C, row.D = nullable(b.String, b.Valid), nullable(c.String, c.Valid), nullable(d.String, d.Valid)
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("loading what authorization decides from: %w", err)
	}
	return out, nil
}

// nullable returns v when a nullable column held it, else nil.
func nullable[T any](v T, valid bool) *T {
	if !valid {
		return nil
	}
	return &v
}

// accessColumns are the columns of the access statement's rows, after kind.
var accessColumns = []string{"a", "b", "c", "d"}

// accessBranch selects rows of one kind from t: kind, then the columns
// names, each the expression of cols at its place, NULL past them.
func accessBranch(d string, t sql.TableView, kind string, names []string, cols ...string) *sql.Selector {
	s := sql.Dialect(d).Select().From(t).AppendSelectExprAs(sql.Expr("'"+kind+"'"), "kind")
	for i, name := range names {
		col := "NULL"
		if i < len(cols) {
			col = cols[i]
		}
		s.AppendSelectExprAs(sql.Expr(col), name)
	}
	return s
}

// factBranches select a user's facts, their memberships and grants, as
// access rows with the columns names; userIs says which user a user_id
// column must hold, and memberCols are more columns of a membership's row,
// after its organization and role.
func factBranches(d string, names []string, userIs func(column string) *sql.Predicate, memberCols ...string) []*sql.Selector {
	return []*sql.Selector{
		accessBranch(d, sql.Table(member.Table), accessMember, names,
			append([]string{member.FieldOrganizationID, member.FieldRole}, memberCols...)...).
			Where(sql.And(userIs(member.FieldUserID), sql.EQ(member.FieldDisabled, false))),
		grantBranch(d, names).Where(userIs(contentgrant.FieldUserID)),
		// The grants of the user's teams, a branch of their own: with
		// either predicate in one OR, PostgreSQL reads every grant (a
		// sequential scan, whatever the indexes), which took the token
		// statement from 0.08 to 4 ms at 50,000 grants.
		grantBranch(d, names).Where(sql.In(contentgrant.FieldTeamID,
			sql.Select(teammember.FieldTeamID).From(sql.Table(teammember.Table)).Where(userIs(teammember.FieldUserID)))),
	}
}

// grantBranch selects content grants as access rows: the collection or
// space granted, and the role.
func grantBranch(d string, names []string) *sql.Selector {
	return accessBranch(d, sql.Table(contentgrant.Table), accessGrant, names,
		"COALESCE("+contentgrant.FieldCollectionID+", "+contentgrant.FieldSpaceID+")", contentgrant.FieldRole)
}

// accessStatement builds the access statement for a dialect: the user's
// memberships and grants (withFacts), and the organizations' collections
// and whether they show a stranger some content.
func accessStatement(d, userID string, withFacts bool, orgIDs []string) sql.Querier {
	row := func(t sql.TableView, k string, cols ...string) *sql.Selector {
		return accessBranch(d, t, k, accessColumns, cols...)
	}
	var branches []*sql.Selector
	if withFacts {
		branches = factBranches(d, accessColumns, func(column string) *sql.Predicate { return sql.EQ(column, userID) })
	}
	if len(orgIDs) > 0 {
		ids := make([]any, len(orgIDs))
		for i, id := range orgIDs {
			ids[i] = id
		}
		spaces, members := sql.Table(space.Table).As("s"), sql.Table(member.Table).As("m")
		orgs := sql.Table(organization.Table)
		branches = append(branches,
			row(sql.Table(collection.Table), accessCollection, collection.FieldID, collection.FieldParentID,
				collection.FieldDefaultLevel, collection.FieldOrganizationID).
				Where(sql.In(collection.FieldOrganizationID, ids...)),
			// A stranger sees an organization when they can see some of its
			// content; without a share key, that is a public or unlisted
			// space (found through the space_organization_id_visibility index).
			row(orgs, accessOpen, organization.Table+"."+organization.FieldID).
				Where(sql.And(
					sql.In(orgs.C(organization.FieldID), ids...),
					sql.Exists(sql.Select(spaces.C(space.FieldID)).From(spaces).Where(sql.And(
						sql.ColumnsEQ(spaces.C(space.FieldOrganizationID), orgs.C(organization.FieldID)),
						sql.IsNull(spaces.C(space.FieldDeletedAt)),
						// Literals, not arguments: a prepared statement's
						// generic plan knows nothing of its arguments, and
						// with them read every space of the organization
						// instead of probing the index for the two values.
						sql.P(func(b *sql.Builder) {
							b.WriteString(spaces.C(space.FieldVisibility)).WriteString(" IN ('" + string(enum.VisibilityPublic) +
								"', '" + string(enum.VisibilityUnlisted) + "')")
						}),
					))),
					sql.Not(sql.Exists(sql.Select(members.C(member.FieldID)).From(members).Where(sql.And(
						sql.ColumnsEQ(members.C(member.FieldOrganizationID), orgs.C(organization.FieldID)),
						sql.EQ(members.C(member.FieldUserID), userID),
						sql.EQ(members.C(member.FieldDisabled), false),
					)))),
				)))
	}
	for _, b := range branches[1:] {
		branches[0].UnionAll(b)
	}
	return sql.Dialect(d).Select("kind", "a", "b", "c", "d").From(branches[0].As("access"))
}

// orgAccess returns the authorization view of one organization.
func (r *Resolver) orgAccess(ctx context.Context, orgID string) (*authz.Org, error) {
	return load(ctx, loadersFrom(ctx).orgAccess(), orgID)
}

// organizationDecision decides about an organization. A stranger who opened
// one of its share-link spaces with its key sees it too.
func (r *Resolver) organizationDecision(ctx context.Context, orgID string) (authz.Decision, error) {
	// A member's decision is their membership, known from their facts; a
	// stranger's depends on the organization's content.
	o, err := r.orgFacts(ctx, orgID)
	if err != nil {
		return authz.Decision{}, err
	}
	if !o.Membership.Member {
		if loadersFrom(ctx).orgOpened(orgID) {
			// What its content shows a stranger adds nothing to this:
			// no need to read it.
			return authz.Decision{Observer: true}, nil
		}
		if o, err = r.orgAccess(ctx, orgID); err != nil {
			return authz.Decision{}, err
		}
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
	o, err := r.spaceOrg(ctx, s)
	if err != nil {
		return authz.Decision{}, err
	}
	shareKey, err := r.shareKeyValid(ctx, s)
	if err != nil {
		return authz.Decision{}, err
	}
	d := o.Space(authzSpace(s), authz.Keys{ShareKey: shareKey, VisitorToken: r.spaceVisitorAdmitted(ctx, s)})
	if s.DeletedAt != nil && !authz.Spaces.Allows(d, authz.Restore, false) {
		return authz.Decision{}, nil
	}
	if d.Role == "" && s.DeletedAt == nil && loadersFrom(ctx).spacePublished(s.ID) {
		// A published site the viewer reads publishes the space: its
		// published content, and nothing else of it (see authz.Decision).
		d.Role, d.Published = enum.RoleRead, true
	}
	return d, nil
}

// spaceOrg returns what deciding about a space needs of its organization.
// For a space at the organization's root, no collection is on its path, so
// the viewer's membership and grants decide, known from the viewer's facts
// (read with the token) without a statement; a space in a collection needs
// the organization's collection tree (orgAccess).
func (r *Resolver) spaceOrg(ctx context.Context, s *ent.Space) (*authz.Org, error) {
	if s.ParentID != nil {
		return r.orgAccess(ctx, s.OrganizationID)
	}
	return r.orgFacts(ctx, s.OrganizationID)
}

// orgFacts returns the viewer's membership of an organization and their
// grants, without its collections or whether it shows a stranger some
// content: enough to decide about the organization for a member, and about
// a space at its root for anyone.
// When the facts are not loaded yet (a transaction's loaders start without
// them), the organization's access is read with them in one statement, as
// orgAccess does.
func (r *Resolver) orgFacts(ctx context.Context, orgID string) (*authz.Org, error) {
	f, loaded, err := r.factsLoaded(ctx)
	if err != nil {
		return nil, err
	}
	if !loaded {
		return r.orgAccess(ctx, orgID)
	}
	return &authz.Org{Membership: f.memberships[orgID], Grants: f.grants}, nil
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
	).Exist(internal(ctx, "checking the share key a reader presented"))
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
