package authz

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The README's role table stands between these markers.
const (
	readmeBegin = "<!-- role table: generated from internal/authz; BINDERY_UPDATE_README=1 go test ./internal/authz -->\n"
	readmeEnd   = "<!-- end of role table -->\n"
)

// TestREADMERoleTable holds the README's role table to the tables the code
// decides with. BINDERY_UPDATE_README=1 rewrites it.
func TestREADMERoleTable(t *testing.T) {
	const path = "../../README.md"
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	readme := string(b)
	i, j := strings.Index(readme, readmeBegin), strings.Index(readme, readmeEnd)
	require.True(t, i >= 0 && j > i, "README.md has no role table between the markers")
	want := readme[:i+len(readmeBegin)] + Markdown() + readme[j:]
	if os.Getenv("BINDERY_UPDATE_README") == "1" {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, readme, "the README's role table is stale: run BINDERY_UPDATE_README=1 go test ./internal/authz")
}
