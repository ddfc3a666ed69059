package graph

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/contentgrant"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/ent/team"
	"github.com/bindery/bindery/ent/teammember"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/page"
)

// maxTeamMembers bounds the members a team is created with.
const maxTeamMembers = 1000

// teamsByCreation orders lists of teams, oldest first.
var teamsByCreation = page.Order[*ent.Team, predicate.Team, team.OrderOption]{
	Name: "teams", Column: team.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(t *ent.Team) any { return t.CreatedAt }, ID: func(t *ent.Team) string { return t.ID },
}

// titleContains keeps the teams whose title contains s, ignoring case.
func titleContains(s *string) (predicate.Team, error) {
	if err := checkFilter("title", s); err != nil {
		return nil, err
	}
	if s == nil || *s == "" {
		return func(*sql.Selector) {}, nil
	}
	return team.TitleContainsFold(*s), nil
}

// organizationTeams lists an organization's teams: with owner, those the
// member owns; with title, those whose title contains it.
func (r *Resolver) organizationTeams(ctx context.Context, o *ent.Organization, owner, title *string, a page.Args) (*model.TeamConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ListPeople); err != nil {
		return nil, err
	}
	titled, err := titleContains(title)
	if err != nil {
		return nil, err
	}
	q := r.db(ctx).Team.Query().Where(team.OrganizationID(o.ID), titled)
	if owner != nil {
		q.Where(team.HasMembersWith(teammember.UserID(*owner), teammember.RoleEQ(enum.TeamMemberRoleOwner)))
	}
	if teamCountsShown(itemSelection(ctx, "TeamConnection", "TeamEdge", "Team")) {
		a.Columns = withTeamCounts
	}
	conn, err := page.Paginate(within(ctx), q, teamsByCreation, a)
	if err != nil {
		return nil, err
	}
	r.primeTeams(ctx, conn.Nodes())
	return model.NewTeamConnection(conn), nil
}

// teamCountsShown says whether listed teams show their counts, from what
// itemSelection found: always in /v1 (not ok).
func teamCountsShown(sel map[string]bool, ok bool) bool {
	return !ok || sel["memberCount"] || sel["spaceCount"]
}

// primeTeams primes the loaders with a page of teams, and with their counts
// when the page read them (withTeamCounts).
func (r *Resolver) primeTeams(ctx context.Context, teams []*ent.Team) {
	l := r.teams.loader(ctx)
	for _, t := range teams {
		l.Prime(ctx, t.ID, t)
	}
	primeCountPairs(ctx, loadersFrom(ctx).teamCounts(), teams, func(t *ent.Team) string { return t.ID })
}

// teamRole is the column of a member's role in each listed team, read with
// the page (memberTeams).
const teamRole = "member_role"

// memberTeams lists the teams a member belongs to, with their role in each,
// read with the page, as are the teams' counts when the items show them.
func (r *Resolver) memberTeams(ctx context.Context, m *ent.Member, title *string, a page.Args) (*model.TeamMembershipConnection, error) {
	titled, err := titleContains(title)
	if err != nil {
		return nil, err
	}
	q := r.db(ctx).Team.Query().Where(team.OrganizationID(m.OrganizationID), titled,
		team.HasMembersWith(teammember.UserID(m.UserID)))
	counts := true
	if fields, ok := itemFields(ctx, "TeamMembershipConnection", "TeamMembershipEdge", "TeamMembership"); ok {
		oc := graphql.GetOperationContext(ctx)
		counts = false
		for _, f := range fields {
			if f.Name != "team" {
				continue
			}
			for _, tf := range graphql.CollectFields(oc, f.Selections, []string{"Team"}) {
				if tf.Name == "memberCount" || tf.Name == "spaceCount" {
					counts = true
				}
			}
		}
	}
	a.Columns = func(s *sql.Selector) {
		tm := sql.Table(teammember.Table).As("r")
		s.AppendSelectExprAs(sql.Select(tm.C(teammember.FieldRole)).From(tm).Where(sql.And(
			sql.ColumnsEQ(tm.C(teammember.FieldTeamID), s.C(team.FieldID)), sql.EQ(tm.C(teammember.FieldUserID), m.UserID))), teamRole)
		if counts {
			withTeamCounts(s)
		}
	}
	conn, err := page.Paginate(within(ctx), q, teamsByCreation, a)
	if err != nil {
		return nil, err
	}
	r.primeTeams(ctx, conn.Nodes())
	roles := make(map[string]enum.TeamMemberRole, len(conn.Edges))
	for _, t := range conn.Nodes() {
		v, err := t.Value(teamRole)
		if err != nil {
			return nil, fmt.Errorf("reading team roles: %w", err)
		}
		switch role := v.(type) {
		case string:
			roles[t.ID] = enum.TeamMemberRole(role)
		case []byte:
			roles[t.ID] = enum.TeamMemberRole(role)
		}
	}
	return model.NewTeamMembershipConnection(page.Map(conn, func(t *ent.Team) *model.TeamMembership {
		return &model.TeamMembership{Team: t, Role: roles[t.ID]}
	})), nil
}

