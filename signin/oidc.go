package signin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-chi/chi/v5"
	"golang.org/x/oauth2"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// oidcFlowLifetime is how long a person has at the provider between
// leaving Bindery and coming back.
const oidcFlowLifetime = 10 * time.Minute

// oidcSkew is how far ahead of this server's clock a provider's clock may
// run: an ID token issued later than that is refused (go-oidc allows the
// same for nbf, and checks no iat).
const oidcSkew = 5 * time.Minute

// oidcProviders are the configured OpenID Connect providers, each
// discovered on first use: a provider that is down when the server starts
// keeps no one from signing in another way, and is tried again on the next
// sign-in until discovery succeeds once.
type oidcProviders struct {
	providers []*oidcProvider
	log       *slog.Logger
	// client makes the requests to providers: discovery, keys, tokens.
	client *http.Client
}

// oidcProvider is a configured provider and, once discovered, what its
// discovery document says.
type oidcProvider struct {
	config.OIDCProvider
	mu         sync.Mutex
	discovered *oidc.Provider
}

func newOIDCProviders(_ context.Context, cfg config.Config, log *slog.Logger) *oidcProviders {
	o := &oidcProviders{log: log, client: &http.Client{Timeout: 10 * time.Second}}
	for _, p := range cfg.OIDCProviders {
		o.providers = append(o.providers, &oidcProvider{OIDCProvider: p})
	}
	return o
}

// list returns the providers, in the configured order.
func (o *oidcProviders) list() []config.OIDCProvider {
	out := make([]config.OIDCProvider, len(o.providers))
	for i, p := range o.providers {
		out[i] = p.OIDCProvider
	}
	return out
}

// bySlug returns the provider of an address, or nil.
func (o *oidcProviders) bySlug(slug string) *oidcProvider {
	for _, p := range o.providers {
		if p.Slug() == slug {
			return p
		}
	}
	return nil
}

// discover returns the provider's discovery, fetching it if no earlier
// attempt succeeded. Two first sign-ins at once may both fetch it; either
// result serves.
func (o *oidcProviders) discover(ctx context.Context, p *oidcProvider) (*oidc.Provider, error) {
	p.mu.Lock()
	d := p.discovered
	p.mu.Unlock()
	if d != nil {
		return d, nil
	}
	// The provider keeps the client for fetching its keys later, outside
	// this request.
	d, err := oidc.NewProvider(oidc.ClientContext(ctx, o.client), p.Issuer)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.discovered == nil {
		p.discovered = d
	}
	return p.discovered, nil
}

// oauthConfig is the provider's OAuth 2.0 client configuration, with the
// redirect URI the provider must know: PublicURL/auth/oidc/<slug>/callback.
func (h *Handler) oauthConfig(p *oidcProvider, d *oidc.Provider) *oauth2.Config {
	scopes := p.Scopes
	if len(scopes) == 0 {
		scopes = []string{"email", "profile"}
	}
	return &oauth2.Config{ClientID: p.ClientID, ClientSecret: p.ClientSecret, Endpoint: d.Endpoint(),
		RedirectURL: h.cfg.PublicURL + "/auth/oidc/" + p.Slug() + "/callback",
		Scopes:      append([]string{oidc.ScopeOpenID}, scopes...)}
}

// provider returns the provider the request's address names and its
// discovery, or answers the request itself and returns nil: 404 for a name
// that is not configured, 502 while the provider cannot be discovered.
func (h *Handler) provider(w http.ResponseWriter, r *http.Request) (*oidcProvider, *oidc.Provider) {
	p := h.oidc.bySlug(chi.URLParam(r, "provider"))
	if p == nil {
		h.fail(w, r, apperr.NotFoundf("There is no sign-in provider of this name"))
		return nil, nil
	}
	d, err := h.oidc.discover(r.Context(), p)
	if err != nil {
		h.unreachable(w, r, p, "discovering the OpenID Connect provider", err)
		return nil, nil
	}
	return p, d
}

