package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

func TestViewer(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	ctx := context.Background()
	expired, _, err := graph.IssueToken(ctx, e.Client, e.Owner.ID, "expired", ocPtr(time.Now().Add(-time.Minute)))
	require.NoError(t, err)
	revoked, rec, err := graph.IssueToken(ctx, e.Client, e.Owner.ID, "revoked", nil)
	require.NoError(t, err)
	e.MustDo(http.MethodGet, "/v1/user", revoked, nil, http.StatusOK)
	require.NoError(t, e.Client.APIToken.DeleteOneID(rec.ID).Exec(ctx))
	lonely := e.User("lonely@example.com")

	e.Run(t, []servertest.Scenario{
		{Name: "owner", Method: http.MethodGet, Path: "/v1/user", Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "user", "id": e.Owner.ID, "email": "owner@example.com", "displayName": "owner",
				"urls": map[string]any{"location": "http://bindery.test/v1/users/" + e.Owner.ID}},
			Check: func(t *testing.T, res *servertest.Response) { assert.NotContains(t, res.JSON(), "photoURL") }},
		{Name: "a user without organizations", Method: http.MethodGet, Path: "/v1/user", Token: e.Token(lonely), WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": lonely.ID, "email": "lonely@example.com"}},
		{Name: "without a token", Method: http.MethodGet, Path: "/v1/user", WantStatus: http.StatusUnauthorized, WantError: "Bearer"},
		{Name: "with a malformed token", Method: http.MethodGet, Path: "/v1/user", Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
		{Name: "with a token of a wrong checksum", Method: http.MethodGet, Path: "/v1/user", Token: e.OwnerToken[:len(e.OwnerToken)-1] + ocFlip(e.OwnerToken[len(e.OwnerToken)-1]),
			WantStatus: http.StatusUnauthorized},
		{Name: "with an unknown token", Method: http.MethodGet, Path: "/v1/user", Token: ocUnknownToken(), WantStatus: http.StatusUnauthorized},
		{Name: "with a revoked token", Method: http.MethodGet, Path: "/v1/user", Token: revoked, WantStatus: http.StatusUnauthorized},
		{Name: "with an expired token", Method: http.MethodGet, Path: "/v1/user", Token: expired, WantStatus: http.StatusUnauthorized},
	})
}

// ocFlip returns a character other than c.
func ocFlip(c byte) string {
	if c == 'a' {
		return "b"
	}
	return "a"
}

// ocPtr returns a pointer to a copy of v.
func ocPtr[T any](v T) *T { return &v }

func TestUserGet(t *testing.T) {
	t.Parallel()
	e := newOCEnv(t)
	readTok, reader := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	guestTok, guest := e.Member(e.Org.ID, "", "guest@example.com")
	otherOrg, otherTok := e.otherOrg("other@example.com")
	outsider := e.User("other@example.com")
	lonely := e.User("lonely@example.com")
	lonelyTok := e.Token(lonely)
	user := func(id string) string { return "/v1/users/" + id }

	e.Run(t, []servertest.Scenario{
		{Name: "self", Method: http.MethodGet, Path: user(e.Owner.ID), Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"object": "user", "id": e.Owner.ID, "email": "owner@example.com", "displayName": "owner",
				"urls": map[string]any{"location": "http://bindery.test/v1/users/" + e.Owner.ID}}},
		{Name: "a member of the same organization", Method: http.MethodGet, Path: user(reader.ID), Token: e.OwnerToken, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": reader.ID, "displayName": "reader", "email": "reader@example.com"}},
		{Name: "the admin, by a reader", Method: http.MethodGet, Path: user(e.Owner.ID), Token: readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": e.Owner.ID}},
		{Name: "a guest of the same organization", Method: http.MethodGet, Path: user(guest.ID), Token: readTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": guest.ID}},
		{Name: "self, without organizations", Method: http.MethodGet, Path: user(lonely.ID), Token: lonelyTok, WantStatus: http.StatusOK,
			WantJSON: map[string]any{"id": lonely.ID}},
		{Name: "someone, by a user without organizations", Method: http.MethodGet, Path: user(e.Owner.ID), Token: lonelyTok, WantStatus: http.StatusNotFound},
		{Name: "a user of another organization only", Method: http.MethodGet, Path: user(outsider.ID), Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "by a user of another organization only", Method: http.MethodGet, Path: user(reader.ID), Token: otherTok, WantStatus: http.StatusNotFound},
		{Name: "a user without organizations", Method: http.MethodGet, Path: user(lonely.ID), Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "unknown", Method: http.MethodGet, Path: user("usr_doesnotexist"), Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "an organization ID", Method: http.MethodGet, Path: user(e.Org.ID), Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "not an ID", Method: http.MethodGet, Path: user("owner@example.com"), Token: e.OwnerToken, WantStatus: http.StatusNotFound},
		{Name: "without a token", Method: http.MethodGet, Path: user(e.Owner.ID), WantStatus: http.StatusUnauthorized},
		{Name: "with a malformed token", Method: http.MethodGet, Path: user(e.Owner.ID), Token: ocMalformedToken, WantStatus: http.StatusUnauthorized},
	})
	hidden := e.Do(http.MethodGet, user(outsider.ID), e.OwnerToken, nil)
	missing := e.Do(http.MethodGet, user("usr_doesnotexist"), e.OwnerToken, nil)
	assert.Equal(t, missing.Body, hidden.Body, "a hidden user must read like a missing one")

	// Sharing an organization makes them visible to each other, guests
	// included.
	e.Member(otherOrg, "", "guest@example.com")
	e.MustDo(http.MethodGet, user(outsider.ID), guestTok, nil, http.StatusOK)
	e.MustDo(http.MethodGet, user(guest.ID), otherTok, nil, http.StatusOK)
	e.MustDo(http.MethodGet, user(outsider.ID), e.OwnerToken, nil, http.StatusNotFound)
}
