package reader

import (
	"net/url"
	"strings"

	"github.com/bindery/bindery/ent"
)

// Addresses inside a site: the default section and each section's default
// site-space sit at the root, the others under their paths:
// /<section path>/<site-space path>/<page path>. A path that names a
// section or a site-space is taken as one before it is taken as a page's.
// A site-space's root shows its first page.

// spot is a site-space as the visitor sees it, with its address.
type spot struct {
	// section is nil on a site without sections.
	section *ent.SiteSection
	ss      *ent.SiteSpace
	title   string
	// url is the path of the site-space's root, ending in "/".
	url string
	// isDefault marks the site-space at its section's address.
	isDefault bool
}

// spots lists the site-spaces the visitor sees, in the site's order, with
// their addresses.
func (v *visit) spots() ([]spot, error) {
	if v.spotList != nil {
		return v.spotList, nil
	}
	var out []spot
	add := func(sec *ent.SiteSection, prefix string, sss []*ent.SiteSpace) error {
		def := defaultSiteSpace(sss)
		for _, ss := range sss {
			title, err := v.x.res.SiteSpace().Title(v.ctx, ss)
			if err != nil {
				return err
			}
			u := prefix
			if ss != def {
				u += pathSegment(ss.Path) + "/"
			}
			out = append(out, spot{section: sec, ss: ss, title: title, url: u, isDefault: ss == def})
		}
		return nil
	}
	if len(v.pub.Sections) == 0 {
		if err := add(nil, v.base, v.pub.SiteSpaces); err != nil {
			return nil, err
		}
	}
	def := v.defaultSection()
	for _, ps := range v.pub.Sections {
		prefix := v.base
		if ps.Section != def {
			prefix += pathSegment(ps.Section.Path) + "/"
		}
		if err := add(ps.Section, prefix, ps.SiteSpaces); err != nil {
			return nil, err
		}
	}
	v.spotList = out
	return out, nil
}

// defaultSection is the visitor's default section: the site's, or the
// first they see when a condition hides it; nil on a site without
// sections.
func (v *visit) defaultSection() *ent.SiteSection {
	for _, ps := range v.pub.Sections {
		if ps.Section.IsDefault {
			return ps.Section
		}
	}
	if len(v.pub.Sections) > 0 {
		return v.pub.Sections[0].Section
	}
	return nil
}

// defaultSiteSpace is the default among site-spaces, or the first when a
// condition hides it.
func defaultSiteSpace(sss []*ent.SiteSpace) *ent.SiteSpace {
	for _, ss := range sss {
		if ss.IsDefault {
			return ss
		}
	}
	if len(sss) > 0 {
		return sss[0]
	}
	return nil
}

// locate finds the site-space a path under the site's root is in, and the
// page path inside it ("" for its root); nil when the path names none.
func (v *visit) locate(rest string) (*spot, string, error) {
	all, err := v.spots()
	if err != nil || len(all) == 0 {
		return nil, "", err
	}
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if segs[0] == "" {
		segs = nil
	}
	// The section: named by the first segment, or the default.
	sec := v.defaultSection()
	for _, ps := range v.pub.Sections {
		if len(segs) > 0 && ps.Section.Path == segs[0] {
			sec, segs = ps.Section, segs[1:]
			break
		}
	}
	var def *spot
	for i := range all {
		sp := &all[i]
		if sp.section != sec {
			continue
		}
		if len(segs) > 0 && sp.ss.Path == segs[0] {
			return sp, strings.Join(segs[1:], "/"), nil
		}
		if sp.isDefault {
			def = sp
		}
	}
	if def == nil {
		return nil, "", nil
	}
	return def, strings.Join(segs, "/"), nil
}

// pathSegment escapes a path or a segment for a URL, keeping its slashes.
func pathSegment(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// siteSpaceOf returns the spot of a site-space the visitor sees; nil for
// one they do not.
func (v *visit) siteSpaceOf(id string) (*spot, error) {
	all, err := v.spots()
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ss.ID == id {
			return &all[i], nil
		}
	}
	return nil, nil
}
