package server_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

// boundaryCase is one request at the edge of /graphql and what it must get:
// the status, the error's extensions.code, and the field it names (in
// extensions.field and the message), or a part of the message.
type boundaryCase struct {
	name        string
	method      string // POST unless set
	rawQuery    string // the URL's query string
	contentType string // application/json unless set
	body        string
	wantStatus  int
	wantCode    string
	wantField   string
	wantMessage string
}

// jsonBody encodes a request body: the query and the variables.
func jsonBody(query string, vars map[string]any) string {
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return string(b)
}

// multipartBody is a GraphQL multipart request whose operations part is ops,
// with one file for the variable "file".
func multipartBody(ops string) (contentType, body string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("operations", ops)
	_ = mw.WriteField("map", `{"0":["variables.file"]}`)
	w, _ := mw.CreateFormFile("0", "a.txt")
	_, _ = w.Write([]byte("hello"))
	_ = mw.Close()
	return mw.FormDataContentType(), buf.String()
}

// cursor encodes a cursor as Bindery does, from its JSON.
func cursor(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }

func (c boundaryCase) run(t *testing.T, e *servertest.Env) {
	t.Helper()
	method := c.method
	if method == "" {
		method = http.MethodPost
	}
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	u := e.HTTP.URL + "/graphql"
	if c.rawQuery != "" {
		u += "?" + c.rawQuery
	}
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	if method == http.MethodPost {
		ct := c.contentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Authorization", "Bearer "+e.OwnerToken)
	res, err := e.HTTP.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, c.wantStatus, res.StatusCode, "body: %.500s", raw)
	var out struct {
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(raw, &out), "%.500s", raw)
	require.Len(t, out.Errors, 1, "%.500s", raw)
	got := out.Errors[0]
	assert.Equal(t, c.wantCode, got.Extensions["code"], got.Message)
	if c.wantField != "" {
		assert.Equal(t, c.wantField, got.Extensions["field"], got.Message)
		assert.True(t, strings.HasPrefix(got.Message, c.wantField+": "), "the message names the field: %s", got.Message)
	}
	assert.Contains(t, got.Message, c.wantMessage)
	// Nothing of Go's decoder, nor the request body, reaches the client.
	for _, leak := range []string{"Go value", "Go struct", "RawParams", "map[string]", "interface {}", "json: ", "body:"} {
		assert.NotContains(t, got.Message, leak)
	}
}

