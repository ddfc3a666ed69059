package graph

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/invite"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/samlprovider"
	"github.com/bindery/bindery/ent/signinflow"
	"github.com/bindery/bindery/ent/teammember"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/ent/useridentity"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/mail"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/validate"
)

// Sign-in is decided here, in the application layer; package signin speaks
// HTTP to browsers and providers, and tells the resolver who a provider
// vouched for. What a sign-in may do to membership (accept invitations, join
// through SAML) goes through the same functions the APIs use.

// Person is someone a sign-in method vouched for.
type Person struct {
	Method enum.SignInKind
	// Email is the person's address, verified by the method: an email link
	// opened, a provider's email_verified claim, or an organization's SAML
	// provider, which speaks for the organization's own people. Empty when
	// the method vouched for no address.
	Email string
	// Name is the name the provider gives, for a new account.
	Name string
	// Issuer and Subject name the person's account at an OpenID Connect
	// provider: once linked, they sign the same user in whatever address
	// the provider gives later.
	Issuer, Subject string
	// SAMLProvider is the organization's SAML provider that vouched: the
	// person becomes a member of its organization.
	SAMLProvider *ent.SAMLProvider
}

// Session is a session a sign-in started: the secret for the browser's
// cookie, shown only here, and when it ends at the latest.
type Session struct {
	User      *ent.User
	Secret    string
	ExpiresAt time.Time
}

// noAccount is the answer to a person who may not get an account: the same
// whatever the reason, so that it tells nothing about who has one.
func noAccount() error {
	return apperr.Forbidden("There is no Bindery account for this address, and it cannot be made by signing in: ask an administrator of your organization for an invitation")
}

// SignIn finds or makes the person's user, accepts what their address was
// invited to, makes them a member through SAML, and starts a session for
// the browser of userAgent, all in one transaction.
func (r *Resolver) SignIn(ctx context.Context, p Person, userAgent string) (*Session, error) {
	p.Email = strings.ToLower(strings.TrimSpace(p.Email))
	return transact(ctx, r, func(ctx context.Context) (*Session, error) {
		u, err := r.signInUser(ctx, p)
		if err != nil {
			return nil, err
		}
		if p.Email != "" && strings.EqualFold(p.Email, u.Email) {
			if err := r.acceptInvitationsOf(ctx, u); err != nil {
				return nil, err
			}
		}
		if p.SAMLProvider != nil {
			if err := r.joinBySAML(ctx, p.SAMLProvider, u); err != nil {
				return nil, err
			}
		}
		return r.startSession(ctx, u, p.Method, userAgent)
	})
}

// signInUser finds the user a person is: by their linked identity, then by
// their verified address; or makes one when they may have an account.
func (r *Resolver) signInUser(ctx context.Context, p Person) (*ent.User, error) {
	db := r.db(ctx)
	read := internal(ctx, "the user a sign-in names")
	if p.Issuer != "" {
		u, err := db.UserIdentity.Query().Where(useridentity.Issuer(p.Issuer), useridentity.Subject(p.Subject)).
			QueryUser().Only(read)
		if err == nil || !ent.IsNotFound(err) {
			return u, err
		}
	}
	if p.Email == "" {
		return nil, noAccount()
	}
	u, err := db.User.Query().Where(user.Email(p.Email)).Only(read)
	if ent.IsNotFound(err) {
		var may bool
		if may, err = r.mayHaveAccount(ctx, p); err == nil && !may {
			return nil, noAccount()
		}
		if err == nil {
			u, err = r.newUser(ctx, p)
		}
	}
	if err != nil {
		return nil, err
	}
	if p.Issuer != "" {
		err = db.UserIdentity.Create().SetUserID(u.ID).SetIssuer(p.Issuer).SetSubject(p.Subject).Exec(ctx)
		if err != nil {
			return nil, fmt.Errorf("linking an identity: %w", err)
		}
	}
	return u, nil
}

// mayHaveAccount says whether a person whose address Bindery does not know
// gets an account: when an organization's SAML provider vouches for them,
// when their address was invited, or, when BINDERY_SIGN_UP is domains,
// when an organization lists their address's domain.
func (r *Resolver) mayHaveAccount(ctx context.Context, p Person) (bool, error) {
	if p.SAMLProvider != nil {
		return true, nil
	}
	read := internal(ctx, "whether an address may have an account")
	invited, err := r.db(ctx).Invite.Query().
		Where(invite.EmailEqualFold(p.Email), invite.AcceptedAtIsNil(), invite.KindEQ(enum.InviteKindEmail)).Exist(read)
	if err != nil || invited || r.cfg.SignUp != config.SignUpDomains {
		return invited, err
	}
	_, domain, _ := strings.Cut(p.Email, "@")
	return r.db(ctx).Organization.Query().Where(emailDomainsHold(domain)).Exist(read)
}

