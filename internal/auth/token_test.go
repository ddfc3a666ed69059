package auth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTokens(t *testing.T) {
	tok, hash := NewToken()
	assert.True(t, WellFormed(tok), tok)
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
	assert.False(t, WellFormed(string(b)))
	assert.False(t, WellFormed("bnd_short"))
	assert.False(t, WellFormed("ghp_"+tok[4:]))
	assert.False(t, WellFormed(""))
}
