// Package integration checks what an integration's publisher sends (images,
// blocks, content sources, configuration schemas, secrets) and an
// installation's configuration against the integration's schema. It knows
// nothing of HTTP or the database; its errors are invalid-argument errors
// naming the member at fault.
package integration

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/bindery/bindery/internal/apperr"
)

// Limits of what a publish carries, beyond the field limits of package validate.
const (
	// MaxIconBytes is the largest icon, decoded.
	MaxIconBytes = 64 << 10
	// MaxPreviewImageBytes is the largest preview image, decoded: three of
	// them, in base64, fit the 1 MiB body of /v1.
	MaxPreviewImageBytes = 192 << 10
	// MaxLinkURL is the longest external link (the official URL).
	MaxLinkURL = 2048
	// MaxScriptBytes is the largest script: a bundled integration is far
	// smaller, and it leaves room in the 1 MiB body of /v1 for the rest.
	MaxScriptBytes = 512 << 10
	// MaxContentSecurityPolicyBytes is the largest content security
	// policy, compacted: a policy is a header, which proxies cap near 8 KiB.
	MaxContentSecurityPolicyBytes = 8 << 10
)

// imageTypes are the image formats an icon or a preview image may have, as
// http.DetectContentType names them.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// CheckImage checks a base64 image of at most max bytes, and returns it
// with its media type.
func CheckImage(field, b64 string, max int) (Image, error) {
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return Image{}, apperr.Invalid(field, "is not base64")
	}
	if len(data) > max {
		return Image{}, apperr.Invalid(field, "is %d bytes, over the limit of %d", len(data), max)
	}
	ct := http.DetectContentType(data)
	if !slices.Contains(imageTypes, ct) {
		return Image{}, apperr.Invalid(field, "is not a PNG, JPEG, GIF or WebP image")
	}
	return Image{Type: ct, Base64: b64}, nil
}

// Image is a checked image.
type Image struct {
	Type   string
	Base64 string
}

// DataURL returns a stored base64 image as a data: URL, which is how the
// APIs show images: Bindery serves no integration assets.
func DataURL(b64 string) string {
	data, err := base64.StdEncoding.DecodeString(b64)
	ct := "application/octet-stream"
	if err == nil {
		ct = http.DetectContentType(data)
	}
	return "data:" + ct + ";base64," + b64
}

// CheckLink checks an external link: an absolute http(s) URL of at most
// 2,048 characters, and a label.
func CheckLink(field, rawURL, label string) error {
	u, err := url.Parse(rawURL)
	if err != nil || len(rawURL) > MaxLinkURL || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Invalid(field+".url", "must be an absolute http(s) URL of at most %d characters", MaxLinkURL)
	}
	if strings.TrimSpace(label) == "" {
		return apperr.Invalid(field+".label", "must not be empty")
	}
	return nil
}

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

// definition returns the compiled schema of a member of a publish.
func definition(name string) *jsonschema.Schema {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(definitionSchema))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if compileErr = c.AddResource("bindery:integration.json", doc); compileErr != nil {
			return
		}
		compiled = map[string]*jsonschema.Schema{}
		for _, n := range []string{"blocks", "contentSources", "configurations", "contentSecurityPolicy", "secrets"} {
			s, err := c.Compile("bindery:integration.json#/$defs/" + n)
			if err != nil {
				compileErr = err
				return
			}
			compiled[n] = s
		}
	})
	if compileErr != nil {
		// The document is a constant of this package: a programming error.
		panic(fmt.Sprintf("integration: the definition schema: %v", compileErr))
	}
	return compiled[name]
}

// validate decodes raw and validates it against a schema, returning the
// decoded value (numbers as json.Number, which encode back as they came).
func validate(field string, s *jsonschema.Schema, raw json.RawMessage) (any, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, apperr.Invalid(field, "is not JSON")
	}
	if err := s.Validate(v); err != nil {
		return nil, apperr.Invalid(field, "%s", reason(err))
	}
	return v, nil
}

// reason is a validation error without its first line, which names the
// schema's internal address.
func reason(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	if len(lines) > 1 {
		lines = lines[1:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimLeft(strings.TrimSpace(l), "- ")
	}
	return strings.Join(lines, "; ")
}

// decodeInto re-encodes a validated value into out.
func decodeInto(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// CheckBlocks checks the official IntegrationBlock objects, and returns
// them with the host names their urlUnfurl patterns name, for the list's
// blockDomain filter. None is nil.
func CheckBlocks(raw json.RawMessage) ([]map[string]any, []string, error) {
	if isNull(raw) {
		return nil, []string{}, nil
	}
	v, err := validate("blocks", definition("blocks"), raw)
	if err != nil {
		return nil, nil, err
	}
	var blocks []map[string]any
	if err := decodeInto(v, &blocks); err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	domains := []string{}
	for _, b := range blocks {
		patterns, _ := b["urlUnfurl"].([]any)
		for _, p := range patterns {
			s, _ := p.(string)
			if u, err := url.Parse(strings.ReplaceAll(s, "*", "x")); err == nil && u.Hostname() != "" {
				h := strings.ToLower(u.Hostname())
				if !seen[h] {
					seen[h] = true
					domains = append(domains, h)
				}
			}
		}
	}
	sort.Strings(domains)
	if len(blocks) == 0 {
		blocks = nil
	}
	return blocks, domains, nil
}

// CheckContentSources checks the official IntegrationContentSource
// objects. None is nil.
func CheckContentSources(raw json.RawMessage) ([]map[string]any, error) {
	if isNull(raw) {
		return nil, nil
	}
	v, err := validate("contentSources", definition("contentSources"), raw)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	if err := decodeInto(v, &out); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		out = nil
	}
	return out, nil
}

// CheckContentSecurityPolicy checks the official
// IntegrationContentSecurityPolicy: a string or an object of directives.
func CheckContentSecurityPolicy(raw json.RawMessage) (json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	if _, err := validate("contentSecurityPolicy", definition("contentSecurityPolicy"), raw); err != nil {
		return nil, err
	}
	var c bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return nil, apperr.Invalid("contentSecurityPolicy", "is not JSON")
	}
	if c.Len() > MaxContentSecurityPolicyBytes {
		return nil, apperr.Invalid("contentSecurityPolicy", "is over %d bytes", MaxContentSecurityPolicyBytes)
	}
	return c.Bytes(), nil
}

