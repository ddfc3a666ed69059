package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/secrets/rekey"
	"github.com/bindery/bindery/internal/webhook"
	"github.com/bindery/bindery/internal/webhook/deliver"
	"github.com/bindery/bindery/server/servertest"
)

// Endpoints and the worker reach the test's receiver on the loopback
// address through allowPrivate, as BINDERY_IMPORT_ALLOW_PRIVATE allows.

// receiver is an endpoint under test: it verifies every request's
// signature at now, and answers each event with the statuses of answers,
// in turn (the last one repeats).
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	secret string
	now    func() time.Time

	mu       sync.Mutex
	answers  []int
	received []received
}

type received struct {
	status   int
	event    webhook.Envelope
	delivery string
	verified error
}

func newReceiver(t *testing.T, now func() time.Time, answers ...int) *receiver {
	rc := &receiver{t: t, answers: answers, now: now}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		var ev webhook.Envelope
		_ = json.Unmarshal(body, &ev)
		seen := 0
		for _, r := range rc.received {
			if r.event.ID == ev.ID {
				seen++
			}
		}
		status := rc.answers[min(seen, len(rc.answers)-1)]
		rc.received = append(rc.received, received{status: status, event: ev, delivery: r.Header.Get("Bindery-Delivery-Id"),
			verified: webhook.Verify(rc.secret, r.Header.Get(webhook.SignatureHeader), body, rc.now(), webhook.Tolerance)})
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) got() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.received...)
}

// accepted returns the events the receiver answered 2xx, by event ID.
func (rc *receiver) accepted() map[string]int {
	out := map[string]int{}
	for _, r := range rc.got() {
		if r.status < 300 {
			out[r.event.ID]++
		}
	}
	return out
}

const createWebhook = `mutation($in: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $in) {
  webhookEndpoint { id url eventTypes active description disabledReason } secret } }`

// register registers rc for types and gives it the signing secret.
func (rc *receiver) register(e *servertest.Env, types ...string) string {
	rc.t.Helper()
	var out struct {
		CreateWebhookEndpoint struct {
			WebhookEndpoint struct{ ID string }
			Secret          string
		}
	}
	e.GraphQL(e.OwnerToken, createWebhook, map[string]any{"in": map[string]any{"organizationId": e.Org.ID,
		"url": rc.srv.URL + "/hook", "eventTypes": types, "description": "test receiver"}}).Into(rc.t, &out)
	rc.secret = out.CreateWebhookEndpoint.Secret
	require.NotEmpty(rc.t, rc.secret)
	return out.CreateWebhookEndpoint.WebhookEndpoint.ID
}

// hookWorker returns a webhook worker on the test's clock.
func hookWorker(t *testing.T, e *servertest.Env, opt deliver.Options) *deliver.Worker {
	box, err := secrets.FromBase64(e.Config.SecretKey)
	require.NoError(t, err)
	opt.Box, opt.AllowPrivate, opt.Now = box, true, e.Clock.Now
	return deliver.New(e.DB.Client, opt)
}

func drain(t *testing.T, w *deliver.Worker) int {
	t.Helper()
	n, err := w.Drain(context.Background())
	require.NoError(t, err)
	return n
}

