package gitbook

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// Export returns the files of c in GitBook's layout, by path relative to the
// project directory: SUMMARY.md, a markdown file per document page and the
// files under .gitbook/assets. blob returns the bytes of a file's Blob hash.
//
// Import reads them back into the same pages, except what the layout has no
// place for (see Import). It writes no .gitbook.yaml: GitBook's defaults
// describe this layout.
func Export(c *content.Content, blob func(hash string) ([]byte, error)) (map[string][]byte, error) {
	out := map[string][]byte{}
	if err := exportFiles(c, blob, out); err != nil {
		return nil, err
	}
	files := map[string]string{}
	var bad error
	c.Walk(func(n, _ *content.Node, p string) {
		fp := PagePath(c, n, p)
		switch {
		case fp == "" || bad != nil:
		case !within(fp):
			bad = fmt.Errorf("page %s: its path %q cannot be a file's", n.Page.ID, p)
		case out[fp] != nil:
			bad = fmt.Errorf("page %s: its file %s is another page's or file's", n.Page.ID, fp)
		default:
			files[n.Page.ID] = fp
			depth := strings.Count(fp, "/")
			out[fp] = writePage(n.Page, relativeAssets(n.Page.Markdown, depth))
		}
	})
	if bad != nil {
		return nil, bad
	}
	w := newSummaryWriter()
	var entries func(nodes []*content.Node, depth int)
	entries = func(nodes []*content.Node, depth int) {
		for _, n := range nodes {
			p := n.Page
			switch p.Type {
			case enum.PageTypeDocument:
				w.item(depth, p.Title, files[p.ID])
			case enum.PageTypeLink:
				w.item(depth, p.Title, linkTarget(p.Target, files))
			default:
				continue
			}
			entries(n.Children, depth+1)
		}
	}
	for _, n := range c.Pages {
		if n.Page.Type == enum.PageTypeGroup {
			w.group(n.Page.Title)
			entries(n.Children, 0)
			continue
		}
		w.ungrouped()
		entries([]*content.Node{n}, 0)
	}
	out[summaryName] = w.bytes()
	return out, nil
}

// PagePath is the path, relative to the project directory, of the file of
// page n of c found at content path p (as content.Walk gives it), as Export
// writes it; "" for a page without a file (a group or a link). The space's
// first page is README.md whatever its slug; a page with children is
// <p>/README.md, any other <p>.md.
func PagePath(c *content.Content, n *content.Node, p string) string {
	switch {
	case n.Page.Type != enum.PageTypeDocument:
		return ""
	case len(c.Pages) > 0 && c.Pages[0].Page.ID == n.Page.ID:
		return readmeName
	case len(n.Children) > 0:
		return p + "/" + readmeName
	}
	return p + ".md"
}

// linkTarget is where a link page's SUMMARY.md entry points: its URL, or
// the file of the page it targets; "" when that page has no file, which
// Import skips with a warning.
func linkTarget(t *content.Ref, files map[string]string) string {
	switch {
	case t == nil:
		return ""
	case t.Kind == "url":
		return t.URL
	case t.Kind == "page" && files[t.Page] != "":
		// "./" tells Import that this entry is a link to the page, not
		// the page, wherever each is (see pickOwners).
		return "./" + files[t.Page]
	}
	return ""
}

// exportFiles writes c's files under .gitbook/assets. Names are unique in a
// space as Bindery makes them, but nothing enforces it: a second file of a
// name gets a numbered one, and markdown referring to the name means the
// first (as document.Assets resolves it).
func exportFiles(c *content.Content, blob func(string) ([]byte, error), out map[string][]byte) error {
	taken := map[string]bool{}
	for _, f := range c.Files {
		name := strings.ReplaceAll(f.Name, "/", "-")
		if name == "" || name == "." || name == ".." {
			name = "file"
		}
		stem, ext := name, path.Ext(name)
		if ext != "" && ext != name {
			stem = strings.TrimSuffix(name, ext)
		} else {
			ext = ""
		}
		for i := 2; taken[name]; i++ {
			name = stem + "-" + strconv.Itoa(i) + ext
		}
		taken[name] = true
		data, err := blob(f.Blob)
		if err != nil {
			return fmt.Errorf("file %s (%s): %w", f.ID, f.Name, err)
		}
		if data == nil {
			data = []byte{}
		}
		out[assetDir+name] = data
	}
	return nil
}

// ExportEdits returns the files that Export writes differently for now than
// for was, when the move from was to now only edits what pages' files hold
// (markdown, description, icon, emoji, the hidden flag) or what no file
// holds: the table of contents and every other file are then the same.
// read returns the branch's file at a path relative to the project
// directory; the files returned are by such paths too, placed where the
// branch's .gitbook.yaml says (see Config.Place).
//
// It returns false, and the caller exports whole, when the move is more
// than that (a page added, removed, moved, renamed or retitled, a link or
// a file of .gitbook/assets changed), or when a changed page's file on the
// branch is not what Export writes for was: a branch of another layout,
// which Export would rewrite, or one edited since.
func ExportEdits(was, now *content.Loaded, read func(path string) ([]byte, bool)) (map[string][]byte, bool) {
	if was.Roots().Files != now.Roots().Files {
		return nil, false
	}
	cfgFiles := map[string][]byte{}
	if b, ok := read(configName); ok {
		cfgFiles[configName] = b
	}
	cfg, _ := ReadConfig(cfgFiles)
	if _, err := cfg.Place(nil); err != nil {
		return nil, false // Export fails, and says why
	}
	place := func(p string) string {
		if cfg.Root == "" {
			return p
		}
		return cfg.Root + "/" + p
	}
	edited, ok := content.Edited(was, now)
	if !ok {
		return nil, false
	}
	out := map[string][]byte{}
	for _, ed := range edited {
		p, o := ed.Now.Page, ed.Was.Page
		if p.Type != o.Type || p.Title != o.Title || !sameRef(p.Target, o.Target) {
			return nil, false
		}
		fp := PagePath(now.Content, ed.Now, ed.Path)
		if fp == "" {
			continue // a group or a link: only its title is written
		}
		depth := strings.Count(fp, "/")
		before := writePage(o, relativeAssets(o.Markdown, depth))
		if held, ok := read(place(fp)); !ok || string(held) != string(before) {
			return nil, false
		}
		if after := writePage(p, relativeAssets(p.Markdown, depth)); string(after) != string(before) {
			out[place(fp)] = after
		}
	}
	return out, true
}
