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

// Integrations (docs/api/integrations.md). Unpublishing answers 204, as the
// contract says of every DELETE; the official spec gives 205 for an
// integration deleted and 204 for one that did not exist, and the contract
// wins (an integration that does not exist is a 404, as everywhere).

// integrations lists the integrations the viewer may list, filtered.
func (p params) integrations(args page.Args) (*model.IntegrationConnection, error) {
	blocks, err := p.optionalBool("blocks")
	if err != nil {
		return nil, err
	}
	sources, err := p.optionalBool("contentSources")
	if err != nil {
		return nil, err
	}
	var category *enum.IntegrationCategory
	if s := p.query("category"); s != nil {
		c, err := enum.ParseIntegrationCategory(*s)
		if err != nil {
			return nil, apperr.Invalid("category", "%s", err.Error())
		}
		category = &c
	}
	var scope *enum.IntegrationScope
	if s := p.query("scope"); s != nil {
		v, err := enum.ParseIntegrationScope(*s)
		if err != nil {
			return nil, apperr.Invalid("scope", "%s", err.Error())
		}
		scope = &v
	}
	var target *enum.IntegrationTarget
	if s := p.query("target"); s != nil {
		v, err := enum.ParseIntegrationTarget(*s)
		if err != nil {
			return nil, apperr.Invalid("target", "%s", err.Error())
		}
		target = &v
	}
	return p.a.r.Query().Integrations(p.ctx(), args.First, args.After, nil, nil, p.query("search"), category,
		p.query("blockDomain"), blocks, sources, p.query("owner"), scope, target)
}

// optionalBool reads a boolean query parameter that may be absent.
func (p params) optionalBool(name string) (*bool, error) {
	if p.query(name) == nil {
		return nil, nil
	}
	b, err := p.bool(name, false)
	return &b, err
}

// integration is the integration the path names.
func (p params) integration() (*ent.Integration, error) {
	return p.a.r.Query().Integration(p.ctx(), p.path("integrationName"))
}

func (p params) unpublishIntegration() (model.UnpublishIntegrationInput, error) {
	return model.UnpublishIntegrationInput{Name: p.path("integrationName")}, nil
}

// integrationInstallations lists the installations of the path's
// integration, for its organization's admins.
func (p params) integrationInstallations(args page.Args) (*model.IntegrationInstallationConnection, error) {
	i, err := p.integration()
	if err != nil {
		return nil, err
	}
	return p.a.r.Integration().Installations(p.ctx(), i, args.First, args.After, nil, nil, p.query("externalId"))
}

type externalLinkBody struct {
	URL   string `json:"url" rest:"required"`
	Label string `json:"label" rest:"required"`
}

// publishBody is the official PublishIntegration.
type publishBody struct {
	Runtime               *string                     `json:"runtime" rest:"unsupported"`
	Organization          string                      `json:"organization" rest:"required"`
	Title                 string                      `json:"title" rest:"required"`
	Description           string                      `json:"description" rest:"required"`
	Script                string                      `json:"script" rest:"required"`
	Scopes                []enum.IntegrationScope     `json:"scopes" rest:"required"`
	Icon                  *string                     `json:"icon" rest:"nonnull"`
	Summary               *string                     `json:"summary" rest:"nonnull"`
	PreviewImages         *[]string                   `json:"previewImages" rest:"nonnull"`
	Visibility            *enum.IntegrationVisibility `json:"visibility" rest:"nonnull"`
	Target                *enum.IntegrationTarget     `json:"target" rest:"nonnull"`
	Categories            *[]enum.IntegrationCategory `json:"categories" rest:"nonnull"`
	Blocks                json.RawMessage             `json:"blocks"`
	ContentSources        json.RawMessage             `json:"contentSources"`
	ExternalLinks         *[]externalLinkBody         `json:"externalLinks" rest:"nonnull"`
	Configurations        json.RawMessage             `json:"configurations"`
	Secrets               json.RawMessage             `json:"secrets"`
	ContentSecurityPolicy json.RawMessage             `json:"contentSecurityPolicy"`
}

func (b *publishBody) input(p params) (model.PublishIntegrationInput, error) {
	in := model.PublishIntegrationInput{Name: p.path("integrationName"), Organization: b.Organization, Title: b.Title,
		Description: b.Description, Script: b.Script, Scopes: b.Scopes, Icon: b.Icon, Summary: b.Summary,
		Visibility: b.Visibility, Target: b.Target, Blocks: model.JSON(b.Blocks), ContentSources: model.JSON(b.ContentSources),
		Configurations: model.JSON(b.Configurations), Secrets: model.JSON(b.Secrets),
		ContentSecurityPolicy: model.JSON(b.ContentSecurityPolicy)}
	if in.Scopes == nil {
		in.Scopes = []enum.IntegrationScope{}
	}
	if b.PreviewImages != nil {
		in.PreviewImages = *b.PreviewImages
	}
	if b.Categories != nil {
		in.Categories = *b.Categories
	}
	if b.ExternalLinks != nil {
		for _, l := range *b.ExternalLinks {
			in.ExternalLinks = append(in.ExternalLinks, &model.IntegrationExternalLinkInput{URL: l.URL, Label: l.Label})
		}
	}
	return in, nil
}

