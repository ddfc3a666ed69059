package signin

import (
	"bytes"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crewjam/saml"
	"github.com/go-chi/chi/v5"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/validate"
)

// SAML: Bindery is a service provider of each SAML identity provider an
// organization records. It signs nothing and decrypts nothing, so it needs
// no key of its own: what it checks of a response (the signature under the
// provider's certificate, issuer, audience, destination and recipient,
// validity window, answer to the request) is crewjam/saml's
// ServiceProvider's work, given identity provider metadata built from the
// provider's settings. Only sign-ins that Bindery started are taken:
// IdP-initiated responses carry no request to bind them to a browser, so
// anyone who obtains one could sign in with it.

const (
	// samlFlowLifetime is how long a person has at their identity provider.
	samlFlowLifetime = 10 * time.Minute
	// samlSkew is how far the identity provider's clock may be from ours.
	samlSkew = 90 * time.Second
	// samlMaxResponse bounds a posted response, attributes included.
	samlMaxResponse = 1 << 20
)

// samlRefused is the answer to a response that does not pass; what was
// wrong goes to the log, not to whoever sent it.
func samlRefused() error {
	return apperr.Forbidden("Your organization's identity provider sent a sign-in that Bindery cannot accept: start again, or ask an administrator to check the provider's settings")
}

// samlMetadata serves Bindery's service provider metadata for a provider:
// what its administrators give their identity provider.
func (h *Handler) samlMetadata(w http.ResponseWriter, r *http.Request) {
	p, sp, err := h.samlProvider(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	b, err := xml.MarshalIndent(sp.Metadata(), "", "  ")
	if err != nil {
		h.fail(w, r, fmt.Errorf("SAML metadata of %s: %w", p.ID, err))
		return
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	_, _ = io.WriteString(w, xml.Header)
	_, _ = w.Write(b)
}

// samlStart sends the browser to the identity provider with a request,
// whose ID the response must answer, and binds the sign-in to this browser
// by a secret that goes both in RelayState and in the flow cookie.
func (h *Handler) samlStart(w http.ResponseWriter, r *http.Request) {
	p, sp, err := h.samlProvider(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	req, err := sp.MakeAuthenticationRequest(*p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		h.fail(w, r, fmt.Errorf("making a SAML request: %w", err))
		return
	}
	secret := id.Random(40)
	expires := h.res.Now().Add(samlFlowLifetime)
	err = h.res.BeginFlow(r.Context(), secret, graph.Flow{Kind: enum.SignInKindSaml, Provider: p.ID,
		Nonce: req.ID, ReturnTo: ReturnTo(r.URL.Query().Get("return_to")), ExpiresAt: expires})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	to, err := req.Redirect(secret, sp)
	if err != nil {
		h.fail(w, r, fmt.Errorf("encoding a SAML request: %w", err))
		return
	}
	h.setFlowCookie(w, secret, expires)
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// samlACS takes the identity provider's response, posted by the browser
// that started the sign-in, and signs the person it names in.
func (h *Handler) samlACS(w http.ResponseWriter, r *http.Request) {
	p, sp, err := h.samlProvider(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, samlMaxResponse)
	f, err := h.takeSAMLFlow(w, r, p)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	a, err := h.checkSAMLResponse(r, p, sp, f.Nonce)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	person, err := samlPerson(p, a)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// The sign-in routes run without the per-request loaders that the
	// application layer's writes need.
	h.finish(w, r, person, f.ReturnTo)
}

// samlProvider is the active provider a request names, and Bindery as its
// service provider at this moment.
func (h *Handler) samlProvider(r *http.Request) (*ent.SAMLProvider, *saml.ServiceProvider, error) {
	p, err := h.res.SignInSAMLProvider(r.Context(), chi.URLParam(r, "provider"))
	if err != nil {
		return nil, nil, err
	}
	sp, err := h.serviceProvider(p, h.opt.Now())
	return p, sp, err
}

// serviceProvider is Bindery as the service provider of p, at the addresses
// the API advertises for it (graph's samlService), checking times at now.
func (h *Handler) serviceProvider(p *ent.SAMLProvider, now time.Time) (*saml.ServiceProvider, error) {
	base := h.cfg.PublicURL + "/saml/" + url.PathEscape(p.ID)
	acs, err := url.Parse(base + "/acs")
	if err != nil {
		return nil, err
	}
	metadata, err := url.Parse(base + "/metadata")
	if err != nil {
		return nil, err
	}
	idp, err := idpMetadata(p)
	if err != nil {
		return nil, err
	}
	return &saml.ServiceProvider{
		EntityID: metadata.String(), MetadataURL: *metadata, AcsURL: *acs, IDPMetadata: idp,
		// Bindery knows people by their address.
		AuthnNameIDFormat:                saml.EmailAddressNameIDFormat,
		AssertionConsumerServiceBindings: []string{saml.HTTPPostBinding},
		RejectSHA1Signatures:             true,
		// The moment of the request: every check of one response sees the
		// same time.
		Clock: dsig.NewFakeClockAt(now),
	}, nil
}

// idpMetadata is the identity provider's metadata as its settings state
// it: its entity ID, where it takes requests, and the certificate that
// signs its responses.
func idpMetadata(p *ent.SAMLProvider) (*saml.EntityDescriptor, error) {
	if p.SSOURL == nil || p.EntityID == nil || p.Certificate == nil {
		return nil, fmt.Errorf("SAML provider %s is active without all its settings", p.ID)
	}
	block, _ := pem.Decode([]byte(*p.Certificate))
	if block == nil {
		return nil, fmt.Errorf("SAML provider %s: the certificate is not PEM", p.ID)
	}
	if _, err := x509.ParseCertificate(block.Bytes); err != nil {
		return nil, fmt.Errorf("SAML provider %s: %w", p.ID, err)
	}
	key := saml.KeyDescriptor{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
		X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(block.Bytes)}}}}}
	return &saml.EntityDescriptor{EntityID: *p.EntityID, IDPSSODescriptors: []saml.IDPSSODescriptor{{
		SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
			ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol", KeyDescriptors: []saml.KeyDescriptor{key}}},
		SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: *p.SSOURL}},
	}}}, nil
}

