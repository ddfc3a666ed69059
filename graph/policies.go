package graph

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/commentreply"
	"github.com/bindery/bindery/ent/integration"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/ent/invite"
	"github.com/bindery/bindery/ent/openapispec"
	"github.com/bindery/bindery/ent/openapispecversion"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/revision"
	"github.com/bindery/bindery/ent/samlprovider"
	"github.com/bindery/bindery/ent/sharelink"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/siteredirect"
	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitesectiongroup"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/ent/team"
	"github.com/bindery/bindery/ent/translationsettings"
	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// policies are the resource types of the application layer, one policy each
// (see policy). Adding a resource type means adding its policy here; its
// loader, its node(id:) lookup and its place in the read guard follow.
type policySet struct {
	orgs           *policy[*ent.Organization, predicate.Organization]
	collections    *policy[*ent.Collection, predicate.Collection]
	spaces         *policy[*ent.Space, predicate.Space]
	changeRequests *policy[*ent.ChangeRequest, predicate.ChangeRequest]
	comments       *policy[*ent.Comment, predicate.Comment]
	commentReplies *policy[*ent.CommentReply, predicate.CommentReply]
	teams          *policy[*ent.Team, predicate.Team]
	invites        *policy[*ent.Invite, predicate.Invite]
	samlProviders  *policy[*ent.SAMLProvider, predicate.SAMLProvider]
	revisions      *policy[*ent.Revision, predicate.Revision]
	users          *policy[*ent.User, predicate.User]
	tokens         *policy[*ent.APIToken, predicate.APIToken]
	translations   *policy[*ent.TranslationSettings, predicate.TranslationSettings]
	openAPISpecs   *policy[*ent.OpenAPISpec, predicate.OpenAPISpec]
	specVersions   *policy[*ent.OpenAPISpecVersion, predicate.OpenAPISpecVersion]
	sites          *policy[*ent.Site, predicate.Site]
	sections       *policy[*ent.SiteSection, predicate.SiteSection]
	sitespaces     *policy[*ent.SiteSpace, predicate.SiteSpace]
	shareLinks     *policy[*ent.ShareLink, predicate.ShareLink]
	sectionGroups  *policy[*ent.SiteSectionGroup, predicate.SiteSectionGroup]
	redirects      *policy[*ent.SiteRedirect, predicate.SiteRedirect]
	integrations   *policy[*ent.Integration, predicate.Integration]
	installations  *policy[*ent.IntegrationInstallation, predicate.IntegrationInstallation]
	webhooks       *policy[*ent.WebhookEndpoint, predicate.WebhookEndpoint]
	deliveries     *policy[*ent.WebhookDelivery, predicate.WebhookDelivery]

	// policies lists them all, for what every type gets.
	policies []anyPolicy
}

// protectedTypes are the ent types the read guard (store.FailClosed) protects:
// every type a policy declares.
func (p *policySet) protectedTypes() []string {
	out := make([]string, len(p.policies))
	for i, x := range p.policies {
		out[i] = x.name()
	}
	return out
}

