package signin_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"encoding/xml"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/teammember"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// testIdP is an identity provider with a real key, crewjam/saml's
// IdentityProvider, which answers Bindery's requests as a real one would;
// tests then alter its answers as an attacker would.
type testIdP struct {
	idp     *saml.IdentityProvider
	key     *rsa.PrivateKey
	cert    *x509.Certificate
	certPEM string
}

const idpEntityID = "https://idp.example/metadata"

func newTestIdP(t *testing.T, sp func() *saml.EntityDescriptor) *testIdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	md, _ := url.Parse(idpEntityID)
	sso, _ := url.Parse("https://idp.example/sso")
	idp := &saml.IdentityProvider{Key: key, Certificate: cert, MetadataURL: *md, SSOURL: *sso,
		SignatureMethod: dsig.RSASHA256SignatureMethod, ServiceProviderProvider: spProvider(sp)}
	return &testIdP{idp: idp, key: key, cert: cert,
		certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
}

type spProvider func() *saml.EntityDescriptor

func (f spProvider) GetServiceProvider(*http.Request, string) (*saml.EntityDescriptor, error) {
	return f(), nil
}

// signature is the IdP's enveloped signature of el, a Response or an
// Assertion, for its Signature field.
func (p *testIdP) signature(t *testing.T, el *etree.Element) *etree.Element {
	t.Helper()
	ks := dsig.TLSCertKeyStore(tls.Certificate{Certificate: [][]byte{p.cert.Raw}, PrivateKey: p.key})
	ctx := dsig.NewDefaultSigningContext(ks)
	ctx.Canonicalizer = dsig.MakeC14N10ExclusiveCanonicalizerWithPrefixList("")
	require.NoError(t, ctx.SetSignatureMethod(dsig.RSASHA256SignatureMethod))
	sig, err := ctx.ConstructSignature(el, true)
	require.NoError(t, err)
	return sig
}

// signed is a copy of the assertion, signed by p.
func (p *testIdP) signed(t *testing.T, a saml.Assertion) *etree.Element {
	a.Signature = nil
	a.Signature = p.signature(t, a.Element())
	return a.Element()
}

// samlTest is a server with an active SAML provider of e.Org whose
// identity provider is idp, and a browser.
type samlTest struct {
	t       *testing.T
	e       *servertest.Env
	log     *servertest.SyncBuffer
	idp     *testIdP
	p       *ent.SAMLProvider
	team    *ent.Team
	browser *http.Client
}

func newSAMLTest(t *testing.T, opts ...servertest.Option) *samlTest {
	t.Helper()
	s := &samlTest{t: t, log: &servertest.SyncBuffer{}}
	opts = append(opts, servertest.WithLog(slog.New(slog.NewTextHandler(s.log, nil))))
	s.e = servertest.New(t, opts...)
	s.idp = newTestIdP(t, s.metadata)
	ctx := context.Background()
	var err error
	s.team, err = s.e.Client.Team.Create().SetOrganizationID(s.e.Org.ID).SetTitle("Writers").Save(ctx)
	require.NoError(t, err)
	s.p, err = s.e.Client.SAMLProvider.Create().SetOrganizationID(s.e.Org.ID).SetLabel("Acme SSO").
		SetSSOURL("https://idp.example/sso").SetEntityID(idpEntityID).SetCertificate(s.idp.certPEM).
		SetDefaultRole(enum.RoleEdit).SetDefaultTeamID(s.team.ID).SetStatus(enum.SAMLProviderStatusActive).Save(ctx)
	require.NoError(t, err)
	s.browser = s.newBrowser()
	return s
}

func (s *samlTest) newBrowser() *http.Client {
	jar, err := cookiejar.New(nil)
	require.NoError(s.t, err)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// metadata is Bindery's SP metadata, as the IdP's administrators load it.
func (s *samlTest) metadata() *saml.EntityDescriptor {
	res := s.e.Do(http.MethodGet, "/saml/"+s.p.ID+"/metadata", "", nil)
	require.Equal(s.t, http.StatusOK, res.Status, string(res.Body))
	var md saml.EntityDescriptor
	require.NoError(s.t, xml.Unmarshal(res.Body, &md))
	return &md
}

func (s *samlTest) url(path string) string { return s.e.HTTP.URL + "/saml/" + s.p.ID + path }

// start begins a sign-in in the browser and returns the request as the
// IdP received it, with the assertion it would make for email.
func (s *samlTest) start(browser *http.Client, email string) *saml.IdpAuthnRequest {
	t := s.t
	t.Helper()
	res, err := browser.Get(s.url("/start?return_to=/spaces"))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusFound, res.StatusCode)
	loc := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(loc, "https://idp.example/sso?"), loc)
	req, err := saml.NewIdpAuthnRequest(s.idp.idp, httptest.NewRequest(http.MethodGet, loc, nil))
	require.NoError(t, err)
	require.NoError(t, req.Validate())
	session := &saml.Session{ID: "s1", CreateTime: time.Now(), NameID: email,
		NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: email, UserCommonName: "Ada Lovelace"}
	require.NoError(t, saml.DefaultAssertionMaker{}.MakeAssertion(req, session))
	return req
}

