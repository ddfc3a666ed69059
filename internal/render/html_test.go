package render

import (
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// elements and attributes are all that Document may write: names never come
// from a document.
var (
	elements = []string{
		"a", "blockquote", "br", "code", "details", "div", "em", "figcaption", "figure", "h2", "h3", "h4",
		"hr", "img", "kbd", "li", "ol", "p", "pre", "s", "span", "strong", "sub", "summary", "sup",
		"table", "tbody", "td", "th", "thead", "tr", "ul",
	}
	attributes = []string{
		"alt", "aria-hidden", "aria-label", "class", "data-lang", "decoding", "height", "href", "id",
		"loading", "open", "rel", "role", "src", "start", "tabindex", "width",
	}
	voids = []string{"br", "hr", "img"}
)

// checkHTML fails t unless s is HTML a browser reads as written: known
// elements and attributes only, every element closed in order, hrefs and
// sources with a safe scheme, and a parse tree with the elements of the
// markup in the same order (a parser that had to repair the nesting, say a
// <div> in a <p>, would add or move some).
func checkHTML(t testing.TB, s string) {
	t.Helper()
	var stack, starts []string
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("tokenizing: %v", z.Err())
			}
			if len(stack) > 0 {
				t.Errorf("elements left open: %v", stack)
			}
			checkTree(t, s, starts)
			return
		case html.SelfClosingTagToken:
			name, _ := z.TagName()
			t.Errorf("self-closing <%s/>", name)
		case html.StartTagToken:
			tok := z.Token()
			if !slices.Contains(elements, tok.Data) {
				t.Errorf("element <%s> is not one the renderer writes", tok.Data)
			}
			for _, a := range tok.Attr {
				if !slices.Contains(attributes, a.Key) {
					t.Errorf("attribute %s on <%s> is not one the renderer writes", a.Key, tok.Data)
				}
				if a.Key == "href" {
					if _, ok := safeHref(a.Val); !ok {
						t.Errorf("unsafe href %q", a.Val)
					}
				}
				if a.Key == "src" {
					if _, ok := safeSrc(a.Val); !ok {
						t.Errorf("unsafe src %q", a.Val)
					}
				}
			}
			starts = append(starts, tok.Data)
			if !slices.Contains(voids, tok.Data) {
				stack = append(stack, tok.Data)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Fatalf("</%s> closes %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func checkTree(t testing.TB, s string, starts []string) {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatalf("parsing: %v", err)
	}
	var got []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			got = append(got, n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	if !slices.Equal(got, starts) {
		t.Errorf("the parser reads other elements than written:\nwritten %v\nparsed  %v", starts, got)
	}
}
