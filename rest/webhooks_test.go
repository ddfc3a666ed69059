package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/server/servertest"
)

// Webhook endpoints and their deliveries through /v1, as a client uses
// them: every answer is validated against Bindery's OpenAPI document
// (servertest.CheckSpec, through the extensions' operation objects).
func TestWebhooks(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	base := "/v1/orgs/" + e.Org.ID + "/webhooks"
	loc := "http://bindery.test" + base

	// Register an endpoint: 201, its address, and its secret this once.
	res := e.Do(http.MethodPost, base, e.OwnerToken, map[string]any{"url": "https://hooks.example.com/bindery",
		"eventTypes": []string{"space.created", "space.created", "change-request.merged"}, "description": " CI "})
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	created := res.JSON()
	id := created["id"].(string)
	servertest.AssertContains(t, map[string]any{"object": "webhook-endpoint", "url": "https://hooks.example.com/bindery",
		"eventTypes": []string{"space.created", "change-request.merged"}, "active": true, "description": "CI",
		"urls": map[string]any{"location": loc + "/" + id}}, created)
	assert.Equal(t, loc+"/"+id, res.Header.Get("Location"))
	secret, _ := created["secret"].(string)
	require.NotEmpty(t, secret, "the create shows the secret")
	assert.NotContains(t, created, "disabledReason")

	// A second, paused, for the list.
	paused := e.MustDo(http.MethodPost, base, e.OwnerToken, map[string]any{"url": "https://hooks.example.com/paused",
		"eventTypes": []string{"member.added"}, "active": false}, http.StatusCreated)["id"].(string)

	// The list: the /v1 envelope, oldest first, pages, no secrets.
	list := e.MustDo(http.MethodGet, base, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, float64(2), list["count"])
	items := list["items"].([]any)
	require.Len(t, items, 2)
	// Oldest first; two created in the same millisecond come in ID order.
	first, second := items[0].(map[string]any), items[1].(map[string]any)
	assert.LessOrEqual(t, first["createdAt"], second["createdAt"])
	if first["createdAt"] == second["createdAt"] {
		assert.Less(t, first["id"], second["id"])
	}
	assert.ElementsMatch(t, []string{id, paused}, []string{first["id"].(string), second["id"].(string)})
	for _, it := range items {
		if it.(map[string]any)["id"] == paused {
			assert.Equal(t, false, it.(map[string]any)["active"])
		}
	}
	for _, it := range items {
		assert.NotContains(t, it, "secret")
	}
	assert.Equal(t, []string{first["id"].(string), second["id"].(string)}, e.Walk(t, base, e.OwnerToken, 1),
		"page by page, in the same order")

	got := e.MustDo(http.MethodGet, base+"/"+id, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, created["createdAt"], got["createdAt"])
	assert.NotContains(t, got, "secret", "the secret is shown once")

	// A change that the endpoint wants writes a delivery; one it does not
	// want writes none.
	space := e.space("Hooked", "")
	e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken, map[string]any{"title": "Not hooked"}, http.StatusCreated)

	deliveries := e.MustDo(http.MethodGet, base+"/"+id+"/deliveries", e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, float64(1), deliveries["count"])
	require.Len(t, deliveries["items"], 1)
	d := deliveries["items"].([]any)[0].(map[string]any)
	did := d["id"].(string)
	servertest.AssertContains(t, map[string]any{"object": "webhook-delivery", "endpoint": id, "eventType": "space.created",
		"state": "pending", "attempts": []any{}, "urls": map[string]any{"location": loc + "/" + id + "/deliveries/" + did},
		"payload": map[string]any{"type": "space.created", "organization": e.Org.ID,
			"data": map[string]any{"object": map[string]any{"object": "space", "id": space}}}}, d)
	servertest.AssertContains(t, d, e.MustDo(http.MethodGet, base+"/"+id+"/deliveries/"+did, e.OwnerToken, nil, http.StatusOK))

	// Change it: the URL and the event types; a change of the description
	// alone keeps the rest.
	e.Run(t, []servertest.Scenario{
		{Name: "patch", Method: http.MethodPatch, Path: base + "/" + id, Token: e.OwnerToken,
			Body:       map[string]any{"url": "https://hooks.example.com/v2", "eventTypes": []string{"space.created", "member.added"}},
			WantStatus: http.StatusOK, WantJSON: map[string]any{"id": id, "url": "https://hooks.example.com/v2",
				"eventTypes": []string{"space.created", "member.added"}, "description": "CI"},
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "secret") }},
		{Name: "patch the description alone", Method: http.MethodPatch, Path: base + "/" + id, Token: e.OwnerToken,
			Body: map[string]any{"description": "Builds"}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"url": "https://hooks.example.com/v2", "description": "Builds", "active": true}},
		{Name: "resume the paused one", Method: http.MethodPatch, Path: base + "/" + paused, Token: e.OwnerToken,
			Body: map[string]any{"active": true}, WantStatus: http.StatusOK, WantJSON: map[string]any{"active": true}},
	})

	// Rotate the secret: a new one, shown this once.
	rotated := e.MustDo(http.MethodPost, base+"/"+id+"/rotate-secret", e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, id, rotated["id"])
	require.NotEmpty(t, rotated["secret"])
	assert.NotEqual(t, secret, rotated["secret"])

	// Redeliver by hand: a new delivery of the same event and body.
	res = e.Do(http.MethodPost, base+"/"+id+"/deliveries/"+did+"/redeliver", e.OwnerToken, nil)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	again := res.JSON()
	assert.NotEqual(t, did, again["id"])
	assert.Equal(t, loc+"/"+id+"/deliveries/"+again["id"].(string), res.Header.Get("Location"))
	servertest.AssertContains(t, map[string]any{"object": "webhook-delivery", "eventId": d["eventId"], "redeliveryOf": did,
		"payload": d["payload"], "state": "pending"}, again)
	assert.Len(t, e.Walk(t, base+"/"+id+"/deliveries", e.OwnerToken, 1), 2)

	// Delete: 204, then gone with its deliveries.
	e.MustDo(http.MethodDelete, base+"/"+id, e.OwnerToken, nil, http.StatusNoContent)
	e.MustDo(http.MethodGet, base+"/"+id, e.OwnerToken, nil, http.StatusNotFound)
	e.MustDo(http.MethodGet, base+"/"+id+"/deliveries", e.OwnerToken, nil, http.StatusNotFound)
	n, err := e.Client.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(id)).Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, []string{paused}, e.Walk(t, base, e.OwnerToken, 10))

	// An integration's endpoint names its integration, and keeps to the
	// event types its scopes allow.
	e.MustDo(http.MethodPost, "/v1/integrations/slack", e.OwnerToken, publishBody(e.Org.ID, nil), http.StatusOK)
	res = e.Do(http.MethodPost, base, e.OwnerToken, map[string]any{"url": "https://hooks.example.com/slack",
		"eventTypes": []string{"space.created"}, "integration": "slack"})
	assert.Equal(t, http.StatusBadRequest, res.Status, "space.created needs space:metadata:read: %s", res.Body)
	ofSlack := e.MustDo(http.MethodPost, base, e.OwnerToken, map[string]any{"url": "https://hooks.example.com/slack",
		"eventTypes": []string{"change-request.merged"}, "integration": "slack"}, http.StatusCreated)
	assert.Equal(t, "slack", ofSlack["integration"])
	assert.Equal(t, "slack", e.MustDo(http.MethodGet, base+"/"+ofSlack["id"].(string), e.OwnerToken, nil, http.StatusOK)["integration"])
	assert.NotContains(t, e.MustDo(http.MethodGet, base+"/"+paused, e.OwnerToken, nil, http.StatusOK), "integration")
}

