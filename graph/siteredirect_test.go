package graph_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/server/servertest"
)

// TestSiteRedirectMutations goes through GraphQL's redirect mutations and
// Site.redirect; /v1 (rest/siteredirects_test.go) holds the rules in detail
// through the same resolver methods.
func TestSiteRedirectMutations(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	site, section := lsSiteRedirects(t, e, 1)
	ctx := context.Background()
	ss := e.Client.SiteSpace.Create().SetSiteID(site).SetSectionID(section).SetSpaceID(spCreate(t, e, e.OwnerToken, "Guide", nil)).
		SetPath("guide").SetIsDefault(true).SaveX(ctx)

	d := lsGQL(t, e, e.OwnerToken, `mutation($site: ID!, $ss: ID!) { createSiteRedirect(input: {siteId: $site, source: "/a",
	  destination: {kind: "site-space", siteSpaceId: $ss}, clientMutationId: "c"}) { clientMutationId siteRedirect { id source
	  destination { kind siteSectionId siteSpaceId pageId } } } }`, map[string]any{"site": site, "ss": ss.ID})
	assert.Equal(t, "c", lsAt(d, "createSiteRedirect.clientMutationId"))
	assert.Equal(t, map[string]any{"kind": "site-space", "siteSectionId": nil, "siteSpaceId": ss.ID, "pageId": nil},
		lsAt(d, "createSiteRedirect.siteRedirect.destination"))
	id := lsAt(d, "createSiteRedirect.siteRedirect.id").(string)

	resolve := func(source string) any {
		d := lsGQL(t, e, e.OwnerToken, `query($site: ID!, $source: String!) { node(id: $site) { ... on Site {
		  redirect(source: $source, shareKey: "ignored") { redirect { id } target } } } }`, map[string]any{"site": site, "source": source})
		return lsAt(d, "node.redirect")
	}
	assert.Equal(t, map[string]any{"redirect": map[string]any{"id": id}, "target": e.Config.PublicURL + "/sites/" + site + "/guide/guide"},
		resolve("a/?utm=x#top"))
	assert.Nil(t, resolve("/b"), "no redirect: null")

	// Kind url (Bindery's, beyond the official destination) resolves to its
	// URL; a relative one is a 400 naming destination.url.
	d = lsGQL(t, e, e.OwnerToken, `mutation($site: ID!) { createSiteRedirect(input: {siteId: $site, source: "/out",
	  destination: {kind: "url", url: "https://example.com/new"}}) { siteRedirect { destination { kind url } } } }`,
		map[string]any{"site": site})
	assert.Equal(t, map[string]any{"kind": "url", "url": "https://example.com/new"}, lsAt(d, "createSiteRedirect.siteRedirect.destination"))
	assert.Equal(t, "https://example.com/new", resolve("/out").(map[string]any)["target"])
	g := e.GraphQL(e.OwnerToken, `mutation($site: ID!) { createSiteRedirect(input: {siteId: $site, source: "/rel",
	  destination: {kind: "url", url: "/new"}}) { siteRedirect { id } } }`, map[string]any{"site": site})
	assert.Equal(t, "BAD_USER_INPUT", g.Code())
	assert.Equal(t, "destination.url", g.Errors[0].Extensions["field"])

	d = lsGQL(t, e, e.OwnerToken, `mutation($id: ID!) { updateSiteRedirect(input: {id: $id, source: "/b"}) {
	  siteRedirect { source destination { kind } } } }`, map[string]any{"id": id})
	assert.Equal(t, map[string]any{"source": "/b", "destination": map[string]any{"kind": "site-space"}},
		lsAt(d, "updateSiteRedirect.siteRedirect"))
	g = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateSiteRedirect(input: {id: $id, source: "/old/0"}) {
	  siteRedirect { id } } }`, map[string]any{"id": id})
	assert.Equal(t, "CONFLICT", g.Code(), "another redirect's source")

	d = lsGQL(t, e, e.OwnerToken, `mutation($id: ID!) { deleteSiteRedirect(input: {id: $id}) { deletedSiteRedirectId } }`,
		map[string]any{"id": id})
	assert.Equal(t, id, lsAt(d, "deleteSiteRedirect.deletedSiteRedirectId"))
	assert.Nil(t, resolve("/b"))
}