// respond is the IdP's signed response to req: the assertion signed, then
// the response around it signed.
func (s *samlTest) respond(req *saml.IdpAuthnRequest) url.Values {
	s.t.Helper()
	require.NoError(s.t, req.MakeAssertionEl())
	require.NoError(s.t, req.MakeResponse())
	return s.form(req, req.ResponseEl)
}

// form is the form the IdP's page posts for response el.
func (s *samlTest) form(req *saml.IdpAuthnRequest, el *etree.Element) url.Values {
	s.t.Helper()
	doc := etree.NewDocument()
	doc.SetRoot(el)
	raw, err := doc.WriteToBytes()
	require.NoError(s.t, err)
	return url.Values{"SAMLResponse": {base64.StdEncoding.EncodeToString(raw)}, "RelayState": {req.RelayState}}
}

// response is a Response element answering req around assertions,
// signed or not.
func (s *samlTest) response(req *saml.IdpAuthnRequest, signed bool, assertions ...*etree.Element) *etree.Element {
	r := &saml.Response{Destination: req.ACSEndpoint.Location, ID: "id-response-" + req.Request.ID,
		InResponseTo: req.Request.ID, IssueInstant: time.Now(), Version: "2.0",
		Issuer: &saml.Issuer{Format: "urn:oasis:names:tc:SAML:2.0:nameid-format:entity", Value: idpEntityID},
		Status: saml.Status{StatusCode: saml.StatusCode{Value: saml.StatusSuccess}}}
	el := r.Element()
	for _, a := range assertions {
		el.AddChild(a.Copy())
	}
	if !signed {
		return el
	}
	r.Signature = s.idp.signature(s.t, el)
	el = r.Element()
	for _, a := range assertions {
		el.AddChild(a.Copy())
	}
	return el
}

// assertion is a signed assertion for another person, made for req.
func (s *samlTest) assertion(req *saml.IdpAuthnRequest, email string, signed bool) *etree.Element {
	s.t.Helper()
	a := *req.Assertion
	subject := *a.Subject
	subject.NameID = &saml.NameID{Format: string(saml.EmailAddressNameIDFormat), Value: email}
	a.Subject, a.ID, a.Signature = &subject, "id-other-"+email, nil
	a.AttributeStatements = nil
	if signed {
		return s.idp.signed(s.t, a)
	}
	return a.Element()
}

func (s *samlTest) post(browser *http.Client, form url.Values) (*http.Response, string) {
	s.t.Helper()
	res, err := browser.PostForm(s.url("/acs"), form)
	require.NoError(s.t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	return res, string(body)
}

// viewer is the ID of the user the browser's session cookie authenticates
// at /graphql, or "".
func (s *samlTest) viewer(browser *http.Client) string {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.e.HTTP.URL+"/graphql", strings.NewReader(`{"query":"{ viewer { id } }"}`))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := browser.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	var out struct {
		Data struct{ Viewer struct{ ID string } }
	}
	_ = json.NewDecoder(res.Body).Decode(&out)
	return out.Data.Viewer.ID
}

func TestSAMLSignsInAndMakesAnSSOMember(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	req := s.start(s.browser, "ada@example.com")
	res, body := s.post(s.browser, s.respond(req))
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body+s.log.String())
	assert.Equal(t, "/spaces", res.Header.Get("Location"))

	ctx := context.Background()
	u, err := s.e.Client.User.Query().Where(user.Email("ada@example.com")).Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Ada Lovelace", u.DisplayName)
	m, err := s.e.Client.Member.Query().Where(member.OrganizationID(s.e.Org.ID), member.UserID(u.ID)).Only(ctx)
	require.NoError(t, err)
	require.NotNil(t, m.Role)
	assert.Equal(t, enum.RoleEdit, *m.Role)
	assert.True(t, m.SSO)
	inTeam, err := s.e.Client.TeamMember.Query().Where(teammember.TeamID(s.team.ID), teammember.UserID(u.ID)).Exist(ctx)
	require.NoError(t, err)
	assert.True(t, inTeam)
	assert.Equal(t, u.ID, s.viewer(s.browser))
}

