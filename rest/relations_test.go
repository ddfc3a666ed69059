package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// A /v1 member that names another object names it only when the viewer can
// see it, as GraphQL's field of the relation does: a space with a level of
// its own, in a collection hidden from members, does not name the
// collection to them.
func TestRelationsNameOnlyWhatTheViewerSees(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	editTok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	hidden := e.collection("Hidden", "")
	space := e.space("Own level", hidden)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"defaultLevel": "read"}, http.StatusOK)
	e.MustDo(http.MethodPatch, "/v1/collections/"+hidden, e.OwnerToken, map[string]any{"defaultLevel": nil}, http.StatusOK)

	gql := func(tok string) map[string]any {
		var out struct{ Space map[string]any }
		e.GraphQL(tok, `query($id: ID!) { space(id: $id) { organization { id } parent { id } revision { id } } }`,
			map[string]any{"id": space}).Into(t, &out)
		return out.Space
	}
	idOf := func(v any) any {
		if m, ok := v.(map[string]any); ok {
			return m["id"]
		}
		return nil
	}

	asAdmin := e.MustDo(http.MethodGet, "/v1/spaces/"+space, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, hidden, asAdmin["parent"])
	asEditor := e.MustDo(http.MethodGet, "/v1/spaces/"+space, editTok, nil, http.StatusOK)
	assert.NotContains(t, asEditor, "parent", "the editor cannot see the collection")
	listed := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces", editTok, nil, http.StatusOK)["items"].([]any)
	require.Len(t, listed, 1)
	assert.NotContains(t, listed[0], "parent")

	for name, c := range map[string]struct {
		tok  string
		rest map[string]any
	}{"admin": {e.OwnerToken, asAdmin}, "editor": {editTok, asEditor}} {
		g := gql(c.tok)
		for _, member := range []string{"organization", "parent", "revision"} {
			assert.Equal(t, idOf(g[member]), c.rest[member], "%s: %s", name, member)
		}
	}
}

// A change request's relations are those GraphQL resolves.
func TestChangeRequestRelationsMatchGraphQL(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "v1\n"})
	id := c.createCR(c.space, c.editor, map[string]any{"subject": "Better guide"})["id"].(string)
	c.setMarkdown(c.editor, ctInCR(id), guide, "v2\n")
	c.MustDo(http.MethodPost, ctCRPath(c.space, id, "/merge"), c.editor, nil, http.StatusOK)

	rest := c.getCR(c.space, id)
	data := c.gql(c.admin, `query($id: ID!) { space(id: $id) { changeRequest(number: 1) {
		space { id } revision { id } revisionInitial { id } revisionMergedAncestor { id } revisionMerged { id } createdBy { id } } } }`,
		map[string]any{"id": c.space})
	g := data["space"].(map[string]any)["changeRequest"].(map[string]any)
	for _, member := range []string{"space", "revision", "revisionInitial", "revisionMergedAncestor", "revisionMerged"} {
		require.NotNil(t, g[member], member)
		assert.Equal(t, g[member].(map[string]any)["id"], rest[member], member)
	}
	assert.Equal(t, c.editorID, g["createdBy"].(map[string]any)["id"])
	assert.Equal(t, c.editorID, rest["createdBy"].(map[string]any)["id"])
}
