package gitbook

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// TestImportGitBookRepository imports a repository written as GitBook's Git
// Sync writes one (testdata/repo): CRLF, four-space and tab indentation,
// "-" bullets, a target in "<>" with a space, a sidebar title, front matter
// keys Bindery does not know, a page without a heading, relative and
// percent-encoded asset references, and a file SUMMARY.md does not list.
func TestImportGitBookRepository(t *testing.T) {
	res, err := Import(readDir(t, "testdata/repo"), nil, ids(), testNow)
	require.NoError(t, err)
	require.Equal(t, []string{
		"document Acme Docs [acme-docs]",
		"document Getting Started [getting-started]",
		"  document Install [install]",
		"  document Configure the app [configure-app]",
		"document FAQ [faq]",
		"group Reference [reference]",
		"  document API [api]",
		"    document Endpoints [endpoints]",
		"  link Changelog [changelog]",
		"group Community [community]",
		"  link Forum [external] [forum-external]",
	}, tree(res.Pages))
	require.Equal(t, []string{"1 markdown files are not in SUMMARY.md, so they are not imported"}, res.Warnings)

	intro := res.Pages[0].Page
	require.Equal(t, "Welcome to the Acme docs", intro.Description)
	require.Equal(t, "house", intro.Icon)
	require.Equal(t, "![Logo](.gitbook/assets/logo.png)\n\n{% hint style=\"info\" %}\nAcme is **fast**.\n{% endhint %}", intro.Markdown)
	require.Equal(t, "pg_new1", intro.ID)
	require.Equal(t, testNow, intro.CreatedAt)

	started := res.Pages[1]
	require.Equal(t, "Start here.", started.Page.Markdown, "CRLF is read as LF")
	install := started.Children[0].Page
	require.True(t, install.Hidden)
	require.Equal(t, "![Screen](.gitbook/assets/screen%20shot.png)\n\n```bash\n# not a title\nnpm install acme\n```", install.Markdown,
		"the reference is written from the root, as Bindery's editor writes it")
	require.Equal(t, "Set `ACME=1` before you start.", started.Children[1].Page.Markdown)
	require.False(t, started.Children[1].Page.Hidden)

	endpoints := res.Pages[3].Children[0].Children[0].Page
	require.Equal(t, "1f680", endpoints.Emoji)
	require.Equal(t, "Every endpoint", endpoints.Description)
	require.Equal(t, &content.Ref{Kind: "url", URL: "https://example.com/changelog"}, res.Pages[3].Children[1].Page.Target)
	require.Equal(t, &content.Ref{Kind: "url", URL: "https://forum.example.com"}, res.Pages[4].Children[0].Page.Target)

	require.Len(t, res.Files, 2)
	logo, shot := res.Files[0], res.Files[1]
	require.Equal(t, content.File{ID: "fil_new1", Name: "logo.png", ContentType: "image/png", Size: int64(len(logo.Data)), Width: 3, Height: 2}, logo.File)
	require.Equal(t, "screen shot.png", shot.File.Name)
	require.Equal(t, "image/png", shot.File.ContentType, "by extension, though the bytes are no image")
	require.Zero(t, shot.File.Width)

	require.Equal(t, []string{".gitbook/assets/logo.png", ".gitbook/assets/screen shot.png", "README.md", "SUMMARY.md", "faq.md",
		"getting-started/README.md", "getting-started/configure app.md", "getting-started/install.md",
		"reference/api.md", "reference/api/endpoints.md"}, res.Sources, "what an export over it replaces: not unlisted.md")
}

// TestImportAgain: importing what was imported, with it as prev, keeps every
// page and file as it was; a changed file changes only its page.
func TestImportAgain(t *testing.T) {
	files := readDir(t, "testdata/repo")
	first, err := Import(files, nil, ids(), testNow)
	require.NoError(t, err)
	prev := &content.Content{Pages: first.Pages}
	for _, a := range first.Files {
		f := a.File
		prev.Files = append(prev.Files, &f)
	}
	later := testNow.Add(time.Hour)

	again, err := Import(files, prev, ids(), later)
	require.NoError(t, err)
	require.Equal(t, first.Pages, again.Pages)
	require.Equal(t, first.Files, again.Files)

	files["faq.md"] = []byte("# FAQ\n\nAsk us anything.\n")
	files["new.md"] = []byte("# New\n")
	files["SUMMARY.md"] = append(files["SUMMARY.md"], []byte("* [New](new.md)\n")...)
	changed, err := Import(files, prev, ids(), later)
	require.NoError(t, err)
	var updated []string
	(&content.Content{Pages: changed.Pages}).Walk(func(n, _ *content.Node, p string) {
		if n.Page.UpdatedAt.Equal(later) {
			updated = append(updated, p+" "+n.Page.ID)
		}
	})
	require.Equal(t, []string{"faq " + first.Pages[2].Page.ID, "community/new pg_new1"}, updated)
}