// Every string of a GraphQL request is text: valid UTF-8 without NUL,
// wherever it is, named in the error, and never a 500 or a silent U+FFFD.
func TestGraphQLRefusesNonText(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	create := "mutation($t: String) { createCollection(input: {organizationId: \"" + e.Org.ID + "\", title: $t}) { collection { id } } }"
	literal := func(title string) string {
		return jsonBody("mutation { createCollection(input: {organizationId: \""+e.Org.ID+"\", title: \""+title+"\"}) { collection { id } } }", nil)
	}
	multipartCT, multipartNUL := multipartBody(`{"query":"mutation($file: Upload!) { __typename }","variables":{"file":null,"name":"a\u0000"}}`)
	for _, c := range []boundaryCase{
		{name: "NUL in a variable", body: jsonBody(create, map[string]any{"t": "a\x00b"}),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables.t", wantMessage: "NUL"},
		{name: "NUL deep in a variable", body: jsonBody("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", map[string]any{"ids": []string{"a", "b\x00"}}),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables.ids[1]", wantMessage: "NUL"},
		{name: "invalid UTF-8 in a variable", body: "{\"query\":\"" + strings.ReplaceAll(create, `"`, `\"`) + "\",\"variables\":{\"t\":\"a\xffb\"}}",
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables.t", wantMessage: "UTF-8"},
		{name: "a lone surrogate in a variable", body: `{"query":"{ viewer { id } }","variables":{"t":"\ud800"}}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables.t", wantMessage: "surrogate"},
		{name: "NUL in a variable's name", body: `{"query":"{ viewer { id } }","variables":{"a\u0000":"x"}}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables", wantMessage: "a member name"},
		{name: "invalid UTF-8 in the document", body: "{\"query\":\"{ viewer { id } } # \xff\"}",
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "query", wantMessage: "UTF-8"},
		{name: "NUL in operationName", body: `{"query":"query Q { viewer { id } }","operationName":"Q\u0000"}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "operationName", wantMessage: "NUL"},
		{name: "NUL escaped in a string literal", body: literal(`a\u0000b`),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "createCollection.input.title", wantMessage: "NUL"},
		{name: "a surrogate escaped in a string literal", body: literal(`\ud83d\udc4d`),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "createCollection.input.title", wantMessage: "surrogate"},
		{name: "NUL in an argument of a nested field", body: jsonBody(`{ viewer @skip(if: false) { id } __type(name: "a\u0000") { name } }`, nil),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "__type.name", wantMessage: "NUL"},
		{name: "NUL in a variable's default", body: jsonBody(`query($t: String = "a\u0000") { viewer { id } }`, nil),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "$t", wantMessage: "NUL"},
		{name: "GET: NUL in the variables", method: http.MethodGet,
			rawQuery:   "query=" + url.QueryEscape(`query($t: String) { viewer { id } }`) + "&variables=" + url.QueryEscape(`{"t":"\u0000"}`),
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables.t", wantMessage: "NUL"},
		{name: "GET: invalid UTF-8 in the document", method: http.MethodGet, rawQuery: "query=%7Bviewer%7Bid%7D%7D%23%FF",
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "query", wantMessage: "UTF-8"},
		{name: "GET: NUL in a parameter's name", method: http.MethodGet, rawQuery: "query=%7Bviewer%7Bid%7D%7D&a%00=1",
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "query parameter name"},
		{name: "multipart: NUL in the operations", contentType: multipartCT, body: multipartNUL,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables.name", wantMessage: "NUL"},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, e) })
	}
	n, err := e.Client.Collection.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "no refused mutation ran")

	// Text that is text passes: characters, escaped pairs in JSON, tabs.
	ok := e.GraphQL(e.OwnerToken, create, map[string]any{"t": "héllo 👍\tdone"})
	require.Empty(t, ok.Errors)
	ok = e.GraphQL(e.OwnerToken, "mutation { createCollection(input: {organizationId: \""+e.Org.ID+"\", title: \"\\u00e9 \\\\ud800\"}) { collection { title } } }", nil)
	require.Empty(t, ok.Errors, "an escaped backslash before ud800 is not an escape")
	assert.Contains(t, string(ok.Data), `é \\ud800`)
}

// A request that is not one GraphQL request is refused in the GraphQL error
// envelope, with a code and a message of our own.
func TestGraphQLRequestShape(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ct, badOps := multipartBody(`{"query": 1}`)
	for _, c := range []boundaryCase{
		{name: "a batch", body: `[{"query":"{ viewer { id } }"},{"query":"{ viewer { id } }"}]`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "Batched requests are not supported"},
		{name: "a null body", body: `null`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "must be a JSON object with a query"},
		{name: "a string for a body", body: `"{ viewer { id } }"`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "must be a JSON object with a query"},
		{name: "query of the wrong type", body: `{"query": 1}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "query", wantMessage: "must be a string"},
		{name: "variables of the wrong type", body: `{"query":"{ viewer { id } }","variables": "x"}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables", wantMessage: "must be a JSON object"},
		{name: "operationName of the wrong type", body: `{"query":"{ viewer { id } }","operationName": ["Q"]}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "operationName", wantMessage: "must be a string"},
		{name: "extensions of the wrong type", body: `{"query":"{ viewer { id } }","extensions": 7}`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "extensions", wantMessage: "must be a JSON object"},
		{name: "malformed JSON", body: `{"query": "{ viewer { id } }"`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "not valid JSON"},
		{name: "not an object", body: `"{ viewer { id } }"`,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "must be a JSON object"},
		{name: "GET: variables of the wrong type", method: http.MethodGet, rawQuery: "query=%7Bviewer%7Bid%7D%7D&variables=%22x%22",
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "variables", wantMessage: "must be a JSON object"},
		{name: "GET: a malformed query string", method: http.MethodGet, rawQuery: "query=%7Bviewer%7Bid%7D%7D&x=%zz",
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantMessage: "query string is malformed"},
		{name: "multipart: operations of the wrong type", contentType: ct, body: badOps,
			wantStatus: 400, wantCode: "BAD_USER_INPUT", wantField: "query", wantMessage: "must be a string"},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, e) })
	}
	// null is a value every optional parameter may have.
	ok := e.Do(http.MethodPost, "/graphql", e.OwnerToken, `{"query":"{ viewer { id } }","variables":null,"operationName":null,"extensions":null}`)
	assert.Equal(t, http.StatusOK, ok.Status, string(ok.Body))
}

// Documents over the limits are refused before validation, so their cost
// stays that of parsing: a field that does not exist, which validation
// would report, is not reported, and the refusal takes milliseconds (see
// BenchmarkRefusedDocuments for the times).
func TestGraphQLDocumentLimits(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	var aliases, chain, merged strings.Builder
	for i := range 101 {
		fmt.Fprintf(&aliases, "a%d: viewer { id } ", i)
	}
	chain.WriteString("{ viewer { ...f0 } }")
	for i := range 200 {
		fmt.Fprintf(&chain, " fragment f%d on User { ...f%d }", i, i+1)
	}
	chain.WriteString(" fragment f200 on User { id }")
	for i := range 30 {
		fmt.Fprintf(&merged, "... on User { organizations { nodes { id id } } } # %d\n", i)
	}
	for _, c := range []boundaryCase{
		{name: "8,000 fields", body: jsonBody("{ viewer { "+strings.Repeat("id ", 8000)+"} }", nil),
			wantStatus: 200, wantCode: "FIELD_LIMIT_EXCEEDED", wantMessage: "8001 fields; the limit is 1000"},
		{name: "8,000 unknown fields", body: jsonBody("{ "+strings.Repeat("a ", 8000)+"}", nil),
			wantStatus: 200, wantCode: "FIELD_LIMIT_EXCEEDED", wantMessage: "8000 fields"},
		{name: "one field asked for 51 times", body: jsonBody("{ viewer { "+strings.Repeat("id ", 51)+"} }", nil),
			wantStatus: 200, wantCode: "FIELD_LIMIT_EXCEEDED", wantMessage: `"id" more than 50 times`},
		{name: "selection sets that merge past the limit", body: jsonBody("{ viewer { "+merged.String()+"} }", nil),
			wantStatus: 200, wantCode: "FIELD_LIMIT_EXCEEDED", wantMessage: "more than 50 times"},
		{name: "an alias bomb", body: jsonBody("{ "+aliases.String()+"}", nil),
			wantStatus: 200, wantCode: "ALIAS_LIMIT_EXCEEDED", wantMessage: "101 aliased fields; the limit is 100"},
		{name: "a chain of fragments", body: jsonBody(chain.String(), nil),
			wantStatus: 200, wantCode: "FIELD_LIMIT_EXCEEDED", wantMessage: "through its fragments"},
		{name: "too many tokens", body: jsonBody("{ viewer { id "+strings.Repeat("@skip(if: false) ", 4000)+"} }", nil),
			wantStatus: 200, wantCode: "TOKEN_LIMIT_EXCEEDED", wantMessage: "more than 15000 tokens"},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, e) })
	}

	// In application/graphql-response+json a refused document is a 400
	// without data, as validation errors are.
	res, body := graphqlRequest(t, e, http.MethodPost, "", "application/json", "application/graphql-response+json",
		e.OwnerToken, jsonBody("{ "+strings.Repeat("a ", 8000)+"}", nil))
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.NotContains(t, body, "data")

	// What real clients send passes: GraphiQL's introspection query, and
	// fragments of one type spread side by side, each with id and
	// __typename, as Apollo and Relay write them.
	intro := e.GraphQL(e.OwnerToken, introspectionQuery, nil)
	assert.Empty(t, intro.Errors)
	var spread, frags strings.Builder
	for i := range 40 {
		fmt.Fprintf(&spread, "...F%d ", i)
		fmt.Fprintf(&frags, " fragment F%d on User { __typename id displayName }", i)
	}
	relay := e.GraphQL(e.OwnerToken, "{ viewer { "+spread.String()+"} }"+frags.String(), nil)
	assert.Empty(t, relay.Errors)

	// The limits are settings.
	loose := servertest.New(t, func(c *config.Config) { c.GraphQLAliasLimit = 200 })
	assert.Empty(t, loose.GraphQL(loose.OwnerToken, "{ "+aliases.String()+"}", nil).Errors)
}

