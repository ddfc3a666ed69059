package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// nestedAnswer builds a nested read's data in a server's field names, with
// authors[i][j] the author of space i's change request j ("" for none).
func nestedAnswer(n nestedNames, authors [][]string) []byte {
	var sp []string
	for _, as := range authors {
		var cs []string
		for _, a := range as {
			u := "null"
			if a != "" {
				u = fmt.Sprintf(`{%q:%q,"displayName":"User %s"}`, n.id, a, a)
			}
			cs = append(cs, fmt.Sprintf(`{%q:"cr","number":1,"subject":"s",%q:%s}`, n.id, n.createdBy, u))
		}
		sp = append(sp, fmt.Sprintf(`{%q:"spc","title":"t",%q:{"nodes":[%s]}}`, n.id, n.changeRequests, strings.Join(cs, ",")))
	}
	return fmt.Appendf(nil, `{%q:{%q:"org","title":"B",%q:{"nodes":[%s]}}}`, n.organization, n.id, n.spaces, strings.Join(sp, ","))
}

func TestCheckNested(t *testing.T) {
	s := shape{SpacesA: 1, SpacesB: 2, ChangeRequests: 2}
	full := [][]string{{"usr_1", "usr_2"}, {"usr_1", "usr_2"}}
	for name, n := range map[string]nestedNames{
		"Bindery":        {"organization", "spaces", "changeRequests", "createdBy", "id"},
		"PostGraphile 4": postgraphile4Names.nested,
		"PostGraphile 5": postgraphile5Names.nested,
	} {
		check := func(b []byte) error { return checkNested(b, s, n) }
		if name == "Bindery" {
			check = func(b []byte) error { return checkBinderyNested(b, s) }
		}
		t.Run(name, func(t *testing.T) {
			assert.NoError(t, check(nestedAnswer(n, full)))
			assert.ErrorContains(t, check(nestedAnswer(n, full[:1])), "1 spaces, want 2")
			assert.ErrorContains(t, check(nestedAnswer(n, [][]string{{"usr_1", "usr_2"}, {"usr_1"}})), "space 2 has 1 change requests, want 2")
			assert.ErrorContains(t, check(nestedAnswer(n, [][]string{{"usr_1", ""}, {"usr_1", "usr_2"}})), "a change request of space 1 has no author")
			assert.ErrorContains(t, check([]byte(`{"organization":null,"organizationById":null,"organizationByRowId":null}`)), "no organization")
		})
	}
	// An answer in another server's names fails, and so does an author
	// whose key is under another name.
	assert.ErrorContains(t, checkNested(nestedAnswer(postgraphile4Names.nested, full), s, postgraphile5Names.nested), "no organization")
	n := postgraphile5Names.nested
	n.id = "id"
	assert.ErrorContains(t, checkNested(nestedAnswer(n, full), s, postgraphile5Names.nested), "has no author")
}

func TestChecks(t *testing.T) {
	assert.NoError(t, checkRESTSpace([]byte(`{"object":"space","id":"spc_1","title":"Space 1"}`)))
	assert.Error(t, checkRESTSpace([]byte(`{"error":{"code":404,"message":"Not found"}}`)))

	assert.NoError(t, checkRESTList([]byte(`{"items":[{"id":"a"},{"id":"b"}]}`), 2))
	assert.ErrorContains(t, checkRESTList([]byte(`{"items":[{"id":"a"}]}`), 2), "1 spaces listed, want 2")

	node := checkGraphQL(func(b []byte) error { return checkSpace(b, "node", "id") })
	assert.NoError(t, node([]byte(`{"data":{"node":{"id":"spc_1","title":"Space 1"}}}`)))
	assert.ErrorContains(t, node([]byte(`{"data":{"node":null}}`)), "no space")
	assert.ErrorContains(t, node([]byte(`{"data":{"node":{"id":"spc_1","title":""}}}`)), "no space")
	assert.ErrorContains(t, node([]byte(`{"errors":[{"message":"boom"}],"data":null}`)), "GraphQL errors")

	byRowID := checkGraphQL(func(b []byte) error { return checkSpace(b, "spaceByRowId", "rowId") })
	assert.NoError(t, byRowID([]byte(`{"data":{"spaceByRowId":{"rowId":"spc_1","title":"Space 1"}}}`)))
	assert.ErrorContains(t, byRowID([]byte(`{"data":{"spaceByRowId":{"id":"WyJzcGFjZXMiLCJzcGNfMSJd","title":"Space 1"}}}`)), "no space",
		"the Relay global ID is not the row's")
}

func TestProblem(t *testing.T) {
	assert.Empty(t, problem(false, 200, []byte(`{"errors":[]}`), nil), "REST answers are not searched for errors")
	assert.Empty(t, problem(true, 200, []byte(`{"data":{"node":null}}`), nil))
	assert.Equal(t, `GraphQL errors: {"errors":[{"message":"x"}]}`, problem(true, 200, []byte(`{"errors":[{"message":"x"}]}`), nil))
	assert.Equal(t, `HTTP 429: {"error":{"code":429}}`, problem(false, 429, []byte(`{"error":{"code":429}}`), nil))
	assert.Equal(t, "reading the answer: unexpected EOF", problem(false, 200, nil, fmt.Errorf("unexpected EOF")))
}

// Each prepared GraphQL request carries its id beside the shared variables.
func TestGraphQLPosts(t *testing.T) {
	rs := graphqlPosts("http://x/graphql", nestedQuery, []string{"org_1", "org_2"}, map[string]any{"spaces": 50})
	assert.Len(t, rs, 2)
	var body struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	assert.NoError(t, json.Unmarshal(rs[1].body, &body))
	assert.Equal(t, nestedQuery, body.Query)
	assert.Equal(t, map[string]any{"id": "org_2", "spaces": float64(50)}, body.Variables)
	assert.Equal(t, "POST", rs[1].method)
}
