package rest_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/rest"
)

// specOperation is an operation of the official spec: its name and the
// statuses of success it lists.
type specOperation struct {
	id       string
	statuses []int
}

// loadSpecOperations reads the official spec's operations by "METHOD
// /v1/path".
func loadSpecOperations(t *testing.T) map[string]specOperation {
	t.Helper()
	raw, err := os.ReadFile("testdata/gitbook-openapi-0.143.2.json")
	require.NoError(t, err)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	out := map[string]specOperation{}
	for path, item := range doc.Paths {
		for method, rawOp := range item {
			var op struct {
				OperationID string                     `json:"operationId"`
				Responses   map[string]json.RawMessage `json:"responses"`
			}
			if json.Unmarshal(rawOp, &op) != nil || op.OperationID == "" {
				continue // parameters and other members of a path item
			}
			so := specOperation{id: op.OperationID}
			for code := range op.Responses {
				if n, err := strconv.Atoi(code); err == nil && n >= 200 && n < 300 {
					so.statuses = append(so.statuses, n)
				}
			}
			out[strings.ToUpper(method)+" /v1"+path] = so
		}
	}
	return out
}

// checkOperation says how a row of the route table differs from the
// official spec: its method and path must be an operation of the spec, with
// the same operationId and a status of success the spec lists.
//
// A row of one of Bindery's extensions must not be an operation of the
// official spec (it would hide it), and its operation object must parse and
// document the row's status.
func checkOperation(spec map[string]specOperation, op rest.Operation) error {
	key := op.Method + " " + op.Path
	so, ok := spec[key]
	if op.Extension {
		return checkExtension(ok, key, op)
	}
	switch {
	case !ok:
		return fmt.Errorf("%s is not an operation of the official spec", key)
	case so.id != op.OperationID:
		return fmt.Errorf("%s is %s in the official spec, not %s", key, so.id, op.OperationID)
	case op.Method == http.MethodDelete && op.Status == http.StatusNoContent:
		// The API contract answers every DELETE with 204; the spec lists 204
		// ("did not exist") and 205 ("has been deleted"). The contract wins,
		// whatever the spec lists.
		return nil
	case !slices.Contains(so.statuses, op.Status):
		return fmt.Errorf("%s answers %d, which the official spec does not list (%v)", key, op.Status, so.statuses)
	}
	return nil
}

func checkExtension(official bool, key string, op rest.Operation) error {
	if official {
		return fmt.Errorf("%s is an operation of the official spec, not an extension", key)
	}
	raw, ok := rest.Extensions[op.OperationID]
	if !ok {
		return fmt.Errorf("%s: %s is not an extension", key, op.OperationID)
	}
	var ext struct {
		Responses map[string]json.RawMessage `json:"responses"`
	}
	if err := json.Unmarshal([]byte(raw), &ext); err != nil {
		return fmt.Errorf("%s: the operation object of %s: %v", key, op.OperationID, err)
	}
	if _, ok := ext.Responses[strconv.Itoa(op.Status)]; !ok {
		return fmt.Errorf("%s answers %d, which its extension does not document", key, op.Status)
	}
	return nil
}

func TestRouteTableMatchesTheSpec(t *testing.T) {
	spec := loadSpecOperations(t)
	ops := rest.Operations()
	require.NotEmpty(t, ops)
	seen := map[string]bool{}
	for _, op := range ops {
		assert.NoError(t, checkOperation(spec, op))
		key := op.Method + " " + op.Path
		assert.False(t, seen[key], "%s has two rows", key)
		seen[key] = true
	}
}

