package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/bindery/bindery/ent/schema/internal/entgql"
	"github.com/bindery/bindery/internal/clock"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/validate"
)

// Organization owns members, teams, content, sites, specs and integrations.
type Organization struct{ ent.Schema }

// Mixin of the Organization.
func (Organization) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Organization}, TimeMixin{}}
}

// Fields of the Organization.
func (Organization) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").Validate(validate.OrganizationTitle).Comment("The organization's name, 2 to 255 characters."),
		// hostname is the organization's subdomain for public content.
		field.String("hostname").Optional().Nillable().Unique().Validate(validate.OrganizationHostname).
			Comment("The organization's subdomain for its public content: 3 to 32 lowercase letters, digits and hyphens, unique; null when it has none."),
		field.Enum("type").GoType(enum.OrganizationType("")).Default(string(enum.OrganizationTypeBusiness)).
			Annotations(gqlEnum("OrganizationType")...).
			Comment("BUSINESS (the default) or COMMUNITY."),
		field.Enum("use_case").GoType(enum.OrganizationUseCase("")).Optional().Nillable().
			Annotations(gqlEnum("OrganizationUseCase")...).
			Comment("What the organization uses its documentation for, as the official API names it; null when not set."),
		field.Enum("community_type").GoType(enum.OrganizationCommunityType("")).Optional().Nillable().
			Annotations(gqlEnum("OrganizationCommunityType")...).
			Comment("The kind of community, for a COMMUNITY organization; null when not set."),
		// default_role is the role of members who join through an email domain
		// or an invite without a role; NULL means they join as guests.
		field.Enum("default_role").GoType(enum.Role("")).Optional().Nillable().
			Annotations(gqlEnum("Role")...).
			Comment("The role of members who join through an email domain or an invite without a role; null makes them guests."),
		field.Bool("sso").Default(false).Comment("Whether the organization uses single sign-on."),
		field.Bool("ai").Default(false).
			Comment("Whether the organization turns AI features on; Bindery stores the setting and runs none."),
		field.Bool("invite_links").Default(true).
			Comment("Whether its invite links admit people: when false, joinOrganization is refused with FORBIDDEN."),
		// Bindery is self-hosted and gates nothing on the plan; the field
		// exists because clients of the official API read it.
		field.Enum("plan").GoType(enum.Plan("")).Default(string(enum.PlanEnterprise2024)).
			Annotations(gqlEnum("Plan")...).
			Comment("The organization's plan, for clients of the official API: Bindery is self-hosted and gates nothing on it."),
		field.Strings("email_domains").Default([]string{}).SchemaType(jsonColumn).
			Comment("The email domains, lower-cased, whose users find the organization through emailDomainOrganizations; at most 100."),
		field.String("logo").StorageKey("logo_url").Optional().Nillable().Validate(validate.LogoURL).Annotations(internal()),
		field.String("custom_hostname").Optional().Nillable().Unique().Validate(validate.SiteHostname).
			Comment("The organization's own hostname for its content; null when it has none. No mutation sets it."),
		field.String("default_site_id").Optional().Nillable().Annotations(internal()),
	}
}

// Edges of the Organization.
func (Organization) Edges() []ent.Edge {
	cascade := []schema.Annotation{entgql.Skip(), entsql.OnDelete(entsql.Cascade)}
	return []ent.Edge{
		edge.To("members", Member.Type).Annotations(cascade...),
		edge.To("teams", Team.Type).Annotations(cascade...),
		edge.To("invites", Invite.Type).Annotations(cascade...),
		edge.To("saml_providers", SAMLProvider.Type).Annotations(cascade...),
		edge.To("collections", Collection.Type).Annotations(cascade...),
		edge.To("spaces", Space.Type).Annotations(cascade...),
		edge.To("sites", Site.Type).Annotations(cascade...),
		edge.To("openapi_specs", OpenAPISpec.Type).Annotations(cascade...),
		edge.To("translation_settings", TranslationSettings.Type).Annotations(cascade...),
		edge.To("integrations", Integration.Type).Annotations(cascade...),
		edge.To("installations", IntegrationInstallation.Type).Annotations(cascade...),
		edge.To("webhook_endpoints", WebhookEndpoint.Type).Annotations(cascade...),
		edge.To("default_site", Site.Type).Field("default_site_id").Unique().
			Annotations(entgql.Skip(), entsql.OnDelete(entsql.SetNull)),
	}
}

