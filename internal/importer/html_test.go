package importer

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

const article = `<!doctype html>
<html><head><title>Getting Started</title><style>body{}</style></head>
<body>
<header><a href="/">Home</a></header>
<nav><a href="/docs/">Docs</a></nav>
<main>
  <h1>Getting Started</h1>
  <p>Install <strong>Bindery</strong> and read the <a href="guide/next.html">next guide</a>.</p>
  <img src="img/diagram.png" alt="Diagram">
  <img src="/img/diagram.png#again" alt="Same diagram">
  <img src="/img/missing.png" alt="Missing">
  <img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">
  <script>alert("x")</script>
  <table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>
</main>
<footer>© Example</footer>
</body></html>`

func TestImportHTML(t *testing.T) {
	diagram := pngOf(t, 30, 20)
	srv := newSite(t, map[string]http.HandlerFunc{
		"/docs/start.html":      serve("text/html; charset=utf-8", article),
		"/docs/img/diagram.png": serveBytes("image/png", diagram),
		"/img/diagram.png":      serveBytes("image/png", diagram),
	})

	res, err := Import(context.Background(), enum.ImportSourceHtml, srv.URL+"/docs/start.html", local())
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	p := res.Pages[0].Page
	assert.Equal(t, "Getting Started", p.Title)
	assert.Equal(t, "getting-started", p.Slug)
	assert.Equal(t, enum.PageTypeDocument, p.Type)
	assert.True(t, strings.HasPrefix(p.ID, "pg_"))
	assert.Equal(t, testNow, p.CreatedAt)
	assert.Equal(t, testNow, p.UpdatedAt)

	md := p.Markdown
	assert.NotContains(t, md, "# Getting Started", "the heading repeating the title is dropped")
	assert.Contains(t, md, "Install **Bindery**")
	assert.Contains(t, md, "("+srv.URL+"/docs/guide/next.html)", "links are made absolute")
	assert.NotContains(t, md, "alert", "scripts are dropped")
	assert.NotContains(t, md, "Home", "the header is dropped")
	assert.NotContains(t, md, "©", "the footer is dropped")
	assert.NotContains(t, md, "data:image", "inline data images are dropped")
	assert.Contains(t, md, "| A | B |")

	require.Len(t, res.Files, 2, "two distinct image URLs, one missing")
	f := res.Files[0].File
	assert.Equal(t, "diagram.png", f.Name)
	assert.Equal(t, "image/png", f.ContentType)
	assert.Equal(t, int64(len(diagram)), f.Size)
	assert.Equal(t, 30, f.Width)
	assert.Equal(t, 20, f.Height)
	assert.Empty(t, f.Blob)
	assert.True(t, strings.HasPrefix(f.ID, "fil_"))
	assert.Equal(t, diagram, res.Files[0].Data)
	assert.Equal(t, "diagram-2.png", res.Files[1].File.Name, "file names are unique within the import")

	assert.Contains(t, md, "![Diagram](.gitbook/assets/diagram.png)")
	assert.Contains(t, md, "![Same diagram](.gitbook/assets/diagram-2.png)")
	assert.Contains(t, md, "![Missing]("+srv.URL+"/img/missing.png)", "a failed image keeps its URL")

	assert.Equal(t, 4, res.Total, "the page and three images")
	assert.Equal(t, 3, res.Imported, "the page and two images")
}

func TestImportHTMLTitleFromHeading(t *testing.T) {
	srv := newSite(t, map[string]http.HandlerFunc{
		"/": serve("text/html", `<html><body><p>Intro</p><h1>The Heading</h1><p>Text</p></body></html>`),
		"/latin1": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
			_, _ = w.Write([]byte("<title>Caf\xe9</title><p>cr\xe8me</p>"))
		},
	})
	res, err := Import(context.Background(), enum.ImportSourceHtml, srv.URL+"/", local())
	require.NoError(t, err)
	assert.Equal(t, "The Heading", res.Pages[0].Page.Title)
	assert.Contains(t, res.Pages[0].Page.Markdown, "# The Heading", "a heading that does not lead stays")

	res, err = Import(context.Background(), enum.ImportSourceHtml, srv.URL+"/latin1", local())
	require.NoError(t, err)
	assert.Equal(t, "Café", res.Pages[0].Page.Title)
	assert.Equal(t, "crème", res.Pages[0].Page.Markdown)
}

func TestImportHTMLRejectsOtherContent(t *testing.T) {
	srv := newSite(t, map[string]http.HandlerFunc{"/x.png": serveBytes("image/png", pngOf(t, 1, 1))})
	e := importErr(t, enum.ImportSourceHtml, srv.URL+"/x.png", local())
	assert.Equal(t, CodeInvalid, e.Code)
	assert.Contains(t, e.Msg, "is not an HTML page")
}

func TestImagesAreRefusedAtInternalAddresses(t *testing.T) {
	// The page is let through; its image on another loopback port is not,
	// and the import goes on without it.
	img := newSite(t, map[string]http.HandlerFunc{"/secret.png": serveBytes("image/png", pngOf(t, 1, 1))})
	page := newSite(t, map[string]http.HandlerFunc{
		"/": serve("text/html", `<title>T</title><p>x</p><img src="`+img.URL+`/secret.png">`),
	})
	pageAddr := strings.TrimPrefix(page.URL, "http://")
	res, err := Import(context.Background(), enum.ImportSourceHtml, page.URL+"/",
		Options{allowAddr: func(a string) bool { return a == pageAddr }})
	require.NoError(t, err)
	assert.Empty(t, res.Files)
	assert.Zero(t, img.total())
	assert.Equal(t, 2, res.Total)
	assert.Equal(t, 1, res.Imported)
}