func (r *Resolver) declarePolicies() {
	r.orgs = &policy[*ent.Organization, predicate.Organization]{
		typeName: "Organization", prefix: id.Organization, table: authz.Organizations,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Organization, error) {
			return byID(ctx, r, db, "Organization", ids, func(ctx context.Context, c *ent.Client, ids, _ []string) error {
				_, err := c.Organization.Query().Where(organization.IDIn(ids...)).All(ctx)
				return err
			}, db.Organization.ScanRows)
		},
		idOf: func(o *ent.Organization) string { return o.ID },
		decide: func(ctx context.Context, o *ent.Organization) (authz.Decision, error) {
			return r.organizationDecision(ctx, o.ID)
		},
	}
	r.collections = &policy[*ent.Collection, predicate.Collection]{
		typeName: "Collection", prefix: id.Collection, table: authz.Collections,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Collection, error) {
			return byID(ctx, r, db, "Collection", ids, func(ctx context.Context, c *ent.Client, ids, _ []string) error {
				_, err := c.Collection.Query().Where(collection.IDIn(ids...)).All(ctx)
				return err
			}, db.Collection.ScanRows)
		},
		idOf:   func(c *ent.Collection) string { return c.ID },
		decide: r.collectionDecision,
		scope:  collectionScope,
	}
	r.spaces = &policy[*ent.Space, predicate.Space]{
		typeName: "Space", prefix: id.Space, table: authz.Spaces,
		// A space's counters are columns of its row: they come with it.
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Space, error) {
			spaces, err := byID(ctx, r, db, "Space", ids, func(ctx context.Context, c *ent.Client, ids, _ []string) error {
				_, err := c.Space.Query().Where(space.IDIn(ids...)).All(ctx)
				return err
			}, db.Space.ScanRows)
			primeCounts(ctx, spaces)
			return spaces, err
		},
		idOf:   func(s *ent.Space) string { return s.ID },
		decide: r.spaceDecision,
		scope:  func(o *authz.Org) predicate.Space { return spaceScope(o.SpaceScope()) },
	}
	r.changeRequests = &policy[*ent.ChangeRequest, predicate.ChangeRequest]{
		typeName: "ChangeRequest", prefix: id.ChangeRequest, table: authz.ChangeRequests,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.ChangeRequest, error) {
			return byID(ctx, r, db, "ChangeRequest", ids, func(ctx context.Context, c *ent.Client, ids, _ []string) error {
				_, err := c.ChangeRequest.Query().Where(changerequest.IDIn(ids...)).All(ctx)
				return err
			}, db.ChangeRequest.ScanRows)
		},
		idOf: func(c *ent.ChangeRequest) string { return c.ID },
		decide: func(ctx context.Context, cr *ent.ChangeRequest) (authz.Decision, error) {
			return r.inSpace(ctx, cr.SpaceID)
		},
	}
	// A comment is seen by whoever sees its space, with the same role, and
	// a reply by whoever sees its comment; their authors own them.
	r.comments = &policy[*ent.Comment, predicate.Comment]{
		typeName: "Comment", prefix: id.Comment, table: authz.Comments,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Comment, error) {
			return db.Comment.Query().Where(comment.IDIn(ids...)).All(ctx)
		},
		idOf:   func(c *ent.Comment) string { return c.ID },
		owner:  func(c *ent.Comment) *string { return c.PostedByID },
		decide: func(ctx context.Context, c *ent.Comment) (authz.Decision, error) { return r.inSpace(ctx, c.SpaceID) },
	}
	r.commentReplies = &policy[*ent.CommentReply, predicate.CommentReply]{
		typeName: "CommentReply", prefix: id.CommentReply, table: authz.CommentReplies,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.CommentReply, error) {
			return db.CommentReply.Query().Where(commentreply.IDIn(ids...)).All(ctx)
		},
		idOf:  func(c *ent.CommentReply) string { return c.ID },
		owner: func(c *ent.CommentReply) *string { return c.PostedByID },
		decide: func(ctx context.Context, c *ent.CommentReply) (authz.Decision, error) {
			_, d, err := r.comments.get(ctx, c.CommentID)
			if apperr.KindOf(err) == apperr.NotFound {
				return authz.Decision{}, nil
			}
			return d, err
		},
	}
	// A team is seen by the members of its organization who have a role
	// (not guests, who see only what is shared with them), with that role.
	r.teams = &policy[*ent.Team, predicate.Team]{
		typeName: "Team", prefix: id.Team, table: authz.Teams,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Team, error) {
			return db.Team.Query().Where(team.IDIn(ids...)).All(ctx)
		},
		idOf:  func(t *ent.Team) string { return t.ID },
		orgOf: func(t *ent.Team) string { return t.OrganizationID },
		decide: func(ctx context.Context, t *ent.Team) (authz.Decision, error) {
			d, err := r.organizationDecision(ctx, t.OrganizationID)
			if d.Role == "" {
				return authz.Decision{}, err
			}
			return d, err
		},
	}
	// Invite links and SAML providers are seen by their organization's
	// admins only: to anyone else they do not exist (see authz.Invites).
	r.invites = &policy[*ent.Invite, predicate.Invite]{
		typeName: "Invite", prefix: id.Invite, table: authz.Invites,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Invite, error) {
			return db.Invite.Query().Where(invite.IDIn(ids...), invite.KindEQ(enum.InviteKindLink)).All(ctx)
		},
		idOf:  func(i *ent.Invite) string { return i.ID },
		orgOf: func(i *ent.Invite) string { return i.OrganizationID },
		decide: func(ctx context.Context, i *ent.Invite) (authz.Decision, error) {
			return r.adminsOnly(ctx, i.OrganizationID)
		},
	}
	r.samlProviders = &policy[*ent.SAMLProvider, predicate.SAMLProvider]{
		typeName: "SAMLProvider", prefix: id.SAMLProvider, table: authz.SAMLProviders,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.SAMLProvider, error) {
			return db.SAMLProvider.Query().Where(samlprovider.IDIn(ids...)).All(ctx)
		},
		idOf:  func(p *ent.SAMLProvider) string { return p.ID },
		orgOf: func(p *ent.SAMLProvider) string { return p.OrganizationID },
		decide: func(ctx context.Context, p *ent.SAMLProvider) (authz.Decision, error) {
			return r.adminsOnly(ctx, p.OrganizationID)
		},
	}
	r.revisions = &policy[*ent.Revision, predicate.Revision]{
		typeName: "Revision", prefix: id.Revision, table: authz.Revisions,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Revision, error) {
			return db.Revision.Query().Where(revision.IDIn(ids...)).All(ctx)
		},
		idOf:   func(v *ent.Revision) string { return v.ID },
		decide: r.revisionDecision,
	}
	r.users = &policy[*ent.User, predicate.User]{
		typeName: "User", prefix: id.User, table: authz.Users,
		fetch:  r.fetchUsers,
		idOf:   func(u *ent.User) string { return u.ID },
		decide: r.userDecision,
	}
	r.tokens = &policy[*ent.APIToken, predicate.APIToken]{
		typeName: "APIToken", prefix: id.APIToken, table: authz.APITokens,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.APIToken, error) {
			return db.APIToken.Query().Where(apitoken.IDIn(ids...)).All(ctx)
		},
		idOf:  func(t *ent.APIToken) string { return t.ID },
		owner: func(t *ent.APIToken) *string { return &t.UserID },
		decide: func(ctx context.Context, t *ent.APIToken) (authz.Decision, error) {
			v, err := auth.RequireViewer(ctx)
			if err != nil {
				return authz.Decision{}, err
			}
			return authz.Decision{Member: t.UserID == v.User.ID}, nil
		},
	}
	// Translation settings are seen by the members of their organization
	// who have a role (not guests), with that role.
	r.translations = &policy[*ent.TranslationSettings, predicate.TranslationSettings]{
		typeName: "TranslationSettings", prefix: id.TranslationSettings, table: authz.TranslationSettings,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.TranslationSettings, error) {
			return db.TranslationSettings.Query().Where(translationsettings.IDIn(ids...)).All(ctx)
		},
		idOf:  func(t *ent.TranslationSettings) string { return t.ID },
		orgOf: func(t *ent.TranslationSettings) string { return t.OrganizationID },
		decide: func(ctx context.Context, t *ent.TranslationSettings) (authz.Decision, error) {
			return r.membersWithARole(ctx, t.OrganizationID)
		},
	}
	// OpenAPI specs are seen by the members of their organization who have a
	// role, and a spec's versions by whoever sees the spec.
	r.openAPISpecs = &policy[*ent.OpenAPISpec, predicate.OpenAPISpec]{
		typeName: "OpenAPISpec", prefix: id.OpenAPISpec, table: authz.OpenAPISpecs,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.OpenAPISpec, error) {
			return db.OpenAPISpec.Query().Where(openapispec.IDIn(ids...)).All(ctx)
		},
		idOf: func(s *ent.OpenAPISpec) string { return s.ID },
		decide: func(ctx context.Context, s *ent.OpenAPISpec) (authz.Decision, error) {
			return r.membersWithARole(ctx, s.OrganizationID)
		},
	}
	r.specVersions = &policy[*ent.OpenAPISpecVersion, predicate.OpenAPISpecVersion]{
		typeName: "OpenAPISpecVersion", prefix: id.OpenAPISpecVersion, table: authz.OpenAPISpecVersions,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.OpenAPISpecVersion, error) {
			return db.OpenAPISpecVersion.Query().Where(openapispecversion.IDIn(ids...)).All(ctx)
		},
		idOf: func(v *ent.OpenAPISpecVersion) string { return v.ID },
		decide: func(ctx context.Context, v *ent.OpenAPISpecVersion) (authz.Decision, error) {
			_, d, err := r.openAPISpecs.get(ctx, v.SpecID)
			if apperr.KindOf(err) == apperr.NotFound {
				return authz.Decision{}, nil
			}
			return d, err
		},
	}
	// A site is seen by its organization's members with a role (see
	// siteDecision); its admins manage it.
	r.sites = &policy[*ent.Site, predicate.Site]{
		typeName: "Site", prefix: id.Site, table: authz.Sites,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Site, error) {
			return db.Site.Query().Where(site.IDIn(ids...)).All(ctx)
		},
		idOf:   func(s *ent.Site) string { return s.ID },
		orgOf:  func(s *ent.Site) string { return s.OrganizationID },
		decide: r.siteDecision,
	}
	// A site's sections and site-spaces are seen by whoever sees the site,
	// with the same role.
	r.sections = &policy[*ent.SiteSection, predicate.SiteSection]{
		typeName: "SiteSection", prefix: id.SiteSection, table: authz.SiteSections,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.SiteSection, error) {
			return db.SiteSection.Query().Where(sitesection.IDIn(ids...)).All(ctx)
		},
		idOf:   func(s *ent.SiteSection) string { return s.ID },
		decide: func(ctx context.Context, s *ent.SiteSection) (authz.Decision, error) { return r.inSite(ctx, s.SiteID) },
	}
	r.sitespaces = &policy[*ent.SiteSpace, predicate.SiteSpace]{
		typeName: "SiteSpace", prefix: id.SiteSpace, table: authz.SiteSpaces,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.SiteSpace, error) {
			return db.SiteSpace.Query().Where(sitespace.IDIn(ids...)).All(ctx)
		},
		idOf:   func(s *ent.SiteSpace) string { return s.ID },
		decide: func(ctx context.Context, s *ent.SiteSpace) (authz.Decision, error) { return r.inSite(ctx, s.SiteID) },
	}
	r.sectionGroups = &policy[*ent.SiteSectionGroup, predicate.SiteSectionGroup]{
		typeName: "SiteSectionGroup", prefix: id.SiteSectionGroup, table: authz.SiteSectionGroups,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.SiteSectionGroup, error) {
			return db.SiteSectionGroup.Query().Where(sitesectiongroup.IDIn(ids...)).All(ctx)
		},
		idOf: func(g *ent.SiteSectionGroup) string { return g.ID },
		decide: func(ctx context.Context, g *ent.SiteSectionGroup) (authz.Decision, error) {
			return r.inSite(ctx, g.SiteID)
		},
	}
	r.redirects = &policy[*ent.SiteRedirect, predicate.SiteRedirect]{
		typeName: "SiteRedirect", prefix: id.SiteRedirect, table: authz.SiteRedirects,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.SiteRedirect, error) {
			return db.SiteRedirect.Query().Where(siteredirect.IDIn(ids...)).All(ctx)
		},
		idOf:   func(x *ent.SiteRedirect) string { return x.ID },
		decide: func(ctx context.Context, x *ent.SiteRedirect) (authz.Decision, error) { return r.inSite(ctx, x.SiteID) },
	}
	// A share link is managed by whoever administers its site or space.
	r.shareLinks = &policy[*ent.ShareLink, predicate.ShareLink]{
		typeName: "ShareLink", prefix: id.ShareLink, table: authz.ShareLinks,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.ShareLink, error) {
			return db.ShareLink.Query().Where(sharelink.IDIn(ids...)).All(ctx)
		},
		idOf:   func(l *ent.ShareLink) string { return l.ID },
		decide: r.shareLinkDecision,
	}
	// An integration is found by anyone when public or unlisted, by the
	// members of its organization when private, and by no one once
	// unpublished (see integrationDecision).
	r.integrations = &policy[*ent.Integration, predicate.Integration]{
		typeName: "Integration", prefix: id.Integration, table: authz.Integrations,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.Integration, error) {
			return db.Integration.Query().Where(integration.IDIn(ids...), integration.UnpublishedAtIsNil()).All(ctx)
		},
		idOf:   func(i *ent.Integration) string { return i.ID },
		decide: r.integrationDecision,
	}
	// An installation is seen by the admins of its organization, and read
	// by the admins of the integration's (see installationDecision).
	r.installations = &policy[*ent.IntegrationInstallation, predicate.IntegrationInstallation]{
		typeName: "IntegrationInstallation", prefix: id.IntegrationInstallation, table: authz.IntegrationInstallations,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.IntegrationInstallation, error) {
			return db.IntegrationInstallation.Query().Where(integrationinstallation.IDIn(ids...)).All(ctx)
		},
		idOf:   func(x *ent.IntegrationInstallation) string { return x.ID },
		decide: r.installationDecision,
	}
	// Webhook endpoints and their deliveries: their organization's admins
	// only (see webhook.go).
	r.webhooks = &policy[*ent.WebhookEndpoint, predicate.WebhookEndpoint]{
		typeName: "WebhookEndpoint", prefix: id.WebhookEndpoint, table: authz.WebhookEndpoints,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.WebhookEndpoint, error) {
			return db.WebhookEndpoint.Query().Where(webhookendpoint.IDIn(ids...)).All(ctx)
		},
		idOf:  func(x *ent.WebhookEndpoint) string { return x.ID },
		orgOf: func(x *ent.WebhookEndpoint) string { return x.OrganizationID },
		decide: func(ctx context.Context, x *ent.WebhookEndpoint) (authz.Decision, error) {
			return r.adminsOnly(ctx, x.OrganizationID)
		},
	}
	r.deliveries = &policy[*ent.WebhookDelivery, predicate.WebhookDelivery]{
		typeName: "WebhookDelivery", prefix: id.WebhookDelivery, table: authz.WebhookDeliveries,
		fetch: func(ctx context.Context, db *ent.Client, ids []string) ([]*ent.WebhookDelivery, error) {
			return db.WebhookDelivery.Query().Where(webhookdelivery.IDIn(ids...)).All(ctx)
		},
		idOf:   func(x *ent.WebhookDelivery) string { return x.ID },
		decide: r.deliveryDecision,
	}
	r.policies = []anyPolicy{r.orgs, r.collections, r.spaces, r.changeRequests, r.comments, r.commentReplies,
		r.teams, r.invites, r.samlProviders, r.revisions, r.users, r.tokens, r.translations, r.openAPISpecs, r.specVersions,
		r.sites, r.sections, r.sitespaces, r.sectionGroups, r.redirects, r.shareLinks, r.integrations, r.installations,
		r.webhooks, r.deliveries}
}

