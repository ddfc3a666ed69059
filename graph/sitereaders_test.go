package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// lsShareLinks makes a published share-link site with n share links, and a
// share-link space with n, and returns both.
func lsShareLinks(t *testing.T, e *servertest.Env, n int) (siteID, spaceID string) {
	t.Helper()
	ctx := context.Background()
	spaceID = spCreate(t, e, e.OwnerToken, "Guide", nil)
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).
		SetVisibility(enum.SiteVisibilityShareLink).SaveX(ctx)
	for i := 0; i < n; i++ {
		e.Client.ShareLink.Create().SetSiteID(s.ID).SetKey(fmt.Sprintf("site-key-%d", i)).SetName(fmt.Sprintf("Link %d", i)).ExecX(ctx)
		e.Client.ShareLink.Create().SetSpaceID(spaceID).SetKey(fmt.Sprintf("space-key-%d", i)).ExecX(ctx)
	}
	return s.ID, spaceID
}

// lsSiteReaderCases are the lists of share links (token, organization
// access, the site or space, the page with its total; a site link's URL
// needs its site, already loaded) and of a published site (token,
// organization access, the site, its sections, its site-spaces, and the
// four statements of the Spaces the site-spaces embed).
func lsSiteReaderCases() []lsCase {
	const published = `query($id: ID!) { node(id: $id) { ... on Site { publishedContent { structureType
	  sections { section { id title path } siteSpaces { ` + siteSpaceFields + ` } }
	  siteSpaces { ` + siteSpaceFields + ` } } } } }`
	publishedCase := func(list string, check func(t *testing.T, d map[string]any, n int)) lsCase {
		return lsCase{list: list, max: 9,
			grows: "the fields of each embedded Space (its counters, organization and revision) load through " +
				"loader batches, which split under load, as for Site.siteSpaces",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsSiteStructure(t, e, n)
				return func(e *servertest.Env) { check(t, lsGQL(t, e, v.token, published, map[string]any{"id": site}), n) }
			}}
	}
	return []lsCase{
		{
			list: "Site.shareLinks", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsShareLinks(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Site { shareLinks(first: 100) {
					  totalCount nodes { id name active createdAt urls { published } } } } } }`, map[string]any{"id": site})
					lsCheck(t, d, "node.shareLinks", n, "urls.published")
				}
			},
		},
		{
			list: "GET /v1/orgs/{organizationId}/sites/{siteId}/share-links", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				site, _ := lsShareLinks(t, e, n)
				return func(e *servertest.Env) {
					lsCheck(t, e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/share-links?limit=100", e.OwnerToken,
						nil, http.StatusOK), "", n, "urls.published")
				}
			},
		},
		{
			list: "Space.shareLinks", max: 4,
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				_, space := lsShareLinks(t, e, n)
				return func(e *servertest.Env) {
					d := lsGQL(t, e, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on Space { shareLinks(first: 100) {
					  totalCount nodes { id active urls { published } } } } } }`, map[string]any{"id": space})
					lsCheck(t, d, "node.shareLinks", n, "urls.published")
				}
			},
		},
		publishedCase("PublishedSite.sections", func(t *testing.T, d map[string]any, n int) {
			lsCheck(t, d, "node.publishedContent.sections", n, "section.path", "siteSpaces")
		}),
		publishedCase("PublishedSiteSection.siteSpaces", func(t *testing.T, d map[string]any, n int) {
			lsCheck(t, lsAt(d, "node.publishedContent.sections").([]any)[0], "siteSpaces", n, "space.title", "urls.published")
		}),
		{
			list: "PublishedSite.siteSpaces", max: 9,
			grows: "the fields of each embedded Space load through loader batches, which split under load",
			setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
				ctx := context.Background()
				a := spCreate(t, e, e.OwnerToken, "Guide", nil)
				s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).SaveX(ctx)
				for i := 0; i < n; i++ {
					e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(a).SetPath(fmt.Sprintf("v%d", i)).
						SetPosition(float64(i)).SetIsDefault(i == 0).ExecX(ctx)
				}
				return func(e *servertest.Env) {
					d := lsGQL(t, e, v.token, published, map[string]any{"id": s.ID})
					lsCheck(t, d, "node.publishedContent.siteSpaces", n, "space.title", "urls.published")
				}
			},
		},
	}
}

