// Package reader serves published sites to their readers: server-rendered
// HTML pages that need no JavaScript, each page's markdown, a search page,
// and the files crawlers and language models read (sitemap.xml, robots.txt,
// llms.txt, llms-full.txt).
//
// It is a transport beside rest/: everything it shows comes from the
// resolvers of package graph, the ones the official published-content
// operations use, so what a visitor reads and what the API answers for that
// visitor cannot disagree. A visitor is anonymous; what admits them to a
// site that is not public is the share key or the visitor token they
// present, which the reader keeps in cookies scoped to the site.
package reader

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/lru"
	"github.com/bindery/bindery/internal/render"
)

// Reader serves published sites.
type Reader struct {
	res *graph.Resolver
	log *slog.Logger
	// public is the public URL without its path's trailing slash; secure
	// is whether it is https, which makes the reader's cookies Secure.
	public *url.URL
	secure bool
	tpl    *templates
	assets *assets
	pages  *pages
	// shortcuts are the keys of the pages anonymous visitors were answered
	// with, by their requests (see shortcut).
	shortcuts *lru.Cache[shortcut]
}

// New returns a reader of the sites of res, published under publicURL,
// which keeps up to cacheBytes of rendered pages.
func New(res *graph.Resolver, publicURL string, cacheBytes int, log *slog.Logger) (*Reader, error) {
	u, err := url.Parse(strings.TrimRight(publicURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("the public URL: %w", err)
	}
	tpl, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	a, err := newAssets(render.CSS())
	if err != nil {
		return nil, err
	}
	return &Reader{res: res, log: log, public: u, secure: u.Scheme == "https", tpl: tpl, assets: a,
		pages: lru.New[*rendered](cacheBytes, cacheBytes/8), shortcuts: lru.New[shortcut](cacheBytes/16, 4096)}, nil
}

// Prefix is where sites are served under the public URL: /sites/<id>/.
const Prefix = "/sites/"

// staticDir is where a site's root serves the reader's assets; "~" keeps
// it apart from page paths, which never hold it.
const staticDir = "~bindery/static/"

// ServeHTTP serves a request under Prefix: /sites/<id>/<rest>.
func (x *Reader) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	rest, ok := strings.CutPrefix(req.URL.Path, Prefix)
	if !ok {
		http.NotFound(w, req)
		return
	}
	siteID, rest, slash := strings.Cut(rest, "/")
	if !slash {
		// The site's root is a directory: its pages' relative links need
		// the slash.
		u := *req.URL
		u.Path = req.URL.Path + "/"
		http.Redirect(w, req, u.RequestURI(), http.StatusMovedPermanently)
		return
	}
	base, origin := Prefix+siteID+"/", x.public.Scheme+"://"+x.public.Host
	if fh := req.Header.Get("X-Forwarded-Host"); fh != "" && fh != x.public.Host {
		// A request through the site's proxy: its addresses are the
		// proxy's.
		proxy, err := x.res.PublishedProxy(req.Context(), siteID)
		if err != nil {
			x.log.Error("reading a published site's proxy", "site", siteID, "error", err)
			http.Error(w, "Internal server error", http.StatusInternalServerError)
			return
		}
		if host, path, _ := strings.Cut(proxy, "/"); proxy != "" && strings.EqualFold(host, fh) {
			base, origin = "/"+path+"/", "https://"+host
		}
	}
	x.serve(w, req, siteID, base, origin, rest)
}

// ServeHost serves a request to a site's own hostname, whose root is the
// site's, at base (its basename's path, or "/"); the request's path is the
// path under base.
func (x *Reader) ServeHost(w http.ResponseWriter, req *http.Request, siteID, base string) {
	scheme := "http"
	if req.TLS != nil || x.secure {
		scheme = "https"
	}
	x.serve(w, req, siteID, base, scheme+"://"+req.Host, strings.TrimPrefix(req.URL.Path, "/"))
}

// StaticPrefix is where the server's own pages, such as sign-in, which
// share the reader's look, load the reader's assets from.
const StaticPrefix = "/" + staticDir

// ServeStatic serves the reader's assets under StaticPrefix.
func (x *Reader) ServeStatic(w http.ResponseWriter, req *http.Request) {
	x.assets.serve(w, req, strings.TrimPrefix(req.URL.Path, StaticPrefix))
}

// Stylesheet and Icon are the addresses of the reader's stylesheet and
// icon under StaticPrefix.
func (x *Reader) Stylesheet() string { return StaticPrefix + x.assets.stylesheet() }

// Icon: see Stylesheet.
func (x *Reader) Icon() string { return StaticPrefix + x.assets.favicon() }
