// Command openapigen writes rest/openapi.json, Bindery's own OpenAPI
// document of /v1, which the server serves at GET /v1/openapi.json.
//
// It is derived from the route table: one operation per row, each taken
// from the official GitBook spec the row names (rest/testdata; the route
// table's test checks that every row is in it) with its parameters, body
// and response schemas, and the components they reference. Where Bindery
// differs, the row wins: its success status is the one documented (a
// DELETE answers 204, as the API contract says; a PUT that creates answers
// 201), the contract's shapes replace the spec's where they differ
// (x-bindery-contract-differs), security is the bearer
// token Bindery takes, and every operation lists the error envelope as its
// default response. Rows outside the contract's scope
// (rest/testdata/operations.tsv) are marked x-bindery-beyond-contract.
// Rows of Bindery's own operations, which the official spec does not have
// (rest.Extensions), take their operation object from there and are marked
// x-bindery-extension.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/bindery/bindery/rest"
)

const (
	specFile  = "rest/testdata/gitbook-openapi-0.143.2.json"
	scopeFile = "rest/testdata/operations.tsv"
	outFile   = "rest/openapi.json"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}

type object = map[string]any

func run() error {
	raw, err := os.ReadFile(specFile)
	if err != nil {
		return err
	}
	var spec object
	if err := json.Unmarshal(raw, &spec); err != nil {
		return err
	}
	scope, err := readScope()
	if err != nil {
		return err
	}
	paths := object{}
	for _, op := range rest.Operations() {
		path := strings.TrimPrefix(op.Path, "/v1")
		official, ok := lookup(spec, "paths", path, strings.ToLower(op.Method)).(object)
		if op.Extension {
			// Bindery's own operation: its operation object stands in for
			// the official one.
			ext, err := extension(op)
			if err != nil {
				return err
			}
			official, ok = ext, true
		}
		if !ok {
			return fmt.Errorf("%s %s is not in the official spec", op.Method, op.Path)
		}
		item, _ := paths[path].(object)
		if item == nil {
			item = object{}
			paths[path] = item
		}
		o := operation(official, op, !scope[op.Method+" "+op.Path])
		if err := markNullable(spec, o, op); err != nil {
			return fmt.Errorf("%s: %w", op.OperationID, err)
		}
		item[strings.ToLower(op.Method)] = o
	}
	doc := object{
		"openapi": spec["openapi"],
		"info": object{
			"title":   "Bindery /v1",
			"version": "0.143.2",
			"description": "Bindery's REST API, wire-compatible with the GitBook API 0.143.2. " +
				"Generated from Bindery's route table (bindery routes): every operation Bindery serves, " +
				"with the official definitions of its parameters, bodies and responses and Bindery's own success status. " +
				"Errors use the envelope {\"error\":{\"code\":<status>,\"message\":\"...\"}}.",
		},
		"servers":  []any{object{"url": "/v1"}},
		"security": []any{object{"user": []any{}}},
		"paths":    paths,
	}
	// The components the operations reference, and those they reference.
	components := object{"securitySchemes": object{"user": lookup(spec, "components", "securitySchemes", "user")}}
	pending := refs(paths)
	pending = append(pending, "#/components/responses/UnexpectedError")
	seen := map[string]bool{}
	for len(pending) > 0 {
		ref := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if seen[ref] {
			continue
		}
		seen[ref] = true
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		if len(parts) != 3 || parts[0] != "components" {
			return fmt.Errorf("unexpected reference %s", ref)
		}
		def := lookup(spec, parts...)
		if def == nil {
			return fmt.Errorf("%s is not in the official spec", ref)
		}
		kind, _ := components[parts[1]].(object)
		if kind == nil {
			kind = object{}
			components[parts[1]] = kind
		}
		kind[parts[2]] = def
		pending = append(pending, refs(def)...)
	}
	if err := extendSchemas(components); err != nil {
		return err
	}
	doc["components"] = components
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return os.WriteFile(outFile, out.Bytes(), 0o644)
}

// markNullable marks nullable the members of an operation's body that
// Bindery takes null for (rest.Operation.Nullable: null removes the value),
// where the official schema does not. The body's schema is copied into the
// operation first, so that no other operation sharing it changes.
func markNullable(spec, op object, row rest.Operation) error {
	if len(row.Nullable) == 0 {
		return nil
	}
	body, _ := lookup(op, "requestBody", "content", "application/json").(object)
	if body == nil {
		return fmt.Errorf("takes null for %v but has no JSON body", row.Nullable)
	}
	schema, err := inline(spec, body["schema"])
	if err != nil {
		return err
	}
	for _, name := range row.Nullable {
		found := false
		for _, props := range propertySets(spec, schema) {
			p, ok := props[name].(object)
			if !ok {
				continue
			}
			found = true
			if !nullable(spec, p) {
				props[name] = object{"oneOf": []any{p, object{"enum": []any{nil}, "nullable": true, "type": "string"}},
					"description": "null removes the value"}
			}
		}
		if !found {
			return fmt.Errorf("takes null for %s, which its body does not have", name)
		}
	}
	requestBody := object{}
	for k, v := range op["requestBody"].(object) {
		requestBody[k] = v
	}
	requestBody["content"] = object{"application/json": object{"schema": schema}}
	op["requestBody"] = requestBody
	return nil
}

