package querycost

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/internal/page"
)

// A connection costs 1 plus its items' cost times the items it may return:
// first, else last, else the default page, at least one.
func TestConnectionCost(t *testing.T) {
	for _, c := range []struct {
		name        string
		args        map[string]any
		child, want int
	}{
		{"default page", map[string]any{}, 2, 1 + 2*page.DefaultLimit},
		{"first literal", map[string]any{"first": int64(10)}, 3, 31},
		{"last variable", map[string]any{"last": json.Number("5")}, 3, 16},
		{"first before last", map[string]any{"first": 2, "last": 50}, 1, 3},
		{"zero counts one", map[string]any{"first": 0}, 4, 5},
		{"huge is capped", map[string]any{"first": float64(1 << 40)}, 1, 1 + 1<<20},
		{"not a number", map[string]any{"first": "ten"}, 1, 1 + page.DefaultLimit},
	} {
		got := connectionCost(c.child, intArg(c.args, "first"), intArg(c.args, "last"))
		assert.Equal(t, c.want, got, c.name)
	}
	assert.True(t, IsConnection("SpaceConnection"))
	assert.False(t, IsConnection("Space"))
}
