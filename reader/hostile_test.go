package reader_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/bindery/bindery/internal/enum"
)

// TestHostileContent: what users type reaches a reader's page as text,
// never as markup, script or a dangerous link, whichever field it is in.
func TestHostileContent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	const x = `"><script>alert(1)</script><img src=x onerror=alert(2)>`
	f.e.Client.Site.UpdateOne(f.site).SetTitle("Acme " + x[:20]).ExecX(ctx)
	f.e.Client.SiteSection.UpdateOne(f.guides).SetTitle("Guides " + x[:20]).ExecX(ctx)
	f.page(f.guide, "", map[string]any{"title": "Evil " + x[:40], "emoji": "🙂", "description": "Desc " + x,
		"markdown": "<script>alert(3)</script>\n\nText <b onclick=alert(4)>bold</b> " + x + "\n\n" +
			"[js](javascript:alert(5)) [JS](JaVaScRiPt:alert(6)) [data](data:text/html,<script>alert(7)</script>) " +
			"[vb](vbscript:msgbox) [spaced]( javascript:alert(8))\n\n" +
			"![svg](data:image/svg+xml,<svg onload=alert(9)>)\n\n" +
			"```js\" onmouseover=\"alert(10)\nx\n```\n"})
	v := f.visitor(t)
	p := v.get(f.root() + "evil-scriptalert1script")
	if p.status != http.StatusOK {
		// The slug is derived from the title; find the page from the home.
		home := v.get(f.root())
		m := regexp.MustCompile(`href="(` + regexp.QuoteMeta(f.root()) + `evil[^"]*)"`).FindStringSubmatch(home.body)
		require.NotNil(t, m, home.body)
		p = v.get(m[1])
	}
	require.Equal(t, http.StatusOK, p.status, p.body)
	ours := regexp.MustCompile(`<script src="` + regexp.QuoteMeta(f.root()) + `~bindery/static/reader\.[0-9a-f]+\.js" defer></script>`)
	body := ours.ReplaceAllString(p.body, "")
	assert.NotContains(t, strings.ToLower(body), "<script", "no script but the reader's own")
	z := html.NewTokenizer(strings.NewReader(body))
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		tok := z.Token()
		for _, a := range tok.Attr {
			assert.False(t, strings.HasPrefix(strings.ToLower(a.Key), "on"), "an event handler attribute: %s", tok)
			if a.Key == "href" || a.Key == "src" || a.Key == "action" {
				u := strings.ToLower(strings.TrimSpace(a.Val))
				for _, scheme := range []string{"javascript:", "vbscript:", "data:"} {
					assert.False(t, strings.HasPrefix(u, scheme), "a dangerous URL: %s", tok)
				}
			}
		}
	}
	assert.NotContains(t, body, "<img src=x")
	assert.NotContains(t, body, "<b onclick")
	assert.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt;", "the text is shown as typed")
	csp := p.header.Get("Content-Security-Policy")
	for _, d := range []string{"script-src 'self'", "object-src 'none'", "base-uri 'none'"} {
		assert.Contains(t, csp, d)
	}
	assert.NotContains(t, csp, "unsafe-inline")

}

// TestUploadedFiles: a site-space's files are served from the site, an
// SVG never as a document of the site's origin.
func TestUploadedFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	const upload = `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id name } } }`
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")
	for _, up := range []struct {
		name, typ string
		data      []byte
	}{
		{"dot.png", "image/png", png},
		{"evil.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)},
	} {
		g := f.e.Upload(f.e.OwnerToken, upload, map[string]any{"in": map[string]any{"spaceId": f.guide, "file": nil}},
			"in.file", up.name, up.typ, up.data)
		require.Empty(t, g.Errors, up.name)
	}
	f.page(f.guide, "", map[string]any{"title": "Pictures",
		"markdown": "![A dot](.gitbook/assets/dot.png)\n\n![Evil](.gitbook/assets/evil.svg)\n"})
	v := f.visitor(t)
	p := v.get(f.root() + "pictures")
	require.Equal(t, http.StatusOK, p.status)
	srcs := regexp.MustCompile(`<img [^>]*src="([^"]+)"`).FindAllStringSubmatch(p.body, -1)
	require.Len(t, srcs, 2, p.body)
	assert.Contains(t, p.body, `width="1" height="1"`, "an image has its size")
	assert.Contains(t, p.body, `loading="lazy"`)
	dot := v.get(srcs[0][1])
	require.Equal(t, http.StatusOK, dot.status)
	assert.Equal(t, "image/png", dot.header.Get("Content-Type"))
	assert.Equal(t, png, []byte(dot.body))
	svg := v.get(srcs[1][1])
	require.Equal(t, http.StatusOK, svg.status)
	assert.True(t, strings.HasPrefix(svg.header.Get("Content-Disposition"), "attachment"), "an SVG is an attachment")
	assert.Equal(t, "sandbox; default-src 'none'", svg.header.Get("Content-Security-Policy"))
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"~bindery/files/"+f.v2.ID+"/nofile/x.png").status)
	assert.Equal(t, http.StatusNotFound, v.get(f.root()+"~bindery/files/sitespace_other/x/y").status)
}

