package links

import (
	"slices"

	"github.com/bindery/bindery/internal/enum"
)

// OfPage returns the usages of the page's links, each with the page as its
// one location, in order.
func (a *Analysis) OfPage(pageID string) []*Usage {
	var out []*Usage
	for _, u := range a.Usages {
		if slices.Contains(u.Pages, pageID) {
			c := *u
			c.Pages = []string{pageID}
			out = append(out, &c)
		}
	}
	return out
}

// Backlinks returns the IDs of the other pages that link to the page (to
// it or to one of its anchors), in tree order.
func (a *Analysis) Backlinks(pageID string) []string {
	return a.using(func(t Target) bool {
		return t.Page == pageID && (t.Kind == enum.ContentReferenceKindPage || t.Kind == enum.ContentReferenceKindAnchor)
	}, pageID)
}

// FileBacklinks returns the IDs of the pages that use the file (link to it,
// show it as an image or a cover), in tree order.
func (a *Analysis) FileBacklinks(fileID string) []string {
	return a.using(func(t Target) bool { return t.Kind == enum.ContentReferenceKindFile && t.File == fileID }, "")
}

// using returns the pages, but except, that use a target that match
// selects, each once, in tree order.
func (a *Analysis) using(match func(Target) bool, except string) []string {
	seen := map[string]bool{except: true}
	var out []string
	for _, u := range a.Usages {
		if !match(u.Target) {
			continue
		}
		for _, p := range u.Pages {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(x, y string) int { return a.pageOrder[x] - a.pageOrder[y] })
	return out
}

// WithStatus returns the usages of the status; all of them for "".
func WithStatus(us []*Usage, status enum.ContentReferenceStatus) []*Usage {
	if status == "" {
		return us
	}
	var out []*Usage
	for _, u := range us {
		if u.Status == status {
			out = append(out, u)
		}
	}
	return out
}

// Stats counts usages: distinct targets, and those broken.
type Stats struct {
	Total  int
	Broken int
}

// Count returns the stats of usages.
func Count(us []*Usage) Stats {
	s := Stats{Total: len(us)}
	for _, u := range us {
		if u.Status == enum.ContentReferenceStatusBroken {
			s.Broken++
		}
	}
	return s
}

// NewlyBroken counts the broken usages of us whose target is not broken in
// base: what a change request breaks that its space's content does not.
func NewlyBroken(us, base []*Usage) int {
	was := map[string]bool{}
	for _, u := range base {
		if u.Status == enum.ContentReferenceStatusBroken {
			was[u.Target.key()] = true
		}
	}
	n := 0
	for _, u := range us {
		if u.Status == enum.ContentReferenceStatusBroken && !was[u.Target.key()] {
			n++
		}
	}
	return n
}
