package graph_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// Translation settings through GraphQL: the same rules as /v1, which calls
// the same resolvers.
func TestTranslationSettingsInGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	readTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	guestTok, _ := e.Member(e.Org.ID, "", "guest@example.com")
	create := `mutation($in: CreateTranslationSettingsInput!) { createTranslationSettings(input: $in) {
	  translationSettings { id title languages permissions { view edit } urls { location } } clientMutationId } }`
	in := func(title string, langs ...string) map[string]any {
		return map[string]any{"in": map[string]any{"organizationId": e.Org.ID, "title": title, "languages": langs, "clientMutationId": "c1"}}
	}
	d := lsGQL(t, e, e.OwnerToken, create, in("Docs", "FR", "PT_BR"))
	id := lsAt(d, "createTranslationSettings.translationSettings.id").(string)
	assert.True(t, strings.HasPrefix(id, "trs_"), id)
	assert.Equal(t, []any{"FR", "PT_BR"}, lsAt(d, "createTranslationSettings.translationSettings.languages"))
	assert.Equal(t, "c1", lsAt(d, "createTranslationSettings.clientMutationId"))
	assert.Equal(t, "http://bindery.test/v1/orgs/"+e.Org.ID+"/translations/"+id,
		lsAt(d, "createTranslationSettings.translationSettings.urls.location"))

	// Bad input is refused with the field, and nothing is written.
	res := e.GraphQL(e.OwnerToken, create, in("Twice", "FR", "FR"))
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "languages", res.Errors[0].Extensions["field"])
	// An unknown code is no value of the enum: the variable does not
	// validate, as for every enum.
	assert.Equal(t, "GRAPHQL_VALIDATION_FAILED", e.GraphQL(e.OwnerToken, create, in("Unknown", "XX")).Code())
	res = e.GraphQL(e.OwnerToken, create, in(strings.Repeat("t", 101)))
	assert.Equal(t, "BAD_USER_INPUT", res.Code())
	assert.Equal(t, "title", res.Errors[0].Extensions["field"])
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, create, in("Reader's")).Code())

	list := `query($org: ID!) { organization(id: $org) { translationSettings { totalCount nodes { id title } } } }`
	org := map[string]any{"org": e.Org.ID}
	l := lsGQL(t, e, readTok, list, org)
	assert.EqualValues(t, 1, lsAt(l, "organization.translationSettings.totalCount"), "the refused creates wrote nothing")
	assert.Equal(t, "FORBIDDEN", e.GraphQL(guestTok, list, org).Code(), "guests do not list them")
	node := lsGQL(t, e, readTok, `query($id: ID!) { node(id: $id) { ... on TranslationSettings { title permissions { view edit } } } }`,
		map[string]any{"id": id})
	assert.Equal(t, map[string]any{"title": "Docs", "permissions": map[string]any{"view": true, "edit": false}}, lsAt(node, "node"))
	hidden := lsGQL(t, e, guestTok, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
	assert.Nil(t, lsAt(hidden, "node"), "a guest does not see them")

	update := `mutation($in: UpdateTranslationSettingsInput!) { updateTranslationSettings(input: $in) {
	  translationSettings { title languages } } }`
	u := lsGQL(t, e, e.OwnerToken, update, map[string]any{"in": map[string]any{"id": id, "title": "Guide", "languages": []string{"JA"}}})
	assert.Equal(t, map[string]any{"title": "Guide", "languages": []any{"JA"}}, lsAt(u, "updateTranslationSettings.translationSettings"))
	u = lsGQL(t, e, e.OwnerToken, update, map[string]any{"in": map[string]any{"id": id, "title": "Manual"}})
	assert.Equal(t, []any{"JA"}, lsAt(u, "updateTranslationSettings.translationSettings.languages"), "absent languages stay")
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, update, map[string]any{"in": map[string]any{"id": id, "title": "X"}}).Code())

	// The official members: a source and a language make the settings a
	// translation; instructions are set, and removed with null.
	space := createSpace(t, e, "Guide")
	official := `mutation($in: UpdateTranslationSettingsInput!) { updateTranslationSettings(input: $in) {
	  translationSettings { title languages language source { spaceId language } instructions status stats { runs } } } }`
	doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}
	u = lsGQL(t, e, e.OwnerToken, official, map[string]any{"in": map[string]any{"id": id, "source": map[string]any{"spaceId": space,
		"language": "EN"}, "language": "DE", "instructions": map[string]any{"object": "document", "data": map[string]any{"v": 1.0},
		"nodes": []any{}}}})
	assert.Equal(t, map[string]any{"title": "Manual", "languages": []any{"JA", "DE"}, "language": "DE",
		"source":       map[string]any{"spaceId": space, "language": "EN"},
		"instructions": map[string]any{"object": "document", "data": map[string]any{"v": 1.0}, "nodes": []any{}},
		"status":       "PENDING", "stats": map[string]any{"runs": 0.0}}, lsAt(u, "updateTranslationSettings.translationSettings"),
		"the language joins the languages")
	u = lsGQL(t, e, e.OwnerToken, official, map[string]any{"in": map[string]any{"id": id, "instructions": nil}})
	assert.Equal(t, doc, lsAt(u, "updateTranslationSettings.translationSettings.instructions"), "none: an empty document")
	res = e.GraphQL(e.OwnerToken, official, map[string]any{"in": map[string]any{"id": id, "language": "EN"}})
	assert.Equal(t, "BAD_USER_INPUT", res.Code(), "the source's own language")
	assert.Equal(t, "language", res.Errors[0].Extensions["field"])

	del := `mutation($id: ID!) { deleteTranslationSettings(input: {id: $id}) { deletedTranslationSettingsId } }`
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readTok, del, map[string]any{"id": id}).Code())
	gone := lsGQL(t, e, e.OwnerToken, del, map[string]any{"id": id})
	assert.Equal(t, id, lsAt(gone, "deleteTranslationSettings.deletedTranslationSettingsId"))
	require.Equal(t, "NOT_FOUND", e.GraphQL(e.OwnerToken, del, map[string]any{"id": id}).Code())
}
