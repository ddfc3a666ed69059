package graph

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/ent/integrationsiteinstallation"
	"github.com/bindery/bindery/ent/integrationspaceinstallation"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	integ "github.com/bindery/bindery/internal/integration"
	"github.com/bindery/bindery/internal/page"
)

// An installation's spaces and sites: each space (site) it selects carries
// the integration's configuration for it, validated against the
// integration's space (site) configuration schema as the installation's own
// is against the account one. They are the rows of the selection, read
// with it in one statement (loadInstallationSelections); with the selection
// ALL there are none.

var (
	spaceInstallationsInOrder = page.SliceOrder[*ent.IntegrationSpaceInstallation]{
		Name: "installation-spaces", KeyType: page.KeyString,
		Key: func(t *ent.IntegrationSpaceInstallation) any { return t.SpaceID },
		ID:  func(t *ent.IntegrationSpaceInstallation) string { return t.SpaceID },
	}
	siteInstallationsInOrder = page.SliceOrder[*ent.IntegrationSiteInstallation]{
		Name: "installation-sites", KeyType: page.KeyString,
		Key: func(t *ent.IntegrationSiteInstallation) any { return t.SiteID },
		ID:  func(t *ent.IntegrationSiteInstallation) string { return t.SiteID },
	}
)

func (r *Resolver) installationSpaceInstallations(ctx context.Context, x *ent.IntegrationInstallation, a page.Args) (*model.IntegrationSpaceInstallationConnection, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return nil, err
	}
	conn, err := page.PaginateSlice(sel.spaces, spaceInstallationsInOrder, a)
	if err != nil {
		return nil, err
	}
	return model.NewIntegrationSpaceInstallationConnection(conn), nil
}

func (r *Resolver) installationSiteInstallations(ctx context.Context, x *ent.IntegrationInstallation, a page.Args) (*model.IntegrationSiteInstallationConnection, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return nil, err
	}
	conn, err := page.PaginateSlice(sel.sites, siteInstallationsInOrder, a)
	if err != nil {
		return nil, err
	}
	return model.NewIntegrationSiteInstallationConnection(conn), nil
}

// installationSpaceInstallation is one space an installation selects, not
// found when it does not select it (or when the space is deleted).
func (r *Resolver) installationSpaceInstallation(ctx context.Context, x *ent.IntegrationInstallation, spaceID string) (*ent.IntegrationSpaceInstallation, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range sel.spaces {
		if t.SpaceID == spaceID {
			return t, nil
		}
	}
	return nil, apperr.NotFoundf("The installation does not select this space")
}

