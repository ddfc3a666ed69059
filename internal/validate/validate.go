// Package validate holds the field checks shared by the ent schema and the
// resolvers. Lengths count characters (Unicode code points), as JSON Schema's
// minLength and maxLength do, not bytes: an emoji is one character.
package validate

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Length returns a check that s has between min and max characters.
// A max of 0 means no upper bound.
func Length(min, max int) func(string) error {
	return func(s string) error {
		if !utf8.ValidString(s) {
			return fmt.Errorf("must be valid UTF-8")
		}
		n := utf8.RuneCountInString(s)
		switch {
		case n < min && min == 1:
			return fmt.Errorf("must not be empty")
		case n < min:
			return fmt.Errorf("must be at least %d characters", min)
		case max > 0 && n > max:
			return fmt.Errorf("must be at most %d characters", max)
		}
		return nil
	}
}

// Pattern returns a check that s matches re; what names the expected shape in
// the error message.
func Pattern(re *regexp.Regexp, what string) func(string) error {
	return func(s string) error {
		if !re.MatchString(s) {
			return fmt.Errorf("must be %s", what)
		}
		return nil
	}
}

// All returns a check that runs every check in order.
func All(checks ...func(string) error) func(string) error {
	return func(s string) error {
		for _, c := range checks {
			if err := c(s); err != nil {
				return err
			}
		}
		return nil
	}
}

// URL returns a check that s is an absolute http or https URL of at most max
// characters.
func URL(max int) func(string) error {
	return All(Length(1, max), func(s string) error {
		u, err := url.Parse(s)
		if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("must be an absolute http or https URL")
		}
		return nil
	})
}

// PEMCertificate checks that s holds a PEM-encoded X.509 certificate (one
// CERTIFICATE block, and nothing else but space around it).
func PEMCertificate(s string) error {
	block, rest := pem.Decode([]byte(s))
	if block == nil || block.Type != "CERTIFICATE" || !strings.HasPrefix(strings.TrimSpace(s), "-----BEGIN") ||
		strings.TrimSpace(string(rest)) != "" {
		return fmt.Errorf("must be one PEM-encoded X.509 certificate (-----BEGIN CERTIFICATE-----)")
	}
	if _, err := x509.ParseCertificate(block.Bytes); err != nil {
		return fmt.Errorf("must be a valid X.509 certificate: %v", err)
	}
	return nil
}

// SAMLCertificateInput bounds a SAML provider's certificate as sent, before
// CertificatePEM reads it into the stored form (SAMLCertificate).
var SAMLCertificateInput = Length(1, 10000)

// CertificatePEM reads one X.509 certificate as identity providers hand it
// out, PEM or the bare base64 DER that SAML metadata carries in
// <ds:X509Certificate> (whitespace and line breaks anywhere), parses it
// with crypto/x509, and returns it as PEM: the one form Bindery stores.
func CertificatePEM(s string) (string, error) {
	t := strings.TrimSpace(s)
	var der []byte
	if strings.HasPrefix(t, "-----BEGIN") {
		if err := PEMCertificate(t); err != nil {
			return "", err
		}
		block, _ := pem.Decode([]byte(t))
		der = block.Bytes
	} else {
		b64 := strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, t)
		var err error
		if der, err = base64.StdEncoding.DecodeString(b64); err != nil || len(der) == 0 {
			return "", fmt.Errorf("must be an X.509 certificate in PEM (-----BEGIN CERTIFICATE-----) or base64 DER")
		}
		if _, err := x509.ParseCertificate(der); err != nil {
			return "", fmt.Errorf("must be a valid X.509 certificate: %v", err)
		}
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), nil
}

