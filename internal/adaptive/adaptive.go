// Package adaptive holds the rules of adaptive content: a site's adaptive
// schema (the JSON Schema of its visitors' claims) and the check of a
// visitor's claims against it. JSON Schema is github.com/santhosh-tekuri/
// jsonschema's, not Bindery's own.
package adaptive

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// shapeJSON is the official SiteAdaptiveJSONSchema, the form every adaptive
// schema takes: a draft-07 object schema whose properties are named claims,
// each a boolean, a string (with or without an enum), a number, an array of
// those, or an object of further claims, each with a description.
//
//go:embed shape.json
var shapeJSON []byte

// shape is shapeJSON compiled.
var shape = func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(shapeJSON))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("bindery:adaptive-shape.json", doc); err != nil {
		panic(err)
	}
	return c.MustCompile("bindery:adaptive-shape.json")
}()

// printer words validation errors.
var printer = message.NewPrinter(language.English)

// Schema is a site's adaptive schema, compiled.
type Schema struct{ compiled *jsonschema.Schema }

// Compile checks that doc is an adaptive schema and compiles it: it must
// take the official form (see shapeJSON) and be a draft-07 JSON Schema. The
// error says what is wrong and where.
func Compile(doc map[string]any) (*Schema, error) {
	v, err := normalize(doc)
	if err != nil {
		return nil, err
	}
	if err := shape.Validate(v); err != nil {
		return nil, fmt.Errorf("is not an adaptive schema: %s", describe(err))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("bindery:adaptive-schema.json", v); err != nil {
		return nil, fmt.Errorf("is not a JSON Schema: %v", err)
	}
	s, err := c.Compile("bindery:adaptive-schema.json")
	if err != nil {
		return nil, fmt.Errorf("is not a draft-07 JSON Schema: %s", describe(err))
	}
	return &Schema{compiled: s}, nil
}

// registered are the JWT's own claims (RFC 7519, section 4.1), which say
// nothing about the visitor: they are not checked against the schema.
var registered = []string{"iss", "sub", "aud", "exp", "nbf", "iat", "jti"}

// Check checks a visitor's claims against the schema, leaving out the
// JWT's registered claims.
func (s *Schema) Check(claims map[string]any) error {
	visitor := make(map[string]any, len(claims))
	for k, v := range claims {
		visitor[k] = v
	}
	for _, k := range registered {
		delete(visitor, k)
	}
	v, err := normalize(visitor)
	if err != nil {
		return err
	}
	if err := s.compiled.Validate(v); err != nil {
		return fmt.Errorf("do not match the site's adaptive schema: %s", describe(err))
	}
	return nil
}

// normalize turns a decoded JSON value into the form the validator takes
// (numbers as json.Number), through its JSON text.
func normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("is not JSON: %v", err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// describe words a validation or compilation error in one line: its first
// innermost cause and where it is.
func describe(err error) string {
	var se *jsonschema.SchemaValidationError
	if errors.As(err, &se) && se.Err != nil {
		err = se.Err
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return fmt.Sprintf("at %q: %s", "/"+strings.Join(ve.InstanceLocation, "/"), ve.ErrorKind.LocalizedString(printer))
}
