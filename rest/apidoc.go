package rest

import (
	_ "embed"
	"net/http"
	"strconv"
)

// openAPIDocument is Bindery's own OpenAPI document of /v1, generated from
// the route table by rest/internal/openapigen (go generate).
//
//go:embed openapi.json
var openAPIDocument []byte

// ServeOpenAPI answers GET /v1/openapi.json. The document describes the
// API, not anyone's data: it is served without a token, like the official
// one, and may be cached.
func ServeOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("Content-Length", strconv.Itoa(len(openAPIDocument)))
	_, _ = w.Write(openAPIDocument)
}