// inline returns a copy of a schema, with its own reference resolved.
func inline(spec object, s any) (object, error) {
	if o, ok := s.(object); ok {
		if ref, ok := o["$ref"].(string); ok {
			s = lookup(spec, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...)
		}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var out object
	return out, json.Unmarshal(raw, &out)
}

// propertySets returns the properties objects of a schema and of its
// allOf, anyOf and oneOf branches, to be changed in place.
func propertySets(spec, s object) []object {
	var out []object
	if props, ok := s["properties"].(object); ok {
		out = append(out, props)
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		branches, _ := s[k].([]any)
		for i, b := range branches {
			bo, ok := b.(object)
			if !ok {
				continue
			}
			if _, isRef := bo["$ref"]; isRef {
				// A referenced branch is shared: copy it in.
				c, err := inline(spec, bo)
				if err != nil {
					continue
				}
				branches[i], bo = c, c
			}
			out = append(out, propertySets(spec, bo)...)
		}
	}
	return out
}

// nullable reports whether a schema admits null: nullable itself, through
// its reference, or in one of its alternatives.
func nullable(spec, s object) bool {
	if s["nullable"] == true {
		return true
	}
	if ref, ok := s["$ref"].(string); ok {
		if r, ok := lookup(spec, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...).(object); ok && nullable(spec, r) {
			return true
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		branches, _ := s[k].([]any)
		for _, b := range branches {
			if bo, ok := b.(object); ok && nullable(spec, bo) {
				return true
			}
		}
	}
	return false
}

// extendSchemas adds Bindery's alternatives to official schemas
// (rest.SchemaExtensions), each marked x-bindery-extension.
func extendSchemas(components object) error {
	schemas, _ := components["schemas"].(object)
	for name, added := range rest.SchemaExtensions {
		official, ok := schemas[name].(object)
		if !ok {
			return fmt.Errorf("the extended schema %s is not referenced", name)
		}
		oneOf, _ := official["oneOf"].([]any)
		if oneOf == nil {
			return fmt.Errorf("the extended schema %s has no oneOf", name)
		}
		extended := object{}
		for k, v := range official {
			extended[k] = v
		}
		oneOf = append([]any{}, oneOf...)
		names := make([]string, 0, len(added))
		for n := range added {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			var schema object
			if err := json.Unmarshal([]byte(added[n]), &schema); err != nil {
				return fmt.Errorf("the schema extension %s: %w", n, err)
			}
			schema["x-bindery-extension"] = true
			schemas[n] = schema
			oneOf = append(oneOf, object{"$ref": "#/components/schemas/" + n})
		}
		extended["oneOf"] = oneOf
		schemas[name] = extended
	}
	return nil
}

// operation is the official operation as Bindery serves it.
func operation(official object, op rest.Operation, beyond bool) object {
	out := object{}
	for k, v := range official {
		out[k] = v
	}
	out["security"] = []any{object{"user": []any{}}}
	responses := object{}
	officialResponses, _ := official["responses"].(object)
	for code, r := range officialResponses {
		n, err := strconv.Atoi(code)
		if err == nil && n < 300 {
			continue // the row's status replaces the official successes
		}
		responses[code] = r
	}
	status := strconv.Itoa(op.Status)
	success, ok := officialResponses[status].(object)
	if !ok || op.Status == http.StatusNoContent {
		success = object{"description": http.StatusText(op.Status)}
	}
	// A PUT that the official API documents as creating (201) or updating
	// (200) is an upsert in Bindery too: the row's status is its update's.
	if _, creates := officialResponses["201"]; creates && op.Method == http.MethodPut && op.Status == http.StatusOK {
		responses["201"] = officialResponses["201"]
	}
	// Where the API contract differs from the official spec, the contract
	// wins (rest.ContractResponses and ContractRequests).
	if schema, ok := contract(rest.ContractResponses, op.OperationID); ok {
		success = object{"description": http.StatusText(op.Status), "content": object{"application/json": object{"schema": schema}}}
		out["x-bindery-contract-differs"] = true
	}
	if schema, ok := contract(rest.ContractRequests, op.OperationID); ok {
		out["requestBody"] = object{"required": true, "content": object{"application/json": object{"schema": schema}}}
	}
	responses[status] = success
	responses["default"] = object{"$ref": "#/components/responses/UnexpectedError"}
	out["responses"] = responses
	if beyond {
		out["x-bindery-beyond-contract"] = true
	}
	if op.Extension {
		out["x-bindery-extension"] = true
	}
	return out
}

// extension is the operation object of one of Bindery's own operations
// (rest.Extensions), with its operationId.
func extension(op rest.Operation) (object, error) {
	var ext object
	if err := json.Unmarshal([]byte(rest.Extensions[op.OperationID]), &ext); err != nil {
		return nil, fmt.Errorf("the extension %s: %w", op.OperationID, err)
	}
	ext["operationId"] = op.OperationID
	return ext, nil
}

// contract returns the contract's schema of an operation, if it has one.
func contract(shapes map[string]string, operationID string) (any, bool) {
	raw, ok := shapes[operationID]
	if !ok {
		return nil, false
	}
	var schema any
	if err := json.Unmarshal([]byte(raw), &schema); err != nil {
		panic(fmt.Sprintf("openapigen: the contract's schema of %s: %v", operationID, err))
	}
	return schema, true
}

// lookup walks v along keys.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		o, ok := v.(object)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// refs lists the $ref values under v.
func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case object:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out = append(out, s)
			} else {
				out = append(out, refs(x)...)
			}
		}
	case []any:
		for _, x := range v {
			out = append(out, refs(x)...)
		}
	}
	return out
}

// readScope reads the contract's operations: "METHOD /v1/path" lines.
func readScope() (map[string]bool, error) {
	f, err := os.Open(scopeFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	scope := map[string]bool{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		cols := strings.Split(s.Text(), "\t")
		if len(cols) == 3 {
			scope[cols[1]+" "+cols[2]] = true
		}
	}
	return scope, s.Err()
}