// CheckSecrets checks secrets: an object of at most 50 strings of at most
// 4 KiB, named by 1 to 100 letters, digits, '_', '.' and '-'.
func CheckSecrets(raw json.RawMessage) (map[string]string, error) {
	if _, err := validate("secrets", definition("secrets"), raw); err != nil {
		return nil, err
	}
	var out map[string]string
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, apperr.Invalid("secrets", "must be an object of strings")
	}
	if out == nil {
		out = map[string]string{}
	}
	return out, nil
}

// Targets of a configuration schema, as the official
// IntegrationConfigurations names them.
const (
	TargetAccount = "account"
	TargetSpace   = "space"
	TargetSite    = "site"
)

// CheckConfigurations checks the official IntegrationConfigurations: for
// each target, a configuration schema or a ContentKit component. Each
// schema is then compiled as the JSON Schema installations' configurations
// are validated with, so one that cannot be is refused here.
func CheckConfigurations(raw json.RawMessage) (map[string]any, error) {
	if isNull(raw) {
		return nil, nil
	}
	v, err := validate("configurations", definition("configurations"), raw)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := decodeInto(v, &out); err != nil {
		return nil, err
	}
	for _, target := range []string{TargetAccount, TargetSpace, TargetSite} {
		if _, _, err := configurationSchema(out, target); err != nil {
			return nil, apperr.Invalid("configurations."+target, "%v", err)
		}
	}
	return out, nil
}

// configurationSchema compiles the JSON Schema of a target's configuration
// from the integration's configurations, with the properties it requires.
// A nil schema accepts any object: the target has no schema (nothing to
// configure, or a ContentKit component that configures it).
func configurationSchema(configurations map[string]any, target string) (*jsonschema.Schema, []string, error) {
	c, _ := configurations[target].(map[string]any)
	props, ok := c["properties"].(map[string]any)
	if !ok {
		return nil, nil, nil
	}
	schemaProps := map[string]any{}
	for name, p := range props {
		p, _ := p.(map[string]any)
		switch t, _ := p["type"].(string); t {
		case "string", "number", "boolean":
			s := map[string]any{"type": t}
			if e, ok := p["enum"].([]any); ok && t == "string" {
				s["enum"] = e
			}
			schemaProps[name] = s
		}
		// A button takes no value.
	}
	var required []string
	if rs, ok := c["required"].([]any); ok {
		for _, r := range rs {
			name, _ := r.(string)
			if _, ok := props[name]; !ok {
				return nil, nil, fmt.Errorf("requires %q, which is not one of its properties", name)
			}
			required = append(required, name)
		}
	}
	doc := map[string]any{"type": "object", "additionalProperties": false, "properties": schemaProps}
	comp := jsonschema.NewCompiler()
	if err := comp.AddResource("bindery:configuration.json", doc); err != nil {
		return nil, nil, err
	}
	s, err := comp.Compile("bindery:configuration.json")
	if err != nil {
		return nil, nil, err
	}
	return s, required, nil
}

// CheckConfiguration validates an installation's configuration for a
// target against the integration's configurations. complete is false when
// it lacks a property the schema requires: the installation is then
// pending, not refused, since it is configured step by step.
func CheckConfiguration(configurations map[string]any, target string, raw json.RawMessage) (cfg map[string]any, complete bool, err error) {
	if isNull(raw) {
		raw = json.RawMessage("{}")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, false, apperr.Invalid("configuration", "is not JSON")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false, apperr.Invalid("configuration", "must be an object")
	}
	s, required, err := configurationSchema(configurations, target)
	if err != nil {
		return nil, false, err
	}
	if s != nil {
		if err := s.Validate(obj); err != nil {
			return nil, false, apperr.Invalid("configuration", "%s", reason(err))
		}
	}
	complete = true
	for _, r := range required {
		if _, ok := obj[r]; !ok {
			complete = false
		}
	}
	if err := decodeInto(obj, &cfg); err != nil {
		return nil, false, err
	}
	return cfg, complete, nil
}

// Complete reports whether a stored configuration has every property the
// target's schema requires.
func Complete(configurations map[string]any, target string, cfg map[string]any) bool {
	_, required, err := configurationSchema(configurations, target)
	if err != nil {
		return false
	}
	for _, r := range required {
		if _, ok := cfg[r]; !ok {
			return false
		}
	}
	return true
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}
