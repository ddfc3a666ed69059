package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// teams lists the teams of the path's organization: owner and title filter.
func (p params) teams(args page.Args) (*model.TeamConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Teams(p.ctx(), o, args.First, args.After, nil, nil, p.query("owner"), p.query("title"))
}

// team is the team the path names, in the path's organization.
func (p params) team() (*ent.Team, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Team(p.ctx(), o, p.path("teamId"))
}

// memberTeams lists the teams of the path's member: title filter.
func (p params) memberTeams(args page.Args) (*model.TeamMembershipConnection, error) {
	m, err := p.member()
	if err != nil {
		return nil, err
	}
	return p.a.r.Member().TeamMemberships(p.ctx(), m, args.First, args.After, nil, nil, p.query("title"))
}

func (p params) deleteTeam() (model.DeleteTeamInput, error) {
	t, err := p.team()
	if err != nil {
		return model.DeleteTeamInput{}, err
	}
	return model.DeleteTeamInput{ID: t.ID}, nil
}

func (p params) removeTeamMember() (model.RemoveTeamMemberInput, error) {
	t, err := p.team()
	if err != nil {
		return model.RemoveTeamMemberInput{}, err
	}
	return model.RemoveTeamMemberInput{TeamID: t.ID, UserID: p.path("userId")}, nil
}

type createTeamBody struct {
	Title   string    `json:"title" rest:"required"`
	Members *[]string `json:"members" rest:"nonnull"`
}

func (b *createTeamBody) input(p params) (model.CreateTeamInput, error) {
	in := model.CreateTeamInput{OrganizationID: p.path("organizationId"), Title: b.Title}
	if b.Members != nil {
		in.Members = *b.Members
	}
	return in, nil
}

type updateTeamBody struct {
	Title string `json:"title" rest:"required"`
}

func (b *updateTeamBody) input(p params) (model.UpdateTeamInput, error) {
	t, err := p.team()
	if err != nil {
		return model.UpdateTeamInput{}, err
	}
	return model.UpdateTeamInput{ID: t.ID, Title: b.Title}, nil
}

type teamJSON struct {
	Object      string                 `json:"object"`
	ID          string                 `json:"id"`
	Title       string                 `json:"title"`
	Members     int                    `json:"members"`
	Spaces      int                    `json:"spaces"`
	CreatedAt   string                 `json:"createdAt"`
	Permissions *authz.TeamPermissions `json:"permissions"`
	address     string
}

func (j teamJSON) location() string { return j.address }

func (a *API) presentTeam(ctx context.Context, t *ent.Team) (teamJSON, error) {
	res := a.r.Team()
	members, err := res.MemberCount(ctx, t)
	if err != nil {
		return teamJSON{}, err
	}
	spaces, err := res.SpaceCount(ctx, t)
	if err != nil {
		return teamJSON{}, err
	}
	perms, err := res.Permissions(ctx, t)
	if err != nil {
		return teamJSON{}, err
	}
	urls, err := res.Urls(ctx, t)
	if err != nil {
		return teamJSON{}, err
	}
	return teamJSON{Object: "team", ID: t.ID, Title: t.Title, Members: members, Spaces: spaces,
		CreatedAt: model.FormatTime(t.CreatedAt), Permissions: perms, address: urls.Location}, nil
}

type teamMembershipJSON struct {
	Team   teamJSON `json:"team"`
	Member struct {
		Role enum.TeamMemberRole `json:"role"`
	} `json:"member"`
}

func (a *API) presentTeamMembership(ctx context.Context, tm *model.TeamMembership) (teamMembershipJSON, error) {
	var j teamMembershipJSON
	t, err := a.presentTeam(ctx, tm.Team)
	j.Team, j.Member.Role = t, tm.Role
	return j, err
}

// addTeamMemberBody is the official body of adding a team member: its
// role in the team, member by default.
type addTeamMemberBody struct {
	Role *enum.TeamMemberRole `json:"role" rest:"nonnull"`
}

func (b *addTeamMemberBody) input(p params) (model.AddTeamMemberInput, error) {
	t, err := p.team()
	if err != nil {
		return model.AddTeamMemberInput{}, err
	}
	// The path names a member of the organization: anyone else is a 404,
	// as for GET .../members/{userId}.
	if _, err := p.member(); err != nil {
		return model.AddTeamMemberInput{}, err
	}
	return model.AddTeamMemberInput{TeamID: t.ID, UserID: p.path("userId"), Role: b.Role}, nil
}
