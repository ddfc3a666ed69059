package render

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/document"
)

var update = flag.Bool("update", false, "rewrite testdata/*.html from the renderer's output")

// files are the revision's files the test documents refer to, by name.
var files = map[string]struct {
	id            string
	width, height int
}{
	"diagram.png":    {"file-diagram", 640, 480},
	"whitepaper.pdf": {"file-paper", 0, 0},
	"logo.svg":       {"file-logo", 0, 0},
}

// pages are the site's pages the test documents link to, by ID.
var pages = map[string]string{"page-setup": "/docs/guide/setup", "page-api": "/docs/api"}

// markdownOptions resolve markdown's ".gitbook/assets/<name>" to files and
// "setup.md" to a page, as a revision would.
var markdownOptions = document.Options{
	File: func(src string) (string, bool) {
		name, ok := document.AssetName(src)
		if !ok {
			return "", false
		}
		f, ok := files[name]
		return f.id, ok
	},
	Page: func(href string) (string, bool) {
		switch href {
		case "setup.md", "guide/setup.md":
			return "page-setup", true
		case "api.md":
			return "page-api", true
		}
		return "", false
	},
}

// siteOptions resolve references as the published site would.
func siteOptions() Options {
	fileByID := func(id string) (name string, width, height int, ok bool) {
		for name, f := range files {
			if f.id == id {
				return name, f.width, f.height, true
			}
		}
		return "", 0, 0, false
	}
	return Options{
		Link: func(ref Ref) (string, bool) {
			switch ref.Kind {
			case "url":
				return ref.URL, ref.URL != ""
			case "page":
				p, ok := pages[ref.Page]
				return p, ok
			case "anchor":
				if ref.Page == "" {
					return "#" + ref.Anchor, true
				}
				p, ok := pages[ref.Page]
				return p + "#" + ref.Anchor, ok
			case "file":
				name, _, _, ok := fileByID(ref.File)
				return "/files/" + ref.File + "/" + name, ok
			}
			return "", false
		},
		Image: func(ref Ref) (Image, bool) {
			switch ref.Kind {
			case "url":
				return Image{Src: ref.URL}, ref.URL != ""
			case "file":
				name, w, h, ok := fileByID(ref.File)
				return Image{Src: "/files/" + ref.File + "/" + name, Width: w, Height: h}, ok
			}
			return Image{}, false
		},
	}
}

// load reads a test document: markdown (name.md) through FromMarkdown, or
// a GitBook JSON document (name.json) for what markdown cannot write.
func load(t testing.TB, path string) *document.Document {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(path, ".md") {
		doc, err := document.FromMarkdown(string(src), markdownOptions)
		require.NoError(t, err)
		return doc
	}
	var doc document.Document
	require.NoError(t, json.Unmarshal(src, &doc), path)
	return &doc
}

// TestGolden renders each testdata document and compares the HTML with
// the golden file beside it; -update rewrites the golden files.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.md")
	require.NoError(t, err)
	more, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	paths = append(paths, more...)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		name := strings.TrimSuffix(path, filepath.Ext(path))
		t.Run(filepath.Base(name), func(t *testing.T) {
			got := string(Document(load(t, path), siteOptions()).HTML)
			checkHTML(t, got)
			golden := name + ".html"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./internal/render -update to write it")
			assert.Equal(t, string(want), got)
		})
	}
}
