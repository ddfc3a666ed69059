package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// spItemFields are the fields of each listed space: every one that loads
// something beyond the space's own row.
const spItemFields = `id title
  organization { id title }
  parent { id }
  revision { id }
  permissions { edit }
  commentCount changeRequestCount openChangeRequestCount draftChangeRequestCount`

// spListCost is what listing n spaces cost, in SQL statements, through each
// list of each API.
type spListCost struct {
	gqlOrg, restOrg, gqlCollection, restCollection int64
}

// spStatements returns how many SQL statements fn made the server run.
func spStatements(e *servertest.Env, fn func()) int64 {
	before := e.Statements.Load()
	fn()
	return e.Statements.Load() - before
}

// spListed is a listed space as the statement test reads it back.
type spListed struct {
	ID                 string
	Organization       *struct{ ID string }
	Parent             *struct{ ID string }
	Revision           struct{ ID string }
	ChangeRequestCount int
}

// spListStatements creates n spaces spread over the top level and four
// collections, a third of them with change requests and comments, and
// measures listing them through both APIs as an editor (so that the
// authorization scope is not trivial): the organization's spaces, and the
// spaces of the first collection.
func spListStatements(t *testing.T, n int) spListCost {
	e := servertest.New(t)
	var cols []string
	for i := 0; i < 4; i++ {
		cols = append(cols, spCollection(t, e, e.OwnerToken, nil))
	}
	inFirst := 0
	for i := 0; i < n; i++ {
		var parent *string
		if k := i % 5; k < len(cols) {
			parent = &cols[k]
			if k == 0 {
				inFirst++
			}
		}
		id := spCreate(t, e, e.OwnerToken, fmt.Sprintf("Space %d", i), parent)
		if i%3 == 0 {
			spAddChangeRequest(t, e, id, enum.ChangeRequestStatusOpen)
			spAddChangeRequest(t, e, id, enum.ChangeRequestStatusDraft)
			spAddComment(t, e, id, enum.CommentStatusOpen)
		}
	}
	tok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	// A first request records the token's use; measure the ones after it.
	e.MustDo(http.MethodGet, "/v1/user", tok, nil, http.StatusOK)

	check := func(nodes []spListed, want int) {
		require.Len(t, nodes, want)
		crs := 0
		for _, s := range nodes {
			require.NotNil(t, s.Organization)
			require.NotEmpty(t, s.Revision.ID)
			crs += s.ChangeRequestCount
		}
		require.NotZero(t, crs, "the counts must be loaded")
	}
	var c spListCost
	c.gqlOrg = spStatements(e, func() {
		var out struct {
			Organization struct {
				Spaces struct {
					TotalCount int
					Nodes      []spListed
				}
			}
		}
		e.GraphQL(tok, `query($org: ID!, $n: Int!) { organization(id: $org) { spaces(first: $n) { totalCount nodes { `+
			spItemFields+` } } } }`, map[string]any{"org": e.Org.ID, "n": n}).Into(t, &out)
		check(out.Organization.Spaces.Nodes, n)
		require.Equal(t, n, out.Organization.Spaces.TotalCount)
	})
	c.restOrg = spStatements(e, func() {
		body := e.MustDo(http.MethodGet, fmt.Sprintf("/v1/orgs/%s/spaces?limit=%d", e.Org.ID, n), tok, nil, http.StatusOK)
		require.Len(t, body["items"], n)
	})
	c.gqlCollection = spStatements(e, func() {
		var out struct {
			Collection struct {
				Spaces struct {
					TotalCount int
					Edges      []struct{ Node spListed }
				}
			}
		}
		e.GraphQL(tok, `query($col: ID!, $n: Int!) { collection(id: $col) { spaces(first: $n) { totalCount edges { node { `+
			spItemFields+` } } } } }`, map[string]any{"col": cols[0], "n": n}).Into(t, &out)
		var nodes []spListed
		for _, edge := range out.Collection.Spaces.Edges {
			nodes = append(nodes, edge.Node)
		}
		check(nodes, inFirst)
	})
	c.restCollection = spStatements(e, func() {
		body := e.MustDo(http.MethodGet, fmt.Sprintf("/v1/collections/%s/spaces?limit=%d", cols[0], n), tok, nil, http.StatusOK)
		require.Len(t, body["items"], inFirst)
	})
	return c
}

// TestListSpacesStatementCount proves that listing spaces with their
// organization, parent, revision, permissions and counts costs a number of
// statements that does not grow with the number of spaces, in both APIs.
func TestListSpacesStatementCount(t *testing.T) {
	t.Parallel()
	few, many := spListStatements(t, 5), spListStatements(t, 60)
	t.Logf("organization spaces, GraphQL: %d statements for 5 spaces, %d for 60", few.gqlOrg, many.gqlOrg)
	t.Logf("organization spaces, /v1:     %d statements for 5 spaces, %d for 60", few.restOrg, many.restOrg)
	t.Logf("collection spaces, GraphQL:   %d statements for 5 spaces, %d for 60", few.gqlCollection, many.gqlCollection)
	t.Logf("collection spaces, /v1:       %d statements for 5 spaces, %d for 60", few.restCollection, many.restCollection)
	assert.Equal(t, few, many, "the statements of a list grow with its length")
	// The fixed cost: the token and its user; the organization or
	// collection; the memberships, teams, grants and collections that
	// authorization needs; the page and its count; the two counts queries;
	// the revisions; and, where the organization was not read already, the
	// organization (each space's organization is resolved through its policy,
	// in both APIs).
	assert.LessOrEqual(t, many.gqlOrg, int64(14))
	assert.LessOrEqual(t, many.restOrg, int64(12))
	assert.LessOrEqual(t, many.gqlCollection, int64(14))
	assert.LessOrEqual(t, many.restCollection, int64(13))
}

// spCreate creates a space through /v1 and returns its ID.
func spCreate(t testing.TB, e *servertest.Env, tok, title string, parent *string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != nil {
		body["parent"] = *parent
	}
	return e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", tok, body, http.StatusCreated)["id"].(string)
}

// spCollection creates a collection of the test organization through
// /v1 and returns its ID.
func spCollection(t testing.TB, e *servertest.Env, tok string, parent *string) string {
	t.Helper()
	body := map[string]any{"title": "Collection"}
	if parent != nil {
		body["parent"] = *parent
	}
	return e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/collections", tok, body, http.StatusCreated)["id"].(string)
}

// spAddChangeRequest inserts a change request with the status into a space.
func spAddChangeRequest(t testing.TB, e *servertest.Env, spaceID string, status enum.ChangeRequestStatus) {
	t.Helper()
	ctx := context.Background()
	s, err := e.Client.Space.Get(ctx, spaceID)
	require.NoError(t, err)
	s, err = e.Client.Space.UpdateOne(s).AddCrSeq(1).Save(ctx)
	require.NoError(t, err)
	require.NoError(t, e.Client.ChangeRequest.Create().SetSpaceID(spaceID).SetNumber(s.CrSeq).SetStatus(status).
		SetRevisionID(*s.RevisionID).SetRevisionInitialID(*s.RevisionID).Exec(ctx))
}

// spAddComment inserts a comment with the status on a space's main content.
func spAddComment(t testing.TB, e *servertest.Env, spaceID string, status enum.CommentStatus) {
	t.Helper()
	require.NoError(t, e.Client.Comment.Create().SetSpaceID(spaceID).SetBody("A comment").SetStatus(status).
		Exec(context.Background()))
}