// wrSiteReaderCases are the creates of share links, as the owner beside n:
// token, organization access, the site, the insert, and the site again for
// the link's URL in the answer (the mutation cleared the loaders): 6 in
// GraphQL, 7 in /v1, whose path reads the site before the transaction does.
func wrSiteReaderCases() []wrCase {
	linkCase := func(create string, do func(t *testing.T, e *servertest.Env, site string)) wrCase {
		return wrCase{create: create, max: 7, setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) wrRequest {
			site, _ := lsShareLinks(t, e, n)
			return func(e *servertest.Env) { do(t, e, site) }
		}}
	}
	return []wrCase{
		linkCase("POST /v1/orgs/{organizationId}/sites/{siteId}/share-links", func(t *testing.T, e *servertest.Env, site string) {
			wrCheck(t, e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/sites/"+site+"/share-links", e.OwnerToken,
				map[string]any{"name": "New"}, http.StatusCreated), "urls.published")
		}),
		linkCase("Mutation.createShareLink", func(t *testing.T, e *servertest.Env, site string) {
			d := lsGQL(t, e, e.OwnerToken, `mutation($site: ID!) { createShareLink(input: {siteId: $site, name: "New"}) {
			  shareLink { id name active urls { published } } } }`, map[string]any{"site": site})
			wrCheck(t, lsAt(d, "createShareLink.shareLink"), "urls.published")
		}),
	}
}

func TestShareLinksGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := spCreate(t, e, e.OwnerToken, "Guide", nil)
	strangerTok := e.Token(e.User("stranger@example.com"))
	readerTok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")

	// A share link of a share-link space admits a stranger to it.
	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateSpace(input: {id: $id, visibility: SHARE_LINK}) { space { id } } }`,
		map[string]any{"id": space}).Errors)
	var created struct {
		CreateShareLink struct {
			ShareLink struct {
				ID   string
				URLs struct{ Published string } `json:"urls"`
			}
		}
	}
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { createShareLink(input: {spaceId: $id, name: "Partners"}) {
	  shareLink { id urls { published } } } }`, map[string]any{"id": space}).Into(t, &created)
	link := created.CreateShareLink.ShareLink
	require.Contains(t, link.URLs.Published, "/v1/spaces/"+space+"?shareKey=")
	key := link.URLs.Published[len(e.Config.PublicURL+"/v1/spaces/"+space+"?shareKey="):]

	read := func(tok, key string) int {
		return e.Do(http.MethodGet, "/v1/spaces/"+space+"?shareKey="+key, tok, nil).Status
	}
	assert.Equal(t, http.StatusOK, read(strangerTok, key))
	assert.Equal(t, http.StatusNotFound, read(strangerTok, "nope"))

	g := e.GraphQL(readerTok, `query($id: ID!) { node(id: $id) { ... on Space { shareLinks { totalCount } } } }`,
		map[string]any{"id": space})
	assert.Equal(t, "FORBIDDEN", g.Code(), "a reader does not see the keys")
	g = e.GraphQL(e.OwnerToken, `mutation { createShareLink(input: {name: "x"}) { shareLink { id } } }`, nil)
	assert.Equal(t, "BAD_USER_INPUT", g.Code(), "a site or a space")

	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateShareLink(input: {id: $id, active: false, name: null}) {
	  shareLink { active name } } }`, map[string]any{"id": link.ID}).Errors)
	assert.Equal(t, http.StatusNotFound, read(strangerTok, key), "an inactive link admits nobody")
	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateShareLink(input: {id: $id, active: true}) {
	  shareLink { active } } }`, map[string]any{"id": link.ID}).Errors)
	assert.Equal(t, http.StatusOK, read(strangerTok, key))
	require.Empty(t, e.GraphQL(e.OwnerToken, `mutation($id: ID!) { deleteShareLink(input: {id: $id}) { deletedShareLinkId } }`,
		map[string]any{"id": link.ID}).Errors)
	assert.Equal(t, http.StatusNotFound, read(strangerTok, key), "a deleted link admits nobody")

	// A share link of a published share-link site admits a stranger to
	// Query.site.
	site := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).
		SetVisibility(enum.SiteVisibilityShareLink).SaveX(context.Background())
	var siteLink struct {
		CreateShareLink struct {
			ShareLink struct {
				URLs struct{ Published string } `json:"urls"`
			}
		}
	}
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { createShareLink(input: {siteId: $id}) { shareLink { urls { published } } } }`,
		map[string]any{"id": site.ID}).Into(t, &siteLink)
	published := siteLink.CreateShareLink.ShareLink.URLs.Published
	require.Contains(t, published, "/sites/"+site.ID+"?shareKey=")
	siteKey := published[len(e.Config.PublicURL+"/sites/"+site.ID+"?shareKey="):]
	const q = `query($id: ID!, $key: String) { site(id: $id, shareKey: $key) { title } }`
	var out struct{ Site struct{ Title string } }
	e.GraphQL(strangerTok, q, map[string]any{"id": site.ID, "key": siteKey}).Into(t, &out)
	assert.Equal(t, "Docs", out.Site.Title)
	assert.Equal(t, "NOT_FOUND", e.GraphQL(strangerTok, q, map[string]any{"id": site.ID, "key": "nope"}).Code())
	assert.Equal(t, "NOT_FOUND", e.GraphQL(strangerTok, q, map[string]any{"id": site.ID}).Code())
}

func TestPublishedSiteGraphQL(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	guide, beta := spCreate(t, e, e.OwnerToken, "Guide", nil), spCreate(t, e, e.OwnerToken, "Beta", nil)
	strangerTok := e.Token(e.User("stranger@example.com"))
	s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SaveX(ctx)
	for i, sp := range []string{guide, beta} {
		sec := e.Client.SiteSection.Create().SetSiteID(s.ID).SetTitle(fmt.Sprintf("S%d", i)).SetPath(fmt.Sprintf("s%d", i)).
			SetPosition(float64(i)).SetIsDefault(i == 0).SaveX(ctx)
		ss := e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(sp).SetPath("v").SetIsDefault(true)
		if i == 1 {
			ss.SetCondition("visitor.claims.isBetaUser")
		}
		ss.ExecX(ctx)
	}
	var rotated struct{ RotateSiteVisitorAuthKey struct{ Key string } }
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { rotateSiteVisitorAuthKey(input: {siteId: $id}) { key } }`,
		map[string]any{"id": s.ID}).Into(t, &rotated)
	require.NoError(t, e.Client.Site.UpdateOneID(s.ID).SetPublished(true).SetAdaptiveContent(true).
		SetVisibility(enum.SiteVisibilityVisitorAuth).Exec(ctx))
	token := func(claims jwt.MapClaims) string {
		claims["exp"] = time.Now().Add(time.Hour).Unix()
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(rotated.RotateSiteVisitorAuthKey.Key))
		require.NoError(t, err)
		return tok
	}
	const q = `query($id: ID!, $tok: String) { site(id: $id, visitorAuthToken: $tok) { title
	  publishedContent(visitorAuthToken: $tok) { structureType sections { section { title } siteSpaces { space { title } } } } } }`
	spacesSeen := func(tok string) []string {
		var out struct {
			Site struct {
				PublishedContent struct {
					StructureType string
					Sections      []struct {
						SiteSpaces []struct{ Space struct{ Title string } }
					}
				}
			}
		}
		e.GraphQL(strangerTok, q, map[string]any{"id": s.ID, "tok": tok}).Into(t, &out)
		assert.Equal(t, "SECTIONS", out.Site.PublishedContent.StructureType)
		var titles []string
		for _, sec := range out.Site.PublishedContent.Sections {
			for _, ss := range sec.SiteSpaces {
				titles = append(titles, ss.Space.Title)
			}
		}
		return titles
	}
	assert.Equal(t, []string{"Guide", "Beta"}, spacesSeen(token(jwt.MapClaims{"isBetaUser": true})),
		"a visitor reads the spaces the site publishes")
	assert.Equal(t, []string{"Guide"}, spacesSeen(token(jwt.MapClaims{"isBetaUser": false})))

	g := e.GraphQL(strangerTok, q, map[string]any{"id": s.ID})
	assert.Equal(t, "NOT_FOUND", g.Code(), "no token, no site")
	g = e.GraphQL(e.OwnerToken, `mutation($id: ID!) { updateSiteAdaptiveSchema(input: {siteId: $id, jsonSchema: {type: "string"}}) {
	  adaptiveSchema { updatedAt } } }`, map[string]any{"id": s.ID})
	assert.Equal(t, "BAD_USER_INPUT", g.Code())
}
