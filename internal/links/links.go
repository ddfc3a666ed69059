// Package links analyses the links of a revision's content: every link,
// image and reference of every page, what it points at, and whether that is
// there. It knows nothing about HTTP or the database: it reads a
// *content.Content and returns its link usages, one per distinct target,
// with the pages that use it.
//
// Markdown is read through package document, so that a link is what the
// page's JSON document shows, a file is what its references resolve to, and
// an anchor is a heading's anchor as document.Sections derives it.
package links

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path"
	"strings"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// Options are what an analysis needs besides the content.
type Options struct {
	// InApp are the URL prefixes of Bindery's own app and API (the
	// configured AppURL and PublicURL): a URL under one is in-app.
	InApp []string
}

// Target is what a link points at.
type Target struct {
	Kind enum.ContentReferenceKind
	// Page is the ID of the page a page or anchor target is, or is on; ""
	// when the destination names no page of the revision.
	Page string
	// File is the ID of a file target; "" when the destination names no
	// file of the revision.
	File string
	// Anchor is the fragment of an anchor target, decoded.
	Anchor string
	// URL is the URL of a url target.
	URL string
	// Href is the destination as first written in markdown; "" for a
	// reference that is not written as one (a link page's target, a
	// cover).
	Href string
	// missing names a target that is not in the revision: the path,
	// file name or ID the destination resolves to. Two links to the same
	// missing target are one usage.
	missing string
}

// key identifies a target among the usages of one revision.
func (t Target) key() string {
	return strings.Join([]string{string(t.Kind), t.Page, t.File, t.Anchor, t.URL, t.missing}, "\x00")
}

// Usage is a distinct target and the pages that use it.
type Usage struct {
	// ID names the usage in a revision's list and the cursors that page
	// it: a hash of its target, the same in every revision that links to
	// it.
	ID       string
	Target   Target
	Status   enum.ContentReferenceStatus
	Relation enum.ContentReferenceRelation
	// Pages are the IDs of the pages that use the target, each once, in
	// tree order.
	Pages []string
	// Order is the place of the target's first use in the revision, in
	// tree order: the order of a list of usages.
	Order int
}

// Analysis is the link usages of a revision, in order of their first use.
type Analysis struct {
	Usages []*Usage
	// pageOrder is the place of each page in tree order.
	pageOrder map[string]int
}

// Analyze reads every link of every page of c: links and images of the
// markdown, the target of a link page and a page's cover.
func Analyze(c *content.Content, opt Options) *Analysis {
	a := &analyzer{c: c, opt: opt, byKey: map[string]*Usage{}, anchors: map[string]map[string]bool{},
		byPath: map[string]*content.Node{}, byID: map[string]*content.Node{}, file: document.Options{File: document.Assets(c.Files)}}
	a.files = make(map[string]bool, len(c.Files))
	for _, f := range c.Files {
		a.files[f.ID] = true
	}
	order := map[string]int{}
	c.Walk(func(n, _ *content.Node, p string) {
		a.byPath[p] = n
		a.byID[n.Page.ID] = n
		order[n.Page.ID] = len(order)
	})
	c.Walk(func(n, _ *content.Node, p string) { a.page(n, p) })
	return &Analysis{Usages: a.order, pageOrder: order}
}

type analyzer struct {
	c      *content.Content
	opt    Options
	byPath map[string]*content.Node
	byID   map[string]*content.Node
	files  map[string]bool
	file   document.Options
	// anchors are the anchors of the pages read so far, by page ID.
	anchors map[string]map[string]bool
	byKey   map[string]*Usage
	order   []*Usage
}