// setFlowCookie sets the flow cookie of a SAML sign-in. The identity
// provider's page posts the response from its own site, which a Lax cookie
// does not go with: over https the cookie is SameSite=None. Over http
// (trying Bindery locally) browsers refuse None without Secure, and Lax
// does: the identity provider must then be on the same host name.
func (h *Handler) setFlowCookie(w http.ResponseWriter, secret string, expires time.Time) {
	c := &http.Cookie{Name: flowCookie(h.secure), Value: secret, Path: "/", HttpOnly: true, Secure: h.secure,
		SameSite: http.SameSiteLaxMode}
	if h.secure {
		c.SameSite = http.SameSiteNoneMode
	}
	if secret == "" {
		c.MaxAge = -1
	} else {
		c.Expires = expires.UTC()
	}
	http.SetCookie(w, c)
}

// takeSAMLFlow takes the sign-in a response says it belongs to, once: the
// browser must bring the cookie its RelayState matches (otherwise a site
// could sign its visitors in as someone else), and the sign-in must have
// begun with this provider.
func (h *Handler) takeSAMLFlow(w http.ResponseWriter, r *http.Request, p *ent.SAMLProvider) (*graph.Flow, error) {
	relay := r.PostFormValue("RelayState")
	c, err := r.Cookie(flowCookie(h.secure))
	if relay == "" || err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(relay)) != 1 {
		return nil, apperr.Forbidden("This sign-in did not begin in this browser, or its cookie was refused: start again from Bindery")
	}
	h.setFlowCookie(w, "", time.Time{})
	f, err := h.res.FinishFlow(r.Context(), relay, enum.SignInKindSaml)
	if err != nil {
		return nil, err
	}
	if f.Provider != p.ID {
		return nil, apperr.Forbidden("This sign-in began with another identity provider: start again")
	}
	return f, nil
}

// checkSAMLResponse returns the assertion of the response posted to the
// ACS once the library has checked it as the answer to requestID, alone in
// its response, within the validity window and used for the first time.
func (h *Handler) checkSAMLResponse(r *http.Request, p *ent.SAMLProvider, sp *saml.ServiceProvider, requestID string) (*saml.Assertion, error) {
	raw, err := base64.StdEncoding.DecodeString(r.PostFormValue("SAMLResponse"))
	if err != nil || len(raw) == 0 {
		return nil, apperr.Invalid("SAMLResponse", "The identity provider's response is missing or not base64: start again")
	}
	refuse := func(err error) (*saml.Assertion, error) {
		var ir *saml.InvalidResponseError
		if errors.As(err, &ir) {
			err = ir.PrivateErr
		}
		var status saml.ErrBadStatus
		if errors.As(err, &status) {
			h.log.InfoContext(r.Context(), "SAML sign-in failed at the identity provider", "provider", p.ID, "status", status.Status)
			return nil, apperr.Forbidden("Your organization's identity provider did not sign you in")
		}
		h.log.WarnContext(r.Context(), "SAML response refused", "provider", p.ID, "error", err)
		return nil, samlRefused()
	}
	if err := atMostOneAssertion(raw); err != nil {
		return refuse(err)
	}
	// Only the HTTP-POST binding, which the metadata offers: no artifact
	// resolution, no SimpleSign.
	a, err := sp.ParseXMLResponse(raw, []string{requestID}, sp.AcsURL)
	if err != nil {
		return refuse(err)
	}
	if err := checkWindow(a, sp.Clock.Now()); err != nil {
		return refuse(err)
	}
	if a.ID == "" || len(a.ID) > 256 {
		return refuse(fmt.Errorf("assertion ID %q is empty or too long to record", a.ID))
	}
	if err := h.res.Used(r.Context(), "saml:"+p.ID+":"+a.ID, replayUntil(a)); err != nil {
		if apperr.KindOf(err) == apperr.PermissionDenied {
			h.log.WarnContext(r.Context(), "SAML response refused", "provider", p.ID, "error", "replayed assertion "+a.ID)
		}
		return nil, err
	}
	return a, nil
}

