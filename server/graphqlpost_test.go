//go:build !bindery_norewrite

package server

import (
	"encoding/json"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// TestAppendResponse: a response is written with the bytes json.Marshal
// writes, wherever no string holds <, > or &, which json.Marshal escapes.
func TestAppendResponse(t *testing.T) {
	hasNext := false
	cases := map[string]*graphql.Response{
		"nil":     nil,
		"data":    {Data: json.RawMessage(`{"organization":{"id":"org_1","spaces":{"nodes":[{"id":"spc_1","title":"Guide \"2\""}]}}}`)},
		"no data": {Errors: gqlerror.List{{Message: "boom", Extensions: map[string]any{"code": "INTERNAL"}}}},
		"errors and data": {
			Errors: gqlerror.List{{Message: "not found", Path: ast.Path{ast.PathName("space"), ast.PathIndex(2)},
				Locations: []gqlerror.Location{{Line: 1, Column: 3}}, Extensions: map[string]any{"code": "NOT_FOUND"}}},
			Data: json.RawMessage(`{"space":null}`),
		},
		"every member": {Data: json.RawMessage(`{}`), Label: "l", Path: ast.Path{ast.PathName("a")}, HasNext: &hasNext,
			Extensions: map[string]any{"complexity": 12, "b": []string{"x"}}},
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(resp)
			require.NoError(t, err)
			got, err := appendResponse(nil, resp)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		})
	}
}
