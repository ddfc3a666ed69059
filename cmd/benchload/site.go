package main

import (
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/store"
)

// The site workload reads a published site as its anonymous readers do:
// the HTML pages Bindery renders, one after another, compared with the
// same pages written to files and served by Go's http.FileServer, the
// least a server of a site can do.

// defaultSitePages is the number of pages of the site workload's space.
const defaultSitePages = 500

// siteTitle is the title of the site workload's site.
const siteTitle = "Bench Docs"

// siteData is the site workload's published site.
type siteData struct {
	Org, Space, Site string
	// Pages are the site's pages in the order of its sitemap.
	Pages []sitePage
}

// sitePage is a page of the site: its address's path, from the server's
// root (/sites/<siteId>/...), and the <title> it shows.
type sitePage struct {
	Path, Title string
}

// seedSite makes the site workload's site through the API: a space of
// pages pages imported as the growth workload's, published as a public
// site of that space alone; then it reads the pages' addresses from the
// site's sitemap, as an anonymous reader, and the title each should show
// from the space's tree.
func seedSite(ctx context.Context, owner *apiClient, pages int) (*siteData, error) {
	org, err := createOrganization(ctx, owner, "Bench site")
	if err != nil {
		return nil, err
	}
	g, err := seedGrowth(ctx, owner, org, growthSpec{Title: "Site", Pages: pages})
	if err != nil {
		return nil, err
	}
	s := &siteData{Org: org, Space: g.Space}
	var site struct {
		ID string `json:"id"`
	}
	if err := owner.rest(ctx, http.MethodPost, "/v1/orgs/"+org+"/sites", map[string]any{"title": siteTitle, "spaces": []string{g.Space}}, &site); err != nil {
		return nil, fmt.Errorf("creating the site: %w", err)
	}
	s.Site = site.ID
	if err := owner.rest(ctx, http.MethodPost, "/v1/orgs/"+org+"/sites/"+site.ID+"/publish", nil, nil); err != nil {
		return nil, fmt.Errorf("publishing the site: %w", err)
	}
	var tree growthTree
	if err := owner.rest(ctx, http.MethodGet, "/v1/spaces/"+g.Space+"/content", nil, &tree); err != nil {
		return nil, err
	}
	anonymous := &apiClient{base: owner.base, http: owner.http}
	sitemap, err := anonymous.get(ctx, sitePrefix(site.ID)+"sitemap.xml")
	if err != nil {
		return nil, fmt.Errorf("the site's sitemap: %w", err)
	}
	paths, err := sitemapPaths(sitemap)
	if err != nil {
		return nil, err
	}
	if s.Pages, err = siteTitles(site.ID, paths, tree.flatten()); err != nil {
		return nil, err
	}
	return s, nil
}

// sitePrefix is the path of a site's root on the server that serves it.
func sitePrefix(siteID string) string { return "/sites/" + siteID + "/" }

// get sends an anonymous GET of a path of the server and returns the
// answer's body, which must be a 200.
func (c *apiClient) get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: HTTP %d: %s", path, res.StatusCode, snippet(b))
	}
	return b, nil
}