// newUser makes the user of a person.
func (r *Resolver) newUser(ctx context.Context, p Person) (*ent.User, error) {
	name := strings.TrimSpace(p.Name)
	if name == "" || len(name) > 255 {
		name, _, _ = strings.Cut(p.Email, "@")
	}
	u, err := r.db(ctx).User.Create().SetEmail(p.Email).SetDisplayName(name).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("making a user: %w", err)
	}
	return u, nil
}

// acceptInvitationsOf accepts the invitations waiting for the user's
// address: signing in proved the address is theirs.
func (r *Resolver) acceptInvitationsOf(ctx context.Context, u *ent.User) error {
	waiting, err := r.db(ctx).Invite.Query().
		Where(invite.EmailEqualFold(u.Email), invite.AcceptedAtIsNil(), invite.KindEQ(enum.InviteKindEmail)).
		All(internal(ctx, "the invitations of the address that signs in"))
	if err != nil {
		return err
	}
	for _, i := range waiting {
		if _, err := r.acceptInvitation(ctx, u, i); err != nil && apperr.KindOf(err) != apperr.NotFound {
			return err
		}
	}
	return nil
}

// joinBySAML makes the user a member of the SAML provider's organization
// with its default role (a member keeps a higher one) and team, marked as
// an SSO member. A disabled member stays disabled: their administrators
// decided.
func (r *Resolver) joinBySAML(ctx context.Context, p *ent.SAMLProvider, u *ent.User) error {
	db := r.db(ctx)
	if _, err := r.addMembers(ctx, p.OrganizationID, []string{u.ID}, map[string]*enum.Role{u.ID: p.DefaultRole}); err != nil {
		return err
	}
	if err := db.Member.Update().Where(member.OrganizationID(p.OrganizationID), member.UserID(u.ID)).
		SetSSO(true).Exec(ctx); err != nil {
		return fmt.Errorf("marking an SSO member: %w", err)
	}
	if p.DefaultTeamID == nil {
		return nil
	}
	in, err := db.TeamMember.Query().Where(teammember.TeamID(*p.DefaultTeamID), teammember.UserID(u.ID)).
		Exist(internal(ctx, "whether a member signing in through SAML is in the provider's team"))
	if err != nil || in {
		return err
	}
	if err := db.TeamMember.Create().SetTeamID(*p.DefaultTeamID).SetUserID(u.ID).Exec(ctx); err != nil {
		return fmt.Errorf("adding an SSO member to the default team: %w", err)
	}
	return nil
}

// startSession stores a new session of the user, under its secret's hash.
// Every sign-in makes a new one, so a secret set in a browser before the
// sign-in (session fixation) is never the session's.
func (r *Resolver) startSession(ctx context.Context, u *ent.User, method enum.SignInKind, userAgent string) (*Session, error) {
	secret, hash := auth.NewSession()
	expires := r.clock().Add(r.cfg.SessionLifetime)
	if len(userAgent) > 512 {
		userAgent = userAgent[:512]
	}
	err := r.db(ctx).APIToken.Create().SetUserID(u.ID).SetKind(enum.CredentialKindSession).SetLabel("Browser session").
		SetTokenHash(hash).SetExpiresAt(expires).SetMethod(string(method)).SetUserAgent(strings.ToValidUTF8(userAgent, "")).
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting a session: %w", err)
	}
	return &Session{User: u, Secret: secret, ExpiresAt: expires}, nil
}

// EndSession ends the session of a secret, if there is one: signing out.
func (r *Resolver) EndSession(ctx context.Context, secret string) error {
	if !auth.WellFormed(secret, auth.SessionPrefix) {
		return nil
	}
	_, err := r.client.APIToken.Delete().
		Where(apitoken.TokenHash(auth.HashToken(secret)), apitoken.KindEQ(enum.CredentialKindSession)).Exec(store.OutsideTx(ctx))
	return err
}

// SignInSAMLProvider returns an active SAML provider by ID, for signing in
// through it; NotFound otherwise.
func (r *Resolver) SignInSAMLProvider(ctx context.Context, id string) (*ent.SAMLProvider, error) {
	p, err := r.client.SAMLProvider.Query().
		Where(samlprovider.ID(id), samlprovider.StatusEQ(enum.SAMLProviderStatusActive)).
		Only(internal(ctx, "the SAML provider a person signs in through"))
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("SAML provider not found")
	}
	return p, err
}

// SAMLOrganization returns the organization of a SAML provider, for the
// sign-in page's title.
func (r *Resolver) SAMLOrganization(ctx context.Context, p *ent.SAMLProvider) (*ent.Organization, error) {
	return r.client.Organization.Query().Where(organization.ID(p.OrganizationID)).
		Only(internal(ctx, "the organization named on its SAML sign-in page"))
}

// Flow is a sign-in under way (see ent's SignInFlow).
type Flow = ent.SignInFlow

// BeginFlow stores a sign-in under way, under the hash of secret, until
// expires.
func (r *Resolver) BeginFlow(ctx context.Context, secret string, f Flow) error {
	return r.client.SignInFlow.Create().SetKind(f.Kind).SetSecretHash(auth.HashToken(secret)).
		SetEmail(f.Email).SetProvider(f.Provider).SetNonce(f.Nonce).SetVerifier(f.Verifier).
		SetReturnTo(f.ReturnTo).SetExpiresAt(f.ExpiresAt).Exec(store.OutsideTx(ctx))
}

