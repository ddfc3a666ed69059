package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/samlprovider"
	"github.com/bindery/bindery/ent/team"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// SAML providers: Bindery records an organization's identity providers and
// tells each what Bindery is as their service provider (service). A
// provider is active once its sign-in URL, entity ID and certificate are
// all set, and pending until then.

// samlByCreation orders lists of SAML providers, oldest first.
var samlByCreation = page.Order[*ent.SAMLProvider, predicate.SAMLProvider, samlprovider.OrderOption]{
	Name: "saml-providers", Column: samlprovider.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(p *ent.SAMLProvider) any { return p.CreatedAt }, ID: func(p *ent.SAMLProvider) string { return p.ID },
}

// samlStatus is the status of a provider with these settings.
func samlStatus(ssoURL, entityID, certificate *string) enum.SAMLProviderStatus {
	if ssoURL != nil && entityID != nil && certificate != nil {
		return enum.SAMLProviderStatusActive
	}
	return enum.SAMLProviderStatusPending
}

// organizationSAMLProviders lists an organization's SAML providers, for its
// admins.
func (r *Resolver) organizationSAMLProviders(ctx context.Context, o *ent.Organization, a page.Args) (*model.SAMLProviderConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ManageAccess); err != nil {
		return nil, err
	}
	q := r.db(ctx).SAMLProvider.Query().Where(samlprovider.OrganizationID(o.ID))
	conn, err := page.Paginate(within(ctx), q, samlByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.samlProviders.loader(ctx)
	var teams []string
	for _, p := range conn.Nodes() {
		l.Prime(ctx, p.ID, p)
		if p.DefaultTeamID != nil {
			teams = append(teams, *p.DefaultTeamID)
		}
	}
	r.teams.prefetch(ctx, teams)
	return model.NewSAMLProviderConnection(conn), nil
}

// checkTeamOf checks that a team ID names a team of the organization.
func (r *Resolver) checkTeamOf(ctx context.Context, orgID string, teamID *string) error {
	if teamID == nil {
		return nil
	}
	ok, err := r.db(ctx).Team.Query().Where(team.ID(*teamID), team.OrganizationID(orgID)).Exist(within(ctx))
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Invalid("defaultTeam", "%q is not a team of the organization", *teamID)
	}
	return nil
}

// samlCertificate reads a certificate as sent, PEM or bare base64 DER, into
// the PEM that is stored (validate.CertificatePEM); nil stays nil.
func samlCertificate(s *string) (*string, error) {
	if s == nil {
		return nil, nil
	}
	if err := validate.SAMLCertificateInput(*s); err != nil {
		return nil, apperr.Invalid("certificate", "%s", err)
	}
	c, err := validate.CertificatePEM(*s)
	if err != nil {
		return nil, apperr.Invalid("certificate", "%s", err)
	}
	return &c, nil
}

func (r *Resolver) createSAMLProvider(ctx context.Context, in model.CreateSAMLProviderInput) (*ent.SAMLProvider, error) {
	var err error
	if in.Certificate, err = samlCertificate(in.Certificate); err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.ManageAccess,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*ent.SAMLProvider, error) {
			if err := r.checkTeamOf(ctx, o.ID, in.DefaultTeamID); err != nil {
				return nil, err
			}
			p, err := r.db(ctx).SAMLProvider.Create().SetOrganizationID(o.ID).SetLabel(strings.TrimSpace(in.Label)).
				SetNillableSSOURL(in.SsoURL).SetNillableEntityID(in.EntityID).SetNillableCertificate(in.Certificate).
				SetNillableDefaultTeamID(in.DefaultTeamID).SetNillableDefaultRole(in.DefaultRole).
				SetStatus(samlStatus(in.SsoURL, in.EntityID, in.Certificate)).Save(ctx)
			if err != nil {
				return nil, err
			}
			r.samlProviders.wrote(ctx, p)
			return p, nil
		})
}

