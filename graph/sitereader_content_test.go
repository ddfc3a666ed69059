package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// srSecrets are written where a site's reader must never read them: a
// change request's subject and its draft page, a comment and its reply, and
// content the space had before its current revision.
var srSecrets = []string{"SECRET-SUBJECT", "SECRET-DRAFT", "SECRET-COMMENT", "SECRET-REPLY", "SECRET-OLD"}

// srArgs are the arguments of the fields reachable from Site that require
// some.
var srArgs = map[string]string{
	"Space.changeRequest": "(number: 1)",
	"Space.search":        `(query: "secret")`,
	"Revision.pageByPath": `(path: "guide")`,
}

// srPaths returns a selection for every path of object fields reachable
// from typeName (connections through their nodes), each selecting the
// scalars of the object it ends on, so that a field refused on one path
// does not hide what another path shows. A type is not entered twice on one
// path.
func srPaths(s *ast.Schema, typeName string, onPath []string, depth int) []string {
	t := s.Types[typeName]
	var scalars []string
	var out []string
	for _, f := range t.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		args, known := srArgs[typeName+"."+f.Name]
		if requiresArgs(f) && !known {
			continue
		}
		ft := s.Types[f.Type.Name()]
		switch {
		case ft.Kind == ast.Scalar || ft.Kind == ast.Enum:
			scalars = append(scalars, f.Name+args)
		case depth == 0 || slices.Contains(onPath, ft.Name):
		case strings.HasSuffix(ft.Name, "Connection"):
			node := strings.TrimSuffix(ft.Name, "Connection")
			if _, ok := s.Types[node]; !ok || slices.Contains(onPath, node) {
				continue
			}
			if args == "" {
				args = "(first: 3)"
			}
			for _, p := range srPaths(s, node, append(onPath, ft.Name), depth-1) {
				out = append(out, f.Name+args+" { totalCount nodes { "+p+" } }")
			}
		case ft.Kind == ast.Object || ft.Kind == ast.Interface || ft.Kind == ast.Union:
			for _, p := range srPaths(s, ft.Name, append(onPath, typeName), depth-1) {
				out = append(out, f.Name+args+" { "+p+" }")
			}
		}
	}
	if len(scalars) > 0 {
		out = append(out, "__typename "+strings.Join(scalars, " "))
	}
	return out
}

