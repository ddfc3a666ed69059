package graph

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	integ "github.com/bindery/bindery/internal/integration"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// Integrations are published by an organization under
// a name unique across Bindery, and installed by organizations. Bindery
// stores and versions an integration's script; it never runs it. Secrets
// are sealed with internal/secrets before they are stored, and nothing
// reads them back but a key rotation.

// integrationsByCreation orders lists of integrations, oldest first.
var integrationsByCreation = page.Order[*ent.Integration, predicate.Integration, integration.OrderOption]{
	Name: "integrations", Column: integration.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(i *ent.Integration) any { return i.CreatedAt }, ID: func(i *ent.Integration) string { return i.ID },
}

// installationsByCreation orders lists of installations, oldest first.
var installationsByCreation = page.Order[*ent.IntegrationInstallation, predicate.IntegrationInstallation, integrationinstallation.OrderOption]{
	Name: "integration-installations", Column: integrationinstallation.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(x *ent.IntegrationInstallation) any { return x.CreatedAt }, ID: func(x *ent.IntegrationInstallation) string { return x.ID },
}

// MaxInstallationSelection is the most spaces, and the most sites, an
// installation may select.
const MaxInstallationSelection = 1000

// integrationDecision decides who finds an integration: the members of its
// organization, with their role there (guests included, without a role),
// and anyone else when it is public or unlisted. Whoever finds it sees the
// organization that publishes it.
func (r *Resolver) integrationDecision(ctx context.Context, i *ent.Integration) (authz.Decision, error) {
	f, err := r.memberships(ctx)
	if err != nil {
		return authz.Decision{}, err
	}
	// A guest (a member without a role) sees what strangers see: listing
	// an organization's integrations needs read (authz.Organizations).
	if m := f.memberships[i.OrganizationID]; m.Member && m.Role != "" {
		return authz.Decision{Role: m.Role, Member: true}, nil
	}
	if i.Visibility == enum.IntegrationVisibilityPrivate {
		return authz.Decision{}, nil
	}
	loadersFrom(ctx).openOrg(i.OrganizationID)
	return authz.Decision{Observer: true}, nil
}

// installationDecision decides who sees an installation: the admins of
// the organization it is installed in, who may change it, and the admins
// of the integration's organization, who only read it.
func (r *Resolver) installationDecision(ctx context.Context, x *ent.IntegrationInstallation) (authz.Decision, error) {
	// The viewer's memberships, from their facts, or from the access of
	// the organization when a transaction's end cleared the facts and the
	// access is primed (see prime).
	o, err := r.orgFacts(ctx, x.OrganizationID)
	if err != nil {
		return authz.Decision{}, err
	}
	if m := o.Membership; m.Member && m.Role == enum.RoleAdmin {
		return authz.Decision{Role: enum.RoleAdmin, Member: true}, nil
	}
	ref, err := load(ctx, loadersFrom(ctx).integrationRefs(), x.IntegrationID)
	if err != nil {
		return authz.Decision{}, err
	}
	if o, err = r.orgFacts(ctx, ref.organizationID); err != nil {
		return authz.Decision{}, err
	}
	if m := o.Membership; m.Member && m.Role == enum.RoleAdmin {
		// Whoever sees an installation sees the organization it is in.
		loadersFrom(ctx).openOrg(x.OrganizationID)
		return authz.Decision{Observer: true}, nil
	}
	return authz.Decision{}, nil
}

// integrationByName loads the published integration of a name, as not
// found when the viewer cannot find it.
func (r *Resolver) integrationByName(ctx context.Context, name string, a authz.Action) (*ent.Integration, error) {
	if validate.IntegrationName(name) != nil {
		// No integration has such a name: it names nothing, as an unknown
		// one does (publishing checks the pattern of a new name).
		return nil, r.integrations.notFound()
	}
	// The row, read once: it primes the loader, whose load then decides
	// about it as about any loaded row.
	rows, err := r.db(ctx).Integration.Query().Where(integration.Name(name), integration.UnpublishedAtIsNil()).
		All(internal(ctx, "an integration by its name, decided next"))
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, r.integrations.notFound()
	}
	r.integrations.loader(ctx).Prime(ctx, rows[0].ID, rows[0])
	i, _, err := r.integrations.authorize(ctx, rows[0].ID, a)
	return i, err
}

