package graph_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// The point reads of make bench-load, each bounded in statements (its nested
// read is nsCase, its list a case of TestListStatements): what every
// request pays is the token with its user and the user's memberships and
// grants (one statement, see Authenticate); deciding about content in a
// collection reads the organization's collection tree (one, see
// loadOrgAccess), and content at the organization's root needs nothing
// more; the rest is what the request reads. Statement counts are deterministic, so the bounds are exact
// tests; how fast the statements run is the benchmark's business.

// rpMeasure returns the statements of request on a server with empty caches,
// after a request that records the token's use.
func rpMeasure(t *testing.T, e *servertest.Env, token string, request func(e *servertest.Env)) int64 {
	t.Helper()
	fresh := servertest.Reuse(t, e)
	fresh.MustDo(http.MethodGet, "/v1/user", token, nil, http.StatusOK)
	return lsStatements(fresh, func() { request(fresh) })
}

func TestPointReadsTakeTwoOrThreeStatements(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	tok, _ := e.Member(e.Org.ID, enum.RoleEdit, "viewer@example.com")
	col := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/collections", e.OwnerToken, map[string]any{"title": "Guides"}, http.StatusCreated)
	for _, parent := range []any{nil, col["id"]} {
		// The space's row, the viewer's, and for a space in a collection,
		// the collection tree.
		bound := int64(2)
		if parent != nil {
			bound = 3
		}
		body := map[string]any{"title": "Handbook"}
		if parent != nil {
			body["parent"] = parent
		}
		sp := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, body, http.StatusCreated)
		id := sp["id"].(string)
		e.MustDo(http.MethodPost, "/v1/spaces/"+id+"/change-requests", e.OwnerToken, map[string]any{"subject": "Draft"}, http.StatusCreated)

		got := rpMeasure(t, e, tok, func(e *servertest.Env) {
			s := e.MustDo(http.MethodGet, "/v1/spaces/"+id, tok, nil, http.StatusOK)
			assert.Equal(t, e.Org.ID, s["organization"])
			assert.EqualValues(t, 1, s["changeRequests"])
			assert.NotEmpty(t, s["revision"])
			if parent != nil {
				assert.Equal(t, parent, s["parent"])
			}
		})
		assert.LessOrEqual(t, got, bound, "GET /v1/spaces/{id} (parent %v)", parent)

		got = rpMeasure(t, e, tok, func(e *servertest.Env) {
			r := e.GraphQL(tok, `query($id: ID!) { node(id: $id) { ... on Space { id title } } }`, map[string]any{"id": id})
			require.Empty(t, r.Errors)
			assert.Contains(t, string(r.Data), id)
		})
		assert.LessOrEqual(t, got, bound, "node(id:) of a space (parent %v)", parent)
	}
}

// TestKeyedSpaceReadStatements: a stranger reading a space with a key. The
// share-key read (5 statements: the token, the space, the share link
// looked up, and what the key opens of the organization for the answer)
// sets the bound, and a visitor's read is held to it; a visitor JWT is
// checked without a statement, so today it takes 2.
func TestKeyedSpaceReadStatements(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	stranger := e.Token(e.User("stranger@example.com"))
	const bound = int64(5)
	shared := spCreate(t, e, e.OwnerToken, "Shared", nil)
	guarded := spCreate(t, e, e.OwnerToken, "Guarded", nil)
	for id, v := range map[string]string{shared: "SHARE_LINK", guarded: "VISITOR_AUTH"} {
		require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($id: ID!, $v: Visibility) { updateSpace(input: {id: $id, visibility: $v}) {
		  space { id } } }`, map[string]any{"id": id, "v": v}).Errors)
	}
	var link struct {
		CreateShareLink struct {
			ShareLink struct {
				URLs struct{ Published string } `json:"urls"`
			}
		}
	}
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { createShareLink(input: {spaceId: $id}) { shareLink { urls { published } } } }`,
		map[string]any{"id": shared}).Into(t, &link)
	keyed := link.CreateShareLink.ShareLink.URLs.Published[len(e.Config.PublicURL):]
	var rotated struct{ RotateSpaceVisitorAuthKey struct{ Key string } }
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { rotateSpaceVisitorAuthKey(input: {spaceId: $id}) { key } }`,
		map[string]any{"id": guarded}).Into(t, &rotated)
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}).
		SignedString([]byte(rotated.RotateSpaceVisitorAuthKey.Key))
	require.NoError(t, err)

	shareRead := rpMeasure(t, e, stranger, func(e *servertest.Env) {
		e.MustDo(http.MethodGet, keyed, stranger, nil, http.StatusOK)
	})
	assert.LessOrEqual(t, shareRead, bound, "GET /v1/spaces/{id}?shareKey=")
	visitorRead := rpMeasure(t, e, stranger, func(e *servertest.Env) {
		e.MustDo(http.MethodGet, "/v1/spaces/"+guarded+"?visitorAuthToken="+tok, stranger, nil, http.StatusOK)
	})
	assert.LessOrEqual(t, visitorRead, bound, "GET /v1/spaces/{id}?visitorAuthToken=")
	gqlRead := rpMeasure(t, e, stranger, func(e *servertest.Env) {
		r := e.GraphQL(stranger, `query($id: ID!, $tok: String) { space(id: $id, visitorAuthToken: $tok) { id title } }`,
			map[string]any{"id": guarded, "tok": tok})
		require.Empty(t, r.Errors)
	})
	assert.LessOrEqual(t, gqlRead, bound, "space(id:, visitorAuthToken:)")
	t.Logf("share key %d, visitor token %d, GraphQL %d", shareRead, visitorRead, gqlRead)
}
