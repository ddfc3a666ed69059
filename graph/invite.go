package graph

import (
	"context"
	"fmt"
	netmail "net/mail"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/invite"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/samlprovider"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/mail"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/telemetry"
	"github.com/bindery/bindery/internal/validate"
)

// maxInvitees bounds the people one invitation names.
const maxInvitees = 100

// maxDomainOrganizations bounds the organizations of an email domain.
const maxDomainOrganizations = 100

// invitesByCreation orders lists of invite links, oldest first.
var invitesByCreation = page.Order[*ent.Invite, predicate.Invite, invite.OrderOption]{
	Name: "invites", Column: invite.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(i *ent.Invite) any { return i.CreatedAt }, ID: func(i *ent.Invite) string { return i.ID },
}

// roleOr is the role an optional input asks for: absent, def; null, a guest
// (nil).
func roleOr(o graphql.Omittable[*enum.Role], def *enum.Role) *enum.Role {
	if v, set := o.ValueOK(); set {
		return v
	}
	return def
}

// joiningRole is the role people join an organization with when nothing
// else says: its default role, else read.
func joiningRole(o *ent.Organization) *enum.Role {
	if o.DefaultRole != nil {
		return o.DefaultRole
	}
	r := enum.RoleRead
	return &r
}

// outranks reports whether role a gives more than b; nil is a guest, the
// least.
func outranks(a, b *enum.Role) bool {
	return a != nil && (b == nil || a.Rank() > b.Rank())
}

// normalizeEmail reads an address as net/mail does ("a@b.example" or
// "Name <a@b.example>") and returns it lower-cased, within the limits of a
// user's email.
func normalizeEmail(s string) (string, error) {
	a, err := netmail.ParseAddress(strings.TrimSpace(s))
	if err != nil {
		return "", apperr.Invalid("emails", "%q is not an email address", s)
	}
	e := strings.ToLower(a.Address)
	if err := validate.Email(e); err != nil {
		return "", apperr.Invalid("emails", "%q %s", s, err)
	}
	return e, nil
}

// inviteMembers invites people by email. An address of a member raises
// their role, never lowering it: the inviter sees the organization's
// members anyway. Any other address gets an invitation, whether or not it
// has an account, which is sent once the transaction commits and makes no
// one a member until the user of that address accepts it
// (acceptInvitation). The answer is the same for an address with an account
// and one without, and no account is made for it. Its statements do not
// grow with the number of addresses.
func (r *Resolver) inviteMembers(ctx context.Context, in model.InviteMembersInput) (*model.InviteMembersPayload, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if len(in.Emails) == 0 || len(in.Emails) > maxInvitees {
		return nil, apperr.Invalid("emails", "must hold 1 to %d addresses", maxInvitees)
	}
	emails := make([]string, len(in.Emails))
	for i, x := range in.Emails {
		if emails[i], err = normalizeEmail(x.Email); err != nil {
			return nil, err
		}
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.ManageAccess,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*model.InviteMembersPayload, error) {
			want, order := inviteRoles(in, emails, roleOr(in.Role, joiningRole(o)))
			out := &model.InviteMembersPayload{ClientMutationID: in.ClientMutationID, FailedSSOEmails: []string{}}
			sso := in.Sso != nil && *in.Sso
			if sso {
				active, err := r.db(ctx).SAMLProvider.Query().
					Where(samlprovider.OrganizationID(o.ID), samlprovider.StatusEQ(enum.SAMLProviderStatusActive)).Exist(within(ctx))
				if err != nil {
					return nil, fmt.Errorf("looking for an active SAML provider: %w", err)
				}
				if !active {
					out.FailedSSOEmails, sso = order, false
				}
			}
			var invitees []string
			var err error
			if out.UserIds, invitees, err = r.raiseInvitedMembers(ctx, o.ID, order, want, sso); err != nil {
				return nil, err
			}
			if out.Invitations, err = r.invite(ctx, o.ID, v.User.ID, invitees, want, sso); err != nil {
				return nil, err
			}
			out.Invited = len(out.Invitations)
			msgs := make([]mail.Message, len(out.Invitations))
			for i, inv := range out.Invitations {
				msgs[i] = r.invitation(v.User, o, inv)
			}
			r.deliver(ctx, msgs)
			// Each invitation shows the organization. The viewer's access
			// stays: an admin has the highest role, which no invite raises.
			r.orgs.wrote(ctx, o)
			return out, r.wroteAccess(ctx, o.ID)
		})
}