// page reads the links of the page n at path p.
func (a *analyzer) page(n *content.Node, p string) {
	pg := n.Page
	if pg.Cover != nil {
		a.ref(pg.ID, pg.Cover.Ref, enum.ContentReferenceRelationDependsOn)
	}
	switch pg.Type {
	case enum.PageTypeLink:
		if pg.Target != nil {
			a.ref(pg.ID, *pg.Target, enum.ContentReferenceRelationReference)
		}
	case enum.PageTypeDocument:
		dir := path.Dir(p)
		if len(n.Children) > 0 {
			// A page with nested pages is its folder's README.md in a
			// Git export, so its links are relative to that folder.
			dir = p
		}
		if dir == "." {
			dir = ""
		}
		for _, l := range document.Links(pg.Markdown) {
			a.markdown(pg.ID, dir, l)
		}
	}
}

// ref reads a reference that is not written as a destination: a link
// page's target or a cover.
func (a *analyzer) ref(from string, r content.Ref, rel enum.ContentReferenceRelation) {
	switch r.Kind {
	case "page":
		t := Target{Kind: enum.ContentReferenceKindPage, Page: r.Page}
		if a.byID[r.Page] == nil {
			t.Page, t.missing = "", r.Page
		}
		a.use(from, t, rel)
	case "file":
		t := Target{Kind: enum.ContentReferenceKindFile, File: r.File}
		if !a.files[r.File] {
			t.File, t.missing = "", r.File
		}
		a.use(from, t, rel)
	case "url":
		if r.URL != "" {
			a.use(from, Target{Kind: enum.ContentReferenceKindUrl, URL: r.URL}, rel)
		}
	}
}

// markdown reads a link or image of the markdown of the page from, whose
// relative links start in the folder dir.
func (a *analyzer) markdown(from, dir string, l document.Link) {
	dest := l.Destination
	rel := enum.ContentReferenceRelationReference
	if l.Image {
		rel = enum.ContentReferenceRelationDependsOn
	}
	if dest == "" || dest == "#" {
		return
	}
	if isURL(dest) {
		a.use(from, Target{Kind: enum.ContentReferenceKindUrl, URL: dest, Href: dest}, rel)
		return
	}
	if anchor, ok := strings.CutPrefix(dest, "#"); ok && !l.Image {
		a.use(from, Target{Kind: enum.ContentReferenceKindAnchor, Page: from, Anchor: decode(anchor), Href: dest}, rel)
		return
	}
	href, anchor, _ := strings.Cut(dest, "#")
	href, _, _ = strings.Cut(href, "?")
	if fid, ok := a.file.FileID(href); ok {
		a.use(from, Target{Kind: enum.ContentReferenceKindFile, File: fid, Href: dest}, rel)
		return
	}
	if name, ok := document.AssetName(decode(href)); ok || l.Image {
		// An asset the revision lacks, or an image that is no file of
		// it: a file that is not there.
		if !ok {
			name = resolve(dir, href)
		}
		a.use(from, Target{Kind: enum.ContentReferenceKindFile, Href: dest, missing: name}, rel)
		return
	}
	page, missing := a.resolvePage(dir, href)
	t := Target{Kind: enum.ContentReferenceKindPage, Page: page, Href: dest, missing: missing}
	if anchor != "" {
		t.Kind, t.Anchor = enum.ContentReferenceKindAnchor, decode(anchor)
	}
	a.use(from, t, rel)
}

// resolvePage finds the page that a destination without its fragment
// names, from the folder dir: a page ID, or a path relative to dir (or to
// the top when it starts with "/"), with or without ".md", in which a
// folder's README.md is the folder's page. It returns the page's ID, or
// else what the destination names.
func (a *analyzer) resolvePage(dir, href string) (pageID, missing string) {
	if n := a.byID[href]; n != nil {
		return n.Page.ID, ""
	}
	if id.PrefixOf(href) == id.Page && !strings.ContainsAny(href, "/.") {
		return "", href
	}
	p := resolve(dir, href)
	base := path.Base(p)
	stem := base
	for _, ext := range []string{".md", ".markdown"} {
		if len(stem) > len(ext) && strings.EqualFold(stem[len(stem)-len(ext):], ext) {
			stem = stem[:len(stem)-len(ext)]
			break
		}
	}
	switch {
	case p == "":
	case strings.EqualFold(stem, "readme") || strings.EqualFold(stem, "index"):
		p = strings.TrimSuffix(strings.TrimSuffix(p, base), "/")
	default:
		p = strings.TrimSuffix(p, base) + stem
	}
	if p == "" {
		// The top folder's README.md is the first page, as in a Git
		// export.
		if len(a.c.Pages) > 0 {
			return a.c.Pages[0].Page.ID, ""
		}
		return "", "/"
	}
	if n := a.byPath[p]; n != nil {
		return n.Page.ID, ""
	}
	return "", p
}

