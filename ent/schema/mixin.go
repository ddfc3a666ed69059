// Package schema is Bindery's data graph. Every resource of the API contract
// is an ent type here; GraphQL object types are generated from it by entgql
// (see ../entc.go), and field limits live in the field validators so that no
// transport can skip them.
//
// The server links this package (for its defaults, validators and hooks), so
// it takes entgql's annotations from internal/entgql, which has them only
// when entc loads the schema: entgql itself would link the code generators.
package schema

import (
	"context"
	"reflect"
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"

	"github.com/bindery/bindery/ent/schema/internal/entgql"
	"github.com/bindery/bindery/internal/clock"
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

// TimeMixin adds createdAt and updatedAt.
type TimeMixin struct{ mixin.Schema }

// Fields of the TimeMixin.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Annotations(dateTime).Immutable().Default(clock.Now).Comment("When it was created."),
		field.Time("updated_at").Annotations(dateTime).Default(clock.Now).UpdateDefault(clock.Now).Comment("When it last changed."),
	}
}

// Hooks of the TimeMixin.
func (TimeMixin) Hooks() []ent.Hook { return []ent.Hook{keepUpdatedAt} }

// keepUpdatedAt leaves updated_at as it was when an update of one row
// changes nothing: a PATCH that sets every member to the value it has is
// no change, and says so by not moving updatedAt. Bulk updates (OpUpdate)
// are left alone. The comparison needs the row as it was, which ent has
// without a statement when the update was made from the loaded entity
// (UpdateOne(x)); the cheap answers (a number added, an edge changed, no
// field set) come first. Nothing in Bindery sets updated_at alone to touch
// a row, so an update that sets nothing else is no change either.
func keepUpdatedAt(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if m.Op().Is(ent.OpUpdateOne) && unchanged(ctx, m) {
			m.ResetField(updatedAt)
		}
		return next.Mutate(ctx, m)
	})
}

const updatedAt = "updated_at"

// unchanged reports whether an update of one row sets only what the row
// holds already.
func unchanged(ctx context.Context, m ent.Mutation) bool {
	if len(m.AddedFields()) > 0 || len(m.AddedEdges()) > 0 || len(m.RemovedEdges()) > 0 || len(m.ClearedEdges()) > 0 {
		return false
	}
	for _, f := range m.ClearedFields() {
		old, err := m.OldField(ctx, f)
		if err != nil || !isNil(old) {
			return false
		}
	}
	for _, f := range m.Fields() {
		if f == updatedAt {
			continue
		}
		v, _ := m.Field(f)
		old, err := m.OldField(ctx, f)
		if err != nil || !sameValue(old, v) {
			return false
		}
	}
	return true
}

// sameValue compares a field's old value (a pointer for a nillable field)
// with the value an update sets.
func sameValue(old, v ent.Value) bool {
	o := reflect.ValueOf(old)
	if o.Kind() == reflect.Pointer && reflect.TypeOf(v) != o.Type() {
		if o.IsNil() {
			return false
		}
		old = o.Elem().Interface()
	}
	if t, ok := old.(time.Time); ok {
		u, ok := v.(time.Time)
		return ok && t.Equal(u)
	}
	return reflect.DeepEqual(old, v)
}

func isNil(v ent.Value) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return r.IsNil()
	}
	return false
}

// CreatedMixin adds createdAt only, for records that never change.
type CreatedMixin struct{ mixin.Schema }

// Fields of the CreatedMixin.
func (CreatedMixin) Fields() []ent.Field {
	return []ent.Field{field.Time("created_at").Annotations(dateTime).Immutable().Default(clock.Now).Comment("When it was created.")}
}

// internal marks a field that never appears in GraphQL.
func internal() schema.Annotation { return entgql.Skip(entgql.SkipAll) }

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
