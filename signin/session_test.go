package signin_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
	"github.com/bindery/bindery/signin"
)

// signedIn signs the owner in by email and returns the session's cookie.
func signedIn(t *testing.T, e *servertest.Env, logs *mailLog) (*browser, *http.Cookie) {
	t.Helper()
	b := newBrowser(t, e)
	a := useLink(t, b, askLink(t, b, logs, e.Owner.Email, ""))
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	c := a.cookie(signin.SessionCookie(e.Config.PublicURL[:5] == "https"))
	require.NotNil(t, c)
	return b, c
}

// gql sends a GraphQL operation with the cookie and returns the answer.
func (b *browser) gql(c *http.Cookie, query string, headers ...string) answer {
	body, err := json.Marshal(map[string]any{"query": query})
	require.NoError(b.t, err)
	headers = append(headers, "Cookie", c.Name+"="+c.Value)
	return b.do(http.MethodPost, "/graphql", "application/json", string(body), headers...)
}

// TestSessionCookieOverHTTPS: behind https the session's cookie is a
// Secure __Host- cookie, which no other site or subdomain can set.
func TestSessionCookieOverHTTPS(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t, func(c *config.Config) { c.PublicURL = "https://bindery.test" })
	_, c := signedIn(t, e, logs)
	assert.Equal(t, "__Host-bindery_session", c.Name)
	assert.True(t, c.Secure)
	assert.True(t, c.HttpOnly)
	assert.Equal(t, "/", c.Path)
	assert.Empty(t, c.Domain)
	assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
	assert.WithinDuration(t, time.Now().Add(30*24*time.Hour), c.Expires, time.Minute, "the session's lifetime")
}

// TestSessionRefusesOtherSites: a request that the cookie authenticates
// and that would change something is refused when another site makes it,
// unless that site is an allowed origin; reading, and a bearer token, are
// not refused.
func TestSessionRefusesOtherSites(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t, func(c *config.Config) { c.CORSOrigins = []string{"https://app.example.com"} })
	b, c := signedIn(t, e, logs)
	mutation := `mutation { createAPIToken(input: {label: "From a page"}) { apiToken { id } } }`

	a := b.gql(c, mutation, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	assert.Equal(t, http.StatusForbidden, a.status)
	assert.Contains(t, a.body, "another site")
	a = b.gql(c, mutation, "Origin", "https://evil.example")
	assert.Equal(t, http.StatusForbidden, a.status, "an Origin other than the server's, without Sec-Fetch-Site")

	a = b.gql(c, mutation, "Sec-Fetch-Site", "cross-site", "Origin", "https://app.example.com")
	assert.Equal(t, http.StatusOK, a.status, "an allowed origin: %s", a.body)
	a = b.gql(c, mutation, "Sec-Fetch-Site", "same-origin")
	assert.Equal(t, http.StatusOK, a.status, a.body)
	a = b.gql(c, mutation)
	assert.Equal(t, http.StatusOK, a.status, "no browser headers: not a browser's cross-site request")

	get := b.do(http.MethodGet, "/v1/user", "", "", "Cookie", c.Name+"="+c.Value, "Sec-Fetch-Site", "cross-site")
	assert.Equal(t, http.StatusOK, get.status, "reading is safe")
	post := b.do(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", "application/json", `{"title":"X"}`,
		"Authorization", "Bearer "+e.OwnerToken, "Sec-Fetch-Site", "cross-site")
	assert.Equal(t, http.StatusCreated, post.status, "a token is never sent by a browser on its own")
}

// TestCredentialsFromTheirOwnPlace: a session's secret is refused as a
// bearer token, and a token as the cookie.
func TestCredentialsFromTheirOwnPlace(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b, c := signedIn(t, e, logs)
	a := b.do(http.MethodGet, "/v1/user", "", "", "Authorization", "Bearer "+c.Value)
	assert.Equal(t, http.StatusUnauthorized, a.status)
	_, status := viewerOf(t, b, &http.Cookie{Name: c.Name, Value: e.OwnerToken})
	assert.Equal(t, http.StatusUnauthorized, status)
	a = b.do(http.MethodGet, "/v1/user", "", "")
	assert.Equal(t, http.StatusUnauthorized, a.status)
	assert.Contains(t, a.body, "/auth/sign-in")
}

