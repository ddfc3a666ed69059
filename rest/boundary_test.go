package rest_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// bdCursor encodes a cursor as Bindery does, from its JSON.
func bdCursor(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }

// Every string of a /v1 request is text: valid UTF-8 without NUL, in the
// path, the query and the body at any depth. Anything else is a 400 that
// names the parameter or member, on both databases: never a 500 from
// PostgreSQL (`invalid byte sequence for encoding "UTF8": 0x00`), nor a
// U+FFFD stored in place of what was sent.
func TestV1RefusesNonText(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "S"}, http.StatusCreated)["id"].(string)
	spaces := "/v1/orgs/" + e.Org.ID + "/spaces"
	bad := func(name, method, path string, body any, want string) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: method, Path: path, Token: e.OwnerToken, Body: body,
			WantStatus: http.StatusBadRequest, WantError: want}
	}
	e.Run(t, []servertest.Scenario{
		bad("NUL in a path ID", "GET", "/v1/spaces/spc_%00", nil, "spaceId: must not contain a NUL character"),
		bad("invalid UTF-8 in a path ID", "GET", "/v1/spaces/spc_%FF", nil, "spaceId: must be valid UTF-8"),
		bad("NUL in a path ID of a write", "PATCH", "/v1/spaces/spc_%00", map[string]any{"title": "x"}, "spaceId: must not contain"),
		bad("NUL in a second path ID", "GET", "/v1/spaces/"+space+"/change-requests/cr_%00", nil, "changeRequestId: must not contain"),
		bad("NUL in a page path", "GET", "/v1/spaces/"+space+"/content/path/a%00b", nil, "pagePath: must not contain"),
		bad("invalid UTF-8 in a page path", "GET", "/v1/spaces/"+space+"/content/path/docs/%FF", nil, "pagePath: must be valid UTF-8"),
		bad("NUL in a user ID", "GET", "/v1/users/usr_%00", nil, "userId: must not contain"),

		bad("NUL in a query parameter", "GET", spaces+"?page=%00", nil, "page: must not contain"),
		bad("invalid UTF-8 in a query parameter", "GET", spaces+"?limit=%FF", nil, "limit: must be valid UTF-8"),
		bad("NUL in an unknown query parameter", "GET", spaces+"?utm=%00", nil, "utm: must not contain"),
		bad("invalid UTF-8 in a parameter's name", "GET", spaces+"?a%FF=1", nil, "A query parameter name must be valid UTF-8"),
		bad("a malformed query string", "GET", spaces+"?page=%zz", nil, "The query string is malformed"),

		bad("NUL in a body member", "POST", spaces, `{"title":"a\u0000b"}`, "title: must not contain a NUL character"),
		bad("invalid UTF-8 in a body member", "POST", spaces, "{\"title\":\"a\xffb\"}", "title: must be valid UTF-8"),
		bad("a lone surrogate in a body member", "POST", spaces, `{"title":"\ud800"}`, `title: must not contain a \u escape of a UTF-16 surrogate`),
		bad("NUL deep in the body", "POST", "/v1/spaces/"+space+"/move",
			`{"position":{"before":{"type":"space","space":"spc_\u0000"}}}`, "position.before.space: must not contain"),
		bad("NUL in a member name", "POST", spaces, `{"ti\u0000tle":"x"}`, "a member name must not contain"),
		bad("invalid UTF-8 in a member name", "POST", spaces, "{\"ti\xfftle\":\"x\"}", "a member name must be valid UTF-8"),
		bad("NUL in an update", "PATCH", "/v1/spaces/"+space, `{"emoji":"\u0000"}`, "emoji: must not contain"),
		bad("NUL in a URL to import", "POST", "/v1/spaces/"+space+"/content/import", `{"url":"http://x/\u0000","source":"markdown"}`,
			"url: must not contain"),

		{Name: "an escaped surrogate pair is a character", Method: "POST", Path: spaces, Token: e.OwnerToken,
			Body: `{"title":"\ud83d\udc4d ok"}`, WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": "👍 ok"}},
	})

	// Headers are no way in either: a token that is not text is a 401.
	res := e.Do(http.MethodGet, "/v1/user", "bnd_\xff\xfe", nil)
	assert.Equal(t, http.StatusUnauthorized, res.Status, string(res.Body))

	// Nothing was written by the refused requests.
	n, err := e.Client.Space.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the space of the fixture and the one with the emoji")
}