func createSpace(t testing.TB, e *servertest.Env, title string) string {
	t.Helper()
	var out struct {
		CreateSpace struct{ Space struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { space { id } } }`,
		map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": title}}).Into(t, &out)
	return out.CreateSpace.Space.ID
}

const deliveriesQuery = `query($id: ID!) { node(id: $id) { ... on WebhookEndpoint { active disabledReason disabledAt
  deliveries(first: 50) { nodes { id eventID eventType state redeliveryOf payload endpoint { id }
    attempts { number responseStatus latencyMs error requestHeaders { name value } } } } } } }`

type deliveryView struct {
	ID, EventType, State, Payload string
	EventID                       string `json:"eventID"`
	RedeliveryOf                  *string
	Attempts                      []struct {
		Number         int
		ResponseStatus *int
		Error          *string
		RequestHeaders []struct{ Name, Value string }
	}
}

type endpointView struct {
	Active         bool
	DisabledReason *string
	DisabledAt     *string
	Deliveries     struct{ Nodes []deliveryView }
}

func endpointLog(t *testing.T, e *servertest.Env, id string) endpointView {
	t.Helper()
	var out struct{ Node endpointView }
	e.GraphQL(e.OwnerToken, deliveriesQuery, map[string]any{"id": id}).Into(t, &out)
	return out.Node
}

// The whole scenario: a signed delivery arrives; a receiver that fails
// twice then succeeds gets exactly one accepted delivery of the event, on
// the backoff schedule; the log shows every attempt; a redelivery sends the
// same event again.
func TestWebhookRetriedUntilAcceptedThenRedelivered(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 503, 500, 200)
	ep := rc.register(e, "SPACE_CREATED")
	w := hookWorker(t, e, deliver.Options{})

	space := createSpace(t, e, "Hooked")
	createSpace(t, e, "Second")
	assert.Equal(t, 2, drain(t, w), "both events are due at once")
	assert.Equal(t, 0, drain(t, w), "a failed attempt waits for its backoff")
	e.Clock.Advance(time.Hour)
	assert.Equal(t, 2, drain(t, w))
	e.Clock.Advance(time.Hour)
	assert.Equal(t, 2, drain(t, w))
	e.Clock.Advance(time.Hour)
	assert.Equal(t, 0, drain(t, w), "delivered: nothing more to send")

	got := rc.got()
	require.Len(t, got, 6)
	for _, r := range got {
		require.NoError(t, r.verified, "every request verifies with the secret shown at creation")
		assert.Equal(t, "space.created", r.event.Type)
		assert.Equal(t, e.Org.ID, r.event.Organization)
	}
	accepted := rc.accepted()
	assert.Len(t, accepted, 2, "two events")
	for id, n := range accepted {
		assert.Equal(t, 1, n, "event %s accepted exactly once", id)
	}

	log := endpointLog(t, e, ep)
	require.Len(t, log.Deliveries.Nodes, 2)
	d := log.Deliveries.Nodes[1] // newest first: the first space's
	assert.Equal(t, "SUCCEEDED", d.State)
	assert.Equal(t, "SPACE_CREATED", d.EventType)
	var env webhook.Envelope
	require.NoError(t, json.Unmarshal([]byte(d.Payload), &env))
	assert.Equal(t, d.EventID, env.ID)
	assert.Equal(t, space, env.Data["object"].(map[string]any)["id"])
	require.Len(t, d.Attempts, 3)
	for i, status := range []int{503, 500, 200} {
		assert.Equal(t, i+1, d.Attempts[i].Number)
		require.NotNil(t, d.Attempts[i].ResponseStatus)
		assert.Equal(t, status, *d.Attempts[i].ResponseStatus)
		assert.Equal(t, status != 200, d.Attempts[i].Error != nil)
		assert.Contains(t, d.Attempts[i].RequestHeaders, struct{ Name, Value string }{"Bindery-Event-Id", d.EventID})
	}

	var re struct {
		RedeliverWebhookDelivery struct{ WebhookDelivery deliveryView }
	}
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { redeliverWebhookDelivery(input: {id: $id}) {
	  webhookDelivery { id eventID state redeliveryOf } } }`, map[string]any{"id": d.ID}).Into(t, &re)
	nd := re.RedeliverWebhookDelivery.WebhookDelivery
	assert.Equal(t, d.EventID, nd.EventID, "a redelivery repeats the event")
	assert.Equal(t, "PENDING", nd.State)
	require.NotNil(t, nd.RedeliveryOf)
	assert.Equal(t, d.ID, *nd.RedeliveryOf)
	assert.Equal(t, 1, drain(t, w))
	assert.Equal(t, 2, rc.accepted()[d.EventID], "the receiver got the event again, and deduplicates on its ID")
}

// A change that rolls back writes no delivery, and nothing is sent.
func TestWebhookRolledBackChangeSendsNothing(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	rc.register(e, "SPACE_CREATED")
	r := e.Server.Resolver()
	ctx := r.WithLoaders(auth.WithViewer(context.Background(), &auth.Viewer{User: e.Owner}))
	failed := errors.New("the change fails after the space was created")
	title := "Rolled back"
	err := r.InTx(ctx, func(ctx context.Context) error {
		_, err := r.Mutation().CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: e.Org.ID, Title: &title})
		require.NoError(t, err)
		return failed
	})
	require.ErrorIs(t, err, failed)
	n, err := e.Client.WebhookDelivery.Query().Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "no delivery of a rolled-back change")
	assert.Equal(t, 0, drain(t, hookWorker(t, e, deliver.Options{})))
	assert.Empty(t, rc.got())

	createSpace(t, e, "Committed")
	assert.Equal(t, 1, drain(t, hookWorker(t, e, deliver.Options{})), "a committed change is delivered")
}

