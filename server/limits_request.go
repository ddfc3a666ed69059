package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/validate"
)

// The checks of a /graphql request before gqlgen decodes it. gqlgen's
// transports decode with encoding/json, which rewrites invalid UTF-8 to
// U+FFFD, and answer a body they cannot decode with Go's own words
// ("json: cannot unmarshal array into Go value of type
// transport.RawParams") followed by the whole body. So the raw request is
// checked here, with the text check /v1 uses (validate.JSON), and a fault is
// answered in the GraphQL error envelope, with a code and the field.

// checkGraphQLBody reads a JSON body, at most GraphQLMaxBodyBytes, checks
// it, and puts it back for gqlgen.
func (s *Server) checkGraphQLBody(w http.ResponseWriter, r *http.Request) error {
	limit := s.cfg.GraphQLMaxBodyBytes
	if r.ContentLength > limit {
		return bodyTooLarge(limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return bodyTooLarge(limit)
		}
		return apperr.Invalid("", "The request body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return checkGraphQLParams(body)
}

func bodyTooLarge(limit int64) error {
	return apperr.TooLargef("The request body is larger than %d bytes", limit)
}

// checkGraphQLOperations checks the operations part of a GraphQL multipart
// request, its first part, which holds the JSON parameters. The parts read
// to find it are kept and put back in front of the rest of the body, so
// that gqlgen reads the request from its start; the files that follow are
// not read here, and keep their own limit (MaxUploadBytes).
func (s *Server) checkGraphQLOperations(_ http.ResponseWriter, r *http.Request) error {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return nil // gqlgen answers a malformed multipart request
	}
	var seen bytes.Buffer
	body := r.Body
	defer func() { r.Body = readCloser{io.MultiReader(&seen, body), body} }()
	part, err := multipart.NewReader(io.TeeReader(body, &seen), params["boundary"]).NextPart()
	if err != nil || part.FormName() != "operations" {
		return nil // gqlgen answers that the first part must be operations
	}
	limit := s.cfg.GraphQLMaxBodyBytes
	ops, err := io.ReadAll(io.LimitReader(part, limit+1))
	switch {
	case err != nil:
		return apperr.Invalid("operations", "could not be read")
	case int64(len(ops)) > limit:
		return apperr.TooLargef("The operations part is larger than %d bytes", limit)
	}
	return checkGraphQLParams(ops)
}

type readCloser struct {
	io.Reader
	io.Closer
}

// checkGraphQLQueryString checks the parameters of a GET: the whole query
// string is at most GraphQLMaxBodyBytes, every name and value is text, and
// variables and extensions are JSON objects of text.
func (s *Server) checkGraphQLQueryString(r *http.Request) error {
	if limit := s.cfg.GraphQLMaxBodyBytes; int64(len(r.URL.RawQuery)) > limit {
		return apperr.TooLargef("The query string is longer than %d bytes; send large documents with POST", limit)
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return apperr.Invalid("", "The query string is malformed: %s", unwrapURLError(err))
	}
	if err := checkQueryText(q); err != nil {
		return err
	}
	for _, name := range []string{"variables", "extensions"} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		if err := textError(name, validate.JSON([]byte(v))); err != nil {
			return err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			return apperr.Invalid(name, "must be a JSON object or null")
		}
	}
	return nil
}

// checkQueryText checks that every query parameter, name and value, is
// text, as /v1 does (see rest.checkText).
func checkQueryText(q url.Values) error {
	name, err := validate.Values(q)
	switch {
	case err == nil:
		return nil
	case name == "":
		return apperr.Invalid("", "A query parameter name %s", err.Error())
	}
	return apperr.Invalid(name, "%s", err.Error())
}

func unwrapURLError(err error) string {
	if u := errors.Unwrap(err); u != nil {
		return u.Error()
	}
	return err.Error()
}

// checkGraphQLParams checks the JSON parameters of a request, the body of a
// POST or the operations of a multipart request: every string is text, the
// document is one object (a JSON array, a batch, is not supported), and
// each known member has the type the GraphQL-over-HTTP spec gives it.
// Unknown members are left alone, as the spec allows.
func checkGraphQLParams(raw []byte) error {
	if err := textError("", validate.JSON(raw)); err != nil {
		return err
	}
	// A struct, not a map: decoding the members into a map allocated a key
	// and a value for each, on every GraphQL request. encoding/json matches
	// a struct's members without regard to case, as gqlgen's transport
	// decodes them after this check.
	var members struct {
		Query         json.RawMessage `json:"query"`
		OperationName json.RawMessage `json:"operationName"`
		Variables     json.RawMessage `json:"variables"`
		Extensions    json.RawMessage `json:"extensions"`
	}
	trimmed := bytes.TrimSpace(raw)
	if err := json.Unmarshal(raw, &members); err != nil || len(trimmed) == 0 || trimmed[0] != '{' {
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			return apperr.Invalid("", "The request body is not valid JSON: %s (at byte %d)", syntax.Error(), syntax.Offset)
		case len(trimmed) > 0 && trimmed[0] == '[':
			return apperr.Invalid("", "Batched requests are not supported: send one operation per request, as a JSON object")
		default:
			return apperr.Invalid("", "The request body must be a JSON object with a query")
		}
	}
	for _, m := range []struct {
		name  string
		value json.RawMessage
		want  byte
	}{
		{"query", members.Query, '"'},
		{"operationName", members.OperationName, '"'},
		{"variables", members.Variables, '{'},
		{"extensions", members.Extensions, '{'},
	} {
		v := bytes.TrimSpace(m.value)
		if len(v) > 0 && v[0] != m.want && (m.name == "query" || string(v) != "null") {
			what := "a string"
			if m.want == '{' {
				what = "a JSON object"
			}
			if m.name != "query" {
				what += " or null"
			}
			return apperr.Invalid(m.name, "must be %s", what)
		}
	}
	return nil
}

// textError turns a text problem of a JSON document into an InvalidArgument
// of the member, its path prefixed with the document's name.
func textError(doc string, err error) error {
	var te *validate.TextError
	if !errors.As(err, &te) {
		return err
	}
	field := te.Path
	if doc != "" {
		field = doc + prefixPath(te.Path)
	}
	if field == "" {
		return apperr.Invalid("", "The request body: %s", te.Problem())
	}
	return apperr.Invalid(field, "%s", te.Problem())
}

func prefixPath(p string) string {
	if p == "" || p[0] == '[' {
		return p
	}
	return "." + p
}
