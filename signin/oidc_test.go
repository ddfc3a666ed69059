package signin_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

// keys are the RSA keys test providers sign with: the provider's own, and
// one nobody published. Made once: each takes a while.
var keys = sync.OnceValue(func() [2]*rsa.PrivateKey {
	var out [2]*rsa.PrivateKey
	for i := range out {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		out[i] = k
	}
	return out
})

// idp is an OpenID Connect provider in the test's process: discovery,
// keys, an authorization endpoint that signs in whoever the test says at
// once, and a token endpoint that checks the client, the redirect URI and
// the PKCE verifier and signs ID tokens with a real RSA key.
type idp struct {
	t        testing.TB
	srv      *httptest.Server
	clientID string
	secret   string
	// down makes discovery fail.
	down atomic.Bool

	mu sync.Mutex
	// next is who the authorization endpoint signs in: claims of the ID
	// token, and a change to the token's claims and signature.
	next   signInAs
	grants map[string]grant
	// userinfo is the UserInfo endpoint's answer by access token.
	userinfo map[string]map[string]any
	// authorized is the query of the last authorization request.
	authorized url.Values
}

// signInAs is who a provider signs in, and how their token is made.
type signInAs struct {
	claims map[string]any
	// tamper changes the ID token's claims before it is signed.
	tamper func(c map[string]any)
	// sign signs the claims; the provider's key with RS256 when nil.
	sign func(t testing.TB, payload []byte) string
	// userinfo is what the UserInfo endpoint answers for the access token.
	userinfo map[string]any
}

type grant struct {
	as                  signInAs
	nonce, challenge    string
	redirect, challMeth string
}

func newIDP(t testing.TB) *idp {
	p := &idp{t: t, clientID: "bindery", secret: "client-secret", grants: map[string]grant{},
		userinfo: map[string]map[string]any{}}
	m := http.NewServeMux()
	m.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	m.HandleFunc("GET /jwks", p.jwks)
	m.HandleFunc("GET /authorize", p.authorize)
	m.HandleFunc("POST /token", p.token)
	m.HandleFunc("GET /userinfo", p.userinfoAnswer)
	p.srv = httptest.NewServer(m)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *idp) discovery(w http.ResponseWriter, _ *http.Request) {
	if p.down.Load() {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	u := p.srv.URL
	writeJSON(w, http.StatusOK, map[string]any{"issuer": u, "authorization_endpoint": u + "/authorize",
		"token_endpoint": u + "/token", "jwks_uri": u + "/jwks", "userinfo_endpoint": u + "/userinfo", "response_types_supported": []string{"code"},
		"subject_types_supported": []string{"public"}, "id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported": []string{"S256"}})
}

func (p *idp) jwks(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &keys()[0].PublicKey, KeyID: "key-1", Algorithm: string(jose.RS256), Use: "sig"}}})
}

func (p *idp) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.authorized = q
	if q.Get("client_id") != p.clientID || q.Get("response_type") != "code" {
		http.Error(w, "unknown client", http.StatusBadRequest)
		return
	}
	code := "code-" + base64.RawURLEncoding.EncodeToString([]byte(time.Now().String()))
	p.grants[code] = grant{as: p.next, nonce: q.Get("nonce"), challenge: q.Get("code_challenge"),
		challMeth: q.Get("code_challenge_method"), redirect: q.Get("redirect_uri")}
	back, err := url.Parse(q.Get("redirect_uri"))
	require.NoError(p.t, err)
	v := url.Values{"code": {code}, "state": {q.Get("state")}}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (p *idp) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostFormValue("client_id"), r.PostFormValue("client_secret")
	}
	if id != p.clientID || secret != p.secret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	p.mu.Lock()
	g, found := p.grants[r.PostFormValue("code")]
	delete(p.grants, r.PostFormValue("code"))
	p.mu.Unlock()
	if !found || r.PostFormValue("grant_type") != "authorization_code" || r.PostFormValue("redirect_uri") != g.redirect ||
		g.challMeth != "S256" || oauth2.S256ChallengeFromVerifier(r.PostFormValue("code_verifier")) != g.challenge {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
		return
	}
	now := time.Now()
	c := map[string]any{"iss": p.srv.URL, "aud": p.clientID, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"nonce": g.nonce}
	for k, v := range g.as.claims {
		c[k] = v
	}
	if g.as.tamper != nil {
		g.as.tamper(c)
	}
	payload, err := json.Marshal(c)
	require.NoError(p.t, err)
	sign := g.as.sign
	if sign == nil {
		sign = signWith(keys()[0])
	}
	access := "access-" + g.nonce
	p.mu.Lock()
	p.userinfo[access] = g.as.userinfo
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 300,
		"id_token": sign(p.t, payload)})
}