// Field limits of the API (docs/api/errors.md, "Limits"). Each is referenced by the ent
// schema and, where a create operation is stricter, by the resolver.
var (
	CollectionTitle       = Length(0, 50)
	CollectionDescription = Length(0, 100)
	SpaceTitle            = Length(0, 50)
	Emoji                 = Length(0, 50)
	IconName              = Length(0, 50)
	OrganizationTitle     = Length(2, 255)
	OrganizationHostname  = All(Length(3, 32), Pattern(regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$`),
		"lowercase letters, digits and inner hyphens"))
	EmailDomain            = All(Length(3, 255), Pattern(regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`), "a lowercase domain name"))
	SiteTitle              = Length(2, 128)
	SiteHostname           = All(Length(0, 512), Pattern(regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`), "a fully qualified lowercase hostname"))
	SiteBasename           = Length(1, 100)
	SectionTitle           = Length(2, 128)
	SectionCreateTitle     = Length(0, 64)
	SectionPath            = Length(1, 100)
	SectionDescription     = Length(0, 256)
	Condition              = Length(1, 1024)
	SiteSpacePath          = Length(1, 100)
	SectionGroupTitle      = Length(1, 100)
	RedirectSource         = All(Length(1, 512), Pattern(regexp.MustCompile(`^/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$`), "a path such as /docs/old-page"))
	ChangeRequestSubject   = Length(0, 100)
	SearchQuery            = Length(1, 512)
	TeamTitle              = Length(1, 64)
	SAMLLabel              = Length(1, 30)
	SAMLEntityID           = Length(0, 1024)
	SAMLCertificate        = All(Length(1, 10000), PEMCertificate)
	SAMLSSOURL             = URL(2048)
	OpenAPISlug            = All(Length(1, 100), Pattern(regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`), "lowercase words joined by hyphens"))
	OpenAPISourceURL       = URL(2048)
	TranslationTitle       = Length(1, 100)
	IntegrationName        = All(Length(1, 100), Pattern(regexp.MustCompile(`^[a-zA-Z0-9-_.]+$`), "letters, digits, '-', '_' and '.'"))
	IntegrationTitle       = Length(2, 30)
	IntegrationDescription = Length(0, 100)
	IntegrationSummary     = Length(0, 2048)
	ShareLinkName          = Length(0, 50)
	APITokenLabel          = Length(1, 50)
	DisplayName            = Length(1, 255)
	Email                  = All(Length(3, 320), Pattern(regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`), "an email address"))
	LogoURL                = URL(2048)
)

// SiteProxyOrigin checks a site's proxy: a host and a path, such as
// company.com/docs, the official spec's SiteProxyOrigin (the contract says "a
// host-and-path").
var SiteProxyOrigin = All(Length(1, 512), Pattern(regexp.MustCompile(`^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(/[\w-]+)+$`),
	"a host and a path, such as company.com/docs"))

// CommentNode bounds the key of the node of a page a comment is on.
var CommentNode = Length(1, 255)

// Limits of a webhook endpoint. Its URL's scheme and address depend on the
// server's configuration (https, public addresses), so the resolver checks
// those; the length is the field's own.
var (
	WebhookURL         = Length(1, 2048)
	WebhookDescription = Length(0, 256)
)

// Reaction checks an emoji reaction: a few characters without spaces (an
// emoji, or a short code such as ":+1:").
var Reaction = All(Length(1, 16), Pattern(regexp.MustCompile(`^\S+$`), "an emoji, without spaces"))

// Limits of page content. The contract does not give them; they keep one
// page within what a reader and the revision store handle well.
var (
	PageTitle       = Length(1, 100)
	PageSlug        = All(Length(1, 100), Pattern(regexp.MustCompile(`^[\p{Ll}\p{Lo}\p{N}_.~-]+$`), "lowercase letters, digits, '-', '_', '.' and '~'"))
	PageDescription = Length(0, 1000)
	FileName        = All(Length(1, 255), Pattern(regexp.MustCompile(`^[^/\\\x00-\x1f]+$`), "a file name without slashes or control characters"))
)

// MaxOpenAPISpecText bounds the text source of an OpenAPI spec, in bytes.
// Through /v1 the 1 MiB body limit applies first, so a text there is a
// little smaller; GraphQL's 2 MiB body holds a text of the whole limit.
const MaxOpenAPISpecText = 1 << 20

// OpenAPISourceText checks the text source of an OpenAPI spec, the document
// itself: not empty, at most MaxOpenAPISpecText bytes.
func OpenAPISourceText(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("must not be empty")
	case len(s) > MaxOpenAPISpecText:
		return fmt.Errorf("must be at most %d bytes", MaxOpenAPISpecText)
	}
	return nil
}

// Limits of an installation's external IDs (the official
// IntegrationInstallationExternalIds): IDs in another system, not documents.
const (
	MaxExternalIDs     = 5
	MaxExternalIDBytes = 256
)

// ExternalIDs checks the external IDs of an installation, or of its row for
// a space or a site: at most MaxExternalIDs, each of at most
// MaxExternalIDBytes bytes.
func ExternalIDs(ids []string) error {
	if len(ids) > MaxExternalIDs {
		return fmt.Errorf("at most %d", MaxExternalIDs)
	}
	for _, x := range ids {
		if len(x) > MaxExternalIDBytes {
			return fmt.Errorf("each at most %d bytes", MaxExternalIDBytes)
		}
	}
	return nil
}

// MaxMarkdownBytes bounds the markdown of one page.
const MaxMarkdownBytes = 1 << 20

// MaxCommentBytes bounds the markdown of a comment or a reply: a discussion
// is not a page, and 64 KiB holds a long one with code.
const MaxCommentBytes = 64 << 10

// CommentMarkdown checks the body of a comment or a reply: some text, at
// most MaxCommentBytes bytes of it.
func CommentMarkdown(s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("must not be empty")
	case len(s) > MaxCommentBytes:
		return fmt.Errorf("must be at most %d bytes (64 KiB), not %d", MaxCommentBytes, len(s))
	}
	return nil
}

// Count limits of the API.
const (
	MaxListLimit                = 1000
	MaxIntegrationPreviewImages = 3
	MaxIntegrationExternalLinks = 5
)

// RedirectURL checks a redirect's destination of kind url, Bindery's beyond
// the official SiteRedirectDestination: it takes the API's limit for URLs
// (ssoURL, an OpenAPI spec's source URL): 2048 characters.
var RedirectURL = URL(2048)
