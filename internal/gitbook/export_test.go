package gitbook

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/content/contenttest"
)

// TestExportGolden: the files a small space exports are what a person would
// write by hand in GitBook's layout (testdata/golden).
func TestExportGolden(t *testing.T) {
	setup := doc("pg_setup", "Setup", "setup", "![Diagram](.gitbook/assets/diagram.png)\n\nSee [the intro](../README.md).")
	setup.Page.Description, setup.Page.Icon, setup.Page.Hidden = "How to set up", "rocket", true
	c := &content.Content{
		Pages: []*content.Node{
			doc("pg_intro", "Introduction", "introduction", "Welcome to the docs."),
			doc("pg_guide", "Guide", "guide", "Read this first.\n", setup),
			group("pg_ref", "Reference", "reference",
				link("pg_web", "Website", "website", content.Ref{Kind: "url", URL: "https://example.com"})),
		},
		Files: []*content.File{{ID: "fil_1", Name: "diagram.png", Blob: "h1"}},
	}
	got, err := Export(c, blobs(map[string][]byte{"h1": []byte("not really a png")}))
	require.NoError(t, err)
	want := readDir(t, "testdata/golden")
	for p := range want {
		require.Equal(t, string(want[p]), string(got[p]), p)
	}
	require.Len(t, got, len(want))
}

func TestPagePath(t *testing.T) {
	leaf := doc("pg_leaf", "Leaf", "leaf", "")
	parent := doc("pg_parent", "Parent", "parent", "", leaf)
	inGroup := doc("pg_in", "In", "in", "")
	web := link("pg_web", "Web", "web", content.Ref{Kind: "url", URL: "https://example.com"})
	first := doc("pg_first", "First", "first", "", doc("pg_child", "Child", "child", ""))
	c := &content.Content{Pages: []*content.Node{first, parent, group("pg_g", "G", "g", inGroup, web)}}
	got := map[string]string{}
	c.Walk(func(n, _ *content.Node, p string) { got[n.Page.ID] = PagePath(c, n, p) })
	require.Equal(t, map[string]string{
		"pg_first": "README.md", "pg_child": "first/child.md",
		"pg_parent": "parent/README.md", "pg_leaf": "parent/leaf.md",
		"pg_g": "", "pg_in": "g/in.md", "pg_web": "",
	}, got)
}

// TestExportRefusesPathsOutside: a slug that is a path segment of its own
// ("..", a folder when the page has children) would write outside the
// project directory.
func TestExportRefusesPathsOutside(t *testing.T) {
	up := doc("pg_2", "Up", "..", "", doc("pg_3", "Child", "child", ""))
	c := &content.Content{Pages: []*content.Node{doc("pg_1", "A", "a", ""), up}}
	_, err := Export(c, blobs(nil))
	require.ErrorContains(t, err, `its path ".." cannot be a file's`)
}

// TestExportDuplicateFileNames: a second file of a name gets a numbered
// one rather than overwriting the first.
func TestExportDuplicateFileNames(t *testing.T) {
	c := &content.Content{
		Pages: []*content.Node{doc("pg_1", "A", "a", "")},
		Files: []*content.File{{ID: "fil_1", Name: "x.png", Blob: "h1"}, {ID: "fil_2", Name: "x.png", Blob: "h2"}},
	}
	got, err := Export(c, blobs(map[string][]byte{"h1": []byte("one"), "h2": []byte("two")}))
	require.NoError(t, err)
	require.Equal(t, "one", string(got[".gitbook/assets/x.png"]))
	require.Equal(t, "two", string(got[".gitbook/assets/x-2.png"]))
}

// TestExportEditsIsExport edits pages of an exported space and checks that
// the files ExportEdits writes over the exported ones are what Export
// writes, and which moves it leaves to Export.
func TestExportEditsIsExport(t *testing.T) {
	ctx := context.Background()
	store := contenttest.Store{}
	res, err := Import(readDir(t, "testdata/repo"), nil, ids(), testNow)
	require.NoError(t, err)
	was, _, err := content.Save(ctx, store, &content.Content{Pages: res.Pages}, nil)
	require.NoError(t, err)
	branch, err := Export(was.Content, blobs(nil))
	require.NoError(t, err)
	read := func(files map[string][]byte) func(string) ([]byte, bool) {
		return func(p string) ([]byte, bool) { b, ok := files[p]; return b, ok }
	}
	edit := func(change func(c *content.Content)) *content.Loaded {
		c := was.Fork()
		change(c)
		now, _, err := content.Save(ctx, store, c, was)
		require.NoError(t, err)
		return now
	}
	page := func(c *content.Content, path string) *content.Page {
		n, err := c.ByPath(path)
		require.NoError(t, err)
		n, _, err = c.Edit(n.Page.ID)
		require.NoError(t, err)
		return n.Page
	}

	now := edit(func(c *content.Content) {
		page(c, "faq").Markdown = "Ask, and be answered."
		p := page(c, "getting-started/install")
		p.Description, p.Hidden = "How to install", true
		page(c, "reference/api").NoIndex = true      // in no file
		page(c, "reference").Emoji = "1f4d6"         // a group's: in no file
		page(c, "acme-docs").Markdown += "\n\nMore." // the first page, README.md
	})
	edits, ok := ExportEdits(was, now, read(branch))
	require.True(t, ok)
	want, err := Export(now.Content, blobs(nil))
	require.NoError(t, err)
	got := maps.Clone(branch)
	maps.Copy(got, edits)
	assert.Equal(t, want, got)
	assert.ElementsMatch(t, []string{"faq.md", "getting-started/install.md", "README.md"}, slices.Collect(maps.Keys(edits)))

	for name, change := range map[string]func(c *content.Content){
		"a page retitled": func(c *content.Content) { page(c, "faq").Title = "Questions" },
		"a page added": func(c *content.Content) {
			require.NoError(t, c.Insert("", -1, doc("new", "New", "new", "New.")))
		},
		"a page removed": func(c *content.Content) {
			n, _ := c.ByPath("faq")
			_, err := c.Remove(n.Page.ID)
			require.NoError(t, err)
		},
		"a file added": func(c *content.Content) {
			c.PutFile(&content.File{ID: "file_x", Name: "x.png", Blob: "h"})
		},
	} {
		_, ok := ExportEdits(was, edit(change), read(branch))
		assert.False(t, ok, name)
	}

	// Under the root .gitbook.yaml names.
	rooted := map[string][]byte{".gitbook.yaml": []byte("root: ./docs/\n")}
	for p, b := range branch {
		rooted["docs/"+p] = b
	}
	placed, ok := ExportEdits(was, now, read(rooted))
	require.True(t, ok)
	assert.ElementsMatch(t, []string{"docs/faq.md", "docs/getting-started/install.md", "docs/README.md"}, slices.Collect(maps.Keys(placed)))
	assert.Equal(t, edits["faq.md"], placed["docs/faq.md"])

	// A branch whose file of a changed page is not Export's: Export would
	// rewrite it.
	handmade := maps.Clone(branch)
	handmade["faq.md"] = []byte("# FAQ\n\nAsk away.   \n")
	_, ok = ExportEdits(was, now, read(handmade))
	assert.False(t, ok)
}