// refusal is a response that must not sign anyone in.
type refusal struct {
	name string
	// respond alters what the IdP does, and returns the form posted.
	respond func(s *samlTest, req *saml.IdpAuthnRequest) url.Values
	// wantLog is what the server's log says was wrong.
	wantLog string
}

func refusals() []refusal {
	ago := func(d time.Duration) time.Time { return time.Now().Add(-d) }
	return []refusal{
		{name: "unsigned", wantLog: "signature element not present", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			return s.form(req, s.response(req, false, req.Assertion.Element()))
		}},
		{name: "signed by another key", wantLog: "certificate", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			other := newTestIdP(s.t, s.metadata)
			req.IDP = other.idp
			return s.respond(req)
		}},
		{name: "assertion signed by another key in an unsigned response", wantLog: "certificate", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			other := newTestIdP(s.t, s.metadata)
			return s.form(req, s.response(req, false, other.signed(s.t, *req.Assertion)))
		}},
		{name: "wrong audience", wantLog: "AudienceRestriction", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Assertion.Conditions.AudienceRestrictions[0].Audience.Value = "https://other-app.example/metadata"
			return s.respond(req)
		}},
		{name: "wrong recipient", wantLog: "Recipient", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.Recipient = "https://other-app.example/acs"
			return s.respond(req)
		}},
		{name: "wrong destination", wantLog: "Destination", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.ACSEndpoint.Location = "https://other-app.example/acs"
			return s.respond(req)
		}},
		{name: "expired beyond the allowed skew", wantLog: "expired at", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Assertion.Conditions.NotOnOrAfter = ago(100 * time.Second)
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = ago(100 * time.Second)
			return s.respond(req)
		}},
		{name: "issued long ago", wantLog: "expired", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Now = ago(10 * time.Minute)
			a := req.Assertion
			a.IssueInstant, a.Conditions.NotBefore, a.Conditions.NotOnOrAfter = ago(10*time.Minute), ago(11*time.Minute), ago(9*time.Minute)
			a.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = ago(9 * time.Minute)
			return s.respond(req)
		}},
		{name: "not yet valid beyond the allowed skew", wantLog: "not valid before", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Assertion.Conditions.NotBefore = time.Now().Add(2 * time.Minute)
			return s.respond(req)
		}},
		{name: "not yet valid", wantLog: "not yet valid", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Assertion.Conditions.NotBefore = time.Now().Add(10 * time.Minute)
			req.Assertion.Conditions.NotOnOrAfter = time.Now().Add(20 * time.Minute)
			return s.respond(req)
		}},
		{name: "two signed assertions", wantLog: "2 assertions", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			require.NoError(s.t, req.MakeAssertionEl())
			return s.form(req, s.response(req, true, req.AssertionEl, s.assertion(req, "mallory@example.com", true)))
		}},
		{name: "wrapping: unsigned assertion injected before the signed one", wantLog: "2 assertions", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			require.NoError(s.t, req.MakeAssertionEl())
			return s.form(req, s.response(req, false, s.assertion(req, "mallory@example.com", false), req.AssertionEl))
		}},
		{name: "wrapping: signed response moved into an unsigned one", wantLog: "2 assertions", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			require.NoError(s.t, req.MakeAssertionEl())
			require.NoError(s.t, req.MakeResponse())
			evil := s.response(req, false, s.assertion(req, "mallory@example.com", false))
			ext := evil.CreateElement("samlp:Extensions")
			ext.AddChild(req.ResponseEl)
			evil.RemoveChild(ext)
			evil.InsertChildAt(evil.FindElement("./Status").Index(), ext)
			return s.form(req, evil)
		}},
		{name: "wrapping: signed assertion moved into an evil one with its ID", wantLog: "2 assertions", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			require.NoError(s.t, req.MakeAssertionEl())
			evil := s.assertion(req, "mallory@example.com", false)
			evil.RemoveAttr("ID")
			evil.CreateAttr("ID", req.Assertion.ID)
			sig := req.AssertionEl.FindElement("./Signature").Copy()
			obj := sig.CreateElement("ds:Object")
			obj.AddChild(req.AssertionEl)
			evil.InsertChildAt(evil.FindElement("./Issuer").Index()+1, sig)
			return s.form(req, s.response(req, false, evil))
		}},
		{name: "signed assertion altered", wantLog: "signature", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			require.NoError(s.t, req.MakeAssertionEl())
			req.AssertionEl.FindElement("./Subject/NameID").SetText("mallory@example.com")
			return s.form(req, s.response(req, false, req.AssertionEl))
		}},
		{name: "answer to a request Bindery never made", wantLog: "InResponseTo", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Request.ID = "id-never-made"
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.InResponseTo = "id-never-made"
			return s.respond(req)
		}},
		{name: "IdP-initiated", wantLog: "InResponseTo", respond: func(s *samlTest, req *saml.IdpAuthnRequest) url.Values {
			req.Request.ID = ""
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.InResponseTo = ""
			return s.respond(req)
		}},
	}
}

