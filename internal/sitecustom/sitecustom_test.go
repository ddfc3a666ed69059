package sitecustom

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The defaults are checked against the official schema by the /v1 tests of
// GET .../published, whose answers are validated against the spec.
func TestDefaultsAreFresh(t *testing.T) {
	a := Defaults()
	a["styling"] = nil
	assert.NotNil(t, Defaults()["styling"], "a caller cannot change another's copy")
}
