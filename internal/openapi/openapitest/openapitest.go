// Package openapitest holds OpenAPI documents for tests.
package openapitest

// V30 is an OpenAPI 3.0 document in JSON with three operations.
const V30 = `{
  "openapi": "3.0.3",
  "info": {"title": "Pets", "version": "1.0.0"},
  "paths": {
    "/pets": {
      "get": {"operationId": "listPets", "summary": "List the pets", "tags": ["pets"],
        "responses": {"200": {"description": "The pets"}}},
      "post": {"operationId": "createPet", "tags": ["pets", "admin"],
        "responses": {"201": {"description": "Created"}}}
    },
    "/pets/{petId}": {
      "get": {"operationId": "getPet",
        "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "A pet"}}}
    }
  }
}`

// V31 is an OpenAPI 3.1 document in YAML, with a 3.1-only type list.
const V31 = `openapi: 3.1.0
info:
  title: Library
  version: "2"
paths:
  /books:
    get:
      operationId: listBooks
      summary: Books
      tags: [books]
      responses:
        "200":
          description: The books
          content:
            application/json:
              schema:
                type: [array, "null"]
                items: {type: string}
`

// V20 is a Swagger 2.0 document.
const V20 = `{
  "swagger": "2.0",
  "info": {"title": "Users", "version": "1"},
  "paths": {
    "/users/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "type": "string"}],
      "get": {"operationId": "getUser", "summary": "One user", "tags": ["users"], "responses": {"200": {"description": "A user"}}},
      "delete": {"operationId": "deleteUser", "tags": ["users"], "responses": {"204": {"description": "Gone"}}}
    }
  }
}`

// Unparsable is neither JSON nor YAML.
const Unparsable = "openapi: 3.0.0\n  info: [unclosed\n\t- {"