func (r *Resolver) createTeam(ctx context.Context, in model.CreateTeamInput) (*ent.Team, error) {
	if len(in.Members) > maxTeamMembers {
		return nil, apperr.Invalid("members", "must hold at most %d members", maxTeamMembers)
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.ManageTeams, func(ctx context.Context, _ *ent.Organization, _ authz.Decision) (*ent.Team, error) {
		users, err := r.checkMembers(ctx, in.OrganizationID, in.Members)
		if err != nil {
			return nil, err
		}
		t, err := r.db(ctx).Team.Create().SetOrganizationID(in.OrganizationID).SetTitle(strings.TrimSpace(in.Title)).Save(ctx)
		if err != nil {
			return nil, err
		}
		creates := make([]*ent.TeamMemberCreate, len(users))
		for i, u := range users {
			creates[i] = r.db(ctx).TeamMember.Create().SetTeamID(t.ID).SetUserID(u)
		}
		r.teams.wrote(ctx, t)
		return t, r.db(ctx).TeamMember.CreateBulk(creates...).Exec(ctx)
	})
}

// checkMembers checks that every ID is a member of the organization and
// returns them without repeats, in order.
func (r *Resolver) checkMembers(ctx context.Context, orgID string, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	found, err := r.db(ctx).Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(ids...)).
		Select(member.FieldUserID).Strings(within(ctx))
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, u := range found {
		known[u] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, u := range ids {
		if !known[u] {
			return nil, apperr.Invalid("members", "%q is not a member of the organization", u)
		}
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out, nil
}

func (r *Resolver) updateTeam(ctx context.Context, in model.UpdateTeamInput) (*ent.Team, error) {
	return mutate(ctx, r, r.teams, in.ID, authz.Update, func(ctx context.Context, t *ent.Team, _ authz.Decision) (*ent.Team, error) {
		return t.Update().SetTitle(strings.TrimSpace(in.Title)).Save(ctx)
	})
}

func (r *Resolver) deleteTeam(ctx context.Context, in model.DeleteTeamInput) error {
	return act(ctx, r, r.teams, in.ID, authz.Delete, func(ctx context.Context, t *ent.Team, _ authz.Decision) error {
		return r.db(ctx).Team.DeleteOne(t).Exec(ctx)
	})
}

func (r *Resolver) addTeamMember(ctx context.Context, in model.AddTeamMemberInput) (*ent.Team, error) {
	return mutate(ctx, r, r.teams, in.TeamID, authz.Update, func(ctx context.Context, t *ent.Team, _ authz.Decision) (*ent.Team, error) {
		if _, err := r.checkMembers(ctx, t.OrganizationID, []string{in.UserID}); err != nil {
			return nil, err
		}
		role := enum.TeamMemberRoleMember
		if in.Role != nil {
			role = *in.Role
		}
		return t, r.db(ctx).TeamMember.Create().SetTeamID(t.ID).SetUserID(in.UserID).SetRole(role).
			OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID).UpdateRole().Exec(ctx)
	})
}

func (r *Resolver) removeTeamMember(ctx context.Context, in model.RemoveTeamMemberInput) (*ent.Team, error) {
	return mutate(ctx, r, r.teams, in.TeamID, authz.Update, func(ctx context.Context, t *ent.Team, _ authz.Decision) (*ent.Team, error) {
		n, err := r.db(ctx).TeamMember.Delete().Where(teammember.TeamID(t.ID), teammember.UserID(in.UserID)).Exec(ctx)
		if err == nil && n == 0 {
			err = apperr.NotFoundf("Team member not found")
		}
		return t, err
	})
}

