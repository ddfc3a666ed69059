package graph

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/internal/enum"
)

// TestCRListArgsKey: the primed pages of Space.changeRequests are found by
// this key, so equal arguments give one key and different ones never share
// it, absent apart from zero and the filters apart from each other.
func TestCRListArgsKey(t *testing.T) {
	zero, ten := 0, 10
	open, user := enum.ChangeRequestStatus("open"), "open"
	keys := []crListArgs{
		{},
		{First: &zero},
		{First: &ten},
		{Last: &ten},
		{First: &ten, Status: &open},
		{First: &ten, Contributor: &user},
		{First: &ten, Status: &open, Contributor: &user},
	}
	seen := map[string]int{}
	for i, a := range keys {
		k := a.key()
		if j, dup := seen[k]; dup {
			t.Errorf("arguments %d and %d share the key %q", j, i, k)
		}
		seen[k] = i
	}
	other := 10
	assert.Equal(t, crListArgs{First: &ten}.key(), crListArgs{First: &other}.key(), "equal values, other pointers")
}
