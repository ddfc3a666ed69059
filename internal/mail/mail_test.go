package mail

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompose(t *testing.T) {
	out := string(Compose("Docs <docs@example.com>", Message{To: "ann@example.com", Subject: "Héllo\r\nBcc: eve@example.com",
		Body: "line one\nline two"}, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
	head, body, ok := strings.Cut(out, "\r\n\r\n")
	require.True(t, ok)
	for _, line := range strings.Split(head, "\r\n") {
		assert.NotContains(t, line, "\n", "a header spans one line")
		assert.False(t, strings.HasPrefix(line, "Bcc:"), "a subject cannot add a header")
	}
	assert.Contains(t, head, "Subject: =?utf-8?q?")
	assert.Contains(t, head, "Date: Fri, 02 Jan 2026 03:04:05 +0000")
	assert.Equal(t, "line one\r\nline two\r\n", body)
}

func TestParseURL(t *testing.T) {
	for _, ok := range []string{"smtp://mail.example.com", "smtps://u:p@mail.example.com:465", "smtp://127.0.0.1:2525/"} {
		_, err := ParseURL(ok)
		assert.NoError(t, err, ok)
	}
	for _, bad := range []string{"mail.example.com", "http://mail.example.com", "smtp://", "smtp://h/x", "smtp://h?x=1"} {
		_, err := ParseURL(bad)
		assert.Error(t, err, bad)
	}
	_, err := NewSMTP("smtp://mail.example.com", "not an address")
	assert.Error(t, err)
	s, err := NewSMTP("smtps://mail.example.com", "Docs <docs@example.com>")
	require.NoError(t, err)
	assert.Equal(t, "mail.example.com:465", s.addr)
	assert.Equal(t, "docs@example.com", s.envelope)
}