// IntegrationFilter is what a list of integrations is filtered by.
type IntegrationFilter struct {
	Search         *string
	Category       *enum.IntegrationCategory
	BlockDomain    *string
	Blocks         *bool
	ContentSources *bool
	Owner          *string
	Scope          *enum.IntegrationScope
	Target         *enum.IntegrationTarget
}

// listIntegrations lists the published integrations the viewer may list:
// the public ones and those of the organizations they are a member of with
// a role.
func (r *Resolver) listIntegrations(ctx context.Context, f IntegrationFilter, a page.Args) (*model.IntegrationConnection, error) {
	if err := checkFilter("search", f.Search); err != nil {
		return nil, err
	}
	facts, err := r.memberships(ctx)
	if err != nil {
		return nil, err
	}
	var mine []string
	for orgID, m := range facts.memberships {
		if m.Member && m.Role != "" {
			mine = append(mine, orgID)
		}
	}
	slices.Sort(mine)
	scope := integration.VisibilityEQ(enum.IntegrationVisibilityPublic)
	if len(mine) > 0 {
		scope = integration.Or(scope, integration.OrganizationIDIn(mine...))
	}
	ps := []predicate.Integration{integration.UnpublishedAtIsNil(), scope}
	if f.Search != nil && *f.Search != "" {
		ps = append(ps, integration.Or(integration.NameContainsFold(*f.Search), integration.TitleContainsFold(*f.Search)))
	}
	if f.Category != nil {
		ps = append(ps, jsonContains(integration.FieldCategories, string(*f.Category)))
	}
	if f.BlockDomain != nil {
		if err := validate.IntegrationName(*f.BlockDomain); err != nil {
			return nil, apperr.Invalid("blockDomain", "%v", err)
		}
		ps = append(ps, jsonContains(integration.FieldBlockDomains, strings.ToLower(*f.BlockDomain)))
	}
	if f.Blocks != nil {
		ps = append(ps, nullIf(*f.Blocks, integration.BlocksNotNil(), integration.BlocksIsNil()))
	}
	if f.ContentSources != nil {
		ps = append(ps, nullIf(*f.ContentSources, integration.ContentSourcesNotNil(), integration.ContentSourcesIsNil()))
	}
	if f.Owner != nil {
		ps = append(ps, integration.OrganizationID(*f.Owner))
	}
	if f.Scope != nil {
		ps = append(ps, jsonContains(integration.FieldScopes, string(*f.Scope)))
	}
	if f.Target != nil {
		ps = append(ps, integration.TargetEQ(*f.Target))
	}
	q := r.db(ctx).Integration.Query().Where(ps...)
	conn, err := page.Paginate(within(ctx), q, integrationsByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.integrations.loader(ctx)
	for _, i := range conn.Nodes() {
		l.Prime(ctx, i.ID, i)
	}
	return model.NewIntegrationConnection(conn), nil
}

func nullIf(b bool, yes, no predicate.Integration) predicate.Integration {
	if b {
		return yes
	}
	return no
}

// jsonContains is true of a row whose JSON array column holds v.
func jsonContains(column, v string) predicate.Integration {
	return predicate.Integration(jsonArrayHas(column, v))
}

// jsonArrayHas is true of a row whose JSON array column holds the string
// v. The columns are json, not jsonb, on PostgreSQL (see jsonColumn in
// ent/schema), and sqljson casts to jsonb only along a path: the whole
// column is cast here.
func jsonArrayHas(column, v string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if s.Dialect() != dialect.Postgres {
			s.Where(sqljson.ValueContains(s.C(column), v))
			return
		}
		arg, _ := json.Marshal([]string{v})
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString(s.C(column) + "::jsonb @> ").Arg(string(arg)).WriteString("::jsonb")
		}))
	}
}

// integrationInstallations lists an integration's installations, for the
// admins of its organization.
func (r *Resolver) integrationInstallations(ctx context.Context, i *ent.Integration, externalID *string, a page.Args) (*model.IntegrationInstallationConnection, error) {
	if err := checkFilter("externalId", externalID); err != nil {
		return nil, err
	}
	if _, _, err := r.integrations.authorize(ctx, i.ID, authz.Administer); err != nil {
		return nil, err
	}
	// What its installations need of it, known.
	loadersFrom(ctx).integrationRefs().Prime(ctx, i.ID, refOf(i))
	q := r.db(ctx).IntegrationInstallation.Query().Where(integrationinstallation.IntegrationID(i.ID))
	if externalID != nil {
		q.Where(jsonArrayHas(integrationinstallation.FieldExternalIds, *externalID))
	}
	return r.pageInstallations(ctx, q, a)
}