// A worker killed after its claim loses nothing: once its lease ends,
// another worker sends the delivery.
func TestWebhookKilledWorkerLosesNothing(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	rc.register(e, "SPACE_CREATED")
	createSpace(t, e, "Hooked")

	dead := hookWorker(t, e, deliver.Options{Lease: time.Minute})
	job, err := dead.Claim(context.Background())
	require.NoError(t, err)
	require.NotNil(t, job, "claimed, then the worker dies")

	other := hookWorker(t, e, deliver.Options{Lease: time.Minute})
	assert.Equal(t, 0, drain(t, other), "the lease holds")
	e.Clock.Advance(2 * time.Minute)
	assert.Equal(t, 1, drain(t, other), "the lease ended: taken over")
	assert.Len(t, rc.accepted(), 1)

	// The dead worker wakes up late: its claim is gone, it records nothing.
	assert.ErrorIs(t, dead.Process(context.Background(), job), deliver.ErrClaimLost)
	d, err := e.Client.WebhookDelivery.Query().Only(context.Background())
	require.NoError(t, err)
	assert.Len(t, d.Attempts, 1, "only the live worker's attempt is recorded")
}

// Two workers on one database send each delivery once (on PostgreSQL
// through SKIP LOCKED, on SQLite through the conditional UPDATE).
func TestWebhookTwoWorkersSendEachDeliveryOnce(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	rc.register(e, "SPACE_CREATED")
	const spaces = 12
	for i := range spaces {
		createSpace(t, e, "Space "+string(rune('A'+i)))
	}
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i := range counts {
		w := hookWorker(t, e, deliver.Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := w.Drain(context.Background())
			assert.NoError(t, err)
			counts[i] = n
		}()
	}
	wg.Wait()
	assert.Equal(t, spaces, counts[0]+counts[1], "every delivery sent by one worker or the other")
	byDelivery := map[string]int{}
	for _, r := range rc.got() {
		byDelivery[r.delivery]++
	}
	assert.Len(t, byDelivery, spaces)
	for id, n := range byDelivery {
		assert.Equal(t, 1, n, "delivery %s sent once", id)
	}
}

