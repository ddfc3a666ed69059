package openapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/openapi"
	"github.com/bindery/bindery/internal/openapi/openapitest"
)

func TestParse(t *testing.T) {
	for name, tc := range map[string]struct {
		doc     string
		version string
		ops     []openapi.Operation
	}{
		"OpenAPI 3.0 in JSON": {openapitest.V30, "3.0.3", []openapi.Operation{
			{Method: "GET", Path: "/pets", OperationID: "listPets", Summary: "List the pets", Tags: []string{"pets"}},
			{Method: "POST", Path: "/pets", OperationID: "createPet", Tags: []string{"pets", "admin"}},
			{Method: "GET", Path: "/pets/{petId}", OperationID: "getPet", Tags: []string{}},
		}},
		"OpenAPI 3.1 in YAML": {openapitest.V31, "3.1.0", []openapi.Operation{
			{Method: "GET", Path: "/books", OperationID: "listBooks", Summary: "Books", Tags: []string{"books"}},
		}},
		"Swagger 2.0": {openapitest.V20, "2.0", []openapi.Operation{
			{Method: "DELETE", Path: "/users/{id}", OperationID: "deleteUser", Tags: []string{"users"}},
			{Method: "GET", Path: "/users/{id}", OperationID: "getUser", Summary: "One user", Tags: []string{"users"}},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := openapi.Parse(context.Background(), []byte(tc.doc))
			require.NoError(t, err)
			assert.Equal(t, tc.version, doc.Version)
			assert.Equal(t, tc.ops, doc.Operations)
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for name, doc := range map[string]string{
		"not JSON or YAML":      openapitest.Unparsable,
		"empty":                 "  \n",
		"no version":            `{"info": {"title": "x", "version": "1"}, "paths": {}}`,
		"OpenAPI 4":             `{"openapi": "4.0.0", "info": {"title": "x", "version": "1"}, "paths": {}}`,
		"invalid 3.0":           `{"openapi": "3.0.3", "paths": {}}`,
		"a reference elsewhere": `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"$ref": "http://127.0.0.1:1/x.json"}}}`,
		"an array":              `[1, 2]`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := openapi.Parse(context.Background(), []byte(doc))
			var pe *openapi.ParseError
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.NotEmpty(t, pe.Errors)
			assert.NotEmpty(t, pe.Errors[0].Message)
		})
	}
}
