// Package importer turns a URL into pages and files: a web page, a markdown
// document, a crawled website or a zip archive of markdown.
//
// It fetches remote content through one guarded HTTP client (see
// newClient), and knows nothing about Bindery's API or database: the caller
// stores the Result.
package importer

import (
	"context"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// Defaults for the zero values of Options.
const (
	DefaultMaxBytes      = 10 << 20
	DefaultMaxTotalBytes = 50 << 20
	DefaultMaxPages      = 50
	DefaultMaxDepth      = 3
	DefaultMaxRedirects  = 5
	DefaultTimeout       = 60 * time.Second
)

// Fixed bounds.
const (
	// maxImages bounds the images one import fetches or unpacks.
	maxImages = 50
	// maxZipEntries bounds the entries of an archive, files and folders.
	maxZipEntries = 5000
	// maxURLLength bounds the URL the caller passes.
	maxURLLength = 2048
	// maxTitleLength bounds a page title, in runes.
	maxTitleLength = 200
)

// Options bound an import. Zero values take the defaults.
type Options struct {
	// AllowPrivate lifts the address check, so loopback and private
	// addresses can be imported from. For local testing only
	// (BINDERY_IMPORT_ALLOW_PRIVATE=1).
	AllowPrivate bool
	// MaxBytes bounds each fetched resource and each unpacked archive entry.
	MaxBytes int64
	// MaxTotalBytes bounds the whole import: every byte fetched plus every
	// byte an archive unpacks to.
	MaxTotalBytes int64
	// MaxPages bounds the pages a website crawl fetches.
	MaxPages int
	// MaxDepth bounds how many links away from the start a crawl goes.
	MaxDepth int
	// MaxRedirects bounds the redirects of each request.
	MaxRedirects int
	// Timeout bounds the whole import; each request has at most 15s.
	Timeout time.Duration
	// Now stamps the pages' CreatedAt and UpdatedAt.
	Now func() time.Time

	// allowAddr, in tests only, lets a dial to some "ip:port" through
	// before the address check runs on every other one.
	allowAddr func(address string) bool
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxTotalBytes <= 0 {
		o.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Asset is an imported file with its bytes. File.Blob is left empty for the
// caller to fill when it stores Data.
type Asset struct {
	File content.File
	Data []byte
}

// Result is what an import produced.
type Result struct {
	// Pages is the imported page tree, with new IDs and slugs unique among
	// siblings.
	Pages []*content.Node
	// Files are the imported files. Markdown refers to each as
	// ".gitbook/assets/<File.Name>".
	Files []Asset
	// Imported counts the resources imported: pages and files.
	Imported int
	// Total counts the resources found, including those skipped or failed.
	Total int
}

// Import fetches rawURL and turns it into pages and files according to
// source. Its errors are *Error.
func Import(ctx context.Context, source enum.ImportSource, rawURL string, opt Options) (*Result, error) {
	var run func(*importer, context.Context, *url.URL) error
	switch source {
	case enum.ImportSourceHtml:
		run = (*importer).importHTML
	case enum.ImportSourceMarkdown:
		run = (*importer).importMarkdown
	case enum.ImportSourceWebsite:
		run = (*importer).importWebsite
	case enum.ImportSourceZip:
		run = (*importer).importZip
	default:
		if source.Valid() {
			return nil, errorf(CodeUnsupported,
				"import source %q is not supported; supported sources are website, html, markdown and zip", source)
		}
		return nil, errorf(CodeInvalid,
			"unknown import source %q; supported sources are website, html, markdown and zip", source)
	}
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	im := &importer{opt: opt, now: opt.Now(), fetch: newFetcher(opt), names: map[string]bool{}, images: map[string]string{}}
	defer im.fetch.client.CloseIdleConnections()
	if err := run(im, ctx, u); err != nil {
		return nil, err
	}
	if len(im.res.Pages) == 0 {
		return nil, errorf(CodeInvalid, "found nothing to import at %s", redact(u))
	}
	return &im.res, nil
}

// parseURL accepts only absolute http and https URLs.
func parseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errorf(CodeInvalid, "a URL to import from is required")
	}
	if len(raw) > maxURLLength {
		return nil, errorf(CodeInvalid, "the URL is longer than %d characters", maxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errorf(CodeInvalid, "%q is not a valid URL", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if !httpScheme(u) {
		if u.Scheme == "" {
			return nil, errorf(CodeInvalid, "%q is not an absolute http or https URL", raw)
		}
		return nil, errorf(CodeInvalid, "only http and https URLs can be imported, not %q", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errorf(CodeInvalid, "%q has no host", raw)
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// importer holds the state of one import.
type importer struct {
	opt   Options
	now   time.Time
	fetch *fetcher
	res   Result
	// names are the file names taken.
	names map[string]bool
	// images maps an image's source (URL or archive path) to its file
	// name, or to "" when it could not be imported.
	images map[string]string
}

// newPage returns a document page; its slug is made unique when it is
// attached.
func (im *importer) newPage(title, markdown string) *content.Node {
	title = cleanTitle(title)
	return &content.Node{Page: &content.Page{
		ID: id.New(id.Page), Type: enum.PageTypeDocument, Title: title, Slug: content.Slugify(title),
		Markdown: markdown, CreatedAt: im.now, UpdatedAt: im.now,
	}}
}

// attach appends n to siblings with a slug unique among them.
func attach(siblings []*content.Node, n *content.Node) []*content.Node {
	n.Page.Slug = content.UniqueSlug(siblings, n.Page.Slug, n.Page.ID)
	return append(siblings, n)
}

// cleanTitle collapses whitespace and bounds the length.
func cleanTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxTitleLength {
		s = strings.TrimSpace(string([]rune(s)[:maxTitleLength]))
	}
	return s
}

// nameFromPath is the last segment of a URL or archive path without its
// extension, for a page that has no better title.
func nameFromPath(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	if s, err := url.PathUnescape(p); err == nil {
		p = s
	}
	if i := strings.LastIndex(p, "."); i > 0 {
		p = p[:i]
	}
	return p
}
