package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/bindery/bindery/ent/schema/internal/entgql"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/validate"
)

// Site publishes spaces as a documentation site.
type Site struct{ ent.Schema }

// Mixin of the Site.
func (Site) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Site}, TimeMixin{}}
}

// Fields of the Site.
func (Site) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.Enum("type").GoType(enum.SiteType("")).Default(string(enum.SiteTypeBasic)).
			Annotations(gqlEnum("SiteType")...).
			Comment("The site's plan, as the official API names it; BASIC by default. Bindery gates nothing on it."),
		field.String("title").Validate(validate.SiteTitle).Comment("The site's title, 2 to 128 characters."),
		field.String("hostname").Optional().Nillable().Unique().Validate(validate.SiteHostname).
			Comment("The site's own hostname; null when it has none. No mutation sets it."),
		field.String("basename").Optional().Nillable().Validate(validate.SiteBasename).
			Comment("The path the site is served under, 1 to 100 characters; null when it has none."),
		// proxy_origin is shown as the object proxy {origin, target}.
		field.String("proxy_origin").Optional().Nillable().Validate(validate.SiteProxyOrigin).Annotations(columnSize(512)).Annotations(internal()),
		field.Enum("visibility").GoType(enum.SiteVisibility("")).Default(string(enum.SiteVisibilityPublic)).
			Annotations(gqlEnum("SiteVisibility")...).
			Comment("Who can read the site once it is published: everyone (PUBLIC, the default, or UNLISTED), holders of a share link (SHARE_LINK), or visitors with a valid JWT (VISITOR_AUTH)."),
		field.Bool("published").Default(false).
			Comment("Whether the site is published: only then can anyone beyond its organization's members read it. publishSite and unpublishSite change it."),
		// adaptive_content is shown as the object adaptiveContent {enabled}.
		field.Bool("adaptive_content").Default(false).Annotations(internal()),
		// adaptive_schema is the JSON Schema of adaptive-content visitor claims.
		field.JSON("adaptive_schema", map[string]any{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		field.Time("adaptive_schema_updated_at").Annotations(dateTime, internal()).Optional().Nillable(),
		field.Enum("agents_context").GoType(enum.SiteAgentsContext("")).Default(string(enum.SiteAgentsContextIncluded)).
			Annotations(gqlEnum("SiteAgentsContext")...).
			Comment("Whether the site's content is offered to AI agents; INCLUDED by default."),
		visitorAuthKey(),
		field.String("visitor_auth_fallback_url").Optional().Nillable().Validate(validate.URL(2048)).Annotations(internal()),
	}
}

// visitorAuthKey is the visitor signing key of a site or a space: it signs
// and checks visitor JWTs when the visibility is visitor-auth (package
// visitor). Sites and spaces store it alike.
func visitorAuthKey() ent.Field {
	return field.String("visitor_auth_private_key").Optional().Nillable().Sensitive().Annotations(internal())
}

// Edges of the Site.
func (Site) Edges() []ent.Edge {
	cascade, skip := entsql.OnDelete(entsql.Cascade), entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("sites").Field("organization_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.To("sections", SiteSection.Type).Annotations(cascade, skip),
		edge.To("section_groups", SiteSectionGroup.Type).Annotations(cascade, skip),
		edge.To("site_spaces", SiteSpace.Type).Annotations(cascade, skip),
		edge.To("redirects", SiteRedirect.Type).Annotations(cascade, skip),
		edge.To("share_links", ShareLink.Type).Annotations(cascade, skip),
		edge.From("installations", IntegrationInstallation.Type).Ref("sites").Annotations(skip),
	}
}

// Indexes of the Site.
func (Site) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}

// Annotations of the Site.
func (Site) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A documentation site of an organization, which publishes its spaces.")}
}

// SiteSection is a top-level section of a site, holding site-spaces.
type SiteSection struct{ ent.Schema }

// Mixin of the SiteSection.
func (SiteSection) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SiteSection}, TimeMixin{}}
}

