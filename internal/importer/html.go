package importer

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/bindery/bindery/internal/content"
)

// importHTML imports one web page as one page.
func (im *importer) importHTML(ctx context.Context, u *url.URL) error {
	im.res.Total++
	resp, err := im.fetch.get(ctx, u, nil)
	if err != nil {
		return err
	}
	if !isHTML(resp) {
		return errorf(CodeInvalid, "%s is not an HTML page", redact(resp.URL))
	}
	doc, err := parseHTML(resp)
	if err != nil {
		return err
	}
	page, err := im.htmlPage(ctx, doc)
	if err != nil {
		return err
	}
	im.res.Pages = attach(im.res.Pages, page)
	im.res.Imported++
	return nil
}

// isHTML says whether a response is an HTML document, by its declared
// type or, when it declares none, by its bytes.
func isHTML(r *response) bool {
	mt := r.MediaType
	if mt == "" {
		mt, _, _ = strings.Cut(http.DetectContentType(r.Body), ";")
	}
	return htmlType(mt)
}

func htmlType(mediaType string) bool {
	return mediaType == "text/html" || mediaType == "application/xhtml+xml"
}

// htmlDoc is a parsed HTML document.
type htmlDoc struct {
	root *html.Node
	// base resolves the document's relative URLs.
	base *url.URL
}

// parseHTML parses a response in the character set it declares.
func parseHTML(r *response) (*htmlDoc, error) {
	body, err := charset.NewReader(bytes.NewReader(r.Body), r.ContentType)
	if err != nil {
		return nil, errorf(CodeInvalid, "%s is in an unknown character set", redact(r.URL))
	}
	root, err := html.Parse(body)
	if err != nil {
		return nil, errorf(CodeInvalid, "%s is not valid HTML", redact(r.URL))
	}
	doc := &htmlDoc{root: root, base: r.URL}
	if b := find(root, atom.Base); b != nil {
		if href, ok := attr(b, "href"); ok {
			if u, err := r.URL.Parse(strings.TrimSpace(href)); err == nil && httpScheme(u) {
				doc.base = u
			}
		}
	}
	return doc, nil
}

// resolve returns the absolute URL a reference in the document points to.
func (d *htmlDoc) resolve(ref string) (*url.URL, bool) {
	u, err := d.base.Parse(strings.TrimSpace(ref))
	if err != nil {
		return nil, false
	}
	return u, true
}

// title is the document's <title>, or its first <h1>.
func (d *htmlDoc) title() string {
	if t := find(d.root, atom.Title); t != nil {
		if s := cleanTitle(text(t)); s != "" {
			return s
		}
	}
	if h := find(d.root, atom.H1); h != nil {
		return cleanTitle(text(h))
	}
	return ""
}

// links returns the targets of the document's links, in order.
func (d *htmlDoc) links() []*url.URL {
	var out []*url.URL
	walk(d.root, func(n *html.Node) bool {
		if n.DataAtom == atom.A {
			if href, ok := attr(n, "href"); ok {
				if u, ok := d.resolve(href); ok && httpScheme(u) {
					out = append(out, u)
				}
			}
		}
		return true
	})
	return out
}

// dropped are the elements that are page furniture or cannot be shown as
// markdown.
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Nav: true,
	atom.Header: true, atom.Footer: true, atom.Iframe: true, atom.Object: true, atom.Embed: true,
	atom.Svg: true, atom.Canvas: true, atom.Form: true, atom.Button: true, atom.Dialog: true,
}

// htmlPage turns a document into a page: its main content as markdown,
// images imported as files and links made absolute.
func (im *importer) htmlPage(ctx context.Context, d *htmlDoc) (*content.Node, error) {
	title := d.title()
	if title == "" {
		title = nameFromPath(d.base.Path)
	}
	if title == "" {
		title = d.base.Hostname()
	}
	root := mainContent(d.root)
	removeAll(root, func(n *html.Node) bool { return dropped[n.DataAtom] })
	dropTitleHeading(root, title)
	im.rewriteHTML(ctx, d, root)
	md, err := newConverter().ConvertNode(root)
	if err != nil {
		return nil, errorf(CodeInvalid, "%s could not be converted to markdown", redact(d.base))
	}
	return im.newPage(title, strings.TrimSpace(string(md))), nil
}

func newConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
		strikethrough.NewStrikethroughPlugin(),
	))
}

// mainContent is the part of a document that holds the page: its <main>,
// its only <article>, or its <body>.
func mainContent(doc *html.Node) *html.Node {
	if m := find(doc, atom.Main); m != nil {
		return m
	}
	var articles []*html.Node
	walk(doc, func(n *html.Node) bool {
		if n.DataAtom == atom.Article {
			articles = append(articles, n)
			return false
		}
		return true
	})
	if len(articles) == 1 {
		return articles[0]
	}
	if b := find(doc, atom.Body); b != nil {
		return b
	}
	return doc
}

// dropTitleHeading removes the <h1> the content starts with when it repeats
// the title, which the page already shows.
func dropTitleHeading(root *html.Node, title string) {
	var first *html.Node
	walk(root, func(n *html.Node) bool {
		if first != nil {
			return false
		}
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" {
			first = n
		}
		return true
	})
	for n := first; n != nil && n != root; n = n.Parent {
		if n.DataAtom == atom.H1 {
			if strings.EqualFold(cleanTitle(text(n)), title) {
				n.Parent.RemoveChild(n)
			}
			return
		}
	}
}

// rewriteHTML imports the images under root and points them at their files,
// and makes links absolute, so the markdown does not depend on the page's
// address.
func (im *importer) rewriteHTML(ctx context.Context, d *htmlDoc, root *html.Node) {
	removeAll(root, func(n *html.Node) bool {
		if n.DataAtom == atom.Source {
			return true
		}
		if n.DataAtom != atom.Img {
			return false
		}
		_, ok := d.imageURL(n)
		return !ok
	})
	walk(root, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Img:
			u, _ := d.imageURL(n)
			ref := u.String()
			if name := im.remoteImage(ctx, u); name != "" {
				ref = assetPrefix + name
			}
			setAttr(n, "src", ref)
			delAttr(n, "srcset")
			delAttr(n, "data-src")
		case atom.A:
			href, ok := attr(n, "href")
			if !ok || strings.HasPrefix(strings.TrimSpace(href), "#") {
				break
			}
			if u, ok := d.resolve(href); ok && (httpScheme(u) || u.Scheme == "mailto") {
				setAttr(n, "href", u.String())
			} else {
				delAttr(n, "href")
			}
		}
		return true
	})
}

// imageURL is where an <img> loads from: its src, or the data-src of a
// lazily loaded image. Inline data images are not imported.
func (d *htmlDoc) imageURL(img *html.Node) (*url.URL, bool) {
	src, _ := attr(img, "src")
	if src == "" || strings.HasPrefix(src, "data:") {
		src, _ = attr(img, "data-src")
	}
	if src == "" {
		return nil, false
	}
	u, ok := d.resolve(src)
	return u, ok && httpScheme(u)
}

// walk calls fn on n and its descendants in document order; fn returns
// false to skip a node's children.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

// find returns the first element of the given kind under n.
func find(n *html.Node, a atom.Atom) *html.Node {
	var out *html.Node
	walk(n, func(x *html.Node) bool {
		if out == nil && x.Type == html.ElementNode && x.DataAtom == a {
			out = x
		}
		return out == nil
	})
	return out
}

// removeAll removes the descendants of n for which drop is true.
func removeAll(n *html.Node, drop func(*html.Node) bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && drop(c) {
			n.RemoveChild(c)
		} else {
			removeAll(c, drop)
		}
		c = next
	}
}

// text is the text under n.
func text(n *html.Node) string {
	var b strings.Builder
	walk(n, func(x *html.Node) bool {
		if x.Type == html.TextNode {
			b.WriteString(x.Data)
		}
		return true
	})
	return b.String()
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

func delAttr(n *html.Node, key string) {
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != key {
			out = append(out, a)
		}
	}
	n.Attr = out
}
