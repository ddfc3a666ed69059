package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/ent/team"
	"github.com/bindery/bindery/ent/teammember"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/store"
)

// Members are not a resource type of their own: a member is named by its
// organization and its user's ID, so the organization's policy decides about
// them (its actions listPeople and manageMembers), and a member's ID in both
// APIs is the user's ID, which node(id:) resolves to the user.

// Orders of the lists of members, one per sort and direction. Each name is
// part of its cursors.
var (
	membersJoinedFirst = memberOrder("members-joined", member.FieldJoinedAt, false,
		func(m *ent.Member) any { return m.JoinedAt })
	membersJoinedLast = memberOrder("members-joined-desc", member.FieldJoinedAt, true,
		func(m *ent.Member) any { return m.JoinedAt })
	membersSeenFirst = memberOrder("members-seen", member.FieldLastSeenAt, false,
		func(m *ent.Member) any { return *m.LastSeenAt })
	membersSeenLast = memberOrder("members-seen-desc", member.FieldLastSeenAt, true,
		func(m *ent.Member) any { return *m.LastSeenAt })
)

func memberOrder(name, column string, desc bool, key func(*ent.Member) any) page.Order[*ent.Member, predicate.Member, member.OrderOption] {
	return page.Order[*ent.Member, predicate.Member, member.OrderOption]{
		Name: name, Column: column, KeyType: page.KeyTime, Desc: desc, Key: key,
		ID: func(m *ent.Member) string { return m.ID },
	}
}

// MemberFilter selects and orders a list of members.
type MemberFilter struct {
	Role   *model.MemberRoleFilter
	Search *string
	Sort   *model.MemberSort
	Order  *model.ListOrder
}

// organizationMembers lists an organization's members for a viewer who may
// list its people.
func (r *Resolver) organizationMembers(ctx context.Context, o *ent.Organization, f MemberFilter, a page.Args) (*model.MemberConnection, error) {
	if err := checkFilter("search", f.Search); err != nil {
		return nil, err
	}
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ListPeople); err != nil {
		return nil, err
	}
	q := r.db(ctx).Member.Query().Where(member.OrganizationID(o.ID))
	if f.Role != nil {
		if *f.Role == model.MemberRoleFilterGuest {
			q.Where(member.RoleIsNil())
		} else {
			q.Where(member.RoleEQ(enum.Role(strings.ToLower(string(*f.Role)))))
		}
	}
	if f.Search != nil && *f.Search != "" {
		q.Where(member.HasUserWith(user.Or(user.DisplayNameContainsFold(*f.Search), user.EmailContainsFold(*f.Search))))
	}
	asc := f.Order != nil && *f.Order == model.ListOrderAsc
	o2 := membersJoinedLast
	if asc {
		o2 = membersJoinedFirst
	}
	if f.Sort != nil && *f.Sort == model.MemberSortLastSeenAt {
		q.Where(member.LastSeenAtNotNil())
		o2 = membersSeenLast
		if asc {
			o2 = membersSeenFirst
		}
	}
	if sel, ok := itemSelection(ctx, "MemberConnection", "MemberEdge", "Member"); !ok || sel["spaces"] || sel["teams"] {
		a.Columns = withMemberCounts
	}
	conn, err := page.Paginate(within(ctx), q, o2, a)
	if err != nil {
		return nil, err
	}
	primeCountPairs(ctx, loadersFrom(ctx).memberCounts(), conn.Nodes(), func(m *ent.Member) string { return m.ID })
	prefetchUsersOf(ctx, r, conn.Nodes(), func(m *ent.Member) string { return m.UserID })
	return model.NewMemberConnection(conn), nil
}

// prefetchUsersOf loads the users of a page's items in one batch.
func prefetchUsersOf[T any](ctx context.Context, r *Resolver, items []T, userID func(T) string) {
	users := make([]string, len(items))
	for i, it := range items {
		users[i] = userID(it)
	}
	r.users.prefetch(ctx, users)
}

