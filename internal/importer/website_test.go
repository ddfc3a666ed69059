package importer

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

func page(title string, links ...string) http.HandlerFunc {
	body := "<html><head><title>" + title + "</title></head><body><nav>"
	for _, l := range links {
		body += fmt.Sprintf(`<a href="%s">link</a>`, l)
	}
	return serve("text/html; charset=utf-8", body+"</nav><main><h1>"+title+"</h1><p>About "+title+".</p></main></body></html>")
}

// docsSite is a small documentation site under /docs/ with links that a
// crawl must not follow or fetch twice.
func docsSite(t *testing.T) (*site, *site) {
	external := newSite(t, map[string]http.HandlerFunc{"/": page("External")})
	srv := newSite(t, map[string]http.HandlerFunc{
		"/docs/": page("Docs",
			"guide/", "guide", "guide/#part", "/docs/guide/?", // one page, four spellings
			"guide/install", "api.html", "data", "logo.png",
			"/other/", external.URL+"/", "mailto:a@example.com", "away"),
		"/docs/away": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/other/", http.StatusFound)
		},
		"/docs/guide/":        page("Guide", "install", "../deep/1"),
		"/docs/guide/install": page("Install", "/docs/", "../guide/"),
		"/docs/api.html":      page("API", "api/auth.html"),
		"/docs/api/auth.html": page("Auth"),
		"/docs/data":          serve("application/json", `{"not":"html"}`),
		"/docs/deep/1":        page("Deep 1", "2"),
		"/docs/deep/2":        page("Deep 2", "3"),
		"/docs/deep/3":        page("Deep 3", "4"),
		"/docs/deep/4":        page("Deep 4"),
		"/other/":             page("Other"),
	})
	return srv, external
}

func TestImportWebsite(t *testing.T) {
	srv, external := docsSite(t)
	opt := local()
	opt.MaxDepth = 10

	res, err := Import(context.Background(), enum.ImportSourceWebsite, srv.URL+"/docs/", opt)
	require.NoError(t, err)

	assert.Equal(t, []any{map[string][]any{"Docs": {
		map[string][]any{"Guide": {"Install"}},
		map[string][]any{"API": {"Auth"}},
		"Deep 1", "Deep 2", "Deep 3", "Deep 4",
	}}}, titles(res.Pages), "pages nest by URL path, in crawl order")

	root := res.Pages[0]
	assert.Equal(t, "docs", root.Page.Slug)
	assert.Equal(t, "About Docs.", root.Page.Markdown, "navigation and the repeated title are dropped")
	assert.Equal(t, "guide", root.Children[0].Page.Slug)

	for uri, want := range map[string]int{
		"/docs/": 1, "/docs/guide/": 1, "/docs/guide": 0, "/docs/guide/install": 1, "/docs/data": 1,
		"/docs/logo.png": 0, "/other/": 1, "/docs/away": 1, "/docs/deep/4": 1,
	} {
		assert.Equal(t, want, srv.count(uri), uri)
	}
	assert.Zero(t, external.total(), "external links are not followed")

	// Docs, Guide, Install, API, data, away, Auth, Deep 1-4.
	assert.Equal(t, 11, res.Total)
	assert.Equal(t, 9, res.Imported, "everything but the JSON and the redirect out of scope")
}

func TestImportWebsiteBounds(t *testing.T) {
	t.Run("MaxDepth", func(t *testing.T) {
		srv, _ := docsSite(t)
		opt := local()
		opt.MaxDepth = 1
		res, err := Import(context.Background(), enum.ImportSourceWebsite, srv.URL+"/docs/", opt)
		require.NoError(t, err)
		assert.Equal(t, []any{map[string][]any{"Docs": {
			map[string][]any{"Guide": {"Install"}}, "API",
		}}}, titles(res.Pages))
		assert.Zero(t, srv.count("/docs/api/auth.html"), "two links away")
		assert.Zero(t, srv.count("/docs/deep/1"))
	})
	t.Run("MaxPages", func(t *testing.T) {
		srv, _ := docsSite(t)
		opt := local()
		opt.MaxPages = 2
		res, err := Import(context.Background(), enum.ImportSourceWebsite, srv.URL+"/docs/", opt)
		require.NoError(t, err)
		assert.Equal(t, []any{map[string][]any{"Docs": {"Guide"}}}, titles(res.Pages))
		assert.Equal(t, 2, srv.total(), "no more requests than MaxPages")
		assert.Equal(t, 2, res.Imported)
		assert.Equal(t, 7, res.Total, "Docs, the five pages it links to and the one Guide links to")
	})
	t.Run("start below the root", func(t *testing.T) {
		srv, _ := docsSite(t)
		res, err := Import(context.Background(), enum.ImportSourceWebsite, srv.URL+"/docs/guide/install", local())
		require.NoError(t, err)
		// Only pages under /docs/guide/ are in scope: Install, found
		// first, still nests under Guide.
		assert.Equal(t, []any{map[string][]any{"Guide": {"Install"}}}, titles(res.Pages))
		assert.Zero(t, srv.count("/docs/"))
	})
}

func TestImportWebsiteStartMustBeHTML(t *testing.T) {
	srv, _ := docsSite(t)
	e := importErr(t, enum.ImportSourceWebsite, srv.URL+"/docs/data", local())
	assert.Equal(t, CodeInvalid, e.Code)
	assert.Contains(t, e.Msg, "is not an HTML page")

	e = importErr(t, enum.ImportSourceWebsite, srv.URL+"/docs/missing", local())
	assert.Equal(t, CodeFetch, e.Code)
}

func TestImportWebsiteImages(t *testing.T) {
	logo := pngOf(t, 2, 2)
	srv := newSite(t, map[string]http.HandlerFunc{
		"/":         serve("text/html", `<title>Home</title><p>x</p><img src="/logo.png"><a href="/b">b</a>`),
		"/b":        serve("text/html", `<title>B</title><p>y</p><img src="logo.png">`),
		"/logo.png": serveBytes("image/png", logo),
	})
	res, err := Import(context.Background(), enum.ImportSourceWebsite, srv.URL+"/", local())
	require.NoError(t, err)
	require.Len(t, res.Files, 1, "an image shared by pages is one file")
	assert.Equal(t, 1, srv.count("/logo.png"))
	assert.Contains(t, res.Pages[0].Page.Markdown, "(.gitbook/assets/logo.png)")
	assert.Contains(t, res.Pages[0].Children[0].Page.Markdown, "(.gitbook/assets/logo.png)")
	assert.Equal(t, 3, res.Total)
	assert.Equal(t, 3, res.Imported)
}

func TestNest(t *testing.T) {
	im := &importer{now: testNow}
	var pages []crawled
	for _, p := range []string{"/a", "/b/c", "/a/x.html", "/b", "/a/x/y", "/a/x/index.html"} {
		pages = append(pages, crawled{node: im.newPage(p, ""), key: nestKey(mustURL(t, p))})
	}
	assert.Equal(t, []any{
		map[string][]any{"/a": {map[string][]any{"/a/x.html": {"/a/x/y"}}, "/a/x/index.html"}},
		map[string][]any{"/b": {"/b/c"}},
	}, titles(nest(pages)))
}
