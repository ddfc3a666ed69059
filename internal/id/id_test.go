package id

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewIsWellFormedAndUnique(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 10000; i++ {
		v := New(Space)
		require.True(t, Is(v, Space), v)
		require.False(t, seen[v], "duplicate %s", v)
		seen[v] = true
	}
}

func TestPrefixOf(t *testing.T) {
	assert.Equal(t, "spc", PrefixOf(New(Space)))
	assert.Equal(t, "", PrefixOf("nounderscore"))
	assert.Equal(t, "", PrefixOf("_leading"))
}

func TestIsRejectsForeignShapes(t *testing.T) {
	assert.False(t, Is("spc_short", Space))
	assert.False(t, Is(New(Collection), Space))
	assert.False(t, Is("spc_"+"!!!!!!!!!!!!!!!!!!!!", Space))
}