// resolve is the path, from the top and without slashes around it, that
// href names from the folder dir. ".." above the top stays at the top.
func resolve(dir, href string) string {
	href = decode(href)
	if !strings.HasPrefix(href, "/") {
		href = "/" + dir + "/" + href
	}
	return strings.Trim(path.Clean(href), "/")
}

// use records that the page from uses target t.
func (a *analyzer) use(from string, t Target, rel enum.ContentReferenceRelation) {
	k := t.key()
	u := a.byKey[k]
	if u == nil {
		sum := sha256.Sum256([]byte(k))
		u = &Usage{ID: hex.EncodeToString(sum[:12]), Target: t, Status: a.status(t), Relation: rel, Order: len(a.order)}
		a.byKey[k] = u
		a.order = append(a.order, u)
	}
	if rel == enum.ContentReferenceRelationDependsOn {
		// A target embedded anywhere is one the content depends on.
		u.Relation = rel
	}
	if n := len(u.Pages); n == 0 || u.Pages[n-1] != from {
		u.Pages = append(u.Pages, from)
	}
}

// status decides whether a target is there.
func (a *analyzer) status(t Target) enum.ContentReferenceStatus {
	switch t.Kind {
	case enum.ContentReferenceKindUrl:
		if a.inApp(t.URL) {
			return enum.ContentReferenceStatusInApp
		}
		return enum.ContentReferenceStatusOk
	case enum.ContentReferenceKindAnchor:
		if t.Page == "" || !a.anchorsOf(t.Page)[t.Anchor] {
			return enum.ContentReferenceStatusBroken
		}
	case enum.ContentReferenceKindPage:
		if t.Page == "" {
			return enum.ContentReferenceStatusBroken
		}
	case enum.ContentReferenceKindFile:
		if t.File == "" {
			return enum.ContentReferenceStatusBroken
		}
	}
	return enum.ContentReferenceStatusOk
}

// anchorsOf returns the anchors of a page's headings, read once.
func (a *analyzer) anchorsOf(pageID string) map[string]bool {
	if set, ok := a.anchors[pageID]; ok {
		return set
	}
	set := map[string]bool{}
	if n := a.byID[pageID]; n != nil && n.Page.Type == enum.PageTypeDocument {
		for _, s := range document.Sections(n.Page.Markdown) {
			if s.Anchor != "" {
				set[s.Anchor] = true
			}
		}
	}
	a.anchors[pageID] = set
	return set
}

// inApp reports whether u is under one of the in-app prefixes.
func (a *analyzer) inApp(u string) bool {
	lower := strings.ToLower(u)
	for _, p := range a.opt.InApp {
		p = strings.ToLower(strings.TrimRight(p, "/"))
		if p == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(lower, p); ok && (rest == "" || strings.ContainsRune("/?#", rune(rest[0]))) {
			return true
		}
	}
	return false
}

// isURL reports whether a destination is a URL rather than a path of the
// revision: it has a scheme, or starts with "//".
func isURL(dest string) bool {
	if strings.HasPrefix(dest, "//") {
		return true
	}
	u, err := url.Parse(dest)
	return err == nil && u.Scheme != ""
}

// decode percent-decodes s, or returns it as it is when it does not decode.
func decode(s string) string {
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}
