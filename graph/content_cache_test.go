package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/purge"
	"github.com/bindery/bindery/server/servertest"
)

// The decoded contents a server keeps are keyed by their roots, which never
// change, so no write needs to invalidate them. These tests hold that to
// what a reader sees: after each kind of write, every read of a page (by ID
// and by path, as markdown and as a document, in the tree, through both
// APIs) shows the new content, on the server that wrote and on another one
// on the same database, both of which had read the page before.

// ccPage is what the reads of a page must show.
type ccPage struct{ id, path, markdown string }

// ccFixture is a live space of 20 pages and two servers on its database,
// both of which have read the page.
type ccFixture struct {
	// writer writes; reader is another server, with caches of its own.
	writer, reader *servertest.Env
	// token is a member's with role edit, who reads: an admin would still
	// see a deleted space, to restore it.
	token string
	space string
	page  ccPage
}

func ccNew(t *testing.T) *ccFixture {
	t.Helper()
	ctx := context.Background()
	e := servertest.New(t)
	f := &ccFixture{writer: e, reader: servertest.Reuse(t, e), space: lsLiveSpace(t, e)}
	f.token, _ = e.Member(e.Org.ID, enum.RoleEdit, "reader@example.com")
	blob := content.NewObject(enum.ObjectKindFile, []byte("png"))
	require.NoError(t, lsStore{e.Client}.Put(ctx, []content.Object{blob}))
	sp, err := e.Client.Space.Get(ctx, f.space)
	require.NoError(t, err)
	made := cbContent(cbSmall, blob.Hash)
	lsCommit(t, e, *sp.RevisionID, "", func(c *content.Content) { *c = *made })
	n := made.Pages[1].Children[2]
	f.page = ccPage{id: n.Page.ID, path: made.Pages[1].Page.Slug + "/" + n.Page.Slug, markdown: n.Page.Markdown}
	f.see(t, f.page)
	return f
}

// servers are the two servers, named.
func (f *ccFixture) servers() map[string]*servertest.Env {
	return map[string]*servertest.Env{"writer": f.writer, "reader": f.reader}
}

// see checks every read of the page on both servers.
func (f *ccFixture) see(t *testing.T, want ccPage) {
	t.Helper()
	for name, e := range f.servers() {
		ccSee(t, e, f.token, "/v1/spaces/"+f.space+"/content", name, want)
		d := lsGQL(t, e, f.token, `query($s: ID!, $id: ID!, $path: String!) { space(id: $s) { revision {
		  page(id: $id) { id path markdown } pageByPath(path: $path) { id path markdown } pages { id path markdown pages { id path markdown } } } } }`,
			map[string]any{"s": f.space, "id": want.id, "path": want.path})
		for _, field := range []string{"page", "pageByPath"} {
			assert.Equal(t, want.id, lsAt(d, "space.revision."+field+".id"), "%s: GraphQL %s", name, field)
			assert.Equal(t, want.path, lsAt(d, "space.revision."+field+".path"), "%s: GraphQL %s", name, field)
			assert.Equal(t, want.markdown, lsAt(d, "space.revision."+field+".markdown"), "%s: GraphQL %s", name, field)
		}
		assert.Equal(t, want, ccInTree(lsAt(d, "space.revision.pages"), want.id), "%s: GraphQL pages", name)
	}
}

// gone checks that no read of the page finds it on either server.
func (f *ccFixture) gone(t *testing.T, old ccPage) {
	t.Helper()
	for name, e := range f.servers() {
		base := "/v1/spaces/" + f.space + "/content"
		for _, p := range []string{"/page/" + old.id, "/page/" + old.id + "?format=markdown", "/path/" + old.path} {
			assert.Equal(t, http.StatusNotFound, e.Do(http.MethodGet, base+p, f.token, nil).Status, "%s: GET %s", name, p)
		}
		// A deleted space has no tree: 404 too.
		if tree := e.Do(http.MethodGet, base+"/pages", f.token, nil); tree.Status != http.StatusNotFound {
			require.Equal(t, http.StatusOK, tree.Status, "%s: the tree", name)
			assert.Equal(t, ccPage{}, ccInTree(tree.JSON()["pages"], old.id), "%s: the tree", name)
		}
	}
}

// ccSee checks the /v1 reads of a page: by ID and by path, as markdown and
// as a document, and in the tree.
func ccSee(t *testing.T, e *servertest.Env, tok, base, server string, want ccPage) {
	t.Helper()
	for _, p := range []string{"/page/" + want.id + "?format=markdown", "/path/" + want.path + "?format=markdown"} {
		got := e.MustDo(http.MethodGet, base+p, tok, nil, http.StatusOK)
		assert.Equal(t, want, ccPage{id: got["id"].(string), path: got["path"].(string), markdown: got["markdown"].(string)},
			"%s: GET %s", server, p)
	}
	for _, p := range []string{"/page/" + want.id, "/path/" + want.path} {
		got := e.MustDo(http.MethodGet, base+p, tok, nil, http.StatusOK)
		doc, err := json.Marshal(got["document"])
		require.NoError(t, err)
		assert.Contains(t, string(doc), strings.Fields(want.markdown)[1], "%s: GET %s, its document", server, p)
	}
	assert.Equal(t, want, ccInTree(cbGet(t, e, tok, base)["pages"], want.id), "%s: GET %s", server, base)
}

