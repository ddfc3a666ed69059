package reader_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// Statement bounds of a page view: at most 6 statements when the page is
// rendered (its space's content decoded and kept, as after any edit); 2
// when it comes from the cache of rendered pages, or the browser's copy is
// current, for a visitor who brings cookies of the site's; and none for an
// anonymous visitor, once the page was read since the last write.
const (
	renderBound    = 6
	cachedBound    = 2
	anonymousBound = 0
)

func TestPageViewStatements(t *testing.T) {
	t.Parallel()
	for _, extra := range []int{0, 60} {
		t.Run(fmt.Sprintf("%d more pages", extra), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, enum.SiteVisibilityPublic)
			for i := range extra {
				f.page(f.guide, f.install, map[string]any{"title": fmt.Sprintf("Page %d", i), "markdown": "Text.\n"})
			}
			v := f.visitor(t)
			count := func(path string, headers ...string) (int64, page) {
				before := f.e.Statements.Load()
				p := v.get(f.root()+path, headers...)
				return f.e.Statements.Load() - before, p
			}
			for _, path := range []string{"", "install/linux", "api/", "v1/", "install/linux.md"} {
				n, p := count(path)
				require.Equal(t, http.StatusOK, p.status, path)
				assert.LessOrEqual(t, n, int64(renderBound), "rendering %q", path)
				n, p = count(path)
				require.Equal(t, http.StatusOK, p.status)
				assert.LessOrEqual(t, n, int64(anonymousBound), "%q from the cache", path)
				n, p = count(path, "If-None-Match", p.header.Get("ETag"))
				require.Equal(t, http.StatusNotModified, p.status)
				assert.LessOrEqual(t, n, int64(anonymousBound), "%q unchanged", path)
				claims := "gitbook-visitor-public=" + url.QueryEscape(`{"plan":"free"}`)
				n, p = count(path, "Cookie", claims)
				require.Equal(t, http.StatusOK, p.status)
				assert.Positive(t, n, "%q for a visitor with claims is decided", path)
				assert.LessOrEqual(t, n, int64(cachedBound), "%q from the cache, with claims", path)
				n, p = count(path, "Cookie", claims, "If-None-Match", p.header.Get("ETag"))
				require.Equal(t, http.StatusNotModified, p.status)
				assert.LessOrEqual(t, n, int64(cachedBound), "%q unchanged, with claims", path)
			}
		})
	}
}

// TestReplicasNeverServeStalePages: two servers on one database; an edit
// through one shows on the other at the next request, though the other
// kept the page.
func TestReplicasNeverServeStalePages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	other := &fixture{e: servertest.Reuse(t, f.e), site: f.site}
	a, b := f.visitor(t), other.visitor(t)
	require.Contains(t, b.get(f.root()+"install").body, "Install it.")
	require.Contains(t, b.get(f.root()+"install").body, "Install it.", "kept by the second server")

	f.editInstall("Install it twice.\n")
	assert.Contains(t, a.get(f.root()+"install").body, "Install it twice.")
	assert.Contains(t, b.get(f.root()+"install").body, "Install it twice.", "the second server renders the edit")

	f.e.MustDo(http.MethodPatch, "/v1/orgs/"+f.e.Org.ID+"/sites/"+f.site.ID, f.e.OwnerToken,
		map[string]any{"title": "Acme Handbook"}, http.StatusOK)
	assert.Contains(t, b.get(f.root()+"install").body, "Acme Handbook", "a change of the site shows too")
	f.e.MustDo(http.MethodPatch, "/v1/spaces/"+f.api, f.e.OwnerToken, map[string]any{"title": "API v2"}, http.StatusOK)
	f.e.Client.SiteSection.UpdateOne(f.apiSec).SetTitle("Endpoints").ExecX(t.Context())
	home := b.get(f.root() + "install")
	assert.Contains(t, home.body, "Endpoints", "and a change of a section")
}

// TestReplicasHearOfWrites: two servers on one PostgreSQL database, each
// through connections of its own. The second answers an anonymous visitor
// from memory until the first one's write reaches it by NOTIFY, and then
// renders the edit.
func TestReplicasHearOfWrites(t *testing.T) {
	if !servertest.IsPostgres() {
		t.Skip("one server owns a SQLite database")
	}
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	other := &fixture{e: servertest.Replica(t, f.e), site: f.site}
	b := other.visitor(t)
	require.Contains(t, b.get(f.root()+"install").body, "Install it.")
	require.Contains(t, b.get(f.root()+"install").body, "Install it.", "kept by the second server")

	f.editInstall("Install it twice.\n")
	assert.Eventually(t, func() bool { return strings.Contains(b.get(f.root()+"install").body, "Install it twice.") },
		5*time.Second, 10*time.Millisecond, "the second server hears of the edit")

	// A write behind every server's back, through a client of the first
	// one's database, is heard of the same way.
	f.e.DB.NewClient().Site.UpdateOne(f.site).SetTitle("Acme Handbook").ExecX(t.Context())
	assert.Eventually(t, func() bool { return strings.Contains(b.get(f.root()+"install").body, "Acme Handbook") },
		5*time.Second, 10*time.Millisecond, "a change of the site shows too")
}

// editInstall sets the markdown of the Install page through the API.
func (f *fixture) editInstall(markdown string) {
	f.e.MustDo(http.MethodPost, "/graphql", f.e.OwnerToken, map[string]any{
		"query":     `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
		"variables": map[string]any{"in": map[string]any{"spaceId": f.guide, "pageId": f.install, "markdown": markdown}},
	}, http.StatusOK)
}
