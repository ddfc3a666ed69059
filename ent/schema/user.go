package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/bindery/bindery/ent/schema/internal/entgql"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/validate"
)

// User is a person who signs in to Bindery. Users belong to organizations
// through Member.
type User struct{ ent.Schema }

// Mixin of the User.
func (User) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.User}, TimeMixin{}}
}

// Fields of the User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		// Emails are stored lower-cased; the resolver normalizes them.
		// GraphQL resolves email through the rule of who may see it
		// (graph.Resolver.userEmail), so it is no plain field there.
		field.String("email").Unique().Validate(validate.Email).Annotations(entgql.Skip()),
		field.String("display_name").Validate(validate.DisplayName).
			Comment("The user's name as others see it, 1 to 255 characters."),
		field.String("photo_url").Optional().Nillable().Validate(validate.LogoURL).
			Comment("The URL of the user's photo; null when they have none."),
	}
}

// Edges of the User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("memberships", Member.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("tokens", APIToken.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("identities", UserIdentity.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("team_memberships", TeamMember.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("grants", ContentGrant.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		// The inverse makes contributors many-to-many: a user contributes to
		// many change requests.
		edge.From("contributed_change_requests", ChangeRequest.Type).Ref("contributors").Annotations(entgql.Skip()),
		// So are mentions: a user is mentioned in many comments and replies.
		edge.From("mentioned_in_comments", Comment.Type).Ref("mentions").Annotations(entgql.Skip()),
		edge.From("mentioned_in_replies", CommentReply.Type).Ref("mentions").Annotations(entgql.Skip()),
	}
}

// Annotations of the User.
func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A person who uses Bindery. Anyone who sees an object naming a user sees their ID, display name and photo.")}
}

// APIToken is a personal access token. Only its SHA-256 hash is stored; the
// token itself is shown once, when it is created.
type APIToken struct{ ent.Schema }

// Mixin of the APIToken.
func (APIToken) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.APIToken}, CreatedMixin{}}
}

// Fields of the APIToken.
func (APIToken) Fields() []ent.Field {
	return []ent.Field{
		field.String("label").Validate(validate.APITokenLabel).
			Comment("The token's label, 1 to 50 characters, to tell the viewer's tokens apart."),
		field.String("token_hash").Unique().Immutable().Sensitive().Annotations(internal()),
		field.String("user_id").Immutable().Annotations(internal()),
		field.Time("last_used_at").Annotations(dateTime).Optional().Nillable().
			Comment("When the token last authenticated a request, recorded at most once a minute; null when never."),
		field.Time("expires_at").Annotations(dateTime).Optional().Nillable().Immutable().
			Comment("When the token stops working; null when never."),
		// A session is a token that a sign-in made, kept in a browser's
		// cookie: it authenticates only from the cookie, as a token only
		// from the Authorization header (see auth.SessionPrefix).
		field.Enum("kind").GoType(enum.CredentialKind("")).Default(string(enum.CredentialKindToken)).Immutable().
			Annotations(internal()),
		// How a session's sign-in was made (email, oidc, saml) and the
		// browser that made it, for the person's list of sessions.
		field.String("method").Optional().Immutable().Annotations(internal()),
		field.String("user_agent").Optional().Immutable().MaxLen(512).Annotations(internal()),
	}
}

// Edges of the APIToken.
func (APIToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("tokens").Field("user_id").Unique().Required().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Annotations of the APIToken.
func (APIToken) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A personal access token of the viewer, which authenticates API requests as them. Only its hash is stored: the token is shown once, when it is created.")}
}
