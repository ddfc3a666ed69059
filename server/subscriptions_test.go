package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	coderws "github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/server/servertest"
)

// wsMessage is a message of the graphql-transport-ws protocol.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsClient is a graphql-transport-ws client, as graphiql's or Apollo's.
type wsClient struct {
	t    *testing.T
	conn *coderws.Conn
	ctx  context.Context
}

// dialWS opens a WebSocket on /graphql and sends connection_init with
// payload.
func dialWS(t *testing.T, e *servertest.Env, payload map[string]any) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	conn, _, err := coderws.Dial(ctx, "ws"+strings.TrimPrefix(e.HTTP.URL, "http")+"/graphql",
		&coderws.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	require.NoError(t, err)
	t.Cleanup(func() { conn.CloseNow() })
	c := &wsClient{t: t, conn: conn, ctx: ctx}
	init, err := json.Marshal(payload)
	require.NoError(t, err)
	c.send(wsMessage{Type: "connection_init", Payload: init})
	return c
}

func (c *wsClient) send(m wsMessage) {
	c.t.Helper()
	require.NoError(c.t, wsjson.Write(c.ctx, c.conn, m))
}

// next reads the next message that is not a ping, answering pings.
func (c *wsClient) next() (wsMessage, error) {
	for {
		var m wsMessage
		if err := wsjson.Read(c.ctx, c.conn, &m); err != nil {
			return m, err
		}
		if m.Type == "ping" {
			c.send(wsMessage{Type: "pong"})
			continue
		}
		return m, nil
	}
}

func (c *wsClient) expect(typ string) wsMessage {
	c.t.Helper()
	m, err := c.next()
	require.NoError(c.t, err)
	require.Equal(c.t, typ, m.Type, "payload: %s", m.Payload)
	return m
}

func (c *wsClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	p, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(c.t, err)
	c.send(wsMessage{ID: id, Type: "subscribe", Payload: p})
}

// subscribed waits until the server of e has n subscriptions of topic.
func subscribed(t *testing.T, e *servertest.Env, topic string, n int) {
	t.Helper()
	bus := e.Server.Resolver().Bus().(interface{ Subscribers(string) int })
	require.Eventually(t, func() bool { return bus.Subscribers(topic) == n }, 10*time.Second, 5*time.Millisecond,
		"subscriptions of %s", topic)
}

// openStream starts a subscription as Server-Sent Events on the server at
// base, as tok.
func openStream(t *testing.T, base, tok, query string, vars map[string]any) *http.Response {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/graphql", strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, res.Header.Get("Content-Type"), "text/event-stream")
	return res
}

// streamData returns the data of the stream's next event about field.
func streamData(t *testing.T, res *http.Response, field string) string {
	t.Helper()
	lines := bufio.NewScanner(res.Body)
	for lines.Scan() {
		if d, ok := strings.CutPrefix(lines.Text(), "data: "); ok && strings.Contains(d, field) {
			return d
		}
	}
	require.FailNow(t, "no event", "%v", lines.Err())
	return ""
}

const crEvents = `subscription($s: ID!) { changeRequestEvents(spaceId: $s) {
  id type changeRequestId at changeRequest { subject status } } }`

// watchChangeRequests opens a WebSocket on e as tok and subscribes to the
// change request events of space, once the server has the subscription.
func watchChangeRequests(t *testing.T, e *servertest.Env, tok, space string) *wsClient {
	t.Helper()
	c := dialWS(t, e, map[string]any{"Authorization": "Bearer " + tok})
	c.expect("connection_ack")
	c.subscribe("1", crEvents, map[string]any{"s": space})
	subscribed(t, e, events.ChangeRequestsTopic(space), 1)
	return c
}

func newSpace(t *testing.T, e *servertest.Env, tok string) string {
	t.Helper()
	return e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", tok, map[string]any{"title": "Live"}, http.StatusCreated)["id"].(string)
}

func TestSubscriptionOverWebSocket(t *testing.T) {
	e := servertest.New(t)
	space := newSpace(t, e, e.OwnerToken)
	c := watchChangeRequests(t, e, e.OwnerToken, space)

	cr := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken,
		map[string]any{"subject": "Fix the typo"}, http.StatusCreated)["id"].(string)
	m := c.expect("next")
	assert.Equal(t, "1", m.ID)
	var got struct {
		Data struct {
			ChangeRequestEvents struct {
				ID, Type, ChangeRequestID, At string
				ChangeRequest                 struct{ Subject, Status string }
			}
		}
	}
	require.NoError(t, json.Unmarshal(m.Payload, &got), string(m.Payload))
	ev := got.Data.ChangeRequestEvents
	assert.Equal(t, "CHANGE_REQUEST_CREATED", ev.Type)
	assert.Equal(t, cr, ev.ChangeRequestID)
	assert.Equal(t, "Fix the typo", ev.ChangeRequest.Subject)
	assert.NotEmpty(t, ev.ID)

	// The fields show the change request as it is when its event arrives.
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space+"/change-requests/"+cr, e.OwnerToken,
		map[string]any{"subject": "Fix two typos"}, http.StatusOK)
	m = c.expect("next")
	require.NoError(t, json.Unmarshal(m.Payload, &got))
	assert.Equal(t, "CHANGE_REQUEST_UPDATED", got.Data.ChangeRequestEvents.Type)
	assert.Equal(t, "Fix two typos", got.Data.ChangeRequestEvents.ChangeRequest.Subject)

	c.send(wsMessage{ID: "1", Type: "complete"})
	subscribed(t, e, events.ChangeRequestsTopic(space), 0)
}

