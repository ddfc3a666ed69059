package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/openapi/openapitest"
	"github.com/bindery/bindery/internal/openapi/worker"
	"github.com/bindery/bindery/internal/validate"
	"github.com/bindery/bindery/server/servertest"
)

// OpenAPI specs through GraphQL, as a dashboard uses them: upload a
// document, see it processed, list its operations.
func TestOpenAPISpecsInGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	create := `mutation($in: CreateOpenAPISpecInput!) { createOpenAPISpec(input: $in) {
	  openAPISpec { id slug processingState progress lastVersion { id } permissions { view edit } urls { location app } } } }`
	in := func(slug string, source map[string]any) map[string]any {
		return map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "slug": slug, "source": source}}
	}
	d := lsGQL(t, e, e.OwnerToken, create, in("pets", map[string]any{"text": openapitest.V30}))
	id := lsAt(d, "createOpenAPISpec.openAPISpec.id").(string)
	assert.Equal(t, "PENDING", lsAt(d, "createOpenAPISpec.openAPISpec.processingState"))
	assert.Nil(t, lsAt(d, "createOpenAPISpec.openAPISpec.lastVersion"))

	// Limits and refusals, with nothing written.
	res := e.GraphQL(e.OwnerToken, create, in("pets", map[string]any{"text": "x"}))
	assert.Equal(t, "CONFLICT", res.Code())
	res = e.GraphQL(e.OwnerToken, create, in("at-limit", map[string]any{"text": strings.Repeat("a", validate.MaxOpenAPISpecText)}))
	assert.Empty(t, res.Errors, "a text of the limit")
	res = e.GraphQL(e.OwnerToken, create, in("over", map[string]any{"text": strings.Repeat("a", validate.MaxOpenAPISpecText+1)}))
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "source.text", res.Errors[0].Extensions["field"])
	res = e.GraphQL(e.OwnerToken, create, in("both", map[string]any{"text": "x", "url": "https://a.example/x"}))
	assert.Equal(t, "source", res.Errors[0].Extensions["field"])
	res = e.GraphQL(e.OwnerToken, create, in("Bad Slug", map[string]any{"text": "x"}))
	assert.Equal(t, "slug", res.Errors[0].Extensions["field"])
	assert.Equal(t, "FORBIDDEN", e.GraphQL(editTok, create, in("mine", map[string]any{"text": "x"})).Code())

	// The worker processes what is pending: the spec of the limit does not
	// parse.
	w := worker.New(e.DB.Client, worker.Options{Now: e.Clock.Now})
	for did := true; did; {
		var err error
		did, err = w.Step(context.Background())
		require.NoError(t, err)
	}
	q := `query($org: ID!) { organization(id: $org) { openAPISpecs { totalCount nodes { slug processingState progress
	  lastProcessedAt lastProcessErrorCode lastProcessedErrors { message }
	  lastVersion { id specVersion spec { id } operations { method path operationId summary tags } }
	  versions { totalCount } } } } }`
	got := lsGQL(t, e, readTok, q, map[string]any{"org": e.Org.ID})
	specs := lsAt(got, "organization.openAPISpecs.nodes").([]any)
	require.Len(t, specs, 2)
	pets, limit := specs[0].(map[string]any), specs[1].(map[string]any)
	assert.Equal(t, "COMPLETE", pets["processingState"])
	assert.EqualValues(t, 100, pets["progress"])
	assert.NotNil(t, pets["lastProcessedAt"])
	assert.Nil(t, pets["lastProcessErrorCode"])
	assert.Equal(t, []any{}, pets["lastProcessedErrors"])
	assert.Equal(t, "3.0.3", lsAt(pets, "lastVersion.specVersion"))
	assert.Equal(t, id, lsAt(pets, "lastVersion.spec.id"))
	assert.Equal(t, []any{
		map[string]any{"method": "GET", "path": "/pets", "operationId": "listPets", "summary": "List the pets", "tags": []any{"pets"}},
		map[string]any{"method": "POST", "path": "/pets", "operationId": "createPet", "summary": "", "tags": []any{"pets", "admin"}},
		map[string]any{"method": "GET", "path": "/pets/{petId}", "operationId": "getPet", "summary": "", "tags": []any{}},
	}, lsAt(pets, "lastVersion.operations"))
	assert.EqualValues(t, 1, lsAt(pets, "versions.totalCount"))
	assert.Equal(t, "PARSE_ERROR", limit["lastProcessErrorCode"])
	assert.NotEmpty(t, limit["lastProcessedErrors"])
	assert.Nil(t, limit["lastVersion"])

	// putOpenAPISpec creates or updates; a new document is a new version.
	put := `mutation($in: PutOpenAPISpecInput!) { putOpenAPISpec(input: $in) { created openAPISpec { id processingState } } }`
	p := lsGQL(t, e, e.OwnerToken, put, in("pets", map[string]any{"text": openapitest.V20}))
	assert.Equal(t, false, lsAt(p, "putOpenAPISpec.created"))
	assert.Equal(t, id, lsAt(p, "putOpenAPISpec.openAPISpec.id"))
	assert.Equal(t, "PENDING", lsAt(p, "putOpenAPISpec.openAPISpec.processingState"))
	assert.Equal(t, "FORBIDDEN", e.GraphQL(editTok, put, in("pets", map[string]any{"text": "x"})).Code())
	did, err := w.Step(context.Background())
	require.NoError(t, err)
	require.True(t, did)
	v := lsGQL(t, e, readTok, `query($org: ID!) { organization(id: $org) { openAPISpec(slug: "pets") {
	  versions { nodes { specVersion } } } } }`, map[string]any{"org": e.Org.ID})
	assert.Equal(t, []any{map[string]any{"specVersion": "2.0"}, map[string]any{"specVersion": "3.0.3"}},
		lsAt(v, "organization.openAPISpec.versions.nodes"), "newest first")
	// A put of a new slug creates it. (After the step above, which would
	// otherwise take either pending spec: the worker takes the least
	// recently updated, and two puts may share a millisecond.)
	p = lsGQL(t, e, e.OwnerToken, put, in("users", map[string]any{"url": "https://api.example.com/users.json"}))
	assert.Equal(t, true, lsAt(p, "putOpenAPISpec.created"))

	update := `mutation($id: ID!) { updateOpenAPISpec(input: {id: $id, source: {url: "https://api.example.com/pets.yaml"}}) {
	  openAPISpec { sourceURL processingState } } }`
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, update, map[string]any{"id": id}).Code())
	u := lsGQL(t, e, e.OwnerToken, update, map[string]any{"id": id})
	assert.Equal(t, "https://api.example.com/pets.yaml", lsAt(u, "updateOpenAPISpec.openAPISpec.sourceURL"))

	del := `mutation($id: ID!) { deleteOpenAPISpec(input: {id: $id}) { deletedOpenAPISpecId } }`
	assert.Equal(t, "FORBIDDEN", e.GraphQL(editTok, del, map[string]any{"id": id}).Code())
	gone := lsGQL(t, e, e.OwnerToken, del, map[string]any{"id": id})
	assert.Equal(t, id, lsAt(gone, "deleteOpenAPISpec.deletedOpenAPISpecId"))
	assert.Equal(t, "NOT_FOUND", e.GraphQL(e.OwnerToken, del, map[string]any{"id": id}).Code())
}
