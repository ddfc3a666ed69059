package server

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	coderws "github.com/coder/websocket"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
)

// GraphQL subscriptions run over a WebSocket (graphql-transport-ws, and the
// older graphql-ws) or a Server-Sent Events stream, both on /graphql. They
// outlive the request deadline; they end when their client leaves, when
// their viewer loses access (see graph.Resolver.watch), or when the server
// shuts down.

// isWebSocket reports whether r asks to open a subscription WebSocket.
func isWebSocket(r *http.Request) bool {
	return r.URL.Path == "/graphql" && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// isEventStream reports whether r asks for a subscription's events as
// Server-Sent Events.
func isEventStream(r *http.Request) bool {
	return r.URL.Path == "/graphql" && r.Method == http.MethodPost &&
		strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// isSubscription reports whether r opens a subscription.
func isSubscription(r *http.Request) bool { return isWebSocket(r) || isEventStream(r) }

// websocketTransport is the WebSocket transport. The browser's WebSocket API
// cannot send headers, so the token comes in connection_init's payload,
// {"Authorization": "Bearer <token>"}; a client that can send the header
// may. A page may open one from the server's own origin or from an origin
// of BINDERY_CORS_ORIGINS; a client that is no browser sends no Origin.
func (s *Server) websocketTransport() transport.Websocket {
	accept := coderws.AcceptOptions{OriginPatterns: s.cfg.CORSOrigins}
	if slices.Contains(s.cfg.CORSOrigins, "*") {
		accept = coderws.AcceptOptions{InsecureSkipVerify: true}
	}
	return transport.Websocket{
		Implementation:        transport.CoderWebsocketImplementation{AcceptOptions: accept},
		InitFunc:              s.initConnection,
		InitTimeout:           10 * time.Second,
		CloseFunc:             func(ctx context.Context, _ int) { endConnection(ctx) },
		KeepAlivePingInterval: s.cfg.SubscriptionKeepAlive,
		PingPongInterval:      s.cfg.SubscriptionKeepAlive,
	}
}

// initConnection authenticates a WebSocket and gives it what a request
// gets: the viewer, loaders, and its limits.
func (s *Server) initConnection(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	v := auth.ViewerFrom(ctx)
	if v == nil {
		scheme, token, _ := strings.Cut(p.Authorization(), " ")
		if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return ctx, nil, errors.New(`authentication is required: send {"Authorization": "Bearer <token>"} in connection_init's payload`)
		}
		var err error
		if v, err = s.resolver.Authenticate(ctx, strings.TrimSpace(token), time.Now()); err != nil {
			return ctx, nil, errors.New(apperr.From(err).Message)
		}
		ctx = auth.WithViewer(ctx, v)
		setUser(ctx, v.User.ID)
	}
	if v.WebhookOrganizations != nil {
		// A connection outlives the request that opened it, and an
		// operation sent over it may be a mutation: which organizations
		// had webhook endpoints then is not kept, so that its changes
		// read them (see auth.Viewer.WebhookOrganizations).
		c := *v
		c.WebhookOrganizations = nil
		v = &c
		ctx = auth.WithViewer(ctx, v)
	}
	ctx, err := s.openConnection(ctx, v)
	if err != nil {
		return ctx, nil, errors.New(apperr.From(err).Message)
	}
	return ctx, nil, nil
}

// openConnection counts a subscription connection of the viewer's token and
// returns its context: fresh loaders, its subscription limit, and an end
// when the server shuts down. endConnection releases it.
func (s *Server) openConnection(ctx context.Context, v *auth.Viewer) (context.Context, error) {
	release, err := s.conns.acquire(v.Token.ID, s.cfg.SubscriptionConnections)
	if err != nil {
		return ctx, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s.obs.connections.Inc()
	var once sync.Once
	end := func() { once.Do(func() { cancel(); release(); s.obs.connections.Dec() }) }
	// The connection's own end, not ctx, which goes on to be wrapped below
	// while this goroutine runs.
	done := ctx.Done()
	go func() {
		select {
		case <-s.stopping:
		case <-done:
		}
		end()
	}()
	ctx = context.WithValue(ctx, connectionKey{}, end)
	ctx = graph.WithSubscriptionLimit(s.resolver.WithLoaders(ctx), s.cfg.SubscriptionsPerConnection)
	return ctx, nil
}

type connectionKey struct{}

// endConnection releases what openConnection counted.
func endConnection(ctx context.Context) {
	if end, ok := ctx.Value(connectionKey{}).(func()); ok {
		end()
	}
}

// eventStreams gives a Server-Sent Events request its connection: counted,
// without the request deadline or the server's write timeout, and ended
// on shutdown.
func (s *Server) eventStreams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := auth.ViewerFrom(r.Context())
		if !isEventStream(r) || v == nil {
			next.ServeHTTP(w, r)
			return
		}
		ctx, err := s.openConnection(r.Context(), v)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		defer endConnection(ctx)
		// The server's read and write timeouts bound requests; a stream
		// outlives them. A read deadline that passes would cancel the
		// request as if its client had left.
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// connections counts the subscription connections of each token.
type connections struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *connections) acquire(tokenID string, max int) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	if c.n[tokenID] >= max {
		return nil, apperr.RateLimitedf("This API token holds %d subscription connections already, the most it may: close one first", max)
	}
	c.n[tokenID]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.n[tokenID]--; c.n[tokenID] <= 0 {
			delete(c.n, tokenID)
		}
	}, nil
}

// Hijack lets a WebSocket take the connection through the recorder.
func (s *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := s.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("the connection cannot be hijacked")
	}
	s.status = http.StatusSwitchingProtocols
	return h.Hijack()
}

// Unwrap lets http.ResponseController reach the connection.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
