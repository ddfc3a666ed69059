package rest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/enum"
)

// Extensions are Bindery's own /v1 operations, which the official GitBook
// spec does not have, by operationId: each an OpenAPI 3.0 operation object
// (summary, parameters, requestBody, and its success response with a JSON
// Schema) in JSON. The route table names them as it names the official
// operations; Operations marks their rows Extension. The route table's
// test checks that an extension is not an official operation and documents
// its row's status; rest/internal/openapigen takes them where it takes an
// official operation and marks them x-bindery-extension; the tests
// validate their responses against Bindery's own document
// (servertest.CheckSpec).
//
// Webhook endpoints and deliveries, and the list and revocation
// of invitations by email, are the extensions today.
var Extensions = map[string]string{
	"listWebhookEndpoints": extension("List the organization's webhook endpoints, oldest first. Needs the admin role.",
		[]string{"organizationId"}, true, "", 200, extList(webhookEndpointShape(false))),
	"createWebhookEndpoint": extension("Register a webhook endpoint. Needs the admin role. "+
		"The answer shows its signing secret, this once.",
		[]string{"organizationId"}, false, createWebhookInput, 201, webhookEndpointShape(true)),
	"getWebhookEndpoint": extension("Get a webhook endpoint. Needs the admin role.",
		[]string{"organizationId", "webhookId"}, false, "", 200, webhookEndpointShape(false)),
	"updateWebhookEndpoint": extension("Change a webhook endpoint. Needs the admin role. "+
		"Making a disabled endpoint active again clears its disabledReason.",
		[]string{"organizationId", "webhookId"}, false, updateWebhookInput, 200, webhookEndpointShape(false)),
	"deleteWebhookEndpoint": extension("Delete a webhook endpoint with its deliveries. Needs the admin role.",
		[]string{"organizationId", "webhookId"}, false, "", 204, ""),
	"rotateWebhookEndpointSecret": extension("Give a webhook endpoint a new signing secret, shown this once; "+
		"the old one stops at once. Needs the admin role.",
		[]string{"organizationId", "webhookId"}, false, "", 200, webhookEndpointShape(true)),
	"listWebhookDeliveries": extension("List a webhook endpoint's deliveries, newest first, each with the log of its attempts. "+
		"Kept for BINDERY_WEBHOOK_RETENTION. Needs the admin role.",
		[]string{"organizationId", "webhookId"}, true, "", 200, extList(webhookDeliveryShape)),
	"getWebhookDelivery": extension("Get a delivery of a webhook endpoint, with the log of its attempts. Needs the admin role.",
		[]string{"organizationId", "webhookId", "deliveryId"}, false, "", 200, webhookDeliveryShape),
	"redeliverWebhookDelivery": extension("Send a past delivery again, as a new delivery of the same event and body, "+
		"whatever the endpoint's state or event types. Needs the admin role. The answer is the new delivery.",
		[]string{"organizationId", "webhookId", "deliveryId"}, false, "", 201, webhookDeliveryShape),

	// Invitations by email wait for their invitee (who accepts with the
	// official joinOrganizationWithInvite): their admins list and revoke
	// them, as they do invite links.
	"listOrganizationInvitations": taggedExtension("organization-invites",
		"List the organization's invitations by email that wait for their invitee, oldest first. Needs the admin role.",
		[]string{"organizationId"}, true, "", 200, extList(invitationShape)),
	"revokeOrganizationInvitation": taggedExtension("organization-invites",
		"Revoke an invitation by email that waits for its invitee. Needs the admin role.",
		[]string{"organizationId", "inviteId"}, false, "", 204, ""),
}

// SchemaExtensions are Bindery's additions to official schemas, which
// official operations answer with: by the official component's name, the
// components Bindery adds to its oneOf, by name, each a JSON Schema.
// rest/internal/openapigen adds them to Bindery's own document, marked
// x-bindery-extension; a response holding one does not validate against
// the official spec, so its tests validate it against Bindery's document
// (servertest.Env.DoBindery).
//
// A redirect's destination of kind url is one: a product decision adds it
// beyond the official SiteRedirectDestination. The content a published
// address shows is the other: the official PublishedSiteContent requires
// apiToken, a short-lived token to read the content with, and Bindery mints
// none (the caller reads with its own API token and the visitor's keys), so
// its answer is that object without it.
var SchemaExtensions = map[string]map[string]string{
	"SiteRedirectDestination": {
		"SiteRedirectDestinationURL": `{"type": "object", "description": "Bindery's extension: a redirect to an absolute URL elsewhere.",
		  "properties": {"kind": {"type": "string", "enum": ["url"]},
		    "url": {"type": "string", "format": "uri", "maxLength": 2048, "description": "An absolute http or https URL"}},
		  "required": ["kind", "url"]}`,
	},
	"PublishedSiteContentLookup": {
		"PublishedSiteContentWithoutAPIToken": publishedSiteContentShape,
	},
}