// FinishFlow takes the sign-in under way of a secret, of a kind, and
// deletes it: of two requests that bring the secret, one gets the flow.
// A flow missing, expired, of another kind or already taken is NotFound.
func (r *Resolver) FinishFlow(ctx context.Context, secret string, kind enum.SignInKind) (*Flow, error) {
	gone := apperr.NotFoundf("This sign-in link or request has expired or was already used: start again")
	hash := auth.HashToken(secret)
	f, err := r.client.SignInFlow.Query().Where(signinflow.SecretHash(hash)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, gone
	}
	if err != nil {
		return nil, err
	}
	n, err := r.client.SignInFlow.Delete().Where(signinflow.ID(f.ID)).Exec(store.OutsideTx(ctx))
	switch {
	case err != nil:
		return nil, err
	case n == 0 || f.Kind != kind || !f.ExpiresAt.After(r.clock()):
		return nil, gone
	}
	return f, nil
}

// Used records a single-use proof (a SAML assertion's ID) until expires,
// and refuses one recorded already: on any replica, a proof is taken once.
func (r *Resolver) Used(ctx context.Context, key string, expires time.Time) error {
	err := r.client.SignInReplay.Create().SetKey(key).SetExpiresAt(expires).Exec(store.OutsideTx(ctx))
	if ent.IsConstraintError(err) {
		return apperr.Forbidden("This sign-in was already used: start again")
	}
	return err
}

// currentSession reports whether t is the session of the request.
func currentSession(ctx context.Context, t *ent.APIToken) bool {
	v := auth.ViewerFrom(ctx)
	return v != nil && v.Token != nil && v.Token.ID == t.ID
}

// revokeSession ends one of the viewer's sessions.
func (r *Resolver) revokeSession(ctx context.Context, in model.RevokeSessionInput) (*model.RevokeSessionPayload, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*model.RevokeSessionPayload, error) {
		// The viewer's own sessions only: anyone else's is not found.
		n, err := r.db(ctx).APIToken.Delete().
			Where(apitoken.ID(in.ID), apitoken.UserID(v.User.ID), apitoken.KindEQ(enum.CredentialKindSession)).Exec(ctx)
		if err == nil && n == 0 {
			err = apperr.NotFoundf("Session not found")
		}
		return &model.RevokeSessionPayload{RevokedSessionID: in.ID, ClientMutationID: in.ClientMutationID}, err
	})
}

// signOut ends the session of the request.
func (r *Resolver) signOut(ctx context.Context, in *model.SignOutInput) (*model.SignOutPayload, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if v.Token == nil || v.Token.Kind != enum.CredentialKindSession {
		return nil, apperr.Preconditionf("This request is authenticated by an API token, not a browser session: revoke the token instead")
	}
	var mutationID *string
	if in != nil {
		mutationID = in.ClientMutationID
	}
	return transact(ctx, r, func(ctx context.Context) (*model.SignOutPayload, error) {
		err := r.db(ctx).APIToken.DeleteOneID(v.Token.ID).Exec(ctx)
		if ent.IsNotFound(err) {
			err = nil // revoked meanwhile: signed out all the same
		}
		return &model.SignOutPayload{EndedSessionID: v.Token.ID, ClientMutationID: mutationID}, err
	})
}

// emailLinkLifetime is how long an email link signs in.
const emailLinkLifetime = 15 * time.Minute

// linkPrefix starts the secret of an email link.
const linkPrefix = "bnl_"

// SendSignInLink sends a sign-in link to an address that may sign in: a
// user's, or one that may have an account (mayHaveAccount). Any other
// address gets nothing, and the caller answers the same either way, so
// that nobody learns which addresses have accounts. message writes the
// email around the link's secret; without a relay it is logged.
func (r *Resolver) SendSignInLink(ctx context.Context, email, returnTo string, message func(secret string) mail.Message) error {
	email = strings.ToLower(strings.TrimSpace(email))
	if err := validate.Email(email); err != nil {
		return apperr.Invalid("email", "%s", err)
	}
	known, err := r.client.User.Query().Where(user.Email(email)).Exist(internal(ctx, "whether an address has an account"))
	if err == nil && !known {
		known, err = r.mayHaveAccount(ctx, Person{Method: enum.SignInKindEmail, Email: email})
	}
	if err != nil || !known {
		return err
	}
	secret := linkPrefix + id.Random(40)
	err = r.BeginFlow(ctx, secret, Flow{Kind: enum.SignInKindEmail, Email: email, ReturnTo: returnTo,
		ExpiresAt: r.clock().Add(emailLinkLifetime)})
	if err != nil {
		return err
	}
	m := message(secret)
	m.To = email
	r.deliver(ctx, []mail.Message{m})
	return nil
}