// A 4xx other than 408 and 429 ends the delivery at once; an endpoint
// whose deliveries keep failing is disabled, and its admins read why.
func TestWebhookRefusalStopsAndDisables(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 410)
	ep := rc.register(e, "SPACE_CREATED", "SPACE_UPDATED")
	w := hookWorker(t, e, deliver.Options{DisableAfter: 2})

	createSpace(t, e, "One")
	assert.Equal(t, 1, drain(t, w))
	e.Clock.Advance(2 * time.Hour)
	assert.Equal(t, 0, drain(t, w), "a 410 is not retried")
	log := endpointLog(t, e, ep)
	require.Len(t, log.Deliveries.Nodes, 1)
	assert.Equal(t, "FAILED", log.Deliveries.Nodes[0].State)
	assert.True(t, log.Active, "one failure in a row is not enough to disable it")

	createSpace(t, e, "Two")
	assert.Equal(t, 1, drain(t, w))
	log = endpointLog(t, e, ep)
	assert.False(t, log.Active, "two deliveries in a row failed")
	require.NotNil(t, log.DisabledReason)
	assert.Contains(t, *log.DisabledReason, "HTTP 410")
	assert.NotNil(t, log.DisabledAt)

	createSpace(t, e, "Three")
	n, err := e.Client.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(ep)).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n, "a disabled endpoint gets no new deliveries")

	// Turning it back on clears the reason.
	var up struct {
		UpdateWebhookEndpoint struct{ WebhookEndpoint endpointView }
	}
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateWebhookEndpoint(input: {id: $id, active: true}) {
	  webhookEndpoint { active disabledReason disabledAt } } }`, map[string]any{"id": ep}).Into(t, &up)
	assert.True(t, up.UpdateWebhookEndpoint.WebhookEndpoint.Active)
	assert.Nil(t, up.UpdateWebhookEndpoint.WebhookEndpoint.DisabledReason)
}

// A timeout is retried like a 5xx.
func TestWebhookTimeoutIsRetried(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); slow.Close() })
	rc := &receiver{t: t, srv: slow, now: e.Clock.Now}
	ep := rc.register(e, "SPACE_CREATED")
	createSpace(t, e, "Slow")
	w := hookWorker(t, e, deliver.Options{Timeout: 50 * time.Millisecond})
	assert.Equal(t, 1, drain(t, w))
	log := endpointLog(t, e, ep)
	require.Len(t, log.Deliveries.Nodes, 1)
	d := log.Deliveries.Nodes[0]
	assert.Equal(t, "PENDING", d.State, "retried later")
	require.Len(t, d.Attempts, 1)
	assert.Nil(t, d.Attempts[0].ResponseStatus)
	require.NotNil(t, d.Attempts[0].Error)
	assert.Contains(t, *d.Attempts[0].Error, "timed out")
}

// Endpoints: https only, no loopback or private address unless the
// testing flag is on; at least one event type; the secret is stored sealed.
func TestWebhookEndpointValidation(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	for _, url := range []string{"https://127.0.0.1/hook", "https://localhost:8443/hook", "https://10.1.2.3/hook",
		"https://[::1]/hook", "https://169.254.169.254/latest", "http://hooks.example.com/hook", "ftp://example.com/x"} {
		res := e.GraphQL(e.OwnerToken, createWebhook, map[string]any{"in": map[string]any{"organizationId": e.Org.ID,
			"url": url, "eventTypes": []string{"SPACE_CREATED"}}})
		assert.Equal(t, "BAD_USER_INPUT", res.Code(), "%s: %v", url, res.Errors)
	}
	res := e.GraphQL(e.OwnerToken, createWebhook, map[string]any{"in": map[string]any{"organizationId": e.Org.ID,
		"url": "https://hooks.example.com/hook", "eventTypes": []string{}}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "an empty list of event types is refused")

	var out struct {
		CreateWebhookEndpoint struct {
			WebhookEndpoint struct {
				ID         string
				EventTypes []string
				Active     bool
			}
			Secret string
		}
	}
	e.GraphQL(e.OwnerToken, createWebhook, map[string]any{"in": map[string]any{"organizationId": e.Org.ID,
		"url": "https://hooks.example.com/hook", "eventTypes": []string{"SPACE_CREATED", "SPACE_CREATED", "MEMBER_ADDED"}}}).
		Into(t, &out)
	got := out.CreateWebhookEndpoint
	assert.Equal(t, []string{"SPACE_CREATED", "MEMBER_ADDED"}, got.WebhookEndpoint.EventTypes)
	assert.True(t, got.WebhookEndpoint.Active)
	row, err := e.Client.WebhookEndpoint.Query().Where(webhookendpoint.ID(got.WebhookEndpoint.ID)).Only(context.Background())
	require.NoError(t, err)
	assert.NotContains(t, row.Secret, got.Secret, "stored sealed")

	var rot struct {
		RotateWebhookEndpointSecret struct{ Secret string }
	}
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { rotateWebhookEndpointSecret(input: {id: $id}) { secret } }`,
		map[string]any{"id": got.WebhookEndpoint.ID}).Into(t, &rot)
	assert.NotEmpty(t, rot.RotateWebhookEndpointSecret.Secret)
	assert.NotEqual(t, got.Secret, rot.RotateWebhookEndpointSecret.Secret)

	// With the flag, a local receiver is allowed.
	local := servertest.New(t, allowPrivate)
	res = local.GraphQL(local.OwnerToken, createWebhook, map[string]any{"in": map[string]any{"organizationId": local.Org.ID,
		"url": "http://127.0.0.1:9/hook", "eventTypes": []string{"SPACE_CREATED"}}})
	assert.Empty(t, res.Errors)
}

