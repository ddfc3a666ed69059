package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/openapispec"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/openapi/openapitest"
	"github.com/bindery/bindery/server/servertest"
)

// OpenAPI specs through /v1. Their processing is the worker's, tested in
// internal/openapi/worker; here a spec answers pending, as a create does.
func TestOpenAPISpecs(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	createTok, _ := e.join(enum.RoleCreate, "creator@example.com")
	base := "/v1/orgs/" + e.Org.ID + "/openapi"
	created := e.MustDo(http.MethodPost, base, createTok, map[string]any{"slug": "pets",
		"source": map[string]any{"url": "https://api.example.com/openapi.json"}}, http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"object": "openapi-spec", "slug": "pets", "processingState": "pending",
		"sourceURL": "https://api.example.com/openapi.json", "visibility": "private",
		"permissions": map[string]any{"view": true, "edit": true},
		"urls":        map[string]any{"location": "http://bindery.test" + base + "/pets", "app": "http://bindery.test/o/" + e.Org.ID + "/openapi/pets"}},
		created)
	for _, k := range []string{"lastVersion", "lastProcessedAt", "lastProcessErrorCode"} {
		assert.NotContains(t, created, k, "not processed yet")
	}
	e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/openapi", e.otherTok,
		map[string]any{"slug": "theirs", "source": map[string]any{"text": openapitest.V30}}, http.StatusCreated)
	src := func(k string, v any) map[string]any { return map[string]any{k: v} }
	body := func(slug string, source any) map[string]any { return map[string]any{"slug": slug, "source": source} }
	url2048 := "https://api.example.com/" + strings.Repeat("a", 2048-len("https://api.example.com/"))
	e.Run(t, []servertest.Scenario{
		{Name: "create: by text", Method: http.MethodPost, Path: base, Token: createTok, Body: body("text", src("text", openapitest.V31)),
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"slug": "text", "processingState": "pending"},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+base+"/text", res.Header.Get("Location"))
				assert.NotContains(t, res.JSON(), "sourceURL")
			}},
		{Name: "create: the same slug", Method: http.MethodPost, Path: base, Token: createTok, Body: body("pets", src("text", "x")),
			WantStatus: http.StatusConflict},
		{Name: "create: another organization's slug", Method: http.MethodPost, Path: base, Token: createTok,
			Body: body("theirs", src("text", "x")), WantStatus: http.StatusCreated},
		{Name: "create: slug of 100", Method: http.MethodPost, Path: base, Token: createTok,
			Body: body(strings.Repeat("s", 100), src("text", "x")), WantStatus: http.StatusCreated},
		{Name: "create: slug of 101", Method: http.MethodPost, Path: base, Token: createTok,
			Body: body(strings.Repeat("s", 101), src("text", "x")), WantStatus: http.StatusBadRequest, WantError: "slug"},
		{Name: "create: empty slug", Method: http.MethodPost, Path: base, Token: createTok, Body: body("", src("text", "x")),
			WantStatus: http.StatusBadRequest, WantError: "slug"},
		{Name: "create: a slug off the pattern", Method: http.MethodPost, Path: base, Token: createTok, Body: body("Pets_v2", src("text", "x")),
			WantStatus: http.StatusBadRequest, WantError: "slug"},
		{Name: "create: a slug ending in a hyphen", Method: http.MethodPost, Path: base, Token: createTok, Body: body("pets-", src("text", "x")),
			WantStatus: http.StatusBadRequest, WantError: "slug"},
		{Name: "create: url of 2048", Method: http.MethodPost, Path: base, Token: createTok, Body: body("long", src("url", url2048)),
			WantStatus: http.StatusCreated},
		{Name: "create: url of 2049", Method: http.MethodPost, Path: base, Token: createTok, Body: body("longer", src("url", url2048+"a")),
			WantStatus: http.StatusBadRequest, WantError: "source.url"},
		{Name: "create: an ftp url", Method: http.MethodPost, Path: base, Token: createTok, Body: body("ftp", src("url", "ftp://example.com/a")),
			WantStatus: http.StatusBadRequest, WantError: "source.url"},
		{Name: "create: a relative url", Method: http.MethodPost, Path: base, Token: createTok, Body: body("rel", src("url", "/openapi.json")),
			WantStatus: http.StatusBadRequest, WantError: "source.url"},
		{Name: "create: empty text", Method: http.MethodPost, Path: base, Token: createTok, Body: body("empty", src("text", "")),
			WantStatus: http.StatusBadRequest, WantError: "source.text"},
		{Name: "create: url and text", Method: http.MethodPost, Path: base, Token: createTok,
			Body: body("both", map[string]any{"url": "https://a.example/x", "text": "x"}), WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create: an empty source", Method: http.MethodPost, Path: base, Token: createTok, Body: body("none", map[string]any{}),
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create: an unknown source member", Method: http.MethodPost, Path: base, Token: createTok,
			Body: body("odd", map[string]any{"file": "x"}), WantStatus: http.StatusBadRequest},
		{Name: "create: no source", Method: http.MethodPost, Path: base, Token: createTok, Body: map[string]any{"slug": "nosource"},
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create: a body over 1 MiB", Method: http.MethodPost, Path: base, Token: createTok,
			Body: body("big", src("text", strings.Repeat("a", 1<<20))), WantStatus: http.StatusRequestEntityTooLarge},
		{Name: "create: as an editor", Method: http.MethodPost, Path: base, Token: e.editTok, Body: body("mine", src("text", "x")),
			WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPost, Path: base, Token: e.otherTok, Body: body("mine", src("text", "x")),
			WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPost, Path: base, Body: body("mine", src("text", "x")),
			WantStatus: http.StatusUnauthorized},
		{Name: "list: as a reader", Method: http.MethodGet, Path: base, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": float64(5)}},
		{Name: "list: as a guest", Method: http.MethodGet, Path: base, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: base, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: base, WantStatus: http.StatusUnauthorized},
		{Name: "list: limit 1000", Method: http.MethodGet, Path: base + "?limit=1000", Token: e.readTok, WantStatus: http.StatusOK},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: base + "?limit=1001", Token: e.readTok, WantStatus: http.StatusBadRequest},
		{Name: "get: as a reader, who may not edit", Method: http.MethodGet, Path: base + "/pets", Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": created["id"], "permissions": map[string]any{"view": true, "edit": false}}},
		{Name: "get: as a guest", Method: http.MethodGet, Path: base + "/pets", Token: e.guestTok, WantStatus: http.StatusNotFound},
		{Name: "get: as an outsider", Method: http.MethodGet, Path: base + "/pets", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: base + "/nope", Token: e.readTok, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: base + "/pets", WantStatus: http.StatusUnauthorized},
		{Name: "put: updates", Method: http.MethodPut, Path: base + "/pets", Token: createTok,
			Body: map[string]any{"source": src("text", openapitest.V20)}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": created["id"], "processingState": "pending"},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.JSON(), "sourceURL", "a text source replaces the URL")
				assert.Empty(t, res.Header.Get("Location"))
			}},
		{Name: "put: creates", Method: http.MethodPut, Path: base + "/new-one", Token: createTok,
			Body: map[string]any{"source": src("url", "https://api.example.com/b.yaml")}, WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"slug": "new-one", "sourceURL": "https://api.example.com/b.yaml"},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+base+"/new-one", res.Header.Get("Location"))
			}},
		{Name: "put: a slug off the pattern", Method: http.MethodPut, Path: base + "/Bad_Slug", Token: createTok,
			Body: map[string]any{"source": src("text", "x")}, WantStatus: http.StatusBadRequest, WantError: "slug"},
		{Name: "put: a bad source", Method: http.MethodPut, Path: base + "/pets", Token: createTok,
			Body: map[string]any{"source": src("url", "nope")}, WantStatus: http.StatusBadRequest, WantError: "source.url"},
		{Name: "put: no source", Method: http.MethodPut, Path: base + "/pets", Token: createTok, Body: map[string]any{},
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "put: as an editor, update", Method: http.MethodPut, Path: base + "/pets", Token: e.editTok,
			Body: map[string]any{"source": src("text", "x")}, WantStatus: http.StatusForbidden},
		{Name: "put: as an editor, create", Method: http.MethodPut, Path: base + "/editors", Token: e.editTok,
			Body: map[string]any{"source": src("text", "x")}, WantStatus: http.StatusForbidden},
		{Name: "put: as a guest", Method: http.MethodPut, Path: base + "/pets", Token: e.guestTok,
			Body: map[string]any{"source": src("text", "x")}, WantStatus: http.StatusForbidden},
		{Name: "put: as an outsider", Method: http.MethodPut, Path: base + "/pets", Token: e.otherTok,
			Body: map[string]any{"source": src("text", "x")}, WantStatus: http.StatusNotFound},
		{Name: "put: without a token", Method: http.MethodPut, Path: base + "/pets", Body: map[string]any{"source": src("text", "x")},
			WantStatus: http.StatusUnauthorized},
		{Name: "delete: as an editor", Method: http.MethodDelete, Path: base + "/pets", Token: e.editTok, WantStatus: http.StatusForbidden},
		{Name: "delete: as an outsider", Method: http.MethodDelete, Path: base + "/pets", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "delete: without a token", Method: http.MethodDelete, Path: base + "/pets", WantStatus: http.StatusUnauthorized},
		{Name: "delete", Method: http.MethodDelete, Path: base + "/pets", Token: createTok, WantStatus: http.StatusNoContent},
		{Name: "delete: again", Method: http.MethodDelete, Path: base + "/pets", Token: createTok, WantStatus: http.StatusNotFound},
		{Name: "get: deleted", Method: http.MethodGet, Path: base + "/pets", Token: createTok, WantStatus: http.StatusNotFound},
	})
	// Refused writes wrote nothing: text, theirs, the slug of 100, long and
	// new-one are left.
	n, err := e.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(e.Org.ID)).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	all := e.Walk(t, base, e.readTok, 2)
	require.Len(t, all, 5)
}
