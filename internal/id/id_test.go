package id

import (
	"strings"
	"testing"
	"time"

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

// The IDs one process makes sort, as bytes, in the order it made them, even
// many in one millisecond, and start with the time they were made.
func TestNewIsOrdered(t *testing.T) {
	before := time.Now().UnixMilli()
	prev := New(Space)
	for i := 0; i < 20000; i++ {
		next := New(Space)
		if next <= prev {
			t.Fatalf("%s made after %s sorts before it", next, prev)
		}
		if !Is(next, Space) {
			t.Fatalf("%s is not a well-formed space ID", next)
		}
		prev = next
	}
	var ms int64
	for _, c := range []byte(prev[len(Space)+1:][:timeLength]) {
		ms = ms*62 + int64(strings.IndexByte(alphabet, c))
	}
	if after := time.Now().UnixMilli(); ms < before || ms > after+20000/(62*62)+1 {
		t.Fatalf("the time part of %s is %d ms, not between %d and %d", prev, ms, before, after)
	}
}
