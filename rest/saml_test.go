package rest_test

import (
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// padded is s padded with trailing newlines to n characters.
func padded(s string, n int) string { return s + strings.Repeat("\n", n-len(s)) }

func TestSAMLProviders(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	saml := "/v1/orgs/" + e.Org.ID + "/saml"
	cert := servertest.Certificate(t)
	team := e.createTeam("Engineering")["id"].(string)
	otherTeam := e.MustDo(http.MethodPut, "/v1/orgs/"+e.otherOrg+"/teams", e.otherTok, map[string]any{"title": "Theirs"},
		http.StatusCreated)["id"].(string)
	full := map[string]any{"label": "Okta", "ssoURL": "https://idp.example.com/sso", "entityID": "https://idp.example.com",
		"certificate": cert, "defaultTeam": team, "defaultRole": "edit"}
	created := e.MustDo(http.MethodPost, saml, e.OwnerToken, full, http.StatusCreated)
	p := created["id"].(string)
	servertest.AssertContains(t, map[string]any{"object": "saml-provider", "label": "Okta", "status": "active", "certificate": cert,
		"defaultRole": "edit", "defaultTeam": map[string]any{"id": team, "title": "Engineering"},
		"service": map[string]any{"acsURL": "http://bindery.test/saml/" + p + "/acs", "startURL": "http://bindery.test/saml/" + p + "/start",
			"entityID": "http://bindery.test/saml/" + p + "/metadata"},
		"urls": map[string]any{"location": "http://bindery.test" + saml + "/" + p}}, created)
	pending := e.MustDo(http.MethodPost, saml, e.OwnerToken, map[string]any{"label": "Later"}, http.StatusCreated)
	servertest.AssertContains(t, map[string]any{"status": "pending", "ssoURL": "", "certificate": "", "defaultRole": nil}, pending)
	theirs := e.MustDo(http.MethodPost, "/v1/orgs/"+e.otherOrg+"/saml", e.otherTok, map[string]any{"label": "Theirs"},
		http.StatusCreated)["id"].(string)

	with := func(k string, v any) map[string]any {
		out := map[string]any{"label": "X"}
		out[k] = v
		return out
	}
	e.Run(t, []servertest.Scenario{
		{Name: "create: label of 30", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: map[string]any{"label": strings.Repeat("l", 30)},
			WantStatus: http.StatusCreated, Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, "http://bindery.test"+saml+"/"+res.JSON()["id"].(string), res.Header.Get("Location"))
			}},
		{Name: "create: label of 31", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: map[string]any{"label": strings.Repeat("l", 31)},
			WantStatus: http.StatusBadRequest, WantError: "label"},
		{Name: "create: empty label", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: map[string]any{"label": ""},
			WantStatus: http.StatusBadRequest, WantError: "label"},
		{Name: "create: no label", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: map[string]any{"ssoURL": "https://a.example"},
			WantStatus: http.StatusBadRequest, WantError: "label"},
		{Name: "create: entityID of 1024", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("entityID", strings.Repeat("e", 1024)),
			WantStatus: http.StatusCreated},
		{Name: "create: entityID of 1025", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("entityID", strings.Repeat("e", 1025)),
			WantStatus: http.StatusBadRequest, WantError: "entityID"},
		{Name: "create: certificate of 10000", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("certificate", padded(cert, 10000)),
			WantStatus: http.StatusCreated},
		{Name: "create: certificate of 10001", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("certificate", padded(cert, 10001)),
			WantStatus: http.StatusBadRequest, WantError: "certificate"},
		{Name: "create: a certificate that is not PEM", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("certificate", "MIIB..."),
			WantStatus: http.StatusBadRequest, WantError: "certificate"},
		{Name: "create: a PEM block that is no certificate", Method: http.MethodPost, Path: saml, Token: e.OwnerToken,
			Body:       with("certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
			WantStatus: http.StatusBadRequest, WantError: "certificate"},
		{Name: "create: ssoURL of 2048", Method: http.MethodPost, Path: saml, Token: e.OwnerToken,
			Body: with("ssoURL", "https://idp.example.com/"+strings.Repeat("s", 2048-24)), WantStatus: http.StatusCreated},
		{Name: "create: ssoURL of 2049", Method: http.MethodPost, Path: saml, Token: e.OwnerToken,
			Body: with("ssoURL", "https://idp.example.com/"+strings.Repeat("s", 2049-24)), WantStatus: http.StatusBadRequest, WantError: "ssoURL"},
		{Name: "create: a relative ssoURL", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("ssoURL", "/sso"),
			WantStatus: http.StatusBadRequest, WantError: "ssoURL"},
		{Name: "create: an ftp ssoURL", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("ssoURL", "ftp://idp.example.com"),
			WantStatus: http.StatusBadRequest, WantError: "ssoURL"},
		{Name: "create: another organization's team", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("defaultTeam", otherTeam),
			WantStatus: http.StatusBadRequest, WantError: "defaultTeam"},
		{Name: "create: a bad role", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: with("defaultRole", "owner"),
			WantStatus: http.StatusBadRequest, WantError: "defaultRole"},
		{Name: "create: as a reader", Method: http.MethodPost, Path: saml, Token: e.readTok, Body: with("entityID", "x"),
			WantStatus: http.StatusForbidden},
		{Name: "create: as an editor", Method: http.MethodPost, Path: saml, Token: e.editTok, Body: with("entityID", "x"),
			WantStatus: http.StatusForbidden},
		{Name: "create: as an outsider", Method: http.MethodPost, Path: saml, Token: e.otherTok, Body: with("entityID", "x"),
			WantStatus: http.StatusNotFound},
		{Name: "create: without a token", Method: http.MethodPost, Path: saml, Body: with("entityID", "x"), WantStatus: http.StatusUnauthorized},
		{Name: "list: as a reader", Method: http.MethodGet, Path: saml, Token: e.readTok, WantStatus: http.StatusForbidden},
		{Name: "list: as an outsider", Method: http.MethodGet, Path: saml, Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "list: without a token", Method: http.MethodGet, Path: saml, WantStatus: http.StatusUnauthorized},
		{Name: "list: limit 1001", Method: http.MethodGet, Path: saml + "?limit=1001", Token: e.OwnerToken, WantStatus: http.StatusBadRequest},
		{Name: "get", Method: http.MethodGet, Path: saml + "/" + p, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": p, "certificate": cert}},
		{Name: "get: as a reader, who never sees a certificate", Method: http.MethodGet, Path: saml + "/" + p, Token: e.readTok,
			WantStatus: http.StatusNotFound},
		{Name: "get: another organization's", Method: http.MethodGet, Path: saml + "/" + theirs, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: unknown", Method: http.MethodGet, Path: saml + "/saml_nope", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "get: without a token", Method: http.MethodGet, Path: saml + "/" + p, WantStatus: http.StatusUnauthorized},
		{Name: "update: label of 31", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"label": strings.Repeat("l", 31)}, WantStatus: http.StatusBadRequest, WantError: "label"},
		{Name: "update: bad certificate", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"certificate": "nope"}, WantStatus: http.StatusBadRequest, WantError: "certificate"},
		{Name: "update: another organization's team", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"defaultTeam": otherTeam}, WantStatus: http.StatusBadRequest, WantError: "defaultTeam"},
		{Name: "update: as a reader", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.readTok,
			Body: map[string]any{"label": "Mine"}, WantStatus: http.StatusNotFound},
		{Name: "update: another organization's", Method: http.MethodPatch, Path: saml + "/" + theirs, Token: e.OwnerToken,
			Body: map[string]any{"label": "Mine"}, WantStatus: http.StatusNotFound},
		{Name: "update: without a token", Method: http.MethodPatch, Path: saml + "/" + p, Body: map[string]any{"label": "Mine"},
			WantStatus: http.StatusUnauthorized},
		{Name: "delete: without a token", Method: http.MethodDelete, Path: saml + "/" + p, WantStatus: http.StatusUnauthorized},
		{Name: "update: without a certificate it is pending", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"label": "Okta 2", "certificate": nil, "defaultTeam": nil, "defaultRole": nil}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"label": "Okta 2", "status": "pending", "certificate": "", "defaultRole": nil},
			Check:    func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "defaultTeam") }},
		{Name: "update: with it, active again", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"certificate": cert, "defaultTeam": team}, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"status": "active", "defaultTeam": map[string]any{"id": team}}},
		{Name: "sso: as a reader, labels and start URLs of the active ones", Method: http.MethodGet, Path: "/v1/orgs/" + e.Org.ID + "/sso",
			Token: e.guestTok, WantStatus: http.StatusOK, Check: func(t *testing.T, res *servertest.Response) {
				assert.Equal(t, map[string]any{"items": []any{map[string]any{"id": p, "label": "Okta 2",
					"startURL": "http://bindery.test/saml/" + p + "/start"}}}, res.JSON())
			}},
		{Name: "sso: as an outsider", Method: http.MethodGet, Path: "/v1/orgs/" + e.Org.ID + "/sso", Token: e.otherTok, WantStatus: http.StatusNotFound},
		{Name: "sso: without a token", Method: http.MethodGet, Path: "/v1/orgs/" + e.Org.ID + "/sso", WantStatus: http.StatusUnauthorized},
		{Name: "delete: as an editor", Method: http.MethodDelete, Path: saml + "/" + p, Token: e.editTok, WantStatus: http.StatusNotFound},
		{Name: "delete: another organization's", Method: http.MethodDelete, Path: saml + "/" + theirs, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "delete", Method: http.MethodDelete, Path: saml + "/" + p, Token: e.OwnerToken, WantStatus: http.StatusNoContent},
		{Name: "delete: again", Method: http.MethodDelete, Path: saml + "/" + p, Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "sso: none left", Method: http.MethodGet, Path: "/v1/orgs/" + e.Org.ID + "/sso", Token: e.readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"items": []any{}}},
	})
	all := e.Walk(t, saml, e.OwnerToken, 2)
	require.Len(t, all, 5, "Later, and the four created by the scenarios")
	assert.Equal(t, pending["id"], all[0], "oldest first")
}

