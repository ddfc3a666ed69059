package rest_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/server/servertest"
)

// TestNullBody: a body, when there is one, is a JSON object. null is a 400
// and writes nothing; an empty body stands for an empty object where every
// member is optional, and names the missing member where one is required.
func TestNullBody(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	org := "/v1/orgs/" + e.Org.ID
	count := func() int {
		n, err := e.Client.Space.Query().Where(space.OrganizationID(e.Org.ID)).Count(context.Background())
		require.NoError(t, err)
		return n
	}
	before := count()
	for _, body := range []string{"null", " null\n"} {
		res := e.Do(http.MethodPost, org+"/spaces", e.OwnerToken, body)
		assert.Equal(t, http.StatusBadRequest, res.Status, "%q", body)
		assert.Contains(t, res.ErrorMessage(), "not null")
	}
	assert.Equal(t, before, count(), "a null body created nothing")
	id := e.MustDo(http.MethodPost, org+"/spaces", e.OwnerToken, "", http.StatusCreated)["id"].(string)
	assert.Equal(t, http.StatusBadRequest, e.Do(http.MethodPatch, "/v1/spaces/"+id, e.OwnerToken, "null").Status)
	res := e.Do(http.MethodPut, org+"/teams", e.OwnerToken, "")
	assert.Equal(t, http.StatusBadRequest, res.Status, "a team needs its title")
	assert.Contains(t, res.ErrorMessage(), "title")
}

// TestNoOpPatchKeepsUpdatedAt: a PATCH that sets every member to the value
// it has changes nothing, so updatedAt stays; a real change moves it.
func TestNoOpPatchKeepsUpdatedAt(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	org := "/v1/orgs/" + e.Org.ID
	sp := e.MustDo(http.MethodPost, org+"/spaces", e.OwnerToken, map[string]any{"title": "Guide", "emoji": "📘"}, http.StatusCreated)
	col := e.MustDo(http.MethodPost, org+"/collections", e.OwnerToken, map[string]any{"title": "Guides"}, http.StatusCreated)
	updatedAt := func(id string) string {
		var out struct{ Node struct{ UpdatedAt string } }
		e.GraphQL(e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Space { updatedAt } ... on Collection { updatedAt }
		  ... on Organization { updatedAt } } }`, map[string]any{"id": id}).Into(t, &out)
		require.NotEmpty(t, out.Node.UpdatedAt)
		return out.Node.UpdatedAt
	}
	for _, c := range []struct {
		id, path   string
		same, diff map[string]any
	}{
		{sp["id"].(string), "/v1/spaces/" + sp["id"].(string), map[string]any{"title": "Guide", "emoji": "📘"},
			map[string]any{"title": "Handbook"}},
		{col["id"].(string), "/v1/collections/" + col["id"].(string), map[string]any{"title": "Guides"},
			map[string]any{"title": "Handbooks"}},
		{e.Org.ID, org, map[string]any{"title": e.Org.Title}, map[string]any{"title": "Renamed"}},
	} {
		was := updatedAt(c.id)
		time.Sleep(5 * time.Millisecond) // updatedAt counts milliseconds
		e.MustDo(http.MethodPatch, c.path, e.OwnerToken, c.same, http.StatusOK)
		assert.Equal(t, was, updatedAt(c.id), "%s: a PATCH that changes nothing", c.path)
		time.Sleep(5 * time.Millisecond)
		e.MustDo(http.MethodPatch, c.path, e.OwnerToken, c.diff, http.StatusOK)
		assert.NotEqual(t, was, updatedAt(c.id), "%s: a PATCH that changes something", c.path)
	}
}

// TestNullableMembersAreDocumented: the members a body takes null for (it
// removes their value) are exactly those Bindery's OpenAPI document admits
// null for, operation by operation; every other member is refused null by
// the decoder, so the document and the server agree both ways.
func TestNullableMembersAreDocumented(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromFile("openapi.json")
	require.NoError(t, err)
	admitsNull := func(s *openapi3.Schema, member string) (found, ok bool) {
		var walk func(s *openapi3.Schema)
		walk = func(s *openapi3.Schema) {
			if p := s.Properties[member]; p != nil {
				found = true
				ok = ok || p.Value.VisitJSON(nil) == nil
			}
			for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
				for _, r := range refs {
					walk(r.Value)
				}
			}
		}
		walk(s)
		return found, ok
	}
	checked := 0
	for _, op := range rest.Operations() {
		o := doc.Paths.Find(strings.TrimPrefix(op.Path, "/v1")).GetOperation(op.Method)
		require.NotNil(t, o, op.OperationID)
		if o.RequestBody == nil {
			assert.Empty(t, op.Nullable, op.OperationID)
			continue
		}
		schema := o.RequestBody.Value.Content.Get("application/json").Schema.Value
		for name := range allProperties(schema) {
			if slices.Contains(op.Unsupported, name) {
				continue // refused whatever its value
			}
			found, ok := admitsNull(schema, name)
			require.True(t, found)
			assert.Equal(t, slices.Contains(op.Nullable, name), ok,
				"%s: the document and the decoder disagree on whether %s takes null", op.OperationID, name)
			checked++
		}
	}
	assert.Greater(t, checked, 100)
}

// allProperties collects the member names of a schema and its branches.
func allProperties(s *openapi3.Schema) map[string]bool {
	out := map[string]bool{}
	for n := range s.Properties {
		out[n] = true
	}
	for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, r := range refs {
			for n := range allProperties(r.Value) {
				out[n] = true
			}
		}
	}
	return out
}
