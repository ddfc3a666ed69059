package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/mdtext"
)

// importZip imports an archive of markdown: each .md or .markdown file is a
// page and each folder a page with children, whose markdown and title come
// from its README.md or index.md (or a sibling file named like the folder,
// as GitBook exports it). Images the markdown references are imported from
// the archive; nothing else is fetched.
func (im *importer) importZip(ctx context.Context, u *url.URL) error {
	resp, err := im.fetch.get(ctx, u, nil)
	if err != nil {
		return err
	}
	r, err := zip.NewReader(bytes.NewReader(resp.Body), int64(len(resp.Body)))
	// Names that would escape a folder are harmless here: nothing is
	// written to disk, and newArchive cleans every path.
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return errorf(CodeInvalid, "%s is not a zip archive", redact(resp.URL))
	}
	if len(r.File) > maxZipEntries {
		return errorf(CodeFetch, "%s is too large: it has more than %d entries", redact(resp.URL), maxZipEntries)
	}
	// Declared sizes can lie, so reads are bounded too; but an archive that
	// admits to being too large is refused before anything is unpacked.
	var unpacked uint64
	for _, f := range r.File {
		unpacked += f.UncompressedSize64
		if unpacked > math.MaxInt64 || f.UncompressedSize64 > math.MaxInt64 {
			unpacked = math.MaxInt64
			break
		}
	}
	if left := im.fetch.maxTotal - im.fetch.used; int64(unpacked) > left {
		return errorf(CodeFetch, "%s is too large: it unpacks to more than the %s an import may hold",
			redact(resp.URL), formatBytes(im.fetch.maxTotal))
	}
	z := newArchive(im, r)
	pages, err := z.children(z.tree, true)
	if err != nil {
		return err
	}
	im.res.Pages = pages
	return nil
}

// archive is a zip archive being imported.
type archive struct {
	im *importer
	// entries are the archive's files by cleaned path, dotfiles included
	// (GitBook keeps images in .gitbook/assets).
	entries map[string]*zip.File
	// tree holds the markdown files; prefix is a single top folder holding
	// everything, left out of the tree.
	tree   *folder
	prefix string
}

// folder is a folder of the archive with its markdown files.
type folder struct {
	name    string
	folders map[string]*folder
	// files are the markdown files by base name, with their full paths.
	files map[string]string
}

func newFolder(name string) *folder {
	return &folder{name: name, folders: map[string]*folder{}, files: map[string]string{}}
}

func newArchive(im *importer, r *zip.Reader) *archive {
	z := &archive{im: im, entries: map[string]*zip.File{}, tree: newFolder("")}
	var pages []string
	for _, f := range r.File {
		name := strings.ReplaceAll(f.Name, "\\", "/")
		if strings.HasSuffix(name, "/") || f.FileInfo().IsDir() {
			continue
		}
		p := strings.TrimPrefix(path.Clean("/"+name), "/")
		parts := strings.Split(p, "/")
		if p == "" || parts[0] == "__MACOSX" {
			continue
		}
		if _, dup := z.entries[p]; dup {
			continue
		}
		z.entries[p] = f
		if isMarkdownFile(p) && !hidden(parts) && !strings.EqualFold(p, "SUMMARY.md") {
			pages = append(pages, p)
		}
	}
	z.prefix = commonFolder(pages)
	for _, p := range pages {
		parts := strings.Split(strings.TrimPrefix(p, z.prefix), "/")
		d := z.tree
		for _, part := range parts[:len(parts)-1] {
			if d.folders[part] == nil {
				d.folders[part] = newFolder(part)
			}
			d = d.folders[part]
		}
		d.files[parts[len(parts)-1]] = p
	}
	return z
}

func isMarkdownFile(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}

func hidden(parts []string) bool {
	for _, p := range parts {
		if strings.HasPrefix(p, ".") {
			return true
		}
	}
	return false
}

// commonFolder is "top/" when every path is inside the folder top, as in
// an archive of a repository, and "" otherwise.
func commonFolder(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	top, _, ok := strings.Cut(paths[0], "/")
	if !ok {
		return ""
	}
	for _, p := range paths[1:] {
		if !strings.HasPrefix(p, top+"/") {
			return ""
		}
	}
	return top + "/"
}

// folderIndex is the file of d that holds the folder's own page, or "".
func folderIndex(d *folder) string {
	for _, want := range []string{"readme.md", "readme.markdown", "index.md", "index.markdown"} {
		for name := range d.files {
			if strings.ToLower(name) == want {
				return name
			}
		}
	}
	return ""
}

func isReadme(name string) bool {
	lower := strings.ToLower(name)
	return lower == "readme.md" || lower == "readme.markdown"
}