// organizationInstallations lists the installations of an organization,
// for its admins.
func (r *Resolver) organizationInstallations(ctx context.Context, o *ent.Organization, a page.Args) (*model.IntegrationInstallationConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.Administer); err != nil {
		return nil, err
	}
	q := r.db(ctx).IntegrationInstallation.Query().Where(integrationinstallation.OrganizationID(o.ID))
	return r.pageInstallations(ctx, q, a)
}

func (r *Resolver) pageInstallations(ctx context.Context, q *ent.IntegrationInstallationQuery, a page.Args) (*model.IntegrationInstallationConnection, error) {
	conn, err := page.Paginate(within(ctx), q, installationsByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.installations.loader(ctx)
	for _, x := range conn.Nodes() {
		l.Prime(ctx, x.ID, x)
	}
	return model.NewIntegrationInstallationConnection(conn), nil
}

// publishing is a publish's input, checked.
type publishing struct {
	name, title, description, script string
	summary, icon                    *string
	previewImages                    []string
	visibility                       enum.IntegrationVisibility
	target                           enum.IntegrationTarget
	scopes                           []enum.IntegrationScope
	categories                       []enum.IntegrationCategory
	blocks, contentSources           []map[string]any
	blockDomains                     []string
	configurations                   map[string]any
	externalLinks                    []map[string]any
	csp                              json.RawMessage
	// secrets is nil when the publish leaves the stored ones as they are.
	secrets map[string]string
}

// checkPublish checks everything a publish carries that needs no database,
// beyond the fields' own limits: the name, title, description and summary
// are the ent validators'.
func checkPublish(in model.PublishIntegrationInput) (*publishing, error) {
	p := &publishing{name: in.Name, title: strings.TrimSpace(in.Title), description: in.Description, script: in.Script,
		summary: in.Summary, visibility: enum.IntegrationVisibilityPrivate, target: enum.IntegrationTargetAll}
	if len(in.Script) > integ.MaxScriptBytes {
		return nil, apperr.Invalid("script", "is over %d bytes", integ.MaxScriptBytes)
	}
	if in.Visibility != nil {
		p.visibility = *in.Visibility
	}
	if in.Target != nil {
		p.target = *in.Target
	}
	var err error
	if p.scopes, err = distinct("scopes", in.Scopes); err != nil {
		return nil, err
	}
	if p.categories, err = distinct("categories", in.Categories); err != nil {
		return nil, err
	}
	if in.Icon != nil {
		if _, err := integ.CheckImage("icon", *in.Icon, integ.MaxIconBytes); err != nil {
			return nil, err
		}
		p.icon = in.Icon
	}
	if len(in.PreviewImages) > validate.MaxIntegrationPreviewImages {
		return nil, apperr.Invalid("previewImages", "at most %d images", validate.MaxIntegrationPreviewImages)
	}
	p.previewImages = []string{}
	for _, img := range in.PreviewImages {
		if _, err := integ.CheckImage("previewImages", img, integ.MaxPreviewImageBytes); err != nil {
			return nil, err
		}
		p.previewImages = append(p.previewImages, img)
	}
	if len(in.ExternalLinks) > validate.MaxIntegrationExternalLinks {
		return nil, apperr.Invalid("externalLinks", "at most %d links", validate.MaxIntegrationExternalLinks)
	}
	p.externalLinks = []map[string]any{}
	for _, l := range in.ExternalLinks {
		if err := integ.CheckLink("externalLinks", l.URL, l.Label); err != nil {
			return nil, err
		}
		p.externalLinks = append(p.externalLinks, map[string]any{"url": l.URL, "label": l.Label})
	}
	if p.blocks, p.blockDomains, err = integ.CheckBlocks(json.RawMessage(in.Blocks)); err != nil {
		return nil, err
	}
	if p.contentSources, err = integ.CheckContentSources(json.RawMessage(in.ContentSources)); err != nil {
		return nil, err
	}
	if p.configurations, err = integ.CheckConfigurations(json.RawMessage(in.Configurations)); err != nil {
		return nil, err
	}
	if p.csp, err = integ.CheckContentSecurityPolicy(json.RawMessage(in.ContentSecurityPolicy)); err != nil {
		return nil, err
	}
	if in.Secrets != nil {
		if p.secrets, err = integ.CheckSecrets(json.RawMessage(in.Secrets)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// distinct refuses a list with a repeat or a value off its enumeration.
func distinct[T interface {
	~string
	Valid() bool
}](field string, vs []T) ([]T, error) {
	out := make([]T, 0, len(vs))
	for _, v := range vs {
		if !v.Valid() {
			return nil, apperr.Invalid(field, "%q is not one of its values", v)
		}
		if slices.Contains(out, v) {
			return nil, apperr.Invalid(field, "%q is listed twice", v)
		}
		out = append(out, v)
	}
	return out, nil
}

// publishingOrganization is the organization a publish names by ID or
// subdomain, where the viewer must be an admin.
func (r *Resolver) publishingOrganization(ctx context.Context, ref string) (*ent.Organization, error) {
	orgID := ref
	if !id.Is(ref, id.Organization) {
		ids, err := r.db(ctx).Organization.Query().Where(organization.Hostname(ref)).
			IDs(internal(ctx, "an organization's ID by its subdomain, decided next"))
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, r.orgs.notFound()
		}
		orgID = ids[0]
	}
	o, _, err := r.orgs.authorize(ctx, orgID, authz.PublishIntegration)
	return o, err
}

// publishIntegration creates or updates the integration of a name. Its
// organization is named by ID or subdomain, and authorized in the
// transaction by publishingOrganization.
func (r *Resolver) publishIntegration(ctx context.Context, in model.PublishIntegrationInput) (*ent.Integration, error) {
	p, err := checkPublish(in)
	if err != nil {
		return nil, err
	}
	if len(p.secrets) > 0 && r.secretBox == nil {
		return nil, apperr.Preconditionf("This server cannot store secrets: set BINDERY_SECRET_KEY (required on PostgreSQL) and publish again")
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Integration, error) {
		o, err := r.publishingOrganization(ctx, in.Organization)
		if err != nil {
			return nil, err
		}
		existing, err := r.db(ctx).Integration.Query().Where(integration.Name(p.name)).
			Only(internal(ctx, "whether a name is taken, across organizations"))
		var out *ent.Integration
		switch {
		case ent.IsNotFound(err):
			out, err = r.createIntegration(ctx, o.ID, p)
		case err == nil && existing.OrganizationID != o.ID:
			// Names are one namespace across the server, so that a taken
			// name is taken is no secret; whose it is, and whether its
			// integration is public, private or unpublished, is: every
			// taken name answers the same.
			err = apperr.Conflictf("The name %q is not available: choose another", p.name)
		case err == nil:
			out, err = r.updateIntegration(ctx, existing, p)
		}
		if err != nil {
			return nil, err
		}
		r.integrations.wrote(ctx, out)
		r.orgs.wrote(ctx, o) // its owner
		return out, nil
	})
}

// sealSecrets seals each secret with the integration's ID and the secret's
// name as additional data.
func (r *Resolver) sealSecrets(integrationID string, plain map[string]string) (map[string]string, error) {
	sealed := make(map[string]string, len(plain))
	for name, v := range plain {
		s, err := r.secretBox.Seal(v, integrationID+"/"+name)
		if err != nil {
			return nil, err
		}
		sealed[name] = s
	}
	return sealed, nil
}

func (r *Resolver) createIntegration(ctx context.Context, orgID string, p *publishing) (*ent.Integration, error) {
	itgID := id.New(id.Integration)
	secrets := map[string]string{}
	if len(p.secrets) > 0 {
		var err error
		if secrets, err = r.sealSecrets(itgID, p.secrets); err != nil {
			return nil, err
		}
	}
	c := r.db(ctx).Integration.Create().SetID(itgID).SetName(p.name).SetOrganizationID(orgID).SetSecrets(secrets)
	p.apply(c.Mutation())
	return c.Save(ctx)
}

func (r *Resolver) updateIntegration(ctx context.Context, i *ent.Integration, p *publishing) (*ent.Integration, error) {
	u := r.db(ctx).Integration.UpdateOne(i).AddVersion(1).ClearUnpublishedAt()
	if p.secrets != nil {
		sealed, err := r.sealSecrets(i.ID, p.secrets)
		if err != nil {
			return nil, err
		}
		u.SetSecrets(sealed)
	}
	p.apply(u.Mutation())
	out, err := u.Save(ctx)
	if err != nil {
		return nil, err
	}
	return out, r.restatus(ctx, out)
}

// apply sets the publish's members on a create or an update: a publish
// gives the whole definition, so an absent member returns to its default.
func (p *publishing) apply(m *ent.IntegrationMutation) {
	m.SetTitle(p.title)
	m.SetDescription(p.description)
	m.SetScript(p.script)
	m.SetVisibility(p.visibility)
	m.SetTarget(p.target)
	m.SetScopes(p.scopes)
	m.SetCategories(p.categories)
	m.SetPreviewImages(p.previewImages)
	m.SetExternalLinks(p.externalLinks)
	m.SetBlockDomains(p.blockDomains)
	for _, x := range []struct {
		set   bool
		apply func()
		clear func()
	}{
		{p.summary != nil, func() { m.SetSummary(*p.summary) }, m.ClearSummary},
		{p.icon != nil, func() { m.SetIcon(*p.icon) }, m.ClearIcon},
		{p.blocks != nil, func() { m.SetBlocks(p.blocks) }, m.ClearBlocks},
		{p.contentSources != nil, func() { m.SetContentSources(p.contentSources) }, m.ClearContentSources},
		{p.configurations != nil, func() { m.SetConfigurations(p.configurations) }, m.ClearConfigurations},
		{p.csp != nil, func() { m.SetContentSecurityPolicy(p.csp) }, m.ClearContentSecurityPolicy},
	} {
		if x.set {
			x.apply()
		} else {
			x.clear()
		}
	}
}

// restatus sets the status of every installation of a published
// integration from its configuration: pending while it lacks a property
// the integration now requires, active otherwise (paused ones included:
// publishing again resumes them). Two statements, whatever their number.
func (r *Resolver) restatus(ctx context.Context, i *ent.Integration) error {
	xs, err := r.db(ctx).IntegrationInstallation.Query().Where(integrationinstallation.IntegrationID(i.ID)).
		Select(integrationinstallation.FieldID, integrationinstallation.FieldConfiguration).
		All(internal(ctx, "the installations of an integration being published"))
	if err != nil {
		return err
	}
	by := map[enum.InstallationStatus][]string{}
	for _, x := range xs {
		s := installationStatus(i, x.Configuration)
		by[s] = append(by[s], x.ID)
	}
	for s, ids := range by {
		if err := r.db(ctx).IntegrationInstallation.Update().Where(integrationinstallation.IDIn(ids...)).
			SetStatus(s).Exec(ctx); err != nil {
			return err
		}
	}
	if len(by[enum.InstallationStatusActive]) > 0 {
		// Resumed installations reach the integration's webhook endpoints.
		hookEverywhere(ctx)
	}
	return nil
}

// installationStatus is the status of an installation of i with a
// configuration.
func installationStatus(i *ent.Integration, cfg map[string]any) enum.InstallationStatus {
	switch {
	case i.UnpublishedAt != nil:
		return enum.InstallationStatusPaused
	case !integ.Complete(i.Configurations, integ.TargetAccount, cfg):
		return enum.InstallationStatusPending
	}
	return enum.InstallationStatusActive
}

// unpublishIntegration hides an integration from everyone and pauses its
// installations, which stay: publishing it again resumes them. The
// integration is named by its name, which integrationByName authorizes in
// the transaction.
func (r *Resolver) unpublishIntegration(ctx context.Context, in model.UnpublishIntegrationInput) error {
	_, err := transact(ctx, r, func(ctx context.Context) (struct{}, error) {
		i, err := r.integrationByName(ctx, in.Name, authz.Delete)
		if err != nil {
			return struct{}{}, err
		}
		if err := r.db(ctx).Integration.UpdateOne(i).SetUnpublishedAt(r.clock()).Exec(ctx); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, r.db(ctx).IntegrationInstallation.Update().Where(integrationinstallation.IntegrationID(i.ID)).
			SetStatus(enum.InstallationStatusPaused).Exec(ctx)
	})
	return err
}