// sitemapPaths reads the addresses of a sitemap and returns their paths,
// so that a server at another address (a variant, the file server) is
// sent the same: the sitemap's addresses are under Bindery's public URL.
func sitemapPaths(sitemap []byte) ([]string, error) {
	var set struct {
		XMLName xml.Name `xml:"urlset"`
		URLs    []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(sitemap, &set); err != nil {
		return nil, fmt.Errorf("reading the sitemap: %w", err)
	}
	if len(set.URLs) == 0 {
		return nil, fmt.Errorf("the sitemap lists no page: %s", snippet(sitemap))
	}
	out := make([]string, len(set.URLs))
	for i, u := range set.URLs {
		p, err := url.Parse(strings.TrimSpace(u.Loc))
		if err != nil || !p.IsAbs() {
			return nil, fmt.Errorf("the sitemap lists %q, not an absolute URL", u.Loc)
		}
		out[i] = p.EscapedPath()
	}
	return out, nil
}

// siteTitles pairs the paths of the site's pages with the <title> each
// shows: the site's title at its root, which shows the space's first page,
// and "Page · Site" elsewhere. Every page of the space must be listed once.
func siteTitles(siteID string, paths []string, pages []treePage) ([]sitePage, error) {
	if len(pages) == 0 {
		return nil, errors.New("the site's space has no page")
	}
	byPath := make(map[string]string, len(pages))
	for _, p := range pages {
		byPath[p.Path] = p.Title
	}
	prefix := sitePrefix(siteID)
	out := make([]sitePage, len(paths))
	seen := map[string]bool{}
	for i, p := range paths {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			return nil, fmt.Errorf("the sitemap lists %s, outside the site's root %s", p, prefix)
		}
		if seen[rest] {
			return nil, fmt.Errorf("the sitemap lists %s twice", p)
		}
		seen[rest] = true
		if rest == "" {
			out[i] = sitePage{Path: p, Title: siteTitle}
			continue
		}
		title, ok := byPath[rest]
		if !ok {
			return nil, fmt.Errorf("the sitemap lists %s, which is no page of the space", p)
		}
		out[i] = sitePage{Path: p, Title: title + " · " + siteTitle}
	}
	if len(out) != len(pages) {
		return nil, fmt.Errorf("the sitemap lists %d pages, the space has %d", len(out), len(pages))
	}
	if !seen[""] {
		return nil, fmt.Errorf("the sitemap does not list the site's root %s", prefix)
	}
	return out, nil
}

var titleTag = regexp.MustCompile(`(?s)<title>(.*?)</title>`)

// checkSitePage checks that an answer is the HTML page of the title.
func checkSitePage(b []byte, title string) error {
	m := titleTag.FindSubmatch(b)
	if m == nil {
		return fmt.Errorf("no <title> in %s", snippet(b))
	}
	if got := html.UnescapeString(string(m[1])); got != title {
		return fmt.Errorf("the page's title is %q, want %q", got, title)
	}
	return nil
}

// assetLink finds the reader's stylesheet and script in a page.
var assetLink = regexp.MustCompile(`(?:href|src)="([^"]*/~bindery/static/[^"]+)"`)

// pageAssets returns the paths of the reader's assets a page links to.
func pageAssets(page []byte) []string {
	var out []string
	for _, m := range assetLink.FindAllSubmatch(page, -1) {
		out = append(out, html.UnescapeString(string(m[1])))
	}
	return out
}

// siteWorkload is the anonymous GET of every page of the site in turn,
// on the server at base. Its check is of the first page.
func siteWorkload(base, target string, s *siteData) workload {
	rs := make([]request, len(s.Pages))
	for i, p := range s.Pages {
		rs[i] = request{method: http.MethodGet, url: base + p.Path}
	}
	first := s.Pages[0].Title
	return workload{key: "site", target: target, requests: rs,
		name:  fmt.Sprintf("published site: anonymous `GET` of its %d pages in turn", len(s.Pages)),
		check: func(b []byte) error { return checkSitePage(b, first) }}
}

// pageFile is where a page of a path is written for the file server:
// <dir>/<path>/index.html, which http.FileServer serves at <path>/, and
// siteFiles at <path> too. A page's path may be the folder of others'.
func pageFile(dir, urlPath string) string {
	return filepath.Join(dir, filepath.FromSlash(path.Clean("/"+urlPath)), "index.html")
}

// assetFile is where an asset of a path is written for the file server.
func assetFile(dir, urlPath string) string {
	return filepath.Join(dir, filepath.FromSlash(path.Clean("/"+urlPath)))
}

// writeFile writes data at name, making its folders.
func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// renderSite fetches every page of the site once from Bindery at base, as
// an anonymous reader, checks that each is its page, and writes it into
// dir with the assets the first page links to, at paths that serve the
// same addresses (pageFile, assetFile).
func renderSite(ctx context.Context, client *http.Client, base string, s *siteData, dir string) error {
	c := &apiClient{base: base, http: client}
	var assets []string
	for i, p := range s.Pages {
		b, err := c.get(ctx, p.Path)
		if err != nil {
			return err
		}
		if err := checkSitePage(b, p.Title); err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		if err := writeFile(pageFile(dir, p.Path), b); err != nil {
			return err
		}
		if i == 0 {
			assets = pageAssets(b)
		}
	}
	if len(assets) == 0 {
		return errors.New("the site's first page links to no stylesheet")
	}
	for _, a := range assets {
		b, err := c.get(ctx, a)
		if err != nil {
			return err
		}
		if err := writeFile(assetFile(dir, a), b); err != nil {
			return err
		}
	}
	return nil
}

