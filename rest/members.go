package rest

import (
	"context"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// members lists the members of the path's organization: role (a role or
// guest), search, sort (joinedAt or lastSeenAt) and order (desc or asc).
func (p params) members(args page.Args) (*model.MemberConnection, error) {
	var f struct {
		role  *model.MemberRoleFilter
		sort  model.MemberSort
		order model.ListOrder
	}
	if s := p.query("role"); s != nil {
		r := model.MemberRoleFilter(strings.ToUpper(*s))
		if !r.IsValid() || *s != strings.ToLower(*s) {
			return nil, apperr.Invalid("role", "must be a role or guest, not %q", *s)
		}
		f.role = &r
	}
	switch s := p.r.URL.Query().Get("sort"); s {
	case "", "joinedAt":
		f.sort = model.MemberSortJoinedAt
	case "lastSeenAt":
		f.sort = model.MemberSortLastSeenAt
	default:
		return nil, apperr.Invalid("sort", "must be joinedAt or lastSeenAt, not %q", s)
	}
	order, err := p.order()
	if err != nil {
		return nil, err
	}
	f.order = order
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Members(p.ctx(), o, args.First, args.After, nil, nil, f.role, p.query("search"), &f.sort, &f.order)
}

// order reads the order parameter of a list: desc (the default) or asc.
func (p params) order() (model.ListOrder, error) {
	switch o := p.r.URL.Query().Get("order"); o {
	case "", "desc":
		return model.ListOrderDesc, nil
	case "asc":
		return model.ListOrderAsc, nil
	default:
		return "", apperr.Invalid("order", "must be asc or desc, not %q", o)
	}
}

// member is the member the path names by user ID.
func (p params) member() (*ent.Member, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Member(p.ctx(), o, p.path("userId"))
}

// memberSpaces lists the spaces the path's member can access, with order.
func (p params) memberSpaces(args page.Args) (*model.MemberSpaceConnection, error) {
	order, err := p.order()
	if err != nil {
		return nil, err
	}
	m, err := p.member()
	if err != nil {
		return nil, err
	}
	return p.a.r.Member().SpaceAccess(p.ctx(), m, args.First, args.After, nil, nil, &order)
}

func (p params) removeMember() (model.RemoveMemberInput, error) {
	return model.RemoveMemberInput{OrganizationID: p.path("organizationId"), UserID: p.path("userId")}, nil
}

func (p params) setMemberSSO() (model.SetMemberSSOInput, error) {
	return model.SetMemberSSOInput{OrganizationID: p.path("organizationId"), UserID: p.path("userId")}, nil
}

func (p params) ping() (model.PingOrganizationInput, error) {
	return model.PingOrganizationInput{OrganizationID: p.path("organizationId")}, nil
}

type updateMemberBody struct {
	Role Opt[enum.Role] `json:"role"`
}

func (b *updateMemberBody) input(p params) (model.UpdateMemberInput, error) {
	return model.UpdateMemberInput{OrganizationID: p.path("organizationId"), UserID: p.path("userId"),
		Role: b.Role.Omittable()}, nil
}

type memberJSON struct {
	Object     string     `json:"object"`
	ID         string     `json:"id"`
	Role       *enum.Role `json:"role"`
	User       userJSON   `json:"user"`
	Disabled   bool       `json:"disabled"`
	JoinedAt   string     `json:"joinedAt"`
	LastSeenAt string     `json:"lastSeenAt,omitempty"`
	SSO        bool       `json:"sso"`
	Spaces     int        `json:"spaces"`
	Teams      int        `json:"teams"`
}

func (a *API) presentMember(ctx context.Context, m *ent.Member) (memberJSON, error) {
	res := a.r.Member()
	id, err := res.ID(ctx, m)
	if err != nil {
		return memberJSON{}, err
	}
	u, err := res.User(ctx, m)
	if err != nil {
		return memberJSON{}, err
	}
	uj, err := a.presentUser(ctx, u)
	if err != nil {
		return memberJSON{}, err
	}
	spaces, err := res.Spaces(ctx, m)
	if err != nil {
		return memberJSON{}, err
	}
	teams, err := res.Teams(ctx, m)
	if err != nil {
		return memberJSON{}, err
	}
	j := memberJSON{Object: "member", ID: id, Role: m.Role, User: uj, Disabled: m.Disabled,
		JoinedAt: model.FormatTime(m.JoinedAt), SSO: m.SSO, Spaces: spaces, Teams: teams}
	if m.LastSeenAt != nil {
		j.LastSeenAt = model.FormatTime(*m.LastSeenAt)
	}
	return j, nil
}

type memberSpaceJSON struct {
	Permission enum.Role `json:"permission"`
	Space      spaceJSON `json:"space"`
}

func (a *API) presentMemberSpace(ctx context.Context, ms *model.MemberSpace) (memberSpaceJSON, error) {
	s, err := a.presentSpace(ctx, ms.Space)
	return memberSpaceJSON{Permission: ms.Permission, Space: s}, err
}

// pingJSON is the answer of a ping: the official member's name is
// gitbookVisitorClaims, which the API contract calls serviceVisitorClaims;
// it is optional, and absent while Bindery has no visitor authentication.
type pingJSON struct {
	VisitorClaims *string `json:"gitbookVisitorClaims,omitempty"`
}

func (a *API) presentPing(_ context.Context, p *model.PingOrganizationPayload) (pingJSON, error) {
	return pingJSON{VisitorClaims: p.ServiceVisitorClaims}, nil
}
