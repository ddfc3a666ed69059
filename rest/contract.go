package rest

// ContractResponses are the success responses of the operations where the
// API contract differs from the official spec, by operationId, as JSON
// Schemas: the contract wins. The tests validate these responses against
// them instead of the spec, and Bindery's own OpenAPI document
// (rest/internal/openapigen) describes them with them.
//
// Translation settings (contract parts 2.20 and 4.14) have a title and
// languages, where the spec's Translation of the same paths has a source
// space and one language.
var ContractResponses = map[string]string{
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
    "languages": ` + translationLanguages + `,
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

// translationLanguages are the official TranslationLanguage codes, without
// repeats.
const translationLanguages = `{"type": "array", "uniqueItems": true, "items": {"type": "string", "enum": ["en", "fr", "de", "es",
  "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu",
  "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"]}}`

// ContractRequests are the request bodies of those operations, as the
// contract states them: a create and an update both take the title, and
// the languages when they change.
var ContractRequests = map[string]string{
	"createTranslation": translationSettingsInput,
	"updateTranslation": translationSettingsInput,
}

const translationSettingsInput = `{"type": "object", "additionalProperties": false, "required": ["title"], "properties": {
  "title": {"type": "string", "minLength": 1, "maxLength": 100},
  "languages": ` + translationLanguages + `}}`
