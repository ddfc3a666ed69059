package graph

import (
	"context"
	"encoding/json"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/ent/integrationsiteinstallation"
	"github.com/bindery/bindery/ent/integrationspaceinstallation"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	integ "github.com/bindery/bindery/internal/integration"
	"github.com/bindery/bindery/internal/store"
)

// selection is an installation's choice of spaces or of sites.
type selection struct {
	field string
	mode  *enum.InstallationSelection
	ids   []string
}

// check refuses IDs without SELECTED, and more than the limit.
func (s selection) check() error {
	if len(s.ids) > 0 && (s.mode == nil || *s.mode != enum.InstallationSelectionSelected) {
		return apperr.Invalid(s.field, "are given only with the selection SELECTED")
	}
	if len(s.ids) > MaxInstallationSelection {
		return apperr.Invalid(s.field, "at most %d", MaxInstallationSelection)
	}
	return nil
}

// checkOwned refuses spaces or sites that are not the organization's (or
// that do not exist) as invalid, without telling which.
func (r *Resolver) checkOwned(ctx context.Context, orgID string, spaces, sites selection) error {
	ctx = internal(ctx, "whether the spaces and sites an installation selects are its organization's")
	if ids := unique(spaces.ids); len(ids) > 0 {
		n, err := r.db(ctx).Space.Query().Where(space.IDIn(ids...), space.OrganizationID(orgID), space.DeletedAtIsNil()).Count(ctx)
		if err != nil {
			return err
		}
		if n != len(ids) {
			return apperr.Invalid(spaces.field, "must be spaces of the organization")
		}
	}
	if ids := unique(sites.ids); len(ids) > 0 {
		n, err := r.db(ctx).Site.Query().Where(site.IDIn(ids...), site.OrganizationID(orgID)).Count(ctx)
		if err != nil {
			return err
		}
		if n != len(ids) {
			return apperr.Invalid(sites.field, "must be sites of the organization")
		}
	}
	return nil
}

func (r *Resolver) installIntegration(ctx context.Context, in model.InstallIntegrationInput) (*ent.IntegrationInstallation, error) {
	spaces := selection{"spaces", in.SpaceSelection, in.Spaces}
	sites := selection{"sites", in.SiteSelection, in.Sites}
	for _, s := range []selection{spaces, sites} {
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	x, err := mutate(ctx, r, r.orgs, in.OrganizationID, authz.Administer,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*ent.IntegrationInstallation, error) {
			// Read by the decision already.
			r.orgs.wrote(ctx, o)
			if err := r.wroteAccess(ctx, o.ID); err != nil {
				return nil, err
			}
			i, err := r.integrationByName(ctx, in.IntegrationName, authz.View)
			if err != nil {
				return nil, err
			}
			r.wroteIntegration(ctx, i)
			cfg, complete, err := integ.CheckConfiguration(i.Configurations, integ.TargetAccount, json.RawMessage(in.Configuration))
			if err != nil {
				return nil, err
			}
			if err := r.checkOwned(ctx, o.ID, spaces, sites); err != nil {
				return nil, err
			}
			taken, err := r.db(ctx).IntegrationInstallation.Query().
				Where(integrationinstallation.IntegrationID(i.ID), integrationinstallation.OrganizationID(o.ID)).
				Exist(internal(ctx, "whether the organization has installed the integration"))
			if err != nil {
				return nil, err
			}
			if taken {
				return nil, apperr.Conflictf("The integration %q is installed in this organization already", i.Name)
			}
			status := enum.InstallationStatusActive
			if !complete {
				status = enum.InstallationStatusPending
			}
			b := r.db(ctx).IntegrationInstallation.Create().SetIntegrationID(i.ID).SetOrganizationID(o.ID).
				SetStatus(status).SetConfiguration(cfg).AddSpaceIDs(unique(spaces.ids)...).AddSiteIDs(unique(sites.ids)...)
			if in.SpaceSelection != nil {
				b.SetSpaceSelection(*in.SpaceSelection)
			}
			if in.SiteSelection != nil {
				b.SetSiteSelection(*in.SiteSelection)
			}
			if in.ExternalIds != nil {
				b.SetExternalIds(in.ExternalIds)
			}
			x, err := b.Save(ctx)
			if err != nil {
				return nil, err
			}
			r.installations.wrote(ctx, x)
			return x, nil
		})
	if err != nil {
		return nil, err
	}
	hookOrganization(ctx, x.OrganizationID)
	return x, nil
}

