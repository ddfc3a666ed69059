package signin_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
	"github.com/bindery/bindery/signin"
)

// mailLog is a server's log, where email goes without a relay.
type mailLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *mailLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *mailLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var linkToken = regexp.MustCompile(`token=(bnl_[0-9A-Za-z]+)`)

// links returns the secrets of the email links logged so far.
func (l *mailLog) links() []string {
	var out []string
	for _, m := range linkToken.FindAllStringSubmatch(l.String(), -1) {
		out = append(out, m[1])
	}
	return out
}

// browser is a client that keeps no cookies of its own and follows no
// redirects: each test says what it sends.
type browser struct {
	t *testing.T
	e *servertest.Env
	c *http.Client
}

func newBrowser(t *testing.T, e *servertest.Env) *browser {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &browser{t: t, e: e, c: c}
}

// answer is a response read whole.
type answer struct {
	status  int
	header  http.Header
	body    string
	cookies map[string]*http.Cookie
}

// read reads a response whole.
func read(t testing.TB, res *http.Response) answer {
	t.Helper()
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a := answer{status: res.StatusCode, header: res.Header, body: string(data), cookies: map[string]*http.Cookie{}}
	for _, c := range res.Cookies() {
		a.cookies[c.Name] = c
	}
	return a
}

func (b *browser) do(method, path, contentType, body string, headers ...string) answer {
	b.t.Helper()
	req, err := http.NewRequest(method, b.e.HTTP.URL+path, strings.NewReader(body))
	require.NoError(b.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := b.c.Do(req)
	require.NoError(b.t, err)
	return read(b.t, resp)
}

func (b *browser) form(path string, values url.Values, headers ...string) answer {
	return b.do(http.MethodPost, path, "application/x-www-form-urlencoded", values.Encode(), headers...)
}

// cookie returns the cookie of a name an answer sets, or nil.
func (a answer) cookie(name string) *http.Cookie { return a.cookies[name] }

// emailEnv is a server whose log holds the email it sends.
func emailEnv(t *testing.T, opts ...servertest.Option) (*servertest.Env, *mailLog) {
	logs := &mailLog{}
	opts = append(opts, servertest.WithLog(slog.New(slog.NewTextHandler(logs, nil))))
	return servertest.New(t, opts...), logs
}

// askLink asks for a link for address and waits for it, returning its
// secret.
func askLink(t *testing.T, b *browser, logs *mailLog, address, returnTo string) string {
	t.Helper()
	before := len(logs.links())
	a := b.form("/auth/email", url.Values{"email": {address}, "return_to": {returnTo}})
	require.Equal(t, http.StatusOK, a.status, a.body)
	require.Contains(t, a.body, "Check your email")
	require.Eventually(t, func() bool { return len(logs.links()) > before }, 5*time.Second, 5*time.Millisecond, "the link is mailed")
	links := logs.links()
	return links[len(links)-1]
}

// useLink opens a link and signs in with it, returning the answer.
func useLink(t *testing.T, b *browser, secret string) answer {
	t.Helper()
	page := b.do(http.MethodGet, "/auth/email/confirm?token="+secret, "", "")
	require.Equal(t, http.StatusOK, page.status)
	require.Contains(t, page.body, `action="/auth/email/confirm"`, "opening the link signs nobody in: a button does")
	return b.form("/auth/email/confirm", url.Values{"token": {secret}})
}

// viewerOf returns the ID of the viewer a session cookie authenticates, or
// the status of the refusal.
func viewerOf(t *testing.T, b *browser, cookie *http.Cookie, headers ...string) (string, int) {
	t.Helper()
	headers = append(headers, "Cookie", cookie.Name+"="+cookie.Value)
	a := b.do(http.MethodPost, "/graphql", "application/json", `{"query":"{ viewer { id } }"}`, headers...)
	if a.status != http.StatusOK {
		return "", a.status
	}
	m := regexp.MustCompile(`"id":"([^"]+)"`).FindStringSubmatch(a.body)
	require.NotNil(t, m, a.body)
	return m[1], a.status
}

// TestEmailLinkSignsInOnce: a link, opened and confirmed, starts a session
// whose cookie authenticates the APIs, sends the browser where it began,
// and cannot be used again.
func TestEmailLinkSignsInOnce(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b := newBrowser(t, e)
	secret := askLink(t, b, logs, "Owner@Example.com", "/s/spc_1?tab=pages")
	assert.NotContains(t, logs.String(), `path=/auth/email/confirm?token`, "the access log leaves the secret out")

	a := useLink(t, b, secret)
	require.Equal(t, http.StatusSeeOther, a.status, logs.String())
	assert.Equal(t, "/s/spc_1?tab=pages", a.header.Get("Location"))
	c := a.cookie(signin.SessionCookie(false))
	require.NotNil(t, c)
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
	assert.Equal(t, "/", c.Path)
	assert.False(t, c.Secure, "plain http: a Secure cookie would never come back")
	assert.True(t, strings.HasPrefix(c.Value, "bns_"))
	id, status := viewerOf(t, b, c)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, e.Owner.ID, id)

	again := useLink(t, b, secret)
	assert.Equal(t, http.StatusNotFound, again.status, "a link signs in once")
	assert.Nil(t, again.cookie(signin.SessionCookie(false)))
	assert.Contains(t, again.body, "expired or was already used")

	// A second sign-in is a new session.
	c2 := useLink(t, b, askLink(t, b, logs, "owner@example.com", "")).cookie(signin.SessionCookie(false))
	require.NotNil(t, c2)
	assert.NotEqual(t, c.Value, c2.Value)
}