// children returns the pages in d: README first, then files and folders by
// name. At the top, a README is a page; below it, the folder's own page.
func (z *archive) children(d *folder, top bool) ([]*content.Node, error) {
	index := ""
	if !top {
		index = folderIndex(d)
	}
	var items []zipItem
	for name, sub := range d.folders {
		items = append(items, zipItem{name: name, folder: sub})
	}
	for name, p := range d.files {
		if name == index {
			continue
		}
		// "guide.md" beside a folder "guide" without its own README is
		// that folder's page.
		if sub := d.folders[strings.TrimSuffix(name, path.Ext(name))]; sub != nil && folderIndex(sub) == "" {
			continue
		}
		items = append(items, zipItem{name: name, file: p})
	}
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if ra, rb := isReadme(a.name), isReadme(b.name); ra != rb {
			return ra
		}
		ka, kb := strings.ToLower(a.stem()), strings.ToLower(b.stem())
		if ka != kb {
			return ka < kb
		}
		return a.name < b.name
	})
	var out []*content.Node
	for _, it := range items {
		var n *content.Node
		var err error
		if it.folder != nil {
			n, err = z.folderPage(d, it.folder)
		} else {
			n, err = z.filePage(it.file, nameFromPath(it.file))
		}
		if err != nil {
			return nil, err
		}
		if n != nil {
			out = attach(out, n)
		}
	}
	return out, nil
}

// zipItem is a markdown file or a folder among its siblings.
type zipItem struct {
	name string
	// file is the full path of a markdown file; folder is set instead for
	// a folder.
	file   string
	folder *folder
}

// stem is the name the item sorts by: a file's name without extension.
func (it zipItem) stem() string {
	if it.folder != nil {
		return it.name
	}
	return strings.TrimSuffix(it.name, path.Ext(it.name))
}

// folderPage is the page of folder sub of parent, or nil when it holds no
// markdown at all.
func (z *archive) folderPage(parent, sub *folder) (*content.Node, error) {
	kids, err := z.children(sub, false)
	if err != nil {
		return nil, err
	}
	own := ""
	if index := folderIndex(sub); index != "" {
		own = sub.files[index]
	} else {
		for name, p := range parent.files {
			if strings.TrimSuffix(name, path.Ext(name)) == sub.name && (own == "" || p < own) {
				own = p
			}
		}
	}
	var n *content.Node
	switch {
	case own != "":
		if n, err = z.filePage(own, sub.name); err != nil {
			return nil, err
		}
	case len(kids) == 0:
		return nil, nil
	default:
		n = z.im.newPage(sub.name, "")
		z.im.res.Total++
		z.im.res.Imported++
	}
	n.Children = kids
	return n, nil
}

// filePage is the page of the markdown file at p; fallback is its title
// when the markdown names none.
func (z *archive) filePage(p, fallback string) (*content.Node, error) {
	z.im.res.Total++
	data, err := z.read(p)
	if err != nil {
		return nil, err
	}
	src, ok := markdownText(data)
	if !ok {
		src = strings.ToValidUTF8(src, "\uFFFD")
	}
	doc := parseMarkdown(src)
	if doc.title == "" {
		doc.title = fallback
	}
	body := mdtext.Rewrite(doc.body, func(ref string, image bool) string {
		if !image {
			return ref
		}
		target, ok := z.resolve(ref, p)
		if !ok {
			return ref
		}
		if name := z.im.archiveImage(target, func() ([]byte, error) { return z.read(target) }); name != "" {
			return assetPrefix + name
		}
		return ref
	})
	n := z.im.newPage(doc.title, body)
	n.Page.Description = doc.description
	z.im.res.Imported++
	return n, nil
}

// resolve finds the archive entry a reference in the file at from points
// to.
func (z *archive) resolve(ref, from string) (string, bool) {
	if u, err := url.Parse(ref); err != nil || u.Scheme != "" || u.Host != "" {
		return "", false
	}
	ref, _, _ = strings.Cut(ref, "#")
	ref, _, _ = strings.Cut(ref, "?")
	if s, err := url.PathUnescape(ref); err == nil {
		ref = s
	}
	var candidates []string
	if strings.HasPrefix(ref, "/") {
		candidates = []string{path.Join(z.prefix, ref), path.Clean(ref)[1:]}
	} else {
		candidates = []string{path.Join(path.Dir(from), ref)}
	}
	for _, c := range candidates {
		if _, ok := z.entries[c]; ok {
			return c, true
		}
	}
	return "", false
}

// read unpacks the entry at p within the import's limits.
func (z *archive) read(p string) ([]byte, error) {
	f := z.entries[p]
	what := fmt.Sprintf("archive entry %q", p)
	rc, err := f.Open()
	if err != nil {
		return nil, errorf(CodeInvalid, "%s cannot be unpacked", what)
	}
	defer rc.Close()
	size := int64(math.MaxInt64)
	if f.UncompressedSize64 < math.MaxInt64 {
		size = int64(f.UncompressedSize64)
	}
	data, err := z.im.fetch.read(rc, size, what)
	var e *Error
	switch {
	case errors.As(err, &e):
		return nil, e
	case err != nil:
		return nil, errorf(CodeInvalid, "%s is damaged", what)
	}
	return data, nil
}