// wroteIntegration records an integration the answer shows, with its name
// and organization (see integrationRefs).
func (r *Resolver) wroteIntegration(ctx context.Context, i *ent.Integration) {
	r.integrations.wrote(ctx, i)
	primeAfter(ctx, (*loaders).integrationRefs, i.ID, refOf(i))
}

func (r *Resolver) updateInstallation(ctx context.Context, in model.UpdateIntegrationInstallationInput) (*ent.IntegrationInstallation, error) {
	spaces := selection{"spaces", in.SpaceSelection, in.Spaces}
	sites := selection{"sites", in.SiteSelection, in.Sites}
	out, err := mutate(ctx, r, r.installations, in.ID, authz.Update,
		func(ctx context.Context, x *ent.IntegrationInstallation, _ authz.Decision) (*ent.IntegrationInstallation, error) {
			i, err := r.changedIntegration(ctx, x)
			if err != nil {
				return nil, err
			}
			// An absent mode keeps the stored one, which the IDs must fit.
			if spaces.mode == nil {
				spaces.mode = &x.SpaceSelection
			}
			if sites.mode == nil {
				sites.mode = &x.SiteSelection
			}
			for _, s := range []selection{spaces, sites} {
				if err := s.check(); err != nil {
					return nil, err
				}
			}
			if err := r.checkOwned(ctx, x.OrganizationID, spaces, sites); err != nil {
				return nil, err
			}
			u := r.db(ctx).IntegrationInstallation.UpdateOne(x)
			cfg := x.Configuration
			if in.Configuration != nil {
				if cfg, _, err = integ.CheckConfiguration(i.Configurations, integ.TargetAccount, json.RawMessage(in.Configuration)); err != nil {
					return nil, err
				}
				u.SetConfiguration(cfg)
			}
			u.SetStatus(installationStatus(i, cfg))
			if in.SpaceSelection != nil {
				u.SetSpaceSelection(*in.SpaceSelection)
			}
			if in.SiteSelection != nil {
				u.SetSiteSelection(*in.SiteSelection)
			}
			if in.ExternalIds != nil {
				u.SetExternalIds(in.ExternalIds)
			}
			out, err := u.Save(ctx)
			if err != nil {
				return nil, err
			}
			if in.Spaces != nil || *spaces.mode == enum.InstallationSelectionAll {
				if err := r.reselectSpaces(ctx, x.ID, unique(spaces.ids)); err != nil {
					return nil, err
				}
			}
			if in.Sites != nil || *sites.mode == enum.InstallationSelectionAll {
				return out, r.reselectSites(ctx, x.ID, unique(sites.ids))
			}
			return out, nil
		})
	if err == nil {
		hookOrganization(ctx, out.OrganizationID)
	}
	return out, err
}

// reselectSpaces makes ids the spaces an installation selects, in two
// statements: the spaces it no longer selects go, with their
// configurations; those it selected already keep theirs.
func (r *Resolver) reselectSpaces(ctx context.Context, installationID string, ids []string) error {
	del := r.db(ctx).IntegrationSpaceInstallation.Delete().Where(integrationspaceinstallation.IntegrationInstallationID(installationID))
	if len(ids) > 0 {
		del.Where(integrationspaceinstallation.SpaceIDNotIn(ids...))
	}
	if _, err := del.Exec(ctx); err != nil || len(ids) == 0 {
		return err
	}
	return r.db(ctx).IntegrationSpaceInstallation.MapCreateBulk(ids, func(c *ent.IntegrationSpaceInstallationCreate, i int) {
		c.SetIntegrationInstallationID(installationID).SetSpaceID(ids[i])
	}).OnConflictColumns(integrationspaceinstallation.FieldIntegrationInstallationID, integrationspaceinstallation.FieldSpaceID).
		DoNothing().Exec(ctx)
}