// inviteRoles returns the role each address of an invitation asks for, the
// highest when it is named twice, and the addresses once each, in order.
func inviteRoles(in model.InviteMembersInput, emails []string, def *enum.Role) (map[string]*enum.Role, []string) {
	want := map[string]*enum.Role{}
	var order []string
	for i, e := range emails {
		role := roleOr(in.Emails[i].Role, def)
		if prev, seen := want[e]; !seen {
			order = append(order, e)
			want[e] = role
		} else if outranks(role, prev) {
			want[e] = role
		}
	}
	return want, order
}

// raiseInvitedMembers splits invited addresses into the user IDs of an
// organization's members, whose roles it raises to those wanted (and marks
// SSO members with sso), and the other addresses.
func (r *Resolver) raiseInvitedMembers(ctx context.Context, orgID string, emails []string, want map[string]*enum.Role,
	sso bool) (userIDs, others []string, err error) {
	members, err := r.db(ctx).User.Query().
		Where(user.EmailIn(emails...), user.HasMembershipsWith(member.OrganizationID(orgID))).
		Select(user.FieldID, user.FieldEmail).
		All(internal(ctx, "which addresses an admin invites are of members of their organization"))
	if err != nil {
		return nil, nil, fmt.Errorf("loading the invited members: %w", err)
	}
	memberOf := make(map[string]string, len(members))
	for _, u := range members {
		memberOf[u.Email] = u.ID
	}
	userIDs = []string{}
	roles := map[string]*enum.Role{}
	for _, e := range emails {
		if id, ok := memberOf[e]; ok {
			userIDs = append(userIDs, id)
			roles[id] = want[e]
		} else {
			others = append(others, e)
		}
	}
	if len(userIDs) == 0 {
		return userIDs, others, nil
	}
	if _, err := r.addMembers(ctx, orgID, userIDs, roles); err != nil {
		return nil, nil, err
	}
	if sso {
		if err := r.db(ctx).Member.Update().Where(member.OrganizationID(orgID), member.UserIDIn(userIDs...)).
			SetSSO(true).Exec(ctx); err != nil {
			return nil, nil, fmt.Errorf("marking SSO members: %w", err)
		}
	}
	return userIDs, others, nil
}

// invite makes or renews the invitations of addresses to an organization,
// with their roles, in the order of the addresses: one per address, which
// inviting it again updates (a UNIQUE index on the organization and the
// address), waiting again if someone accepted it and left since.
func (r *Resolver) invite(ctx context.Context, orgID, inviterID string, emails []string, role map[string]*enum.Role,
	sso bool) ([]*ent.Invite, error) {
	if len(emails) == 0 {
		return []*ent.Invite{}, nil
	}
	db := r.db(ctx)
	creates := make([]*ent.InviteCreate, len(emails))
	for i, e := range emails {
		creates[i] = db.Invite.Create().SetOrganizationID(orgID).SetKind(enum.InviteKindEmail).SetEmail(e).
			SetNillableRole(role[e]).SetSSO(sso).SetCreatedByID(inviterID)
	}
	err := db.Invite.CreateBulk(creates...).OnConflictColumns(invite.FieldOrganizationID, invite.FieldEmail).
		Update(func(u *ent.InviteUpsert) { u.UpdateRole().UpdateSSO().ClearAcceptedAt() }).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("inviting: %w", err)
	}
	made, err := db.Invite.Query().Where(invite.OrganizationID(orgID), invite.EmailIn(emails...)).All(within(ctx))
	if err != nil {
		return nil, fmt.Errorf("loading the invitations: %w", err)
	}
	byEmail := make(map[string]*ent.Invite, len(made))
	for _, i := range made {
		byEmail[*i.Email] = i
	}
	out := make([]*ent.Invite, len(emails))
	for n, e := range emails {
		if out[n] = byEmail[e]; out[n] == nil {
			return nil, fmt.Errorf("the invitation of %s was neither made nor found", e)
		}
	}
	return out, nil
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// addMembers makes users members of an organization with their role (nil
// for a guest), or raises an existing member's role to it, never lowering
// it. It returns the users who became members, in order. Its statements
// do not grow with the number of users: one read, one insert, and one
// update per role raised to.
func (r *Resolver) addMembers(ctx context.Context, orgID string, users []string, role map[string]*enum.Role) ([]string, error) {
	db := r.db(ctx)
	existing, err := db.Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(users...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading members: %w", err)
	}
	raise := map[enum.Role][]string{}
	had := map[string]bool{}
	for _, m := range existing {
		had[m.UserID] = true
		if want := role[m.UserID]; outranks(want, m.Role) {
			raise[*want] = append(raise[*want], m.ID)
		}
	}
	var added []string
	var creates []*ent.MemberCreate
	for _, u := range users {
		if !had[u] {
			added = append(added, u)
			creates = append(creates, db.Member.Create().SetOrganizationID(orgID).SetUserID(u).SetNillableRole(role[u]))
		}
	}
	if len(creates) > 0 {
		if err := db.Member.CreateBulk(creates...).Exec(ctx); err != nil {
			return nil, fmt.Errorf("adding members: %w", err)
		}
	}
	for _, u := range added {
		r.emit(ctx, events.Webhook(orgID, "", enum.WebhookEventTypeMemberAdded, u))
	}
	for _, rl := range enum.RoleValues() {
		if ids := raise[rl]; len(ids) > 0 {
			if err := db.Member.Update().Where(member.IDIn(ids...)).SetRole(rl).Exec(ctx); err != nil {
				return nil, fmt.Errorf("raising roles: %w", err)
			}
		}
	}
	return added, nil
}