// TestEmailLinkExpires: a link is good for 15 minutes.
func TestEmailLinkExpires(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b := newBrowser(t, e)
	secret := askLink(t, b, logs, "owner@example.com", "")
	e.Clock.Advance(16 * time.Minute)
	a := useLink(t, b, secret)
	assert.Equal(t, http.StatusNotFound, a.status)
	assert.Nil(t, a.cookie(signin.SessionCookie(false)))
}

// TestEmailLinkTellsNothing: an address without an account gets the same
// answer as one with, and no link; a form request and a JSON one alike.
func TestEmailLinkTellsNothing(t *testing.T) {
	t.Parallel()
	e, logs := emailEnv(t)
	b := newBrowser(t, e)
	known := b.form("/auth/email", url.Values{"email": {"owner@example.com"}})
	unknown := b.form("/auth/email", url.Values{"email": {"stranger@example.com"}})
	assert.Equal(t, known.status, unknown.status)
	assert.Equal(t, known.body, strings.ReplaceAll(unknown.body, "stranger@example.com", "owner@example.com"))
	for _, address := range []string{"owner@example.com", "stranger@example.com"} {
		a := b.do(http.MethodPost, "/auth/email", "application/json", `{"email":"`+address+`"}`)
		assert.Equal(t, http.StatusAccepted, a.status, address)
		assert.JSONEq(t, `{"message":"If the address can sign in to Bindery, a sign-in link is on its way to it."}`, a.body)
	}
	require.Eventually(t, func() bool { return len(logs.links()) == 2 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	assert.Len(t, logs.links(), 2, "the owner's two links, none for the stranger")
	assert.NotContains(t, logs.String(), "to=stranger@example.com")

	bad := b.do(http.MethodPost, "/auth/email", "application/json", `{"email":"not an address"}`)
	assert.Equal(t, http.StatusBadRequest, bad.status)
	assert.Contains(t, bad.body, `"code":400`)
}

// TestEmailLinkLimits: an address gets a few links a quarter of an hour,
// whoever asks, known or not.
func TestEmailLinkLimits(t *testing.T) {
	t.Parallel()
	e, _ := emailEnv(t)
	b := newBrowser(t, e)
	for range 5 {
		require.Equal(t, http.StatusOK, b.form("/auth/email", url.Values{"email": {"stranger@example.com"}}).status)
	}
	a := b.form("/auth/email", url.Values{"email": {"Stranger@example.com"}})
	assert.Equal(t, http.StatusTooManyRequests, a.status)
	assert.Contains(t, a.body, "Too many sign-in links")
	assert.Equal(t, http.StatusOK, b.form("/auth/email", url.Values{"email": {"other@example.com"}}).status,
		"another address has its own budget")
}

// TestEmailLinkAccounts: an invited address signs in as a new user and
// joins; with BINDERY_SIGN_UP=domains, so does an address of a domain an
// organization lists; anyone else has no account to sign in to.
func TestEmailLinkAccounts(t *testing.T) {
	t.Parallel()
	t.Run("invited", func(t *testing.T) {
		t.Parallel()
		e, logs := emailEnv(t)
		b := newBrowser(t, e)
		e.Client.Invite.Create().SetOrganizationID(e.Org.ID).SetKind(enum.InviteKindEmail).SetEmail("new@example.com").
			SetRole(enum.RoleEdit).ExecX(t.Context())
		a := useLink(t, b, askLink(t, b, logs, "new@example.com", ""))
		require.Equal(t, http.StatusSeeOther, a.status, a.body)
		u := e.User("new@example.com")
		m := e.Client.Member.Query().Where(member.OrganizationID(e.Org.ID), member.UserID(u.ID)).OnlyX(t.Context())
		assert.Equal(t, enum.RoleEdit, *m.Role, "the invitation is accepted")
	})
	t.Run("domains", func(t *testing.T) {
		t.Parallel()
		e, logs := emailEnv(t, func(c *config.Config) { c.SignUp = config.SignUpDomains })
		e.Client.Organization.UpdateOne(e.Org).SetEmailDomains([]string{"example.org"}).ExecX(t.Context())
		b := newBrowser(t, e)
		a := useLink(t, b, askLink(t, b, logs, "alice@example.org", ""))
		require.Equal(t, http.StatusSeeOther, a.status, a.body)
		id, status := viewerOf(t, b, a.cookie(signin.SessionCookie(false)))
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, e.User("alice@example.org").ID, id)
	})
	t.Run("closed", func(t *testing.T) {
		t.Parallel()
		e, logs := emailEnv(t)
		e.Client.Organization.UpdateOne(e.Org).SetEmailDomains([]string{"example.org"}).ExecX(t.Context())
		b := newBrowser(t, e)
		require.Equal(t, http.StatusOK, b.form("/auth/email", url.Values{"email": {"alice@example.org"}}).status)
		time.Sleep(50 * time.Millisecond)
		assert.Empty(t, logs.links(), "sign-up is closed: no link for an address without an account")
	})
}

// TestReturnToStaysHere: a sign-in never sends the browser to another
// site, whatever return_to says.
func TestReturnToStaysHere(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"/s/spc_1":                 "/s/spc_1",
		"/o/org_1?x=1":             "/o/org_1?x=1",
		"//evil.example/":          "/",
		"/\\evil.example":          "/",
		"https://evil.example/":    "/",
		"javascript:alert(1)":      "/",
		"":                         "/",
		"/ok\r\nSet-Cookie: x=1":   "/",
		"/%2F%2Fevil.example/path": "/%2F%2Fevil.example/path",
	} {
		assert.Equal(t, want, signin.ReturnTo(raw), raw)
	}
}