// unreachable answers 502 when a provider could not be asked what a
// sign-in needs: nothing the person did is wrong, and trying again later
// may work.
func (h *Handler) unreachable(w http.ResponseWriter, r *http.Request, p *oidcProvider, doing string, err error) {
	h.log.WarnContext(r.Context(), doing, "provider", p.Name, "issuer", p.Issuer, "error", err)
	h.pages.signIn(w, r, http.StatusBadGateway, h.signInView(r, "/",
		fmt.Sprintf("Bindery cannot reach %s right now. Try again in a few minutes, or sign in another way.", p.Name)))
}

// oidcStart sends the browser to the provider with a new flow: a state
// that the flow cookie binds to this browser, a nonce the ID token must
// carry, and a PKCE verifier whose challenge the provider keeps, all kept
// on the server for the callback to take once.
func (h *Handler) oidcStart(w http.ResponseWriter, r *http.Request) {
	p, d := h.provider(w, r)
	if p == nil {
		return
	}
	state, nonce, verifier := id.Random(32), id.Random(32), oauth2.GenerateVerifier()
	// The application layer's clock, which FinishFlow compares with.
	expires := h.res.Now().Add(oidcFlowLifetime)
	// One statement, atomic alone: it needs no transaction.
	err := h.res.BeginFlow(r.Context(), state, graph.Flow{Kind: enum.SignInKindOidc, Provider: p.Issuer, Nonce: nonce,
		Verifier: verifier, ReturnTo: ReturnTo(r.URL.Query().Get("return_to")), ExpiresAt: expires})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.setCookie(w, flowCookie(h.secure), state, expires)
	http.Redirect(w, r, h.oauthConfig(p, d).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)),
		http.StatusFound)
}

// oidcClaims are the ID token's claims Bindery uses.
type oidcClaims struct {
	Email         string       `json:"email"`
	EmailVerified verifiedFlag `json:"email_verified"`
	Name          string       `json:"name"`
}

// verifiedFlag is email_verified: a boolean, or the string "true" or
// "false", as some providers send it.
type verifiedFlag bool

func (v *verifiedFlag) UnmarshalJSON(b []byte) error {
	var s any
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	switch s := s.(type) {
	case bool:
		*v = verifiedFlag(s)
	case string:
		*v = verifiedFlag(strings.EqualFold(s, "true"))
	case nil:
		*v = false
	default:
		return fmt.Errorf("email_verified is neither a boolean nor a string")
	}
	return nil
}