// invitation is the email inviting someone to an organization: who asks,
// with which role, and how to accept, which only the account of that
// address can.
func (r *Resolver) invitation(from *ent.User, o *ent.Organization, i *ent.Invite) mail.Message {
	as := "a guest, who sees what is shared with them"
	if i.Role != nil {
		as = "the " + string(*i.Role) + " role"
	}
	return mail.Message{
		To:      *i.Email,
		Subject: fmt.Sprintf("%s invited you to %s on Bindery", from.DisplayName, o.Title),
		Body: fmt.Sprintf("%s (%s) invited you to join the organization %q on Bindery, with %s.\n\n"+
			"You are not a member until you accept, with the account of this address: POST %s with its API token, "+
			"or GraphQL acceptInvitation(input: {id: %q}).\n\nThe organization: %s\n",
			from.DisplayName, from.Email, o.Title, as, r.inviteLocation(i), i.ID, r.organizationURLs(o).App),
	}
}

// inviteLocation is an invite's address in /v1: a link's under
// link-invites; an invitation's under invites, where it is accepted.
func (r *Resolver) inviteLocation(i *ent.Invite) string {
	base := r.cfg.PublicURL + "/v1/orgs/" + i.OrganizationID
	if i.Kind == enum.InviteKindEmail {
		return base + "/invites/" + i.ID
	}
	return base + "/link-invites/" + i.ID
}

// Delivery of email: after the transaction commits, in the background, a
// few attempts per message with a growing pause between them. A message
// that cannot be delivered is logged; the change it announces stays made.
const mailAttempts = 4

// mailJob is the job label of invitation deliveries in
// bindery_background_jobs_total.
const mailJob = "mail"

// deliver sends messages once the transaction of ctx commits.
func (r *Resolver) deliver(ctx context.Context, msgs []mail.Message) {
	if len(msgs) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	r.afterCommit(ctx, func() {
		r.mailing.Add(1)
		go func() {
			defer r.mailing.Done()
			for _, m := range msgs {
				r.send(ctx, m)
			}
		}()
	})
}

// send delivers one message, retrying with backoff.
func (r *Resolver) send(ctx context.Context, m mail.Message) {
	pause := r.mailBackoff
	for attempt := 1; ; attempt++ {
		err := r.mailer.Send(ctx, m)
		if err == nil {
			r.jobs.Record(mailJob, telemetry.OK)
			r.log.InfoContext(ctx, "email sent", "to", m.To, "subject", m.Subject, "attempts", attempt)
			return
		}
		if attempt == mailAttempts {
			r.jobs.Record(mailJob, telemetry.Failed)
			r.log.ErrorContext(ctx, "email not delivered", "to", m.To, "subject", m.Subject, "attempts", attempt, "error", err)
			return
		}
		r.jobs.Record(mailJob, telemetry.Retry)
		r.log.WarnContext(ctx, "email not sent, retrying", "to", m.To, "subject", m.Subject, "attempt", attempt, "retryIn", pause, "error", err)
		time.Sleep(pause)
		pause *= 2
	}
}

