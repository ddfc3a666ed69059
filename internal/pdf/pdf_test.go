package pdf

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run is a string the PDF shows, with where it starts (in points, from the
// bottom left corner of its sheet).
type run struct {
	x, y float64
	text string
}

var textOp = regexp.MustCompile(`BT ([\d.]+) ([\d.]+) Td \(((?:\\.|[^\\)])*)\) ?Tj ET`)

// runs returns the text runs of an uncompressed PDF, in drawing order.
func runs(t *testing.T, pdf []byte) []run {
	t.Helper()
	var out []run
	for _, m := range textOp.FindAllSubmatch(pdf, -1) {
		x, err := strconv.ParseFloat(string(m[1]), 64)
		require.NoError(t, err)
		y, err := strconv.ParseFloat(string(m[2]), 64)
		require.NoError(t, err)
		s := strings.NewReplacer(`\(`, "(", `\)`, ")", `\\`, `\`).Replace(string(m[3]))
		out = append(out, run{x: x, y: y, text: s})
	}
	return out
}

// find returns the first run containing s.
func find(t *testing.T, rs []run, s string) run {
	t.Helper()
	for _, r := range rs {
		if strings.Contains(r.text, s) {
			return r
		}
	}
	t.Fatalf("no text %q in the PDF", s)
	return run{}
}

var sheetObject = regexp.MustCompile(`/Type /Page\b[^s]`)

func renderPlain(t *testing.T, title string, pages []Page) ([]byte, int) {
	t.Helper()
	var buf bytes.Buffer
	n, err := render(&buf, title, pages, false)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")), "not a PDF")
	require.True(t, bytes.HasSuffix(bytes.TrimSpace(buf.Bytes()), []byte("%%EOF")), "truncated PDF")
	assert.Len(t, sheetObject.FindAll(buf.Bytes(), -1), n, "sheet objects and sheet count differ")
	return buf.Bytes(), n
}

const guide = `Bindery is **self-hosted**, *simple* and ` + "`fast`" + `. Read [the site](https://example.com/docs) or ~~not~~.

## Install

- Download
- Configure
  - Nested item
1. First step
2. Second step

` + "```sh\n./bindery serve --port 8080\n```" + `

> Quoted wisdom.

![Architecture diagram](.gitbook/assets/diagram.png)

---

| Flag | Meaning |
|------|---------|
| -p   | Port number |
`

func TestRenderDrawsMarkdown(t *testing.T) {
	pdf, n := renderPlain(t, "Bindery handbook", []Page{{Title: "Getting started", Markdown: guide}})
	assert.Equal(t, 1, n)
	rs := runs(t, pdf)

	for _, s := range []string{
		"Bindery handbook", "Getting started", "Install", "self-hosted", "simple", "fast", "the site",
		"Download", "Nested item", "1.", "Second step", "./bindery serve --port 8080", "Quoted wisdom.",
		"[image: Architecture diagram]", "Flag", "Meaning", "Port number", "1 / 1",
	} {
		find(t, rs, s)
	}

	// Fonts follow the markdown's formats.
	for _, font := range []string{"/Helvetica-Bold", "/Helvetica-Oblique", "/Courier"} {
		assert.Contains(t, string(pdf), "/BaseFont "+font)
	}
	// The link is clickable.
	assert.Contains(t, string(pdf), "/URI (https://example.com/docs)")

	// Nesting indents: a nested item and a quote start right of the margin.
	left := find(t, rs, "Download").x
	assert.Greater(t, find(t, rs, "Nested item").x, left)
	assert.Greater(t, find(t, rs, "Quoted wisdom.").x, find(t, rs, "Bindery is").x)
	// Blocks flow down the sheet in order.
	assert.Greater(t, find(t, rs, "Install").y, find(t, rs, "Download").y)
	assert.Greater(t, find(t, rs, "Second step").y, find(t, rs, "./bindery serve").y)
	// Table cells sit side by side, rows one below the other.
	flag, meaning := find(t, rs, "Flag"), find(t, rs, "Meaning")
	assert.Equal(t, flag.y, meaning.y)
	assert.Greater(t, meaning.x, flag.x)
	assert.Greater(t, flag.y, find(t, rs, "Port number").y)
}

func TestRenderStartsEachPageOnANewSheet(t *testing.T) {
	pdf, n := renderPlain(t, "Handbook", []Page{
		{Title: "One", Markdown: "first"},
		{Title: "Two", Depth: 1, Markdown: "second"},
		// Depth jumps are clamped in the outline.
		{Title: "Three", Depth: 3, Markdown: "third"},
	})
	assert.Equal(t, 3, n)
	rs := runs(t, pdf)
	assert.Contains(t, find(t, rs, "3 / 3").text, "3 / 3")
	// Page titles are bookmarks of the outline.
	for _, title := range []string{"One", "Two", "Three"} {
		assert.Contains(t, string(pdf), "/Title ("+title+")")
	}
	// From the second sheet on, the header names the document.
	assert.GreaterOrEqual(t, strings.Count(string(pdf), "(Handbook)"), 3)
}

func TestRenderLongPageSpansSheets(t *testing.T) {
	var md strings.Builder
	for i := range 400 {
		md.WriteString("Paragraph number " + strconv.Itoa(i) + " of a long page that has to continue over many sheets.\n\n")
	}
	pdf, n := renderPlain(t, "Long", []Page{{Title: "Long page", Markdown: md.String()}})
	// Each paragraph takes two lines at most and a sheet holds fewer than
	// 40 paragraphs, so 400 paragraphs need at least ten sheets.
	assert.GreaterOrEqual(t, n, 10)
	assert.Less(t, n, 40)
	rs := runs(t, pdf)
	find(t, rs, "Paragraph number 399")
	find(t, rs, strconv.Itoa(n)+" / "+strconv.Itoa(n))
}

func TestRenderWithoutPages(t *testing.T) {
	pdf, n := renderPlain(t, "Empty space", nil)
	assert.Equal(t, 1, n)
	find(t, runs(t, pdf), "Empty space")
}

func TestRenderNonLatinText(t *testing.T) {
	pdf, n := renderPlain(t, "Тест 日本", []Page{{
		Title:    "Ünïcödé – “quotes” €",
		Markdown: "Привет, 世界! 😀 café\x01\n\n```\n日本語\tcode\n```\n\n- 🚀 launch",
	}})
	assert.Equal(t, 1, n)
	rs := runs(t, pdf)
	// Windows-1252 characters are kept, others become '?'.
	find(t, rs, "\xdcn\xefc\xf6d\xe9 \x96 \x93quotes\x94 \x80")
	find(t, rs, "??????, ??")
	find(t, rs, "? caf\xe9")
	find(t, rs, "???    code")
	find(t, rs, "? launch")
	find(t, rs, "???? ??")
}

func TestRenderCompresses(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, "Compressed", []Page{{Title: "A page", Markdown: guide}}))
	assert.True(t, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")))
	assert.Contains(t, buf.String(), "/FlateDecode")
	assert.NotContains(t, buf.String(), "(Quoted wisdom.)")
}

func TestRenderDeepNesting(t *testing.T) {
	long := strings.Repeat("x", 300)
	md := strings.Repeat("> ", 60) + long + "\n\n" + strings.Repeat("> ", 60) + "```\n" + long + "\n```\n"
	for i := range 40 {
		md += strings.Repeat("  ", i) + "- " + long + "\n"
	}
	pdf, _ := renderPlain(t, "Deep", []Page{{Title: "Deep", Markdown: md}})
	rs := runs(t, pdf)
	w := 595.28 // A4 width in points
	for _, r := range rs {
		// Cells pad their text by 1 mm (2.83 pt).
		assert.Less(t, r.x, w/2+3, "text starts right of the middle: %q", r.text)
	}
}

// A table cell shows what a paragraph would, unformatted: an autolink's
// text, an image's description, and a line break tag's break.
func TestRenderTableCellsShowTheirInlines(t *testing.T) {
	md := "| Where | What |\n|---|---|\n| <https://example.com/flags> | ![the logo](logo.png) first<br>second |\n"
	pdf, _ := renderPlain(t, "Cells", []Page{{Title: "Table", Markdown: md}})
	rs := runs(t, pdf)
	find(t, rs, "https://example.com/flags")
	assert.Greater(t, find(t, rs, "the logo first").y, find(t, rs, "second").y, "the break starts a line")
}