// oidcCallback is where the provider sends the browser back: the flow
// the browser's cookie names is taken once, the code is exchanged with its
// verifier, and the ID token is verified (signature, issuer, audience,
// expiry, nonce) before the person it names is signed in. Their address
// comes from the ID token or, when it has none, the UserInfo endpoint.
func (h *Handler) oidcCallback(w http.ResponseWriter, r *http.Request) {
	p, d := h.provider(w, r)
	if p == nil {
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	// Only the browser that began the flow holds its state in a cookie: a
	// callback address made elsewhere (login CSRF) does not sign this
	// browser in as someone else.
	c, err := r.Cookie(flowCookie(h.secure))
	if err != nil || state == "" || c.Value != state {
		h.fail(w, r, apperr.Forbidden("This sign-in was not started in this browser: start again"))
		return
	}
	h.setCookie(w, flowCookie(h.secure), "", time.Time{})
	// A delete whose count decides who took the flow: atomic alone.
	f, err := h.res.FinishFlow(r.Context(), state, enum.SignInKindOidc)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if f.Provider != p.Issuer {
		h.fail(w, r, apperr.Forbidden("This sign-in was started with another provider: start again"))
		return
	}
	if e := q.Get("error"); e != "" {
		h.log.InfoContext(r.Context(), "the OpenID Connect provider did not sign in", "provider", p.Name,
			"error", e, "description", q.Get("error_description"))
		h.fail(w, r, apperr.Forbidden("%s did not sign you in (%s). Start again, or sign in another way.", p.Name, oauthErrorCode(e)))
		return
	}
	if q.Get("code") == "" {
		h.fail(w, r, apperr.Invalid("code", "%s sent no authorization code: start again", p.Name))
		return
	}
	person, err := h.verify(r.Context(), p, d, f, q.Get("code"))
	var e *apperr.Error
	switch {
	case errors.As(err, &e):
		h.log.InfoContext(r.Context(), "refused an OpenID Connect sign-in", "provider", p.Name, "error", err)
		h.fail(w, r, err)
		return
	case err != nil:
		h.unreachable(w, r, p, "finishing an OpenID Connect sign-in", err)
		return
	}
	// SignIn runs in the application layer's transaction, which wants the
	// request's loaders.
	h.finish(w, r, person, f.ReturnTo)
}

// verify exchanges the code for the provider's tokens and returns the
// person the ID token names. A refusal of the provider's (the code) or of
// Bindery's (the ID token) is an apperr; any other error is the provider
// being unreachable.
func (h *Handler) verify(ctx context.Context, p *oidcProvider, d *oidc.Provider, f *graph.Flow, code string) (graph.Person, error) {
	ctx = oidc.ClientContext(ctx, h.oidc.client)
	refused := apperr.Forbidden("The sign-in with %s could not be verified: start again", p.Name)
	tok, err := h.oauthConfig(p, d).Exchange(ctx, code, oauth2.VerifierOption(f.Verifier))
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
		return graph.Person{}, fmt.Errorf("%w: exchanging the code: %s", refused, re.ErrorCode)
	}
	if err != nil {
		return graph.Person{}, fmt.Errorf("exchanging the code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return graph.Person{}, errors.New("the token response has no id_token")
	}
	v := d.Verifier(&oidc.Config{ClientID: p.ClientID, Now: h.opt.Now})
	idt, err := v.Verify(ctx, raw)
	switch {
	case err != nil:
		return graph.Person{}, fmt.Errorf("%w: %v", refused, err)
	case idt.Nonce != f.Nonce:
		return graph.Person{}, fmt.Errorf("%w: the nonce is not the flow's", refused)
	case idt.IssuedAt.After(h.opt.Now().Add(oidcSkew)):
		return graph.Person{}, fmt.Errorf("%w: issued at %s, in the future", refused, idt.IssuedAt)
	case idt.Subject == "":
		return graph.Person{}, fmt.Errorf("%w: no subject", refused)
	}
	var cl oidcClaims
	if err := idt.Claims(&cl); err != nil {
		return graph.Person{}, fmt.Errorf("%w: the claims: %v", refused, err)
	}
	// With the code flow, a provider may state the email and profile
	// scopes' claims at its UserInfo endpoint only (OpenID Connect Core
	// 5.4), as node-oidc-provider does.
	if cl.Email == "" && d.UserInfoEndpoint() != "" {
		ui, err := d.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return graph.Person{}, fmt.Errorf("asking for the userinfo: %w", err)
		}
		// Core 5.3.4: the answer is about the ID token's subject, or it
		// is not to be used.
		var more oidcClaims
		if ui.Subject != idt.Subject {
			return graph.Person{}, fmt.Errorf("%w: the userinfo's subject is not the ID token's", refused)
		}
		if err := ui.Claims(&more); err != nil {
			return graph.Person{}, fmt.Errorf("%w: the userinfo's claims: %v", refused, err)
		}
		cl.Email, cl.EmailVerified = more.Email, more.EmailVerified
		if cl.Name == "" {
			cl.Name = more.Name
		}
	}
	person := graph.Person{Method: enum.SignInKindOidc, Issuer: p.Issuer, Subject: idt.Subject, Name: cl.Name}
	// An address the provider has not verified could be anyone's: it
	// neither finds nor makes an account.
	if cl.EmailVerified {
		person.Email = cl.Email
	}
	return person, nil
}

// oauthErrorCode is a provider's error code fit to show: the codes of RFC
// 6749 are short words of ASCII letters and underscores.
func oauthErrorCode(s string) string {
	if len(s) > 40 || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return "error"
	}
	return s
}
