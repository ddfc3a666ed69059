package rest_test

import (
	"context"
	"encoding/json"
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

// A client written against the official spec creates a Translation with a
// source space and a language and updates its instructions; one written
// against the contract sends a title and languages; a body may carry both.
// The answer has the contract's members always and the official ones once
// given, and says honestly that nothing ran.
func TestTranslationOfficialForm(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	tr := "/v1/orgs/" + e.Org.ID + "/translations"
	space := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": "Guide"},
		http.StatusCreated)["id"].(string)
	theirSpace := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/spaces", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	source := map[string]any{"space": space, "language": "en"}
	doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block",
		"type": "paragraph", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "text",
			"leaves": []any{map[string]any{"object": "leaf", "text": "Keep product names in English.", "marks": []any{}}}}}}}}
	empty := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}
	zero := map[string]any{"runs": 0.0, "totalWords": 0.0, "totalPages": 0.0, "totalDuration": 0.0, "latestRunDuration": 0.0,
		"latestPages": 0.0, "latestWords": 0.0}

	official := e.MustDo(http.MethodPost, tr, e.OwnerToken, map[string]any{"language": "fr", "source": source}, http.StatusCreated)
	id := official["id"].(string)
	assert.Equal(t, map[string]any{"object": "translation-settings", "id": id, "title": "Guide (fr)", "languages": []any{"fr"},
		"status": "pending", "source": source, "language": "fr", "instructions": empty, "stats": zero,
		"createdAt": official["createdAt"], "updatedAt": official["updatedAt"],
		"permissions": map[string]any{"view": true, "edit": true}, "urls": map[string]any{"location": "http://bindery.test" + tr + "/" + id}},
		official, "the contract's members, and the official ones")
	contract := e.MustDo(http.MethodPost, tr, e.OwnerToken, map[string]any{"title": "Docs", "languages": []string{"de"}}, http.StatusCreated)
	for _, k := range []string{"status", "source", "language", "instructions", "stats"} {
		assert.NotContains(t, contract, k, "the contract's form: no official member until given")
	}
	one := tr + "/" + id
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{"language": "fr", "source": source}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	e.Run(t, []servertest.Scenario{
		{Name: "create: both forms", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body:       map[string]any{"title": "Docs", "languages": []string{"fr", "de"}, "language": "de", "source": source, "instructions": doc},
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"title": "Docs", "languages": []any{"fr", "de"}, "language": "de",
				"source": source, "instructions": doc, "status": "pending"}},
		{Name: "create: a title with the official form", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: with(map[string]any{"title": "Français"}), WantStatus: http.StatusCreated,
			WantJSON: map[string]any{"title": "Français", "languages": []any{"fr"}}},
		{Name: "create: a language that languages lack", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: with(map[string]any{"title": "X", "languages": []string{"de"}}), WantStatus: http.StatusBadRequest,
			WantError: `language: "fr" must be one of languages`},
		{Name: "create: the source's own language", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"language": "en", "source": source}, WantStatus: http.StatusBadRequest, WantError: "language: must differ"},
		{Name: "create: a source without a language", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "source": source}, WantStatus: http.StatusBadRequest, WantError: "language: is required with source"},
		{Name: "create: a language without a source", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"title": "X", "language": "fr"}, WantStatus: http.StatusBadRequest, WantError: "source: is required with language"},
		{Name: "create: an unknown source space", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body:       map[string]any{"language": "fr", "source": map[string]any{"space": "spc_nope", "language": "en"}},
			WantStatus: http.StatusBadRequest, WantError: `source.space: "spc_nope" is not a space of the organization`},
		{Name: "create: another organization's space", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body:       map[string]any{"language": "fr", "source": map[string]any{"space": theirSpace, "language": "en"}},
			WantStatus: http.StatusBadRequest, WantError: "source.space"},
		{Name: "create: a source without its space", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"language": "fr", "source": map[string]any{"language": "en"}}, WantStatus: http.StatusBadRequest,
			WantError: "source.space: is required"},
		{Name: "create: a source in an unknown language", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"language": "fr", "source": map[string]any{"space": space, "language": "xx"}}, WantStatus: http.StatusBadRequest,
			WantError: "source"},
		{Name: "create: an unknown member of source", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body:       map[string]any{"language": "fr", "source": map[string]any{"space": space, "language": "en", "branch": "main"}},
			WantStatus: http.StatusBadRequest, WantError: "source"},
		{Name: "create: instructions that are no document", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: with(map[string]any{"instructions": map[string]any{"text": "be nice"}}), WantStatus: http.StatusBadRequest,
			WantError: "instructions: must be a JSON document"},
		{Name: "create: instructions of 64 KiB and more", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: with(map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{"x": strings.Repeat("x", 64<<10)},
				"nodes": []any{}}}), WantStatus: http.StatusBadRequest, WantError: "instructions: must be at most"},
		{Name: "create: neither a title nor a source", Method: http.MethodPost, Path: tr, Token: e.OwnerToken,
			Body: map[string]any{"instructions": doc}, WantStatus: http.StatusBadRequest, WantError: "title: is required"},

		{Name: "put: the official body, instructions", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"instructions": doc}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"title": "Guide (fr)", "instructions": doc, "language": "fr", "status": "pending"}},
		{Name: "put: a new language replaces the old one in languages", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": "Guide (es)", "language": "es"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"title": "Guide (es)", "language": "es", "languages": []any{"es"}, "instructions": doc}},
		{Name: "put: languages must hold the language", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"title": "Y", "languages": []string{"de"}}, WantStatus: http.StatusBadRequest,
			WantError: `languages: must hold the language, "es"`},
		{Name: "put: a language alone is neither form", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"language": "de"}, WantStatus: http.StatusBadRequest, WantError: "title: is required without instructions"},
		{Name: "put: bad instructions", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"instructions": []any{}}, WantStatus: http.StatusBadRequest, WantError: "instructions"},
		{Name: "put: null instructions", Method: http.MethodPut, Path: one, Token: e.OwnerToken,
			Body: map[string]any{"instructions": nil}, WantStatus: http.StatusBadRequest, WantError: "instructions: must not be null"},
		{Name: "get: as a reader", Method: http.MethodGet, Path: one, Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"language": "es", "source": source, "instructions": doc, "stats": zero,
				"permissions": map[string]any{"view": true, "edit": false}}},
		{Name: "put: instructions on the contract's form", Method: http.MethodPut, Path: tr + "/" + contract["id"].(string),
			Token: e.OwnerToken, Body: map[string]any{"instructions": doc}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"title": "Docs", "instructions": doc},
			Check: func(t *testing.T, res *servertest.Response) {
				assert.NotContains(t, res.JSON(), "status", "no source, no translation to run")
			}},
		{Name: "put: a source for the contract's form", Method: http.MethodPut, Path: tr + "/" + contract["id"].(string),
			Token: e.OwnerToken, Body: map[string]any{"title": "Docs", "source": source, "language": "de"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"languages": []any{"de"}, "language": "de", "source": source, "status": "pending"}},
		{Name: "list", Method: http.MethodGet, Path: tr, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"count": 4.0}},
	})

	// GraphQL takes and shows the same.
	d := e.GraphQL(e.OwnerToken, `mutation($in: CreateTranslationSettingsInput!) { createTranslationSettings(input: $in) {
	  translationSettings { title languages language source { spaceId language } instructions status stats { runs totalWords } } } }`,
		map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "language": "JA", "source": map[string]any{"spaceId": space,
			"language": "EN"}, "instructions": doc}})
	require.Empty(t, d.Errors)
	var got struct {
		CreateTranslationSettings struct{ TranslationSettings map[string]any }
	}
	d.Into(t, &got)
	docJSON, _ := json.Marshal(doc)
	var docAny any
	require.NoError(t, json.Unmarshal(docJSON, &docAny))
	assert.Equal(t, map[string]any{"title": "Guide (ja)", "languages": []any{"JA"}, "language": "JA",
		"source": map[string]any{"spaceId": space, "language": "EN"}, "instructions": docAny, "status": "PENDING",
		"stats": map[string]any{"runs": 0.0, "totalWords": 0.0}}, got.CreateTranslationSettings.TranslationSettings)
	bad := e.GraphQL(e.OwnerToken, `mutation($in: CreateTranslationSettingsInput!) { createTranslationSettings(input: $in) {
	  translationSettings { id } } }`, map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "language": "JA",
		"source": map[string]any{"spaceId": "spc_nope", "language": "EN"}}})
	assert.Equal(t, "BAD_USER_INPUT", bad.Code())
	require.NotEmpty(t, bad.Errors)
	assert.Equal(t, "source.spaceId", bad.Errors[0].Extensions["field"])
}