// TestSiteHostname: a site with a hostname answers at that host's root,
// under its basename when it has one, with addresses on that host.
func TestSiteHostname(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	f.e.Client.Site.UpdateOne(f.site).SetHostname("docs.acme.example").ExecX(ctx)
	v := f.visitor(t)
	home := v.get("/", "Host", "docs.acme.example")
	require.Equal(t, http.StatusOK, home.status, home.body)
	assert.Contains(t, home.body, `href="/install"`)
	assert.Contains(t, home.body, `<link rel="canonical" href="http://docs.acme.example/"`)
	assert.Equal(t, http.StatusOK, v.get("/install/linux", "Host", "docs.acme.example").status)
	assert.Equal(t, http.StatusOK, v.get("/robots.txt", "Host", "docs.acme.example").status)
	assert.Equal(t, http.StatusNotFound, v.get("/install", "Host", "other.acme.example").status)
	assert.Equal(t, http.StatusUnauthorized, v.get("/v1/user", "Host", "docs.acme.example").status, "the API stays the API's")

	f.e.Client.Site.UpdateOne(f.site).SetBasename("guide").ExecX(ctx)
	assert.Equal(t, http.StatusFound, v.get("/", "Host", "docs.acme.example").status)
	p := v.get("/guide/install", "Host", "docs.acme.example")
	require.Equal(t, http.StatusOK, p.status)
	assert.Contains(t, p.body, `href="/guide/install/linux"`)
	assert.Equal(t, http.StatusNotFound, v.get("/install", "Host", "docs.acme.example").status)

	f.e.Client.Site.UpdateOne(f.site).SetPublished(false).ExecX(ctx)
	assert.Equal(t, http.StatusNotFound, v.get("/guide/install", "Host", "docs.acme.example").status)
}

// TestSiteRedirects: a site redirect's source answers with a permanent
// redirect to its destination.
func TestSiteRedirects(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	ctx := context.Background()
	f.e.Client.SiteRedirect.Create().SetSiteID(f.site.ID).SetSource("/old/setup").
		SetDestination(map[string]string{"kind": "url", "url": "https://example.com/setup"}).ExecX(ctx)
	f.e.Client.SiteRedirect.Create().SetSiteID(f.site.ID).SetSource("/old/api").
		SetDestination(map[string]string{"kind": "site-section", "siteSectionId": f.apiSec.ID}).ExecX(ctx)
	v := f.visitor(t)
	p := v.get(f.root() + "old/setup")
	assert.Equal(t, http.StatusMovedPermanently, p.status)
	assert.Equal(t, "https://example.com/setup", p.header.Get("Location"))
	p = v.get(f.root() + "old/api")
	assert.Equal(t, http.StatusMovedPermanently, p.status)
	assert.Equal(t, f.e.Config.PublicURL+f.root()+"api", p.header.Get("Location"))
}

// TestSiteProxy: through the proxy a site names, with X-Forwarded-Host,
// the site's addresses are the proxy's.
func TestSiteProxy(t *testing.T) {
	t.Parallel()
	f := newFixture(t, enum.SiteVisibilityPublic)
	f.e.Client.Site.UpdateOne(f.site).SetProxyOrigin("company.example/docs").ExecX(context.Background())
	v := f.visitor(t)
	p := v.get(f.root()+"install", "X-Forwarded-Host", "company.example")
	require.Equal(t, http.StatusOK, p.status, p.body)
	assert.Contains(t, p.body, `href="/docs/install/linux"`)
	assert.Contains(t, p.body, `<link rel="canonical" href="https://company.example/docs/install"`)
	other := v.get(f.root()+"install", "X-Forwarded-Host", "elsewhere.example")
	assert.Contains(t, other.body, `href="`+f.root()+`install/linux"`, "another host is not the proxy")
}