// publishedSiteContentShape is the official PublishedSiteContent less
// apiToken (and contextId and changeRequest, which Bindery never states).
const publishedSiteContentShape = `{"type": "object", "title": "Site Content",
  "description": "Bindery's extension: the official PublishedSiteContent without apiToken, since Bindery mints no short-lived tokens: read what it names with your own API token and the visitor's share key or token.",
  "not": {"required": ["apiToken"]},
  "required": ["site", "siteSpace", "space", "pathname", "basePath", "siteBasePath", "organization", "complete", "canonicalUrl"],
  "properties": {
    "site": {"type": "string", "description": "ID of the site matching."},
    "siteSection": {"type": "string", "description": "ID of the site-section matching."},
    "siteSpace": {"type": "string", "description": "ID of the site-space matching."},
    "space": {"type": "string", "description": "ID of the space matching."},
    "revision": {"type": "string", "description": "ID of the revision of the space's content that the visitor reads: its current one."},
    "pathname": {"type": "string", "description": "Path of the page in the site-space's space, as the URL gives it; empty for the site-space's root."},
    "basePath": {"type": "string", "description": "Prefix of the path in the input URL up to the site-space's root, ending in a slash."},
    "siteBasePath": {"type": "string", "description": "Prefix of the path in the input URL up to the site's root, ending in a slash."},
    "organization": {"type": "string", "description": "ID of the organization."},
    "shareKey": {"type": "string", "description": "Share link key that admitted the visitor to a share-link site."},
    "complete": {"type": "boolean", "description": "Whether the resolved site URL is complete: no more site path segments can be expected before any page path segments."},
    "canonicalUrl": {"type": "string", "description": "The canonical URL of the resolution."}}}`

// extension writes the operation object of a webhooks extension.
func extension(summary string, pathParams []string, paged bool, body string, status int, schema string) string {
	return taggedExtension("webhooks", summary, pathParams, paged, body, status, schema)
}

// taggedExtension writes an extension's operation object, under a tag.
func taggedExtension(tag, summary string, pathParams []string, paged bool, body string, status int, schema string) string {
	var ps []string
	for _, p := range pathParams {
		ps = append(ps, `{"name": "`+p+`", "in": "path", "required": true, "schema": {"type": "string"}}`)
	}
	if paged {
		ps = append(ps, `{"name": "page", "in": "query", "description": "The page of the list, from next.page.", "schema": {"type": "string"}}`,
			`{"name": "limit", "in": "query", "description": "How many items a page holds.", "schema": {"type": "integer", "minimum": 0, "maximum": 1000}}`)
	}
	out := `{"summary": ` + quote(summary) + `, "tags": [` + quote(tag) + `], "parameters": [` + strings.Join(ps, ", ") + `]`
	if body != "" {
		out += `, "requestBody": {"required": true, "content": {"application/json": {"schema": ` + body + `}}}`
	}
	response := `{"description": ` + quote(summary) + `}`
	if schema != "" {
		response = `{"description": "OK", "content": {"application/json": {"schema": ` + schema + `}}}`
	}
	return out + `, "responses": {"` + strconv.Itoa(status) + `": ` + response + `}}`
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("rest: %v", err))
	}
	return string(b)
}

// extList is the /v1 list envelope around items of a shape.
func extList(item string) string { return contractList(item) }

// webhookEventType is the schema of an event type: the names webhook
// payloads carry in "type".
var webhookEventType = func() string {
	names := make([]string, 0, len(enum.WebhookEventTypeValues()))
	for _, t := range enum.WebhookEventTypeValues() {
		names = append(names, quote(string(t)))
	}
	return `{"type": "string", "enum": [` + strings.Join(names, ", ") + `]}`
}()

// webhookEventTypes is the schema of an endpoint's event types.
var webhookEventTypes = `{"type": "array", "minItems": 1, "uniqueItems": true, "items": ` + webhookEventType + `}`

const extURLs = `{"type": "object", "additionalProperties": false, "required": ["location"], "properties": {"location": {"type": "string", "format": "uri"}}}`