// Fields of the SiteSection.
func (SiteSection) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().Annotations(internal()),
		field.String("group_id").Optional().Nillable().Annotations(internal()),
		field.String("title").Validate(validate.SectionTitle).Comment("The section's title, 2 to 128 characters."),
		field.String("description").Optional().Nillable().Validate(validate.SectionDescription).
			Comment("The section's description, at most 256 characters; null when it has none."),
		field.String("icon").Optional().Nillable().Validate(validate.IconName).
			Comment("An icon name, at most 50 characters; null when it has none."),
		field.String("path").Validate(validate.SectionPath).
			Comment("The section's path on the site, 1 to 100 characters, unique within the site."),
		field.String("condition").Optional().Nillable().Validate(validate.Condition).
			Comment("An expression over visitor.claims that decides which visitors see the section, with adaptive content; null shows it to all."),
		// is_default is shown as default.
		field.Bool("is_default").Default(false).Annotations(internal()),
		field.Float("position").Default(0).Annotations(internal()),
	}
}

// Edges of the SiteSection.
func (SiteSection) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("sections").Field("site_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
		edge.From("group", SiteSectionGroup.Type).Ref("sections").Field("group_id").Unique().Annotations(entgql.Skip()),
		edge.To("site_spaces", SiteSpace.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes of the SiteSection. A site's section paths are unique, and so is
// its default section: the database holds both under any concurrency.
func (SiteSection) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("site_id", "position"),
		index.Fields("site_id", "path").Unique(),
		index.Fields("site_id").Unique().Annotations(entsql.IndexWhere("is_default")).StorageKey("sitesection_site_default"),
	}
}

// Annotations of the SiteSection.
func (SiteSection) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A top-level section of a site, such as a product, holding site-spaces.")}
}

// SiteSectionGroup groups sections of a site.
type SiteSectionGroup struct{ ent.Schema }

// Mixin of the SiteSectionGroup.
func (SiteSectionGroup) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SiteSectionGroup}, TimeMixin{}}
}

// Fields of the SiteSectionGroup.
func (SiteSectionGroup) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().Annotations(internal()),
		field.String("title").Validate(validate.SectionGroupTitle).Comment("The group's title, 1 to 100 characters."),
		field.String("icon").Optional().Nillable().Validate(validate.IconName).
			Comment("An icon name, at most 50 characters; null when it has none."),
		field.Float("position").Default(0).Annotations(internal()),
	}
}

// Edges of the SiteSectionGroup.
func (SiteSectionGroup) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("section_groups").Field("site_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
		edge.To("sections", SiteSection.Type).Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
	}
}

// Indexes of the SiteSectionGroup.
func (SiteSectionGroup) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "position")}
}

// Annotations of the SiteSectionGroup.
func (SiteSectionGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A group of sections of a site, shown together in its top bar.")}
}

// SiteSpace links a space into a site, at the root or in a section.
type SiteSpace struct{ ent.Schema }

// Mixin of the SiteSpace.
func (SiteSpace) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SiteSpace}, TimeMixin{}}
}

// Fields of the SiteSpace.
func (SiteSpace) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().Annotations(internal()),
		field.String("section_id").Optional().Nillable().Annotations(internal()),
		field.String("space_id").Immutable().Annotations(internal()),
		// title overrides the space's title on the site when set; the
		// resolver shows either.
		field.String("title").Optional().Nillable().MaxLen(128).Annotations(internal()),
		field.String("path").Validate(validate.SiteSpacePath).
			Comment("The site-space's path on the site, 1 to 100 characters, unique among its siblings."),
		field.String("condition").Optional().Nillable().Validate(validate.Condition).
			Comment("An expression over visitor.claims that decides which visitors see the site-space, with adaptive content; null shows it to all."),
		// is_default is shown as default.
		field.Bool("is_default").Default(false).Annotations(internal()),
		field.Float("position").Default(0).Annotations(internal()),
	}
}

