package schema

import "entgo.io/ent/dialect/entsql"

// columnSize sizes a string's column without adding a rule: ent's MaxLen
// would also add a validator of its own, counting bytes and saying "value is
// greater than the required length", beside the field's validator from
// package validate, which counts characters and is the one rule.
func columnSize(n int64) *entsql.Annotation {
	return &entsql.Annotation{Size: n}
}
