package document

import (
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// parse parses markdown as every reader of this package does: CommonMark
// with GFM tables, strikethrough and task lists.
func parse(source []byte) ast.Node {
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	return md.Parser().Parse(text.NewReader(source))
}

// Link is a link or an image of markdown, as FromMarkdown reads it.
type Link struct {
	// Destination is as FromMarkdown resolves it: escapes and character
	// references resolved; an email autolink with "mailto:".
	Destination string
	// Image is set for an image, which a page embeds rather than links to.
	Image bool
}

// Links returns the links and images of markdown in document order: the
// destinations that FromMarkdown turns into link and image references. A
// link inside a link's text is text (CommonMark allows none), an image there
// is kept. Outside quotes, a table's header row has neither: it is the
// plain titles of the table's columns.
//
// Link analysis reads pages through it, so that what it counts is what the
// document of the page shows.
func Links(markdown string) []Link {
	source := []byte(markdown)
	var out []Link
	// quote is set where a table is paragraphs (see converter.block), so
	// that its header row is text like the others; elsewhere a header row
	// is the columns' plain titles, and its links are not links.
	var walk func(n ast.Node, inLink, quote bool)
	walk = func(n ast.Node, inLink, quote bool) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Link:
				if !inLink {
					out = append(out, Link{Destination: string(unescape(c.Destination))})
				}
				walk(c, true, quote)
			case *ast.AutoLink:
				if !inLink {
					out = append(out, Link{Destination: autoLinkURL(c, source)})
				}
			case *ast.Image:
				out = append(out, Link{Destination: string(unescape(c.Destination)), Image: true})
				walk(c, inLink, quote)
			case *east.TableHeader:
				if quote {
					walk(c, inLink, quote)
				}
			case *ast.Blockquote:
				walk(c, inLink, true)
			case *ast.ListItem:
				walk(c, inLink, false)
			default:
				walk(c, inLink, quote)
			}
		}
	}
	walk(parse(source), false, false)
	return out
}

// autoLinkURL is the destination of an autolink: its URL, with "mailto:"
// before an email address.
func autoLinkURL(n *ast.AutoLink, source []byte) string {
	dest := string(n.URL(source))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	return dest
}

// FileID resolves an image or link source to a file with o.File, as a
// document's references do: the source as written, or else percent-decoded.
func (o Options) FileID(src string) (string, bool) {
	if o.File == nil || src == "" {
		return "", false
	}
	if id, ok := o.File(src); ok {
		return id, true
	}
	if dec, err := url.PathUnescape(src); err == nil && dec != src {
		return o.File(dec)
	}
	return "", false
}

// AssetName returns the file name that a source of the form
// ".gitbook/assets/<name>" names (after "/" or relative "./" and "../"
// segments, see Assets), and whether src is of that form at all.
func AssetName(src string) (string, bool) {
	i := strings.Index(src, AssetPrefix)
	if i < 0 || strings.Trim(src[:i], "./") != "" {
		return "", false
	}
	return src[i+len(AssetPrefix):], true
}