// Annotations of the Organization.
func (Organization) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An organization: it owns members, teams, collections, spaces, sites, OpenAPI specs and integrations.")}
}

// Member is a user's membership of an organization.
type Member struct{ ent.Schema }

// Mixin of the Member.
func (Member) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Member}}
}

// Fields of the Member.
func (Member) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable(),
		field.String("user_id").Immutable(),
		// role is NULL for a guest: a member who only sees what is shared
		// with them explicitly.
		field.Enum("role").GoType(enum.Role("")).Optional().Nillable(),
		field.Bool("disabled").Default(false),
		field.Bool("sso").Default(false),
		field.Time("joined_at").Annotations(dateTime).Immutable().Default(clock.Now),
		field.Time("last_seen_at").Annotations(dateTime).Optional().Nillable(),
	}
}

// Edges of the Member.
func (Member) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("members").Field("organization_id").Unique().Required().Immutable(),
		edge.From("user", User.Type).Ref("memberships").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Member.
func (Member) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations of the Member.
func (Member) Annotations() []schema.Annotation { return hidden() }

// Team is a named group of members.
type Team struct{ ent.Schema }

// Mixin of the Team.
func (Team) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Team}, TimeMixin{}}
}

// Fields of the Team.
func (Team) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.String("title").Validate(validate.TeamTitle).Comment("The team's name, 1 to 64 characters."),
	}
}

// Edges of the Team.
func (Team) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("teams").Field("organization_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.To("members", TeamMember.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("grants", ContentGrant.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
	}
}

// Annotations of the Team.
func (Team) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A named group of an organization's members; its grants on content raise its members' roles.")}
}

// TeamMember is a user's membership of a team.
type TeamMember struct{ ent.Schema }

// Mixin of the TeamMember.
func (TeamMember) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.TeamMember}, CreatedMixin{}}
}

// Fields of the TeamMember.
func (TeamMember) Fields() []ent.Field {
	return []ent.Field{
		field.String("team_id").Immutable(),
		field.String("user_id").Immutable(),
		field.Enum("role").GoType(enum.TeamMemberRole("")).Default(string(enum.TeamMemberRoleMember)),
	}
}

// Edges of the TeamMember.
func (TeamMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("team", Team.Type).Ref("members").Field("team_id").Unique().Required().Immutable(),
		edge.From("user", User.Type).Ref("team_memberships").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the TeamMember.
func (TeamMember) Indexes() []ent.Index {
	return []ent.Index{index.Fields("team_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations of the TeamMember.
func (TeamMember) Annotations() []schema.Annotation { return hidden() }

// Invite invites people into an organization, or into one of its spaces or
// collections: either as a shareable link or sent to an email address. A
// link invite's ID is the secret of the link (IDMixin.Secret): whoever holds
// it may join. An invitation by email makes no one a member: it waits until
// the user of that address accepts it (accepted_at).
type Invite struct{ ent.Schema }

// Mixin of the Invite.
func (Invite) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Invite, Secret: true}, CreatedMixin{}}
}

// Fields of the Invite.
func (Invite) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.Enum("kind").GoType(enum.InviteKind("")).Immutable().Annotations(internal()),
		// role is the organization role, or the level on the space or
		// collection for a content invite; NULL invites a guest.
		field.Enum("role").GoType(enum.Role("")).Optional().Nillable().Annotations(gqlEnum("Role")...).
			Comment("The organization role it gives; null for a guest."),
		field.String("space_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("collection_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("email").Optional().Nillable().Immutable().Validate(validate.Email).Annotations(internal()),
		// sso marks the invitee an SSO member once they accept.
		field.Bool("sso").Default(false).Annotations(internal()),
		field.String("created_by_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.Time("accepted_at").Annotations(dateTime, internal()).Optional().Nillable(),
	}
}

// Edges of the Invite.
func (Invite) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("invites").Field("organization_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.To("space", Space.Type).Field("space_id").Unique().Immutable().Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("collection", Collection.Type).Field("collection_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("created_by", User.Type).Field("created_by_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the Invite. An address has one invitation per organization,
// which inviting it again updates; links have no email, and NULLs never
// collide.
func (Invite) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "created_at"),
		index.Fields("organization_id", "email").Unique(),
		index.Fields("email"),
	}
}

