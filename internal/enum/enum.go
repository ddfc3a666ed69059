// Package enum holds Bindery's enumerations: the values stored in the
// database, sent on the wire by /v1, and exposed as GraphQL enums.
//
// /v1 and storage use the official API's spelling ("share-link",
// "internalDocs", "space:content:read"). GraphQL enum values must be names, so
// GraphQL uses the upper snake case form of the same value ("SHARE_LINK",
// "INTERNAL_DOCS", "SPACE_CONTENT_READ"). The mapping is one function, GQLName,
// and parsing goes through the declared value list, so the two forms can never
// drift apart.
package enum

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/enum/internal/naming"
)

// GQLName returns the GraphQL spelling of a wire value: words split on
// punctuation and on lower-to-upper case changes, joined with underscores and
// upper-cased.
func GQLName(v string) string { return naming.GQLName(v) }

// Error is returned when a value is not one of an enumeration's values.
type Error struct {
	Type    string
	Value   string
	Allowed []string
}

func (e *Error) Error() string {
	return fmt.Sprintf("unknown value %q; expected one of: %s", e.Value, strings.Join(e.Allowed, ", "))
}

func names[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func contains[T ~string](values []T, v T) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}

// parse returns the value whose wire form is s.
func parse[T ~string](typ string, values []T, s string) (T, error) {
	if contains(values, T(s)) {
		return T(s), nil
	}
	return "", &Error{Type: typ, Value: s, Allowed: names(values)}
}

func marshalGQL[T ~string](w io.Writer, v T) {
	_, _ = io.WriteString(w, strconv.Quote(GQLName(string(v))))
}

func unmarshalGQL[T ~string](typ string, values []T, dst *T, in any) error {
	s, ok := in.(string)
	if !ok {
		return fmt.Errorf("%s must be an enum value", typ)
	}
	for _, v := range values {
		if GQLName(string(v)) == s {
			*dst = v
			return nil
		}
	}
	allowed := make([]string, len(values))
	for i, v := range values {
		allowed[i] = GQLName(string(v))
	}
	return &Error{Type: typ, Value: s, Allowed: allowed}
}

func unmarshalJSON[T ~string](typ string, values []T, dst *T, b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("must be a string; expected one of: %s", strings.Join(names(values), ", "))
	}
	v, err := parse(typ, values, s)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}
