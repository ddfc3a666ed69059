package server_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/server/servertest"
)

// GET /v1/openapi.json is a valid OpenAPI 3 document, served without a
// token, of exactly the operations bindery routes lists, each with the
// route table's success status.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	res, err := http.Get(e.HTTP.URL + "/v1/openapi.json")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)

	doc, err := openapi3.NewLoader().LoadFromData(body)
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background()), "a valid OpenAPI 3 document")

	var described []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			described = append(described, method+" /v1"+path)
			var successes []string
			for code := range op.Responses.Map() {
				if n, err := strconv.Atoi(code); err == nil && n < 300 {
					successes = append(successes, code)
				}
			}
			slices.Sort(successes)
			want := []string{strconv.Itoa(routeStatus(t, method, "/v1"+path))}
			if method == http.MethodPut && len(successes) == 2 {
				want = append([]string{"200"}, "201") // an upsert
			}
			assert.Equal(t, want, successes, "%s %s", method, path)
			assert.NotNil(t, op.Responses.Default(), "%s %s documents its errors", method, path)
		}
	}
	slices.Sort(described)
	routes := rest.RouteList()
	slices.Sort(routes)
	assert.Equal(t, routes, described, "the document describes what bindery routes lists")

	head, err := http.Head(e.HTTP.URL + "/v1/openapi.json")
	require.NoError(t, err)
	head.Body.Close()
	assert.Equal(t, http.StatusOK, head.StatusCode)
}

func routeStatus(t *testing.T, method, path string) int {
	for _, op := range rest.Operations() {
		if strings.EqualFold(op.Method, method) && op.Path == path {
			return op.Status
		}
	}
	t.Fatalf("%s %s is not a route", method, path)
	return 0
}