// An identity provider's metadata carries its certificate as the bare
// base64 DER of <ds:X509Certificate>, wrapped and indented: a SAML provider
// takes it as it takes PEM, and stores and answers it as PEM.
func TestSAMLCertificateForms(t *testing.T) {
	t.Parallel()
	e := newMbEnv(t)
	saml := "/v1/orgs/" + e.Org.ID + "/saml"
	cert := servertest.Certificate(t)
	block, _ := pem.Decode([]byte(cert))
	require.NotNil(t, block)
	b64 := base64.StdEncoding.EncodeToString(block.Bytes)
	// As metadata wraps it: 64 characters a line, indented.
	var wrapped strings.Builder
	for i := 0; i < len(b64); i += 64 {
		wrapped.WriteString("\n        " + b64[i:min(i+64, len(b64))])
	}
	wrapped.WriteString("\n      ")
	body := func(c any) map[string]any {
		return map[string]any{"label": "IdP", "ssoURL": "https://idp.example.com/sso", "entityID": "https://idp.example.com", "certificate": c}
	}

	var p string
	e.Run(t, []servertest.Scenario{
		{Name: "create: bare base64 DER", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: body(b64),
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"certificate": cert, "status": "active"},
			Check: func(t *testing.T, res *servertest.Response) { p = res.JSON()["id"].(string) }},
		{Name: "create: base64 DER as metadata wraps it", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: body(wrapped.String()),
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"certificate": cert}},
		{Name: "create: PEM with space around it", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: body("\n  " + cert + "\n\n"),
			WantStatus: http.StatusCreated, WantJSON: map[string]any{"certificate": cert}},
		{Name: "create: base64 that is not base64", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: body("MIIB!!"),
			WantStatus: http.StatusBadRequest, WantError: "certificate: must be an X.509 certificate in PEM"},
		{Name: "create: base64 of something else", Method: http.MethodPost, Path: saml, Token: e.OwnerToken,
			Body: body(base64.StdEncoding.EncodeToString([]byte("not a certificate"))), WantStatus: http.StatusBadRequest,
			WantError: "certificate: must be a valid X.509 certificate"},
		{Name: "create: base64 of a truncated certificate", Method: http.MethodPost, Path: saml, Token: e.OwnerToken,
			Body: body(base64.StdEncoding.EncodeToString(block.Bytes[:len(block.Bytes)-8])), WantStatus: http.StatusBadRequest,
			WantError: "certificate"},
		{Name: "create: only space", Method: http.MethodPost, Path: saml, Token: e.OwnerToken, Body: body(" \n "),
			WantStatus: http.StatusBadRequest, WantError: "certificate"},
		{Name: "create: base64 DER over 10000 characters", Method: http.MethodPost, Path: saml, Token: e.OwnerToken,
			Body: body(b64 + strings.Repeat(" ", 10001-len(b64))), WantStatus: http.StatusBadRequest, WantError: "certificate"},
	})
	require.NotEmpty(t, p)
	e.Run(t, []servertest.Scenario{
		{Name: "update: bare base64 DER", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"certificate": wrapped.String()}, WantStatus: http.StatusOK, WantJSON: map[string]any{"certificate": cert}},
		{Name: "update: garbage", Method: http.MethodPatch, Path: saml + "/" + p, Token: e.OwnerToken,
			Body: map[string]any{"certificate": "AAAA"}, WantStatus: http.StatusBadRequest, WantError: "certificate"},
		{Name: "get: stored as PEM", Method: http.MethodGet, Path: saml + "/" + p, Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"certificate": cert}},
	})
	stored, err := e.Client.SAMLProvider.Get(t.Context(), p)
	require.NoError(t, err)
	assert.Equal(t, cert, *stored.Certificate, "one form in the database: PEM")

	// GraphQL reads the same forms through the same resolver.
	d := e.GraphQL(e.OwnerToken, `mutation($in: CreateSAMLProviderInput!) { createSAMLProvider(input: $in) { samlProvider { certificate } } }`,
		map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "label": "GQL", "certificate": wrapped.String()}})
	require.Empty(t, d.Errors)
	assert.JSONEq(t, `{"createSAMLProvider": {"samlProvider": {"certificate": `+strconv.Quote(cert)+`}}}`, string(d.Data))
	bad := e.GraphQL(e.OwnerToken, `mutation($in: CreateSAMLProviderInput!) { createSAMLProvider(input: $in) { samlProvider { id } } }`,
		map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "label": "GQL", "certificate": "AAAA"}})
	assert.Equal(t, "BAD_USER_INPUT", bad.Code())
	require.NotEmpty(t, bad.Errors)
	assert.Equal(t, "certificate", bad.Errors[0].Extensions["field"])
}
