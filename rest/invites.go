package rest

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// invites lists the invite links of the path's organization.
func (p params) invites(args page.Args) (*model.InviteConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Invites(p.ctx(), o, args.First, args.After, nil, nil)
}

// invite is the invite link the path names, in the path's organization.
func (p params) invite() (*ent.Invite, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Invite(p.ctx(), o, p.path("inviteId"))
}

func (p params) deleteInvite() (model.DeleteLinkInviteInput, error) {
	i, err := p.invite()
	if err != nil {
		return model.DeleteLinkInviteInput{}, err
	}
	return model.DeleteLinkInviteInput{ID: i.ID}, nil
}

// joinInvite is a join by the invite link the path names: the caller is
// no member yet, so the organization is not read first.
func (p params) joinInvite() (model.JoinOrganizationInput, error) {
	return model.JoinOrganizationInput{OrganizationID: p.path("organizationId"), InviteID: p.path("inviteId")}, nil
}

// emailDomainOrganizations lists the organizations of the path's email
// domain.
func (p params) emailDomainOrganizations() ([]*ent.Organization, error) {
	return p.a.r.Query().EmailDomainOrganizations(p.ctx(), p.path("emailDomain"))
}

// inviteeBody is an item of emails: an address, or an address with its own
// role (null for a guest).
type inviteeBody struct{ model.InviteeInput }

// UnmarshalJSON reads either form.
func (b *inviteeBody) UnmarshalJSON(raw []byte) error {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		b.Email = s
		return nil
	}
	var o struct {
		Email *string        `json:"email"`
		Role  Opt[enum.Role] `json:"role"`
	}
	if err := strictUnmarshal(raw, &o); err != nil || o.Email == nil || !o.Role.Set {
		return apperr.Invalid("", `must be an email address or {"email": "...", "role": <role or null>}`)
	}
	b.Email, b.Role = *o.Email, o.Role.Omittable()
	return nil
}

type inviteBody struct {
	Emails []inviteeBody  `json:"emails" rest:"required"`
	Role   Opt[enum.Role] `json:"role"`
	SSO    *bool          `json:"sso" rest:"nonnull"`
}

func (b *inviteBody) input(p params) (model.InviteMembersInput, error) {
	in := model.InviteMembersInput{OrganizationID: p.path("organizationId"), Role: b.Role.Omittable(), Sso: b.SSO,
		Emails: make([]*model.InviteeInput, len(b.Emails))}
	for i := range b.Emails {
		in.Emails[i] = &b.Emails[i].InviteeInput
	}
	return in, nil
}

type invitedJSON struct {
	Users           []string `json:"users"`
	Invited         int      `json:"invited"`
	FailedSSOEmails []string `json:"failedSSOEmails"`
}

func (a *API) presentInvited(_ context.Context, p *model.InviteMembersPayload) (invitedJSON, error) {
	return invitedJSON{Users: p.UserIds, Invited: p.Invited, FailedSSOEmails: p.FailedSSOEmails}, nil
}

// presentJoined is the answer of a join: an empty object.
func (a *API) presentJoined(context.Context, *model.JoinOrganizationPayload) (struct{}, error) {
	return struct{}{}, nil
}

// createInviteBody is the organization form of the official body: role is
// required, and null for a guest. The level form (a content invite) is
// refused, as in updateInviteBody.
type createInviteBody struct {
	Role  Opt[enum.Role]  `json:"role"`
	Level json.RawMessage `json:"level" rest:"unsupported"`
}

func (b *createInviteBody) input(p params) (model.CreateLinkInviteInput, error) {
	if !b.Role.Set {
		return model.CreateLinkInviteInput{}, apperr.Invalid("role", "is required")
	}
	return model.CreateLinkInviteInput{OrganizationID: p.path("organizationId"), Role: b.Role.Omittable()}, nil
}

// updateInviteBody is the role form of the official body; the level form
// is for invites to content, which Bindery does not make.
type updateInviteBody struct {
	Role  Opt[enum.Role]  `json:"role"`
	Level json.RawMessage `json:"level" rest:"unsupported"`
}

func (b *updateInviteBody) input(p params) (model.UpdateLinkInviteInput, error) {
	if !b.Role.Set {
		return model.UpdateLinkInviteInput{}, apperr.Invalid("role", "is required")
	}
	i, err := p.invite()
	if err != nil {
		return model.UpdateLinkInviteInput{}, err
	}
	return model.UpdateLinkInviteInput{ID: i.ID, Role: b.Role.Omittable()}, nil
}

type inviteJSON struct {
	Object    string     `json:"object"`
	ID        string     `json:"id"`
	Role      *enum.Role `json:"role"`
	Redundant bool       `json:"redundant"`
	address   string
}

func (j inviteJSON) location() string { return j.address }

func (a *API) presentInvite(ctx context.Context, i *ent.Invite) (inviteJSON, error) {
	res := a.r.Invite()
	redundant, err := res.Redundant(ctx, i)
	if err != nil {
		return inviteJSON{}, err
	}
	urls, err := res.Urls(ctx, i)
	if err != nil {
		return inviteJSON{}, err
	}
	return inviteJSON{Object: "invite", ID: i.ID, Role: i.Role, Redundant: redundant, address: urls.Location}, nil
}

type domainOrganizationsJSON struct {
	Organizations []organizationJSON `json:"organizations"`
}

func (a *API) presentDomainOrganizations(ctx context.Context, orgs []*ent.Organization) (domainOrganizationsJSON, error) {
	out := domainOrganizationsJSON{Organizations: make([]organizationJSON, len(orgs))}
	for i, o := range orgs {
		var err error
		if out.Organizations[i], err = a.presentOrganization(ctx, o); err != nil {
			return out, err
		}
	}
	return out, nil
}

// invitations lists the invitations by email of the path's organization
// that wait for their invitee.
func (p params) invitations(args page.Args) (*model.InviteConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Invitations(p.ctx(), o, args.First, args.After, nil, nil)
}

// revokeInvitation revokes the invitation the path names, in the path's
// organization.
func (p params) revokeInvitation() (model.RevokeInvitationInput, error) {
	o, err := p.organization()
	if err != nil {
		return model.RevokeInvitationInput{}, err
	}
	i, err := p.a.r.Organization().Invitation(p.ctx(), o, p.path("inviteId"))
	if err != nil {
		return model.RevokeInvitationInput{}, err
	}
	return model.RevokeInvitationInput{ID: i.ID}, nil
}

// invitationJSON is an invitation by email, as Bindery's extension
// presents it.
type invitationJSON struct {
	Object    string     `json:"object"`
	ID        string     `json:"id"`
	Email     string     `json:"email"`
	Role      *enum.Role `json:"role"`
	CreatedAt string     `json:"createdAt"`
	URLs      struct {
		Location string `json:"location"`
	} `json:"urls"`
}

func (a *API) presentInvitation(ctx context.Context, i *ent.Invite) (invitationJSON, error) {
	j := invitationJSON{Object: "invite", ID: i.ID, Role: i.Role, CreatedAt: model.FormatTime(i.CreatedAt)}
	if i.Email != nil {
		j.Email = *i.Email
	}
	urls, err := a.r.Invite().Urls(ctx, i)
	if err != nil {
		return j, err
	}
	j.URLs.Location = urls.Location
	return j, nil
}
