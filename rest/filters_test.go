package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/server/servertest"
)

// TestFilterLengths: every text a list is filtered by is at most
// graph.MaxFilterLength characters, in both APIs: one more is a 400 naming
// the parameter, never the 500 of a LIKE pattern SQLite finds too complex.
func TestFilterLengths(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	e.MustDo(http.MethodPost, "/v1/integrations/filters", e.OwnerToken, publishBody(e.Org.ID, nil), http.StatusOK)
	org := "/v1/orgs/" + e.Org.ID
	lists := map[string]string{
		org + "/members": "search",
		org + "/teams":   "title",
		org + "/members/" + e.Owner.ID + "/teams": "title",
		org + "/sites":                           "title",
		"/v1/integrations":                       "search",
		"/v1/integrations/filters/installations": "externalId",
	}
	at, over := strings.Repeat("é", graph.MaxFilterLength), strings.Repeat("é", graph.MaxFilterLength+1)
	huge := strings.Repeat("%a", 25_001) // 50,002 bytes of LIKE pattern
	for path, param := range lists {
		get := func(v string) *servertest.Response {
			return e.Do(http.MethodGet, path+"?"+param+"="+url.QueryEscape(v), e.OwnerToken, nil)
		}
		assert.Equal(t, http.StatusOK, get(at).Status, "%s?%s= at the limit", path, param)
		for _, v := range []string{over, huge} {
			res := get(v)
			assert.Equal(t, http.StatusBadRequest, res.Status, "%s?%s= of %d bytes", path, param, len(v))
			assert.Contains(t, res.ErrorMessage(), param, path)
		}
	}
	g := e.GraphQL(e.OwnerToken, `query($o: ID!, $s: String) { organization(id: $o) { members(search: $s) { totalCount } } }`,
		map[string]any{"o": e.Org.ID, "s": over})
	assert.Equal(t, "BAD_USER_INPUT", g.Code(), "members(search:) over the limit")
	g = e.GraphQL(e.OwnerToken, `query($o: ID!, $s: String) { organization(id: $o) { members(search: $s) { totalCount } } }`,
		map[string]any{"o": e.Org.ID, "s": at})
	assert.Empty(t, g.Errors, "members(search:) at the limit")
}