func TestSubscriptionRefusals(t *testing.T) {
	e := servertest.New(t)
	space := newSpace(t, e, e.OwnerToken)
	t.Run("no token", func(t *testing.T) {
		c := dialWS(t, e, map[string]any{})
		_, err := c.next()
		require.Error(t, err, "the connection is closed")
	})
	t.Run("a bad token", func(t *testing.T) {
		c := dialWS(t, e, map[string]any{"Authorization": "Bearer gb_api_nope"})
		_, err := c.next()
		require.Error(t, err)
	})
	t.Run("a space the viewer cannot see", func(t *testing.T) {
		stranger := e.Token(e.User("stranger@example.com"))
		c := dialWS(t, e, map[string]any{"Authorization": "Bearer " + stranger})
		c.expect("connection_ack")
		c.subscribe("1", crEvents, map[string]any{"s": space})
		// An execution error, as graphql-transport-ws sends one: in a
		// next, then the subscription completes.
		m := c.expect("next")
		assert.Contains(t, string(m.Payload), `"code":"NOT_FOUND"`)
		c.expect("complete")
	})
	t.Run("too many subscriptions on one connection", func(t *testing.T) {
		e := servertest.New(t, func(c *config.Config) { c.SubscriptionsPerConnection = 1 })
		space := newSpace(t, e, e.OwnerToken)
		c := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.OwnerToken})
		c.expect("connection_ack")
		c.subscribe("1", crEvents, map[string]any{"s": space})
		subscribed(t, e, events.ChangeRequestsTopic(space), 1)
		c.subscribe("2", crEvents, map[string]any{"s": space})
		m := c.expect("next")
		assert.Equal(t, "2", m.ID)
		assert.Contains(t, string(m.Payload), `"code":"RATE_LIMITED"`)
	})
}

func TestSubscriptionConnectionsPerToken(t *testing.T) {
	e := servertest.New(t, func(c *config.Config) { c.SubscriptionConnections = 1 })
	first := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.OwnerToken})
	first.expect("connection_ack")
	second := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.OwnerToken})
	_, err := second.next()
	require.Error(t, err, "a second connection of the token is refused")
	// Another token of the same user has its own.
	other := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.Token(e.Owner)})
	other.expect("connection_ack")
	// Closing the first frees its place.
	first.conn.Close(coderws.StatusNormalClosure, "")
	require.Eventually(t, func() bool {
		c := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.OwnerToken})
		m, err := c.next()
		return err == nil && m.Type == "connection_ack"
	}, 10*time.Second, 20*time.Millisecond)
}

// TestSubscriptionsEndOnShutdown: closing the server ends its WebSockets.
func TestSubscriptionsEndOnShutdown(t *testing.T) {
	e := servertest.New(t)
	c := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.OwnerToken})
	c.expect("connection_ack")
	require.NoError(t, e.Server.Close())
	for {
		if _, err := c.next(); err != nil {
			assert.Equal(t, coderws.StatusNormalClosure, coderws.CloseStatus(err), "a clean close: %v", err)
			return
		}
	}
}

// TestSubscriptionEndsWithAccess: a viewer who loses access stops receiving
// events: the subscription completes.
func TestSubscriptionEndsWithAccess(t *testing.T) {
	e := servertest.New(t)
	space := newSpace(t, e, e.OwnerToken)
	reader, u := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	c := watchChangeRequests(t, e, reader, space)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken, map[string]any{}, http.StatusCreated)
	c.expect("next")

	_, err := e.Client.Member.Delete().Where(member.UserID(u.ID)).Exec(context.Background())
	require.NoError(t, err)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken, map[string]any{}, http.StatusCreated)
	m := c.expect("complete")
	assert.Equal(t, "1", m.ID)
}

