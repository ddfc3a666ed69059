package integration

// definitionSchema holds, as one JSON Schema document, the official shapes
// of the members of a publish that Bindery keeps whole (gitbook-openapi
// 0.143.2: IntegrationBlock, IntegrationContentSource,
// IntegrationConfigurations, IntegrationContentSecurityPolicy), with their
// references resolved. A publish is validated against them with
// santhosh-tekuri/jsonschema.
const definitionSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "blocks": {"type": "array", "items": {
      "type": "object", "required": ["id", "title"],
      "properties": {
        "id": {"type": "string", "minLength": 1},
        "title": {"type": "string", "minLength": 2, "maxLength": 40},
        "description": {"type": "string", "maxLength": 150},
        "icon": {"type": "string"},
        "urlUnfurl": {"type": "array", "items": {"type": "string"}},
        "markdown": {"type": "object", "required": ["codeblock", "body"],
          "properties": {"codeblock": {"type": "string"}, "body": {"type": "string"}}}
      }
    }},
    "contentSources": {"type": "array", "items": {
      "type": "object", "required": ["id", "title", "configuration"],
      "properties": {
        "id": {"type": "string", "minLength": 1},
        "title": {"type": "string", "minLength": 2, "maxLength": 40},
        "description": {"type": "string", "maxLength": 150},
        "icon": {"type": "string"},
        "configuration": {"$ref": "#/$defs/component"}
      }
    }},
    "component": {"type": "object", "required": ["componentId"], "properties": {"componentId": {"type": "string"}}},
    "configurations": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "account": {"$ref": "#/$defs/configuration"},
        "space": {"$ref": "#/$defs/configuration"},
        "site": {"$ref": "#/$defs/configuration"}
      }
    },
    "configuration": {"oneOf": [{"$ref": "#/$defs/configurationSchema"}, {"$ref": "#/$defs/component"}]},
    "configurationSchema": {
      "type": "object", "required": ["properties"],
      "properties": {
        "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/property"}},
        "required": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}
      }
    },
    "property": {"allOf": [
      {"type": "object", "properties": {"title": {"type": "string", "maxLength": 30}, "description": {"type": "string", "maxLength": 100}}},
      {"oneOf": [
        {"type": "object", "required": ["type"], "properties": {"type": {"const": "string"}, "default": {"type": "string"},
          "completion_url": {"type": "string"}, "enum": {"type": "array", "items": {"type": "string"}}}},
        {"type": "object", "required": ["type"], "properties": {"type": {"const": "number"}, "default": {"type": "number"}}},
        {"type": "object", "required": ["type"], "properties": {"type": {"const": "boolean"}, "default": {"type": "boolean"}}},
        {"type": "object", "required": ["type", "callback_url", "button_text"], "properties": {"type": {"const": "button"},
          "callback_url": {"type": "string"}, "button_text": {"type": "string"}}}
      ]}
    ]},
    "contentSecurityPolicy": {"oneOf": [
      {"type": "string"},
      {"type": "object", "additionalProperties": false, "properties": {
        "base-uri": {"type": "string"}, "block-all-mixed-content": {"type": "string"}, "child-src": {"type": "string"},
        "connect-src": {"type": "string"}, "default-src": {"type": "string"}, "font-src": {"type": "string"},
        "form-action": {"type": "string"}, "frame-ancestors": {"type": "string"}, "frame-src": {"type": "string"},
        "img-src": {"type": "string"}, "manifest-src": {"type": "string"}, "media-src": {"type": "string"},
        "navigate-to": {"type": "string"}, "object-src": {"type": "string"}, "plugin-types": {"type": "string"},
        "prefetch-src": {"type": "string"}, "referrer": {"type": "string"}, "report-to": {"type": "string"},
        "report-uri": {"type": "string"}, "require-sri-for": {"type": "string"}, "require-trusted-types-for": {"type": "string"},
        "sandbox": {"type": "string"}, "script-src": {"type": "string"}, "script-src-attr": {"type": "string"},
        "script-src-elem": {"type": "string"}, "style-src": {"type": "string"}, "style-src-attr": {"type": "string"},
        "style-src-elem": {"type": "string"}, "trusted-types": {"type": "string"}, "upgrade-insecure-requests": {"type": "string"},
        "worker-src": {"type": "string"}
      }}
    ]},
    "secrets": {"type": "object", "maxProperties": 50,
      "propertyNames": {"minLength": 1, "maxLength": 100, "pattern": "^[A-Za-z0-9_.-]+$"},
      "additionalProperties": {"type": "string", "maxLength": 4096}}
  }
}`