// membersWithARole decides about what the members of an organization who
// have a role see: their decision about the organization, and nothing for
// guests and anyone else.
func (r *Resolver) membersWithARole(ctx context.Context, orgID string) (authz.Decision, error) {
	d, err := r.organizationDecision(ctx, orgID)
	if err != nil || d.Role == "" {
		return authz.Decision{}, err
	}
	return d, nil
}

// adminsOnly decides about what only an organization's admins see: their
// decision about the organization, and nothing for anyone else.
func (r *Resolver) adminsOnly(ctx context.Context, orgID string) (authz.Decision, error) {
	d, err := r.organizationDecision(ctx, orgID)
	if err != nil || !d.Can(enum.RoleAdmin) {
		return authz.Decision{}, err
	}
	return d, nil
}

// inSpace decides about what is worked on in a space (its change requests
// and comments): whoever may read them sees it, with their role on the
// space. A published site's reader reads the space's published content
// only, so to them it does not exist.
func (r *Resolver) inSpace(ctx context.Context, spaceID string) (authz.Decision, error) {
	_, d, err := r.spaces.get(ctx, spaceID)
	if apperr.KindOf(err) == apperr.NotFound || d.Published {
		return authz.Decision{}, nil
	}
	return d, err
}

// revisionDecision decides about a revision: whoever reads its space sees
// it, and a published site's reader only the space's current revision,
// which is what the site publishes.
func (r *Resolver) revisionDecision(ctx context.Context, v *ent.Revision) (authz.Decision, error) {
	s, d, err := r.spaces.get(ctx, v.SpaceID)
	if apperr.KindOf(err) == apperr.NotFound || err == nil && !revisionVisible(s, d, v.ID) {
		return authz.Decision{}, nil
	}
	return d, err
}

