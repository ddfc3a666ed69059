package importer

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

func TestImportMarkdown(t *testing.T) {
	logo := pngOf(t, 8, 4)
	srv := newSite(t, map[string]http.HandlerFunc{
		"/repo/docs/setup.md": serve("text/markdown; charset=utf-8", "# Setup Guide\n\n"+
			"See ![the logo](../assets/logo.png \"Logo\") and [the API](api.md#auth).\n\n"+
			"<img src=\"../assets/logo.png\" width=\"10\">\n\n"+
			"```md\n![not an image](skip.png)\n# not a title\n```\n"),
		"/repo/assets/logo.png": serveBytes("image/png", logo),
		"/notes.markdown":       serve("text/plain", "Just text.\n\n## Section\n"),
		"/front.md":             serve("text/markdown", "---\ntitle: \"From Front Matter\"\ndescription: A summary\n---\n# Heading\nBody\n"),
	})

	res, err := Import(context.Background(), enum.ImportSourceMarkdown, srv.URL+"/repo/docs/setup.md", local())
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	p := res.Pages[0].Page
	assert.Equal(t, "Setup Guide", p.Title)
	assert.Equal(t, "setup-guide", p.Slug)
	assert.Equal(t, "See ![the logo](.gitbook/assets/logo.png \"Logo\") and [the API]("+srv.URL+"/repo/docs/api.md#auth).\n\n"+
		"<img src=\".gitbook/assets/logo.png\" width=\"10\">\n\n"+
		"```md\n![not an image](skip.png)\n# not a title\n```", p.Markdown)
	require.Len(t, res.Files, 1, "one image referenced twice is one file")
	assert.Equal(t, "logo.png", res.Files[0].File.Name)
	assert.Equal(t, 8, res.Files[0].File.Width)
	assert.Equal(t, 1, srv.count("/repo/assets/logo.png"))
	assert.Zero(t, srv.count("/repo/docs/skip.png"), "code blocks are left alone")
	assert.Equal(t, 2, res.Total)
	assert.Equal(t, 2, res.Imported)

	res, err = Import(context.Background(), enum.ImportSourceMarkdown, srv.URL+"/notes.markdown", local())
	require.NoError(t, err)
	assert.Equal(t, "notes", res.Pages[0].Page.Title, "no heading: the file name")
	assert.Equal(t, "Just text.\n\n## Section", res.Pages[0].Page.Markdown)

	res, err = Import(context.Background(), enum.ImportSourceMarkdown, srv.URL+"/front.md", local())
	require.NoError(t, err)
	assert.Equal(t, "From Front Matter", res.Pages[0].Page.Title)
	assert.Equal(t, "A summary", res.Pages[0].Page.Description)
	assert.Equal(t, "# Heading\nBody", res.Pages[0].Page.Markdown)
}

func TestImportMarkdownRejectsOtherContent(t *testing.T) {
	srv := newSite(t, map[string]http.HandlerFunc{
		"/page":    serve("text/html", "<p>hi</p>"),
		"/img":     serveBytes("image/png", pngOf(t, 1, 1)),
		"/binary":  serveBytes("application/octet-stream", []byte{0, 1, 2, 3, 0xff}),
		"/invalid": serveBytes("text/markdown", []byte{'#', ' ', 0xff, 0xfe}),
	})
	for _, p := range []string{"/page", "/img", "/binary", "/invalid"} {
		e := importErr(t, enum.ImportSourceMarkdown, srv.URL+p, local())
		assert.Equal(t, CodeInvalid, e.Code, p)
	}
}

func TestParseMarkdownTitle(t *testing.T) {
	for _, tc := range []struct{ src, title, body string }{
		{"# Title\n\nBody", "Title", "Body"},
		{"# Title #\nBody", "Title", "Body"},
		{"Intro\n\n# Later\n\nMore", "Later", "Intro\n\nMore"},
		{"#Not a heading\nBody", "", "#Not a heading\nBody"},
		{"## Sub\nBody", "", "## Sub\nBody"},
		{"\r\n# Win\r\n\r\nBody\r\n", "Win", "Body"},
		{"~~~\n# code\n~~~\n# Real", "Real", "~~~\n# code\n~~~"},
	} {
		doc := parseMarkdown(tc.src)
		assert.Equal(t, tc.title, doc.title, tc.src)
		assert.Equal(t, tc.body, doc.body, tc.src)
	}
}
