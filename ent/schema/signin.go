package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// SignInFlow is a sign-in under way: an email link sent, or a browser sent
// to an OpenID Connect or SAML provider. It is kept on the server, under the
// hash of the secret only its browser (or the link) holds, so that any
// replica can finish it, and it is deleted as it is used: a link or a
// provider's answer signs in once.
type SignInFlow struct{ ent.Schema }

// Mixin of the SignInFlow.
func (SignInFlow) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SignInFlow}, CreatedMixin{}}
}

// Fields of the SignInFlow.
func (SignInFlow) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("kind").GoType(enum.SignInKind("")).Immutable(),
		field.String("secret_hash").Unique().Immutable().Sensitive(),
		// The address an email link was sent to.
		field.String("email").Optional().Immutable(),
		// The OpenID Connect provider's issuer, or the SAML provider's ID.
		field.String("provider").Optional().Immutable(),
		// OpenID Connect's nonce and PKCE verifier, or the ID of the SAML
		// request the response must answer.
		field.String("nonce").Optional().Immutable().Sensitive(),
		field.String("verifier").Optional().Immutable().Sensitive(),
		// Where the person goes once signed in: a path of this server.
		field.String("return_to").Optional().Immutable(),
		field.Time("expires_at").Immutable(),
	}
}

// Indexes of the SignInFlow.
func (SignInFlow) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expires_at")}
}

// Annotations of the SignInFlow.
func (SignInFlow) Annotations() []schema.Annotation { return hidden() }

// UserIdentity links a user to their account at an OpenID Connect
// provider: once linked, the provider's (issuer, subject) signs the user in
// whatever email the provider states later.
type UserIdentity struct{ ent.Schema }

// Mixin of the UserIdentity.
func (UserIdentity) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.UserIdentity}, CreatedMixin{}}
}

// Fields of the UserIdentity.
func (UserIdentity) Fields() []ent.Field {
	return []ent.Field{
		field.String("user_id").Immutable(),
		field.String("issuer").Immutable(),
		field.String("subject").Immutable(),
	}
}

// Edges of the UserIdentity.
func (UserIdentity) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("identities").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the UserIdentity.
func (UserIdentity) Indexes() []ent.Index {
	return []ent.Index{index.Fields("issuer", "subject").Unique(), index.Fields("user_id")}
}

// Annotations of the UserIdentity.
func (UserIdentity) Annotations() []schema.Annotation { return hidden() }

// SignInReplay records a single-use proof that was accepted, such as a SAML
// assertion's ID, until it would have expired anyway: the same proof
// presented again, to any replica, is refused.
type SignInReplay struct{ ent.Schema }

// Mixin of the SignInReplay.
func (SignInReplay) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.SignInReplay}, CreatedMixin{}}
}

// Fields of the SignInReplay.
func (SignInReplay) Fields() []ent.Field {
	return []ent.Field{
		// What was used, namespaced by who issued it ("saml:<provider>:<assertion ID>").
		field.String("key").Unique().Immutable().MaxLen(512),
		field.Time("expires_at").Immutable(),
	}
}

// Indexes of the SignInReplay.
func (SignInReplay) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expires_at")}
}

// Annotations of the SignInReplay.
func (SignInReplay) Annotations() []schema.Annotation { return hidden() }
