// Package model holds the Go types of GraphQL types that are not ent types:
// scalars, connections, URLs and permissions objects, inputs and payloads.
package model

import (
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

// TimeFormat is how every timestamp is written in both APIs: UTC with
// millisecond precision, as the official API does.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// FormatTime formats a timestamp for either API.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// MarshalDateTime writes a DateTime.
func MarshalDateTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(FormatTime(t)))
	})
}

// UnmarshalDateTime reads a DateTime: any RFC 3339 timestamp.
func UnmarshalDateTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, apperr.Invalid("", "a DateTime must be a string")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, apperr.Invalid("", "%q is not an RFC 3339 timestamp", s)
	}
	return t.UTC(), nil
}

// PageInfo is the pageInfo of every connection.
type PageInfo = page.Info
