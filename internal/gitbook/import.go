package gitbook

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// ErrNoPages is returned when a project directory holds no page: syncing it
// would empty the space, which a wrong root or branch more likely explains.
var ErrNoPages = errors.New("the repository has no markdown page to import")

// Import reads a project directory's files (paths relative to it, as gitsync
// gives them once the caller strips the repository's project directory) into
// pages and files.
//
// prev, when not nil, is the content the import replaces. A page at the same
// path keeps its ID and CreatedAt, and its UpdatedAt when nothing the files
// hold changed; a group or link page, whose path the files do not give, is
// also found among its prev siblings by title (and target); a page whose
// file moved unchanged takes its old ID (see adoptMoved). A file with the
// same name keeps its ID. What the layout has no place for is kept from
// prev: the noIndex flags, layout and cover of every page, and the emoji,
// icon, description and hidden flag of groups and links.
//
// newID makes an ID of the given type prefix (id.Page, id.File): id.New
// outside tests. now stamps new and changed pages.
func Import(files map[string][]byte, prev *content.Content, newID func(prefix string) string, now time.Time) (*Result, error) {
	im := newImporter(files, newID, now)
	cfg := im.cfg
	im.indexPrev(prev)
	im.readAssets(prev)
	entries := im.entries()
	im.owners = im.pickOwners(entries)
	im.res.Pages = im.build(entries, "", im.prevTop, true)
	im.adoptMoved()
	for file, links := range im.links {
		for _, l := range links {
			l.page.Target.Page = im.listed[file]
			if l.old != nil && samePage(l.page, l.old) {
				l.page.UpdatedAt = l.old.UpdatedAt
			} else {
				l.page.UpdatedAt = im.now
			}
		}
	}
	if _, ok := im.files[cfg.Summary]; ok {
		im.warnUnlisted()
	}
	if len(im.res.Pages) == 0 {
		return nil, ErrNoPages
	}
	im.res.Sources = im.sources()
	return &im.res, nil
}

// newImporter reads the configuration of files, and keeps those under its
// root by their paths relative to it.
func newImporter(files map[string][]byte, newID func(prefix string) string, now time.Time) *importer {
	im := &importer{files: map[string][]byte{}, newID: newID, now: now, listed: map[string]string{}, links: map[string][]pageLink{}, claimed: map[string]bool{}}
	cfg, warnings := ReadConfig(files)
	im.cfg = cfg
	im.warn(warnings...)
	var outside []string
	for k, data := range files {
		p, ok := im.rooted(k)
		if !ok {
			if !within(k) {
				outside = append(outside, k)
			}
			continue
		}
		im.files[p] = data
	}
	sort.Strings(outside)
	for _, k := range outside {
		im.warn(fmt.Sprintf("%q is not a path inside the project directory, so it is skipped", k))
	}
	return im
}

// rooted is the path of a project directory's file k relative to the root;
// false for a file outside the root, or a path that is not inside the
// project directory.
func (im *importer) rooted(k string) (string, bool) {
	if !within(k) {
		return "", false
	}
	if im.cfg.Root == "" {
		return k, true
	}
	return strings.CutPrefix(k, im.cfg.Root+"/")
}

