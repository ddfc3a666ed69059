package reader_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// TestPublicSite reads a public site as an anonymous visitor: its
// addresses, navigation, pages, markdown and 404s.
func TestPublicSite(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	v := f.visitor(t)
	root := f.root()

	home := v.get(root)
	require.Equal(t, http.StatusOK, home.status, home.body)
	assert.Equal(t, "text/html; charset=utf-8", home.header.Get("Content-Type"))
	assert.Contains(t, home.body, "<title>Acme Docs</title>", "the home page is titled by the site")
	assert.Contains(t, home.body, "Welcome to the <strong>guide</strong>.")
	assert.Contains(t, home.body, `id="first-steps"`, "headings have the anchors search uses")
	assert.Contains(t, home.body, `href="`+root+`install"`, "a link to another page's markdown goes to its address")
	assert.Contains(t, home.body, `href="`+root+`install/linux#setup"`)
	assert.Contains(t, home.body, `class="chroma"`, "code is highlighted")
	for _, s := range []string{">Install<", ">Linux<", ">Advanced<", ">Tuning<", ">Website<", ">API reference<", ">Reference<", ">Guide v1<"} {
		assert.Contains(t, home.body, s)
	}
	assert.NotContains(t, home.body, "Secret", "a hidden page is not in the navigation")
	assert.NotContains(t, home.body, "noindex", "a public site is indexed")
	assert.Contains(t, home.header.Get("Content-Security-Policy"), "script-src 'self'")
	assert.Equal(t, "same-origin", home.header.Get("Referrer-Policy"))
	assert.Equal(t, "public, max-age=60", home.header.Get("Cache-Control"))

	for _, c := range []struct{ path, want string }{
		{"install", "Install it."},
		{"install/linux", "On Linux, run the installer."},
		{"guides/install", "Install it."},
		{"v1", "The first version."},
		{"guides/v1/", "The first version."},
		{"api", "The API answers quokka questions."},
		{"api/api", "The API answers quokka questions."},
		{"advanced/tuning", "Tune the quokka cache."},
		{"secret", "A hidden quokka page."},
	} {
		p := v.get(root + c.path)
		if assert.Equal(t, http.StatusOK, p.status, c.path) {
			assert.Contains(t, p.body, c.want, c.path)
		}
	}
	f.e.Client.Space.UpdateOneID(f.old).SetLanguage("fr").ExecX(context.Background())
	assert.Contains(t, v.get(root+"v1/").body, `<html lang="fr">`, "a page is in its space's language")
	assert.Contains(t, home.body, `<html lang="en">`)
	linux := v.get(root + "install/linux")
	assert.Contains(t, linux.body, "<title>Linux · Acme Docs</title>")
	assert.Contains(t, linux.body, `aria-current="page"`)
	assert.Contains(t, linux.body, `<link rel="canonical" href="http://`)

	md := v.get(root + "install/linux.md")
	require.Equal(t, http.StatusOK, md.status)
	assert.Equal(t, "text/markdown; charset=utf-8", md.header.Get("Content-Type"))
	assert.Equal(t, "## Setup\n\nOn Linux, run the installer.\n", md.body)

	group := v.get(root + "advanced")
	assert.Equal(t, http.StatusFound, group.status, "a group shows its first page")
	assert.Equal(t, root+"advanced/tuning", group.location(t, f.e.HTTP.URL))
	link := v.get(root + "website")
	assert.Equal(t, http.StatusFound, link.status)
	assert.Equal(t, "https://example.com/", link.header.Get("Location"))

	missing := v.get(root + "no/such/page")
	assert.Equal(t, http.StatusNotFound, missing.status)
	assert.Contains(t, missing.body, "Page not found")
	assert.Contains(t, missing.body, `action="`+root+`search"`, "the 404 page has a search box")
	assert.Contains(t, missing.body, "noindex")

	assert.Equal(t, http.StatusMovedPermanently, v.get("/sites/"+f.site.ID).status, "the root is a directory")
	assert.Equal(t, http.StatusNotFound, v.get("/sites/site_unknown/").status)
}

// TestUnpublishedSite: a site that is not published answers as one that
// does not exist.
func TestUnpublishedSite(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	f.site.Update().SetPublished(false).ExecX(context.Background())
	p := f.visitor(t).get(f.root())
	assert.Equal(t, http.StatusNotFound, p.status)
	assert.Equal(t, "Not found\n", p.body)
}

