package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSafeHref(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://example.com/a?b=1#c", "https://example.com/a?b=1#c"},
		{"HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM"},
		{"mailto:team@example.com", "mailto:team@example.com"},
		{"tel:+1-555-0100", "tel:+1-555-0100"},
		{"/docs/setup", "/docs/setup"},
		{"../setup#install", "../setup#install"},
		{"setup", "setup"},
		{"#install", "#install"},
		{"?q=a:b", "?q=a:b"},
		{"//cdn.example.com/x", "//cdn.example.com/x"},
		{"a/b:c", "a/b:c"},
		{"  https://example.com \n", "https://example.com"},
		{"ht\ttp://example.com", "http://example.com"},
		// Refused: scripts, documents of their own, the visitor's files,
		// unknown schemes, however they are written.
		{"javascript:alert(1)", ""},
		{"JaVaScRiPt:alert(1)", ""},
		{"  javascript:alert(1)", ""},
		{"\x01javascript:alert(1)", ""},
		{"\x00javascript:alert(1)", ""},
		{"java\tscript:alert(1)", ""},
		{"java\nscript:alert(1)", ""},
		{"javascript\r:alert(1)", ""},
		{"\u00a0javascript:alert(1)", ""},
		{"data:text/html,<script>alert(1)</script>", ""},
		{"DATA:image/svg+xml;base64,AAAA", ""},
		{"vbscript:msgbox(1)", ""},
		{"file:///etc/passwd", ""},
		{"ftp://example.com", ""},
		{"x-custom:thing", ""},
		{"https://example.com/\x07bell", ""},
		{"", ""},
		{" \t", ""},
	} {
		got, ok := safeHref(tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
		assert.Equal(t, tc.want != "", ok, "%q", tc.in)
	}
}

func TestSafeSrc(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://example.com/a.png", "https://example.com/a.png"},
		{"http://example.com/a.png", "http://example.com/a.png"},
		{"/files/logo.svg", "/files/logo.svg"},
		{"logo.png", "logo.png"},
		{"data:image/png;base64,AAAA", ""},
		{" Data:image/svg+xml,<svg onload=alert(1)>", ""},
		{"javascript:alert(1)", ""},
		{"mailto:a@example.com", ""},
		{"file:///c:/x.png", ""},
		{"blob:https://example.com/uuid", ""},
	} {
		got, ok := safeSrc(tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
		assert.Equal(t, tc.want != "", ok, "%q", tc.in)
	}
}

func TestExternal(t *testing.T) {
	assert.True(t, external("https://example.com"))
	assert.True(t, external("HTTP://example.com"))
	assert.True(t, external("//example.com"))
	assert.False(t, external("/docs"))
	assert.False(t, external("#top"))
	assert.False(t, external("mailto:a@example.com"))
}