func (r *Resolver) installationSiteInstallation(ctx context.Context, x *ent.IntegrationInstallation, siteID string) (*ent.IntegrationSiteInstallation, error) {
	sel, err := load(ctx, loadersFrom(ctx).installationSelections(), x.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range sel.sites {
		if t.SiteID == siteID {
			return t, nil
		}
	}
	return nil, apperr.NotFoundf("The installation does not select this site")
}

// targetStatus is the status of an installation's space or site: paused
// with the installation (its integration unpublished), pending while the
// configuration lacks a property the target's schema requires, else
// active. The installation's own configuration does not enter it: each
// place has its own status, as the official objects do.
func (r *Resolver) targetStatus(ctx context.Context, installationID, target string, cfg map[string]any) (enum.InstallationStatus, error) {
	x, _, err := r.installations.get(ctx, installationID)
	if err != nil {
		return "", err
	}
	if x.Status == enum.InstallationStatusPaused {
		return enum.InstallationStatusPaused, nil
	}
	ref, err := load(ctx, loadersFrom(ctx).integrationRefs(), x.IntegrationID)
	if err != nil {
		return "", err
	}
	if !integ.Complete(ref.configurations, target, cfg) {
		return enum.InstallationStatusPending, nil
	}
	return enum.InstallationStatusActive, nil
}

// targetURLs are the addresses of an installation's space or site (path
// is "spaces/{id}" or "sites/{id}").
func (r *Resolver) targetURLs(ctx context.Context, installationID, path string) (*model.IntegrationTargetInstallationURLs, error) {
	x, _, err := r.installations.get(ctx, installationID)
	if err != nil {
		return nil, err
	}
	u, err := r.installationURLs(ctx, x)
	if err != nil {
		return nil, err
	}
	return &model.IntegrationTargetInstallationURLs{Location: u.Location + "/" + path,
		PublicEndpoint: strings.TrimSuffix(u.PublicEndpoint, "/endpoint") + "/" + path + "/endpoint"}, nil
}

// targetSpace is the space of an installation's space, nil when the viewer
// does not see it.
func (r *Resolver) targetSpace(ctx context.Context, t *ent.IntegrationSpaceInstallation) (*ent.Space, error) {
	s, _, err := r.spaces.get(ctx, t.SpaceID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	return s, err
}

func (r *Resolver) targetSite(ctx context.Context, t *ent.IntegrationSiteInstallation) (*ent.Site, error) {
	s, _, err := r.sites.get(ctx, t.SiteID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	return s, err
}

func targetConfiguration(cfg map[string]any) (model.JSON, error) {
	if cfg == nil {
		return model.JSON("{}"), nil
	}
	b, err := json.Marshal(cfg)
	return model.JSON(b), err
}

// changedIntegration is the integration of an installation its admin
// changes, which may be unpublished: its installations stay configurable,
// and paused. The answer shows the installation with its integration and
// the viewer's access to its organization: they are recorded.
func (r *Resolver) changedIntegration(ctx context.Context, x *ent.IntegrationInstallation) (*ent.Integration, error) {
	i, err := r.db(ctx).Integration.Query().Where(integration.ID(x.IntegrationID)).
		Only(internal(ctx, "the integration of an installation its admin changes"))
	if err != nil {
		return nil, err
	}
	r.wroteIntegration(ctx, i)
	return i, nil
}

// checkTargetConfiguration validates the configuration of a space or a
// site against the integration's schema for that target; the error names
// the configuration and the target.
func checkTargetConfiguration(i *ent.Integration, target string, raw model.JSON) (map[string]any, error) {
	cfg, _, err := integ.CheckConfiguration(i.Configurations, target, json.RawMessage(raw))
	var e *apperr.Error
	if errors.As(err, &e) && e.Kind == apperr.InvalidArgument {
		return nil, apperr.Invalid(e.Field, "%s (the integration's %s configuration)", strings.TrimPrefix(e.Message, e.Field+": "), target)
	}
	return cfg, err
}

// targetUpdate is a change of the configuration and external IDs of one
// space or site (a row T) that an installation selects.
type targetUpdate[T any] struct {
	installationID string
	target         string // integ.TargetSpace or integ.TargetSite
	configuration  model.JSON
	externalIDs    []string
	// find reads the row of the installation's place (not found when it
	// does not select it); fields are the row's configuration and external
	// IDs; update is the update of the row, its mutation and its Exec.
	find   func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (T, error)
	fields func(T) (*map[string]any, *[]string)
	update func(db *ent.Client, x *ent.IntegrationInstallation) (targetMutation, func(context.Context) error)
}

// targetMutation is what a space's and a site's installation rows share of
// their ent mutations.
type targetMutation interface {
	SetConfiguration(map[string]any)
	SetExternalIds([]string)
}

// updateTarget checks and writes a targetUpdate in a transaction; the
// answer shows what the transaction read and wrote.
func updateTarget[T any](r *Resolver, ctx context.Context, u targetUpdate[T]) (T, error) {
	return mutate(ctx, r, r.installations, u.installationID, authz.Update,
		func(ctx context.Context, x *ent.IntegrationInstallation, _ authz.Decision) (T, error) {
			var none T
			i, err := r.changedIntegration(ctx, x)
			if err != nil {
				return none, err
			}
			out, err := u.find(ctx, r.db(ctx), x)
			if ent.IsNotFound(err) {
				return none, apperr.NotFoundf("The installation does not select this %s", u.target)
			} else if err != nil {
				return none, err
			}
			if u.configuration != nil || u.externalIDs != nil {
				cfg, ext := u.fields(out)
				m, exec := u.update(r.db(ctx), x)
				if u.configuration != nil {
					if *cfg, err = checkTargetConfiguration(i, u.target, u.configuration); err != nil {
						return none, err
					}
					m.SetConfiguration(*cfg)
				}
				if u.externalIDs != nil {
					*ext = u.externalIDs
					m.SetExternalIds(u.externalIDs)
				}
				if err := exec(ctx); err != nil {
					return none, err
				}
			}
			r.installations.wrote(ctx, x)
			return out, r.wroteAccess(ctx, x.OrganizationID)
		})
}

func (r *Resolver) updateSpaceInstallation(ctx context.Context, in model.UpdateIntegrationSpaceInstallationInput) (*ent.IntegrationSpaceInstallation, error) {
	where := func(x *ent.IntegrationInstallation) []predicate.IntegrationSpaceInstallation {
		return []predicate.IntegrationSpaceInstallation{integrationspaceinstallation.IntegrationInstallationID(x.ID),
			integrationspaceinstallation.SpaceID(in.SpaceID)}
	}
	return updateTarget(r, ctx, targetUpdate[*ent.IntegrationSpaceInstallation]{
		installationID: in.InstallationID, target: integ.TargetSpace, configuration: in.Configuration, externalIDs: in.ExternalIds,
		find: func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (*ent.IntegrationSpaceInstallation, error) {
			return db.IntegrationSpaceInstallation.Query().
				Where(append(where(x), integrationspaceinstallation.HasSpaceWith(space.DeletedAtIsNil()))...).
				Only(internal(ctx, "the space an installation selects, which its admin configures"))
		},
		fields: func(t *ent.IntegrationSpaceInstallation) (*map[string]any, *[]string) {
			return &t.Configuration, &t.ExternalIds
		},
		update: func(db *ent.Client, x *ent.IntegrationInstallation) (targetMutation, func(context.Context) error) {
			u := db.IntegrationSpaceInstallation.Update().Where(where(x)...)
			return u.Mutation(), u.Exec
		},
	})
}

func (r *Resolver) updateSiteInstallation(ctx context.Context, in model.UpdateIntegrationSiteInstallationInput) (*ent.IntegrationSiteInstallation, error) {
	where := func(x *ent.IntegrationInstallation) []predicate.IntegrationSiteInstallation {
		return []predicate.IntegrationSiteInstallation{integrationsiteinstallation.IntegrationInstallationID(x.ID),
			integrationsiteinstallation.SiteID(in.SiteID)}
	}
	return updateTarget(r, ctx, targetUpdate[*ent.IntegrationSiteInstallation]{
		installationID: in.InstallationID, target: integ.TargetSite, configuration: in.Configuration, externalIDs: in.ExternalIds,
		find: func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (*ent.IntegrationSiteInstallation, error) {
			return db.IntegrationSiteInstallation.Query().Where(where(x)...).
				Only(internal(ctx, "the site an installation selects, which its admin configures"))
		},
		fields: func(t *ent.IntegrationSiteInstallation) (*map[string]any, *[]string) {
			return &t.Configuration, &t.ExternalIds
		},
		update: func(db *ent.Client, x *ent.IntegrationInstallation) (targetMutation, func(context.Context) error) {
			u := db.IntegrationSiteInstallation.Update().Where(where(x)...)
			return u.Mutation(), u.Exec
		},
	})
}

// place is what installing on one more space or site, and uninstalling
// from one, differ in.
type place struct {
	field, noun string // the input's field and the place's name: "spaceId", "space"
	// selection is the installation's selection mode for the places.
	selection func(x *ent.IntegrationInstallation) enum.InstallationSelection
	// owned checks that the place is one of the organization's.
	owned func(r *Resolver, ctx context.Context, x *ent.IntegrationInstallation, id string) error
	// count counts the places the installation selects; remove removes
	// one from its selection, and says how many it removed.
	count  func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (int, error)
	remove func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation, id string) (int, error)
}

var (
	spacePlace = place{field: "spaceId", noun: "space",
		selection: func(x *ent.IntegrationInstallation) enum.InstallationSelection { return x.SpaceSelection },
		owned: func(r *Resolver, ctx context.Context, x *ent.IntegrationInstallation, id string) error {
			selected := enum.InstallationSelectionSelected
			return r.checkOwned(ctx, x.OrganizationID, selection{"spaceId", &selected, []string{id}}, selection{})
		},
		count: func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (int, error) {
			return db.IntegrationSpaceInstallation.Query().Where(integrationspaceinstallation.IntegrationInstallationID(x.ID)).
				Count(internal(ctx, "the spaces an installation selects"))
		},
		remove: func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation, id string) (int, error) {
			return db.IntegrationSpaceInstallation.Delete().Where(integrationspaceinstallation.IntegrationInstallationID(x.ID),
				integrationspaceinstallation.SpaceID(id)).Exec(ctx)
		},
	}
	sitePlace = place{field: "siteId", noun: "site",
		selection: func(x *ent.IntegrationInstallation) enum.InstallationSelection { return x.SiteSelection },
		owned: func(r *Resolver, ctx context.Context, x *ent.IntegrationInstallation, id string) error {
			selected := enum.InstallationSelectionSelected
			return r.checkOwned(ctx, x.OrganizationID, selection{}, selection{"siteId", &selected, []string{id}})
		},
		count: func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (int, error) {
			return db.IntegrationSiteInstallation.Query().Where(integrationsiteinstallation.IntegrationInstallationID(x.ID)).
				Count(internal(ctx, "the sites an installation selects"))
		},
		remove: func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation, id string) (int, error) {
			return db.IntegrationSiteInstallation.Delete().Where(integrationsiteinstallation.IntegrationInstallationID(x.ID),
				integrationsiteinstallation.SiteID(id)).Exec(ctx)
		},
	}
)