type integrationJSON struct {
	Object                string                           `json:"object"`
	Name                  string                           `json:"name"`
	Version               int                              `json:"version"`
	Title                 string                           `json:"title"`
	Description           string                           `json:"description"`
	Summary               *string                          `json:"summary,omitempty"`
	PreviewImages         []string                         `json:"previewImages"`
	Target                enum.IntegrationTarget           `json:"target"`
	Verified              bool                             `json:"verified"`
	Visibility            enum.IntegrationVisibility       `json:"visibility"`
	Scopes                []enum.IntegrationScope          `json:"scopes"`
	Categories            []enum.IntegrationCategory       `json:"categories"`
	Blocks                model.JSON                       `json:"blocks,omitempty"`
	ContentSources        model.JSON                       `json:"contentSources,omitempty"`
	Configurations        model.JSON                       `json:"configurations,omitempty"`
	ExternalLinks         []*model.IntegrationExternalLink `json:"externalLinks"`
	Owner                 organizationJSON                 `json:"owner"`
	URLs                  *model.IntegrationURLs           `json:"urls"`
	Permissions           *model.IntegrationPermissions    `json:"permissions"`
	ContentSecurityPolicy model.JSON                       `json:"contentSecurityPolicy,omitempty"`
}

func (a *API) presentIntegration(ctx context.Context, i *ent.Integration) (integrationJSON, error) {
	res := a.r.Integration()
	j := integrationJSON{Object: "integration", Name: i.Name, Version: i.Version, Title: i.Title, Description: i.Description,
		Summary: i.Summary, Target: i.Target, Verified: i.Verified, Visibility: i.Visibility, Scopes: i.Scopes,
		Categories: i.Categories}
	if j.Scopes == nil {
		j.Scopes = []enum.IntegrationScope{}
	}
	if j.Categories == nil {
		j.Categories = []enum.IntegrationCategory{}
	}
	var err error
	if j.PreviewImages, err = res.PreviewImages(ctx, i); err != nil {
		return j, err
	}
	if j.Blocks, err = res.Blocks(ctx, i); err != nil {
		return j, err
	}
	if j.ContentSources, err = res.ContentSources(ctx, i); err != nil {
		return j, err
	}
	if j.Configurations, err = res.Configurations(ctx, i); err != nil {
		return j, err
	}
	if j.ContentSecurityPolicy, err = res.ContentSecurityPolicy(ctx, i); err != nil {
		return j, err
	}
	if j.ExternalLinks, err = res.ExternalLinks(ctx, i); err != nil {
		return j, err
	}
	o, err := res.Owner(ctx, i)
	if err != nil {
		return j, err
	}
	if j.Owner, err = a.presentOrganization(ctx, o); err != nil {
		return j, err
	}
	if j.Permissions, err = res.Permissions(ctx, i); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, i)
	return j, err
}

// installationTargetJSON is the official OrganizationTarget.
type installationTargetJSON struct {
	Organization string `json:"organization"`
}

type installationJSON struct {
	Object         string                             `json:"object"`
	ID             string                             `json:"id"`
	Status         enum.InstallationStatus            `json:"status"`
	SpaceSelection enum.InstallationSelection         `json:"space_selection"`
	SiteSelection  enum.InstallationSelection         `json:"site_selection"`
	Spaces         int                                `json:"spaces"`
	Configuration  model.JSON                         `json:"configuration"`
	ExternalIDs    []string                           `json:"externalIds"`
	Target         installationTargetJSON             `json:"target"`
	CreatedAt      string                             `json:"createdAt"`
	UpdatedAt      string                             `json:"updatedAt"`
	URLs           *model.IntegrationInstallationURLs `json:"urls"`
}

func (j installationJSON) location() string { return j.URLs.Location }

