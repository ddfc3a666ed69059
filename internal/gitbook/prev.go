package gitbook

import (
	"strings"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// indexPrev indexes the pages an import replaces: those it finds again keep
// their IDs, creation times and, unchanged, their update times.
func (im *importer) indexPrev(prev *content.Content) {
	im.prevByPath = map[string]*content.Node{}
	im.prev = prev
	if prev == nil {
		return
	}
	im.prevTop = prev.Pages
	prev.Walk(func(n, _ *content.Node, p string) {
		if _, seen := im.prevByPath[p]; !seen {
			im.prevByPath[p] = n
		}
	})
}

// match finds the prev page p replaces: the one at its path, of its type,
// or, for a group or link, a prev sibling of the same title (and target)
// whose slug p then takes.
func (im *importer) match(p *content.Page, path string, prevSiblings, siblings []*content.Node) *content.Page {
	if old := im.prevByPath[path]; old != nil && old.Page.Type == p.Type && !im.claimed[old.Page.ID] {
		im.claimed[old.Page.ID] = true
		return old.Page
	}
	if p.Type == enum.PageTypeDocument {
		return nil
	}
	for _, s := range prevSiblings {
		old := s.Page
		if im.claimed[old.ID] || old.Type != p.Type || old.Title != p.Title || !refMatches(old.Target, p.Target) {
			continue
		}
		if content.UniqueSlug(siblings, old.Slug, "") != old.Slug {
			continue
		}
		im.claimed[old.ID] = true
		p.Slug = old.Slug
		return old
	}
	return nil
}

// stamp gives p its ID and times: old's when it replaces old, with what the
// layout has no place for taken from old.
func (im *importer) stamp(p, old *content.Page) {
	if old == nil {
		p.ID, p.CreatedAt, p.UpdatedAt = im.newID(id.Page), im.now, im.now
		return
	}
	p.ID, p.CreatedAt = old.ID, old.CreatedAt
	p.NoIndex, p.NoRobotsIndex = old.NoIndex, old.NoRobotsIndex
	if old.Layout != nil {
		l := *old.Layout
		p.Layout = &l
	}
	if old.Cover != nil {
		c := *old.Cover
		p.Cover = &c
	}
	if p.Type != enum.PageTypeDocument {
		p.Emoji, p.Icon, p.Description, p.Hidden = old.Emoji, old.Icon, old.Description, old.Hidden
	}
	if samePage(p, old) {
		p.Markdown, p.UpdatedAt = old.Markdown, old.UpdatedAt
		return
	}
	p.UpdatedAt = im.now
}

// samePage reports whether the files left p as old was, the trailing
// newlines of markdown, which a file does not keep, aside.
func samePage(p, old *content.Page) bool {
	return p.Type == old.Type && p.Title == old.Title && p.Slug == old.Slug && p.Emoji == old.Emoji &&
		p.Icon == old.Icon && p.Description == old.Description && p.Hidden == old.Hidden &&
		sameRef(p.Target, old.Target) &&
		strings.TrimRight(p.Markdown, "\n") == strings.TrimRight(old.Markdown, "\n")
}

// pageLink is a link page to a page that may not have its ID yet, and the
// prev page it replaces.
type pageLink struct{ page, old *content.Page }

// refMatches is sameRef for a link to a page whose ID is not known yet:
// any link to a page matches it.
func refMatches(old, p *content.Ref) bool {
	if p != nil && p.Kind == "page" && p.Page == "" {
		return old != nil && old.Kind == "page"
	}
	return sameRef(old, p)
}

func sameRef(a, b *content.Ref) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// freshPage is a page read from file that no prev page at its path matched.
type freshPage struct {
	page *content.Page
	file string
}

// moveKey is what a page's file holds: a page whose file moved unchanged
// has the same. Its title may come from SUMMARY.md, which a move edits.
type moveKey struct{ description, markdown string }

func moveKeyOf(p *content.Page) moveKey {
	return moveKey{p.Description, strings.TrimRight(p.Markdown, "\n")}
}

// adoptMoved gives a page whose file moved (renamed, or its folder moved)
// and is otherwise unchanged the ID of the prev page it was, as Git's
// rename detection would see it: a fresh page takes the ID of a prev
// document page that no page claimed and that holds the same description
// and markdown (not empty), when that pairing is the only one either has.
// So a move in the repository is a move in the space, and what hangs on
// the page's ID (comments, links to it, its place in a merge) follows it.
// A file moved and edited at once is a new page, as are copies: no guess
// is made between look-alikes. It runs once every path has claimed its
// prev page, so that a page at its own path always keeps its ID.
func (im *importer) adoptMoved() {
	if len(im.fresh) == 0 || im.prev == nil {
		return
	}
	fresh := map[moveKey][]freshPage{}
	for _, f := range im.fresh {
		if k := moveKeyOf(f.page); k.markdown != "" {
			fresh[k] = append(fresh[k], f)
		}
	}
	gone := map[moveKey][]*content.Page{}
	im.prev.Walk(func(n, _ *content.Node, _ string) {
		p := n.Page
		if p.Type != enum.PageTypeDocument || im.claimed[p.ID] {
			return
		}
		if k := moveKeyOf(p); len(fresh[k]) > 0 {
			gone[k] = append(gone[k], p)
		}
	})
	for _, f := range im.fresh {
		k := moveKeyOf(f.page)
		if k.markdown == "" || len(fresh[k]) != 1 || len(gone[k]) != 1 {
			continue
		}
		old := gone[k][0]
		im.claimed[old.ID] = true
		im.stamp(f.page, old)
		im.listed[f.file] = f.page.ID
	}
}
