package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/translationsettings"
	"github.com/bindery/bindery/server/servertest"
)

// Translation settings through /v1: the contract's shape (title and
// languages), which the test harness validates instead of the official
// spec's Translation.
func TestTranslationSettings(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	tr := "/v1/orgs/" + e.Org.ID + "/translations"
	created := e.MustDo(http.MethodPost, tr, e.OwnerToken, map[string]any{"title": " Docs ", "languages": []string{"fr", "pt-br"}},
		http.StatusCreated)
	id := created["id"].(string)
	servertest.AssertContains(t, map[string]any{"object": "translation-settings", "title": "Docs", "languages": []any{"fr", "pt-br"},
		"permissions": map[string]any{"view": true, "edit": true}, "urls": map[string]any{"location": "http://bindery.test" + tr + "/" + id}},
		created)
	bare := e.MustDo(http.MethodPost, tr, e.OwnerToken, map[string]any{"title": "Bare"}, http.StatusCreated)
	assert.Equal(t, []any{}, bare["languages"], "no languages: an empty list")
	theirs := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/translations", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	one := tr + "/" + id
	e.Run(t, []servertest.Scenario{
		{Name: "create: title of 100", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 100)}, WantStatus: http.StatusCreated,
			Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+tr+"/"+res.JSON()["id"].(string), res.Header.Get("Location"))
			}},
		{Name: "create: title of 101", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("t", 101)}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: empty title", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": ""}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: no title", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"languages": []string{"fr"}}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "create: an unknown language", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "languages": []string{"fr", "xx"}}, WantStatus: http.StatusBadRequest, WantError: "languages"},
		{Name: "create: a repeated language", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "languages": []string{"fr", "de", "fr"}}, WantStatus: http.StatusBadRequest,
			WantError: "languages"},
		{Name: "create: languages null", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "languages": nil}, WantStatus: http.StatusBadRequest, WantError: "languages"},
		{Name: "create: the spec's body", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "language": "fr"}, WantStatus: http.StatusBadRequest},
		{Name: "create: as an editor", Method: http.MethodPost, Path: tr, Token: e.editTok, Body: map[string]any{"title": "X"},
			WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPost, Path: tr, Token: e.otherTok, Body: map[string]any{"title": "X"},
			WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPost, Path: tr, Body: map[string]any{"title": "X"},
			WantStatus: http.StatusUnauthorized},
		{Name: "list: as a reader", Method: http.MethodGet, Path: tr, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": float64(3)}},
		{Name: "list: as a guest", Method: http.MethodGet, Path: tr, Token: e.guestTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: tr, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: tr, WantStatus: http.StatusUnauthorized},
		{Name: "list: limit 1000", Method: http.MethodGet, Path: tr + "?limit=1000", Token: e.OwnerToken, WantStatus: http.StatusOK},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: tr + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
		{Name: "get: as a reader, who may not edit", Method: http.MethodGet, Path: one, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": id, "permissions": map[string]any{"view": true, "edit": false}}},
		{Name: "get: as a guest", Method: http.MethodGet, Path: one, Token: e.guestTok, WantStatus: http.StatusNotFound},
		{Name: "get: another organization's", Method: http.MethodGet, Path: tr + "/" + theirs, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: tr + "/trs_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: one, WantStatus: http.StatusUnauthorized},
		{Name: "put: title and languages", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": "Manual", "languages": []string{"ja"}}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": id, "title": "Manual", "languages": []any{"ja"}}},
		{Name: "put: the title alone keeps the languages", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": "Guide"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"title": "Guide", "languages": []any{"ja"}}},
		{Name: "put: an empty list clears them", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": "Guide", "languages": []string{}}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"languages": []any{}}},
		{Name: "put: title of 100", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("u", 100)}, WantStatus: http.StatusOK},
		{Name: "put: title of 101", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": strings.Repeat("u", 101), "languages": []string{"de"}}, WantStatus: http.StatusBadRequest,
			WantError: "title"},
		{Name: "put: no title", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"languages": []string{"de"}}, WantStatus: http.StatusBadRequest, WantError: "title"},
		{Name: "put: a repeated language", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": "Y", "languages": []string{"de", "de"}}, WantStatus: http.StatusBadRequest, WantError: "languages"},
		{Name: "put: as a reader", Method: http.MethodPut, Path: one, Token: e.readTok, Body: map[string]any{"title": "Y"},
			WantStatus: http.StatusForbidden},
		{Name: "put: another organization's", Method: http.MethodPut, Path: tr + "/" + theirs, Token: e.OwnerToken,
			Body: map[string]any{"title": "Y"}, WantStatus: http.StatusNotFound},
		{Name: "put: without a token", Method: http.MethodPut, Path: one, Body: map[string]any{"title": "Y"},
			WantStatus: http.StatusUnauthorized},
		{Name: "delete: as a reader", Method: http.MethodDelete, Path: one, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "delete: as an outsider", Method: http.MethodDelete, Path: one, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "delete: without a token", Method: http.MethodDelete, Path: one, WantStatus: http.StatusUnauthorized},
		{Name: "delete", Method: http.MethodDelete, Path: one, Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "delete: again", Method: http.MethodDelete, Path: one, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
	// The failed writes wrote nothing: the title of 100, Bare, and the
	// deleted one's neighbours are all that is left.
	n, err := e.Client.TranslationSettings.Query().Where(translationsettings.OrganizationID(e.Org.ID)).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	for range 3 {
		e.MustDo(http.MethodPost, tr, e.OwnerToken, map[string]any{"title": "More"}, http.StatusCreated)
	}
	all := e.Walk(t, tr, e.readTok, 2)
	require.Len(t, all, 5)
	assert.Equal(t, bare["id"], all[0], "oldest first")
}
