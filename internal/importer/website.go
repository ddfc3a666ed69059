package importer

import (
	"context"
	"errors"
	"net/url"
	"path"
	"strings"

	"github.com/bindery/bindery/internal/content"
)

// notPages are extensions of links a crawl does not follow: they name
// files, not pages.
var notPages = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".webp": true, ".ico": true,
	".avif": true, ".bmp": true, ".css": true, ".js": true, ".mjs": true, ".json": true, ".xml": true,
	".pdf": true, ".zip": true, ".gz": true, ".tgz": true, ".tar": true, ".mp3": true, ".mp4": true,
	".webm": true, ".woff": true, ".woff2": true, ".ttf": true, ".eot": true, ".txt": true, ".csv": true,
}

// crawled is a page a crawl imported, with the path that places it in the
// tree.
type crawled struct {
	node *content.Node
	key  string
}

// importWebsite crawls from start, breadth first: pages of the same scheme
// and host under the start page's directory, HTML only, at most MaxPages
// fetched and MaxDepth links away. Pages nest by URL path.
//
// Total counts the distinct pages found within those bounds, fetched or
// not; a page that fails after the first is skipped.
func (im *importer) importWebsite(ctx context.Context, start *url.URL) error {
	type link struct {
		u     *url.URL
		depth int
	}
	var (
		sc     scope
		queue  = []link{{start, 0}}
		seen   = map[string]bool{pageKey(start): true}
		done   = map[string]bool{}
		pages  []crawled
		wanted = func(mt string) bool { return mt == "" || htmlType(mt) }
	)
	im.res.Total++
	for fetched := 0; len(queue) > 0 && fetched < im.opt.MaxPages; fetched++ {
		l := queue[0]
		queue = queue[1:]
		first := fetched == 0
		resp, err := im.fetch.get(ctx, l.u, wanted)
		if err == nil && !isHTML(resp) {
			err = errUnwanted
		}
		switch {
		case first && errors.Is(err, errUnwanted):
			return errorf(CodeInvalid, "%s is not an HTML page", redact(l.u))
		case first && err != nil:
			return err
		case ctx.Err() != nil:
			return classify(l.u, ctx.Err())
		case err != nil:
			continue
		}
		if first {
			sc = newScope(resp.URL)
		} else if !sc.contains(resp.URL) {
			continue
		}
		k := pageKey(resp.URL)
		if done[k] {
			// A redirect to a page already imported: not a page of its own.
			im.res.Total--
			continue
		}
		done[k], seen[k] = true, true
		doc, err := parseHTML(resp)
		if err != nil {
			if first {
				return err
			}
			continue
		}
		if l.depth < im.opt.MaxDepth {
			for _, u := range doc.links() {
				u = withoutFragment(u)
				key := pageKey(u)
				if seen[key] || !sc.contains(u) || notPages[strings.ToLower(path.Ext(u.Path))] {
					continue
				}
				seen[key] = true
				im.res.Total++
				queue = append(queue, link{u, l.depth + 1})
			}
		}
		page, err := im.htmlPage(ctx, doc)
		if err != nil {
			if first {
				return err
			}
			continue
		}
		pages = append(pages, crawled{node: page, key: nestKey(resp.URL)})
		im.res.Imported++
	}
	im.res.Pages = nest(pages)
	return nil
}

// scope is the part of a site a crawl stays in.
type scope struct {
	scheme, host string
	// dir is the start page's directory, with a trailing slash.
	dir string
}

func newScope(start *url.URL) scope {
	dir := start.Path
	if i := strings.LastIndex(dir, "/"); i >= 0 {
		dir = dir[:i+1]
	} else {
		dir = "/"
	}
	return scope{scheme: start.Scheme, host: hostKey(start), dir: dir}
}

func (s scope) contains(u *url.URL) bool {
	if u.Scheme != s.scheme || hostKey(u) != s.host {
		return false
	}
	p := u.Path
	if p == "" {
		p = "/"
	}
	return strings.HasPrefix(p, s.dir) || p == strings.TrimSuffix(s.dir, "/")
}

// hostKey is u's host in lower case without the scheme's default port.
func hostKey(u *url.URL) string {
	host := strings.ToLower(u.Host)
	switch {
	case u.Scheme == "http" && strings.HasSuffix(host, ":80"):
		host = strings.TrimSuffix(host, ":80")
	case u.Scheme == "https" && strings.HasSuffix(host, ":443"):
		host = strings.TrimSuffix(host, ":443")
	}
	return host
}

// pageKey identifies a page for the crawl: scheme, host, path without a
// trailing slash, and query. The fragment never matters.
func pageKey(u *url.URL) string {
	p := strings.TrimRight(u.EscapedPath(), "/")
	if p == "" {
		p = "/"
	}
	k := strings.ToLower(u.Scheme) + "://" + hostKey(u) + p
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	return k
}

// nestKey is the path that places a page in the tree: "/guide/",
// "/guide", "/guide.html" and "/guide/index.html" all place it at
// "/guide", so "/guide/install" goes under it.
func nestKey(u *url.URL) string {
	p := strings.TrimRight(u.Path, "/")
	for _, suffix := range []string{"/index.html", "/index.htm", ".html", ".htm"} {
		if strings.HasSuffix(p, suffix) {
			p = strings.TrimSuffix(p, suffix)
			break
		}
	}
	return p
}

// nest builds the tree of crawled pages: each page goes under the page
// with the longest path above its own, or at the top, in crawl order.
func nest(pages []crawled) []*content.Node {
	var top []*content.Node
	for i, p := range pages {
		parent := -1
		for j, q := range pages {
			if j != i && strings.HasPrefix(p.key, q.key+"/") && (parent < 0 || len(q.key) > len(pages[parent].key)) {
				parent = j
			}
		}
		if parent < 0 {
			top = attach(top, p.node)
			continue
		}
		n := pages[parent].node
		n.Children = attach(n.Children, p.node)
	}
	return top
}