// TestSiteReaderReadsPublishedContentOnly: whoever reads a published site
// (any token's holder for a public site, a share key's holder, a visitor
// with a signed token) reads its structure and each site-space's space as
// published, its current revision's pages and files, through every field
// reachable from Site, and nothing else of a private space: to them it has
// no change request, comment, reply or older revision, its lists of them
// are empty and their counts zero. /v1 refuses the same objects with 404,
// and node(id:) in the same request as the site finds none of them.
func TestSiteReaderReadsPublishedContentOnly(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	schema := gqlSchema()

	// A private space: its first content is replaced, then published; a
	// change request edits its page, and both hold a discussion.
	space := spCreate(t, e, e.OwnerToken, "Private guide", nil)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	page := lsAt(lsGQL(t, e, e.OwnerToken, `mutation($s: ID!) { createPage(input: {spaceId: $s, title: "Guide",
	  markdown: "SECRET-OLD"}) { page { id } } }`, map[string]any{"s": space}), "createPage.page.id").(string)
	old := lsAt(lsGQL(t, e, e.OwnerToken, `query($s: ID!) { space(id: $s) { revision { id } } }`,
		map[string]any{"s": space}), "space.revision.id").(string)
	lsGQL(t, e, e.OwnerToken, `mutation($s: ID!, $p: ID!) { setPageMarkdown(input: {spaceId: $s, pageId: $p,
	  markdown: "PUBLISHED-TEXT"}) { page { id } } }`, map[string]any{"s": space, "p": page})
	cr := lsAt(lsGQL(t, e, e.OwnerToken, `mutation($s: ID!) { createChangeRequest(input: {spaceId: $s, subject: "SECRET-SUBJECT"}) {
	  changeRequest { id } } }`, map[string]any{"s": space}), "createChangeRequest.changeRequest.id").(string)
	lsGQL(t, e, e.OwnerToken, `mutation($c: ID!, $p: ID!) { setPageMarkdown(input: {changeRequestId: $c, pageId: $p,
	  markdown: "SECRET-DRAFT"}) { page { id } } }`, map[string]any{"c": cr, "p": page})
	private := []string{cr, old}
	for _, on := range []map[string]any{{"spaceId": space}, {"changeRequestId": cr}} {
		on["markdown"] = "SECRET-COMMENT"
		c := lsAt(lsGQL(t, e, e.OwnerToken, `mutation($in: PostCommentInput!) { postComment(input: $in) { comment { id } } }`,
			map[string]any{"in": on}), "postComment.comment.id").(string)
		r := lsAt(lsGQL(t, e, e.OwnerToken, `mutation($c: ID!) { postCommentReply(input: {commentId: $c, markdown: "SECRET-REPLY"}) {
		  reply { id } } }`, map[string]any{"c": c}), "postCommentReply.reply.id").(string)
		private = append(private, c, r)
	}
	v1 := []string{"/v1/spaces/" + space + "/change-requests/" + cr, "/v1/spaces/" + space + "/revisions/" + old,
		"/v1/spaces/" + space + "/change-requests", "/v1/spaces/" + space + "/comments"}

	// Three sites publish it, one of each kind a stranger can read.
	site := func(v enum.SiteVisibility) string {
		s := e.Client.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Docs").SetPublished(true).SetVisibility(v).SaveX(ctx)
		sec := e.Client.SiteSection.Create().SetSiteID(s.ID).SetTitle("Guides").SetPath("guides").SetPosition(0).
			SetIsDefault(true).SaveX(ctx)
		e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSectionID(sec.ID).SetSpaceID(space).SetPath("v1").SetIsDefault(true).ExecX(ctx)
		return s.ID
	}
	public, shared, visitors := site(enum.SiteVisibilityPublic), site(enum.SiteVisibilityShareLink),
		site(enum.SiteVisibilityVisitorAuth)
	e.Client.ShareLink.Create().SetSiteID(shared).SetKey("site-reader-key").SetName("Partners").ExecX(ctx)
	var rotated struct{ RotateSiteVisitorAuthKey struct{ Key string } }
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { rotateSiteVisitorAuthKey(input: {siteId: $id}) { key } }`,
		map[string]any{"id": visitors}).Into(t, &rotated)
	visitorToken, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}).
		SignedString([]byte(rotated.RotateSiteVisitorAuthKey.Key))
	require.NoError(t, err)
	stranger := e.Token(e.User("stranger@else.example"))

	paths := srPaths(schema, "Site", nil, 6)
	require.Greater(t, len(paths), 100, "the paths reachable from Site")
	for _, reader := range []struct{ name, token, root string }{
		{"stranger, public site", stranger, fmt.Sprintf("site(id: %q)", public)},
		{"share key", stranger, fmt.Sprintf("site(id: %q, shareKey: %q)", shared, "site-reader-key")},
		{"visitor token", stranger, fmt.Sprintf("site(id: %q, visitorAuthToken: %q)", visitors, visitorToken)},
	} {
		t.Run(reader.name, func(t *testing.T) {
			published := false
			for _, p := range paths {
				res := e.Do(http.MethodPost, "/graphql", reader.token, map[string]any{"query": "{ " + reader.root + " { " + p + " } }"})
				require.Equal(t, http.StatusOK, res.Status, p)
				body := string(res.Body)
				for _, secret := range append(slices.Clone(srSecrets), private...) {
					require.NotContains(t, body, secret, "%s reads what the site does not publish through %s", reader.name, p)
				}
				published = published || strings.Contains(body, "PUBLISHED-TEXT")
				var g servertest.GQLResponse
				require.NoError(t, json.Unmarshal(res.Body, &g))
				for _, x := range g.Errors {
					code, _ := x.Extensions["code"].(string)
					require.Contains(t, []string{"NOT_FOUND", "FORBIDDEN"}, code, "%s: %s", p, x.Message)
				}
			}
			assert.True(t, published, "the reader reads the published page through some path")
			// To the reader, the space has no change request or comment.
			var got map[string]any
			e.GraphQL(reader.token, "{ "+reader.root+` { siteSpaces(first: 5) { nodes { space { title commentCount
			  changeRequestCount openChangeRequestCount draftChangeRequestCount changeRequests(first: 5) { totalCount }
			  comments(first: 5) { totalCount } changeRequest(number: 1) { id } revision { parents { id } } } } } } }`, nil).
				Into(t, &got)
			assert.Equal(t, map[string]any{"title": "Private guide", "commentCount": 0.0, "changeRequestCount": 0.0,
				"openChangeRequestCount": 0.0, "draftChangeRequestCount": 0.0, "changeRequests": map[string]any{"totalCount": 0.0},
				"comments": map[string]any{"totalCount": 0.0}, "changeRequest": nil, "revision": map[string]any{"parents": []any{}}},
				lsAt(got, "site.siteSpaces.nodes").([]any)[0].(map[string]any)["space"])

			q := "{ " + reader.root + " { id }"
			for i, id := range private {
				q += fmt.Sprintf(" n%d: node(id: %q) { id }", i, id)
			}
			e.GraphQL(reader.token, q+" }", nil).Into(t, &got)
			for i := range private {
				assert.Nil(t, got[fmt.Sprintf("n%d", i)], "node(id:) of %s beside the site", private[i])
			}
			for _, path := range v1 {
				assert.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, path, reader.token, nil).Status, path)
			}
		})
	}
}
