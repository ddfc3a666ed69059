package render

import (
	"path"
	"strings"

	"github.com/bindery/bindery/internal/content"
)

// Addresses say where the pages and files of a content are read: the
// published site and the app's views each have their own.
type Addresses struct {
	// Page returns the address of entry j of the content's reading order.
	Page func(j int) string
	// File returns the address of one of the content's files.
	File func(f *content.File) string
}

// ContentOptions resolve the references of entry i of order, a page of c:
// pages to their addresses, anchors to the page's fragment, files to
// theirs, and links between the pages of a Git export ("../setup.md") to
// the pages they name.
func ContentOptions(c *content.Content, order *content.Order, i int, at Addresses) Options {
	dir := path.Dir(order.Entries[i].Path)
	return Options{
		Link: func(ref Ref) (string, bool) {
			switch ref.Kind {
			case "page", "anchor":
				u := ""
				if ref.Page != "" {
					j, ok := order.ByID[ref.Page]
					if !ok {
						return "", false
					}
					u = at.Page(j)
				}
				if ref.Anchor != "" {
					u += "#" + ref.Anchor
				}
				return u, u != ""
			case "file":
				f, err := c.File(ref.File)
				if err != nil {
					return "", false
				}
				return at.File(f), true
			case "url":
				return relativeLink(order, at, dir, ref.URL), true
			}
			return "", false
		},
		Image: func(ref Ref) (Image, bool) {
			switch ref.Kind {
			case "file":
				f, err := c.File(ref.File)
				if err != nil {
					return Image{}, false
				}
				return Image{Src: at.File(f), Width: f.Width, Height: f.Height}, true
			case "url":
				return Image{Src: ref.URL}, true
			}
			return Image{}, false
		},
	}
}

// relativeLink turns a link between pages of a Git export ("../setup.md",
// "guide/README.md#install"), from a page in dir, into the address of the
// page it names; any other URL is kept.
func relativeLink(order *content.Order, at Addresses, dir, u string) string {
	if strings.Contains(u, ":") || strings.HasPrefix(u, "/") || strings.HasPrefix(u, "#") {
		return u
	}
	target, anchor, _ := strings.Cut(u, "#")
	if !strings.HasSuffix(target, ".md") {
		return u
	}
	p := path.Clean(path.Join(dir, strings.TrimSuffix(target, ".md")))
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/README"), "README")
	j, ok := order.ByPath[p]
	if !ok {
		return u
	}
	out := at.Page(j)
	if anchor != "" {
		out += "#" + anchor
	}
	return out
}
