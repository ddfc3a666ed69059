//go:build entc

package entgql

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent/schema"
)

// SkipMode is entgql.SkipMode.
type SkipMode = entgql.SkipMode

// The modes of Skip.
const (
	SkipAll        = entgql.SkipAll
	SkipEnumField  = entgql.SkipEnumField
	SkipOrderField = entgql.SkipOrderField
	SkipWhereInput = entgql.SkipWhereInput
)

// Skip is entgql.Skip.
func Skip(modes ...SkipMode) schema.Annotation { return entgql.Skip(modes...) }

// Type is entgql.Type.
func Type(name string) schema.Annotation { return entgql.Type(name) }
