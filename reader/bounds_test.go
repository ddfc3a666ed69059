package reader_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

func TestPageViewStatements(t *testing.T) {
	f := newFixture(t, enum.SiteVisibilityPublic)
	v := f.visitor(t)
	for _, p := range []string{"", "install/linux", "api/", "search?q=quokka", "nope", "install/linux.md"} {
		for i := 0; i < 2; i++ {
			before := f.e.Statements.Load()
			res := v.get(f.root() + p)
			require.NotEqual(t, http.StatusInternalServerError, res.status)
			t.Logf("%q run %d: %d statements (status %d)", p, i, f.e.Statements.Load()-before, res.status)
		}
	}
}
