package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/space"
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
