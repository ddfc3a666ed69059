package gitbook

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
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