// setTeamContentRole gives a team a role on a space or a collection, or
// takes it away. The caller administers the team and the content.
func (r *Resolver) setTeamContentRole(ctx context.Context, in model.SetTeamContentRoleInput) (*ent.Team, error) {
	return mutate(ctx, r, r.teams, in.TeamID, authz.Update, func(ctx context.Context, t *ent.Team, _ authz.Decision) (*ent.Team, error) {
		var orgID string
		del := r.db(ctx).ContentGrant.Delete().Where(contentgrant.TeamID(t.ID))
		create := r.db(ctx).ContentGrant.Create().SetTeamID(t.ID)
		switch id.PrefixOf(in.ContentID) {
		case id.Space:
			s, _, err := r.spaces.authorize(ctx, in.ContentID, authz.UpdateAccess)
			if err != nil {
				return nil, err
			}
			orgID = s.OrganizationID
			del.Where(contentgrant.SpaceID(s.ID))
			create.SetSpaceID(s.ID)
		case id.Collection:
			c, _, err := r.collections.authorize(ctx, in.ContentID, authz.Update)
			if err != nil {
				return nil, err
			}
			orgID = c.OrganizationID
			del.Where(contentgrant.CollectionID(c.ID))
			create.SetCollectionID(c.ID)
		default:
			return nil, apperr.Invalid("contentId", "must be the ID of a space or a collection")
		}
		if orgID != t.OrganizationID {
			return nil, apperr.Invalid("contentId", "is not content of the team's organization")
		}
		if _, err := del.Exec(ctx); err != nil {
			return nil, err
		}
		if in.Role == nil {
			return t, nil
		}
		return t, create.SetRole(*in.Role).Exec(ctx)
	})
}

func (r *Resolver) teamPermissions(ctx context.Context, t *ent.Team) (*authz.TeamPermissions, error) {
	d, err := r.organizationDecision(ctx, t.OrganizationID)
	if err != nil {
		return nil, err
	}
	p := authz.ForTeam(d)
	return &p, nil
}

// teamCounts are the counts a team shows.
func (r *Resolver) teamCounts(ctx context.Context, t *ent.Team) (countPair, error) {
	return load(ctx, loadersFrom(ctx).teamCounts(), t.ID)
}

// loadTeamCounts counts, per team read without them (see withTeamCounts),
// its members and spaces: one statement.
func (r *Resolver) loadTeamCounts(ctx context.Context, ids []string) (map[string]countPair, error) {
	ctx = internal(ctx, "counts of teams the viewer sees")
	rows, err := r.db(ctx).Team.Query().Where(team.IDIn(ids...)).Select(team.FieldID).Modify(withTeamCounts).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting the members and spaces of teams: %w", err)
	}
	return countPairsOf(rows, func(t *ent.Team) string { return t.ID }), nil
}

// withTeamCounts adds to a query of teams, per team, its members (a) and
// the live spaces it holds a grant on (b): two correlated counts.
func withTeamCounts(s *sql.Selector) {
	tm, cg, st := sql.Table(teammember.Table).As("tm"), sql.Table(contentgrant.Table).As("g"), sql.Table(space.Table).As("s")
	members := sql.Select(sql.Count("*")).From(tm).Where(sql.ColumnsEQ(tm.C(teammember.FieldTeamID), s.C(team.FieldID)))
	spaces := sql.Select(sql.Count(sql.Distinct(st.C(space.FieldID)))).From(st).
		Join(cg).On(cg.C(contentgrant.FieldSpaceID), st.C(space.FieldID)).
		Where(sql.And(sql.ColumnsEQ(cg.C(contentgrant.FieldTeamID), s.C(team.FieldID)), sql.IsNull(st.C(space.FieldDeletedAt))))
	appendCountPair(s, members, spaces)
}

// teamMembersByJoining orders a team's members, first joined first.
var teamMembersByJoining = page.Order[*ent.TeamMember, predicate.TeamMember, teammember.OrderOption]{
	Name: "team-members", Column: teammember.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(m *ent.TeamMember) any { return m.CreatedAt }, ID: func(m *ent.TeamMember) string { return m.ID },
}

// teamMembers lists a team's members, for whoever reads the team.
func (r *Resolver) teamMembers(ctx context.Context, t *ent.Team, a page.Args) (*model.TeamMemberConnection, error) {
	if _, _, err := r.teams.authorize(ctx, t.ID, authz.View); err != nil {
		return nil, err
	}
	conn, err := page.Paginate(within(ctx), r.db(ctx).TeamMember.Query().Where(teammember.TeamID(t.ID)), teamMembersByJoining, a)
	if err != nil {
		return nil, err
	}
	prefetchUsersOf(ctx, r, conn.Nodes(), func(m *ent.TeamMember) string { return m.UserID })
	return model.NewTeamMemberConnection(conn), nil
}
