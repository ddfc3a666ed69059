package reader

import (
	"slices"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// nav is the navigation around entry i of s (-1: around no page of it):
// the site's sections, the section's site-spaces, and s's pages.
func (v *visit) nav(s *space, i int) (nav, error) {
	var out nav
	var err error
	var cur *spot
	if s != nil {
		cur = s.spot
	}
	if out.Tabs, err = v.tabs(cur); err != nil {
		return out, err
	}
	if cur != nil {
		all := v.spots()
		for k := range all {
			if all[k].Section == cur.Section {
				out.Variants = append(out.Variants, link{Title: all[k].Title, URL: all[k].url, Current: all[k].SiteSpace == cur.SiteSpace})
			}
		}
		if len(out.Variants) < 2 {
			out.Variants = nil
		}
		out.Tree = s.tree(i)
	}
	return out, nil
}

// tabs are the visitor's sections along the top bar, a group's together in
// one tab; none for a site of one section or none.
func (v *visit) tabs(cur *spot) ([]tab, error) {
	if len(v.pub.Sections) < 2 {
		return nil, nil
	}
	all := v.spots()
	sectionURL := func(sec *ent.SiteSection) string {
		for k := range all {
			if all[k].Section == sec && all[k].Default {
				return all[k].url
			}
		}
		return ""
	}
	var out []tab
	var group string
	for _, ps := range v.pub.Sections {
		sec := ps.Section
		l := link{Title: sec.Title, URL: sectionURL(sec), Current: cur != nil && cur.Section == sec}
		if l.URL == "" {
			// A section whose site-spaces the visitor sees none of.
			continue
		}
		if sec.GroupID == nil {
			out, group = append(out, tab{link: l}), ""
			continue
		}
		if *sec.GroupID != group {
			g, err := v.x.res.SiteSection().SectionGroup(v.ctx, sec)
			if err != nil {
				return nil, err
			}
			title := ""
			if g != nil {
				title = g.Title
			}
			out, group = append(out, tab{link: link{Title: title}}), *sec.GroupID
		}
		t := &out[len(out)-1]
		t.Group = append(t.Group, l)
		t.Current = t.Current || l.Current
	}
	return out, nil
}

// tree is the sidebar of s: its pages but hidden ones, the way to entry i
// open and i marked current. The pages under a page off that way are left
// out, and the page is marked Folded: its own page lists them, and a
// sidebar that held every page of a large space would be most of each
// page's weight (70 of 75 KB in a space of 500 pages five levels deep).
// Read the Docs' theme folds its navigation the same way.
func (s *space) tree(i int) []treePage {
	open := map[int]bool{}
	for j := i; j >= 0; j = s.order.Entries[j].Parent {
		open[j] = true
	}
	var build func(nodes []*content.Node) []treePage
	build = func(nodes []*content.Node) []treePage {
		var out []treePage
		for _, n := range nodes {
			p := n.Page
			if p.Hidden {
				continue
			}
			j := s.order.ByID[p.ID]
			tp := treePage{link: link{Title: p.Title, Current: j == i}, Emoji: p.Emoji, Open: open[j]}
			switch p.Type {
			case enum.PageTypeGroup:
				tp.IsGroup = true
			case enum.PageTypeLink:
				tp.URL = s.linkURL(j)
			default:
				tp.URL = s.pageURL(j)
			}
			if tp.IsGroup || tp.Open {
				tp.Children = build(n.Children)
			} else {
				tp.Folded = slices.ContainsFunc(n.Children, func(c *content.Node) bool { return !c.Page.Hidden })
			}
			out = append(out, tp)
		}
		return out
	}
	return build(s.c.Pages)
}

// linkURL is where link page j goes; "" when it points nowhere the
// visitor can go.
func (s *space) linkURL(j int) string {
	k, url := s.order.LinkTarget(j)
	if k >= 0 {
		return s.pageURL(k)
	}
	return url
}