func TestSAMLRefusesResponses(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	for _, tc := range refusals() {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			browser := s.newBrowser()
			req := s.start(browser, "ada@example.com")
			before := len(s.log.String())
			res, body := s.post(browser, tc.respond(s, req))
			assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
			assert.Contains(t, body, "cannot accept")
			assert.Contains(t, s.log.String()[before:], tc.wantLog)
			for _, c := range res.Cookies() {
				assert.NotEqual(t, "bindery_session", c.Name, "no session starts")
			}
			assert.Empty(t, s.viewer(browser))
		})
	}
	n, err := s.e.Client.User.Query().Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "nobody but the owner has an account")
}

// TestSAMLAllowsSkew: an assertion a minute past its end is the IdP's
// clock running ahead, within the allowance.
func TestSAMLAllowsSkew(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	req := s.start(s.browser, "ada@example.com")
	req.Assertion.Conditions.NotOnOrAfter = time.Now().Add(-60 * time.Second)
	req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = time.Now().Add(-60 * time.Second)
	req.Assertion.Conditions.NotBefore = time.Now().Add(-2 * time.Minute)
	res, body := s.post(s.browser, s.respond(req))
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	assert.NotEmpty(t, s.viewer(s.browser))
}

func TestSAMLRefusesReplays(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	first := s.start(s.browser, "ada@example.com")
	form := s.respond(first)
	res, body := s.post(s.browser, form)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)

	t.Run("the same post again", func(t *testing.T) {
		s.t = t
		res, body := s.post(s.browser, form)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
		assert.Contains(t, body, "did not begin in this browser")
	})
	t.Run("the response to a sign-in already finished, in a new one", func(t *testing.T) {
		s.t = t
		browser := s.newBrowser()
		next := s.start(browser, "ada@example.com")
		form := url.Values{"SAMLResponse": form["SAMLResponse"], "RelayState": {next.RelayState}}
		res, body := s.post(browser, form)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
		assert.Contains(t, s.log.String(), "InResponseTo")
		assert.Empty(t, s.viewer(browser))
	})
	t.Run("an accepted assertion's ID in the answer to a new sign-in", func(t *testing.T) {
		s.t = t
		browser := s.newBrowser()
		next := s.start(browser, "ada@example.com")
		next.Assertion.ID = first.Assertion.ID
		res, body := s.post(browser, s.respond(next))
		assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
		assert.Contains(t, body, "already used")
		assert.Contains(t, s.log.String(), "replayed assertion "+first.Assertion.ID)
		assert.Empty(t, s.viewer(browser))
	})
}

// TestSAMLBindsTheResponseToTheBrowser: a site that has a response of its
// own posted by a visitor's browser (login CSRF) signs nobody in.
func TestSAMLBindsTheResponseToTheBrowser(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	t.Run("without the flow cookie", func(t *testing.T) {
		s.t = t
		form := s.respond(s.start(s.browser, "mallory@example.com"))
		victim := s.newBrowser()
		res, body := s.post(victim, form)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
		assert.Contains(t, body, "did not begin in this browser")
		assert.Empty(t, s.viewer(victim))
	})
	t.Run("with another RelayState than the cookie", func(t *testing.T) {
		s.t = t
		form := s.respond(s.start(s.browser, "mallory@example.com"))
		victim := s.newBrowser()
		s.start(victim, "ada@example.com")
		res, body := s.post(victim, form)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
		assert.Contains(t, body, "did not begin in this browser")
		assert.Empty(t, s.viewer(victim))
	})
	t.Run("a flow of another provider", func(t *testing.T) {
		s.t = t
		other, err := s.e.Client.SAMLProvider.Create().SetOrganizationID(s.e.Org.ID).SetLabel("Other").
			SetSSOURL("https://idp.example/sso").SetEntityID(idpEntityID).SetCertificate(s.idp.certPEM).
			SetStatus(enum.SAMLProviderStatusActive).Save(context.Background())
		require.NoError(t, err)
		form := s.respond(s.start(s.browser, "ada@example.com"))
		res, err := s.browser.PostForm(s.e.HTTP.URL+"/saml/"+other.ID+"/acs", form)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusForbidden, res.StatusCode)
		assert.Empty(t, s.viewer(s.browser))
	})
}