// checkSite fetches every page of the site from the server at base and
// checks that each is its page.
func checkSite(ctx context.Context, client *http.Client, base string, s *siteData) error {
	c := &apiClient{base: base, http: client}
	for _, p := range s.Pages {
		b, err := c.get(ctx, p.Path)
		if err == nil {
			err = checkSitePage(b, p.Title)
		}
		if err != nil {
			return fmt.Errorf("%s%s: %w", base, p.Path, err)
		}
	}
	return nil
}

// siteFiles serves dir with http.FileServer, as a static host serves a
// site written to files: the address of a page that is a folder, without
// its trailing slash, answers the folder's index.html, where
// http.FileServer alone would redirect to the address with the slash.
func siteFiles(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; !strings.HasSuffix(p, "/") {
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean("/"+p)))); err == nil && fi.IsDir() {
				r2 := new(http.Request)
				*r2 = *r
				u := *r.URL
				u.Path, u.RawPath = p+"/", ""
				r2.URL = &u
				r = r2
			}
		}
		files.ServeHTTP(w, r)
	})
}

// serveFiles is the fileserver subcommand: it serves a folder with
// siteFiles until ctx ends.
func serveFiles(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("fileserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "folder to serve")
	addr := fs.String("addr", "127.0.0.1:8082", "listen address")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *dir == "" {
		return fmt.Errorf("%w: --dir is required", errUsage)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	return serveUntil(ctx, ln, siteFiles(*dir), stderr)
}

// startFileServer writes the site's pages, as Bindery at base serves
// them, into a folder of dir, starts this program's fileserver subcommand
// on it, checks every page it serves, and returns it as the anchor of the
// site workload.
func (r *runner) startFileServer(ctx context.Context, base, dir string, s *siteData) (*anchorServer, error) {
	root := filepath.Join(dir, "site")
	r.logf("site: writing its %d pages to files for http.FileServer", len(s.Pages))
	if err := renderSite(ctx, r.client, base, s, root); err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	r.logf("site: %d pages, %.1f MiB of HTML", len(s.Pages), float64(pagesBytes(root, s))/(1<<20))
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	c, err := start("fileserver", dir, nil, r.stderr, false, self, "fileserver", "--dir", root, "--addr", addr)
	if err != nil {
		return nil, err
	}
	r.cleanups = append(r.cleanups, c.stop)
	fsBase := "http://" + addr
	if err := c.waitReady(ctx, time.Minute, probeGET(fsBase+"/")); err != nil {
		return nil, err
	}
	if err := checkSite(ctx, r.client, fsBase, s); err != nil {
		return nil, fmt.Errorf("http.FileServer: %w", err)
	}
	return &anchorServer{workloads: []workload{siteWorkload(fsBase, "http.FileServer", s)}, counts: []statements{{}},
		pids: []int{c.pid()}}, nil
}

// countSiteStatements counts the statements a page of the site costs as
// countStatements does, but over every page: the rotation meets the page
// cache as the load does. A first pass renders (and keeps) each page, then
// each is counted once: from the cache when all the pages fit it.
func countSiteStatements(ctx context.Context, dsn string, w workload) (statements, error) {
	var c store.Counter
	db, err := store.Open(ctx, dsn, store.WithDriver(c.Wrap))
	if err != nil {
		return unknownStatements, err
	}
	defer db.Close()
	srv, err := inProcessServer(db)
	if err != nil {
		return unknownStatements, err
	}
	defer srv.Close()
	var out statements
	for pass := range 2 {
		for i, r := range w.requests {
			one := w
			one.requests = []request{r}
			c.Reset()
			if err := serveOnce(ctx, srv, &one); err != nil {
				return unknownStatements, err
			}
			if pass == 1 {
				out = out.add(c.Statements(), c.Transactions(), i == 0)
			}
		}
	}
	return out, nil
}

// pagesBytes is the size of a rendered site's pages, for the log.
func pagesBytes(dir string, s *siteData) int64 {
	var n int64
	for _, p := range s.Pages {
		if fi, err := os.Stat(pageFile(dir, p.Path)); err == nil {
			n += fi.Size()
		}
	}
	return n
}