// Bad input is a 400 naming the member. A member who is not an admin is
// refused the organization's list and create with 403, and does not see an
// endpoint or its deliveries (404), as the repo hides what a viewer may not
// view; someone outside the organization gets 404 throughout, and an
// endpoint or delivery reached through another organization or endpoint is
// not found. Refused writes write nothing.
func TestWebhooksRefused(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	base := "/v1/orgs/" + e.Org.ID + "/webhooks"
	hook := func(org, tok string, types ...string) string {
		return e.MustDo(http.MethodPost, "/v1/orgs/"+org+"/webhooks", tok, map[string]any{"url": "https://hooks.example.com/x",
			"eventTypes": types}, http.StatusCreated)["id"].(string)
	}
	id := hook(e.Org.ID, e.OwnerToken, "space.created")
	other := hook(e.Org.ID, e.OwnerToken, "member.added")
	theirs := hook(e.otherOrg, e.otherTok, "space.created")
	e.space("Hooked", "")
	did := e.Walk(t, base+"/"+id+"/deliveries", e.OwnerToken, 10)
	require.Len(t, did, 1)
	ep, dl := base+"/"+id, base+"/"+id+"/deliveries/"+did[0]
	body := func(url string, types ...string) map[string]any {
		return map[string]any{"url": url, "eventTypes": types}
	}
	ok := body("https://hooks.example.com/y", "space.created")

	e.Run(t, []servertest.Scenario{
		{Name: "create: an http URL", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("http://hooks.example.com/x", "space.created"), WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "create: not a URL", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("hooks", "space.created"), WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "create: a loopback address", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("https://127.0.0.1/x", "space.created"), WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "create: a URL over 2048", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("https://hooks.example.com/"+strings.Repeat("a", 2048), "space.created"), WantStatus: http.StatusBadRequest,
			WantError: "url"},
		{Name: "create: no event type", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("https://hooks.example.com/x"), WantStatus: http.StatusBadRequest, WantError: "eventTypes"},
		{Name: "create: an unknown event type", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("https://hooks.example.com/x", "space.exploded"), WantStatus: http.StatusBadRequest, WantError: "eventTypes"},
		{Name: "create: the GraphQL name of an event type", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: body("https://hooks.example.com/x", "SPACE_CREATED"), WantStatus: http.StatusBadRequest, WantError: "eventTypes"},
		{Name: "create: without eventTypes", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: map[string]any{"url": "https://hooks.example.com/x"}, WantStatus: http.StatusBadRequest, WantError: "eventTypes"},
		{Name: "create: without url", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body: map[string]any{"eventTypes": []string{"space.created"}}, WantStatus: http.StatusBadRequest, WantError: "url"},
		{Name: "create: an unknown member", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body:       map[string]any{"url": "https://hooks.example.com/x", "eventTypes": []string{"space.created"}, "secret": "mine"},
			WantStatus: http.StatusBadRequest, WantError: "secret"},
		{Name: "create: a null active", Method: http.MethodPost, Path: base, Token: e.OwnerToken,
			Body:       map[string]any{"url": "https://hooks.example.com/x", "eventTypes": []string{"space.created"}, "active": nil},
			WantStatus: http.StatusBadRequest, WantError: "active"},
		{Name: "patch: empty event types", Method: http.MethodPatch, Path: ep, Token: e.OwnerToken,
			Body: map[string]any{"eventTypes": []string{}}, WantStatus: http.StatusBadRequest, WantError: "eventTypes"},
		{Name: "patch: null event types", Method: http.MethodPatch, Path: ep, Token: e.OwnerToken,
			Body: map[string]any{"eventTypes": nil}, WantStatus: http.StatusBadRequest, WantError: "eventTypes"},
		{Name: "patch: a bad URL", Method: http.MethodPatch, Path: ep, Token: e.OwnerToken,
			Body: map[string]any{"url": "ftp://hooks.example.com"}, WantStatus: http.StatusBadRequest, WantError: "url"},

		{Name: "create: as an editor", Method: http.MethodPost, Path: base, Token: e.editTok, Body: ok, WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPost, Path: base, Token: e.otherTok, Body: ok, WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPost, Path: base, Body: ok, WantStatus: http.StatusUnauthorized},
		{Name: "list: as a reader", Method: http.MethodGet, Path: base, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an editor", Method: http.MethodGet, Path: base, Token: e.editTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: base, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: base + "?limit=1001", Token: e.OwnerToken,
			WantStatus: http.StatusBadRequest, WantError: "limit"},
		{Name: "get: as an editor, who does not see it", Method: http.MethodGet, Path: ep, Token: e.editTok, WantStatus: http.StatusNotFound},
		{Name: "get: as an outsider", Method: http.MethodGet, Path: ep, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "get: another organization's endpoint", Method: http.MethodGet, Path: base + "/" + theirs, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "get: through the other organization", Method: http.MethodGet, Path: "/v1/orgs/" + e.otherOrg + "/webhooks/" + id,
			Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: base + "/nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "patch: as an editor, who does not see it", Method: http.MethodPatch, Path: ep, Token: e.editTok,
			Body: map[string]any{"active": false}, WantStatus: http.StatusNotFound},
		{Name: "patch: as an outsider", Method: http.MethodPatch, Path: ep, Token: e.otherTok,
			Body: map[string]any{"active": false}, WantStatus: http.StatusNotFound},
		{Name: "rotate: as an editor, who does not see it", Method: http.MethodPost, Path: ep + "/rotate-secret", Token: e.editTok,
			WantStatus: http.StatusNotFound},
		{Name: "rotate: with a body", Method: http.MethodPost, Path: ep + "/rotate-secret", Token: e.OwnerToken,
			Body: map[string]any{"secret": "mine"}, WantStatus: http.StatusBadRequest, WantError: "secret"},
		{Name: "deliveries: as an editor, who does not see it", Method: http.MethodGet, Path: ep + "/deliveries", Token: e.editTok,
			WantStatus: http.StatusNotFound},
		{Name: "deliveries: as an outsider", Method: http.MethodGet, Path: ep + "/deliveries", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "delivery: as an editor, who does not see it", Method: http.MethodGet, Path: dl, Token: e.editTok, WantStatus: http.StatusNotFound},
		{Name: "delivery: through another endpoint", Method: http.MethodGet, Path: base + "/" + other + "/deliveries/" + did[0],
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "redeliver: as an editor, who does not see it", Method: http.MethodPost, Path: dl + "/redeliver", Token: e.editTok,
			WantStatus: http.StatusNotFound},
		{Name: "redeliver: as an outsider", Method: http.MethodPost, Path: dl + "/redeliver", Token: e.otherTok,
			WantStatus: http.StatusNotFound},
		{Name: "redeliver: through another endpoint", Method: http.MethodPost, Path: base + "/" + other + "/deliveries/" + did[0] + "/redeliver",
			Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "redeliver: unknown", Method: http.MethodPost, Path: ep + "/deliveries/nope/redeliver", Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
		{Name: "delete: as an editor, who does not see it", Method: http.MethodDelete, Path: ep, Token: e.editTok, WantStatus: http.StatusNotFound},
		{Name: "delete: as an outsider", Method: http.MethodDelete, Path: ep, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "delete: another organization's", Method: http.MethodDelete, Path: base + "/" + theirs, Token: e.OwnerToken,
			WantStatus: http.StatusNotFound},
	})
	// Refused writes wrote nothing: the three endpoints, unchanged, and the
	// one delivery.
	ctx := context.Background()
	n, err := e.Client.WebhookEndpoint.Query().Where(webhookendpoint.OrganizationID(e.Org.ID)).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	x := e.Client.WebhookEndpoint.GetX(ctx, id)
	assert.Equal(t, "https://hooks.example.com/x", x.URL)
	assert.True(t, x.Active)
	assert.Len(t, x.EventTypes, 1)
	n, err = e.Client.WebhookDelivery.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
}