// A forged page cursor is a 400 about page, on both databases, whatever it
// holds: garbage, a key of the wrong type or out of the column's range.
func TestV1ForgedCursors(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "S"}, http.StatusCreated)["id"].(string)
	crs := "/v1/spaces/" + space + "/change-requests?page="
	spaces := "/v1/orgs/" + e.Org.ID + "/spaces?page="
	bad := func(name, path, want string) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: "GET", Path: path, Token: e.OwnerToken, WantStatus: http.StatusBadRequest, WantError: want}
	}
	e.Run(t, []servertest.Scenario{
		bad("not base64", crs+"!!!", "page: is not a valid page cursor"),
		bad("base64 of garbage", crs+base64.RawURLEncoding.EncodeToString([]byte{0, 1, 0xff}), "page: is not a valid page cursor"),
		bad("an integer key of 1e308", crs+bdCursor(`["change-requests",1e308,"cr_x"]`), "page: is not a valid page cursor of this list"),
		bad("an integer key of -1e308", crs+bdCursor(`["change-requests",-1e308,"cr_x"]`), "page: is not a valid page cursor of this list"),
		bad("a fraction for an integer", crs+bdCursor(`["change-requests",1.5,"cr_x"]`), "page: is not a valid page cursor of this list"),
		bad("an integer past int64", crs+bdCursor(`["change-requests",9223372036854775808,"cr_x"]`), "page: is not a valid page cursor of this list"),
		bad("a string for an integer", crs+bdCursor(`["change-requests","7","cr_x"]`), "page: is not a valid page cursor of this list"),
		bad("a number past float64", crs+bdCursor(`["change-requests",1e999,"cr_x"]`), "page: is not a valid page cursor"),
		bad("NUL in the ID", crs+bdCursor(`["change-requests",1,"cr_\u0000"]`), "page: is not a valid page cursor"),
		bad("invalid UTF-8 in the ID", crs+bdCursor("[\"change-requests\",1,\"cr_\xff\"]"), "page: is not a valid page cursor"),
		bad("a number for a time", spaces+bdCursor(`["spaces",1e308,"spc_x"]`), "page: is not a valid page cursor of this list"),
		bad("a time out of RFC 3339", spaces+bdCursor(`["spaces","10000-01-01T00:00:00Z","spc_x"]`), "page: is not a valid page cursor of this list"),
		bad("a cursor of another list", spaces+bdCursor(`["change-requests",1,"cr_x"]`), "page: is a cursor of another list"),
		bad("a cursor too long to be one", crs+strings.Repeat("A", 2000), "page: is not a valid page cursor"),
		{Name: "the largest integer is in range", Method: "GET", Path: crs + bdCursor(`["change-requests",9223372036854774784,"cr_x"]`),
			Token: e.OwnerToken, WantStatus: http.StatusOK, WantJSON: map[string]any{"items": []any{}}},
		{Name: "the earliest time is in range", Method: "GET", Path: spaces + bdCursor(`["spaces","0001-01-01T00:00:00Z","spc_x"]`),
			Token: e.OwnerToken, WantStatus: http.StatusOK, WantJSON: map[string]any{"count": 1}},
	})
}

// A body over 1 MiB is a 413 in the /v1 envelope.
func TestV1BodyLimit(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	body := `{"title":"` + strings.Repeat("a", 1<<20) + `"}`
	e.Run(t, []servertest.Scenario{{Name: "over 1 MiB", Method: "POST", Path: "/v1/orgs/" + e.Org.ID + "/spaces", Token: e.OwnerToken,
		Body: body, WantStatus: http.StatusRequestEntityTooLarge, WantError: "The request body is larger than 1048576 bytes"}})
}
