package servertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// contractShapes are the responses of operations where the API contract
// differs from the official spec, by operationId, and the contract wins:
// their successes are validated against the contract's shape instead.
//
// Translation settings (contract parts 2.20 and 4.14) have a title and
// languages, where the spec's Translation of the same paths has a source
// space and one language.
var contractShapes = map[string]string{
	"listTranslations":  contractList(translationSettingsShape),
	"createTranslation": translationSettingsShape,
	"getTranslation":    translationSettingsShape,
	"updateTranslation": translationSettingsShape,
}

// translationSettingsShape is TranslationSettings as part 2.20 states it:
// every member required, languages of the official TranslationLanguage
// codes.
const translationSettingsShape = `{
  "type": "object", "additionalProperties": false,
  "required": ["object", "id", "title", "languages", "createdAt", "updatedAt", "permissions", "urls"],
  "properties": {
    "object": {"type": "string", "enum": ["translation-settings"]},
    "id": {"type": "string"},
    "title": {"type": "string", "minLength": 1, "maxLength": 100},
    "languages": {"type": "array", "uniqueItems": true, "items": {"type": "string", "enum": ["en", "fr", "de", "es", "it", "pt",
      "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th",
      "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"]}},
    "createdAt": {"type": "string", "format": "date-time"},
    "updatedAt": {"type": "string", "format": "date-time"},
    "permissions": {"type": "object", "required": ["edit"], "properties": {"edit": {"type": "boolean"}, "view": {"type": "boolean"}}},
    "urls": {"type": "object", "required": ["location"], "properties": {"location": {"type": "string", "format": "uri"}}}
  }
}`

// contractList is the list envelope of part 2.1 around items of a shape.
func contractList(item string) string {
	return `{"type": "object", "additionalProperties": false, "required": ["items", "count"], "properties": {
  "items": {"type": "array", "items": ` + item + `},
  "count": {"type": "number"},
  "next": {"type": "object", "required": ["page"], "properties": {"page": {"type": "string"}}}}}`
}

var (
	contractOnce    sync.Once
	contractSchemas map[string]*openapi3.Schema
)

// contractSchema returns the contract's schema of an operation's success,
// or nil when the official spec's holds.
func contractSchema(operationID string) *openapi3.Schema {
	contractOnce.Do(func() {
		contractSchemas = map[string]*openapi3.Schema{}
		for op, raw := range contractShapes {
			s := &openapi3.Schema{}
			if err := json.Unmarshal([]byte(raw), s); err != nil {
				panic(fmt.Sprintf("servertest: the contract shape of %s: %v", op, err))
			}
			contractSchemas[op] = s
		}
	})
	return contractSchemas[operationID]
}

// checkContract validates a success against the contract's shape.
func checkContract(t testing.TB, req *http.Request, res *Response, s *openapi3.Schema) {
	t.Helper()
	var v any
	if err := jsonUnmarshal(res.Body, &v); err != nil {
		t.Errorf("%s %s -> %d: body is not JSON: %s", req.Method, req.URL.Path, res.Status, res.Body)
		return
	}
	if err := s.VisitJSON(v, openapi3.EnableFormatValidation()); err != nil {
		t.Errorf("%s %s -> %d does not match the API contract's shape: %v\nbody: %s", req.Method, req.URL.Path, res.Status,
			trim(err.Error()), trim(string(res.Body)))
	}
}