func (p *idp) userinfoAnswer(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	c, ok := p.userinfo[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	p.mu.Unlock()
	if !ok || c == nil {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// signWith signs an ID token with RS256 and the key, as key-1.
func signWith(key *rsa.PrivateKey) func(testing.TB, []byte) string {
	return func(t testing.TB, payload []byte) string {
		s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key},
			(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "key-1"))
		require.NoError(t, err)
		jws, err := s.Sign(payload)
		require.NoError(t, err)
		out, err := jws.CompactSerialize()
		require.NoError(t, err)
		return out
	}
}

// unsigned makes a token with alg none, which no JOSE library signs.
func unsigned(_ testing.TB, payload []byte) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc(payload) + "."
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// oidcEnv is a Bindery server that signs people in with a test provider,
// "Acme ID".
type oidcEnv struct {
	*servertest.Env
	idp *idp
}

func newOIDCEnv(t *testing.T, others ...config.OIDCProvider) *oidcEnv {
	p := newIDP(t)
	e := servertest.New(t, func(c *config.Config) {
		c.OIDCProviders = append([]config.OIDCProvider{{Name: "Acme ID", Issuer: p.srv.URL, ClientID: p.clientID,
			ClientSecret: p.secret}}, others...)
	})
	return &oidcEnv{Env: e, idp: p}
}

// noFollow is a client that shows each redirect instead of following it.
var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (e *oidcEnv) get(rawURL string, cookies ...*http.Cookie) answer {
	e.T.Helper()
	req, err := http.NewRequest(http.MethodGet, strings.Replace(rawURL, e.Config.PublicURL, e.HTTP.URL, 1), nil)
	require.NoError(e.T, err)
	for _, c := range cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	res, err := noFollow.Do(req)
	require.NoError(e.T, err)
	return read(e.T, res)
}

// flow is a sign-in that went to the provider and is on its way back.
type flow struct {
	cookie   *http.Cookie
	callback string
}

// start begins a sign-in at Bindery and signs in at the provider as as,
// up to the provider's redirect back to Bindery.
func (e *oidcEnv) start(as signInAs, returnTo string) flow {
	e.T.Helper()
	e.idp.mu.Lock()
	e.idp.next = as
	e.idp.mu.Unlock()
	a := e.get(e.HTTP.URL + "/auth/oidc/acme-id?return_to=" + url.QueryEscape(returnTo))
	require.Equal(e.T, http.StatusFound, a.status, a.body)
	c := a.cookies["bindery_flow"]
	require.NotNil(e.T, c, "the flow cookie")
	at := e.get(a.header.Get("Location"))
	require.Equal(e.T, http.StatusFound, at.status, at.body)
	return flow{cookie: c, callback: at.header.Get("Location")}
}

// finish brings the provider's answer back to Bindery with the flow cookie.
func (e *oidcEnv) finish(f flow) answer {
	e.T.Helper()
	return e.get(f.callback, f.cookie)
}

// signIn signs in as as, through the provider, and returns Bindery's
// answer to the callback.
func (e *oidcEnv) signIn(as signInAs) answer {
	e.T.Helper()
	return e.finish(e.start(as, "/"))
}

// viewer is the ID of the user a session cookie signs in, through /graphql.
func (e *oidcEnv) viewer(session *http.Cookie) string {
	e.T.Helper()
	req, err := http.NewRequest(http.MethodPost, e.HTTP.URL+"/graphql", strings.NewReader(`{"query":"{ viewer { id email } }"}`))
	require.NoError(e.T, err)
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: session.Name, Value: session.Value})
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.T, err)
	defer res.Body.Close()
	var out struct {
		Data struct {
			Viewer struct{ ID string } `json:"viewer"`
		} `json:"data"`
	}
	require.NoError(e.T, json.NewDecoder(res.Body).Decode(&out))
	return out.Data.Viewer.ID
}

func person(sub, email string, verified any) signInAs {
	return signInAs{claims: map[string]any{"sub": sub, "email": email, "email_verified": verified, "name": "Ada Lovelace"}}
}

