package auth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTokens(t *testing.T) {
	tok, hash := NewToken()
	assert.True(t, WellFormed(tok, TokenPrefix), tok)
	assert.False(t, WellFormed(tok, SessionPrefix), "a token is no session secret")
	session, _ := NewSession()
	assert.True(t, WellFormed(session, SessionPrefix), session)
	assert.False(t, WellFormed(session, TokenPrefix), "a session secret is no token")
	assert.Len(t, tok, 42)
	assert.Equal(t, hash, HashToken(tok))
	assert.NotContains(t, hash, tok)

	// A single changed character breaks the checksum.
	b := []byte(tok)
	if b[10] == 'a' {
		b[10] = 'b'
	} else {
		b[10] = 'a'
	}
	assert.False(t, WellFormed(string(b), TokenPrefix))
	assert.False(t, WellFormed("bnd_short", TokenPrefix))
	assert.False(t, WellFormed("ghp_"+tok[4:], TokenPrefix))
	assert.False(t, WellFormed("", TokenPrefix))
}
