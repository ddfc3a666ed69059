package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	integ "github.com/bindery/bindery/internal/integration"
)

// integrationPath is an integration's path under a base URL.
func integrationPath(name string) string { return "/integrations/" + url.PathEscape(name) }

func (r *Resolver) integrationURLs(i *ent.Integration) *model.IntegrationURLs {
	u := &model.IntegrationURLs{
		Location:       r.cfg.PublicURL + "/v1" + integrationPath(i.Name),
		App:            r.cfg.AppURL + integrationPath(i.Name),
		Assets:         fmt.Sprintf("%s%s/assets/%d", r.cfg.AppURL, integrationPath(i.Name), i.Version),
		PublicEndpoint: r.cfg.PublicURL + integrationPath(i.Name) + "/endpoint",
	}
	if i.Icon != nil {
		icon := integ.DataURL(*i.Icon)
		u.Icon = &icon
	}
	return u
}

func integrationPreviewImages(i *ent.Integration) []string {
	out := make([]string, len(i.PreviewImages))
	for n, img := range i.PreviewImages {
		out[n] = integ.DataURL(img)
	}
	return out
}

func integrationExternalLinks(i *ent.Integration) []*model.IntegrationExternalLink {
	out := make([]*model.IntegrationExternalLink, 0, len(i.ExternalLinks))
	for _, l := range i.ExternalLinks {
		u, _ := l["url"].(string)
		label, _ := l["label"].(string)
		out = append(out, &model.IntegrationExternalLink{URL: u, Label: label})
	}
	return out
}

// jsonOrNull encodes a stored member as a JSON scalar, null when absent.
func jsonOrNull[T any](v T, absent bool) (model.JSON, error) {
	if absent {
		return nil, nil
	}
	return model.NewJSON(v)
}

func integrationCSP(i *ent.Integration) model.JSON {
	if len(i.ContentSecurityPolicy) == 0 {
		return nil
	}
	return model.JSON(i.ContentSecurityPolicy)
}

// integrationPermissions: its organization's admins administer it; anyone
// who sees it may install it in an organization they administer.
func (r *Resolver) integrationPermissions(ctx context.Context, i *ent.Integration) (*model.IntegrationPermissions, error) {
	d, err := r.integrationDecision(ctx, i)
	if err != nil {
		return nil, err
	}
	f, err := r.memberships(ctx)
	if err != nil {
		return nil, err
	}
	install := false
	for _, m := range f.memberships {
		install = install || (m.Member && m.Role == enum.RoleAdmin)
	}
	return &model.IntegrationPermissions{Admin: authz.Integrations.Allows(d, authz.Update, false), Install: install && d.Visible()}, nil
}

func (r *Resolver) integrationOwner(ctx context.Context, i *ent.Integration) (*ent.Organization, error) {
	if _, err := r.integrationDecision(ctx, i); err != nil {
		return nil, err
	}
	o, _, err := r.orgs.get(ctx, i.OrganizationID)
	return o, err
}

// installationURLs names the installation under its integration's name,
// which an unpublished integration keeps.
func (r *Resolver) installationURLs(ctx context.Context, x *ent.IntegrationInstallation) (*model.IntegrationInstallationURLs, error) {
	ref, err := load(ctx, loadersFrom(ctx).integrationRefs(), x.IntegrationID)
	if err != nil {
		return nil, err
	}
	base := integrationPath(ref.name) + "/installations/" + x.ID
	return &model.IntegrationInstallationURLs{Location: r.cfg.PublicURL + "/v1" + base, App: r.cfg.AppURL + base,
		PublicEndpoint: r.cfg.PublicURL + base + "/endpoint"}, nil
}

// integrationRef is what an installation needs of its integration, published
// or not: its name, its organization, and its configuration schemas, which
// decide the status of the installation's spaces and sites.
type integrationRef struct {
	name, organizationID string
	configurations       map[string]any
}

func refOf(i *ent.Integration) integrationRef {
	return integrationRef{name: i.Name, organizationID: i.OrganizationID, configurations: i.Configurations}
}

// loadIntegrationRefs reads the names, organizations and configuration
// schemas of integrations, unpublished ones included: one statement.
func (r *Resolver) loadIntegrationRefs(ctx context.Context, ids []string) (map[string]integrationRef, error) {
	rows, err := r.db(ctx).Integration.Query().Where(integration.IDIn(ids...)).
		Select(integration.FieldID, integration.FieldName, integration.FieldOrganizationID, integration.FieldConfigurations).
		All(internal(ctx, "the names, organizations and configuration schemas of installed integrations"))
	if err != nil {
		return nil, err
	}
	out := make(map[string]integrationRef, len(rows))
	for _, row := range rows {
		out[row.ID] = refOf(row)
	}
	return out, nil
}

func installationConfiguration(x *ent.IntegrationInstallation) (model.JSON, error) {
	if x.Configuration == nil {
		return model.JSON("{}"), nil
	}
	b, err := json.Marshal(x.Configuration)
	return model.JSON(b), err
}