func (a *API) presentInstallation(ctx context.Context, x *ent.IntegrationInstallation) (installationJSON, error) {
	res := a.r.IntegrationInstallation()
	j := installationJSON{Object: "integration-installation", ID: x.ID, Status: x.Status, SpaceSelection: x.SpaceSelection,
		SiteSelection: x.SiteSelection, ExternalIDs: x.ExternalIds, CreatedAt: model.FormatTime(x.CreatedAt),
		UpdatedAt: model.FormatTime(x.UpdatedAt)}
	if j.ExternalIDs == nil {
		j.ExternalIDs = []string{}
	}
	o, err := res.Organization(ctx, x)
	if err != nil {
		return j, err
	}
	j.Target.Organization = o.ID
	if j.Spaces, err = res.Spaces(ctx, x); err != nil {
		return j, err
	}
	if j.Configuration, err = res.Configuration(ctx, x); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, x)
	return j, err
}

// installBody is the official OrganizationTarget: the organization to
// install the path's integration in, with everything else at its default.
type installBody struct {
	Organization string `json:"organization" rest:"required"`
}

func (b *installBody) input(p params) (model.InstallIntegrationInput, error) {
	return model.InstallIntegrationInput{IntegrationName: p.path("integrationName"), OrganizationID: b.Organization}, nil
}

// installation is the installation the path names, under the integration
// it names: another integration's installation is not found.
func (p params) installation() (*ent.IntegrationInstallation, error) {
	i, err := p.integration()
	if err != nil {
		return nil, err
	}
	n, err := p.a.r.Query().Node(p.ctx(), p.path("installationId"))
	if err != nil {
		return nil, err
	}
	x, ok := n.(*ent.IntegrationInstallation)
	if !ok || x.IntegrationID != i.ID {
		return nil, apperr.NotFoundf("Installation not found")
	}
	return x, nil
}

// installationSpaces lists the spaces the path's installation selects.
func (p params) installationSpaces(args page.Args) (*model.IntegrationSpaceInstallationConnection, error) {
	x, err := p.installation()
	if err != nil {
		return nil, err
	}
	return p.a.r.IntegrationInstallation().SpaceInstallations(p.ctx(), x, args.First, args.After, nil, nil)
}

func (p params) installationSpace() (*ent.IntegrationSpaceInstallation, error) {
	x, err := p.installation()
	if err != nil {
		return nil, err
	}
	return p.a.r.IntegrationInstallation().SpaceInstallation(p.ctx(), x, p.path("spaceId"))
}

// installationSites lists the sites the path's installation selects.
func (p params) installationSites(args page.Args) (*model.IntegrationSiteInstallationConnection, error) {
	x, err := p.installation()
	if err != nil {
		return nil, err
	}
	return p.a.r.IntegrationInstallation().SiteInstallations(p.ctx(), x, args.First, args.After, nil, nil)
}

func (p params) installationSite() (*ent.IntegrationSiteInstallation, error) {
	x, err := p.installation()
	if err != nil {
		return nil, err
	}
	return p.a.r.IntegrationInstallation().SiteInstallation(p.ctx(), x, p.path("siteId"))
}

// updateTargetInstallationBody is the official
// UpdateIntegrationSpaceInstallation (and UpdateIntegrationSiteInstallation).
type updateTargetInstallationBody struct {
	ExternalIDs   *[]string        `json:"externalIds" rest:"nonnull"`
	Configuration *json.RawMessage `json:"configuration" rest:"nonnull"`
}

func (b *updateTargetInstallationBody) spaceInput(p params) (model.UpdateIntegrationSpaceInstallationInput, error) {
	x, err := p.installation()
	if err != nil {
		return model.UpdateIntegrationSpaceInstallationInput{}, err
	}
	in := model.UpdateIntegrationSpaceInstallationInput{InstallationID: x.ID, SpaceID: p.path("spaceId")}
	if b.ExternalIDs != nil {
		in.ExternalIds = *b.ExternalIDs
	}
	if b.Configuration != nil {
		in.Configuration = model.JSON(*b.Configuration)
	}
	return in, nil
}

func (b *updateTargetInstallationBody) siteInput(p params) (model.UpdateIntegrationSiteInstallationInput, error) {
	x, err := p.installation()
	if err != nil {
		return model.UpdateIntegrationSiteInstallationInput{}, err
	}
	in := model.UpdateIntegrationSiteInstallationInput{InstallationID: x.ID, SiteID: p.path("siteId")}
	if b.ExternalIDs != nil {
		in.ExternalIds = *b.ExternalIDs
	}
	if b.Configuration != nil {
		in.Configuration = model.JSON(*b.Configuration)
	}
	return in, nil
}

// targetInstallationJSON is the official IntegrationContentInstallationBase
// of an IntegrationSpaceInstallation or IntegrationSiteInstallation.
type targetInstallationJSON struct {
	Object        string                                   `json:"object"`
	Integration   string                                   `json:"integration"`
	Installation  string                                   `json:"installation"`
	Status        enum.InstallationStatus                  `json:"status"`
	Configuration model.JSON                               `json:"configuration"`
	ExternalIDs   []string                                 `json:"externalIds"`
	URLs          *model.IntegrationTargetInstallationURLs `json:"urls"`
}

