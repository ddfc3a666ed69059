package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
