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
	"net/url"
	"slices"
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

// Schema is a site's adaptive schema, compiled (see Signed), with its
// unsigned part on its own (see Unsigned). The official form has no
// required claims, so each claim of a token is checked on its own against
// the whole schema.
type Schema struct{ claim, unsigned *jsonschema.Schema }

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
	claim, err := c.Compile("bindery:adaptive-schema.json")
	if err != nil {
		return nil, fmt.Errorf("is not a draft-07 JSON Schema: %s", describe(err))
	}
	u, err := compileUnsigned(v)
	if err != nil {
		return nil, fmt.Errorf("has an unsigned part that is not a JSON Schema: %v", err)
	}
	return &Schema{claim: claim, unsigned: u}, nil
}

// registered are the JWT's own claims (RFC 7519, section 4.1), which say
// nothing about the visitor: they are not checked against the schema.
var registered = []string{"iss", "sub", "aud", "exp", "nbf", "iat", "jti"}

// Signed keeps the claims of a visitor's token that the schema accepts,
// one claim at a time, as Unsigned does for unsigned ones: a claim it
// refuses (a wrong type, a value off its enum, a name it does not allow)
// is left out, never an error, so that one bad claim costs the visitor
// that claim and not their token. The JWT's registered claims are kept as
// they are.
func (s *Schema) Signed(claims map[string]any) map[string]any {
	if len(claims) == 0 {
		return claims
	}
	out := make(map[string]any, len(claims))
	for k, v := range claims {
		if slices.Contains(registered, k) {
			out[k] = v
			continue
		}
		one, err := normalize(map[string]any{k: v})
		if err == nil && s.claim.Validate(one) == nil {
			out[k] = v
		}
	}
	return out
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

// Unsigned keeps the unsigned claims a visitor brought (which anyone can
// set) that the schema's "unsigned" part accepts, one claim at a time:
// what it refuses, or does not describe, is left out, never an error. A
// schema without an unsigned part accepts none.
func (s *Schema) Unsigned(claims map[string]any) map[string]any {
	if s == nil || s.unsigned == nil || len(claims) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, v := range claims {
		one, err := normalize(map[string]any{k: v})
		if err != nil {
			continue
		}
		if s.unsigned.Validate(one) == nil {
			out[k] = v
		}
	}
	return out
}

// compileUnsigned compiles the schema of a claim of the unsigned part of
// doc (a normalized adaptive schema): its properties, each optional,
// nothing else; nil when doc has no unsigned part.
func compileUnsigned(doc any) (*jsonschema.Schema, error) {
	m, _ := doc.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	unsigned, _ := props["unsigned"].(map[string]any)
	if unsigned == nil {
		return nil, nil
	}
	part := map[string]any{"type": "object", "properties": unsigned["properties"], "additionalProperties": false}
	if defs, ok := m["definitions"]; ok {
		part["definitions"] = defs
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("bindery:adaptive-unsigned.json", part); err != nil {
		return nil, err
	}
	return c.Compile("bindery:adaptive-unsigned.json")
}

// ClaimParam prefixes the query parameters of an address that give
// unsigned claims, as GitBook takes them: ?visitor.plan=pro.
const ClaimParam = "visitor."

// QueryClaims reads the unsigned claims of an address's query: a
// parameter's value is JSON when it reads as JSON (true, 3, "x"), else the
// string. Which of them count is the schema's to say (Unsigned).
func QueryClaims(q url.Values) map[string]any {
	var claims map[string]any
	for k, vals := range q {
		name, ok := strings.CutPrefix(k, ClaimParam)
		if !ok || name == "" || len(vals) == 0 {
			continue
		}
		var v any
		if json.Unmarshal([]byte(vals[0]), &v) != nil {
			v = vals[0]
		}
		if claims == nil {
			claims = map[string]any{}
		}
		claims[name] = v
	}
	return claims
}
