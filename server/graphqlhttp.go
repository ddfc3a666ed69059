package server

import (
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/logctx"
)

// This file holds the GraphQL-over-HTTP rules (https://graphql.github.io/graphql-over-http/draft/)
// that gqlgen's transports leave to the server. They were found by
// graphql-http's audit suite and the checks in e2e/.

// Media types of a /graphql response.
const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// graphqlResponseType picks the media type of a /graphql response from the
// Accept header. The spec ("Accept") says the server MUST respect Accept,
// and SHOULD treat a request without one as accepting application/json.
// This is the rule gqlgen's transports apply, repeated here so that errors
// raised before gqlgen runs (401, 429, 405, 415) are encoded like every
// other response: the first supported type listed wins, */* and
// application/* mean application/json, and a list with no supported type
// gets application/graphql-response+json.
func graphqlResponseType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return mediaJSON
	}
	for _, part := range strings.Split(accept, ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "*/*", "application/*", mediaJSON:
			return mediaJSON
		case mediaGraphQLResponse:
			return mediaGraphQLResponse
		}
	}
	return mediaGraphQLResponse
}

// writeGraphQLError answers a /graphql request with one error, in the media
// type the client accepts. There is no data entry: the GraphQL spec
// ("Response") says it is absent when an error is raised before execution.
func writeGraphQLError(w http.ResponseWriter, r *http.Request, status int, gerr *gqlerror.Error) {
	w.Header().Set("Content-Type", graphqlResponseType(r)+"; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": gqlerror.List{gerr}})
}

// graphqlHTTP refuses, before gqlgen sees them, the requests the
// GraphQL-over-HTTP spec wants refused with a particular status. gqlgen
// answers all three with other codes: 400 "transport not supported" in
// text/plain for the first two, 406 Not Acceptable for the third.
//   - A method other than GET, POST and OPTIONS: 405 with Allow (RFC 9110,
//     15.5.6). The spec requires POST and allows GET.
//   - A POST whose body is neither application/json nor a GraphQL multipart
//     request (multipart/form-data, for uploads): 415 Unsupported Media
//     Type. The spec ("POST"): a POST without a Content-Type SHOULD be
//     rejected with the appropriate 4xx code, and application/json is the
//     type every server MUST accept. Multipart needs no CSRF guard here:
//     requests authenticate with a bearer token, never a cookie.
//   - A GET whose operation is a mutation (or subscription): 405 with
//     Allow: POST. The spec ("GET"): GET MUST NOT be used for mutations; the
//     server MUST respond with 405 Method Not Allowed and halt execution.
//
// It also checks the request itself, which gqlgen decodes leniently (see
// checkGraphQLParams): its size, the text of every string it carries, and
// the shape of its parameters.
func (s *Server) graphqlHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodOptions:
		case http.MethodPost:
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || (mt != mediaJSON && mt != "multipart/form-data") {
				writeGraphQLError(w, r, http.StatusUnsupportedMediaType, badRequest(
					"The request body must be JSON: send Content-Type: application/json, or multipart/form-data for uploads"))
				return
			}
			check := s.checkGraphQLBody
			if mt != mediaJSON {
				check = s.checkGraphQLOperations
			}
			if err := check(w, r); err != nil {
				s.writeGraphQLAppError(w, r, err)
				return
			}
		case http.MethodGet:
			if err := s.checkGraphQLQueryString(r); err != nil {
				s.writeGraphQLAppError(w, r, err)
				return
			}
			if op := getOperation(r, s.cfg.GraphQLTokenLimit); op != "" && op != ast.Query {
				w.Header().Set("Allow", http.MethodPost)
				writeGraphQLError(w, r, http.StatusMethodNotAllowed, badRequest(
					"GET requests can only run queries; send a "+string(op)+" with POST"))
				return
			}
		default:
			w.Header().Set("Allow", "GET, POST, OPTIONS")
			writeGraphQLError(w, r, http.StatusMethodNotAllowed, badRequest(
				"Method "+r.Method+" is not allowed: use POST, or GET for queries"))
			return
		}
		if isSubscription(r) {
			// A stream, which the rewriting of errors must not buffer.
			next.ServeHTTP(w, r)
			return
		}
		rw := &requestErrorWriter{ResponseWriter: w}
		next.ServeHTTP(rw, r)
		rw.finish()
	})
}

