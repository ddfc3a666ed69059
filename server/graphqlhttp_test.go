package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// graphqlRequest sends a raw request to /graphql and returns the response
// with its body read.
func graphqlRequest(t *testing.T, e *servertest.Env, method, query, contentType, accept, token, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, e.HTTP.URL+"/graphql"+query, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.HTTP.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return res, out
}

// The GraphQL-over-HTTP rules the server enforces around gqlgen's
// transports; e2e/graphql-audit.mjs runs the full audit suite.
func TestGraphQLOverHTTP(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)

	t.Run("a mutation over GET is refused with 405 and not run", func(t *testing.T) {
		mutation := `mutation { createCollection(input: {organizationId: "` + e.Org.ID + `", title: "Via GET"}) { collection { id } } }`
		res, body := graphqlRequest(t, e, http.MethodGet, "?query="+url.QueryEscape(mutation), "", "", e.OwnerToken, "")
		assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
		assert.Equal(t, "POST", res.Header.Get("Allow"))
		assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
		assert.NotContains(t, body, "data")
		assert.NotEmpty(t, body["errors"])
		n, err := e.Client.Collection.Query().Count(t.Context())
		require.NoError(t, err)
		assert.Zero(t, n, "the mutation did not run")

		// A query over GET still works, also when the document holds a
		// mutation that operationName does not select.
		doc := `query Q { viewer { id } } mutation M { __typename }`
		res, body = graphqlRequest(t, e, http.MethodGet, "?operationName=Q&query="+url.QueryEscape(doc), "", "", e.OwnerToken, "")
		assert.Equal(t, http.StatusOK, res.StatusCode, body)
		res, _ = graphqlRequest(t, e, http.MethodGet, "?operationName=M&query="+url.QueryEscape(doc), "", "", e.OwnerToken, "")
		assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	})

	t.Run("other methods are refused with 405", func(t *testing.T) {
		for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
			res, body := graphqlRequest(t, e, method, "", "application/json", "", e.OwnerToken, `{"query":"{ viewer { id } }"}`)
			assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, method)
			assert.Equal(t, "GET, POST, OPTIONS", res.Header.Get("Allow"), method)
			assert.NotEmpty(t, body["errors"], method)
		}
	})

	t.Run("a POST body that is not JSON is refused with 415", func(t *testing.T) {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
			res, body := graphqlRequest(t, e, http.MethodPost, "", ct, "", e.OwnerToken, `{"query":"{ viewer { id } }"}`)
			assert.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode, ct)
			assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"), ct)
			assert.NotEmpty(t, body["errors"], ct)
		}
		res, _ := graphqlRequest(t, e, http.MethodPost, "", "application/json; charset=utf-8", "", e.OwnerToken, `{"query":"{ viewer { id } }"}`)
		assert.Equal(t, http.StatusOK, res.StatusCode)
	})

	t.Run("errors before gqlgen runs follow the Accept header", func(t *testing.T) {
		for accept, want := range map[string]string{
			"":                                  "application/json",
			"*/*":                               "application/json",
			"application/json":                  "application/json",
			"application/graphql-response+json": "application/graphql-response+json",
			"application/graphql-response+json, application/json;q=0.9": "application/graphql-response+json",
		} {
			res, body := graphqlRequest(t, e, http.MethodPost, "", "application/json", accept, "", `{"query":"{ viewer { id } }"}`)
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode, accept)
			assert.Equal(t, want+"; charset=utf-8", res.Header.Get("Content-Type"), accept)
			assert.NotEmpty(t, body["errors"], accept)
		}
	})
}