// memberOf returns the member of an organization that a user is, for a
// viewer who may list the organization's people.
func (r *Resolver) memberOf(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	if _, _, err := r.orgs.authorize(ctx, orgID, authz.ListPeople); err != nil {
		return nil, err
	}
	return r.findMember(within(ctx), orgID, userID)
}

func (r *Resolver) findMember(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	m, err := r.db(ctx).Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("Member not found")
	}
	return m, err
}

// manageMember loads a member for a change: an admin's, or, with self, the
// member's own.
func (r *Resolver) manageMember(ctx context.Context, orgID, userID string, self bool) (*ent.Member, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	_, d, err := r.orgs.get(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !(self && userID == v.User.ID) {
		if err := r.orgs.require(ctx, nil, d, authz.ManageMembers); err != nil {
			return nil, err
		}
	}
	return r.findMember(within(ctx), orgID, userID)
}

func (r *Resolver) updateMember(ctx context.Context, in model.UpdateMemberInput) (*ent.Member, error) {
	return transact(ctx, r, func(ctx context.Context) (*ent.Member, error) {
		m, err := r.manageMember(ctx, in.OrganizationID, in.UserID, false)
		if err != nil {
			return nil, err
		}
		role, set := in.Role.ValueOK()
		if !set {
			return m, nil
		}
		if role == nil || *role != enum.RoleAdmin {
			if err := r.keepAnAdmin(ctx, m, "demote"); err != nil {
				return nil, err
			}
		}
		u := m.Update()
		apply(in.Role, u.SetNillableRole, u.ClearRole)
		return u.Save(ctx)
	})
}

func (r *Resolver) removeMember(ctx context.Context, in model.RemoveMemberInput) error {
	_, err := transact(ctx, r, func(ctx context.Context) (*ent.Member, error) {
		m, err := r.manageMember(ctx, in.OrganizationID, in.UserID, true)
		if err != nil {
			return nil, err
		}
		if err := r.keepAnAdmin(ctx, m, "remove"); err != nil {
			return nil, err
		}
		// Team memberships and personal grants in the organization go with
		// the membership.
		db := r.db(ctx)
		if _, err := db.TeamMember.Delete().Where(teammember.UserID(m.UserID),
			teammember.HasTeamWith(team.OrganizationID(m.OrganizationID))).Exec(ctx); err != nil {
			return nil, fmt.Errorf("removing team memberships: %w", err)
		}
		if _, err := db.ContentGrant.Delete().Where(contentgrant.UserID(m.UserID),
			contentgrant.Or(contentgrant.HasSpaceWith(space.OrganizationID(m.OrganizationID)),
				contentgrant.HasCollectionWith(collection.OrganizationID(m.OrganizationID)))).Exec(ctx); err != nil {
			return nil, fmt.Errorf("removing grants: %w", err)
		}
		if err := db.Member.DeleteOne(m).Exec(ctx); err != nil {
			return nil, err
		}
		r.emit(ctx, events.Webhook(m.OrganizationID, "", enum.WebhookEventTypeMemberRemoved, m.UserID))
		return m, nil
	})
	return err
}

// keepAnAdmin refuses to take the admin role from the last admin of an
// organization. The organization's admins, m among them, are locked until
// the transaction ends, so that two admins demoting each other at once
// cannot both succeed; they are locked in the order of their IDs, whoever
// is demoted, so that the two wait for each other instead of deadlocking
// (each locked the other, and then waited to change the one the other had).
// The second sees the first's change: it is a 409 when it would now demote
// the last admin.
func (r *Resolver) keepAnAdmin(ctx context.Context, m *ent.Member, verb string) error {
	if m.Role == nil || *m.Role != enum.RoleAdmin {
		return nil
	}
	admins, err := r.db(ctx).Member.Query().
		Where(member.OrganizationID(m.OrganizationID), member.RoleEQ(enum.RoleAdmin), member.Disabled(false)).
		Order(member.ByID()).Unique(false).Modify(store.ForNoKeyUpdate).
		IDs(internal(ctx, "a count of admins that shows only a conflict"))
	if err != nil {
		return fmt.Errorf("counting admins: %w", err)
	}
	if !slices.ContainsFunc(admins, func(id string) bool { return id != m.ID }) {
		return apperr.Conflictf("Cannot %s the last admin of the organization: make another member an admin first", verb)
	}
	return nil
}

func (r *Resolver) setMemberSSO(ctx context.Context, in model.SetMemberSSOInput) (*ent.Member, error) {
	return transact(ctx, r, func(ctx context.Context) (*ent.Member, error) {
		m, err := r.manageMember(ctx, in.OrganizationID, in.UserID, false)
		if err != nil {
			return nil, err
		}
		return m.Update().SetSSO(true).Save(ctx)
	})
}

// ping records that the viewer is active in an organization they are a
// member of.
func (r *Resolver) ping(ctx context.Context, in model.PingOrganizationInput) (*ent.Member, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Member, error) {
		if _, _, err := r.orgs.get(ctx, in.OrganizationID); err != nil {
			return nil, err
		}
		m, err := r.findMember(within(ctx), in.OrganizationID, v.User.ID)
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.Forbidden("Only members of the organization can ping it")
		}
		if err != nil {
			return nil, err
		}
		return m.Update().SetLastSeenAt(r.clock()).Save(ctx)
	})
}