// reselectSites is reselectSpaces for sites.
func (r *Resolver) reselectSites(ctx context.Context, installationID string, ids []string) error {
	del := r.db(ctx).IntegrationSiteInstallation.Delete().Where(integrationsiteinstallation.IntegrationInstallationID(installationID))
	if len(ids) > 0 {
		del.Where(integrationsiteinstallation.SiteIDNotIn(ids...))
	}
	if _, err := del.Exec(ctx); err != nil || len(ids) == 0 {
		return err
	}
	return r.db(ctx).IntegrationSiteInstallation.MapCreateBulk(ids, func(c *ent.IntegrationSiteInstallationCreate, i int) {
		c.SetIntegrationInstallationID(installationID).SetSiteID(ids[i])
	}).OnConflictColumns(integrationsiteinstallation.FieldIntegrationInstallationID, integrationsiteinstallation.FieldSiteID).
		DoNothing().Exec(ctx)
}

func (r *Resolver) uninstallIntegration(ctx context.Context, in model.UninstallIntegrationInput) error {
	return act(ctx, r, r.installations, in.ID, authz.Delete, func(ctx context.Context, x *ent.IntegrationInstallation, _ authz.Decision) error {
		return r.db(ctx).IntegrationInstallation.DeleteOne(x).Exec(ctx)
	})
}

// installationSelection is what an installation selects: its live
// selected spaces and its sites, each with its configuration, and the live
// spaces of its organization.
type installationSelection struct {
	spaces    []*ent.IntegrationSpaceInstallation
	sites     []*ent.IntegrationSiteInstallation
	orgSpaces int
}

// spaceIDs are the IDs of the selected spaces, in order.
func (s installationSelection) spaceIDs() []string {
	out := make([]string, len(s.spaces))
	for i, x := range s.spaces {
		out[i] = x.SpaceID
	}
	return out
}

// siteIDs are the IDs of the selected sites, in order.
func (s installationSelection) siteIDs() []string {
	out := make([]string, len(s.sites))
	for i, x := range s.sites {
		out[i] = x.SiteID
	}
	return out
}

// installationSpaceCount is how many spaces an installation manages: the
// organization's live spaces when it selects all, else its live selected
// ones.
func (r *Resolver) installationSpaceCount(ctx context.Context, x *ent.IntegrationInstallation) (int, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return 0, err
	}
	if x.SpaceSelection == enum.InstallationSelectionAll {
		return sel.orgSpaces, nil
	}
	return len(sel.spaces), nil
}

// Kinds of the rows of the selection statement.
const (
	selectedSpace = "s" // a: installation, b: a live selected space, c and e: its configuration and external IDs
	selectedSite  = "t" // a: installation, b: a selected site, c and e: its configuration and external IDs
	orgSpaceCount = "n" // a: installation, n: the live spaces of its organization
)

