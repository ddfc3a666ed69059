package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// writeGraphQLResponse writes what encoding/json writes, less the escaping
// of <, > and & in the data, which the executor wrote.
func TestWriteGraphQLResponse(t *testing.T) {
	yes := true
	for _, resp := range []*graphql.Response{
		{Data: json.RawMessage(`{"a":1}`)},
		{Data: json.RawMessage(`{"a":"x"}`), Errors: gqlerror.List{{Message: "bad"}}},
		{Errors: gqlerror.List{{Message: "no data"}}},
		{Data: json.RawMessage(`null`), Extensions: map[string]any{"cost": 3}},
		{Data: json.RawMessage(`{"b":2}`), HasNext: &yes, Label: "l"},
	} {
		want, err := json.Marshal(resp)
		assert.NoError(t, err)
		var got bytes.Buffer
		writeGraphQLResponse(&got, resp)
		assert.Equal(t, string(want), got.String())
	}
	var got bytes.Buffer
	writeGraphQLResponse(&got, &graphql.Response{Data: json.RawMessage(`{"t":"<b>&"}`)})
	assert.Equal(t, `{"data":{"t":"<b>&"}}`, got.String(), "the data as the executor wrote it")
}
