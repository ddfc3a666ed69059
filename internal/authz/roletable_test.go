package authz

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The role table of the permissions reference stands between these markers.
const (
	roleTablePath  = "../../docs/api/permissions.md"
	roleTableBegin = "<!-- role table: generated from internal/authz; BINDERY_UPDATE_ROLE_TABLE=1 go test ./internal/authz -->\n"
	roleTableEnd   = "<!-- end of role table -->\n"
)

// TestRoleTableIsCurrent holds the role table of docs/api/permissions.md to
// the tables the code decides with. BINDERY_UPDATE_ROLE_TABLE=1 rewrites it.
func TestRoleTableIsCurrent(t *testing.T) {
	b, err := os.ReadFile(roleTablePath)
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, roleTableBegin), strings.Index(doc, roleTableEnd)
	require.True(t, i >= 0 && j > i, "%s has no role table between the markers", roleTablePath)
	want := doc[:i+len(roleTableBegin)] + Markdown() + doc[j:]
	if os.Getenv("BINDERY_UPDATE_ROLE_TABLE") == "1" {
		require.NoError(t, os.WriteFile(roleTablePath, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, doc, "the role table of %s is stale: run BINDERY_UPDATE_ROLE_TABLE=1 go test ./internal/authz", roleTablePath)
}