func (r *Resolver) updateSAMLProvider(ctx context.Context, in model.UpdateSAMLProviderInput) (*ent.SAMLProvider, error) {
	if c, set := in.Certificate.ValueOK(); set {
		c, err := samlCertificate(c)
		if err != nil {
			return nil, err
		}
		in.Certificate = graphql.OmittableOf(c)
	}
	return mutate(ctx, r, r.samlProviders, in.ID, authz.Update, func(ctx context.Context, p *ent.SAMLProvider, _ authz.Decision) (*ent.SAMLProvider, error) {
		if t, set := in.DefaultTeamID.ValueOK(); set {
			if err := r.checkTeamOf(ctx, p.OrganizationID, t); err != nil {
				return nil, err
			}
		}
		u := p.Update()
		if in.Label != nil {
			u.SetLabel(strings.TrimSpace(*in.Label))
		}
		apply(in.SsoURL, u.SetNillableSSOURL, u.ClearSSOURL)
		apply(in.EntityID, u.SetNillableEntityID, u.ClearEntityID)
		apply(in.Certificate, u.SetNillableCertificate, u.ClearCertificate)
		apply(in.DefaultTeamID, u.SetNillableDefaultTeamID, u.ClearDefaultTeamID)
		apply(in.DefaultRole, u.SetNillableDefaultRole, u.ClearDefaultRole)
		after := func(o graphql.Omittable[*string], was *string) *string {
			if v, set := o.ValueOK(); set {
				return v
			}
			return was
		}
		u.SetStatus(samlStatus(after(in.SsoURL, p.SSOURL), after(in.EntityID, p.EntityID), after(in.Certificate, p.Certificate)))
		return u.Save(ctx)
	})
}

func (r *Resolver) deleteSAMLProvider(ctx context.Context, in model.DeleteSAMLProviderInput) error {
	return act(ctx, r, r.samlProviders, in.ID, authz.Delete, func(ctx context.Context, p *ent.SAMLProvider, _ authz.Decision) error {
		return r.db(ctx).SAMLProvider.DeleteOne(p).Exec(ctx)
	})
}

// samlBase is the root of Bindery's SAML addresses for one provider.
func (r *Resolver) samlBase(p *ent.SAMLProvider) string {
	return r.cfg.PublicURL + "/saml/" + p.ID
}

func (r *Resolver) samlService(p *ent.SAMLProvider) *model.SAMLServiceProvider {
	base := r.samlBase(p)
	return &model.SAMLServiceProvider{AcsURL: base + "/acs", StartURL: base + "/start", EntityID: base + "/metadata"}
}

func (r *Resolver) samlURLs(p *ent.SAMLProvider) *model.SAMLProviderURLs {
	return &model.SAMLProviderURLs{Location: r.cfg.PublicURL + "/v1/orgs/" + p.OrganizationID + "/saml/" + p.ID}
}

// ssoProviders lists the active SAML providers of an organization, to sign
// in with: whoever sees the organization may, and sees their labels and
// start URLs only.
func (r *Resolver) ssoProviders(ctx context.Context, o *ent.Organization) ([]*model.SSOProviderLogin, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.View); err != nil {
		return nil, err
	}
	ps, err := r.db(ctx).SAMLProvider.Query().
		Where(samlprovider.OrganizationID(o.ID), samlprovider.StatusEQ(enum.SAMLProviderStatusActive)).
		Order(samlprovider.ByCreatedAt(), samlprovider.ByID()).
		Select(samlprovider.FieldID, samlprovider.FieldLabel).All(internal(ctx, "the labels of an organization's sign-in providers"))
	if err != nil {
		return nil, err
	}
	out := make([]*model.SSOProviderLogin, len(ps))
	for i, p := range ps {
		out[i] = &model.SSOProviderLogin{ID: p.ID, Label: p.Label, StartURL: r.samlService(p).StartURL}
	}
	return out, nil
}