func TestSAMLStart(t *testing.T) {
	t.Parallel()
	for _, secure := range []bool{false, true} {
		t.Run(map[bool]string{false: "http", true: "https"}[secure], func(t *testing.T) {
			t.Parallel()
			var opts []servertest.Option
			if secure {
				opts = append(opts, func(c *config.Config) { c.PublicURL = "https://bindery.test" })
			}
			s := newSAMLTest(t, opts...)
			res, err := s.browser.Get(s.url("/start?return_to=//evil.example/x"))
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, http.StatusFound, res.StatusCode)
			loc, err := url.Parse(res.Header.Get("Location"))
			require.NoError(t, err)
			assert.Equal(t, "idp.example", loc.Host)
			relay := loc.Query().Get("RelayState")
			require.NotEmpty(t, relay)

			cookies := res.Cookies()
			require.Len(t, cookies, 1)
			c := cookies[0]
			assert.Equal(t, relay, c.Value, "the cookie holds what RelayState does")
			assert.True(t, c.HttpOnly)
			if secure {
				assert.Equal(t, "__Host-bindery_flow", c.Name)
				assert.True(t, c.Secure)
				assert.Equal(t, http.SameSiteNoneMode, c.SameSite, "the IdP posts from its own site")
			} else {
				assert.Equal(t, "bindery_flow", c.Name)
				assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
			}

			req, err := saml.NewIdpAuthnRequest(s.idp.idp, httptest.NewRequest(http.MethodGet, loc.String(), nil))
			require.NoError(t, err)
			require.NoError(t, req.Validate())
			base := s.e.Config.PublicURL + "/saml/" + s.p.ID
			assert.Equal(t, base+"/acs", req.Request.AssertionConsumerServiceURL)
			assert.Equal(t, saml.HTTPPostBinding, req.Request.ProtocolBinding)
			assert.Equal(t, base+"/metadata", req.Request.Issuer.Value)
			assert.Equal(t, "https://idp.example/sso", req.Request.Destination)

			f, err := s.e.Client.SignInFlow.Query().Only(context.Background())
			require.NoError(t, err)
			assert.Equal(t, enum.SignInKindSaml, f.Kind)
			assert.Equal(t, s.p.ID, f.Provider)
			assert.Equal(t, req.Request.ID, f.Nonce)
			assert.Equal(t, "/", f.ReturnTo, "another site's address is no place to return to")
			assert.WithinDuration(t, time.Now().Add(10*time.Minute), f.ExpiresAt, time.Minute)
			assert.NotEqual(t, relay, f.SecretHash, "the secret is stored hashed")
		})
	}
}

func TestSAMLMetadata(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	res := s.e.Do(http.MethodGet, "/saml/"+s.p.ID+"/metadata", "", nil)
	require.Equal(t, http.StatusOK, res.Status)
	assert.Equal(t, "application/samlmetadata+xml", res.Header.Get("Content-Type"))
	md := s.metadata()
	base := "http://bindery.test/saml/" + s.p.ID
	assert.Equal(t, base+"/metadata", md.EntityID)
	require.Len(t, md.SPSSODescriptors, 1)
	sp := md.SPSSODescriptors[0]
	require.Len(t, sp.AssertionConsumerServices, 1)
	assert.Equal(t, saml.HTTPPostBinding, sp.AssertionConsumerServices[0].Binding)
	assert.Equal(t, base+"/acs", sp.AssertionConsumerServices[0].Location)
	assert.Empty(t, sp.KeyDescriptors, "Bindery signs and decrypts nothing")
}