// Annotations of the Invite.
func (Invite) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An invitation to an organization: an invite link, whose ID is its secret and whose holder joins " +
		"with its role, or an invitation by email, which only the user of that address accepts.")}
}

// SAMLProvider is a SAML single sign-on provider of an organization.
type SAMLProvider struct{ ent.Schema }

// Mixin of the SAMLProvider.
func (SAMLProvider) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SAMLProvider}, TimeMixin{}}
}

// Fields of the SAMLProvider. The identity provider's settings are NULL until
// set; the provider is active once all three are.
func (SAMLProvider) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.String("label").Validate(validate.SAMLLabel).
			Comment("The provider's name, 1 to 30 characters, shown to members who sign in with it."),
		field.String("sso_url").Optional().Nillable().Validate(validate.SAMLSSOURL).
			Comment("The identity provider's sign-in URL; null until set."),
		field.String("entity_id").Optional().Nillable().Validate(validate.SAMLEntityID).
			Comment("The identity provider's entity ID; null until set."),
		field.Text("certificate").Optional().Nillable().Validate(validate.SAMLCertificate).
			Comment("The identity provider's PEM-encoded X.509 certificate; null until set."),
		field.String("default_team_id").Optional().Nillable().Annotations(internal()),
		field.Enum("default_role").GoType(enum.Role("")).Optional().Nillable().Annotations(gqlEnum("Role")...).
			Comment("The role of members who sign in through the provider; null makes them guests."),
		field.Enum("status").GoType(enum.SAMLProviderStatus("")).Default(string(enum.SAMLProviderStatusPending)).
			Annotations(gqlEnum("SAMLProviderStatus")...).
			Comment("ACTIVE once ssoURL, entityID and certificate are all set, PENDING until then."),
	}
}

// Edges of the SAMLProvider.
func (SAMLProvider) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("saml_providers").Field("organization_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.To("default_team", Team.Type).Field("default_team_id").Unique().Annotations(skip, entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the SAMLProvider.
func (SAMLProvider) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}

// Annotations of the SAMLProvider.
func (SAMLProvider) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A SAML identity provider members of the organization sign in with.")}
}

// ContentGrant gives a user or a team a role on a collection or a space,
// beyond what their organization role and the content's default level give.
// Exactly one of user and team, and exactly one of collection and space, is
// set.
type ContentGrant struct{ ent.Schema }

// Mixin of the ContentGrant.
func (ContentGrant) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.ContentGrant}, CreatedMixin{}}
}

// Fields of the ContentGrant.
func (ContentGrant) Fields() []ent.Field {
	return []ent.Field{
		field.String("user_id").Optional().Nillable().Immutable(),
		field.String("team_id").Optional().Nillable().Immutable(),
		field.String("collection_id").Optional().Nillable().Immutable(),
		field.String("space_id").Optional().Nillable().Immutable(),
		field.Enum("role").GoType(enum.Role("")),
	}
}

// Edges of the ContentGrant.
func (ContentGrant) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("grants").Field("user_id").Unique().Immutable(),
		edge.From("team", Team.Type).Ref("grants").Field("team_id").Unique().Immutable(),
		edge.From("collection", Collection.Type).Ref("grants").Field("collection_id").Unique().Immutable(),
		edge.From("space", Space.Type).Ref("grants").Field("space_id").Unique().Immutable(),
	}
}

// Indexes of the ContentGrant.
func (ContentGrant) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id"), index.Fields("team_id"), index.Fields("collection_id"), index.Fields("space_id")}
}

// Annotations of the ContentGrant.
func (ContentGrant) Annotations() []schema.Annotation { return hidden() }