// introspectionQuery is GraphiQL's.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

// A body over the limit is a 413 in the GraphQL envelope; one just under it
// is served, and holds a page's largest markdown.
func TestGraphQLBodyLimit(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	limit := int(e.Config.GraphQLMaxBodyBytes)
	query := `query($x: String) { viewer { id } }`
	pad := func(n int) string {
		b := jsonBody(query, map[string]any{"x": ""})
		return jsonBody(query, map[string]any{"x": strings.Repeat("a", n-len(b))})
	}
	boundaryCase{name: "over", body: pad(limit + 1), wantStatus: http.StatusRequestEntityTooLarge,
		wantCode: "REQUEST_TOO_LARGE", wantMessage: fmt.Sprintf("larger than %d bytes", limit)}.run(t, e)
	res := e.Do(http.MethodPost, "/graphql", e.OwnerToken, pad(limit))
	assert.Equal(t, http.StatusOK, res.Status)

	markdown := strings.Repeat("# A title\n\nA \"quoted\" line.\n", (1<<20)/29)
	res = e.Do(http.MethodPost, "/graphql", e.OwnerToken, jsonBody(query, map[string]any{"x": markdown}))
	assert.Equal(t, http.StatusOK, res.Status, "1 MiB of markdown, escaped, fits the default")

	small := servertest.New(t, func(c *config.Config) { c.GraphQLMaxBodyBytes = 256 })
	boundaryCase{name: "GET", method: http.MethodGet, rawQuery: "query=" + strings.Repeat("a", 257),
		wantStatus: http.StatusRequestEntityTooLarge, wantCode: "REQUEST_TOO_LARGE", wantMessage: "send large documents with POST"}.run(t, small)
	boundaryCase{name: "a smaller setting", body: jsonBody("{ viewer { id } }", map[string]any{"x": strings.Repeat("a", 256)}),
		wantStatus: http.StatusRequestEntityTooLarge, wantCode: "REQUEST_TOO_LARGE"}.run(t, small)
	// Uploads keep their own limit: a file larger than the JSON limit.
	space := small.GraphQL(small.OwnerToken, `mutation($o: ID!) { createSpace(input: {organizationId: $o, editMode: LIVE}) { space { id } } }`,
		map[string]any{"o": small.Org.ID})
	var created struct {
		CreateSpace struct{ Space struct{ ID string } }
	}
	space.Into(t, &created)
	up := small.Upload(small.OwnerToken, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { size } } }`,
		map[string]any{"in": map[string]any{"spaceId": created.CreateSpace.Space.ID, "file": nil}}, "in.file", "a.txt",
		"text/plain", bytes.Repeat([]byte("a"), 1000))
	assert.Empty(t, up.Errors)
	assert.Contains(t, string(up.Data), `"size":1000`)
}

// One operation runs at most GraphQLMutationLimit root mutations; over it,
// none runs.
func TestGraphQLMutationLimit(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.GraphQLMutationLimit = 3 })
	mutations := func(n int) string {
		var b strings.Builder
		b.WriteString("mutation { ")
		for i := range n {
			fmt.Fprintf(&b, "m%d: createCollection(input: {organizationId: %q, title: \"C%d\"}) { collection { id } } ", i, e.Org.ID, i)
		}
		return b.String() + "}"
	}
	boundaryCase{name: "over", body: jsonBody(mutations(4), nil), wantStatus: 200, wantCode: "MUTATION_LIMIT_EXCEEDED",
		wantMessage: "4 mutations; the limit is 3"}.run(t, e)
	n, err := e.Client.Collection.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "none of the mutations ran")

	// Fragments count, and __typename is not a mutation.
	frag := "mutation { ...M __typename } fragment M on Mutation { " + strings.TrimSuffix(strings.TrimPrefix(mutations(4), "mutation { "), "}") + "}"
	boundaryCase{name: "through a fragment", body: jsonBody(frag, nil), wantStatus: 200, wantCode: "MUTATION_LIMIT_EXCEEDED"}.run(t, e)

	ok := e.GraphQL(e.OwnerToken, mutations(3), nil)
	require.Empty(t, ok.Errors)
	n, err = e.Client.Collection.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 3, n)
}

// A forged page cursor is the client's error in GraphQL as in /v1.
func TestGraphQLForgedCursors(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := e.GraphQL(e.OwnerToken, `mutation($org: ID!) { createSpace(input: {organizationId: $org, title: "S"}) { space { id } } }`,
		map[string]any{"org": e.Org.ID})
	require.Empty(t, space.Errors)
	var created struct {
		CreateSpace struct{ Space struct{ ID string } }
	}
	space.Into(t, &created)
	crs := `query($id: ID!, $after: Cursor) { space(id: $id) { changeRequests(after: $after) { nodes { id } } } }`
	for name, after := range map[string]string{
		"garbage":                     "!!!not-base64",
		"base64 of garbage":           base64.RawURLEncoding.EncodeToString([]byte{0, 1, 2, 0xff}),
		"a key out of range":          cursor(`["change-requests",1e308,"cr_x"]`),
		"a fraction for an integer":   cursor(`["change-requests",1.5,"cr_x"]`),
		"a string for an integer":     cursor(`["change-requests","1","cr_x"]`),
		"NUL in the ID":               cursor(`["change-requests",1,"cr_\u0000"]`),
		"a cursor of another list":    cursor(`["spaces","2024-01-01T00:00:00Z","spc_x"]`),
		"a number beyond float64":     cursor(`["change-requests",1e999,"cr_x"]`),
		"an ID of invalid UTF-8":      cursor("[\"change-requests\",1,\"cr_\xff\"]"),
		"an array for the key":        cursor(`["change-requests",[1],"cr_x"]`),
		"a cursor too long to be one": strings.Repeat("A", 4000),
	} {
		t.Run(name, func(t *testing.T) {
			res := e.GraphQL(e.OwnerToken, crs, map[string]any{"id": created.CreateSpace.Space.ID, "after": after})
			require.NotEmpty(t, res.Errors, name)
			assert.Equal(t, "BAD_USER_INPUT", res.Code(), res.Errors[0].Message)
			assert.Contains(t, res.Errors[0].Message, "after", "the message names the argument")
		})
	}
}
