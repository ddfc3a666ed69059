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
