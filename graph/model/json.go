package model

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON is the Go type of the JSON scalar: a JSON value whose shape the
// schema does not spell out, such as a page's document, which follows the
// official API's JSONDocument. It holds the value's encoding, which a
// response carries as it is: a JSON object stays an object, not a string.
// The empty JSON is null.
type JSON json.RawMessage

// NewJSON encodes v as a JSON scalar.
func NewJSON(v any) (JSON, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding a JSON scalar: %w", err)
	}
	return JSON(b), nil
}

// MarshalGQL writes the value.
func (j JSON) MarshalGQL(w io.Writer) {
	if len(j) == 0 {
		_, _ = io.WriteString(w, "null")
		return
	}
	_, _ = w.Write(j)
}

// UnmarshalGQL reads any input value.
func (j *JSON) UnmarshalGQL(v any) error {
	b, err := NewJSON(v)
	if err != nil {
		return err
	}
	*j = b
	return nil
}

// MarshalJSON writes the value, so that /v1 presents it as GraphQL does.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}