// The check must be able to fail: a row the spec does not have, a wrong
// operationId and an unlisted status are all caught.
func TestRouteTableCheckCatchesMismatches(t *testing.T) {
	spec := loadSpecOperations(t)
	for name, tc := range map[string]struct {
		op   rest.Operation
		fail bool
	}{
		"as the spec says":       {rest.Operation{Method: "GET", Path: "/v1/spaces/{spaceId}", OperationID: "getSpaceById", Status: 200}, false},
		"unknown path":           {rest.Operation{Method: "GET", Path: "/v1/nowhere", OperationID: "getSpaceById", Status: 200}, true},
		"parameter misnamed":     {rest.Operation{Method: "GET", Path: "/v1/spaces/{id}", OperationID: "getSpaceById", Status: 200}, true},
		"unknown method":         {rest.Operation{Method: "PUT", Path: "/v1/spaces/{spaceId}", OperationID: "getSpaceById", Status: 200}, true},
		"wrong operationId":      {rest.Operation{Method: "GET", Path: "/v1/spaces/{spaceId}", OperationID: "getSpace", Status: 200}, true},
		"unlisted status":        {rest.Operation{Method: "POST", Path: "/v1/spaces/{spaceId}/restore", OperationID: "restoreSpace", Status: 201}, true},
		"a DELETE answering 204": {rest.Operation{Method: "DELETE", Path: "/v1/spaces/{spaceId}", OperationID: "deleteSpaceById", Status: 204}, false},
		"a DELETE answering 200": {rest.Operation{Method: "DELETE", Path: "/v1/spaces/{spaceId}", OperationID: "deleteSpaceById", Status: 200}, true},
		"a create answering 200": {rest.Operation{Method: "POST", Path: "/v1/orgs/{organizationId}/spaces", OperationID: "createSpace", Status: 200}, true},
		"an extension": {rest.Operation{Method: "GET", Path: "/v1/orgs/{organizationId}/webhooks",
			OperationID: "listWebhookEndpoints", Status: 200, Extension: true}, false},
		"an extension's undocumented status": {rest.Operation{Method: "GET", Path: "/v1/orgs/{organizationId}/webhooks",
			OperationID: "listWebhookEndpoints", Status: 201, Extension: true}, true},
		"an extension that is not one": {rest.Operation{Method: "GET", Path: "/v1/orgs/{organizationId}/webhooks",
			OperationID: "listWebhooks", Status: 200, Extension: true}, true},
		"an extension hiding an official operation": {rest.Operation{Method: "GET", Path: "/v1/spaces/{spaceId}",
			OperationID: "getWebhookEndpoint", Status: 200, Extension: true}, true},
	} {
		t.Run(name, func(t *testing.T) {
			err := checkOperation(spec, tc.op)
			assert.Equal(t, tc.fail, err != nil, "%v", err)
		})
	}
}

// TestRouteTableScope compares the table with the in-scope operations of
// the API contract and lists those not yet implemented.
func TestRouteTableScope(t *testing.T) {
	f, err := os.Open("testdata/operations.tsv")
	require.NoError(t, err)
	defer f.Close()
	// Parameters compare by position, not name: the list and the spec name
	// some differently.
	param := regexp.MustCompile(`\{[^}]*\}`)
	key := func(method, path string) string { return method + " " + param.ReplaceAllString(path, "{}") }

	implemented := map[string]bool{}
	for _, op := range rest.Operations() {
		implemented[key(op.Method, op.Path)] = true
	}
	var scope, missing []string
	inScope := map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		require.Len(t, cols, 3, "operations.tsv line %d", line+1)
		if line == 0 {
			continue // the header
		}
		op := cols[1] + " " + cols[2]
		scope = append(scope, op)
		inScope[key(cols[1], cols[2])] = true
		if !implemented[key(cols[1], cols[2])] {
			missing = append(missing, op)
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, scope)
	t.Logf("%d of %d in-scope operations are not yet implemented:\n  %s", len(missing), len(scope), strings.Join(missing, "\n  "))

	var beyond, extensions []string
	for _, op := range rest.Operations() {
		if op.Extension {
			// Bindery's own: beyond the contract and the official spec.
			require.False(t, inScope[key(op.Method, op.Path)], "%s %s is in the contract's scope, not an extension", op.Method, op.Path)
			extensions = append(extensions, op.Method+" "+op.Path)
			continue
		}
		if !inScope[key(op.Method, op.Path)] {
			beyond = append(beyond, op.Method+" "+op.Path)
		}
	}
	t.Logf("%d implemented operations are beyond that list:\n  %s", len(beyond), strings.Join(beyond, "\n  "))
	t.Logf("%d operations are Bindery's own extensions:\n  %s", len(extensions), strings.Join(extensions, "\n  "))
	// Every extension has a row, and every row that names one is marked.
	rows := map[string]bool{}
	for _, op := range rest.Operations() {
		rows[op.OperationID] = true
		_, ext := rest.Extensions[op.OperationID]
		assert.Equal(t, ext, op.Extension, "%s %s", op.Method, op.Path)
	}
	for id := range rest.Extensions {
		assert.True(t, rows[id], "the extension %s has no row in the route table", id)
	}
}
