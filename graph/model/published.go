package model

import (
	"strings"

	"github.com/bindery/bindery/ent"
)

// Addresses inside a published site: the default section and each
// section's default site-space sit at the root, the others under their
// paths: <section path>/<site-space path>/<page path>. A path whose first
// segment names a section, or (after it) a site-space, is taken as one
// before it is taken as a page's. A site-space's root shows its first page.

// PublishedView is what a visitor sees of a published site: its structure,
// and each site-space they see with its address.
type PublishedView struct {
	*PublishedSite
	// Spots are the site-spaces the visitor sees, in the site's order.
	Spots []*PublishedSpot
}

// PublishedSpot is a site-space of a published site as a visitor sees it.
type PublishedSpot struct {
	// Section is nil on a site without sections.
	Section   *ent.SiteSection
	SiteSpace *ent.SiteSpace
	// Title is the site-space's (its space's, unless it has its own).
	Title string
	// Path is the site-space's address under the site's root: "" or
	// ending in "/".
	Path string
	// Default marks the site-space at its section's (or the site's)
	// address.
	Default bool
}

// DefaultSection is the visitor's default section: the site's, or the
// first they see when a condition hides it; nil on a site without
// sections.
func (v *PublishedView) DefaultSection() *ent.SiteSection {
	for _, ps := range v.Sections {
		if ps.Section.IsDefault {
			return ps.Section
		}
	}
	if len(v.Sections) > 0 {
		return v.Sections[0].Section
	}
	return nil
}

// Locate finds the site-space that a path under the site's root is in, and
// the page path inside it ("" for its root); nil when the path names none
// the visitor sees. A trailing ".md" is the caller's to take off.
func (v *PublishedView) Locate(path string) (*PublishedSpot, string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	if segs[0] == "" {
		segs = nil
	}
	sec := v.DefaultSection()
	for _, ps := range v.Sections {
		if len(segs) > 0 && ps.Section.Path == segs[0] {
			sec, segs = ps.Section, segs[1:]
			break
		}
	}
	var def *PublishedSpot
	for _, sp := range v.Spots {
		if sp.Section != sec {
			continue
		}
		if len(segs) > 0 && sp.SiteSpace.Path == segs[0] {
			return sp, strings.Join(segs[1:], "/")
		}
		if sp.Default {
			def = sp
		}
	}
	if def == nil {
		return nil, ""
	}
	return def, strings.Join(segs, "/")
}

// Spot returns the visitor's spot of a site-space; nil for one they do not
// see.
func (v *PublishedView) Spot(siteSpaceID string) *PublishedSpot {
	for _, sp := range v.Spots {
		if sp.SiteSpace.ID == siteSpaceID {
			return sp
		}
	}
	return nil
}

// Siblings counts the spots of a section (nil: the site's root).
func (v *PublishedView) Siblings(sec *ent.SiteSection) int {
	n := 0
	for _, sp := range v.Spots {
		if sp.Section == sec {
			n++
		}
	}
	return n
}
