package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/server/servertest"
)

// A known path asked with a method it has no operation for answers 405 and
// says which methods it has; HEAD works wherever GET does.
func TestMethodsOfAPath(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	space := e.space("Handbook", "")
	allow := func(want string) func(*testing.T, *servertest.Response) {
		return func(t *testing.T, res *servertest.Response) { assert.Equal(t, want, res.Header.Get("Allow")) }
	}
	noBody := func(t *testing.T, res *servertest.Response) { assert.Empty(t, res.Body) }

	e.Run(t, []servertest.Scenario{
		{Name: "PUT on a space", Method: http.MethodPut, Path: "/v1/spaces/" + space, Token: e.OwnerToken, Body: map[string]any{},
			WantStatus: http.StatusMethodNotAllowed, WantError: "PUT is not allowed", Check: allow("GET, HEAD, PATCH, DELETE")},
		{Name: "POST on an organization", Method: http.MethodPost, Path: "/v1/orgs/" + e.Org.ID, Token: e.OwnerToken,
			WantStatus: http.StatusMethodNotAllowed, Check: allow("GET, HEAD, PATCH")},
		{Name: "GET on an action", Method: http.MethodGet, Path: "/v1/spaces/" + space + "/duplicate", Token: e.OwnerToken,
			WantStatus: http.StatusMethodNotAllowed, Check: allow("POST")},
		{Name: "DELETE on a page path", Method: http.MethodDelete, Path: "/v1/spaces/" + space + "/content/path/a/b", Token: e.OwnerToken,
			WantStatus: http.StatusMethodNotAllowed, Check: allow("GET, HEAD")},
		{Name: "an unknown path is still not found", Method: http.MethodPut, Path: "/v1/spaces/" + space + "/nothing", Token: e.OwnerToken,
			WantStatus: http.StatusNotFound, WantError: "No route"},
		{Name: "405 needs a token like any request", Method: http.MethodPut, Path: "/v1/spaces/" + space,
			WantStatus: http.StatusUnauthorized},

		{Name: "HEAD of a space", Method: http.MethodHead, Path: "/v1/spaces/" + space, Token: e.OwnerToken,
			WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				noBody(t, res)
				assert.Contains(t, res.Header.Get("Content-Type"), "application/json")
			}},
		{Name: "HEAD of a list", Method: http.MethodHead, Path: "/v1/orgs/" + e.Org.ID + "/spaces", Token: e.OwnerToken,
			WantStatus: http.StatusOK, Check: noBody},
		{Name: "HEAD of a missing space", Method: http.MethodHead, Path: "/v1/spaces/spc_doesnotexist", Token: e.OwnerToken,
			WantStatus: http.StatusNotFound, Check: noBody},
		{Name: "HEAD without a token", Method: http.MethodHead, Path: "/v1/spaces/" + space, WantStatus: http.StatusUnauthorized},
	})
}