func (j targetInstallationJSON) location() string { return j.URLs.Location }

// spaceInstallationJSON is the official IntegrationSpaceInstallation, its
// space given by ID (the official extended=false).
type spaceInstallationJSON struct {
	targetInstallationJSON
	Space string `json:"space"`
}

// siteInstallationJSON is the official IntegrationSiteInstallation.
type siteInstallationJSON struct {
	targetInstallationJSON
	Site string `json:"site"`
}

// targetResolver is what GraphQL resolves of an installation's space or
// site (T), which /v1 presents alike.
type targetResolver[T any] interface {
	Installation(ctx context.Context, obj T) (*ent.IntegrationInstallation, error)
	Status(ctx context.Context, obj T) (enum.InstallationStatus, error)
	Configuration(ctx context.Context, obj T) (model.JSON, error)
	Urls(ctx context.Context, obj T) (*model.IntegrationTargetInstallationURLs, error)
}

// presentInstalledTarget presents what a space and a site installation
// share, through the resolvers of its type.
func presentInstalledTarget[T any](ctx context.Context, a *API, object string, res targetResolver[T], t T, ext []string) (targetInstallationJSON, error) {
	j := targetInstallationJSON{Object: object, ExternalIDs: ext}
	if j.ExternalIDs == nil {
		j.ExternalIDs = []string{}
	}
	x, err := res.Installation(ctx, t)
	if err != nil {
		return j, err
	}
	j.Installation = x.ID
	if j.Status, err = res.Status(ctx, t); err != nil {
		return j, err
	}
	if j.Configuration, err = res.Configuration(ctx, t); err != nil {
		return j, err
	}
	if j.URLs, err = res.Urls(ctx, t); err != nil {
		return j, err
	}
	i, err := a.r.IntegrationInstallation().Integration(ctx, x)
	if err != nil {
		return j, err
	}
	if i != nil {
		j.Integration = i.Name
	}
	return j, nil
}

func (a *API) presentSpaceInstallation(ctx context.Context, t *ent.IntegrationSpaceInstallation) (spaceInstallationJSON, error) {
	target, err := presentInstalledTarget(ctx, a, "integration-space-installation", a.r.IntegrationSpaceInstallation(), t, t.ExternalIds)
	return spaceInstallationJSON{targetInstallationJSON: target, Space: t.SpaceID}, err
}

func (a *API) presentSiteInstallation(ctx context.Context, t *ent.IntegrationSiteInstallation) (siteInstallationJSON, error) {
	target, err := presentInstalledTarget(ctx, a, "integration-site-installation", a.r.IntegrationSiteInstallation(), t, t.ExternalIds)
	return siteInstallationJSON{targetInstallationJSON: target, Site: t.SiteID}, err
}

// installOnSpaceBody is the official body of installIntegrationOnSpace.
type installOnSpaceBody struct {
	Space string `json:"space" rest:"required"`
}

// inputMembers: the official body's space is the input's spaceId.
func (*installOnSpaceBody) inputMembers() map[string]string {
	return map[string]string{"spaceId": "space"}
}

func (b *installOnSpaceBody) input(p params) (model.InstallIntegrationOnSpaceInput, error) {
	x, err := p.installation()
	if err != nil {
		return model.InstallIntegrationOnSpaceInput{}, err
	}
	return model.InstallIntegrationOnSpaceInput{InstallationID: x.ID, SpaceID: b.Space}, nil
}

func (p params) uninstallFromSpace() (model.UninstallIntegrationFromSpaceInput, error) {
	x, err := p.installation()
	if err != nil {
		return model.UninstallIntegrationFromSpaceInput{}, err
	}
	return model.UninstallIntegrationFromSpaceInput{InstallationID: x.ID, SpaceID: p.path("spaceId")}, nil
}

// installOnSiteBody is the official body of installIntegrationOnSite.
type installOnSiteBody struct {
	SiteID string `json:"siteId" rest:"required"`
}

func (b *installOnSiteBody) input(p params) (model.InstallIntegrationOnSiteInput, error) {
	x, err := p.installation()
	if err != nil {
		return model.InstallIntegrationOnSiteInput{}, err
	}
	return model.InstallIntegrationOnSiteInput{InstallationID: x.ID, SiteID: b.SiteID}, nil
}

func (p params) uninstallFromSite() (model.UninstallIntegrationFromSiteInput, error) {
	x, err := p.installation()
	if err != nil {
		return model.UninstallIntegrationFromSiteInput{}, err
	}
	return model.UninstallIntegrationFromSiteInput{InstallationID: x.ID, SiteID: p.path("siteId")}, nil
}