// TestImportKeepsWhatFilesCannotHold: the layout has no place for a page's
// layout, cover or noIndex flags, nor for a group's or link's emoji: an
// import keeps them from prev rather than clearing them on every sync.
func TestImportKeepsWhatFilesCannotHold(t *testing.T) {
	intro := doc("pg_1", "Intro", "intro", "Hello.")
	intro.Page.NoIndex = true
	intro.Page.Layout = &content.Layout{Width: enum.LayoutWidthWide}
	g := group("pg_2", "Guides", "guides", doc("pg_3", "One", "one", "x"))
	g.Page.Emoji = "📚"
	prev := &content.Content{Pages: []*content.Node{intro, g}}
	files, err := Export(prev, blobs(nil))
	require.NoError(t, err)
	res, err := Import(files, prev, ids(), testNow)
	require.NoError(t, err)
	require.Equal(t, prev.Pages, res.Pages)
}

// TestImportKeepsMovedPages: a page whose file moved unchanged (renamed,
// or to another folder) keeps its ID; one moved and edited at once, and
// copies that cannot be told apart, are new pages; a page at its own path
// keeps its ID even when a copy of it comes first.
func TestImportKeepsMovedPages(t *testing.T) {
	files := readDir(t, "testdata/repo")
	first, err := Import(files, nil, ids(), testNow)
	require.NoError(t, err)
	prev := &content.Content{Pages: first.Pages}
	idOf := func(pages []*content.Node, path string) string {
		var id string
		(&content.Content{Pages: pages}).Walk(func(n, _ *content.Node, p string) {
			if p == path {
				id = n.Page.ID
			}
		})
		require.NotEmpty(t, id, path)
		return id
	}
	endpoints, faq := idOf(first.Pages, "reference/api/endpoints"), idOf(first.Pages, "faq")
	api, configure := idOf(first.Pages, "reference/api"), idOf(first.Pages, "getting-started/configure-app")

	moved := map[string][]byte{}
	for k, v := range files {
		moved[k] = v
	}
	rename := func(from, to string) {
		moved[to] = moved[from]
		delete(moved, from)
	}
	rename("reference/api/endpoints.md", "endpoints.md")
	rename("faq.md", "questions.md")
	moved["questions.md"] = append(append([]byte{}, moved["questions.md"]...), "\nEdited.\n"...)
	moved["api-copy.md"] = moved["reference/api.md"]
	moved["configure-b.md"] = moved["getting-started/configure app.md"]
	rename("getting-started/configure app.md", "configure-a.md")
	moved["SUMMARY.md"] = []byte(`# Table of contents

* [Introduction](README.md)
* [Endpoints, moved](endpoints.md)
* [Questions](questions.md)
* [API copy](api-copy.md)
* [Configure A](configure-a.md)
* [Configure B](configure-b.md)

## Reference

* [API](reference/api.md)
`)
	n := 0
	again, err := Import(moved, prev, func(prefix string) string { n++; return fmt.Sprintf("%s_again%d", prefix, n) }, testNow.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, endpoints, idOf(again.Pages, "endpoints"), "moved unchanged")
	require.NotEqual(t, faq, idOf(again.Pages, "questions"), "moved and edited")
	require.Equal(t, api, idOf(again.Pages, "reference/api"), "at its own path")
	require.NotEqual(t, api, idOf(again.Pages, "api-copy"))
	require.NotEqual(t, configure, idOf(again.Pages, "configure-a"), "look-alike copies")
	require.NotEqual(t, configure, idOf(again.Pages, "configure-b"))
}

// TestSourcesIsImports checks that Sources, which reads no page, names the
// files Import reads as the space's.
func TestSourcesIsImports(t *testing.T) {
	rooted := map[string][]byte{".gitbook.yaml": []byte("root: ./docs/\n"), "docs/README.md": []byte("# Home\n"),
		"docs/guide/README.md": []byte("# Guide\n"), "docs/guide/a.md": []byte("# A\n"),
		"docs/.gitbook/assets/x.png": []byte("png"), "docs/.gitbook/assets/deep/y.png": []byte("png"),
		"CHANGELOG.md": []byte("# Changes\n"), "main.go": []byte("package main\n")}
	for name, files := range map[string]map[string][]byte{
		"repo":                  readDir(t, "testdata/repo"),
		"golden":                readDir(t, "testdata/golden"),
		"a root, no SUMMARY.md": rooted,
	} {
		res, err := Import(files, nil, ids(), testNow)
		require.NoError(t, err)
		require.NotEmpty(t, res.Sources)
		require.Equal(t, res.Sources, Sources(files), name)
	}
	none := map[string][]byte{"main.go": []byte("package main\n"), ".gitbook/assets/x.png": []byte("png")}
	_, err := Import(none, nil, ids(), testNow)
	require.ErrorIs(t, err, ErrNoPages)
	require.Nil(t, Sources(none), "no page, so nothing is the space's")
}
