// Package naming holds the one mapping from a wire value to its GraphQL enum
// name, shared by package enum and its generator.
package naming

import (
	"strings"
	"unicode"
)

// GQLName returns the GraphQL spelling of a wire value: words split on
// punctuation and on lower-to-upper case changes, joined with underscores and
// upper-cased.
func GQLName(v string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range v {
		switch {
		case r == '-' || r == ':' || r == '_' || r == '.' || r == ' ':
			b.WriteByte('_')
			prevLower = false
		case unicode.IsUpper(r):
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			prevLower = false
		default:
			b.WriteRune(unicode.ToUpper(r))
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		}
	}
	return b.String()
}