func TestSAMLProviderNotFound(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	pending, err := s.e.Client.SAMLProvider.Create().SetOrganizationID(s.e.Org.ID).SetLabel("Pending").
		SetSSOURL("https://idp.example/sso").Save(context.Background())
	require.NoError(t, err)
	for _, id := range []string{"saml_unknown", pending.ID} {
		for _, path := range []string{"/metadata", "/start"} {
			res := s.e.Do(http.MethodGet, "/saml/"+id+path, "", nil)
			assert.Equal(t, http.StatusNotFound, res.Status, id+path)
			assert.Contains(t, string(res.Body), "SAML provider not found")
		}
		res, err := s.browser.PostForm(s.e.HTTP.URL+"/saml/"+id+"/acs", url.Values{"SAMLResponse": {"x"}})
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusNotFound, res.StatusCode, id+"/acs")
	}
}

func TestSAMLBadInput(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	req := s.start(s.browser, "ada@example.com")
	res, body := s.post(s.browser, url.Values{"RelayState": {req.RelayState}, "SAMLResponse": {"not base64!"}})
	assert.Equal(t, http.StatusBadRequest, res.StatusCode, body)
	assert.Contains(t, body, "not base64")
	assert.NotContains(t, s.log.String(), "level=ERROR")
}

func TestSAMLKeepsAHigherRole(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	_, u := s.e.Member(s.e.Org.ID, enum.RoleAdmin, "ada@example.com")
	res, body := s.post(s.browser, s.respond(s.start(s.browser, "ada@example.com")))
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	m, err := s.e.Client.Member.Query().Where(member.OrganizationID(s.e.Org.ID), member.UserID(u.ID)).Only(context.Background())
	require.NoError(t, err)
	require.NotNil(t, m.Role)
	assert.Equal(t, enum.RoleAdmin, *m.Role)
	assert.True(t, m.SSO)
	assert.Equal(t, u.ID, s.viewer(s.browser))
}

// TestSAMLPersonFromAttributes: an IdP whose NameID is not an address
// gives it, and the name, as attributes.
func TestSAMLPersonFromAttributes(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	attrs := func(email string) []saml.AttributeStatement {
		var st saml.AttributeStatement
		if email != "" {
			st.Attributes = append(st.Attributes, saml.Attribute{Name: "email", Values: []saml.AttributeValue{{Value: email}}})
		}
		st.Attributes = append(st.Attributes, saml.Attribute{Name: "displayName", Values: []saml.AttributeValue{{Value: "Grace Hopper"}}})
		return []saml.AttributeStatement{st}
	}
	t.Run("email attribute", func(t *testing.T) {
		s.t = t
		req := s.start(s.browser, "ada@example.com")
		req.Assertion.Subject.NameID = &saml.NameID{Format: string(saml.TransientNameIDFormat), Value: "_8f2a1c"}
		req.Assertion.AttributeStatements = attrs("grace@example.com")
		res, body := s.post(s.browser, s.respond(req))
		require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
		u, err := s.e.Client.User.Query().Where(user.Email("grace@example.com")).Only(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "Grace Hopper", u.DisplayName)
		assert.Equal(t, u.ID, s.viewer(s.browser))
	})
	t.Run("no address", func(t *testing.T) {
		s.t = t
		browser := s.newBrowser()
		req := s.start(browser, "ada@example.com")
		req.Assertion.Subject.NameID = &saml.NameID{Format: string(saml.TransientNameIDFormat), Value: "_8f2a1c"}
		req.Assertion.AttributeStatements = attrs("")
		res, body := s.post(browser, s.respond(req))
		assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
		assert.Contains(t, body, "did not give your email address")
		assert.Empty(t, s.viewer(browser))
	})
}

// TestSAMLIdPFailure: a person who could not sign in at their IdP is told
// so, not that the response was bad.
func TestSAMLIdPFailure(t *testing.T) {
	t.Parallel()
	s := newSAMLTest(t)
	req := s.start(s.browser, "ada@example.com")
	r := &saml.Response{Destination: req.ACSEndpoint.Location, ID: "id-failure", InResponseTo: req.Request.ID,
		IssueInstant: time.Now(), Version: "2.0", Issuer: &saml.Issuer{Value: idpEntityID},
		Status: saml.Status{StatusCode: saml.StatusCode{Value: "urn:oasis:names:tc:SAML:2.0:status:Responder"}}}
	r.Signature = s.idp.signature(t, r.Element())
	el := r.Element()
	res, body := s.post(s.browser, s.form(req, el))
	assert.Equal(t, http.StatusForbidden, res.StatusCode, body)
	assert.Contains(t, body, "did not sign you in")
	assert.Contains(t, s.log.String(), "status=urn:oasis:names:tc:SAML:2.0:status:Responder")
	assert.Empty(t, s.viewer(s.browser))
}