// memberSpaces lists the live spaces of its organization a member can
// access, with their role on each, as authorization decides it for them
// (their organization role, the content's default levels, their grants and
// their teams'). Only the member and the organization's admins may read it:
// it names spaces the viewer might not see otherwise.
func (r *Resolver) memberSpaces(ctx context.Context, m *ent.Member, order *model.ListOrder, a page.Args) (*model.MemberSpaceConnection, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if m.UserID != v.User.ID {
		if _, _, err := r.orgs.authorize(ctx, m.OrganizationID, authz.ManageMembers); err != nil {
			return nil, err
		}
	}
	access, err := r.accessOf(ctx, m.UserID, m.OrganizationID)
	if err != nil {
		return nil, err
	}
	o := spacesNewestFirst
	if order != nil && *order == model.ListOrderAsc {
		o = spacesByCreation
	}
	q := r.db(ctx).Space.Query().Where(space.OrganizationID(m.OrganizationID), live(), spaceScope(access.SpaceScope()))
	conn, err := r.spacePage(within(ctx), q, o, a)
	if err != nil {
		return nil, err
	}
	return model.NewMemberSpaceConnection(page.Map(conn, func(s *ent.Space) *model.MemberSpace {
		return &model.MemberSpace{Space: s, Permission: access.Space(authzSpace(s), authz.Keys{}).Role}
	})), nil
}

// memberUser is a member's user: whoever may list an organization's people
// sees them, as a content's reader sees its authors; userEmail decides about
// the email.
func (r *Resolver) memberUser(ctx context.Context, m *ent.Member) (*ent.User, error) {
	return load(ctx, r.users.loader(ctx), m.UserID)
}

// memberCounts are the counts a member shows.
func (r *Resolver) memberCounts(ctx context.Context, m *ent.Member) (countPair, error) {
	return load(ctx, loadersFrom(ctx).memberCounts(), m.ID)
}

// loadMemberCounts counts, per member read without them (see
// withMemberCounts), its spaces and teams: one statement.
func (r *Resolver) loadMemberCounts(ctx context.Context, ids []string) (map[string]countPair, error) {
	ctx = internal(ctx, "counts of members the viewer sees")
	rows, err := r.db(ctx).Member.Query().Where(member.IDIn(ids...)).Select(member.FieldID).Modify(withMemberCounts).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting the spaces and teams of members: %w", err)
	}
	return countPairsOf(rows, func(m *ent.Member) string { return m.ID }), nil
}