// A person the provider vouches for signs in: their verified address finds
// their user, whose identity at the provider is linked, so that later the
// same subject signs the same user in whatever address it states.
func TestOIDCSignsInAndLinksTheIdentity(t *testing.T) {
	t.Parallel()
	e := newOIDCEnv(t)

	page := e.get(e.HTTP.URL + "/auth/sign-in")
	assert.Contains(t, page.body, `<a class="button" href="/auth/oidc/acme-id?return_to=%2F">Sign in with Acme ID</a>`)

	f := e.start(person("sub-ada", "owner@example.com", true), "/docs/guide?x=1")
	asked := e.idp.authorized
	assert.Equal(t, "S256", asked.Get("code_challenge_method"))
	assert.NotEmpty(t, asked.Get("code_challenge"))
	assert.Len(t, asked.Get("nonce"), 32)
	assert.Equal(t, f.cookie.Value, asked.Get("state"), "the flow cookie holds the state")
	assert.Equal(t, "openid email profile", asked.Get("scope"))
	assert.Equal(t, "http://bindery.test/auth/oidc/acme-id/callback", asked.Get("redirect_uri"))
	assert.True(t, f.cookie.HttpOnly)
	assert.Equal(t, http.SameSiteLaxMode, f.cookie.SameSite)

	a := e.finish(f)
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	assert.Equal(t, "/docs/guide?x=1", a.header.Get("Location"))
	assert.Equal(t, -1, a.cookies["bindery_flow"].MaxAge, "the flow cookie is cleared")
	session := a.cookies["bindery_session"]
	require.NotNil(t, session)
	assert.Equal(t, e.Owner.ID, e.viewer(session))

	// The provider now states another address: the linked subject decides.
	a = e.signIn(person("sub-ada", "ada@elsewhere.example", true))
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	assert.Equal(t, e.Owner.ID, e.viewer(a.cookies["bindery_session"]))

	// A provider that states the address at its UserInfo endpoint only.
	bob := e.User("bob@example.com")
	a = e.signIn(signInAs{claims: map[string]any{"sub": "sub-bob"},
		userinfo: map[string]any{"sub": "sub-bob", "email": "bob@example.com", "email_verified": true}})
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	assert.Equal(t, bob.ID, e.viewer(a.cookies["bindery_session"]))

	// An address sent as the string "true" is verified too (some
	// providers send it so).
	invited := e.User("grace@example.com")
	a = e.signIn(person("sub-grace", "Grace@Example.com", "true"))
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	assert.Equal(t, invited.ID, e.viewer(a.cookies["bindery_session"]))
}

// Whatever is wrong with the provider's answer, nobody is signed in, and
// the page says to start again.
func TestOIDCRefusesBadTokens(t *testing.T) {
	t.Parallel()
	e := newOIDCEnv(t)
	at := func(d time.Duration) int64 { return time.Now().Add(d).Unix() }
	owner := func(tamper func(c map[string]any)) signInAs {
		as := person("sub-owner", "owner@example.com", true)
		as.tamper = tamper
		return as
	}
	for _, tc := range []struct {
		name       string
		as         signInAs
		wantStatus int
		wantText   string
	}{
		{"wrong nonce", owner(func(c map[string]any) { c["nonce"] = "another-flows-nonce" }), 403, "could not be verified"},
		{"no nonce", owner(func(c map[string]any) { delete(c, "nonce") }), 403, "could not be verified"},
		{"expired", owner(func(c map[string]any) { c["iat"], c["exp"] = at(-10*time.Minute), at(-time.Minute) }), 403, "could not be verified"},
		{"issued in the future", owner(func(c map[string]any) { c["iat"], c["exp"] = at(time.Hour), at(2*time.Hour) }), 403, "could not be verified"},
		{"not valid yet", owner(func(c map[string]any) { c["nbf"] = at(time.Hour) }), 403, "could not be verified"},
		{"wrong issuer", owner(func(c map[string]any) { c["iss"] = "https://issuer.invalid" }), 403, "could not be verified"},
		{"wrong audience", owner(func(c map[string]any) { c["aud"] = "another-client" }), 403, "could not be verified"},
		{"no subject", owner(func(c map[string]any) { delete(c, "sub") }), 403, "could not be verified"},
		{"alg none", signInAs{claims: person("sub-owner", "owner@example.com", true).claims, sign: unsigned}, 403, "could not be verified"},
		{"signed by an unpublished key", signInAs{claims: person("sub-owner", "owner@example.com", true).claims,
			sign: signWith(keys()[1])}, 403, "could not be verified"},
		// An unverified address could be anyone's: it finds no user, not
		// even the owner whose address it is.
		{"email not verified", person("sub-stranger", "owner@example.com", false), 403, "There is no Bindery account"},
		{"userinfo about another subject", signInAs{claims: map[string]any{"sub": "sub-stranger"},
			userinfo: map[string]any{"sub": "sub-owner", "email": "owner@example.com", "email_verified": true}}, 403,
			"could not be verified"},
		{"userinfo unverified", signInAs{claims: map[string]any{"sub": "sub-stranger"},
			userinfo: map[string]any{"sub": "sub-stranger", "email": "owner@example.com", "email_verified": false}}, 403,
			"There is no Bindery account"},
		{"email_verified missing", signInAs{claims: map[string]any{"sub": "sub-stranger", "email": "owner@example.com"}}, 403,
			"There is no Bindery account"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.signIn(tc.as)
			assert.Equal(t, tc.wantStatus, a.status)
			assert.Contains(t, a.body, tc.wantText)
			assert.Nil(t, a.cookies["bindery_session"], "no session")
		})
	}
	// None of them linked the subject to the owner's account.
	n, err := e.Client.UserIdentity.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)
}