func TestSubscriptionOverServerSentEvents(t *testing.T) {
	e := servertest.New(t)
	// A server whose read and write timeouts, as Run sets them, pass while
	// the stream is open.
	timed := httptest.NewUnstartedServer(e.Server)
	timed.Config.ReadTimeout, timed.Config.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	timed.Start()
	t.Cleanup(timed.Close)
	space := newSpace(t, e, e.OwnerToken)
	res := openStream(t, timed.URL, e.OwnerToken, `subscription($s: ID!) { spaceContentEvents(spaceId: $s) {
	  type revisionId revision { id } } }`, map[string]any{"s": space})
	subscribed(t, e, events.SpaceContentTopic(space), 1)
	time.Sleep(time.Second) // past both timeouts

	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	var page struct {
		CreatePage struct{ Revision struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `mutation($s: ID!) { createPage(input: {spaceId: $s, title: "Live"}) { revision { id } } }`,
		map[string]any{"s": space}).Into(t, &page)

	data := streamData(t, res, "spaceContentEvents")
	var got struct {
		Data struct {
			SpaceContentEvents struct {
				Type, RevisionID string
				Revision         struct{ ID string }
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(data), &got), data)
	assert.Equal(t, "SPACE_CONTENT", got.Data.SpaceContentEvents.Type)
	assert.Equal(t, page.CreatePage.Revision.ID, got.Data.SpaceContentEvents.RevisionID)
	assert.Equal(t, page.CreatePage.Revision.ID, got.Data.SpaceContentEvents.Revision.ID)
}

// TestSubscriptionAcrossServers: on PostgreSQL, an event published by one
// server reaches the subscribers of another on the same database.
func TestSubscriptionAcrossServers(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("servers share events through PostgreSQL; set " + servertest.EnvDatabaseURL)
	}
	e := servertest.New(t)
	other := servertest.Reuse(t, e)
	space := newSpace(t, e, e.OwnerToken)
	c := watchChangeRequests(t, other, e.OwnerToken, space)
	cr := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken,
		map[string]any{"subject": "From the other server"}, http.StatusCreated)["id"].(string)
	m := c.expect("next")
	assert.Contains(t, string(m.Payload), cr)
	assert.Contains(t, string(m.Payload), "From the other server")
}

const commentEvents = `subscription($s: ID!, $cr: ID) { commentEvents(spaceId: $s, changeRequestId: $cr) {
  type commentId replyId comment { id body { markdown } } reply { id } } }`

// TestCommentEventsOverWebSocket: a comment posted through /v1 on a change
// request, and a reply to it, reach a WebSocket subscriber of the change
// request's comments, and not one of the space's own.
func TestCommentEventsOverWebSocket(t *testing.T) {
	e := servertest.New(t)
	space := newSpace(t, e, e.OwnerToken)
	cr := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", e.OwnerToken, map[string]any{}, http.StatusCreated)["id"].(string)
	c := dialWS(t, e, map[string]any{"Authorization": "Bearer " + e.OwnerToken})
	c.expect("connection_ack")
	c.subscribe("cr", commentEvents, map[string]any{"s": space, "cr": cr})
	c.subscribe("space", commentEvents, map[string]any{"s": space})
	subscribed(t, e, events.CommentsTopic(space, cr), 1)
	subscribed(t, e, events.CommentsTopic(space, ""), 1)

	base := "/v1/spaces/" + space + "/change-requests/" + cr + "/comments"
	comment := e.MustDo(http.MethodPost, base, e.OwnerToken, map[string]any{"body": map[string]any{"markdown": "Looks good"}},
		http.StatusOK)["id"].(string)
	reply := e.MustDo(http.MethodPost, base+"/"+comment+"/replies", e.OwnerToken,
		map[string]any{"body": map[string]any{"markdown": "Thanks"}}, http.StatusOK)["id"].(string)
	type payload struct {
		Data struct {
			CommentEvents struct {
				Type, CommentID string
				ReplyID         *string
				Comment         struct {
					ID   string
					Body struct{ Markdown string }
				}
				Reply *struct{ ID string }
			}
		}
	}
	var got []payload
	for len(got) < 2 {
		m := c.expect("next")
		require.Equal(t, "cr", m.ID, "the space's own comments heard nothing: %s", m.Payload)
		var p payload
		require.NoError(t, json.Unmarshal(m.Payload, &p), string(m.Payload))
		got = append(got, p)
	}
	posted, replied := got[0].Data.CommentEvents, got[1].Data.CommentEvents
	assert.Equal(t, "COMMENT_POSTED", posted.Type)
	assert.Equal(t, comment, posted.CommentID)
	assert.Equal(t, "Looks good", posted.Comment.Body.Markdown)
	assert.Nil(t, posted.ReplyID)
	assert.Equal(t, "REPLY_POSTED", replied.Type)
	assert.Equal(t, comment, replied.CommentID)
	require.NotNil(t, replied.ReplyID)
	assert.Equal(t, reply, *replied.ReplyID)
	require.NotNil(t, replied.Reply)
	assert.Equal(t, reply, replied.Reply.ID)
}

// TestCommentEventsOverServerSentEvents: the same comment reaches an event
// stream.
func TestCommentEventsOverServerSentEvents(t *testing.T) {
	e := servertest.New(t)
	space := newSpace(t, e, e.OwnerToken)
	res := openStream(t, e.HTTP.URL, e.OwnerToken, commentEvents, map[string]any{"s": space})
	subscribed(t, e, events.CommentsTopic(space, ""), 1)
	comment := e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/comments", e.OwnerToken,
		map[string]any{"body": map[string]any{"markdown": "Hello"}}, http.StatusOK)["id"].(string)
	d := streamData(t, res, "commentEvents")
	assert.Contains(t, d, `"type":"COMMENT_POSTED"`)
	assert.Contains(t, d, comment)
}