// TestSessionsOfTheViewer: the viewer lists their sessions, revokes one,
// and signs out; each takes effect at the next request.
func TestSessionsOfTheViewer(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b, first := signedIn(t, e, logs)
	_, second := signedIn(t, e, logs)

	a := b.gql(first, `{ viewer { sessions { nodes { id method userAgent current expiresAt } } apiTokens { totalCount } } }`)
	require.Equal(t, http.StatusOK, a.status, a.body)
	var d struct {
		Data struct {
			Viewer struct {
				Sessions struct {
					Nodes []struct {
						ID, Method string
						UserAgent  *string
						Current    bool
					}
				}
				APITokens struct{ TotalCount int }
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(a.body), &d))
	sessions := d.Data.Viewer.Sessions.Nodes
	require.Len(t, sessions, 2)
	assert.Equal(t, 1, d.Data.Viewer.APITokens.TotalCount, "sessions are no API tokens")
	assert.Equal(t, "EMAIL", sessions[0].Method)
	assert.True(t, sessions[0].Current)
	assert.False(t, sessions[1].Current)
	require.NotNil(t, sessions[0].UserAgent)
	assert.Contains(t, *sessions[0].UserAgent, "Go-http-client")

	a = b.gql(first, `mutation { revokeAPIToken(input: {id: "`+sessions[1].ID+`"}) { revokedAPITokenId } }`)
	assert.Contains(t, a.body, "NOT_FOUND", "a session is not revoked as a token")
	a = b.gql(first, `mutation { revokeSession(input: {id: "`+sessions[1].ID+`"}) { revokedSessionId } }`)
	require.Equal(t, http.StatusOK, a.status, a.body)
	_, status := viewerOf(t, b, second)
	assert.Equal(t, http.StatusUnauthorized, status, "the revoked session")

	a = b.gql(first, `mutation { signOut { endedSessionId } }`)
	require.Equal(t, http.StatusOK, a.status, a.body)
	assert.Contains(t, a.body, sessions[0].ID)
	_, status = viewerOf(t, b, first)
	assert.Equal(t, http.StatusUnauthorized, status, "signed out")

	tok := e.GraphQL(e.OwnerToken, `mutation { signOut { endedSessionId } }`, nil)
	assert.Equal(t, "PRECONDITION_FAILED", tok.Code(), "a token has no session to end")
}

// TestSignOutPage: the sign-out form ends the session and forgets the
// cookie; the page itself changes nothing.
func TestSignOutPage(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b, c := signedIn(t, e, logs)
	page := b.do(http.MethodGet, "/auth/sign-out", "", "", "Cookie", c.Name+"="+c.Value)
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, `action="/auth/sign-out"`)
	_, status := viewerOf(t, b, c)
	require.Equal(t, http.StatusOK, status, "opening the page signs nobody out")

	cross := b.form("/auth/sign-out", url.Values{}, "Cookie", c.Name+"="+c.Value, "Sec-Fetch-Site", "cross-site")
	assert.Equal(t, http.StatusForbidden, cross.status, "another site cannot sign a person out")

	a := b.form("/auth/sign-out", url.Values{}, "Cookie", c.Name+"="+c.Value)
	require.Equal(t, http.StatusSeeOther, a.status)
	gone := a.cookie(c.Name)
	require.NotNil(t, gone)
	assert.Negative(t, gone.MaxAge)
	_, status = viewerOf(t, b, c)
	assert.Equal(t, http.StatusUnauthorized, status)
}

// TestSessionIdle: a session unused for the idle lifetime ends.
func TestSessionIdle(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b, c := signedIn(t, e, logs)
	_, status := viewerOf(t, b, c)
	require.Equal(t, http.StatusOK, status)
	e.Client.APIToken.Update().Where(apitoken.TokenHash(auth.HashToken(c.Value))).
		SetLastUsedAt(time.Now().Add(-e.Config.SessionIdle - time.Minute)).ExecX(t.Context())
	// What the server keeps of the session lasts until the next write (or
	// a second): this one stands for the days that pass.
	e.User("someone@example.com")
	a := b.gql(c, `{ viewer { id } }`)
	assert.Equal(t, http.StatusUnauthorized, a.status)
	assert.Contains(t, a.body, "The session has expired")
}

// TestSessionCostsWhatATokenCosts: a request the cookie authenticates runs
// no more statements than one with a token.
func TestSessionCostsWhatATokenCosts(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b, c := signedIn(t, e, logs)
	query := `{ viewer { id organizations(first: 5) { nodes { title } } } }`
	count := func(send func() answer) int64 {
		send() // records the first use, as any credential's
		before := e.Statements.Load()
		a := send()
		require.Equal(t, http.StatusOK, a.status, a.body)
		return e.Statements.Load() - before
	}
	withToken := count(func() answer {
		return b.do(http.MethodPost, "/graphql", "application/json", `{"query":"`+query+`"}`, "Authorization", "Bearer "+e.OwnerToken)
	})
	withCookie := count(func() answer { return b.gql(c, query) })
	assert.Positive(t, withToken)
	assert.Equal(t, withToken, withCookie)
}

// TestRevocationReachesReplicas: a session revoked through one server is
// refused by it at once, and by another as soon as it hears of the write
// (by NOTIFY): sessions are kept in the database.
func TestRevocationReachesReplicas(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("one server owns a SQLite database")
	}
	t.Parallel()
	e, logs := emailEnv(t)
	b, c := signedIn(t, e, logs)
	other := newBrowser(t, servertest.Replica(t, e))
	id, status := viewerOf(t, other, c)
	require.Equal(t, http.StatusOK, status, "the other server accepts the session")
	require.Equal(t, e.Owner.ID, id)
	a := b.gql(c, `mutation { signOut { endedSessionId } }`)
	require.Equal(t, http.StatusOK, a.status)
	_, status = viewerOf(t, b, c)
	assert.Equal(t, http.StatusUnauthorized, status, "refused at once by the server that ended it")
	assert.Eventually(t, func() bool {
		_, status := viewerOf(t, other, c)
		return status == http.StatusUnauthorized
	}, 5*time.Second, 10*time.Millisecond, "the other server hears of it")
	assert.Equal(t, 0, e.Client.APIToken.Query().Where(apitoken.KindEQ(enum.CredentialKindSession)).CountX(t.Context()))
}