// The provider's answer signs in only the browser that began the flow,
// once, and within the flow's lifetime.
func TestOIDCBindsTheFlowToTheBrowser(t *testing.T) {
	t.Parallel()
	other := newIDP(t)
	e := newOIDCEnv(t, config.OIDCProvider{Name: "Other ID", Issuer: other.srv.URL, ClientID: other.clientID,
		ClientSecret: other.secret})
	ada := person("sub-owner", "owner@example.com", true)

	t.Run("another browser's cookie", func(t *testing.T) {
		f := e.start(ada, "/")
		mine := e.start(ada, "/")
		a := e.get(f.callback, mine.cookie)
		assert.Equal(t, http.StatusForbidden, a.status)
		assert.Contains(t, a.body, "not started in this browser")
		assert.Nil(t, a.cookies["bindery_session"])
		a = e.get(f.callback)
		assert.Equal(t, http.StatusForbidden, a.status, "no cookie")
		// The refusal did not use the flow up: its own browser finishes it.
		assert.Equal(t, http.StatusSeeOther, e.finish(f).status)
	})
	t.Run("replayed state", func(t *testing.T) {
		f := e.start(ada, "/")
		require.Equal(t, http.StatusSeeOther, e.finish(f).status)
		a := e.finish(f)
		assert.Equal(t, http.StatusNotFound, a.status)
		assert.Contains(t, a.body, "already used")
		assert.Nil(t, a.cookies["bindery_session"])
	})
	t.Run("expired flow", func(t *testing.T) {
		f := e.start(ada, "/")
		e.Clock.Advance(11 * time.Minute)
		a := e.finish(f)
		assert.Equal(t, http.StatusNotFound, a.status)
		assert.Nil(t, a.cookies["bindery_session"])
	})
	t.Run("the provider's error", func(t *testing.T) {
		f := e.start(ada, "/")
		u, err := url.Parse(f.callback)
		require.NoError(t, err)
		u.RawQuery = url.Values{"state": {f.cookie.Value}, "error": {"access_denied"},
			"error_description": {"<b>The user said no</b>"}}.Encode()
		a := e.get(u.String(), f.cookie)
		assert.Equal(t, http.StatusForbidden, a.status)
		assert.Contains(t, a.body, "Acme ID did not sign you in (access_denied)")
		assert.NotContains(t, a.body, "The user said no", "the provider's text is logged, not shown")
		assert.Nil(t, a.cookies["bindery_session"])
		assert.Equal(t, http.StatusNotFound, e.finish(f).status, "the flow is over")
	})
	t.Run("another provider's callback", func(t *testing.T) {
		f := e.start(ada, "/")
		a := e.get(strings.Replace(f.callback, "/acme-id/", "/other-id/", 1), f.cookie)
		assert.Equal(t, http.StatusForbidden, a.status)
		assert.Contains(t, a.body, "started with another provider")
		assert.Nil(t, a.cookies["bindery_session"])
	})
	t.Run("return_to stays on this server", func(t *testing.T) {
		a := e.finish(e.start(ada, "//evil.example/phish"))
		assert.Equal(t, http.StatusSeeOther, a.status)
		assert.Equal(t, "/", a.header.Get("Location"))
	})
	t.Run("unknown provider", func(t *testing.T) {
		assert.Equal(t, http.StatusNotFound, e.get(e.HTTP.URL+"/auth/oidc/nobody").status)
	})
}

// A provider that is down when the server starts keeps nobody from the
// sign-in page; starting a sign-in with it says so, and works once it is
// back. Its discovery is then kept.
func TestOIDCDiscoversLazily(t *testing.T) {
	t.Parallel()
	p := newIDP(t)
	p.down.Store(true)
	e := &oidcEnv{idp: p, Env: servertest.New(t, func(c *config.Config) {
		c.OIDCProviders = []config.OIDCProvider{{Name: "Acme ID", Issuer: p.srv.URL, ClientID: p.clientID, ClientSecret: p.secret}}
	})}

	assert.Equal(t, http.StatusOK, e.get(e.HTTP.URL+"/auth/sign-in").status)
	a := e.get(e.HTTP.URL + "/auth/oidc/acme-id")
	assert.Equal(t, http.StatusBadGateway, a.status)
	assert.Contains(t, a.body, "Bindery cannot reach Acme ID right now")
	assert.Nil(t, a.cookies["bindery_flow"])

	p.down.Store(false)
	assert.Equal(t, http.StatusSeeOther, e.signIn(person("sub-owner", "owner@example.com", true)).status)

	p.down.Store(true)
	assert.Equal(t, http.StatusFound, e.get(e.HTTP.URL+"/auth/oidc/acme-id").status, "discovery was kept")
}
