// Package openapi parses and validates OpenAPI documents with kin-openapi:
// OpenAPI 3.0 and 3.1, and Swagger 2.0 converted to OpenAPI 3 by
// kin-openapi's converter (openapi2conv). It reads a document's operations
// for listing. It never follows an external reference: a document is read
// alone, so parsing cannot fetch anything.
package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"
)

// Error is a problem found in a document, as the official API's
// OpenAPIErrorObject states it.
type Error struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// Operation is one operation of a document.
type Operation struct {
	Method      string   `json:"method"`
	Path        string   `json:"path"`
	OperationID string   `json:"operationId,omitempty"`
	Summary     string   `json:"summary,omitempty"`
	Tags        []string `json:"tags"`
}

// Document is a parsed, valid document.
type Document struct {
	// Version is the document's openapi (or swagger) version as written.
	Version    string
	Operations []Operation
}

// ParseError is a document that does not parse or validate, with what was
// found wrong.
type ParseError struct{ Errors []Error }

func (e *ParseError) Error() string {
	msgs := make([]string, len(e.Errors))
	for i, x := range e.Errors {
		msgs[i] = x.Message
	}
	return "the document is not a valid OpenAPI document: " + strings.Join(msgs, "; ")
}

// maxErrors bounds the errors a ParseError keeps.
const maxErrors = 20

func parseError(code string, err error) *ParseError {
	var out []Error
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		for _, e := range multi {
			out = append(out, Error{Message: e.Error(), Code: code})
		}
	} else {
		out = []Error{{Message: err.Error(), Code: code}}
	}
	if len(out) > maxErrors {
		out = out[:maxErrors]
	}
	return &ParseError{Errors: out}
}

// Parse reads a JSON or YAML document, converts Swagger 2.0 to OpenAPI 3,
// validates it and lists its operations. A document that is not one is a
// *ParseError.
func Parse(ctx context.Context, data []byte) (*Document, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ParseError{Errors: []Error{{Message: "the document is empty", Code: "empty"}}}
	}
	raw, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, parseError("syntax", fmt.Errorf("neither JSON nor YAML: %w", err))
	}
	var head struct {
		OpenAPI *string `json:"openapi"`
		Swagger *string `json:"swagger"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, parseError("syntax", errors.New("the document is not an object"))
	}
	var doc *openapi3.T
	var version string
	switch {
	case head.OpenAPI != nil:
		version = *head.OpenAPI
		if !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1") {
			return nil, parseError("version", fmt.Errorf("openapi %q is not 3.0 or 3.1", version))
		}
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = false
		loader.Context = ctx
		if doc, err = loader.LoadFromData(raw); err != nil {
			return nil, parseError("syntax", err)
		}
	case head.Swagger != nil:
		version = *head.Swagger
		if version != "2.0" {
			return nil, parseError("version", fmt.Errorf("swagger %q is not 2.0", version))
		}
		var v2 openapi2.T
		if err := json.Unmarshal(raw, &v2); err != nil {
			return nil, parseError("syntax", err)
		}
		if doc, err = openapi2conv.ToV3(&v2); err != nil {
			return nil, parseError("conversion", err)
		}
	default:
		return nil, parseError("version", errors.New("the document states neither openapi nor swagger"))
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, parseError("invalid", err)
	}
	return &Document{Version: version, Operations: operations(doc)}, nil
}

// operations lists a document's operations by path, then method.
func operations(doc *openapi3.T) []Operation {
	out := []Operation{}
	if doc.Paths == nil {
		return out
	}
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		item := doc.Paths.Value(p)
		ops := item.Operations()
		methods := make([]string, 0, len(ops))
		for m := range ops {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		for _, m := range methods {
			op := ops[m]
			tags := op.Tags
			if tags == nil {
				tags = []string{}
			}
			out = append(out, Operation{Method: strings.ToUpper(m), Path: p, OperationID: op.OperationID, Summary: op.Summary, Tags: tags})
		}
	}
	return out
}
