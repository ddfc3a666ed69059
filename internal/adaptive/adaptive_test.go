package adaptive

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func doc(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

const plans = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "isBetaUser": {"type": "boolean", "description": "In the beta programme"},
    "plan": {"type": "string", "enum": ["free", "enterprise"], "description": "Their plan"},
    "seats": {"type": "number", "description": "Seats bought"},
    "regions": {"type": "array", "description": "Regions", "items": {"type": "string", "description": "A region"}},
    "unsigned": {"type": "object", "description": "Unsigned claims of the site visitor.",
      "properties": {"theme": {"type": "string", "description": "Preferred theme"}}, "additionalProperties": false}
  },
  "additionalProperties": false
}`

func TestCompile(t *testing.T) {
	s, err := Compile(doc(t, plans))
	require.NoError(t, err)
	require.NotNil(t, s)

	for name, bad := range map[string]string{
		"not an object schema":        `{"type": "string", "properties": {}, "additionalProperties": false}`,
		"no properties":               `{"type": "object", "additionalProperties": false}`,
		"a claim without description": `{"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": false}`,
		"an unknown claim type":       `{"type": "object", "properties": {"a": {"type": "date", "description": "x"}}, "additionalProperties": false}`,
		"open to other claims":        `{"type": "object", "properties": {}, "additionalProperties": true}`,
		"another draft":               `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {}, "additionalProperties": false}`,
	} {
		_, err := Compile(doc(t, bad))
		assert.Error(t, err, name)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "is not"), "%s: %v", name, err)
		}
	}
	_, err = Compile(doc(t, `{"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": false}`))
	assert.ErrorContains(t, err, `at "/properties/a"`, "the error names where")
}

func TestSigned(t *testing.T) {
	s, err := Compile(doc(t, plans))
	require.NoError(t, err)
	all := map[string]any{"isBetaUser": true, "plan": "enterprise", "seats": 12.0,
		"regions": []any{"eu"}, "exp": 1.9e9, "iat": 1.7e9, "sub": "u1"}
	assert.Equal(t, all, s.Signed(all), "registered claims are kept")
	assert.Empty(t, s.Signed(map[string]any{}), "no claim is required")
	assert.Equal(t, map[string]any{"unsigned": map[string]any{"theme": "dark"}},
		s.Signed(map[string]any{"unsigned": map[string]any{"theme": "dark"}}))
	assert.Equal(t, map[string]any{"seats": 3.0}, s.Signed(map[string]any{"plan": "gold", "seats": 3.0}),
		"a value off the enum is left out, and only it")
	assert.Empty(t, s.Signed(map[string]any{"isBetaUser": "yes"}), "a wrong type")
	assert.Empty(t, s.Signed(map[string]any{"other": 1}), "a claim the schema does not name")
	assert.Empty(t, s.Signed(map[string]any{"unsigned": map[string]any{"x": "y"}}))

}

// TestShapeIsTheSpecs holds shape.json to the official spec's schemas.
func TestShapeIsTheSpecs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "rest", "testdata", "gitbook-openapi-0.143.2.json"))
	require.NoError(t, err)
	var spec struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(b, &spec))
	var shape struct {
		Definitions map[string]any `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(shapeJSON, &shape))
	require.NotEmpty(t, shape.Definitions)
	for name, def := range shape.Definitions {
		want, err := json.Marshal(spec.Components.Schemas[name])
		require.NoError(t, err)
		got, err := json.Marshal(def)
		require.NoError(t, err)
		assert.Equal(t, strings.ReplaceAll(string(want), "#/components/schemas/", "#/definitions/"), string(got), name)
	}
}

func TestUnsigned(t *testing.T) {
	s, err := Compile(doc(t, plans))
	require.NoError(t, err)
	got := s.Unsigned(map[string]any{"theme": "dark", "plan": "enterprise", "unknown": "x"})
	assert.Equal(t, map[string]any{"theme": "dark"}, got, "only what the unsigned part describes")
	assert.Empty(t, s.Unsigned(map[string]any{"theme": 3}), "a claim of the wrong type is left out")
	assert.Nil(t, s.Unsigned(nil))

	none, err := Compile(doc(t, `{"type": "object", "properties": {"a": {"type": "boolean", "description": "A"}}, "additionalProperties": false}`))
	require.NoError(t, err)
	assert.Nil(t, none.Unsigned(map[string]any{"a": true}), "no unsigned part: no unsigned claims")
}
