// Package sqlplan tells the store how to plan a statement: a leaf package,
// so that the packages below the store (search) can say it too.
package sqlplan

import "context"

type eachRunKey struct{}

// EachRun marks the statements run with ctx as planned anew at every run,
// for the values of their arguments, instead of prepared once and kept (see
// store's statement cache): for a statement whose best plan depends on
// those values, such as a search, whose words may be on a few pages or on
// nearly all of them. PostgreSQL plans a prepared statement without its
// values (a generic plan) from its sixth run when that plan looks no
// dearer; for an organization search of a word on every page that plan
// took 1.3 s, against 25 ms planned for the word. The arguments are still
// bound, never written into the SQL.
func EachRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, eachRunKey{}, true)
}

// IsEachRun reports whether ctx marks its statements so.
func IsEachRun(ctx context.Context) bool {
	each, _ := ctx.Value(eachRunKey{}).(bool)
	return each
}