// webhookEndpointShape is a webhook endpoint; withSecret adds the signing
// secret that a create and a rotation show once.
func webhookEndpointShape(withSecret bool) string {
	required := `"object", "id", "url", "eventTypes", "active", "description", "createdAt", "updatedAt", "urls"`
	secret := ""
	if withSecret {
		required += `, "secret"`
		secret = `, "secret": {"type": "string", "minLength": 1, "description": "The signing secret, shown this once."}`
	}
	return `{"type": "object", "additionalProperties": false, "required": [` + required + `], "properties": {
  "object": {"type": "string", "enum": ["webhook-endpoint"]},
  "id": {"type": "string"},
  "url": {"type": "string", "format": "uri", "description": "Where deliveries are POSTed."},
  "eventTypes": ` + webhookEventTypes + `,
  "active": {"type": "boolean"},
  "description": {"type": "string"},
  "integration": {"type": "string", "description": "The name of the integration whose endpoint it is: it receives the events of the organizations where the integration is installed. Absent for the organization's own endpoints, and once the integration is unpublished."},
  "disabledReason": {"type": "string", "description": "Why Bindery disabled it after too many failed deliveries."},
  "disabledAt": {"type": "string", "format": "date-time"},
  "createdAt": {"type": "string", "format": "date-time"},
  "updatedAt": {"type": "string", "format": "date-time"},
  "urls": ` + extURLs + secret + `}}`
}

// invitationShape is an invitation by email that waits for its invitee.
var invitationShape = `{"type": "object", "additionalProperties": false, "required": ["object", "id", "email", "role", "createdAt", "urls"],
  "properties": {
  "object": {"type": "string", "enum": ["invite"]},
  "id": {"type": "string"},
  "email": {"type": "string", "description": "The address it was sent to: only the user of that address accepts it."},
  "role": {"type": "string", "nullable": true, "enum": ["admin", "create", "review", "edit", "comment", "read", null],
    "description": "The role it gives; null for a guest."},
  "createdAt": {"type": "string", "format": "date-time"},
  "urls": ` + extURLs + `}}`

// webhookDeliveryShape is a delivery with the log of its attempts.
var webhookDeliveryShape = `{"type": "object", "additionalProperties": false,
  "required": ["object", "id", "endpoint", "eventId", "eventType", "payload", "state", "attempts", "createdAt", "updatedAt", "urls"],
  "properties": {
  "object": {"type": "string", "enum": ["webhook-delivery"]},
  "id": {"type": "string"},
  "endpoint": {"type": "string", "description": "The endpoint's ID."},
  "eventId": {"type": "string", "description": "The same in every delivery of the event, redeliveries included."},
  "eventType": ` + webhookEventType + `,
  "payload": {"type": "object", "description": "The request body, the same at every attempt."},
  "state": {"type": "string", "enum": ["pending", "succeeded", "failed"]},
  "nextAttemptAt": {"type": "string", "format": "date-time"},
  "redeliveryOf": {"type": "string", "description": "The delivery this one repeats."},
  "attempts": {"type": "array", "items": {"type": "object", "additionalProperties": false,
    "required": ["number", "at", "requestHeaders", "latencyMs"], "properties": {
    "number": {"type": "integer", "minimum": 1},
    "at": {"type": "string", "format": "date-time"},
    "requestHeaders": {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["name", "value"],
      "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}},
    "responseStatus": {"type": "integer"},
    "responseBody": {"type": "string"},
    "latencyMs": {"type": "integer", "minimum": 0},
    "error": {"type": "string"}}}},
  "createdAt": {"type": "string", "format": "date-time"},
  "updatedAt": {"type": "string", "format": "date-time"},
  "urls": ` + extURLs + `}}`

var createWebhookInput = `{"type": "object", "additionalProperties": false, "required": ["url", "eventTypes"], "properties": {
  "url": {"type": "string", "maxLength": 2048, "description": "An https URL of a public address."},
  "eventTypes": ` + webhookEventTypes + `,
  "active": {"type": "boolean", "description": "True by default."},
  "description": {"type": "string", "maxLength": 256},
  "integration": {"type": "string", "description": "The name of an integration the organization publishes, to make this its endpoint; each event type must be one the integration's scopes allow."}}}`

var updateWebhookInput = `{"type": "object", "additionalProperties": false, "properties": {
  "url": {"type": "string", "maxLength": 2048, "description": "An https URL of a public address."},
  "eventTypes": ` + webhookEventTypes + `,
  "active": {"type": "boolean"},
  "description": {"type": "string", "maxLength": 256}}}`
