package render

import (
	"encoding/json"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/document"
)

// TestDeterministic renders documents with maps (table records and
// definitions, whose order Go randomises) many times: the bytes must not
// change.
func TestDeterministic(t *testing.T) {
	for _, path := range []string{"testdata/table-types.json", "testdata/table.md", "testdata/inlines.json"} {
		d := load(t, path)
		first := Document(d, siteOptions())
		for range 50 {
			again := Document(d, siteOptions())
			require.Equal(t, first.HTML, again.HTML, path)
			require.Equal(t, first.Headings, again.Headings, path)
		}
	}
}

func TestEmpty(t *testing.T) {
	assert.Equal(t, Result{}, Document(nil, Options{}))
	assert.Equal(t, Result{}, Document(doc(), Options{}))
	assert.Equal(t, Result{}, Document(doc(nil, para(""), blk("paragraph", nil)), Options{}),
		"empty paragraphs are spacing, not content")
}

// TestMalformed feeds data of the wrong types where the renderer reads
// data: it must still write valid HTML, as if the data were absent.
func TestMalformed(t *testing.T) {
	bad := map[string]any{
		"start": "3", "checked": "yes", "syntax": 42, "title": []any{1}, "style": map[string]any{},
		"ref": "https://example.com", "url": 7, "alt": false, "formula": nil, "code": 1.5,
		"view": "grid", "definition": []any{}, "records": map[string]any{"r": "x"},
		"schemas": "Pet", "label": 3, "align": 9,
	}
	var nodes []*document.Node
	for _, typ := range []string{
		"paragraph", "heading-1", "code", "list-ordered", "list-tasks", "table", "images", "image",
		"hint", "tabs", "expandable", "embed", "file", "drawing", "math", "content-ref", "swagger",
		"openapi-schemas", "stepper", "columns", "integration",
	} {
		nodes = append(nodes, blk(typ, bad, blk("list-item", bad, para("x")), txt("y")))
	}
	for _, typ := range []string{"link", "inline-image", "emoji", "inline-math", "mention", "button", "annotation"} {
		nodes = append(nodes, para(inl(typ, bad, txt("z"))))
	}
	out := string(Document(doc(nodes...), siteOptions()).HTML)
	checkHTML(t, out)
}

// FuzzDocument renders JSON documents: whatever they hold, the HTML is
// valid and holds only the renderer's elements, attributes and safe URLs.
// Its seeds are the test documents.
func FuzzDocument(f *testing.F) {
	paths, err := filepath.Glob("testdata/*.json")
	require.NoError(f, err)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var d document.Document
		if json.Unmarshal(b, &d) != nil {
			return
		}
		checkHTML(t, string(Document(&d, permissive).HTML))
	})
}

// TestConcurrent renders from several goroutines at once, as a server
// does: the highlighter's tables are shared and must only be read.
func TestConcurrent(t *testing.T) {
	d := load(t, "testdata/code.md")
	want := Document(d, siteOptions()).HTML
	done := make(chan template.HTML)
	for range 4 {
		go func() { done <- Document(d, siteOptions()).HTML }()
	}
	for range 4 {
		assert.Equal(t, want, <-done)
	}
}

func TestLongCodeIsPlain(t *testing.T) {
	line := "x := 1 // a line of Go\n"
	short := blk("code", map[string]any{"syntax": "go"}, blk("code-line", nil, txt("x := 1")))
	long := blk("code", map[string]any{"syntax": "go"}, blk("code-line", nil, txt(strings.Repeat(line, maxHighlighted/len(line)+1))))
	assert.Contains(t, string(Document(doc(short), Options{}).HTML), `<span class="nx">x</span>`)
	out := string(Document(doc(long), Options{}).HTML)
	assert.NotContains(t, out, "<span")
	assert.Contains(t, out, `<div class="code" data-lang="go"><pre class="chroma" tabindex="0"><code>x := 1 // a line of Go`)
}

// TestHeadingLevelsNeverSkip: the highest heading of a document is an
// <h2> under the page's <h1>, and no heading is more than one level below
// the one before it.
func TestHeadingLevelsNeverSkip(t *testing.T) {
	for md, want := range map[string][]string{
		"## A\n\n### B\n\n## C\n":     {"h2", "h3", "h2"},
		"# A\n\n### B\n\n## C\n":      {"h2", "h3", "h3"},
		"### A\n\n### B\n":            {"h2", "h2"},
		"# A\n\n## B\n\n### C\n\n# D": {"h2", "h3", "h4", "h2"},
	} {
		doc, err := document.FromMarkdown(md, document.Options{})
		require.NoError(t, err)
		got := regexp.MustCompile(`<(h[1-6])[ >]`).FindAllStringSubmatch(string(Document(doc, Options{}).HTML), -1)
		var tags []string
		for _, m := range got {
			tags = append(tags, m[1])
		}
		assert.Equal(t, want, tags, md)
	}
}

// TestSummary: the first paragraph's text, cut near 160 characters.
func TestSummary(t *testing.T) {
	doc, err := document.FromMarkdown("## Title\n\nThe **first** [paragraph](https://x.example).\n\nThe second.\n", document.Options{})
	require.NoError(t, err)
	assert.Equal(t, "The first paragraph.", Document(doc, Options{}).Summary)
	long, err := document.FromMarkdown(strings.Repeat("word ", 60), document.Options{})
	require.NoError(t, err)
	s := Document(long, Options{}).Summary
	assert.True(t, strings.HasSuffix(s, "word…"), s)
	assert.LessOrEqual(t, len([]rune(s)), 161)
	assert.Empty(t, Document(nil, Options{}).Summary)
}
