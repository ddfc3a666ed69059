package validate

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLengthCountsCharacters(t *testing.T) {
	check := Length(0, 50)
	assert.NoError(t, check(strings.Repeat("é", 50)), "50 two-byte characters are 50 characters")
	assert.NoError(t, check(strings.Repeat("🎉", 50)))
	assert.EqualError(t, check(strings.Repeat("a", 51)), "must be at most 50 characters")
	assert.EqualError(t, Length(1, 10)(""), "must not be empty")
	assert.EqualError(t, Length(2, 10)("a"), "must be at least 2 characters")
	assert.Error(t, check("\xff"))
}

func TestPatterns(t *testing.T) {
	assert.NoError(t, OrganizationHostname("acme-docs"))
	assert.Error(t, OrganizationHostname("Acme"))
	assert.Error(t, OrganizationHostname("-ac"))
	assert.NoError(t, RedirectSource("/docs/old-page"))
	assert.Error(t, RedirectSource("docs"))
	assert.NoError(t, OpenAPISlug("petstore-v2"))
	assert.Error(t, OpenAPISlug("Petstore"))
	assert.NoError(t, LogoURL("https://example.com/logo.png"))
	assert.Error(t, LogoURL("javascript:alert(1)"))
	assert.Error(t, LogoURL("/relative"))
	assert.NoError(t, EmailDomain("example.com"))
	assert.Error(t, EmailDomain("example"))
}

func TestCertificatePEM(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp.example.com"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	want := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	b64 := base64.StdEncoding.EncodeToString(der)

	for name, in := range map[string]string{
		"PEM":                      want,
		"PEM with space around":    "\n\t" + want + "\n\n",
		"bare base64 DER":          b64,
		"base64 DER, wrapped":      b64[:40] + "\r\n  " + b64[40:80] + "\n\t" + b64[80:] + "\n",
		"base64 DER, space around": "  " + b64 + "  ",
	} {
		got, err := CertificatePEM(in)
		if assert.NoError(t, err, name) {
			assert.Equal(t, want, got, name)
			assert.NoError(t, SAMLCertificate(got), "%s: the stored form passes the schema's check", name)
		}
	}
	for name, in := range map[string]string{
		"empty":                "",
		"not base64":           "MIIB!!",
		"base64 of text":       base64.StdEncoding.EncodeToString([]byte("hello")),
		"truncated DER":        base64.StdEncoding.EncodeToString(der[:len(der)-4]),
		"a PEM block of junk":  "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
		"a PEM key":            "-----BEGIN PUBLIC KEY-----\n" + b64 + "\n-----END PUBLIC KEY-----\n",
		"two PEM certificates": want + want,
	} {
		_, err := CertificatePEM(in)
		assert.Error(t, err, name)
	}
}

func TestOpenAPISourceText(t *testing.T) {
	assert.NoError(t, OpenAPISourceText(strings.Repeat("a", MaxOpenAPISpecText)))
	assert.EqualError(t, OpenAPISourceText(strings.Repeat("a", MaxOpenAPISpecText+1)), "must be at most 1048576 bytes")
	assert.EqualError(t, OpenAPISourceText(""), "must not be empty")
}

func TestExternalIDs(t *testing.T) {
	assert.NoError(t, ExternalIDs(nil))
	assert.NoError(t, ExternalIDs([]string{"a", "b", "c", "d", strings.Repeat("é", MaxExternalIDBytes/2)}))
	assert.EqualError(t, ExternalIDs(make([]string, MaxExternalIDs+1)), "at most 5")
	assert.EqualError(t, ExternalIDs([]string{strings.Repeat("é", MaxExternalIDBytes/2+1)}), "each at most 256 bytes",
		"bytes, not characters")
}
