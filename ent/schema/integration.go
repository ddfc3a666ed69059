package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/bindery/bindery/ent/schema/internal/entgql"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/openapi"
	"github.com/bindery/bindery/internal/validate"
)

// OpenAPISpec is an OpenAPI document stored by an organization, processed in
// the background into versions (see internal/openapi/worker).
type OpenAPISpec struct{ ent.Schema }

// Mixin of the OpenAPISpec.
func (OpenAPISpec) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.OpenAPISpec}, TimeMixin{}}
}

// Fields of the OpenAPISpec. Its source is a URL (source_url) or the
// document's text (source_text), never both.
func (OpenAPISpec) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.String("slug").Validate(validate.OpenAPISlug).
			Comment("The spec's slug: 1 to 100 lowercase letters and digits in words joined by hyphens, unique in the organization."),
		field.String("source_url").Optional().Nillable().Validate(validate.OpenAPISourceURL).
			Comment("The URL the document is fetched from, and fetched again periodically; null when the source is a text."),
		field.Text("source_text").Optional().Nillable().Validate(validate.OpenAPISourceText).Annotations(internal()),
		field.Enum("visibility").GoType(enum.OpenAPISpecVisibility("")).Default(string(enum.OpenAPISpecVisibilityPrivate)).
			Annotations(internal()),
		field.Enum("processing_state").GoType(enum.OpenAPISpecProcessingState("")).
			Default(string(enum.OpenAPISpecProcessingStatePending)).Annotations(gqlEnum("OpenAPISpecProcessingState")...).
			Comment("PENDING after a new source, PROGRESS while a worker processes it, COMPLETE once done, whether it succeeded or failed."),
		// progress is how far the processing under way is, 0 to 100.
		field.Int("progress").Default(0).Range(0, 100).Comment("How far the processing under way is, 0 to 100."),
		field.String("last_version_id").Optional().Nillable().Annotations(internal()),
		field.Time("last_processed_at").Annotations(dateTime).Optional().Nillable().
			Comment("When its last processing ended; null before the first."),
		field.Enum("last_process_error_code").GoType(enum.OpenAPISpecProcessingErrorCode("")).Optional().Nillable().
			Annotations(gqlEnum("OpenAPISpecProcessingErrorCode")...).
			Comment("Why the last processing failed: FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR; null when it succeeded."),
		field.JSON("last_processed_errors", []openapi.Error{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		// claimed_until is the lease of the worker processing the spec, and
		// claimed_by that worker's claim; a job is claimed with a
		// conditional UPDATE (FOR UPDATE SKIP LOCKED on PostgreSQL), and
		// retaken by another worker once the lease is over.
		field.Time("claimed_until").Annotations(dateTime, internal()).Optional().Nillable(),
		field.String("claimed_by").Optional().Nillable().Annotations(internal()),
		// next_fetch_at is when a URL source is fetched again.
		field.Time("next_fetch_at").Annotations(dateTime, internal()).Optional().Nillable(),
	}
}

// Edges of the OpenAPISpec.
func (OpenAPISpec) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("openapi_specs").Field("organization_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.To("versions", OpenAPISpecVersion.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("last_version", OpenAPISpecVersion.Type).Field("last_version_id").Unique().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the OpenAPISpec.
func (OpenAPISpec) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "slug").Unique(),
		index.Fields("organization_id", "created_at"),
		index.Fields("processing_state", "claimed_until"),
		index.Fields("next_fetch_at"),
	}
}

// Annotations of the OpenAPISpec.
func (OpenAPISpec) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An OpenAPI document of an organization, from a URL or a text, processed in the background into versions.")}
}

// OpenAPISpecVersion is one processed version of an OpenAPI spec: a
// document that parsed and validated, kept whole, with its operations.
type OpenAPISpecVersion struct{ ent.Schema }

// Mixin of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.OpenAPISpecVersion}, CreatedMixin{}}
}

// Fields of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("spec_id").Immutable().Annotations(internal()),
		field.String("source_url").Optional().Nillable().Immutable().
			Comment("The URL the document was fetched from; null when it came as a text."),
		field.Text("content").Immutable().Annotations(internal()),
		// digest is the SHA-256 of content: a new version is stored only
		// when it differs from the last one's.
		field.String("digest").Immutable().Annotations(internal()),
		// spec_version is the document's openapi (or swagger) version.
		field.String("spec_version").Immutable().
			Comment("The document's openapi (or swagger) version as written, such as 3.1.0."),
		field.JSON("operations", []openapi.Operation{}).Immutable().SchemaType(jsonColumn).Annotations(internal()),
	}
}

