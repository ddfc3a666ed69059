// Package schema is Bindery's data graph. Every resource of the API contract
// is an ent type here; GraphQL object types are generated from it by entgql
// (see ../entc.go), and field limits live in the field validators so that no
// transport can skip them.
package schema

import (
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"

	"github.com/bindery/bindery/internal/id"
)

// IDMixin gives a type its opaque string ID: a type prefix and a body that
// starts with when it was made and ends with random characters (see
// package id). The same string is used by /v1 and GraphQL.
type IDMixin struct {
	mixin.Schema
	Prefix string
	// Secret makes the ID a bearer secret (see id.NewSecret): whoever holds
	// it may act on the resource, as with an invite link.
	Secret bool
}

// Fields of the IDMixin.
func (m IDMixin) Fields() []ent.Field {
	prefix, newID := m.Prefix, id.New
	if m.Secret {
		newID = id.NewSecret
	}
	return []ent.Field{
		field.String("id").
			Immutable().
			NotEmpty().
			MaxLen(64).
			DefaultFunc(func() string { return newID(prefix) }).
			Comment("Its ID, unique across every type: a prefix that names the type, then characters that sort in the order it was made, then random ones."),
	}
}

// Now is the clock of stored timestamps: UTC, truncated to milliseconds, so a
// timestamp reads back identically from SQLite and PostgreSQL and prints the
// same in /v1 and GraphQL.
func Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// TimeMixin adds createdAt and updatedAt.
type TimeMixin struct{ mixin.Schema }

// Fields of the TimeMixin.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Annotations(dateTime).Immutable().Default(Now).Comment("When it was created."),
		field.Time("updated_at").Annotations(dateTime).Default(Now).UpdateDefault(Now).Comment("When it last changed."),
	}
}

// CreatedMixin adds createdAt only, for records that never change.
type CreatedMixin struct{ mixin.Schema }

// Fields of the CreatedMixin.
func (CreatedMixin) Fields() []ent.Field {
	return []ent.Field{field.Time("created_at").Annotations(dateTime).Immutable().Default(Now).Comment("When it was created.")}
}

// internal marks a field that never appears in GraphQL.
func internal() entgql.Annotation { return entgql.Skip(entgql.SkipAll) }

// gqlEnum names the hand-written GraphQL enum of an enum field. The enum's
// values are the upper snake case of the wire values (see package enum), so
// entgql must not generate its own.
func gqlEnum(name string) []schema.Annotation {
	return []schema.Annotation{entgql.Type(name), entgql.Skip(entgql.SkipEnumField | entgql.SkipOrderField | entgql.SkipWhereInput)}
}

// hidden marks a type that is not exposed in GraphQL yet. Its issue adds the
// GraphQL surface together with the resolvers and authorization.
func hidden() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// dateTime maps a time field to the DateTime scalar, which prints exactly as
// /v1 does (see graph/model.DateTime).
var dateTime = entgql.Type("DateTime")

// jsonColumn stores a JSON field as json, not jsonb, on PostgreSQL. Bindery
// connects with binary_parameters=yes (see store.Open), and lib/pq then
// sends the field's encoded []byte in binary format, which json reads as the
// text it is and jsonb refuses (it expects a version byte first). No query
// looks inside these values, so jsonb's indexing would buy nothing.
var jsonColumn = map[string]string{dialect.Postgres: "json"}