// loadInstallationSelections reads the selections of installations in one
// statement: a union of their live selected spaces and their selected
// sites, with their configurations, and, per installation, the live spaces
// of its organization.
func (r *Resolver) loadInstallationSelections(ctx context.Context, ids []string) (map[string]installationSelection, error) {
	ctx = internal(ctx, "the selections of installations the viewer sees")
	padded := store.PadIDs(ids)
	args := make([]any, len(padded))
	for i, id := range padded {
		args[i] = id
	}
	key := fmt.Sprintf("installation selections ids=%d", len(padded))
	rows, err := r.statements.Query(ctx, r.db(ctx).Driver(), key, store.Selector(func(d string) sql.Querier {
		return selectionStatement(d, store.Params(len(args)))
	}), args...)
	if err != nil {
		return nil, fmt.Errorf("loading the selections of installations: %w", err)
	}
	defer rows.Close()
	out := make(map[string]installationSelection, len(ids))
	for _, id := range ids {
		out[id] = installationSelection{spaces: []*ent.IntegrationSpaceInstallation{}, sites: []*ent.IntegrationSiteInstallation{}}
	}
	for rows.Next() {
		var kind, x string
		var b, c, e sql.NullString
		var n int64
		if err := rows.Scan(&kind, &x, &b, &n, &c, &e); err != nil {
			return nil, fmt.Errorf("loading the selections of installations: %w", err)
		}
		sel := out[x]
		var cfg map[string]any
		var ext []string
		if kind != orgSpaceCount {
			if err := decodeTarget(c, e, &cfg, &ext); err != nil {
				return nil, fmt.Errorf("loading the selections of installations: %w", err)
			}
		}
		switch kind {
		case selectedSpace:
			sel.spaces = append(sel.spaces, &ent.IntegrationSpaceInstallation{IntegrationInstallationID: x, SpaceID: b.String,
				Configuration: cfg, ExternalIds: ext})
		case selectedSite:
			sel.sites = append(sel.sites, &ent.IntegrationSiteInstallation{IntegrationInstallationID: x, SiteID: b.String,
				Configuration: cfg, ExternalIds: ext})
		case orgSpaceCount:
			sel.orgSpaces = int(n)
		}
		out[x] = sel
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("loading the selections of installations: %w", err)
	}
	return out, nil
}

// decodeTarget decodes the configuration and external IDs of a selected
// space or site, as stored.
func decodeTarget(c, e sql.NullString, cfg *map[string]any, ext *[]string) error {
	*cfg, *ext = map[string]any{}, []string{}
	if c.Valid && c.String != "" {
		if err := json.Unmarshal([]byte(c.String), cfg); err != nil {
			return err
		}
	}
	if e.Valid && e.String != "" {
		if err := json.Unmarshal([]byte(e.String), ext); err != nil {
			return err
		}
	}
	if *cfg == nil {
		*cfg = map[string]any{}
	}
	if *ext == nil {
		*ext = []string{}
	}
	return nil
}