// TestConditionalETag: a page's ETag holds until its content changes.
func TestConditionalETag(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	v := f.visitor(t)
	first := v.get(f.root() + "install")
	etag := first.header.Get("ETag")
	require.NotEmpty(t, etag)
	assert.NotEmpty(t, first.header.Get("Last-Modified"))
	again := v.get(f.root()+"install", "If-None-Match", etag)
	assert.Equal(t, http.StatusNotModified, again.status)
	assert.Empty(t, again.body)

	f.e.MustDo(http.MethodPost, "/graphql", f.e.OwnerToken, map[string]any{
		"query":     `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
		"variables": map[string]any{"in": map[string]any{"spaceId": f.guide, "pageId": f.install, "markdown": "Install it now.\n"}},
	}, http.StatusOK)
	edited := v.get(f.root()+"install", "If-None-Match", etag)
	assert.Equal(t, http.StatusOK, edited.status, "an edit shows at the next request")
	assert.Contains(t, edited.body, "Install it now.")
	assert.NotEqual(t, etag, edited.header.Get("ETag"))
}

// TestSearchPage searches every site-space of the site.
func TestSearchPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	v := f.visitor(t)
	p := v.get(f.root() + "search?q=quokka")
	require.Equal(t, http.StatusOK, p.status, p.body)
	assert.Contains(t, p.body, "<mark>quokka</mark>")
	assert.Contains(t, p.body, `href="`+f.root()+`advanced/tuning"`)
	assert.Contains(t, p.body, `href="`+f.root()+`api/"`, "results come from every site-space")
	assert.Contains(t, p.body, "noindex")
	none := v.get(f.root() + "search?q=zebra")
	assert.Equal(t, http.StatusOK, none.status)
	assert.Contains(t, none.body, "No results")
	empty := v.get(f.root() + "search")
	assert.Equal(t, http.StatusOK, empty.status)
}

// TestSiteFiles: sitemap.xml, robots.txt and llms.txt of a public site,
// and of an unlisted one.
func TestSiteFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	v := f.visitor(t)
	sm := v.get(f.root() + "sitemap.xml")
	require.Equal(t, http.StatusOK, sm.status)
	assert.Contains(t, sm.body, "<loc>"+f.e.Config.PublicURL+f.root()+"install/linux</loc>")
	assert.Contains(t, sm.body, "<loc>"+f.e.Config.PublicURL+f.root()+"</loc>", "the first page is at the root")
	assert.NotContains(t, sm.body, "secret", "hidden pages are left out")
	robots := v.get(f.root() + "robots.txt")
	assert.Contains(t, robots.body, "Allow: /")
	assert.Contains(t, robots.body, "Sitemap: "+f.e.Config.PublicURL+f.root()+"sitemap.xml")
	llms := v.get(f.root() + "llms.txt")
	assert.Contains(t, llms.body, "# Acme Docs\n")
	assert.Contains(t, llms.body, "- [Linux]("+f.e.Config.PublicURL+f.root()+"install/linux.md)")
	full := v.get(f.root() + "llms-full.txt")
	assert.Contains(t, full.body, "On Linux, run the installer.")

	f.site.Update().SetVisibility(enum.SiteVisibilityUnlisted).ExecX(context.Background())
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"sitemap.xml").status, "an unlisted site has no sitemap")
	robots = v.get(f.root() + "robots.txt")
	assert.Equal(t, "User-agent: *\nDisallow: /\n", robots.body)
	page := v.get(f.root() + "install")
	assert.Equal(t, "noindex", page.header.Get("X-Robots-Tag"))
	assert.Contains(t, page.body, `<meta name="robots" content="noindex">`)
}

// TestMovedPages: when an edit moves or renames a page, its old address
// leads to the new one; a page that later takes the old path wins.
func TestMovedPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	v := f.visitor(t)
	f.e.GraphQL(f.e.OwnerToken, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": f.guide, "pageId": f.install, "title": "Setup", "slug": "setup"}}).
		Into(t, &struct{}{})
	for old, now := range map[string]string{"install": "setup", "install/linux": "setup/linux", "install/linux.md": "setup/linux.md"} {
		p := v.get(f.root() + old)
		assert.Equal(t, http.StatusMovedPermanently, p.status, old)
		assert.Equal(t, f.root()+now, p.location(t, f.e.HTTP.URL), old)
	}
	assert.Contains(t, v.get(f.root()+"setup/linux").body, "On Linux, run the installer.")

	f.page(f.guide, "", map[string]any{"title": "Install", "markdown": "A new install page.\n"})
	p := v.get(f.root() + "install")
	assert.Equal(t, http.StatusOK, p.status, "a page at the old path wins")
	assert.Contains(t, p.body, "A new install page.")
}

// TestSiteWithoutSections: a site whose site-spaces sit at its root, the
// default at the root itself and the others under their paths.
func TestSiteWithoutSections(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	c := f.e.Client
	s := c.Site.Create().SetOrganizationID(f.e.Org.ID).SetTitle("Flat Docs").SetPublished(true).SaveX(ctx)
	c.SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(f.guide).SetPath("guide").SetIsDefault(true).ExecX(ctx)
	c.SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(f.old).SetPath("old").SetPosition(1).ExecX(ctx)
	v := f.visitor(t)
	root := "/sites/" + s.ID + "/"
	home := v.get(root)
	require.Equal(t, http.StatusOK, home.status, home.body)
	assert.Contains(t, home.body, "Welcome to the <strong>guide</strong>.")
	assert.NotContains(t, home.body, `aria-label="Sections"`, "no tabs without sections")
	assert.Contains(t, home.body, `href="`+root+`old/"`, "the switcher leads to the other site-space")
	assert.Contains(t, v.get(root+"old/").body, "The first version.")
	assert.Contains(t, v.get(root+"install/linux").body, "On Linux, run the installer.")
	assert.Equal(t, http.StatusNotFound, v.get(root+"nope").status)
}
