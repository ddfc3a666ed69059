package rest_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// rotateSpaceVisitorKey gives a space a visitor signing key through GraphQL,
// the only API that shows it.
func (s *spEnv) rotateSpaceVisitorKey(tok, space string) *servertest.GQLResponse {
	s.t.Helper()
	return s.GraphQL(tok, `mutation($id: ID!) { rotateSpaceVisitorAuthKey(input: {spaceId: $id}) {
	  key space { id hasVisitorAuthKey } } }`, map[string]any{"id": space})
}

func (s *spEnv) rotatedKey(space string) string {
	s.t.Helper()
	var out struct {
		RotateSpaceVisitorAuthKey struct {
			Key   string
			Space struct{ HasVisitorAuthKey bool }
		}
	}
	s.rotateSpaceVisitorKey(s.admin, space).Into(s.t, &out)
	require.True(s.t, out.RotateSpaceVisitorAuthKey.Space.HasVisitorAuthKey)
	require.Len(s.t, out.RotateSpaceVisitorAuthKey.Key, 43)
	return out.RotateSpaceVisitorAuthKey.Key
}

// A visitor-auth space opens to the visitors whose JWT its visitor signing
// key signed, and only for reading, by the same rules as a visitor-auth
// site (package visitor).
func TestGetSpaceVisitorToken(t *testing.T) {
	t.Parallel()
	s := newSpEnv(t)
	guarded, other, private := s.createID("Guarded", ""), s.createID("Other", ""), s.createID("Private", "")
	set := func(id, v string) {
		g := s.GraphQL(s.admin, `mutation($id: ID!, $v: Visibility) { updateSpace(input: {id: $id, visibility: $v}) { space { id } } }`,
			map[string]any{"id": id, "v": v})
		require.Empty(t, g.Errors)
	}
	set(guarded, "VISITOR_AUTH")
	set(other, "VISITOR_AUTH")

	tokenOf := func(key string, ttl time.Duration) string {
		return visitorJWT(t, key, ttl, map[string]any{"sub": "v1"})
	}
	// Before any key, the space admits no visitor, whatever they present.
	beforeKey := tokenOf("any", time.Hour)
	s.Run(t, []servertest.Scenario{
		{Name: "no key yet: a visitor is not admitted", Method: http.MethodGet, Path: spPath(guarded, "?visitorAuthToken="+beforeKey),
			Token: s.stranger, WantStatus: http.StatusNotFound},
		{Name: "no key yet: a member's token cannot be checked", Method: http.MethodGet,
			Path: spPath(guarded, "?visitorAuthToken="+beforeKey), Token: s.reader, WantStatus: http.StatusBadRequest,
			WantError: "visitorAuthToken"},
	})

	g := s.rotateSpaceVisitorKey(s.editor, guarded)
	require.Equal(t, "FORBIDDEN", g.Code(), "an editor cannot rotate the key")
	g = s.rotateSpaceVisitorKey(s.stranger, guarded)
	require.Equal(t, "NOT_FOUND", g.Code(), "a stranger does not see the space")
	g = s.rotateSpaceVisitorKey("", guarded)
	require.Equal(t, http.StatusUnauthorized, g.Status, "no token")

	key, otherKey := s.rotatedKey(guarded), s.rotatedKey(other)
	privateKey := s.rotatedKey(private)
	valid := tokenOf(key, time.Hour)
	expired := tokenOf(key, -time.Minute)
	forged := tokenOf("not-the-key", time.Hour)
	ofOther := tokenOf(otherKey, time.Hour)
	noExp, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "v1"}).SignedString([]byte(key))
	require.NoError(t, err)
	hs512, err := jwt.NewWithClaims(jwt.SigningMethodHS512, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}).
		SignedString([]byte(key))
	require.NoError(t, err)
	path := func(id, tok string) string { return spPath(id, "?visitorAuthToken="+url.QueryEscape(tok)) }
	readOnly := map[string]any{"view": true, "access": false, "admin": false, "edit": false, "comment": false, "merge": false}
	s.Run(t, []servertest.Scenario{
		{Name: "a stranger without a token", Method: http.MethodGet, Path: spPath(guarded), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a visitor reads it", Method: http.MethodGet, Path: path(guarded, valid), Token: s.stranger,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"id": guarded, "visibility": "visitor-auth", "permissions": readOnly}},
		{Name: "a guest with the token reads it", Method: http.MethodGet, Path: path(guarded, valid), Token: s.guest,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"permissions": readOnly}},
		{Name: "a visitor searches it", Method: http.MethodGet, Path: spPath(guarded, "/search?query=x&visitorAuthToken="+valid),
			Token: s.stranger, WantStatus: http.StatusOK},
		{Name: "an expired token", Method: http.MethodGet, Path: path(guarded, expired), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a token of another key", Method: http.MethodGet, Path: path(guarded, forged), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a token of another space", Method: http.MethodGet, Path: path(guarded, ofOther), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a token without exp", Method: http.MethodGet, Path: path(guarded, noExp), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a token of another algorithm", Method: http.MethodGet, Path: path(guarded, hs512), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "not a JWT", Method: http.MethodGet, Path: path(guarded, "nope"), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a valid token of a private space", Method: http.MethodGet, Path: path(private, tokenOf(privateKey, time.Hour)),
			Token: s.stranger, WantStatus: http.StatusNotFound},
		{Name: "a share key does not open it", Method: http.MethodGet, Path: spPath(guarded, "?shareKey="+key), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a member with a valid token keeps their role", Method: http.MethodGet, Path: path(guarded, valid), Token: s.editor,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"permissions": map[string]any{"edit": true}}},
		{Name: "a member with an expired token", Method: http.MethodGet, Path: path(guarded, expired), Token: s.reader,
			WantStatus: http.StatusBadRequest, WantError: "visitorAuthToken"},
		{Name: "a member with a forged token", Method: http.MethodGet, Path: path(guarded, forged), Token: s.reader,
			WantStatus: http.StatusBadRequest, WantError: "visitorAuthToken"},
		{Name: "without a bearer token", Method: http.MethodGet, Path: path(guarded, valid), WantStatus: http.StatusUnauthorized},
		{Name: "a visitor cannot change it", Method: http.MethodPatch, Path: path(guarded, valid), Token: s.stranger,
			Body: map[string]any{"title": "Mine"}, WantStatus: http.StatusForbidden},
		{Name: "a visitor cannot delete it", Method: http.MethodDelete, Path: path(guarded, valid), Token: s.stranger,
			WantStatus: http.StatusForbidden},
	})

	// GraphQL reads it the same way.
	const q = `query($id: ID!, $tok: String) { space(id: $id, visitorAuthToken: $tok) { title hasVisitorAuthKey } }`
	var out struct{ Space struct{ Title string } }
	s.GraphQL(s.stranger, q, map[string]any{"id": guarded, "tok": valid}).Into(t, &out)
	require.Equal(t, "Guarded", out.Space.Title)
	require.Equal(t, "NOT_FOUND", s.GraphQL(s.stranger, q, map[string]any{"id": guarded, "tok": expired}).Code())
	require.Equal(t, "BAD_USER_INPUT", s.GraphQL(s.reader, q, map[string]any{"id": guarded, "tok": forged}).Code())

	// Rotating the key revokes the tokens it signed.
	newKey := s.rotatedKey(guarded)
	s.Run(t, []servertest.Scenario{
		{Name: "a token of the previous key", Method: http.MethodGet, Path: path(guarded, valid), Token: s.stranger,
			WantStatus: http.StatusNotFound},
		{Name: "a token of the new key", Method: http.MethodGet, Path: path(guarded, tokenOf(newKey, time.Hour)), Token: s.stranger,
			WantStatus: http.StatusOK},
	})
}