// organizationInvites lists an organization's invite links, for its
// admins.
func (r *Resolver) organizationInvites(ctx context.Context, o *ent.Organization, a page.Args) (*model.InviteConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ManageAccess); err != nil {
		return nil, err
	}
	q := r.db(ctx).Invite.Query().Where(invite.OrganizationID(o.ID), invite.KindEQ(enum.InviteKindLink))
	conn, err := page.Paginate(within(ctx), q, invitesByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.invites.loader(ctx)
	for _, i := range conn.Nodes() {
		l.Prime(ctx, i.ID, i)
	}
	return model.NewInviteConnection(conn), nil
}

func (r *Resolver) createLinkInvite(ctx context.Context, in model.CreateLinkInviteInput) (*ent.Invite, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.ManageAccess, func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*ent.Invite, error) {
		i, err := r.db(ctx).Invite.Create().SetOrganizationID(o.ID).SetKind(enum.InviteKindLink).
			SetNillableRole(roleOr(in.Role, joiningRole(o))).SetCreatedByID(v.User.ID).Save(ctx)
		if err != nil {
			return nil, err
		}
		r.invites.wrote(ctx, i)
		return i, nil
	})
}

func (r *Resolver) updateLinkInvite(ctx context.Context, in model.UpdateLinkInviteInput) (*ent.Invite, error) {
	return mutate(ctx, r, r.invites, in.ID, authz.Update, func(ctx context.Context, i *ent.Invite, _ authz.Decision) (*ent.Invite, error) {
		u := i.Update()
		apply(in.Role, u.SetNillableRole, u.ClearRole)
		return u.Save(ctx)
	})
}

func (r *Resolver) deleteLinkInvite(ctx context.Context, in model.DeleteLinkInviteInput) error {
	return act(ctx, r, r.invites, in.ID, authz.Delete, func(ctx context.Context, i *ent.Invite, _ authz.Decision) error {
		return r.db(ctx).Invite.DeleteOne(i).Exec(ctx)
	})
}

// joinOrganization makes the viewer a member of an invite's organization
// with its role, or raises their role to it. The viewer is no member yet,
// so sees neither the organization nor the invite, which are read by its ID
// alone: holding an invite link's ID is the right to join (authz.Invites,
// Join); an invitation by email is for the user of its address alone
// (acceptInvitation).
func (r *Resolver) joinOrganization(ctx context.Context, in model.JoinOrganizationInput) (*ent.Member, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Member, error) {
		byID := internal(ctx, "an invite and its organization, by the invite's secret ID that the viewer holds")
		i, err := r.db(ctx).Invite.Query().Where(invite.ID(in.InviteID)).WithOrganization().Only(byID)
		if ent.IsNotFound(err) || (err == nil && i.OrganizationID != in.OrganizationID) {
			return nil, r.invites.notFound()
		}
		if err != nil {
			return nil, err
		}
		if i.Kind == enum.InviteKindEmail {
			return r.acceptInvitation(ctx, v.User, i)
		}
		// Holding the ID is what Join asks for.
		if err := r.invites.require(ctx, i, authz.Decision{Observer: true}, authz.Join); err != nil {
			return nil, err
		}
		if !i.Edges.Organization.InviteLinks {
			return nil, apperr.Forbidden("The organization does not accept invite links")
		}
		if _, err := r.addMembers(ctx, i.OrganizationID, []string{v.User.ID}, map[string]*enum.Role{v.User.ID: i.Role}); err != nil {
			return nil, err
		}
		return r.findMember(ctx, i.OrganizationID, v.User.ID)
	})
}

// invitationNotFound is the error of an invitation by email that the viewer
// may not act on, the same as for one that does not exist.
func invitationNotFound() error { return apperr.NotFoundf("Invitation not found") }