// Edges of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("spec", OpenAPISpec.Type).Ref("versions").Field("spec_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Indexes of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Indexes() []ent.Index {
	return []ent.Index{index.Fields("spec_id", "created_at")}
}

// Annotations of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A version of an OpenAPI spec: a document that parsed and validated, with its operations.")}
}

// TranslationSettings configures the languages an organization translates
// its content into: the API contract's translation settings and the
// official spec's Translation in one row.
type TranslationSettings struct{ ent.Schema }

// Mixin of the TranslationSettings.
func (TranslationSettings) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.TranslationSettings}, TimeMixin{}}
}

// Fields of the TranslationSettings. Bindery's API contract (docs/api/translations.md)
// gives translation settings a title and a list of languages; the official spec's
// Translation has a source (a space and its language), one target language
// and instructions. A client of either works: the contract's members are
// always set, the official ones when a client gave them (NULL otherwise).
func (TranslationSettings) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.String("title").Validate(validate.TranslationTitle).Comment("Their name, 1 to 100 characters."),
		// languages are official TranslationLanguage codes, without
		// repeats; GraphQL declares the field itself (a list of enums).
		field.JSON("languages", []enum.Language{}).Default([]enum.Language{}).SchemaType(jsonColumn).Annotations(internal()),
		// The official Translation's members. language, when set, is one of
		// languages; source_space_id and source_language are set together.
		field.String("source_space_id").Optional().Nillable().Annotations(internal()),
		field.Enum("source_language").GoType(enum.Language("")).Optional().Nillable().Annotations(internal()),
		field.Enum("language").GoType(enum.Language("")).Optional().Nillable().Annotations(internal()),
		// instructions are a JSONDocument, kept as sent.
		field.JSON("instructions", json.RawMessage{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
	}
}

// Edges of the TranslationSettings.
func (TranslationSettings) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("translation_settings").Field("organization_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
		// A purged source space leaves the settings without a source.
		edge.To("source_space", Space.Type).Field("source_space_id").Unique().
			Annotations(entgql.Skip(), entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the TranslationSettings.
func (TranslationSettings) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}

// Annotations of the TranslationSettings.
func (TranslationSettings) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The languages an organization translates its content into.")}
}

// Integration is an integration published by an organization, identified by
// its unique name. Its script is stored and versioned with it, never run by
// Bindery.
type Integration struct{ ent.Schema }

// Mixin of the Integration.
func (Integration) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Integration}, TimeMixin{}}
}