// ccInTree finds a page in a tree as either API presents it; the zero
// ccPage when it has none.
func ccInTree(v any, pageID string) ccPage {
	pages, _ := v.([]any)
	for _, p := range pages {
		m := p.(map[string]any)
		if m["id"] == pageID {
			md, _ := m["markdown"].(string)
			return ccPage{id: pageID, path: m["path"].(string), markdown: md}
		}
		if got := ccInTree(m["pages"], pageID); got.id != "" {
			return got
		}
	}
	return ccPage{}
}

// ccSetMarkdown changes a page's markdown in the main content (target
// "spaceId") or a change request ("changeRequestId").
func ccSetMarkdown(t *testing.T, e *servertest.Env, target, id, pageID, markdown string) {
	t.Helper()
	lsGQL(t, e, e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{target: id, "pageId": pageID, "markdown": markdown}})
}

// TestCachedContentAfterWrites reads a page through two servers after each
// kind of write, through either of them.
func TestCachedContentAfterWrites(t *testing.T) {
	t.Parallel()
	t.Run("live edit", func(t *testing.T) {
		t.Parallel()
		f := ccNew(t)
		for i, w := range []*servertest.Env{f.writer, f.reader, f.writer} {
			want := f.page
			want.markdown = fmt.Sprintf("Edit%d of the page.\n", i)
			ccSetMarkdown(t, w, "spaceId", f.space, f.page.id, want.markdown)
			f.see(t, want)
		}
	})
	t.Run("edit back to an earlier content", func(t *testing.T) {
		t.Parallel()
		// The page's object then has a hash read before: what the caches
		// hold under it is that page as it was.
		f := ccNew(t)
		first := f.page
		second := f.page
		second.markdown = "Second version of the page.\n"
		ccSetMarkdown(t, f.writer, "spaceId", f.space, f.page.id, second.markdown)
		f.see(t, second)
		ccSetMarkdown(t, f.reader, "spaceId", f.space, f.page.id, first.markdown)
		f.see(t, first)
	})
	t.Run("page renamed", func(t *testing.T) {
		t.Parallel()
		f := ccNew(t)
		lsGQL(t, f.writer, f.writer.OwnerToken, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { revision { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": f.space, "pageId": f.page.id, "slug": "renamed"}})
		want := f.page
		want.path = strings.Split(f.page.path, "/")[0] + "/renamed"
		for name, e := range f.servers() {
			assert.Equal(t, http.StatusNotFound,
				e.Do(http.MethodGet, "/v1/spaces/"+f.space+"/content/path/"+f.page.path, f.token, nil).Status,
				"%s: the old path", name)
		}
		f.see(t, want)
	})
	t.Run("change request merge", func(t *testing.T) {
		t.Parallel()
		f := ccNew(t)
		cr := f.writer.MustDo(http.MethodPost, "/v1/spaces/"+f.space+"/change-requests", f.writer.OwnerToken,
			map[string]any{"subject": "Edit"}, http.StatusCreated)["id"].(string)
		want := f.page
		want.markdown = "Merged edit of the page.\n"
		ccSetMarkdown(t, f.writer, "changeRequestId", cr, f.page.id, want.markdown)
		for name, e := range f.servers() {
			ccSee(t, e, f.token, "/v1/spaces/"+f.space+"/change-requests/"+cr+"/content", name, want)
		}
		f.see(t, f.page)
		f.reader.MustDo(http.MethodPost, "/v1/spaces/"+f.space+"/change-requests/"+cr+"/merge", f.reader.OwnerToken, nil, http.StatusOK)
		f.see(t, want)
	})
	t.Run("page deleted", func(t *testing.T) {
		t.Parallel()
		f := ccNew(t)
		lsGQL(t, f.writer, f.writer.OwnerToken, `mutation($in: DeletePageInput!) { deletePage(input: $in) { deletedPageId } }`,
			map[string]any{"in": map[string]any{"spaceId": f.space, "pageId": f.page.id}})
		f.gone(t, f.page)
	})
	t.Run("space deleted, restored, then purged", func(t *testing.T) {
		t.Parallel()
		f := ccNew(t)
		want := f.page
		want.markdown = "Edited before the deletion.\n"
		ccSetMarkdown(t, f.writer, "spaceId", f.space, f.page.id, want.markdown)
		lsGQL(t, f.writer, f.writer.OwnerToken, `mutation($id: ID!) { deleteSpace(input: {id: $id}) { deletedSpaceId } }`,
			map[string]any{"id": f.space})
		f.gone(t, f.page)
		lsGQL(t, f.reader, f.reader.OwnerToken, `mutation($id: ID!) { restoreSpace(input: {id: $id}) { space { id } } }`,
			map[string]any{"id": f.space})
		f.see(t, want)

		lsGQL(t, f.writer, f.writer.OwnerToken, `mutation($id: ID!) { deleteSpace(input: {id: $id}) { deletedSpaceId } }`,
			map[string]any{"id": f.space})
		n, err := purge.Spaces(context.Background(), f.writer.Client, time.Now().Add(time.Minute))
		require.NoError(t, err)
		require.Equal(t, 1, n)
		f.gone(t, f.page)
	})
}