// invitationByID loads an invitation by email by its ID, unauthorized: its
// callers let its invitee or its organization's admins act on it.
func (r *Resolver) invitationByID(ctx context.Context, id string) (*ent.Invite, error) {
	i, err := r.db(ctx).Invite.Query().Where(invite.ID(id), invite.KindEQ(enum.InviteKindEmail)).
		Only(internal(ctx, "an invitation by its ID, which its invitee or an admin of its organization acts on"))
	if ent.IsNotFound(err) {
		return nil, invitationNotFound()
	}
	return i, err
}

// acceptInvitation makes the user of an invitation's address a member with
// its role, or raises them to it; to anyone else the invitation does not
// exist. The invitation is marked accepted by a conditional update, so that
// of two acceptances at once one adds the membership; accepting again
// answers the membership while it lasts. Both APIs accept through here
// (acceptInvitation, joinOrganization), and so will sign-in once Bindery
// has it: the first sign-in of an address accepts its invitations.
func (r *Resolver) acceptInvitation(ctx context.Context, u *ent.User, i *ent.Invite) (*ent.Member, error) {
	if i.Email == nil || !strings.EqualFold(*i.Email, u.Email) {
		return nil, invitationNotFound()
	}
	n, err := r.db(ctx).Invite.Update().Where(invite.ID(i.ID), invite.AcceptedAtIsNil()).SetAcceptedAt(r.clock()).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("accepting an invitation: %w", err)
	}
	if n == 1 {
		if _, err := r.addMembers(ctx, i.OrganizationID, []string{u.ID}, map[string]*enum.Role{u.ID: i.Role}); err != nil {
			return nil, err
		}
		if i.SSO {
			if err := r.db(ctx).Member.Update().Where(member.OrganizationID(i.OrganizationID), member.UserID(u.ID)).
				SetSSO(true).Exec(ctx); err != nil {
				return nil, fmt.Errorf("marking an SSO member: %w", err)
			}
		}
	}
	m, err := r.findMember(ctx, i.OrganizationID, u.ID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, invitationNotFound() // accepted, and left since
	}
	return m, err
}

// acceptInvitationByID is acceptInvitation for the viewer, by the
// invitation's ID.
func (r *Resolver) acceptInvitationByID(ctx context.Context, in model.AcceptInvitationInput) (*ent.Member, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Member, error) {
		i, err := r.invitationByID(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		return r.acceptInvitation(ctx, v.User, i)
	})
}

// revokeInvitation deletes an invitation that waits for its invitee, for
// the admins of its organization; to anyone else it does not exist. An
// invitation by email has no policy of its own (r.invites holds invite
// links): invitationAdmin decides, in the transaction.
func (r *Resolver) revokeInvitation(ctx context.Context, in model.RevokeInvitationInput) error {
	_, err := transact(ctx, r, func(ctx context.Context) (struct{}, error) {
		i, err := r.invitationByID(ctx, in.ID)
		if err == nil {
			err = r.invitationAdmin(ctx, i)
		}
		if err != nil {
			return struct{}{}, err
		}
		n, err := r.db(ctx).Invite.Delete().Where(invite.ID(i.ID), invite.AcceptedAtIsNil()).Exec(ctx)
		if err == nil && n == 0 {
			err = invitationNotFound() // accepted meanwhile: nothing waits
		}
		return struct{}{}, err
	})
	return err
}

// invitationAdmin lets the admins of an invitation's organization act on it
// while it waits: it does not exist for anyone else, nor once accepted.
func (r *Resolver) invitationAdmin(ctx context.Context, i *ent.Invite) error {
	d, err := r.organizationDecision(ctx, i.OrganizationID)
	if err != nil {
		return err
	}
	if !d.Can(enum.RoleAdmin) || i.AcceptedAt != nil {
		return invitationNotFound()
	}
	return nil
}

// organizationInvitation is one invitation by email of an organization
// that waits for its invitee, for its admins: one of another organization
// does not exist here.
func (r *Resolver) organizationInvitation(ctx context.Context, o *ent.Organization, id string) (*ent.Invite, error) {
	i, err := r.invitationByID(ctx, id)
	if err == nil && i.OrganizationID != o.ID {
		err = invitationNotFound()
	}
	if err == nil {
		err = r.invitationAdmin(ctx, i)
	}
	if err != nil {
		return nil, err
	}
	return i, nil
}

// waitingInvitations is the predicate of invitations by email that wait for
// their invitee.
func waitingInvitations() predicate.Invite {
	return invite.And(invite.KindEQ(enum.InviteKindEmail), invite.AcceptedAtIsNil())
}

