package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// SignUp says who may get an account by signing in with an address Bindery
// does not know yet. An invited address always may: its invitation made
// the user.
type SignUp string

// SignUp values.
const (
	// SignUpClosed: nobody; accounts come from invitations (and SAML, which
	// an organization's administrator set up).
	SignUpClosed SignUp = "closed"
	// SignUpDomains: people whose email domain an organization lists
	// (Organization.emailDomains).
	SignUpDomains SignUp = "domains"
)

// OIDCProvider is an OpenID Connect provider people sign in with.
type OIDCProvider struct {
	// Name is shown on the sign-in page ("Sign in with <Name>") and names
	// the provider in its addresses (/auth/oidc/<slug of Name>).
	Name string `json:"name"`
	// Issuer is the provider's issuer URL, where discovery starts
	// (<issuer>/.well-known/openid-configuration).
	Issuer       string `json:"issuer"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	// Scopes are asked for besides openid; email and profile by default.
	Scopes []string `json:"scopes,omitempty"`
}

// Slug is the provider's name in its addresses: lower case, letters,
// digits and dashes.
func (p OIDCProvider) Slug() string {
	var b strings.Builder
	for _, r := range strings.ToLower(p.Name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// signInFromEnv reads the sign-in settings.
func (c *Config) signInFromEnv(getenv func(string) string) error {
	if v := getenv("BINDERY_SIGN_UP"); v != "" {
		c.SignUp = SignUp(v)
	}
	if v := getenv("BINDERY_OIDC_PROVIDERS"); v != "" {
		var ps []OIDCProvider
		dec := json.NewDecoder(strings.NewReader(v))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ps); err != nil {
			// The value holds client secrets: the message does not repeat it.
			return fmt.Errorf("BINDERY_OIDC_PROVIDERS: not a JSON array of {name, issuer, clientId, clientSecret, scopes}: %s", jsonProblem(err))
		}
		c.OIDCProviders = ps
	}
	for name, dst := range map[string]*time.Duration{"BINDERY_SESSION_IDLE": &c.SessionIdle,
		"BINDERY_SESSION_LIFETIME": &c.SessionLifetime} {
		if v := getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("%s: %q is not a positive duration", name, v)
			}
			*dst = d
		}
	}
	return nil
}

// jsonProblem says what is wrong with a JSON value without quoting it.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("invalid JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s must be a %s", typ.Field, typ.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return "invalid JSON"
}

// finishSignIn checks the sign-in settings.
func (c *Config) finishSignIn() error {
	if c.SignUp != SignUpClosed && c.SignUp != SignUpDomains {
		return fmt.Errorf("BINDERY_SIGN_UP: %q is neither closed nor domains", c.SignUp)
	}
	if c.SessionIdle > c.SessionLifetime {
		return fmt.Errorf("BINDERY_SESSION_IDLE must not be longer than BINDERY_SESSION_LIFETIME")
	}
	seen := map[string]bool{}
	for i, p := range c.OIDCProviders {
		u, err := url.Parse(p.Issuer)
		switch {
		case p.Name == "" || p.Slug() == "":
			return fmt.Errorf("BINDERY_OIDC_PROVIDERS[%d]: a name with a letter or digit is required", i)
		case seen[p.Slug()]:
			return fmt.Errorf("BINDERY_OIDC_PROVIDERS[%d]: another provider is named %q", i, p.Name)
		case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
			return fmt.Errorf("BINDERY_OIDC_PROVIDERS[%d] (%s): issuer %q is not an http(s) URL", i, p.Name, p.Issuer)
		case p.ClientID == "":
			return fmt.Errorf("BINDERY_OIDC_PROVIDERS[%d] (%s): clientId is required", i, p.Name)
		}
		seen[p.Slug()] = true
	}
	return nil
}