// installOn adds a place of its organization to an installation's
// selection, which must be SELECTED: one that covers all places has
// nothing to add (409), and a place selected already is a conflict too.
// create writes the place's row.
func installOn[T any](r *Resolver, ctx context.Context, installationID, id string, p place,
	create func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (T, error)) (T, error) {
	return mutate(ctx, r, r.installations, installationID, authz.Update,
		func(ctx context.Context, x *ent.IntegrationInstallation, _ authz.Decision) (T, error) {
			var none T
			if _, err := r.changedIntegration(ctx, x); err != nil {
				return none, err
			}
			if p.selection(x) != enum.InstallationSelectionSelected {
				return none, apperr.Conflictf("The installation covers all the organization's %ss: select %ss to install it on one", p.noun, p.noun)
			}
			if err := p.owned(r, ctx, x, id); err != nil {
				return none, err
			}
			n, err := p.count(ctx, r.db(ctx), x)
			if err != nil {
				return none, err
			}
			if n >= MaxInstallationSelection {
				return none, apperr.Invalid(p.field, "the installation selects %d %ss already, the most it may", n, p.noun)
			}
			out, err := create(ctx, r.db(ctx), x)
			if ent.IsConstraintError(err) {
				return none, apperr.Conflictf("The installation selects this %s already", p.noun)
			}
			if err != nil {
				return none, err
			}
			r.installations.wrote(ctx, x)
			return out, r.wroteAccess(ctx, x.OrganizationID)
		})
}