// withMemberCounts adds to a query of members, per member, the live spaces
// of its organization it holds a grant on, directly or through a team (a),
// and the teams of its organization it belongs to (b): two correlated
// counts.
func withMemberCounts(s *sql.Selector) {
	tt, tm := sql.Table(team.Table).As("t"), sql.Table(teammember.Table).As("tm")
	teams := sql.Select(sql.Count("*")).From(tm).Join(tt).On(tt.C(team.FieldID), tm.C(teammember.FieldTeamID)).
		Where(sql.And(sql.ColumnsEQ(tm.C(teammember.FieldUserID), s.C(member.FieldUserID)),
			sql.ColumnsEQ(tt.C(team.FieldOrganizationID), s.C(member.FieldOrganizationID))))
	st, cg, mine := sql.Table(space.Table).As("s"), sql.Table(contentgrant.Table).As("g"), sql.Table(teammember.Table).As("mt")
	myTeams := sql.Select(mine.C(teammember.FieldTeamID)).From(mine).
		Where(sql.ColumnsEQ(mine.C(teammember.FieldUserID), s.C(member.FieldUserID)))
	spaces := sql.Select(sql.Count(sql.Distinct(st.C(space.FieldID)))).From(st).
		Join(cg).On(cg.C(contentgrant.FieldSpaceID), st.C(space.FieldID)).
		Where(sql.And(sql.ColumnsEQ(st.C(space.FieldOrganizationID), s.C(member.FieldOrganizationID)),
			sql.IsNull(st.C(space.FieldDeletedAt)),
			sql.Or(sql.ColumnsEQ(cg.C(contentgrant.FieldUserID), s.C(member.FieldUserID)),
				sql.In(cg.C(contentgrant.FieldTeamID), myTeams))))
	appendCountPair(s, spaces, teams)
}

// countPair is two counts of one row, read as correlated subqueries with
// the row (appendCountPair): a member's spaces and teams, a team's members
// and spaces. A page of members or teams reads them with its rows, when its
// items show them, and primes their loader (primeCountPairs), so that the
// counts cost no statement of their own; the loader counts for the rows
// read without.
type countPair struct{ A, B int }

// The columns of a countPair.
const (
	countPairA = "count_a"
	countPairB = "count_b"
)

// appendCountPair adds the counts a and b to the columns of s.
func appendCountPair(s *sql.Selector, a, b *sql.Selector) {
	s.AppendSelectExprAs(a, countPairA).AppendSelectExprAs(b, countPairB)
}

// valuer is an ent row with the values of columns its query added.
type valuer interface {
	Value(name string) (ent.Value, error)
}

// countPairOf reads the counts of a row read with appendCountPair; ok is
// false when it was read without.
func countPairOf(row valuer) (c countPair, ok bool) {
	for name, dst := range map[string]*int{countPairA: &c.A, countPairB: &c.B} {
		v, err := row.Value(name)
		if err != nil {
			return countPair{}, false
		}
		n, ok := v.(int64)
		if !ok {
			return countPair{}, false
		}
		*dst = int(n)
	}
	return c, true
}

// countPairsOf reads the counts of rows read with appendCountPair, by ID.
func countPairsOf[T valuer](rows []T, id func(T) string) map[string]countPair {
	out := make(map[string]countPair, len(rows))
	for _, row := range rows {
		if c, ok := countPairOf(row); ok {
			out[id(row)] = c
		}
	}
	return out
}

// primeCountPairs primes a loader of counts with the rows of a page read
// with appendCountPair.
func primeCountPairs[T valuer](ctx context.Context, ld *batchLoader[countPair], rows []T, id func(T) string) {
	for key, c := range countPairsOf(rows, id) {
		ld.Prime(ctx, key, c)
	}
}