// atMostOneAssertion refuses a response that holds more than one
// assertion, wherever it is: Bindery reads one, and a second one is either
// an error or an attempt to have a signature checked on one assertion and
// another one read (signature wrapping). crewjam/saml refuses that for
// unsigned responses; this refuses it for signed ones too. An error
// response has none, and the library then reports its status.
func atMostOneAssertion(raw []byte) error {
	d := xml.NewDecoder(bytes.NewReader(raw))
	n := 0
	for {
		t, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("response is not XML: %w", err)
		}
		if s, ok := t.(xml.StartElement); ok && (s.Name.Local == "Assertion" || s.Name.Local == "EncryptedAssertion") {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("response holds %d assertions; Bindery reads one", n)
	}
	return nil
}

// checkWindow holds an assertion to Bindery's allowance for clock skew,
// which is narrower than the library's (saml.MaxClockSkew), a package
// variable that Bindery leaves alone.
func checkWindow(a *saml.Assertion, now time.Time) error {
	if c := a.Conditions; c != nil {
		if c.NotBefore.After(now.Add(samlSkew)) {
			return fmt.Errorf("assertion is not valid before %s", c.NotBefore)
		}
		if !c.NotOnOrAfter.IsZero() && !now.Before(c.NotOnOrAfter.Add(samlSkew)) {
			return fmt.Errorf("assertion expired at %s", c.NotOnOrAfter)
		}
	}
	if a.Subject != nil {
		for _, sc := range a.Subject.SubjectConfirmations {
			if d := sc.SubjectConfirmationData; d != nil && !d.NotOnOrAfter.IsZero() && !now.Before(d.NotOnOrAfter.Add(samlSkew)) {
				return fmt.Errorf("assertion's subject confirmation expired at %s", d.NotOnOrAfter)
			}
		}
	}
	return nil
}

// replayUntil is how long an assertion's ID must be remembered: until no
// check would accept it any more.
func replayUntil(a *saml.Assertion) time.Time {
	until := a.IssueInstant.Add(saml.MaxIssueDelay)
	if c := a.Conditions; c != nil && c.NotOnOrAfter.After(until) {
		until = c.NotOnOrAfter
	}
	if a.Subject != nil {
		for _, sc := range a.Subject.SubjectConfirmations {
			if d := sc.SubjectConfirmationData; d != nil && d.NotOnOrAfter.After(until) {
				until = d.NotOnOrAfter
			}
		}
	}
	return until.Add(saml.MaxClockSkew)
}

// SAML attributes that carry a person's address and name, by the names
// identity providers commonly give them.
var (
	samlEmailAttributes = []string{"email", "mail", "emailAddress", "Email",
		"urn:oid:0.9.2342.19200300.100.1.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"}
	samlNameAttributes = []string{"displayName", "name", "cn",
		"urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3",
		"http://schemas.microsoft.com/identity/claims/displayname",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"}
)

// samlPerson is the person an assertion names: their address is the
// NameID when it is one, or else an email attribute; their name, a display
// name attribute when there is one.
func samlPerson(p *ent.SAMLProvider, a *saml.Assertion) (graph.Person, error) {
	email := ""
	if a.Subject != nil && a.Subject.NameID != nil && validate.Email(strings.TrimSpace(a.Subject.NameID.Value)) == nil {
		email = strings.TrimSpace(a.Subject.NameID.Value)
	}
	if email == "" {
		email = samlAttribute(a, samlEmailAttributes)
	}
	if validate.Email(email) != nil {
		return graph.Person{}, apperr.Forbidden("Your organization's identity provider did not give your email address: ask an administrator to send it as the NameID or an email attribute")
	}
	return graph.Person{Method: enum.SignInKindSaml, Email: email, Name: samlAttribute(a, samlNameAttributes), SAMLProvider: p}, nil
}

// samlAttribute is the first value of the first of names the assertion
// gives, or "".
func samlAttribute(a *saml.Assertion, names []string) string {
	for _, name := range names {
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				if at.Name != name {
					continue
				}
				for _, v := range at.Values {
					if s := strings.TrimSpace(v.Value); s != "" {
						return s
					}
				}
			}
		}
	}
	return ""
}
