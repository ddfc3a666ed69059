package servertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// specFile is the official OpenAPI document of the GitBook API that /v1 must
// conform to, vendored from the API contract's reference.
const specFile = "rest/testdata/gitbook-openapi-0.143.2.json"

var (
	specOnce   sync.Once
	specRouter routers.Router
	specDoc    *openapi3.T
	specErr    error
)

// RepoPath returns the absolute path of a file of the repository.
func RepoPath(rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", rel)
}

func loadSpec() (routers.Router, *openapi3.T, error) {
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(RepoPath(specFile))
		if err != nil {
			specErr = fmt.Errorf("loading the official spec: %w", err)
			return
		}
		// Route on paths alone, whatever host the test server has.
		doc.Servers = openapi3.Servers{{URL: "/v1"}}
		specDoc = doc
		specRouter, specErr = legacy.NewRouter(doc)
	})
	return specRouter, specDoc, specErr
}

// Spec returns the official OpenAPI document of the GitBook API, for tests
// that walk its operations rather than validate one response.
func Spec(t testing.TB) *openapi3.T {
	t.Helper()
	_, doc, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// binderyFile is Bindery's own OpenAPI document of /v1, which
// rest/internal/openapigen writes from the route table: the operations of
// Bindery's extensions (rest.Extensions) are validated against it.
const binderyFile = "rest/openapi.json"

var (
	binderyOnce   sync.Once
	binderyRouter routers.Router
	binderyDoc    *openapi3.T
	binderyErr    error
)

func loadBindery() (routers.Router, *openapi3.T, error) {
	binderyOnce.Do(func() {
		doc, err := openapi3.NewLoader().LoadFromFile(RepoPath(binderyFile))
		if err != nil {
			binderyErr = fmt.Errorf("loading Bindery's OpenAPI document: %w", err)
			return
		}
		doc.Servers = openapi3.Servers{{URL: "/v1"}}
		binderyDoc = doc
		binderyRouter, binderyErr = legacy.NewRouter(doc)
	})
	return binderyRouter, binderyDoc, binderyErr
}

// BinderySpec returns Bindery's own OpenAPI document (rest/openapi.json):
// the official operations as Bindery serves them, and its extensions.
func BinderySpec(t testing.TB) *openapi3.T {
	t.Helper()
	_, doc, err := loadBindery()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// CheckSpec validates a /v1 response against the official spec's schema for
// its operation and status, or, for an operation of Bindery's extensions,
// against Bindery's own document. An error response the operation does not
// declare is checked against the spec's generic Error envelope.
func CheckSpec(t testing.TB, req *http.Request, res *Response) {
	t.Helper()
	router, doc, err := loadSpec()
	if err != nil {
		t.Fatal(err)
		return
	}
	r := req.Clone(context.Background())
	r.URL.Host, r.URL.Scheme, r.Host = "", "", ""
	own, _, err := loadBindery()
	if err != nil {
		t.Fatal(err)
		return
	}
	if route, params, err := own.FindRoute(r); err == nil && route.Operation.Extensions["x-bindery-extension"] == true {
		checkRoute(t, req, r, res, route, params, doc)
		return
	}
	route, params, err := router.FindRoute(r)
	if err != nil {
		t.Fatalf("%s %s is not an operation of the official spec: %v", req.Method, req.URL.Path, err)
		return
	}
	if c := contractSchema(route.Operation.OperationID); c != nil && res.Status < 300 && res.Status != http.StatusNoContent {
		checkContract(t, req, res, c)
		return
	}
	checkRoute(t, req, r, res, route, params, doc)
}

// CheckBinderySpec validates a /v1 response against Bindery's own document
// (rest/openapi.json) alone: for an official operation whose answer holds
// one of Bindery's additions to an official schema (rest.SchemaExtensions,
// such as a redirect to a url), which the official spec cannot describe.
func CheckBinderySpec(t testing.TB, req *http.Request, res *Response) {
	t.Helper()
	_, official, err := loadSpec()
	if err != nil {
		t.Fatal(err)
		return
	}
	own, _, err := loadBindery()
	if err != nil {
		t.Fatal(err)
		return
	}
	r := req.Clone(context.Background())
	r.URL.Host, r.URL.Scheme, r.Host = "", "", ""
	route, params, err := own.FindRoute(r)
	if err != nil {
		t.Fatalf("%s %s is not an operation of Bindery's document: %v", req.Method, req.URL.Path, err)
		return
	}
	checkRoute(t, req, r, res, route, params, official)
}

// checkRoute validates a response against its route's operation; an error
// the operation does not declare, against the official Error envelope.
func checkRoute(t testing.TB, req, r *http.Request, res *Response, route *routers.Route, params map[string]string, doc *openapi3.T) {
	t.Helper()
	if res.Status == http.StatusNoContent {
		if len(res.Body) != 0 {
			t.Errorf("%s %s: 204 with a body: %s", req.Method, req.URL.Path, res.Body)
		}
		return
	}
	declared := route.Operation.Responses.Status(res.Status)
	if declared == nil && res.Status >= 400 {
		checkSchema(t, req, res, doc.Components.Schemas["Error"].Value)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: r, PathParams: params, Route: route,
			Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		},
		Status:  res.Status,
		Header:  res.Header,
		Body:    io.NopCloser(bytes.NewReader(res.Body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s -> %d does not match %s:\n%s\nbody: %s", req.Method, req.URL.Path,
			res.Status, route.Spec.Info.Title, trim(err.Error()), trim(string(res.Body)))
	}
}

func checkSchema(t testing.TB, req *http.Request, res *Response, schema *openapi3.Schema) {
	t.Helper()
	var v any
	if err := jsonUnmarshal(res.Body, &v); err != nil {
		t.Errorf("%s %s -> %d: body is not JSON: %s", req.Method, req.URL.Path, res.Status, res.Body)
		return
	}
	if err := schema.VisitJSON(v); err != nil {
		t.Errorf("%s %s -> %d does not match the spec's Error envelope: %v\nbody: %s", req.Method, req.URL.Path, res.Status, err, res.Body)
	}
}

func trim(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return strings.TrimSpace(s)
}
