package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// zipOf is an archive of the given files, in the given order.
func zipOf(t *testing.T, files ...string) []byte {
	t.Helper()
	require.Zero(t, len(files)%2, "name, content pairs")
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i < len(files); i += 2 {
		f, err := w.Create(files[i])
		require.NoError(t, err)
		_, err = f.Write([]byte(files[i+1]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return b.Bytes()
}

func serveZip(t *testing.T, data []byte) *site {
	return newSite(t, map[string]http.HandlerFunc{"/export.zip": serveBytes("application/zip", data)})
}

func TestImportZip(t *testing.T) {
	logo := string(pngOf(t, 16, 9))
	data := zipOf(t,
		"guide/install.md", "# Install\n\n![](../images/logo.png)\n![gone](missing.png)\n![web](https://example.com/x.png)",
		"README.md", "# Welcome\n\nHello ![logo](images/logo.png)",
		"SUMMARY.md", "* [Welcome](README.md)",
		"guide/README.md", "# The Guide\n\nStart here.",
		"guide/advanced/tips.md", "Tips without a heading.",
		"api.md", "# API Reference\n\n![logo](/.gitbook/assets/logo%201.png)",
		"api/auth.md", "# Auth",
		"Zeta.markdown", "# Zeta",
		"alpha.md", "# Alpha",
		"images/logo.png", logo,
		".gitbook/assets/logo 1.png", logo,
		"images/notes.txt", "not markdown",
		"__MACOSX/._README.md", "junk",
		".hidden.md", "# Hidden",
		".github/CONTRIBUTING.md", "# Contributing",
		"empty/", "",
	)
	srv := serveZip(t, data)

	res, err := Import(context.Background(), enum.ImportSourceZip, srv.URL+"/export.zip", local())
	require.NoError(t, err)
	assert.Equal(t, []any{
		"Welcome",
		"Alpha",
		map[string][]any{"API Reference": {"Auth"}},
		map[string][]any{"The Guide": {map[string][]any{"advanced": {"tips"}}, "Install"}},
		"Zeta",
	}, titles(res.Pages))

	readme := res.Pages[0].Page
	assert.Equal(t, "welcome", readme.Slug)
	assert.Equal(t, "Hello ![logo](.gitbook/assets/logo.png)", readme.Markdown)
	assert.Equal(t, testNow, readme.CreatedAt)

	guide := res.Pages[3]
	assert.Equal(t, "Start here.", guide.Page.Markdown, "the folder's README is the folder page")
	install := guide.Children[1].Page
	assert.Equal(t, "![](.gitbook/assets/logo.png)\n![gone](missing.png)\n![web](https://example.com/x.png)", install.Markdown,
		"an image in the archive is one file however it is reached; others are left alone")
	assert.Equal(t, "", guide.Children[0].Page.Markdown, "a folder without README has an empty page")
	assert.Equal(t, "Tips without a heading.", guide.Children[0].Children[0].Page.Markdown)

	assert.Equal(t, "![logo](.gitbook/assets/logo-1.png)", res.Pages[2].Page.Markdown)

	require.Len(t, res.Files, 2)
	assert.Equal(t, "logo.png", res.Files[0].File.Name)
	assert.Equal(t, "logo-1.png", res.Files[1].File.Name)
	assert.Equal(t, 16, res.Files[0].File.Width)
	assert.Equal(t, 9, res.Files[0].File.Height)
	assert.Equal(t, "image/png", res.Files[0].File.ContentType)

	// Pages: Welcome, Alpha, API, Auth, Guide, advanced, tips, Install,
	// Zeta; files: two logos.
	assert.Equal(t, 11, res.Total)
	assert.Equal(t, 11, res.Imported)
}

func TestImportZipSingleTopFolder(t *testing.T) {
	srv := serveZip(t, zipOf(t,
		"repo-main/README.md", "# Repo",
		"repo-main/docs/README.md", "# Docs",
		"repo-main/docs/usage.md", "# Usage",
	))
	res, err := Import(context.Background(), enum.ImportSourceZip, srv.URL+"/export.zip", local())
	require.NoError(t, err)
	assert.Equal(t, []any{"Repo", map[string][]any{"Docs": {"Usage"}}}, titles(res.Pages))
}

func TestImportZipInsecurePaths(t *testing.T) {
	srv := serveZip(t, zipOf(t, "../../evil.md", "# Evil", "/abs/page.md", "# Abs", `win\path.md`, "# Win"))
	res, err := Import(context.Background(), enum.ImportSourceZip, srv.URL+"/export.zip", local())
	require.NoError(t, err)
	assert.Equal(t, []any{map[string][]any{"abs": {"Abs"}}, "Evil", map[string][]any{"win": {"Win"}}}, titles(res.Pages))
}

func TestImportZipSlugsAreUniqueAmongSiblings(t *testing.T) {
	srv := serveZip(t, zipOf(t, "a.md", "# Same", "b.md", "# Same", "c/x.md", "# Same", "c/y.md", "# Same"))
	res, err := Import(context.Background(), enum.ImportSourceZip, srv.URL+"/export.zip", local())
	require.NoError(t, err)
	assert.Equal(t, "same", res.Pages[0].Page.Slug)
	assert.Equal(t, "same-2", res.Pages[1].Page.Slug)
	assert.Equal(t, "same", res.Pages[2].Children[0].Page.Slug)
	assert.Equal(t, "same-2", res.Pages[2].Children[1].Page.Slug)
}

func TestImportZipRefusals(t *testing.T) {
	bomb := zipOf(t, "README.md", "# Bomb", "zeros.md", strings.Repeat("\x00", 2<<20))
	require.Less(t, len(bomb), 64<<10, "the archive is small; what it unpacks to is not")

	var many []string
	for i := range maxZipEntries + 1 {
		many = append(many, fmt.Sprintf("%d.md", i), "")
	}

	oneMiB := local()
	oneMiB.MaxTotalBytes = 1 << 20
	for _, tc := range []struct {
		name string
		data []byte
		opt  Options
		code Code
		want string
	}{
		{"zip bomb", bomb, oneMiB, CodeFetch, "unpacks to more than the 1 MiB"},
		{"entry too large", bomb, Options{AllowPrivate: true, MaxBytes: 1 << 20}, CodeFetch, `archive entry "zeros.md" is too large`},
		{"too many entries", zipOf(t, many...), local(), CodeFetch, "more than 5000 entries"},
		{"not a zip", []byte("<html>not a zip</html>"), local(), CodeInvalid, "is not a zip archive"},
		{"no markdown", zipOf(t, "a.png", "x", ".hidden.md", "# x"), local(), CodeInvalid, "found nothing to import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveZip(t, tc.data)
			e := importErr(t, enum.ImportSourceZip, srv.URL+"/export.zip", tc.opt)
			assert.Equal(t, tc.code, e.Code, e.Msg)
			assert.Contains(t, e.Msg, tc.want)
		})
	}
}