// Only the organization's admins see or change webhooks: other members
// are refused (403), outsiders do not find them (404).
func TestWebhookAuthorization(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	ep := rc.register(e, "SPACE_CREATED")
	createSpace(t, e, "One")
	d, err := e.Client.WebhookDelivery.Query().Only(context.Background())
	require.NoError(t, err)
	editor, _ := e.Member(e.Org.ID, enum.RoleCreate, "editor@example.com")
	outsider := e.Token(e.User("outsider@example.com"))
	list := `query($org: ID!) { organization(id: $org) { webhookEndpoints { nodes { id } } } }`
	for _, c := range []struct {
		name, token, query string
		vars               map[string]any
		code               string
	}{
		{"member lists", editor, list, map[string]any{"org": e.Org.ID}, "FORBIDDEN"},
		{"outsider lists", outsider, list, map[string]any{"org": e.Org.ID}, "NOT_FOUND"},
		{"member reads", editor, `query($org: ID!, $id: ID!) { organization(id: $org) { webhookEndpoint(id: $id) { id } } }`,
			map[string]any{"org": e.Org.ID, "id": ep}, "NOT_FOUND"},
		{"member creates", editor, createWebhook, map[string]any{"in": map[string]any{"organizationId": e.Org.ID,
			"url": "https://hooks.example.com/x", "eventTypes": []string{"SPACE_CREATED"}}}, "FORBIDDEN"},
		{"member rotates", editor, `mutation($id: ID!) { rotateWebhookEndpointSecret(input: {id: $id}) { secret } }`,
			map[string]any{"id": ep}, "NOT_FOUND"},
		{"member redelivers", editor, `mutation($id: ID!) { redeliverWebhookDelivery(input: {id: $id}) { webhookDelivery { id } } }`,
			map[string]any{"id": d.ID}, "NOT_FOUND"},
		{"outsider deletes", outsider, `mutation($id: ID!) { deleteWebhookEndpoint(input: {id: $id}) { deletedWebhookEndpointId } }`,
			map[string]any{"id": ep}, "NOT_FOUND"},
	} {
		res := e.GraphQL(c.token, c.query, c.vars)
		assert.Equal(t, c.code, res.Code(), "%s: %v", c.name, res.Errors)
	}
	var node struct{ Node *struct{ ID string } }
	e.GraphQL(editor, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": ep}).Into(t, &node)
	assert.Nil(t, node.Node, "node(id:) does not find it for a member")
	assert.Len(t, endpointLog(t, e, ep).Deliveries.Nodes, 1, "the admin reads it")
}

// Each event type arrives with its object as /v1 presents it, in the
// documented envelope.
func TestWebhookEventShapes(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	rc.register(e, "SPACE_CREATED", "SPACE_UPDATED", "SPACE_DELETED", "SPACE_RESTORED", "CHANGE_REQUEST_CREATED",
		"CHANGE_REQUEST_UPDATED", "MEMBER_ADDED", "MEMBER_REMOVED", "COMMENT_POSTED", "COMMENT_RESOLVED", "SITE_PUBLISHED")
	must := func(q string, vars map[string]any) map[string]any {
		t.Helper()
		var out map[string]any
		e.GraphQL(e.OwnerToken, q, vars).Into(t, &out)
		return out
	}
	space := createSpace(t, e, "Shaped")
	must(`mutation($id: ID!) { updateSpace(input: {id: $id, title: "Renamed"}) { space { id } } }`, map[string]any{"id": space})
	cr := must(`mutation($s: ID!) { createChangeRequest(input: {spaceId: $s, subject: "Fix"}) { changeRequest { id } } }`,
		map[string]any{"s": space})["createChangeRequest"].(map[string]any)["changeRequest"].(map[string]any)["id"]
	must(`mutation($id: ID!) { updateChangeRequest(input: {id: $id, subject: "Fixed"}) { changeRequest { id } } }`,
		map[string]any{"id": cr})
	comment := must(`mutation($cr: ID!) { postComment(input: {changeRequestId: $cr, markdown: "Why?"}) { comment { id } } }`,
		map[string]any{"cr": cr})["postComment"].(map[string]any)["comment"].(map[string]any)["id"]
	must(`mutation($id: ID!) { resolveComment(input: {id: $id}) { comment { id } } }`, map[string]any{"id": comment})
	site := must(`mutation($org: ID!) { createSite(input: {organizationId: $org, title: "Docs"}) { site { id } } }`,
		map[string]any{"org": e.Org.ID})["createSite"].(map[string]any)["site"].(map[string]any)["id"]
	must(`mutation($id: ID!) { publishSite(input: {id: $id}) { site { id } } }`, map[string]any{"id": site})
	must(`mutation($id: ID!) { unpublishSite(input: {id: $id}) { site { id } } }`, map[string]any{"id": site})
	must(`mutation($id: ID!) { publishSite(input: {id: $id}) { site { id } } }`, map[string]any{"id": site})
	must(`mutation($id: ID!) { deleteSpace(input: {id: $id}) { clientMutationId } }`, map[string]any{"id": space})
	must(`mutation($id: ID!) { restoreSpace(input: {id: $id}) { space { id } } }`, map[string]any{"id": space})
	joiner := e.User("joiner@example.com")
	inv := must(`mutation($org: ID!) { inviteMembers(input: {organizationId: $org, role: READ, emails: [{email: "joiner@example.com"}]}) {
	  invitations { id } } }`, map[string]any{"org": e.Org.ID})["inviteMembers"].(map[string]any)["invitations"].([]any)[0].(map[string]any)["id"]
	accepted := e.GraphQL(e.Token(joiner), `mutation($id: ID!) { acceptInvitation(input: {id: $id}) { member { role } } }`,
		map[string]any{"id": inv})
	require.Empty(t, accepted.Errors)
	must(`mutation($org: ID!, $u: ID!) { removeMember(input: {organizationId: $org, userId: $u}) { clientMutationId } }`,
		map[string]any{"org": e.Org.ID, "u": joiner.ID})

	assert.Equal(t, 12, drain(t, hookWorker(t, e, deliver.Options{})), "eight events, a comment posted and resolved, "+
		"and a site published twice (unpublishing is no event)")
	byType := map[string]map[string]any{}
	for _, r := range rc.got() {
		require.NoError(t, r.verified)
		assert.NotEmpty(t, r.event.ID)
		assert.False(t, r.event.CreatedAt.IsZero())
		assert.Equal(t, e.Org.ID, r.event.Organization)
		byType[r.event.Type] = r.event.Data["object"].(map[string]any)
	}
	assert.Equal(t, "space", byType["space.created"]["object"])
	assert.Equal(t, "Shaped", byType["space.created"]["title"], "rendered in the transaction that created it")
	assert.Equal(t, "Renamed", byType["space.updated"]["title"])
	assert.Equal(t, space, byType["space.deleted"]["id"])
	assert.Equal(t, "space", byType["space.restored"]["object"])
	assert.Equal(t, "change-request", byType["change-request.created"]["object"])
	assert.Equal(t, "Fixed", byType["change-request.updated"]["subject"])
	assert.Equal(t, "member", byType["member.added"]["object"])
	assert.Equal(t, map[string]any{"id": joiner.ID}, byType["member.removed"], "a removed member is gone: its ID")
	assert.Equal(t, "comment", byType["comment.posted"]["object"])
	assert.Equal(t, comment, byType["comment.resolved"]["id"])
	assert.Equal(t, "site", byType["site.published"]["object"])
	assert.Equal(t, site, byType["site.published"]["id"])
}

// A new secret key (bindery secrets rotate) re-encrypts the signing
// secrets: deliveries signed under the new key still verify.
func TestWebhookSecretsFollowKeyRotation(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	rc.register(e, "SPACE_CREATED")
	newKey, err := secrets.NewKey()
	require.NoError(t, err)
	n, err := rekey.Rotate(context.Background(), e.Client, e.Config.SecretKey, newKey)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	createSpace(t, e, "After rotation")
	box, err := secrets.FromBase64(newKey)
	require.NoError(t, err)
	w := deliver.New(e.DB.Client, deliver.Options{Box: box, AllowPrivate: true, Now: e.Clock.Now})
	assert.Equal(t, 1, drain(t, w))
	require.Len(t, rc.got(), 1)
	assert.NoError(t, rc.got()[0].verified)
	assert.Equal(t, 200, rc.got()[0].status)
}

// Whether an organization has an active endpoint is read with the token,
// so that a change in one without any writes no delivery and costs no
// statement. An endpoint created in the same request, before a change,
// still gets the change's delivery: two mutations of one document.
func TestWebhookEndpointCreatedEarlierInTheSameRequest(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	rc := newReceiver(t, e.Clock.Now, 200)
	e.GraphQL(e.OwnerToken, `mutation($hook: CreateWebhookEndpointInput!, $space: CreateSpaceInput!) {
	  createWebhookEndpoint(input: $hook) { secret }
	  createSpace(input: $space) { space { id } } }`, map[string]any{
		"hook":  map[string]any{"organizationId": e.Org.ID, "url": rc.srv.URL + "/hook", "eventTypes": []string{"SPACE_CREATED"}},
		"space": map[string]any{"organizationId": e.Org.ID, "title": "Right after"},
	}).Into(t, &struct{}{})
	assert.Equal(t, 1, drain(t, hookWorker(t, e, deliver.Options{})), "the space created after the endpoint is delivered")
	assert.Len(t, rc.accepted(), 1)
}
