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
	"github.com/bindery/bindery/internal/webhook"
)

// WebhookEndpoint is a URL an organization's admins registered to receive
// its events, signed with the endpoint's secret.
type WebhookEndpoint struct{ ent.Schema }

// Mixin of the WebhookEndpoint.
func (WebhookEndpoint) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.WebhookEndpoint}, TimeMixin{}}
}

// Fields of the WebhookEndpoint.
func (WebhookEndpoint) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Immutable().Annotations(internal()),
		// integration_id, when set, makes it the endpoint of an integration
		// of its organization: it receives the events of the organizations
		// where that integration is installed, instead of its own.
		field.String("integration_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("url").Validate(validate.WebhookURL).Annotations(columnSize(2048)).Comment("Where deliveries are POSTed: an https URL."),
		// event_types is never empty: an endpoint names what it receives.
		field.JSON("event_types", []enum.WebhookEventType{}).SchemaType(jsonColumn).Annotations(internal()),
		field.Bool("active").Default(true).
			Comment("Whether it receives deliveries; false when an admin paused it or Bindery disabled it."),
		field.String("description").Validate(validate.WebhookDescription).Annotations(columnSize(256)).Default("").Comment("What it is for, for its admins."),
		// secret is the signing secret, sealed with internal/secrets (the
		// endpoint's ID as additional data).
		field.String("secret").Sensitive().Annotations(internal()),
		field.String("disabled_reason").Optional().Nillable().
			Comment("Why Bindery disabled it, after too many failed deliveries; null when it did not."),
		field.Time("disabled_at").Annotations(dateTime).Optional().Nillable().
			Comment("When Bindery disabled it; null when it did not."),
		// failures counts the deliveries that failed for good in a row;
		// a success resets it.
		field.Int("failures").Default(0).Annotations(internal()),
	}
}

// Edges of the WebhookEndpoint.
func (WebhookEndpoint) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("webhook_endpoints").Field("organization_id").Unique().Required().
			Immutable().Annotations(skip),
		edge.From("integration", Integration.Type).Ref("webhook_endpoints").Field("integration_id").Unique().
			Immutable().Annotations(skip),
		edge.To("deliveries", WebhookDelivery.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the WebhookEndpoint.
func (WebhookEndpoint) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at"), index.Fields("integration_id")}
}

// Annotations of the WebhookEndpoint.
func (WebhookEndpoint) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A URL that receives the organization's events as signed HTTP POSTs.")}
}

// WebhookDelivery is one event to send to one endpoint: the outbox row
// written in the transaction of the change, then the log of its attempts.
type WebhookDelivery struct{ ent.Schema }

// Mixin of the WebhookDelivery.
func (WebhookDelivery) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.WebhookDelivery}, TimeMixin{}}
}

// Fields of the WebhookDelivery.
func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.String("endpoint_id").Immutable().Annotations(internal()),
		field.String("event_id").Immutable().
			Comment("The event's ID, the same in every delivery of the event, redeliveries included: receivers deduplicate on it."),
		field.Enum("event_type").GoType(enum.WebhookEventType("")).Immutable().
			Annotations(gqlEnum("WebhookEventType")...).Comment("What the event reports."),
		field.Text("payload").Immutable().Comment("The request body, the same at every attempt."),
		field.Enum("state").GoType(enum.WebhookDeliveryState("")).Default(string(enum.WebhookDeliveryStatePending)).
			Annotations(gqlEnum("WebhookDeliveryState")...).Comment("Where the delivery stands."),
		field.Time("next_attempt_at").Annotations(dateTime).Optional().Nillable().
			Comment("When the next attempt is due; null once the delivery ended."),
		field.String("redelivery_of").Optional().Nillable().Immutable().
			Comment("The delivery this one repeats, when an admin asked for a redelivery."),
		// claimed_by and claimed_until are a worker's lease (see
		// internal/webhook/deliver).
		field.String("claimed_by").Optional().Nillable().Annotations(internal()),
		field.Time("claimed_until").Optional().Nillable().Annotations(internal()),
		field.JSON("attempts", []webhook.Attempt{}).Default([]webhook.Attempt{}).SchemaType(jsonColumn).Annotations(internal()),
	}
}

// Edges of the WebhookDelivery.
func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("endpoint", WebhookEndpoint.Type).Ref("deliveries").Field("endpoint_id").Unique().Required().
			Immutable().Annotations(entgql.Skip()),
	}
}

// Indexes of the WebhookDelivery.
func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{index.Fields("endpoint_id", "created_at"), index.Fields("state", "next_attempt_at"),
		index.Fields("created_at")}
}

// Annotations of the WebhookDelivery.
func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("One event sent to one webhook endpoint, with the log of its attempts.")}
}
