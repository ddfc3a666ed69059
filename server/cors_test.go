package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

const appOrigin = "https://app.example.com"

// request sends a request with the given headers (and the token, if any)
// and returns the response without its body.
func request(t *testing.T, e *servertest.Env, method, path, token string, headers map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, e.HTTP.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.HTTP.Client().Do(req)
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	return res
}

func preflight(origin, method, headers string) map[string]string {
	return map[string]string{"Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.CORSOrigins = []string{appOrigin, "http://localhost:3000"} })
	query := `{"query":"{ viewer { displayName } }"}`
	jsonBody := map[string]string{"Origin": appOrigin, "Content-Type": "application/json"}

	t.Run("a preflight from an allowed origin is answered without a token", func(t *testing.T) {
		for _, c := range []struct{ method, path string }{
			{http.MethodPost, "/graphql"},
			{http.MethodGet, "/graphql"},
			{http.MethodPatch, "/v1/spaces/spc_x"},
			{http.MethodDelete, "/v1/spaces/spc_x"},
			{http.MethodPut, "/v1/orgs/org_x/members/usr_x"},
		} {
			res := request(t, e, http.MethodOptions, c.path, "", preflight(appOrigin, c.method, "authorization,content-type"), "")
			assert.Equal(t, http.StatusNoContent, res.StatusCode, c.path)
			h := res.Header
			assert.Equal(t, appOrigin, h.Get("Access-Control-Allow-Origin"), c.path)
			assert.Equal(t, c.method, h.Get("Access-Control-Allow-Methods"), c.path)
			assert.Equal(t, "authorization,content-type", h.Get("Access-Control-Allow-Headers"), c.path)
			assert.Equal(t, "600", h.Get("Access-Control-Max-Age"))
			assert.Equal(t, "true", h.Get("Access-Control-Allow-Credentials"), "a listed origin may send the session cookie")
			assert.Contains(t, h.Values("Vary"), "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
		}
		// Origins are compared as browsers send them, case aside.
		res := request(t, e, http.MethodOptions, "/graphql", "", preflight("http://localhost:3000", "POST", "content-type"), "")
		assert.Equal(t, "http://localhost:3000", res.Header.Get("Access-Control-Allow-Origin"))
	})

	t.Run("a preflight is refused", func(t *testing.T) {
		for name, headers := range map[string]map[string]string{
			"from another origin":              preflight("https://evil.example", "POST", "authorization"),
			"from a sibling of an allowed one": preflight("https://app.example.com:8443", "POST", "authorization"),
			"over plain HTTP":                  preflight("http://app.example.com", "POST", "authorization"),
			"for a header not allowed":         preflight(appOrigin, "POST", "authorization,x-api-key"),
			"for a method not allowed":         preflight(appOrigin, "TRACE", ""),
		} {
			res := request(t, e, http.MethodOptions, "/graphql", "", headers, "")
			assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), name)
			assert.Empty(t, res.Header.Get("Access-Control-Allow-Methods"), name)
		}
	})

	t.Run("a response to an allowed origin can be read", func(t *testing.T) {
		res := request(t, e, http.MethodPost, "/graphql", e.OwnerToken, jsonBody, query)
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, appOrigin, res.Header.Get("Access-Control-Allow-Origin"))
		assert.Equal(t, "X-Request-Id, X-Ratelimit-Limit, X-Ratelimit-Remaining, X-Ratelimit-Reset, Retry-After, Location",
			res.Header.Get("Access-Control-Expose-Headers"))
		assert.Equal(t, "true", res.Header.Get("Access-Control-Allow-Credentials"))
		assert.Contains(t, res.Header.Values("Vary"), "Origin")

		res = request(t, e, http.MethodGet, "/v1/user", e.OwnerToken, map[string]string{"Origin": appOrigin}, "")
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, appOrigin, res.Header.Get("Access-Control-Allow-Origin"))

		// So can an error: the page learns why it was refused.
		res = request(t, e, http.MethodPost, "/graphql", "", jsonBody, query)
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
		assert.Equal(t, appOrigin, res.Header.Get("Access-Control-Allow-Origin"))
	})

	t.Run("a response to another origin cannot", func(t *testing.T) {
		res := request(t, e, http.MethodPost, "/graphql", e.OwnerToken,
			map[string]string{"Origin": "https://evil.example", "Content-Type": "application/json"}, query)
		assert.Equal(t, http.StatusOK, res.StatusCode, "the browser, not the server, withholds it")
		assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
		assert.Empty(t, res.Header.Get("Access-Control-Expose-Headers"))
	})
}

func TestCORSAnyOrigin(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.CORSOrigins = []string{"*"} })
	res := request(t, e, http.MethodOptions, "/graphql", "", preflight("https://anywhere.example", "POST", "authorization"), "")
	assert.Equal(t, http.StatusNoContent, res.StatusCode)
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	assert.Empty(t, res.Header.Get("Access-Control-Allow-Credentials"), "any origin never with the cookie")
}

// Without BINDERY_CORS_ORIGINS no response carries a CORS header, and a
// preflight is just an unauthenticated request.
func TestCORSOffByDefault(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	require.Empty(t, e.Config.CORSOrigins)
	res := request(t, e, http.MethodOptions, "/graphql", "", preflight(appOrigin, "POST", "authorization"), "")
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	res2 := request(t, e, http.MethodPost, "/graphql", e.OwnerToken,
		map[string]string{"Origin": appOrigin, "Content-Type": "application/json"}, `{"query":"{ viewer { id } }"}`)
	assert.Equal(t, http.StatusOK, res2.StatusCode)
	for _, r := range []*http.Response{res, res2} {
		for k := range r.Header {
			assert.False(t, strings.HasPrefix(k, "Access-Control-"), k)
		}
	}
}