// organizationInvitations lists an organization's invitations by email that
// wait for their invitee, for its admins.
func (r *Resolver) organizationInvitations(ctx context.Context, o *ent.Organization, a page.Args) (*model.InviteConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ManageAccess); err != nil {
		return nil, err
	}
	q := r.db(ctx).Invite.Query().Where(invite.OrganizationID(o.ID), waitingInvitations())
	conn, err := page.Paginate(within(ctx), q, invitesByCreation, a)
	if err != nil {
		return nil, err
	}
	return model.NewInviteConnection(conn), nil
}

// viewerInvitations lists the invitations by email sent to the viewer's
// address that wait for them. Each opens its organization to the viewer,
// who may join it, as an observer (see emailDomainOrganizations).
func (r *Resolver) viewerInvitations(ctx context.Context, a page.Args) (*model.InviteConnection, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	q := r.db(ctx).Invite.Query().Where(invite.Email(strings.ToLower(v.User.Email)), waitingInvitations())
	conn, err := page.Paginate(internal(ctx, "the invitations sent to the viewer's own address"), q, invitesByCreation, a)
	if err != nil {
		return nil, err
	}
	for _, i := range conn.Nodes() {
		loadersFrom(ctx).openOrg(i.OrganizationID)
	}
	return model.NewInviteConnection(conn), nil
}

// inviteOrganization is the organization an invite admits to: its admins
// see it, and so does its invitee while the invitation waits for them.
func (r *Resolver) inviteOrganization(ctx context.Context, i *ent.Invite) (*ent.Organization, error) {
	if i.Kind == enum.InviteKindEmail && i.AcceptedAt == nil && i.Email != nil {
		if v := auth.ViewerFrom(ctx); v != nil && strings.EqualFold(v.User.Email, *i.Email) {
			loadersFrom(ctx).openOrg(i.OrganizationID)
		}
	}
	o, _, err := r.orgs.get(ctx, i.OrganizationID)
	return o, err
}

// inviteRedundant reports whether the viewer's role in the invite's
// organization is already at least the invite's.
func (r *Resolver) inviteRedundant(ctx context.Context, i *ent.Invite) (bool, error) {
	a, err := r.orgAccess(ctx, i.OrganizationID)
	if err != nil || !a.Membership.Member {
		return false, err
	}
	return i.Role == nil || a.Membership.Role.AtLeast(*i.Role), nil
}

// emailDomainOrganizations lists the organizations whose email domains hold
// domain: those the viewer belongs to, or, when the viewer's own email is
// on that domain, all of them, which they may join and therefore see. Anyone
// else learns nothing: the list is empty.
func (r *Resolver) emailDomainOrganizations(ctx context.Context, domain string) ([]*ent.Organization, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	d := strings.ToLower(strings.TrimSpace(domain))
	if err := validate.EmailDomain(d); err != nil {
		return nil, apperr.Invalid("emailDomain", "%s", err)
	}
	_, own, _ := strings.Cut(v.User.Email, "@")
	mayJoin := own == d
	q := r.db(ctx).Organization.Query().Where(emailDomainsHold(d)).
		Order(organization.ByCreatedAt(), organization.ByID()).Limit(maxDomainOrganizations)
	if !mayJoin {
		q.Where(organization.HasMembersWith(member.UserID(v.User.ID), member.Disabled(false)))
	}
	orgs, err := q.All(internal(ctx, "organizations of an email domain: the viewer's, or those they may join"))
	if err != nil {
		return nil, err
	}
	l := r.orgs.loader(ctx)
	for _, o := range orgs {
		if mayJoin {
			loadersFrom(ctx).openOrg(o.ID)
		}
		l.Prime(ctx, o.ID, o)
	}
	return orgs, nil
}

// emailDomainsHold keeps the organizations whose email domains hold d, a
// valid domain (no LIKE wildcard can be in it): its quoted form in the JSON
// array, read as text (SQLite stores it as a blob, PostgreSQL as json).
func emailDomainsHold(d string) predicate.Organization {
	return func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString("CAST(" + s.C(organization.FieldEmailDomains) + " AS TEXT) LIKE ").Arg(`%"` + d + `"%`)
		}))
	}
}
