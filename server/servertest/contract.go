package servertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bindery/bindery/rest"
)

var (
	contractOnce    sync.Once
	contractSchemas map[string]*openapi3.Schema
)

// contractSchema returns the contract's schema of an operation's success,
// or nil when the official spec's holds.
func contractSchema(operationID string) *openapi3.Schema {
	contractOnce.Do(func() {
		contractSchemas = map[string]*openapi3.Schema{}
		for op, raw := range rest.ContractResponses {
			s := &openapi3.Schema{}
			if err := json.Unmarshal([]byte(raw), s); err != nil {
				panic(fmt.Sprintf("servertest: the contract shape of %s: %v", op, err))
			}
			contractSchemas[op] = s
		}
	})
	return contractSchemas[operationID]
}

// checkContract validates a success against the contract's shape.
func checkContract(t testing.TB, req *http.Request, res *Response, s *openapi3.Schema) {
	t.Helper()
	var v any
	if err := jsonUnmarshal(res.Body, &v); err != nil {
		t.Errorf("%s %s -> %d: body is not JSON: %s", req.Method, req.URL.Path, res.Status, res.Body)
		return
	}
	if err := s.VisitJSON(v, openapi3.EnableFormatValidation()); err != nil {
		t.Errorf("%s %s -> %d does not match the API contract's shape: %v\nbody: %s", req.Method, req.URL.Path, res.Status,
			trim(err.Error()), trim(string(res.Body)))
	}
}