// revisionVisible reports whether a revision of a space the viewer sees,
// with the decision about the space, is visible to them.
func revisionVisible(s *ent.Space, d authz.Decision, revID string) bool {
	return d.Visible() && (!d.Published || s.RevisionID != nil && *s.RevisionID == revID)
}

// changesHidden reports whether the viewer reads a space only as a
// published site publishes it: its change requests and comments are then
// none of theirs, so lists of them are empty and their counts zero, as for
// any list of what a viewer cannot see.
func (r *Resolver) changesHidden(ctx context.Context, spaceID string) (bool, error) {
	if !loadersFrom(ctx).spacePublished(spaceID) {
		// The space was decided visible to reach it, and whoever sees a
		// space reads its changes unless only a site publishes it to them:
		// the decision need not be made again.
		return false, nil
	}
	_, d, err := r.spaces.get(ctx, spaceID)
	return d.Published, err
}

// userDecision decides who may look a user up by ID: the user, and members
// of an organization they share. Anyone who sees an object naming a user sees
// them through that object (see userEmail for what they see).
func (r *Resolver) userDecision(ctx context.Context, u *ent.User) (authz.Decision, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return authz.Decision{}, err
	}
	if u.ID == f.user.ID {
		return authz.Decision{Member: true}, nil
	}
	shared, err := r.sharesOrganization(ctx, u.ID)
	return authz.Decision{Member: shared}, err
}
