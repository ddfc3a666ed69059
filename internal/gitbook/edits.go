package gitbook

import (
	"path"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// ApplyEdits brings into c what a commit that edits page files changed,
// reading only those files: each is parsed, and its page edited in place,
// so that saving c writes those pages alone. It gives what Import of the
// commit's files with c as prev gives, when c is what Import read (or
// Export wrote) from the commit before. What it still reads whole is the
// table of contents, to know that a file is a page's, and c's pages, to
// find which one.
//
// files are the new commit's files under the project directory (as Import
// takes them), changed the paths among them (or gone from them) that
// differ from the commit before, and before the content those had there.
//
// It returns false for a commit it cannot read this way, leaving c as it
// was; the caller then imports the files whole. That is a commit that adds
// or removes a file the layout reads, or changes the table of contents,
// .gitbook.yaml or an asset; no SUMMARY.md (the pages then come from the
// files' names); a file whose page cannot be told for sure (two pages
// alike, or none); a changed title of the space's first page or of a
// top-level README.md, which can make its slug. An error leaves c half
// edited, for the caller to drop.
func ApplyEdits(files, before map[string][]byte, changed []string, c *content.Content, now time.Time) (bool, error) {
	if len(changed) == 0 {
		return true, nil
	}
	im := newImporter(files, nil, now)
	if _, ok := im.files[im.cfg.Summary]; !ok {
		return false, nil
	}
	im.onlyNames = map[string]bool{}
	for _, k := range changed {
		im.onlyNames[path.Base(k)] = true
	}
	owners := im.pickOwners(im.entries())

	type edit struct{ was, now content.Page }
	var edits []edit
	for _, k := range changed {
		if k == configName {
			return false, nil
		}
		file, ok := im.rooted(k)
		if !ok {
			continue // outside the root: not the space's
		}
		e := owners[file]
		old, inBefore := before[k]
		_, inFiles := files[k]
		if e == nil || !inBefore || !inFiles || file == im.cfg.Summary || strings.HasPrefix(file, assetDir) {
			return false, nil
		}
		var ed edit
		im.readPageData(&ed.was, file, old, e.title)
		im.readPageFile(&ed.now, file, e.title)
		if (file == im.cfg.Readme || file == readmeName) && ed.was.Title != ed.now.Title {
			return false, nil
		}
		edits = append(edits, ed)
	}

	// The page each file was read into is the one document page that holds
	// what the file held.
	found := map[pageKey][]*content.Page{}
	titles := map[string]bool{}
	for _, ed := range edits {
		found[keyOf(&ed.was)] = nil
		titles[ed.was.Title] = true
	}
	c.Walk(func(n, _ *content.Node, _ string) {
		// The title first: a key holds the whole markdown.
		if n.Page.Type != enum.PageTypeDocument || !titles[n.Page.Title] {
			return
		}
		if pages, ok := found[keyOf(n.Page)]; ok {
			found[keyOf(n.Page)] = append(pages, n.Page)
		}
	})
	pages := make([]*content.Page, len(edits))
	taken := map[string]bool{}
	for i, ed := range edits {
		match := found[keyOf(&ed.was)]
		if len(match) != 1 || taken[match[0].ID] {
			return false, nil
		}
		pages[i], taken[match[0].ID] = match[0], true
	}

	for i, ed := range edits {
		p := pages[i]
		ed.now.Type, ed.now.Slug, ed.now.Target = p.Type, p.Slug, p.Target
		if samePage(&ed.now, p) {
			continue
		}
		n, _, err := c.Edit(p.ID)
		if err != nil {
			return false, err
		}
		n.Page.Title, n.Page.Description, n.Page.Icon, n.Page.Emoji, n.Page.Hidden =
			ed.now.Title, ed.now.Description, ed.now.Icon, ed.now.Emoji, ed.now.Hidden
		n.Page.Markdown, n.Page.UpdatedAt = ed.now.Markdown, now
	}
	return true, nil
}

// pageKey is what a page file gives its page.
type pageKey struct {
	title, description, icon, emoji, markdown string
	hidden                                    bool
}

func keyOf(p *content.Page) pageKey {
	return pageKey{p.Title, p.Description, p.Icon, p.Emoji, strings.TrimRight(p.Markdown, "\n"), p.Hidden}
}