// selectionStatement builds the statement of loadInstallationSelections for
// a dialect: rows of kind, installation (a), selected ID (b), count (n),
// configuration (c) and external IDs (e), the selected IDs in order. The columns of its branches are written out
// unquoted, as in the access statement, so that one text serves both
// dialects.
func selectionStatement(d string, ids []string) sql.Querier {
	in := make([]any, len(ids))
	for i, id := range ids {
		in[i] = id
	}
	xs, sp := sql.Table(integrationinstallation.SpacesTable).As("xs"), sql.Table(space.Table).As("sp")
	spaces := sql.Dialect(d).Select().From(xs).Join(sp).On(sp.C(space.FieldID), xs.C(integrationinstallation.SpacesPrimaryKey[1])).
		AppendSelectExprAs(sql.Expr("'"+selectedSpace+"'"), "kind").
		AppendSelectExprAs(sql.Expr("xs."+integrationinstallation.SpacesPrimaryKey[0]), "a").
		AppendSelectExprAs(sql.Expr("sp."+space.FieldID), "b").
		AppendSelectExprAs(sql.Expr("0"), "n").
		AppendSelectExprAs(sql.Expr("xs."+integrationspaceinstallation.FieldConfiguration), "c").
		AppendSelectExprAs(sql.Expr("xs."+integrationspaceinstallation.FieldExternalIds), "e").
		Where(sql.And(sql.In(xs.C(integrationinstallation.SpacesPrimaryKey[0]), in...), sql.IsNull(sp.C(space.FieldDeletedAt))))
	xt := sql.Table(integrationinstallation.SitesTable).As("xt")
	sites := sql.Dialect(d).Select().From(xt).
		AppendSelectExprAs(sql.Expr("'"+selectedSite+"'"), "kind").
		AppendSelectExprAs(sql.Expr("xt."+integrationinstallation.SitesPrimaryKey[0]), "a").
		AppendSelectExprAs(sql.Expr("xt."+integrationinstallation.SitesPrimaryKey[1]), "b").
		AppendSelectExprAs(sql.Expr("0"), "n").
		AppendSelectExprAs(sql.Expr("xt."+integrationsiteinstallation.FieldConfiguration), "c").
		AppendSelectExprAs(sql.Expr("xt."+integrationsiteinstallation.FieldExternalIds), "e").
		Where(sql.In(xt.C(integrationinstallation.SitesPrimaryKey[0]), in...))
	x, live := sql.Table(integrationinstallation.Table).As("x"), sql.Table(space.Table).As("ls")
	counts := sql.Dialect(d).Select().From(x).
		AppendSelectExprAs(sql.Expr("'"+orgSpaceCount+"'"), "kind").
		AppendSelectExprAs(sql.Expr("x."+integrationinstallation.FieldID), "a").
		AppendSelectExprAs(sql.Expr("NULL"), "b").
		AppendSelectExprAs(sql.Select(sql.Count("*")).From(live).Where(sql.And(
			sql.ColumnsEQ(live.C(space.FieldOrganizationID), x.C(integrationinstallation.FieldOrganizationID)),
			sql.IsNull(live.C(space.FieldDeletedAt)))), "n").
		AppendSelectExprAs(sql.Expr("NULL"), "c").
		AppendSelectExprAs(sql.Expr("NULL"), "e").
		Where(sql.In(x.C(integrationinstallation.FieldID), in...))
	spaces.UnionAll(sites).UnionAll(counts)
	return sql.Dialect(d).Select("kind", "a", "b", "n", "c", "e").From(spaces.As("selections")).OrderBy("kind", "a", "b")
}

// installationSelectedSpaces returns the selected spaces of an
// installation that the viewer sees, loaded in one batch.
func (r *Resolver) installationSelectedSpaces(ctx context.Context, x *ent.IntegrationInstallation) ([]*ent.Space, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return nil, err
	}
	ids := sel.spaceIDs()
	r.spaces.prefetch(ctx, ids)
	return visibleOnly(ctx, r.spaces.get, ids)
}

func (r *Resolver) installationSelectedSites(ctx context.Context, x *ent.IntegrationInstallation) ([]*ent.Site, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return nil, err
	}
	ids := sel.siteIDs()
	r.sites.prefetch(ctx, ids)
	return visibleOnly(ctx, r.sites.get, ids)
}

// visibleOnly loads the IDs the viewer sees, in order, leaving out the
// others.
func visibleOnly[T any](ctx context.Context, get func(context.Context, string) (T, authz.Decision, error), ids []string) ([]T, error) {
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		v, _, err := get(ctx, id)
		if apperr.KindOf(err) == apperr.NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// installationIntegration is the integration installed; nil once it is
// unpublished.
func (r *Resolver) installationIntegration(ctx context.Context, x *ent.IntegrationInstallation) (*ent.Integration, error) {
	i, _, err := r.integrations.get(ctx, x.IntegrationID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	return i, err
}

// installationOrganization is the organization an installation is in,
// which whoever sees the installation sees.
func (r *Resolver) installationOrganization(ctx context.Context, x *ent.IntegrationInstallation) (*ent.Organization, error) {
	if _, _, err := r.installations.get(ctx, x.ID); err != nil {
		return nil, err
	}
	o, _, err := r.orgs.get(ctx, x.OrganizationID)
	return o, err
}
