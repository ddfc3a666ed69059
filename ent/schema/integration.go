package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

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
		field.String("slug").Validate(validate.OpenAPISlug),
		field.String("source_url").Optional().Nillable().Validate(validate.OpenAPISourceURL),
		field.Text("source_text").Optional().Nillable().Annotations(internal()),
		field.Enum("visibility").GoType(enum.OpenAPISpecVisibility("")).Default(string(enum.OpenAPISpecVisibilityPrivate)).
			Annotations(internal()),
		field.Enum("processing_state").GoType(enum.OpenAPISpecProcessingState("")).
			Default(string(enum.OpenAPISpecProcessingStatePending)).Annotations(gqlEnum("OpenAPISpecProcessingState")...),
		// progress is how far the processing under way is, 0 to 100.
		field.Int("progress").Default(0).Range(0, 100),
		field.String("last_version_id").Optional().Nillable().Annotations(internal()),
		field.Time("last_processed_at").Annotations(dateTime).Optional().Nillable(),
		field.Enum("last_process_error_code").GoType(enum.OpenAPISpecProcessingErrorCode("")).Optional().Nillable().
			Annotations(gqlEnum("OpenAPISpecProcessingErrorCode")...),
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
		field.String("source_url").Optional().Nillable().Immutable(),
		field.Text("content").Immutable().Annotations(internal()),
		// digest is the SHA-256 of content: a new version is stored only
		// when it differs from the last one's.
		field.String("digest").Immutable().Annotations(internal()),
		// spec_version is the document's openapi (or swagger) version.
		field.String("spec_version").Immutable(),
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
// its content into.
type TranslationSettings struct{ ent.Schema }

// Mixin of the TranslationSettings.
func (TranslationSettings) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.TranslationSettings}, TimeMixin{}}
}

// Fields of the TranslationSettings. The API contract (part 2.20) gives
// translation settings a title and a list of languages; the official spec's
// Translation (a source space and one language) differs, and the contract
// wins.
func (TranslationSettings) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		field.String("title").Validate(validate.TranslationTitle),
		// languages are official TranslationLanguage codes, without
		// repeats; GraphQL declares the field itself (a list of enums).
		field.JSON("languages", []enum.Language{}).Default([]enum.Language{}).SchemaType(jsonColumn).Annotations(internal()),
	}
}

// Edges of the TranslationSettings.
func (TranslationSettings) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("translation_settings").Field("organization_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
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
// its unique name.
type Integration struct{ ent.Schema }

// Mixin of the Integration.
func (Integration) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Integration}, TimeMixin{}}
}

// Fields of the Integration.
func (Integration) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Unique().Immutable().Validate(validate.IntegrationName),
		field.String("organization_id"),
		field.Int("version").Default(1).Positive(),
		field.String("title").Validate(validate.IntegrationTitle),
		field.String("description").Default("").Validate(validate.IntegrationDescription),
		field.Text("summary").Optional().Nillable().Validate(validate.IntegrationSummary),
		field.Enum("target").GoType(enum.IntegrationTarget("")).Default(string(enum.IntegrationTargetAll)),
		field.Enum("visibility").GoType(enum.IntegrationVisibility("")).Default(string(enum.IntegrationVisibilityPrivate)),
		field.Bool("verified").Default(false),
		field.JSON("scopes", []enum.IntegrationScope{}).Default([]enum.IntegrationScope{}).SchemaType(jsonColumn),
		field.JSON("categories", []enum.IntegrationCategory{}).Default([]enum.IntegrationCategory{}).SchemaType(jsonColumn),
		// Images are stored as the base64 data the publisher sent.
		field.Text("icon").Optional().Nillable(),
		field.JSON("preview_images", []string{}).Default([]string{}).SchemaType(jsonColumn),
		field.Text("script"),
		field.JSON("secrets", map[string]string{}).Default(map[string]string{}).Sensitive().SchemaType(jsonColumn),
		// The remaining members are the official API's objects, kept whole.
		field.JSON("blocks", []map[string]any{}).Optional().SchemaType(jsonColumn),
		field.JSON("content_sources", []map[string]any{}).Optional().SchemaType(jsonColumn),
		field.JSON("configurations", map[string]any{}).Optional().SchemaType(jsonColumn),
		field.JSON("external_links", []map[string]any{}).Optional().SchemaType(jsonColumn),
		field.JSON("content_security_policy", map[string]any{}).Optional().SchemaType(jsonColumn),
	}
}

// Edges of the Integration.
func (Integration) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("owner", Organization.Type).Ref("integrations").Field("organization_id").Unique().Required(),
		edge.To("installations", IntegrationInstallation.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Annotations of the Integration.
func (Integration) Annotations() []schema.Annotation { return hidden() }

// IntegrationInstallation is an integration installed in an organization,
// for all or selected spaces and sites.
type IntegrationInstallation struct{ ent.Schema }

// Mixin of the IntegrationInstallation.
func (IntegrationInstallation) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.IntegrationInstallation}, TimeMixin{}}
}

// Fields of the IntegrationInstallation.
func (IntegrationInstallation) Fields() []ent.Field {
	return []ent.Field{
		field.String("integration_id").Immutable(),
		field.String("organization_id").Immutable(),
		field.Enum("status").GoType(enum.InstallationStatus("")).Default(string(enum.InstallationStatusActive)),
		field.Enum("space_selection").GoType(enum.InstallationSelection("")).Default(string(enum.InstallationSelectionAll)),
		field.Enum("site_selection").GoType(enum.InstallationSelection("")).Default(string(enum.InstallationSelectionAll)),
		field.JSON("configuration", map[string]any{}).Default(map[string]any{}).SchemaType(jsonColumn),
		field.Strings("external_ids").Default([]string{}).SchemaType(jsonColumn),
	}
}

// Edges of the IntegrationInstallation.
func (IntegrationInstallation) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("integration", Integration.Type).Ref("installations").Field("integration_id").Unique().Required().Immutable(),
		edge.From("organization", Organization.Type).Ref("installations").Field("organization_id").Unique().Required().Immutable(),
		edge.To("spaces", Space.Type),
		edge.To("sites", Site.Type),
	}
}

// Indexes of the IntegrationInstallation.
func (IntegrationInstallation) Indexes() []ent.Index {
	return []ent.Index{index.Fields("integration_id", "organization_id").Unique()}
}

// Annotations of the IntegrationInstallation.
func (IntegrationInstallation) Annotations() []schema.Annotation { return hidden() }
