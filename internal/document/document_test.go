package document

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The helpers below write expected documents as JSON, node by node.

func doc(nodes ...string) string {
	return `{"object":"document","data":{},"nodes":[` + strings.Join(nodes, ",") + `]}`
}

func blk(typ, data string, nodes ...string) string {
	s := `{"object":"block","type":"` + typ + `","isVoid":false,"nodes":[` + strings.Join(nodes, ",") + `]`
	if data != "" {
		s += `,"data":` + data
	}
	return s + "}"
}

func para(nodes ...string) string { return blk("paragraph", "", nodes...) }

func txt(leaves ...string) string {
	return `{"object":"text","leaves":[` + strings.Join(leaves, ",") + `]}`
}

// leaf is a leaf of text with marks.
func leaf(text string, marks ...string) string {
	var ms []string
	for _, m := range marks {
		ms = append(ms, `{"object":"mark","type":"`+m+`"}`)
	}
	t, _ := json.Marshal(text)
	return `{"object":"leaf","text":` + string(t) + `,"marks":[` + strings.Join(ms, ",") + `]}`
}

// plain is a text node of one unformatted leaf.
func plain(text string) string { return txt(leaf(text)) }

func inline(typ, data string, nodes ...string) string {
	return `{"object":"inline","type":"` + typ + `","isVoid":false,"data":` + data + `,"nodes":[` + strings.Join(nodes, ",") + `]}`
}

func inlineImage(data string) string {
	return `{"object":"inline","type":"inline-image","isVoid":true,"data":` + data + `}`
}

func image(data string) string {
	return `{"object":"block","type":"image","isVoid":true,"data":` + data + `,"fragments":[]}`
}

func codeBlock(data string, lines ...string) string {
	var ls []string
	for _, l := range lines {
		ls = append(ls, blk("code-line", "{}", plain(l)))
	}
	return blk("code", data, ls...)
}

const divider = `{"object":"block","type":"divider","isVoid":true,"data":{}}`

// files resolves the revision's two files by name.
func files(src string) (string, bool) {
	id, ok := map[string]string{
		".gitbook/assets/diagram.png":    "file-diagram",
		".gitbook/assets/my diagram.png": "file-spaced",
		".gitbook/assets/whitepaper.pdf": "file-paper",
	}[src]
	return id, ok
}

// pages resolves links to the revision's one other page.
func pages(href string) (string, bool) {
	if href == "setup.md" || href == "../guide/setup.md" {
		return "page-setup", true
	}
	return "", false
}

type conversion struct {
	name     string
	markdown string
	want     string
}

