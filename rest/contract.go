package rest

// ContractResponses are the success responses of the operations where the
// API contract differs from the official spec, by operationId, as JSON
// Schemas: the contract wins. The tests validate these responses against
// them instead of the spec, and Bindery's own OpenAPI document
// (rest/internal/openapigen) describes them with them.
//
// Translation settings (docs/api/translations.md) have a title and
// languages, where the spec's Translation of the same paths has a source
// space and one language. Bindery answers both: the contract's members
// always, the Translation's (with the spec's shapes) once the settings have
// a source and a language; object is the contract's.
var ContractResponses = map[string]string{
	"listTranslations":  contractList(translationSettingsShape),
	"createTranslation": translationSettingsShape,
	"getTranslation":    translationSettingsShape,
	"updateTranslation": translationSettingsShape,
}

// translationSettingsShape is TranslationSettings as Bindery's contract states it,
// every member required, languages of the official TranslationLanguage
// codes; and the official Translation's members, optional.
const translationSettingsShape = `{
  "type": "object", "additionalProperties": false,
  "required": ["object", "id", "title", "languages", "createdAt", "updatedAt", "permissions", "urls"],
  "properties": {
    "object": {"type": "string", "enum": ["translation-settings"]},
    "id": {"type": "string"},
    "title": {"type": "string", "minLength": 1, "maxLength": 100},
    "languages": ` + translationLanguages + `,
    "status": {"type": "string", "enum": ["pending", "running", "completed"],
      "description": "The official TranslationStatus: pending, as Bindery runs no machine translation."},
    "source": ` + translationSource + `,
    "language": ` + translationLanguage + `,
    "instructions": ` + jsonDocument + `,
    "stats": ` + translationStats + `,
    "createdAt": {"type": "string", "format": "date-time"},
    "updatedAt": {"type": "string", "format": "date-time"},
    "permissions": {"type": "object", "required": ["edit"], "properties": {"edit": {"type": "boolean"}, "view": {"type": "boolean"}}},
    "urls": {"type": "object", "required": ["location"], "properties": {"location": {"type": "string", "format": "uri"}}}
  }
}`

// translationSource is the official TranslationSource.
const translationSource = `{"type": "object", "additionalProperties": false, "required": ["space", "language"], "properties": {
  "space": {"type": "string", "description": "ID of the source space"},
  "language": ` + translationLanguage + `}}`

// jsonDocument is the official JSONDocument, its nodes left to the spec's
// DocumentBlocksTopLevels.
const jsonDocument = `{"type": "object", "required": ["object", "data", "nodes"], "properties": {
  "object": {"type": "string", "enum": ["document"]},
  "data": {"type": "object"},
  "nodes": {"type": "array", "items": {"type": "object"}}}}`

// translationStats are the official Translation's stats: zero, as Bindery
// runs no translation.
const translationStats = `{"type": "object", "additionalProperties": false,
  "required": ["runs", "totalWords", "totalPages", "totalDuration", "latestRunDuration", "latestPages", "latestWords"],
  "properties": {"runs": {"type": "integer"}, "totalWords": {"type": "integer"}, "totalPages": {"type": "integer"},
    "totalDuration": {"type": "integer"}, "latestRunDuration": {"type": "integer"}, "latestPages": {"type": "integer"},
    "latestWords": {"type": "integer"}}}`

// contractList is the list envelope of every /v1 list (docs/api/conventions.md) around items of a shape.
func contractList(item string) string {
	return `{"type": "object", "additionalProperties": false, "required": ["items", "count"], "properties": {
  "items": {"type": "array", "items": ` + item + `},
  "count": {"type": "number"},
  "next": {"type": "object", "required": ["page"], "properties": {"page": {"type": "string"}}}}}`
}

// translationLanguage is an official TranslationLanguage code.
const translationLanguage = `{"type": "string", "enum": ["en", "fr", "de", "es",
  "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu",
  "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"]}`

// translationLanguages are official TranslationLanguage codes, without
// repeats.
const translationLanguages = `{"type": "array", "uniqueItems": true, "items": ` + translationLanguage + `}`

// ContractRequests are the request bodies of those operations: the
// contract's (a create and an update both take the title, and the languages
// when they change) and the official spec's (a create takes a source and a
// language, an update instructions), in one body or apart.
var ContractRequests = map[string]string{
	"createTranslation": `{"type": "object", "additionalProperties": false,
  "description": "The contract's title (and languages), the official source and language (and instructions), or both. Without a title, the settings are named after their source space and language.",
  "anyOf": [{"required": ["title"]}, {"required": ["source", "language"]}],
  "properties": ` + translationSettingsInput + `}`,
	"updateTranslation": `{"type": "object", "additionalProperties": false,
  "description": "The contract's title, the official instructions, or both; what the body leaves out stays as it is.",
  "anyOf": [{"required": ["title"]}, {"required": ["instructions"]}],
  "properties": ` + translationSettingsInput + `}`,
}

// translationSettingsInput are the members of those bodies.
const translationSettingsInput = `{
  "title": {"type": "string", "minLength": 1, "maxLength": 100},
  "languages": ` + translationLanguages + `,
  "source": ` + translationSource + `,
  "language": ` + translationLanguage + `,
  "instructions": ` + jsonDocument + `}`
