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

// inviteMembers makes each invitee a user (created when missing) and a
// member with their role; a member's role is raised, never lowered. The new
// members are sent an invitation once the transaction commits.
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
	out := &model.InviteMembersPayload{ClientMutationID: in.ClientMutationID, FailedSSOEmails: []string{}}
	err = r.tx(ctx, func(ctx context.Context) error {
		o, _, err := r.orgs.authorize(ctx, in.OrganizationID, authz.ManageAccess)
		if err != nil {
			return err
		}
		def := roleOr(in.Role, joiningRole(o))
		users, err := r.ensureUsers(ctx, emails)
		if err != nil {
			return err
		}
		// Each user's role: the highest asked for them.
		want := map[string]*enum.Role{}
		out.UserIds = make([]string, len(emails))
		var order []string
		for i, e := range emails {
			u := users[e]
			out.UserIds[i] = u.ID
			role := roleOr(in.Emails[i].Role, def)
			if prev, seen := want[u.ID]; !seen {
				order = append(order, u.ID)
				want[u.ID] = role
			} else if outranks(role, prev) {
				want[u.ID] = role
			}
		}
		added, err := r.addMembers(ctx, o.ID, order, want)
		if err != nil {
			return err
		}
		out.Invited = len(added)
		if in.Sso != nil && *in.Sso {
			active, err := r.db(ctx).SAMLProvider.Query().
				Where(samlprovider.OrganizationID(o.ID), samlprovider.StatusEQ(enum.SAMLProviderStatusActive)).Exist(within(ctx))
			if err != nil {
				return fmt.Errorf("looking for an active SAML provider: %w", err)
			}
			if !active {
				out.FailedSSOEmails = unique(emails)
			} else if err := r.db(ctx).Member.Update().Where(member.OrganizationID(o.ID), member.UserIDIn(order...)).
				SetSSO(true).Exec(ctx); err != nil {
				return fmt.Errorf("marking SSO members: %w", err)
			}
		}
		byID := make(map[string]*ent.User, len(users))
		for _, u := range users {
			byID[u.ID] = u
		}
		msgs := make([]mail.Message, 0, len(added))
		for _, id := range added {
			msgs = append(msgs, r.invitation(v.User, o, byID[id].Email, want[id]))
		}
		r.deliver(ctx, msgs)
		return nil
	})
	if err != nil {
		return nil, err
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

// ensureUsers returns the users of the emails by email, creating the
// missing ones (without a token: they sign in once given one): two
// statements whatever their number.
func (r *Resolver) ensureUsers(ctx context.Context, emails []string) (map[string]*ent.User, error) {
	emails = unique(emails)
	creates := make([]*ent.UserCreate, len(emails))
	for i, e := range emails {
		name, _, _ := strings.Cut(e, "@")
		creates[i] = r.db(ctx).User.Create().SetEmail(e).SetDisplayName(name)
	}
	if err := r.db(ctx).User.CreateBulk(creates...).OnConflictColumns(user.FieldEmail).DoNothing().Exec(ctx); err != nil {
		return nil, fmt.Errorf("creating users: %w", err)
	}
	users, err := r.db(ctx).User.Query().Where(user.EmailIn(emails...)).All(internal(ctx, "the invitees' accounts, by the emails an admin gave"))
	if err != nil {
		return nil, fmt.Errorf("loading users: %w", err)
	}
	out := make(map[string]*ent.User, len(users))
	for _, u := range users {
		out[u.Email] = u
	}
	for _, e := range emails {
		if out[e] == nil {
			return nil, fmt.Errorf("user %s was neither found nor created", e)
		}
	}
	return out, nil
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

// invitation is the email telling someone they were added to an
// organization.
func (r *Resolver) invitation(from *ent.User, o *ent.Organization, to string, role *enum.Role) mail.Message {
	as := "a guest, who sees what is shared with them"
	if role != nil {
		as = "the " + string(*role) + " role"
	}
	return mail.Message{
		To:      to,
		Subject: fmt.Sprintf("%s invited you to %s on Bindery", from.DisplayName, o.Title),
		Body: fmt.Sprintf("%s (%s) added you to the organization %q on Bindery, with %s.\n\nOpen it at %s\n",
			from.DisplayName, from.Email, o.Title, as, r.organizationURLs(o).App),
	}
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
			r.log.InfoContext(ctx, "invitation sent", "to", m.To, "attempts", attempt)
			return
		}
		if attempt == mailAttempts {
			r.jobs.Record(mailJob, telemetry.Failed)
			r.log.ErrorContext(ctx, "invitation not delivered", "to", m.To, "attempts", attempt, "error", err)
			return
		}
		r.jobs.Record(mailJob, telemetry.Retry)
		r.log.WarnContext(ctx, "invitation not sent, retrying", "to", m.To, "attempt", attempt, "retryIn", pause, "error", err)
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
	var i *ent.Invite
	err = r.tx(ctx, func(ctx context.Context) error {
		o, _, err := r.orgs.authorize(ctx, in.OrganizationID, authz.ManageAccess)
		if err != nil {
			return err
		}
		i, err = r.db(ctx).Invite.Create().SetOrganizationID(o.ID).SetKind(enum.InviteKindLink).
			SetNillableRole(roleOr(in.Role, joiningRole(o))).SetCreatedByID(v.User.ID).Save(ctx)
		return err
	})
	return i, err
}

func (r *Resolver) updateLinkInvite(ctx context.Context, in model.UpdateLinkInviteInput) (*ent.Invite, error) {
	var i *ent.Invite
	err := r.tx(ctx, func(ctx context.Context) error {
		var err error
		if i, _, err = r.invites.authorize(ctx, in.ID, authz.Update); err != nil {
			return err
		}
		u := i.Update()
		apply(in.Role, u.SetNillableRole, u.ClearRole)
		i, err = u.Save(ctx)
		return err
	})
	return i, err
}

func (r *Resolver) deleteLinkInvite(ctx context.Context, in model.DeleteLinkInviteInput) error {
	return r.tx(ctx, func(ctx context.Context) error {
		i, _, err := r.invites.authorize(ctx, in.ID, authz.Delete)
		if err != nil {
			return err
		}
		return r.db(ctx).Invite.DeleteOne(i).Exec(ctx)
	})
}

// joinOrganization makes the viewer a member of an invite link's
// organization with its role, or raises their role to it. The viewer is no
// member yet, so sees neither the organization nor the invite: holding the
// invite's ID is the right to join (authz.Invites, Join), and the two are
// read by that right alone.
func (r *Resolver) joinOrganization(ctx context.Context, in model.JoinOrganizationInput) (*ent.Member, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	var m *ent.Member
	err = r.tx(ctx, func(ctx context.Context) error {
		byID := internal(ctx, "an invite link and its organization, by the link's secret ID that the viewer holds")
		i, err := r.db(ctx).Invite.Query().Where(invite.ID(in.InviteID), invite.KindEQ(enum.InviteKindLink)).
			WithOrganization().Only(byID)
		if ent.IsNotFound(err) || (err == nil && i.OrganizationID != in.OrganizationID) {
			return r.invites.notFound()
		}
		if err != nil {
			return err
		}
		// Holding the ID is what Join asks for.
		if err := r.invites.require(ctx, i, authz.Decision{Observer: true}, authz.Join); err != nil {
			return err
		}
		if !i.Edges.Organization.InviteLinks {
			return apperr.Forbidden("The organization does not accept invite links")
		}
		if _, err := r.addMembers(ctx, i.OrganizationID, []string{v.User.ID}, map[string]*enum.Role{v.User.ID: i.Role}); err != nil {
			return err
		}
		m, err = r.findMember(ctx, i.OrganizationID, v.User.ID)
		return err
	})
	return m, err
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