// uninstallFrom removes a place, with its configuration, from an
// installation's selection.
func (r *Resolver) uninstallFrom(ctx context.Context, installationID, id string, p place) (*ent.IntegrationInstallation, error) {
	return mutate(ctx, r, r.installations, installationID, authz.Update,
		func(ctx context.Context, x *ent.IntegrationInstallation, _ authz.Decision) (*ent.IntegrationInstallation, error) {
			n, err := p.remove(ctx, r.db(ctx), x, id)
			if err == nil && n == 0 {
				err = apperr.NotFoundf("The installation does not select this %s", p.noun)
			}
			return x, err
		})
}

// installOnSpace adds a space to an installation's selection (installOn).
func (r *Resolver) installOnSpace(ctx context.Context, in model.InstallIntegrationOnSpaceInput) (*ent.IntegrationSpaceInstallation, error) {
	return installOn(r, ctx, in.InstallationID, in.SpaceID, spacePlace,
		func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (*ent.IntegrationSpaceInstallation, error) {
			return db.IntegrationSpaceInstallation.Create().SetIntegrationInstallationID(x.ID).SetSpaceID(in.SpaceID).
				SetConfiguration(map[string]any{}).SetExternalIds([]string{}).Save(ctx)
		})
}

// uninstallFromSpace removes a space from an installation's selection.
func (r *Resolver) uninstallFromSpace(ctx context.Context, in model.UninstallIntegrationFromSpaceInput) (*ent.IntegrationInstallation, error) {
	return r.uninstallFrom(ctx, in.InstallationID, in.SpaceID, spacePlace)
}

// installOnSite adds a site to an installation's selection (installOn).
func (r *Resolver) installOnSite(ctx context.Context, in model.InstallIntegrationOnSiteInput) (*ent.IntegrationSiteInstallation, error) {
	return installOn(r, ctx, in.InstallationID, in.SiteID, sitePlace,
		func(ctx context.Context, db *ent.Client, x *ent.IntegrationInstallation) (*ent.IntegrationSiteInstallation, error) {
			return db.IntegrationSiteInstallation.Create().SetIntegrationInstallationID(x.ID).SetSiteID(in.SiteID).
				SetConfiguration(map[string]any{}).SetExternalIds([]string{}).Save(ctx)
		})
}

// uninstallFromSite removes a site from an installation's selection.
func (r *Resolver) uninstallFromSite(ctx context.Context, in model.UninstallIntegrationFromSiteInput) (*ent.IntegrationInstallation, error) {
	return r.uninstallFrom(ctx, in.InstallationID, in.SiteID, sitePlace)
}