// Edges of the SiteSpace.
func (SiteSpace) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("site_spaces").Field("site_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
		edge.From("section", SiteSection.Type).Ref("site_spaces").Field("section_id").Unique().Annotations(entgql.Skip()),
		edge.From("space", Space.Type).Ref("site_spaces").Field("space_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Indexes of the SiteSpace. Paths are unique among siblings, and so is the
// default: in a section, or at the site's root (section_id null, which a
// unique index would count as distinct, hence the partial indexes).
func (SiteSpace) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("site_id", "section_id", "position"), index.Fields("space_id"),
		index.Fields("section_id", "path").Unique().Annotations(entsql.IndexWhere("section_id IS NOT NULL")).
			StorageKey("sitespace_section_path"),
		index.Fields("site_id", "path").Unique().Annotations(entsql.IndexWhere("section_id IS NULL")).
			StorageKey("sitespace_root_path"),
		index.Fields("section_id").Unique().Annotations(entsql.IndexWhere("is_default AND section_id IS NOT NULL")).
			StorageKey("sitespace_section_default"),
		index.Fields("site_id").Unique().Annotations(entsql.IndexWhere("is_default AND section_id IS NULL")).
			StorageKey("sitespace_root_default"),
	}
}

// Annotations of the SiteSpace.
func (SiteSpace) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A space published on a site, at its root or in a section: a version or a language of it.")}
}

// SiteRedirect sends visitors from a path of a site to another destination.
type SiteRedirect struct{ ent.Schema }

// Mixin of the SiteRedirect.
func (SiteRedirect) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SiteRedirect}, TimeMixin{}}
}

// Fields of the SiteRedirect.
func (SiteRedirect) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().Annotations(internal()),
		// source is unique within its site (the index below), so that a
		// visited path resolves to one redirect.
		field.String("source").Validate(validate.RedirectSource).
			Comment("The path it redirects, such as /docs/old-page: at most 512 characters, unique within the site."),
		// destination is the official API's SiteRedirectDestination object,
		// for example {"kind":"site-section","siteSectionId":"sec_..."}.
		field.JSON("destination", map[string]string{}).SchemaType(jsonColumn).Annotations(internal()),
	}
}

// Edges of the SiteRedirect.
func (SiteRedirect) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("redirects").Field("site_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Indexes of the SiteRedirect.
func (SiteRedirect) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "source").Unique()}
}

// Annotations of the SiteRedirect.
func (SiteRedirect) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A redirect of a site: a path of the site that sends its visitors to a section, site-space or page.")}
}

// ShareLink is a secret key that admits anyone holding it to a share-link
// site or space. Exactly one of site and space is set.
type ShareLink struct{ ent.Schema }

// Mixin of the ShareLink.
func (ShareLink) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.ShareLink}, CreatedMixin{}}
}

// Fields of the ShareLink.
func (ShareLink) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("space_id").Optional().Nillable().Immutable().Annotations(internal()),
		// key is the secret a reader presents as shareKey; only the share
		// link's published URL shows it, to those who manage the link.
		field.String("key").Unique().Immutable().NotEmpty().Sensitive().Annotations(internal()),
		field.String("name").Optional().Nillable().Validate(validate.ShareLinkName).
			Comment("Its name, at most 50 characters, for those who manage it."),
		field.Bool("active").Default(true).Comment("Whether its key admits readers."),
	}
}

// Edges of the ShareLink.
func (ShareLink) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("share_links").Field("site_id").Unique().Immutable().
			Annotations(entgql.Skip()),
		edge.From("space", Space.Type).Ref("share_links").Field("space_id").Unique().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Indexes of the ShareLink: a site's or a space's links, oldest first.
func (ShareLink) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "created_at"), index.Fields("space_id", "created_at")}
}

// Annotations of the ShareLink.
func (ShareLink) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A secret link that admits whoever holds it to a published share-link site or space.")}
}