var conversions = []conversion{
	{"empty", "", doc()},
	{"blank lines only", "\n\n  \n", doc()},
	{"paragraph", "Hello, world.", doc(para(plain("Hello, world.")))},
	{"two paragraphs", "One.\n\nTwo.", doc(para(plain("One.")), para(plain("Two.")))},
	{"soft break is a space", "one\ntwo", doc(para(plain("one two")))},
	{"hard break with spaces", "one  \ntwo", doc(para(plain("one\ntwo")))},
	{"hard break with backslash", "one\\\ntwo", doc(para(plain("one\ntwo")))},
	{"escapes and entities", `\*not emphasis\* &amp; &#35; &copy;`, doc(para(plain("*not emphasis* & # ©")))},

	{"heading 1", "# Title", doc(blk("heading-1", "{}", plain("Title")))},
	{"heading 2", "## Part", doc(blk("heading-2", "{}", plain("Part")))},
	{"heading 3", "### Section", doc(blk("heading-3", "{}", plain("Section")))},
	{"heading 6 is heading 3", "###### Deep", doc(blk("heading-3", "{}", plain("Deep")))},
	{"setext heading", "Title\n=====\n\nPart\n----", doc(blk("heading-1", "{}", plain("Title")), blk("heading-2", "{}", plain("Part")))},
	{"heading with code", "# The `run` command", doc(blk("heading-1", "{}", txt(leaf("The "), leaf("run", "code"), leaf(" command"))))},

	{"italic", "an *important* word", doc(para(txt(leaf("an "), leaf("important", "italic"), leaf(" word"))))},
	{"italic with underscores", "_so_", doc(para(txt(leaf("so", "italic"))))},
	{"bold", "a **strong** claim", doc(para(txt(leaf("a "), leaf("strong", "bold"), leaf(" claim"))))},
	{"bold italic", "***both***", doc(para(txt(leaf("both", "italic", "bold"))))},
	{"nested marks", "**bold *and italic***", doc(para(txt(leaf("bold ", "bold"), leaf("and italic", "bold", "italic"))))},
	{"inline code", "run `go test` now", doc(para(txt(leaf("run "), leaf("go test", "code"), leaf(" now"))))},
	{"inline code keeps markdown", "`*x*`", doc(para(txt(leaf("*x*", "code"))))},
	{"strikethrough", "~~old~~ new", doc(para(txt(leaf("old", "strikethrough"), leaf(" new"))))},
	{"same marks merge", "*a*_b_", doc(para(txt(leaf("ab", "italic"))))},

	{"link to a URL", "see [the docs](https://example.com/docs \"Docs\")", doc(para(
		plain("see "),
		inline("link", `{"ref":{"kind":"url","url":"https://example.com/docs"}}`, plain("the docs")),
		plain(""),
	))},
	{"link with bold text", "[**go**](https://go.dev)", doc(para(
		plain(""),
		inline("link", `{"ref":{"kind":"url","url":"https://go.dev"}}`, txt(leaf("go", "bold"))),
		plain(""),
	))},
	{"reference link", "[docs][d]\n\n[d]: https://example.com", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"url","url":"https://example.com"}}`, plain("docs")), plain(""),
	))},
	{"autolink", "<https://example.com>", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"url","url":"https://example.com"}}`, plain("https://example.com")), plain(""),
	))},
	{"email autolink", "<ada@example.com>", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"url","url":"mailto:ada@example.com"}}`, plain("ada@example.com")), plain(""),
	))},
	{"anchor link", "[below](#usage)", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"anchor","anchor":"usage"}}`, plain("below")), plain(""),
	))},
	{"page link", "[setup](../guide/setup.md)", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"page","page":"page-setup"}}`, plain("setup")), plain(""),
	))},
	{"page link with anchor", "[setup](setup.md#install)", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"anchor","anchor":"install","page":"page-setup"}}`, plain("setup")), plain(""),
	))},
	{"unknown relative link is a URL", "[old](missing.md)", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"url","url":"missing.md"}}`, plain("old")), plain(""),
	))},
	{"file link", "[paper](.gitbook/assets/whitepaper.pdf)", doc(para(
		plain(""), inline("link", `{"ref":{"kind":"file","file":"file-paper"}}`, plain("paper")), plain(""),
	))},
	{"two links", "[a](x)[b](y)", doc(para(
		plain(""),
		inline("link", `{"ref":{"kind":"url","url":"x"}}`, plain("a")),
		plain(""),
		inline("link", `{"ref":{"kind":"url","url":"y"}}`, plain("b")),
		plain(""),
	))},

	{"image of the revision", "![A diagram](.gitbook/assets/diagram.png)", doc(
		`{"object":"block","type":"images","isVoid":false,"data":{},"nodes":[` +
			image(`{"ref":{"kind":"file","file":"file-diagram"},"alt":"A diagram"}`) + `]}`,
	)},
	{"percent-encoded image source", "![](.gitbook/assets/my%20diagram.png)", doc(
		`{"object":"block","type":"images","isVoid":false,"data":{},"nodes":[` +
			image(`{"ref":{"kind":"file","file":"file-spaced"}}`) + `]}`,
	)},
	{"images by URL", "![*one*](https://example.com/1.png)\n![two](https://example.com/2.png)", doc(
		`{"object":"block","type":"images","isVoid":false,"data":{},"nodes":[` +
			image(`{"ref":{"kind":"url","url":"https://example.com/1.png"},"alt":"one"}`) + `,` +
			image(`{"ref":{"kind":"url","url":"https://example.com/2.png"},"alt":"two"}`) + `]}`,
	)},
	{"image in text", "Click ![the icon](icon.png) to start.", doc(para(
		plain("Click "),
		inlineImage(`{"ref":{"kind":"url","url":"icon.png"},"alt":"the icon"}`),
		plain(" to start."),
	))},
	{"linked image", "[![logo](logo.png)](https://example.com)", doc(para(
		plain(""),
		inline("link", `{"ref":{"kind":"url","url":"https://example.com"}}`,
			plain(""), inlineImage(`{"ref":{"kind":"url","url":"logo.png"},"alt":"logo"}`), plain("")),
		plain(""),
	))},

	{"unordered list", "- one\n- two", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain("one"))),
		blk("list-item", "", para(plain("two"))),
	))},
	{"ordered list", "1. one\n2. two", doc(blk("list-ordered", "{}",
		blk("list-item", "", para(plain("one"))),
		blk("list-item", "", para(plain("two"))),
	))},
	{"ordered list with start", "3. three\n4. four", doc(blk("list-ordered", `{"start":3}`,
		blk("list-item", "", para(plain("three"))),
		blk("list-item", "", para(plain("four"))),
	))},
	{"nested lists", "- a\n  1. b\n     - c\n- d", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain("a")), blk("list-ordered", "{}",
			blk("list-item", "", para(plain("b")), blk("list-unordered", "",
				blk("list-item", "", para(plain("c"))),
			)),
		)),
		blk("list-item", "", para(plain("d"))),
	))},
	{"loose list item with two paragraphs", "- one\n\n  more\n- two", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain("one")), para(plain("more"))),
		blk("list-item", "", para(plain("two"))),
	))},
	{"empty list item", "-\n- b", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain(""))),
		blk("list-item", "", para(plain("b"))),
	))},
	{"image in a list item is inline", "- ![shot](shot.png)", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain(""), inlineImage(`{"ref":{"kind":"url","url":"shot.png"},"alt":"shot"}`), plain(""))),
	))},
	{"task list", "- [ ] write\n- [x] test", doc(blk("list-tasks", "",
		blk("list-item", `{"checked":false}`, para(plain("write"))),
		blk("list-item", `{"checked":true}`, para(plain("test"))),
	))},
	{"mixed task list keeps its boxes as text", "- [x] done\n- plain", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain("[x] done"))),
		blk("list-item", "", para(plain("plain"))),
	))},

	{"fenced code with language", "```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```", doc(
		codeBlock(`{"syntax":"go"}`, "func main() {", "\tprintln(\"hi\")", "}"),
	)},
	{"fenced code without language", "~~~\n*not markdown*\n\n~~~", doc(codeBlock("{}", "*not markdown*", ""))},
	{"empty fenced code", "```\n```", doc(codeBlock("{}", ""))},
	{"indented code", "    $ make\n    $ make test", doc(codeBlock("{}", "$ make", "$ make test"))},
	{"code in a list item", "- run:\n\n  ```sh\n  make\n  ```", doc(blk("list-unordered", "",
		blk("list-item", "", para(plain("run:")), codeBlock(`{"syntax":"sh"}`, "make")),
	))},
	{"html block is kept as code", "<div>\nhi\n</div>", doc(codeBlock(`{"syntax":"html"}`, "<div>", "hi", "</div>"))},
	{"inline html tags are dropped", "a <b>bold</b><br>b", doc(para(plain("a bold\nb")))},

	{"block quote", "> Quoted *text*.", doc(blk("blockquote", "", para(txt(leaf("Quoted "), leaf("text", "italic"), leaf(".")))))},
	{"nested quotes", "> a\n>\n> > b", doc(blk("blockquote", "", para(plain("a")), blk("blockquote", "", para(plain("b")))))},
	{"empty quote", ">", doc(blk("blockquote", "", para(plain(""))))},
	{"quote with list and heading", "> # T\n> - x", doc(blk("blockquote", "",
		blk("heading-1", "{}", plain("T")),
		blk("list-unordered", "", blk("list-item", "", para(plain("x")))),
	))},
	{"code in a quote is code-marked text", "> ```\n> a\n> b\n> ```", doc(blk("blockquote", "", para(txt(leaf("a\nb", "code")))))},
	{"code in a list in a quote stays code", "> - x\n>\n>   ```\n>   c\n>   ```", doc(blk("blockquote", "",
		blk("list-unordered", "", blk("list-item", "", para(plain("x")), codeBlock("{}", "c"))),
	))},
	{"image in a quote is inline", "> ![x](x.png)", doc(blk("blockquote", "",
		para(plain(""), inlineImage(`{"ref":{"kind":"url","url":"x.png"},"alt":"x"}`), plain("")),
	))},

	{"thematic break", "a\n\n---\n\nb", doc(para(plain("a")), divider, para(plain("b")))},
	{"thematic break with stars", "***", doc(divider)},

	{"table", "| Name | Size |\n|:-----|-----:|\n| *a* | 1 |\n| b | |", doc(`{"object":"block","type":"table","isVoid":true,"data":{` +
		`"view":{"type":"grid","columns":["c1","c2"],"hideHeader":false},` +
		`"definition":{"c1":{"id":"c1","title":"Name","type":"text","textAlignment":"left"},` +
		`"c2":{"id":"c2","title":"Size","type":"text","textAlignment":"right"}},` +
		`"records":{"r1":{"orderIndex":"a0","values":{"c1":"r1c1","c2":"r1c2"}},` +
		`"r2":{"orderIndex":"a1","values":{"c1":"r2c1","c2":"r2c2"}}}},` +
		`"fragments":[` +
		`{"object":"fragment","fragment":"r1c1","nodes":[` + para(txt(leaf("a", "italic"))) + `]},` +
		`{"object":"fragment","fragment":"r1c2","nodes":[` + para(plain("1")) + `]},` +
		`{"object":"fragment","fragment":"r2c1","nodes":[` + para(plain("b")) + `]},` +
		`{"object":"fragment","fragment":"r2c2","nodes":[` + para(plain("")) + `]}]}`,
	)},
	{"table in a quote is paragraphs", "> | a | b |\n> |---|---|\n> | 1 | 2 |", doc(blk("blockquote", "",
		para(plain("a | b")), para(plain("1 | 2")),
	))},
}

func TestFromMarkdown(t *testing.T) {
	for _, tc := range conversions {
		t.Run(tc.name, func(t *testing.T) {
			d, err := FromMarkdown(tc.markdown, Options{File: files, Page: pages})
			require.NoError(t, err)
			got, err := json.Marshal(d)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

func TestFromMarkdownWithoutResolvers(t *testing.T) {
	d, err := FromMarkdown("[p](setup.md) ![d](.gitbook/assets/diagram.png)", Options{})
	require.NoError(t, err)
	got, err := json.Marshal(d)
	require.NoError(t, err)
	assert.JSONEq(t, doc(para(
		plain(""),
		inline("link", `{"ref":{"kind":"url","url":"setup.md"}}`, plain("p")),
		plain(" "),
		inlineImage(`{"ref":{"kind":"url","url":".gitbook/assets/diagram.png"},"alt":"d"}`),
		plain(""),
	)), string(got))
}

func TestFromMarkdownIsDeterministic(t *testing.T) {
	first, err := FromMarkdown(richSample, Options{File: files, Page: pages})
	require.NoError(t, err)
	want, err := json.Marshal(first)
	require.NoError(t, err)
	for range 20 {
		d, err := FromMarkdown(richSample, Options{File: files, Page: pages})
		require.NoError(t, err)
		got, err := json.Marshal(d)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
}

func TestOrderIndex(t *testing.T) {
	assert.Equal(t, "a0", orderIndex(0))
	assert.Equal(t, "az", orderIndex(61))
	assert.Equal(t, "b00", orderIndex(62))
	assert.Equal(t, "b01", orderIndex(63))
	assert.Equal(t, "bzz", orderIndex(62+62*62-1))
	assert.Equal(t, "c000", orderIndex(62+62*62))
	for i := range 5000 {
		require.Less(t, orderIndex(i), orderIndex(i+1), "index %d", i)
	}
}