// requestErrorWriter fixes how gqlgen answers a request it refuses before
// executing it, which it does with 422 or 400 and "data": null whatever the
// media type:
//   - A GraphQL request error (a document that does not parse or validate,
//     variables that do not coerce; its errors carry locations or a path;
//     or a document over a limit, see documentLimitCodes):
//     in application/json the spec ("application/json") says the server
//     SHOULD answer 200, as for any well-formed GraphQL response; in
//     application/graphql-response+json it SHOULD answer 400.
//   - Invalid request parameters (no query at all): 400 in both.
//   - In application/graphql-response+json nothing was executed, so the
//     response has no data entry.
//
// Such responses are small, so they are buffered and rewritten; every other
// response passes through untouched.
type requestErrorWriter struct {
	http.ResponseWriter
	buffering bool
	buf       []byte
}

func (w *requestErrorWriter) WriteHeader(status int) {
	if status == http.StatusUnprocessableEntity || status == http.StatusBadRequest {
		w.buffering = true
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *requestErrorWriter) Write(b []byte) (int, error) {
	if w.buffering {
		w.buf = append(w.buf, b...)
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *requestErrorWriter) finish() {
	if !w.buffering {
		return
	}
	var resp struct {
		Errors []struct {
			Locations  json.RawMessage `json:"locations"`
			Path       json.RawMessage `json:"path"`
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	_ = json.Unmarshal(w.buf, &resp)
	requestError := false
	for _, e := range resp.Errors {
		requestError = requestError || len(e.Locations) > 0 || len(e.Path) > 0 || documentLimitCodes[e.Extensions.Code]
	}
	mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
	status, body := http.StatusBadRequest, w.buf
	switch {
	case mt == mediaJSON && requestError:
		status = http.StatusOK
	case mt == mediaGraphQLResponse:
		var all map[string]json.RawMessage
		if json.Unmarshal(body, &all) == nil && string(all["data"]) == "null" {
			delete(all, "data")
			if b, err := json.Marshal(all); err == nil {
				body = b
			}
		}
	}
	w.Header().Del("Content-Length")
	w.ResponseWriter.WriteHeader(status)
	_, _ = w.ResponseWriter.Write(body)
}

// getOperation returns the type of the operation a GET request selects, or ""
// when the document does not parse, is over the token limit, or does not
// select one: gqlgen then reports the problem as a GraphQL request error.
func getOperation(r *http.Request, tokenLimit int) ast.Operation {
	q := r.URL.Query()
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q.Get("query")}, tokenLimit)
	if err != nil {
		return ""
	}
	name := q.Get("operationName")
	if name == "" {
		if len(doc.Operations) != 1 {
			return ""
		}
		return doc.Operations[0].Operation
	}
	if op := doc.Operations.ForName(name); op != nil {
		return op.Operation
	}
	return ""
}

// badRequest is a request error with the code of an invalid argument.
func badRequest(msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": apperr.InvalidArgument.Code()}}
}

// appGraphQLError is an application error as a GraphQL error: its kind's
// code, and the field it is about.
func appGraphQLError(err error) *gqlerror.Error {
	ae := apperr.From(err)
	gerr := &gqlerror.Error{Message: ae.Message, Extensions: map[string]any{"code": ae.Kind.Code()}}
	if ae.Field != "" {
		gerr.Extensions["field"] = ae.Field
	}
	return gerr
}

// writeGraphQLAppError answers a /graphql request refused before gqlgen ran
// with an application error, with its kind's status. A server fault is
// logged with the request ID.
func (s *Server) writeGraphQLAppError(w http.ResponseWriter, r *http.Request, err error) {
	ae := apperr.FromContext(r.Context(), err)
	if ae.Kind == apperr.Internal {
		logctx.From(r.Context(), s.log).Error("internal error", "error", err.Error())
	}
	writeGraphQLError(w, r, ae.Kind.HTTPStatus(), appGraphQLError(ae))
}
