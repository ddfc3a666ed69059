package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/bindery/bindery/internal/document"
)

// evil is markup that would run script if it reached the page as HTML.
const evil = `"><svg onload=alert(1)><script>alert(2)</script>'`

// unsafeURLs would run script or open something other than a web page.
var unsafeURLs = []string{
	"javascript:alert(1)", "JaVaScRiPt:alert(1)", " \tjavascript:alert(1)", "java\nscript:alert(1)",
	"\x01javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)",
	"file:///etc/passwd", `javascript:alert("` + evil + `")`,
}

// attackDocument puts evil and unsafe URLs wherever a document can hold
// them: texts, data, titles, languages, references.
func attackDocument() *document.Document {
	var links []any
	for _, u := range unsafeURLs {
		links = append(links, link(u, "link"), " ")
		links = append(links, inl("inline-image", map[string]any{"ref": urlRef(u), "alt": evil}))
	}
	var blocks []*document.Node
	for _, u := range unsafeURLs {
		blocks = append(blocks,
			blk("embed", map[string]any{"url": u}),
			blk("content-ref", map[string]any{"ref": urlRef(u)}),
			blk("swagger", map[string]any{"ref": urlRef(u), "method": evil, "path": evil}),
			blk("images", nil, withFragments(blk("image", map[string]any{"ref": urlRef(u), "alt": evil}),
				frag("caption", para(evil)))),
		)
	}
	return doc(append([]*document.Node{
		blk("heading-1", nil, txt(evil)),
		para(evil, txt(evil, "bold", "code"), link("https://example.com/"+evil, evil)),
		para(links...),
		para(inl("emoji", map[string]any{"code": evil}), inl("emoji", map[string]any{"code": "3c-73-63"}),
			inl("inline-math", map[string]any{"formula": evil}),
			inl("button", map[string]any{"label": evil, "kind": evil, "ref": urlRef("javascript:alert(1)")}),
			inl("mention", map[string]any{"ref": urlRef("javascript:alert(1)")}),
			inl(evil, map[string]any{evil: evil}, txt(evil))),
		blk("code", map[string]any{"syntax": evil, "title": evil}, blk("code-line", nil, txt(evil))),
		blk("code", map[string]any{"syntax": "html"}, blk("code-line", nil, txt(evil))),
		blk("hint", map[string]any{"style": evil}, para(evil)),
		blk("tabs", nil, blk("tabs-item", map[string]any{"title": evil}, para(evil))),
		withFragments(blk("expandable", nil), frag("expandable-title", para(evil)), frag("expandable-body", para(evil))),
		blk("list-ordered", map[string]any{"start": evil}, blk("list-item", map[string]any{"checked": evil}, para(evil))),
		blk("math", map[string]any{"formula": evil}),
		withFragments(blk("table", map[string]any{
			"view": map[string]any{"columns": []any{"c1", "c2"}},
			"definition": map[string]any{
				"c1": map[string]any{"title": evil, "type": "text", "textAlignment": evil},
				"c2": map[string]any{"title": evil, "type": "select", "options": []any{map[string]any{"value": "v", "label": evil}}},
			},
			"records": map[string]any{"r1": map[string]any{"orderIndex": "a0", "values": map[string]any{"c1": "f1", "c2": []any{"v", evil}}}},
		}), frag("f1", para(evil))),
		blk(evil, map[string]any{evil: evil}, para(evil)),
	}, blocks...)...)
}

// permissive resolves every reference to what it says, as a careless
// resolver would: the renderer's checks must hold on their own.
var permissive = Options{
	Link:  func(ref Ref) (string, bool) { return ref.URL, true },
	Image: func(ref Ref) (Image, bool) { return Image{Src: ref.URL}, true },
}

func TestAttackDocument(t *testing.T) {
	out := string(Document(attackDocument(), permissive).HTML)
	checkHTML(t, out)
	lower := strings.ToLower(out)
	for _, bad := range []string{"<script", "<svg", "javascript:", "vbscript:", "data:", "file:"} {
		if strings.Contains(bad, ":") {
			assertNoAttrValue(t, out, bad)
			continue
		}
		assert.NotContains(t, lower, bad)
	}
	assertNoEventHandlers(t, out)
	// The text is all there, as text.
	assert.Contains(t, out, `&#34;&gt;&lt;svg onload=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;'`)
}

// TestUnsafeOptions checks that hrefs and sources from Options pass the
// same check as the document's.
func TestUnsafeOptions(t *testing.T) {
	d := doc(
		para(inl("link", map[string]any{"ref": map[string]any{"kind": "page", "page": "p1"}}, txt("to a page")),
			" ", inl("inline-image", map[string]any{"ref": map[string]any{"kind": "file", "file": "f1"}, "alt": "an image"})),
		blk("file", map[string]any{"ref": map[string]any{"kind": "file", "file": "f1"}}),
	)
	for _, u := range unsafeURLs {
		opt := Options{
			Link:  func(Ref) (string, bool) { return u, true },
			Image: func(Ref) (Image, bool) { return Image{Src: u, Width: 10, Height: 10}, true },
		}
		out := string(Document(d, opt).HTML)
		checkHTML(t, out)
		assert.Equal(t, "<p>to a page an image</p>\n", out, u)
	}
	opt := Options{Image: func(Ref) (Image, bool) { return Image{Src: "data:image/png;base64,AAAA"}, true }}
	assert.Equal(t, "<p>to a page an image</p>\n", string(Document(d, opt).HTML))
}

func TestNilOptions(t *testing.T) {
	d := load(t, "testdata/paragraphs.md")
	out := string(Document(d, Options{}).HTML)
	checkHTML(t, out)
	assert.NotContains(t, out, "<a ")
	assert.NotContains(t, out, "<img ")
	assert.Contains(t, out, "An inline image the logo and a remote one remote")
}

func TestMarkdownHTMLIsText(t *testing.T) {
	d, err := document.FromMarkdown("Inline <script>alert(1)</script> and <img src=x onerror=alert(1)>.\n\n"+
		"<script>alert(2)</script>\n\n[x](<javascript:alert(3)>) ![y](javascript:alert(4))\n", document.Options{})
	require.NoError(t, err)
	out := string(Document(d, permissive).HTML)
	checkHTML(t, out)
	assertNoEventHandlers(t, out)
	assert.NotContains(t, out, "<script")
	assertNoAttrValue(t, out, "javascript:")
}

// assertNoEventHandlers fails t if any element of s has an on… attribute.
func assertNoEventHandlers(t *testing.T, s string) {
	t.Helper()
	eachAttr(t, s, func(el string, a html.Attribute) {
		assert.False(t, strings.HasPrefix(strings.ToLower(a.Key), "on"), "<%s %s=%q>", el, a.Key, a.Val)
	})
}

// assertNoAttrValue fails t if an attribute of s holds bad.
func assertNoAttrValue(t *testing.T, s, bad string) {
	t.Helper()
	eachAttr(t, s, func(el string, a html.Attribute) {
		v := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
		assert.NotContains(t, v, bad, "<%s %s=%q>", el, a.Key, a.Val)
	})
}

func eachAttr(t *testing.T, s string, f func(el string, a html.Attribute)) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				f(tok.Data, a)
			}
		}
	}
}