// sources lists the files the import read as the space's (Result.Sources).
func (im *importer) sources() []string {
	rooted := func(p string) string {
		if im.cfg.Root == "" {
			return p
		}
		return im.cfg.Root + "/" + p
	}
	var out []string
	if _, ok := im.files[im.cfg.Summary]; ok {
		out = append(out, rooted(im.cfg.Summary))
	}
	for file := range im.owners {
		out = append(out, rooted(file))
	}
	// The files readAssets takes.
	for p := range im.files {
		if name, ok := strings.CutPrefix(p, assetDir); ok && !strings.Contains(name, "/") {
			out = append(out, rooted(p))
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// Sources is what Import of files would give as Result.Sources, without
// reading the pages: the table of contents, the files its entries (or,
// without one, the folders) make pages of, and the files of
// .gitbook/assets; nil when there is no entry, as Import then finds no
// page and fails.
func Sources(files map[string][]byte) []string {
	im := newImporter(files, nil, time.Time{})
	entries := im.entries()
	if len(entries) == 0 {
		return nil
	}
	im.owners = im.pickOwners(entries)
	return im.sources()
}

// entries is the table of contents: SUMMARY.md's, else the one the
// folders make (inferTree).
func (im *importer) entries() []*entry {
	src, ok := im.files[im.cfg.Summary]
	if !ok {
		return im.inferTree()
	}
	im.summaryDir = dirOf(im.cfg.Summary)
	entries, warnings := parsedSummary(normalize(src))
	for _, w := range warnings {
		im.warn(im.cfg.Summary + ": " + w)
	}
	return entries
}

// importer holds the state of one import. Paths are relative to the root.
type importer struct {
	files      map[string][]byte
	cfg        Config
	summaryDir string
	newID      func(string) string
	now        time.Time
	// owners maps each page file to the entry that is its page; links
	// are the link pages to it, whose target is set once it has an ID;
	// listed maps it to its page's ID.
	owners map[string]*entry
	links  map[string][]pageLink
	listed map[string]string
	// prevByPath finds prev's pages by content path; prevTop are its
	// top-level pages; claimed are the prev page IDs taken.
	prevByPath map[string]*content.Node
	prevTop    []*content.Node
	claimed    map[string]bool
	// prev is the content the import replaces; fresh are the pages read
	// from files that no prev page at their path matched (see adoptMoved).
	prev  *content.Content
	fresh []freshPage
	res   Result
	// onlyNames, when set, are the names of the files pickOwners looks
	// for: ApplyEdits wants the owners of the files changed alone.
	onlyNames map[string]bool
}

func (im *importer) warn(w ...string) { im.res.Warnings = append(im.res.Warnings, w...) }

// build makes the pages of entries, children of the page at parentPath
// ("" for the top level), whose prev children were prevSiblings.
func (im *importer) build(entries []*entry, parentPath string, prevSiblings []*content.Node, top bool) []*content.Node {
	var out []*content.Node
	for _, e := range entries {
		out = im.add(out, e, parentPath, prevSiblings, top)
	}
	return out
}

// add appends the page of e, and its children, to out.
func (im *importer) add(out []*content.Node, e *entry, parentPath string, prevSiblings []*content.Node, top bool) []*content.Node {
	page := &content.Page{Title: e.title}
	slug, file := "", ""
	hoist := func(why string) []*content.Node {
		im.warn(fmt.Sprintf("%s: %s", im.where(e), why))
		for _, c := range e.children {
			out = im.add(out, c, parentPath, prevSiblings, top)
		}
		return out
	}
	switch {
	case e.group:
		if !top {
			return hoist("a group can only be at the top level, so its pages take its place")
		}
		page.Type = enum.PageTypeGroup
		slug = e.folder
		if slug == "" {
			slug = im.childrenSlug(e)
		}
	case e.folder != "":
		page.Type, slug = enum.PageTypeDocument, e.folder
	case isURL(e.target):
		page.Type, page.Target = enum.PageTypeLink, &content.Ref{Kind: "url", URL: e.target}
		if len(e.children) > 0 {
			out = im.add(out, &entry{title: e.title, target: e.target, line: e.line}, parentPath, prevSiblings, top)
			return hoist("a link cannot have pages under it, so they follow it")
		}
	default:
		var ok bool
		if file, ok = im.resolve(e.target); !ok {
			return hoist(fmt.Sprintf("%q is not a markdown file of the repository, so the entry is skipped", e.target))
		}
		if owner := im.owners[file]; owner != e {
			page.Type, page.Target = enum.PageTypeLink, &content.Ref{Kind: "page"}
			file = ""
			if len(e.children) > 0 {
				out = im.add(out, &entry{title: e.title, target: e.target, line: e.line}, parentPath, prevSiblings, top)
				return hoist("a link cannot have pages under it, so they follow it")
			}
			break
		}
		im.readPageFile(page, file, e.title)
		slug = im.fileSlug(file, e, page, len(out), top)
	}
	if slug == "" {
		slug = content.Slugify(page.Title)
	}
	return im.attach(out, &content.Node{Page: page}, slug, file, e.target, parentPath, prevSiblings, e.children)
}

// pickOwners picks the page of each file SUMMARY.md lists: the first entry
// naming it as a plain path, else the first entry; the others are link
// pages to it. Export writes a link to a page as "./<file>", so that the
// page is the entry it writes for the page wherever the link is.
func (im *importer) pickOwners(entries []*entry) map[string]*entry {
	owners := map[string]*entry{}
	plain := map[string]bool{}
	var walk func(entries []*entry)
	walk = func(entries []*entry) {
		for _, e := range entries {
			if !e.group && e.folder == "" && !isURL(e.target) && im.mayName(e.target) {
				if file, ok := im.resolve(e.target); ok {
					isPlain := !strings.HasPrefix(e.target, "./")
					if owners[file] == nil || isPlain && !plain[file] {
						owners[file], plain[file] = e, isPlain
					}
				}
			}
			walk(e.children)
		}
	}
	walk(entries)
	return owners
}

// mayName reports whether target may resolve to one of the files whose
// owners are wanted: any file unless onlyNames is set. A target resolves
// to a file whose name it holds as written, or percent-encoded.
func (im *importer) mayName(target string) bool {
	if im.onlyNames == nil {
		return true
	}
	if strings.Contains(target, "%") {
		return true
	}
	for name := range im.onlyNames {
		if strings.Contains(target, name) {
			return true
		}
	}
	return false
}

// where names an entry for a warning.
func (im *importer) where(e *entry) string {
	if e.line > 0 {
		return fmt.Sprintf("%s line %d", im.cfg.Summary, e.line)
	}
	return e.target
}

// attach appends n, read from file ("" for none), with a slug unique
// among out, finds the prev page it replaces, then adds its children.
func (im *importer) attach(out []*content.Node, n *content.Node, slug, file, entryTarget, parentPath string, prevSiblings []*content.Node, children []*entry) []*content.Node {
	p := n.Page
	p.Slug = content.UniqueSlug(out, validSlug(slug), "")
	old := im.match(p, joinPath(parentPath, p.Slug), prevSiblings, out)
	im.stamp(p, old)
	if old == nil && file != "" {
		im.fresh = append(im.fresh, freshPage{p, file})
	}
	switch {
	case file != "":
		im.listed[file] = p.ID
	case p.Target != nil && p.Target.Kind == "page" && p.Target.Page == "":
		target, _ := im.resolve(entryTarget)
		im.links[target] = append(im.links[target], pageLink{p, old})
	}
	var prevChildren []*content.Node
	if prevParent := im.prevByPath[joinPath(parentPath, p.Slug)]; prevParent != nil {
		prevChildren = prevParent.Children
	}
	n.Children = im.build(children, joinPath(parentPath, p.Slug), prevChildren, false)
	return append(out, n)
}

// readPageFile fills a document page from its file.
func (im *importer) readPageFile(p *content.Page, file, linkText string) {
	im.readPageData(p, file, im.files[file], linkText)
}

// readPageData fills a document page from data, the content of file.
func (im *importer) readPageData(p *content.Page, file string, data []byte, linkText string) {
	pf, warnings := readPage(string(data))
	for _, w := range warnings {
		im.warn(file + ": " + w)
	}
	p.Type = enum.PageTypeDocument
	p.Title = pf.title
	if p.Title == "" {
		p.Title = strings.TrimSpace(linkText)
	}
	if p.Title == "" {
		p.Title = strings.TrimSuffix(path.Base(file), ".md")
		if p.Title == "README" && dirOf(file) != "" {
			p.Title = path.Base(dirOf(file))
		}
	}
	p.Description, p.Icon, p.Emoji, p.Hidden = pf.Description, pf.Icon, pf.Emoji, pf.Hidden
	p.Markdown = rootAssets(pf.body, strings.Count(file, "/"))
}

// fileSlug is the slug of a document page read from file: the file's name,
// or its folder's for a README.md. The space's first page (structure.readme)
// has a name that says nothing: it takes the slug of prev's page at its
// position, else the folder its children's files are in, else its title's.
func (im *importer) fileSlug(file string, e *entry, p *content.Page, index int, top bool) string {
	if file == im.cfg.Readme || file == readmeName {
		if file == im.cfg.Readme && top && index < len(im.prevTop) {
			if old := im.prevTop[index].Page; old.Type == enum.PageTypeDocument && !im.claimed[old.ID] {
				return old.Slug
			}
		}
		if s := im.childrenSlug(e); s != "" {
			return s
		}
		return content.Slugify(p.Title)
	}
	if path.Base(file) == readmeName {
		return path.Base(dirOf(file))
	}
	return strings.TrimSuffix(path.Base(file), ".md")
}

// childrenSlug is the slug the files of e's children say e has: the folder
// they sit in, as Export places them; "" when they do not say.
func (im *importer) childrenSlug(e *entry) string {
	for _, c := range e.children {
		if c.group || c.folder != "" || isURL(c.target) {
			continue
		}
		file, ok := im.resolve(c.target)
		if !ok || im.owners[file] != c {
			continue
		}
		cp := strings.TrimSuffix(strings.TrimSuffix(file, "/"+readmeName), ".md")
		if d := dirOf(cp); d != "" {
			return path.Base(d)
		}
		return ""
	}
	return ""
}

// resolve finds the markdown file a SUMMARY.md target names, relative to
// SUMMARY.md's folder: as written, or percent-decoded, without its anchor.
func (im *importer) resolve(target string) (string, bool) {
	cands := []string{target}
	if t, _, cut := strings.Cut(target, "#"); cut {
		cands = append(cands, t)
	}
	for _, c := range cands[:len(cands):len(cands)] {
		if dec, err := url.PathUnescape(c); err == nil && dec != c {
			cands = append(cands, dec)
		}
	}
	for _, c := range cands {
		if strings.TrimSpace(c) == "" {
			continue
		}
		p, ok := cleanRel(path.Join(im.summaryDir, c))
		if !ok || !strings.HasSuffix(p, ".md") {
			continue
		}
		if _, ok := im.files[p]; ok {
			return p, true
		}
	}
	return "", false
}

// warnUnlisted counts the markdown files SUMMARY.md does not list, which
// GitBook does not import either.
func (im *importer) warnUnlisted() {
	n := 0
	for p := range im.files {
		if _, ok := im.listed[p]; !ok && strings.HasSuffix(p, ".md") && p != im.cfg.Summary && !strings.HasPrefix(p, ".gitbook/") {
			n++
		}
	}
	if n > 0 {
		im.warn(fmt.Sprintf("%d markdown files are not in %s, so they are not imported", n, im.cfg.Summary))
	}
}

var slugPattern = regexp.MustCompile(`^[\p{Ll}\p{Lo}\p{N}_.~-]{1,100}$`)

// validSlug is s when it is a slug Bindery accepts (validate.PageSlug:
// lowercase letters, digits, "-", "_", "." and "~"), else a slug made of it.
func validSlug(s string) string {
	if slugPattern.MatchString(s) && s != "." && s != ".." {
		return s
	}
	return content.Slugify(s)
}

// isURL reports whether a target is an absolute URL, which makes a link
// page, rather than a file of the repository.
func isURL(target string) bool {
	u, err := url.Parse(target)
	return err == nil && len(u.Scheme) > 1
}

func joinPath(prefix, slug string) string {
	if prefix == "" {
		return slug
	}
	return prefix + "/" + slug
}

func dirOf(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

func normalize(src []byte) string {
	return strings.TrimPrefix(strings.ReplaceAll(string(src), "\r\n", "\n"), "\ufeff")
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
