//go:build !entc

package entgql

import "entgo.io/ent/schema"

// SkipMode stands for entgql.SkipMode; nothing reads it at run time.
type SkipMode uint

// The modes of Skip.
const (
	SkipEnumField SkipMode = 1 << iota
	SkipOrderField
	SkipWhereInput
	SkipAll
)

// Skip is entgql.Skip at generation, and no annotation at run time.
func Skip(...SkipMode) schema.Annotation { return nil }

// Type is entgql.Type at generation, and no annotation at run time.
func Type(string) schema.Annotation { return nil }
