package rest_test

import (
	"context"
	"net/http"
	"testing"

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
