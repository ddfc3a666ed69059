package enum

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type enumer interface {
	Values() []string
}

// Every enumeration must map to distinct GraphQL names, or two wire values
// would become indistinguishable in GraphQL.
func TestGQLNamesAreDistinctAndValid(t *testing.T) {
	all := []enumer{Role(""), DefaultLevel(""), Visibility(""), EditMode(""), OrganizationType(""),
		OrganizationUseCase(""), OrganizationCommunityType(""), Plan(""), Language(""), RevisionType(""),
		ChangeRequestStatus(""), CommentStatus(""), TeamMemberRole(""), TranslationStatus(""), SAMLProviderStatus(""), SiteType(""),
		SiteVisibility(""), SiteAgentsContext(""), OpenAPISpecProcessingState(""), OpenAPISpecProcessingErrorCode(""),
		OpenAPISpecVisibility(""), IntegrationTarget(""), IntegrationVisibility(""), IntegrationScope(""),
		IntegrationCategory(""), InstallationStatus(""), InstallationSelection(""), InviteKind(""), ObjectKind("")}
	for _, e := range all {
		seen := map[string]string{}
		for _, v := range e.Values() {
			n := GQLName(v)
			require.Regexp(t, `^[A-Z][A-Z0-9_]*$`, n)
			if prev, dup := seen[n]; dup {
				t.Fatalf("%q and %q both map to %s", prev, v, n)
			}
			seen[n] = v
		}
	}
}

func TestGQLName(t *testing.T) {
	for in, want := range map[string]string{
		"share-link":         "SHARE_LINK",
		"internalDocs":       "INTERNAL_DOCS",
		"space:content:read": "SPACE_CONTENT_READ",
		"free_2024":          "FREE_2024",
		"pt-br":              "PT_BR",
		"FETCH_TIMEOUT":      "FETCH_TIMEOUT",
		"admin":              "ADMIN",
	} {
		assert.Equal(t, want, GQLName(in), in)
	}
}

func TestRoundTrips(t *testing.T) {
	var buf bytes.Buffer
	VisibilityShareLink.MarshalGQL(&buf)
	assert.Equal(t, `"SHARE_LINK"`, buf.String())

	var v Visibility
	require.NoError(t, v.UnmarshalGQL("SHARE_LINK"))
	assert.Equal(t, VisibilityShareLink, v)
	assert.Error(t, v.UnmarshalGQL("share-link"))

	require.NoError(t, json.Unmarshal([]byte(`"in-collection"`), &v))
	assert.Equal(t, VisibilityInCollection, v)
	err := json.Unmarshal([]byte(`"secret"`), &v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown value "secret"`)
	assert.Contains(t, err.Error(), "share-link")
}

func TestRoleOrder(t *testing.T) {
	order := []Role{RoleRead, RoleComment, RoleEdit, RoleReview, RoleCreate, RoleAdmin}
	for i, r := range order {
		for j, s := range order {
			assert.Equal(t, i >= j, r.AtLeast(s), "%s >= %s", r, s)
		}
	}
	assert.False(t, Role("").AtLeast(RoleRead))
	assert.Equal(t, RoleEdit, MaxRole(RoleEdit, ""))
	assert.Equal(t, RoleAdmin, MaxRole(RoleEdit, RoleAdmin))
	assert.Equal(t, Role(""), MinRole(RoleEdit, ""))
	r, ok := DefaultLevelInherit.Role()
	assert.False(t, ok)
	assert.Empty(t, r)
	r, ok = DefaultLevelReview.Role()
	assert.True(t, ok)
	assert.Equal(t, RoleReview, r)
}