// Fields of the Integration. GraphQL declares its lists of enums and the
// official API's objects itself; script, icon, images and secrets never
// appear there as stored.
func (Integration) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Unique().Immutable().Validate(validate.IntegrationName).
			Comment("The integration's unique name: 1 to 100 letters, digits, '-', '_' and '.'."),
		field.String("organization_id").Annotations(internal()),
		// version counts the publishes: each one adds 1.
		field.Int("version").Default(1).Positive().Comment("The number of times it was published: 1, then one more each publish."),
		field.String("title").Validate(validate.IntegrationTitle).Comment("2 to 30 characters."),
		field.String("description").Default("").Validate(validate.IntegrationDescription).Comment("At most 100 characters."),
		field.Text("summary").Optional().Nillable().Validate(validate.IntegrationSummary).
			Comment("Markdown of at most 2,048 characters; null when it has none."),
		field.Enum("target").GoType(enum.IntegrationTarget("")).Default(string(enum.IntegrationTargetAll)).
			Comment("Where it can be installed: all targets, or sites, spaces or organizations only.").
			Annotations(gqlEnum("IntegrationTarget")...),
		field.Enum("visibility").GoType(enum.IntegrationVisibility("")).Default(string(enum.IntegrationVisibilityPrivate)).
			Comment("Who finds it: everyone in lists, everyone by its name, or its organization's members.").
			Annotations(gqlEnum("IntegrationVisibility")...),
		field.Bool("verified").Default(false).Comment("Whether the server's operators verified it; a publish never sets it."),
		field.JSON("scopes", []enum.IntegrationScope{}).Default([]enum.IntegrationScope{}).SchemaType(jsonColumn).
			Annotations(internal()),
		field.JSON("categories", []enum.IntegrationCategory{}).Default([]enum.IntegrationCategory{}).SchemaType(jsonColumn).
			Annotations(internal()),
		// Images are stored as the base64 data the publisher sent.
		field.Text("icon").Optional().Nillable().Annotations(internal()),
		field.JSON("preview_images", []string{}).Default([]string{}).SchemaType(jsonColumn).Annotations(internal()),
		field.Text("script").Annotations(internal()),
		// secrets maps each secret's name to its value sealed with
		// internal/secrets (AES-256-GCM, the integration's ID and the name
		// as additional data): no value is stored in the clear.
		field.JSON("secrets", map[string]string{}).Default(map[string]string{}).Sensitive().SchemaType(jsonColumn).
			Annotations(internal()),
		// The remaining members are the official API's objects, kept whole;
		// blocks and content_sources are null when there are none, which
		// the blocks and contentSources filters of the list read.
		field.JSON("blocks", []map[string]any{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		field.JSON("content_sources", []map[string]any{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		field.JSON("configurations", map[string]any{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		field.JSON("external_links", []map[string]any{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		// content_security_policy is the official string or object, kept
		// as the JSON it was sent as.
		field.JSON("content_security_policy", json.RawMessage{}).Optional().SchemaType(jsonColumn).Annotations(internal()),
		// block_domains are the host names of the blocks' urlUnfurl
		// patterns, lowercased, for the list's blockDomain filter.
		// The column's own default lets a migration add it to a table that
		// has rows.
		field.JSON("block_domains", []string{}).Default([]string{}).SchemaType(jsonColumn).
			Annotations(internal(), entsql.Default("[]")),
		// unpublished_at is set by an unpublish: the integration is then
		// found by no one, its installations are paused, and its name
		// stays its organization's, which may publish it again.
		field.Time("unpublished_at").Optional().Nillable().Annotations(dateTime, internal()),
	}
}

// Edges of the Integration.
func (Integration) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("owner", Organization.Type).Ref("integrations").Field("organization_id").Unique().Required().Annotations(skip),
		edge.To("installations", IntegrationInstallation.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("webhook_endpoints", WebhookEndpoint.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Integration.
func (Integration) Indexes() []ent.Index {
	return []ent.Index{index.Fields("created_at"), index.Fields("organization_id", "created_at")}
}

// Annotations of the Integration.
func (Integration) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An integration published by an organization under a unique name; its script is stored, never run.")}
}

// IntegrationInstallation is an integration installed in an organization,
// for all or selected spaces and sites.
type IntegrationInstallation struct{ ent.Schema }

// Mixin of the IntegrationInstallation.
func (IntegrationInstallation) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.IntegrationInstallation}, TimeMixin{}}
}

// Fields of the IntegrationInstallation. status is active, pending while
// the configuration lacks a property the integration requires, and paused
// while the integration is unpublished.
func (IntegrationInstallation) Fields() []ent.Field {
	return []ent.Field{
		field.String("integration_id").Immutable().Annotations(internal()),
		field.String("organization_id").Immutable().Annotations(internal()),
		field.Enum("status").GoType(enum.InstallationStatus("")).Default(string(enum.InstallationStatusActive)).
			Comment("ACTIVE, PENDING while its configuration lacks a required property, PAUSED while the integration is unpublished.").
			Annotations(gqlEnum("InstallationStatus")...),
		field.Enum("space_selection").GoType(enum.InstallationSelection("")).Default(string(enum.InstallationSelectionAll)).
			Comment("Whether it covers all the organization's spaces or the selected ones.").
			Annotations(gqlEnum("InstallationSelection")...),
		field.Enum("site_selection").GoType(enum.InstallationSelection("")).Default(string(enum.InstallationSelectionAll)).
			Comment("Whether it covers all the organization's sites or the selected ones.").
			Annotations(gqlEnum("InstallationSelection")...),
		field.JSON("configuration", map[string]any{}).Default(map[string]any{}).SchemaType(jsonColumn).Annotations(internal()),
		field.Strings("external_ids").Default([]string{}).Validate(validate.ExternalIDs).SchemaType(jsonColumn).Annotations(internal()),
	}
}

// Edges of the IntegrationInstallation.
func (IntegrationInstallation) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("integration", Integration.Type).Ref("installations").Field("integration_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.From("organization", Organization.Type).Ref("installations").Field("organization_id").Unique().Required().Immutable().
			Annotations(skip),
		// The selected spaces and sites, each through a row that holds its
		// own configuration.
		edge.To("spaces", Space.Type).Through("space_installations", IntegrationSpaceInstallation.Type).Annotations(skip),
		edge.To("sites", Site.Type).Through("site_installations", IntegrationSiteInstallation.Type).Annotations(skip),
	}
}

// Indexes of the IntegrationInstallation.
func (IntegrationInstallation) Indexes() []ent.Index {
	return []ent.Index{index.Fields("integration_id", "organization_id").Unique(), index.Fields("organization_id", "created_at")}
}

// Annotations of the IntegrationInstallation.
func (IntegrationInstallation) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An integration installed in an organization, for all or selected spaces and sites.")}
}

// targetFields are the fields of an installation's row for one space or
// site it selects: the configuration of the integration there, valid
// against its space or site configuration schema, and its external IDs.
// Their defaults are the columns' own, which let a migration add them to a
// table that has rows, and fill the rows ent inserts for the edge: ent's
// insert of an edge's rows does not encode a JSON field's Go default.
func targetFields(target string) []ent.Field {
	return []ent.Field{
		field.String("integration_installation_id").Immutable().Annotations(internal()),
		field.String(target + "_id").Immutable().Annotations(internal()),
		field.JSON("configuration", map[string]any{}).Optional().SchemaType(jsonColumn).
			Annotations(internal(), entsql.Default("{}")),
		field.Strings("external_ids").Optional().Validate(validate.ExternalIDs).SchemaType(jsonColumn).
			Annotations(internal(), entsql.Default("[]")),
	}
}

// IntegrationSpaceInstallation is a space an installation selects, with the
// integration's configuration for that space: the row of the
// installation's spaces edge.
type IntegrationSpaceInstallation struct{ ent.Schema }

// Fields of the IntegrationSpaceInstallation.
func (IntegrationSpaceInstallation) Fields() []ent.Field { return targetFields("space") }

// Edges of the IntegrationSpaceInstallation.
func (IntegrationSpaceInstallation) Edges() []ent.Edge {
	return []ent.Edge{
		// The constraints keep the names they had as the join table's.
		edge.To("integration_installation", IntegrationInstallation.Type).Field("integration_installation_id").
			Unique().Required().Immutable().StorageKey(edge.Symbol("integration_installation_spaces_integration_installation_id")).
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			StorageKey(edge.Symbol("integration_installation_spaces_space_id")).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Annotations of the IntegrationSpaceInstallation: the table of the
// selection it extends.
func (IntegrationSpaceInstallation) Annotations() []schema.Annotation {
	return []schema.Annotation{
		field.ID("integration_installation_id", "space_id"),
		entsql.Table("integration_installation_spaces"),
		entgql.Skip(entgql.SkipAll),
		schema.Comment("A space an installation selects, with the integration's configuration for it."),
	}
}

// IntegrationSiteInstallation is a site an installation selects, with the
// integration's configuration for that site.
type IntegrationSiteInstallation struct{ ent.Schema }

// Fields of the IntegrationSiteInstallation.
func (IntegrationSiteInstallation) Fields() []ent.Field { return targetFields("site") }

// Edges of the IntegrationSiteInstallation.
func (IntegrationSiteInstallation) Edges() []ent.Edge {
	return []ent.Edge{
		// The constraints keep the names they had as the join table's.
		edge.To("integration_installation", IntegrationInstallation.Type).Field("integration_installation_id").
			Unique().Required().Immutable().StorageKey(edge.Symbol("integration_installation_sites_integration_installation_id")).
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().
			StorageKey(edge.Symbol("integration_installation_sites_site_id")).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Annotations of the IntegrationSiteInstallation.
func (IntegrationSiteInstallation) Annotations() []schema.Annotation {
	return []schema.Annotation{
		field.ID("integration_installation_id", "site_id"),
		entsql.Table("integration_installation_sites"),
		entgql.Skip(entgql.SkipAll),
		schema.Comment("A site an installation selects, with the integration's configuration for it."),
	}
}
