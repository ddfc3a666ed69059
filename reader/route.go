package reader

import (
	"net/url"

	"github.com/bindery/bindery/graph/model"
)

// spot is a site-space the visitor sees, with its address as they reach
// the site (see model.PublishedView for the addresses inside a site).
type spot struct {
	*model.PublishedSpot
	// url is the path of the site-space's root, ending in "/".
	url string
}

// spots lists the site-spaces the visitor sees, in the site's order.
func (v *visit) spots() []spot {
	if v.spotList == nil {
		v.spotList = make([]spot, len(v.pub.Spots))
		for i, sp := range v.pub.Spots {
			v.spotList[i] = spot{PublishedSpot: sp, url: v.base + sp.Path}
		}
	}
	return v.spotList
}

// locate finds the site-space a path under the site's root is in, and the
// page path inside it ("" for its root); nil when the path names none.
func (v *visit) locate(rest string) (*spot, string) {
	sp, pagePath := v.pub.Locate(rest)
	if sp == nil {
		return nil, ""
	}
	return v.siteSpaceOf(sp.SiteSpace.ID), pagePath
}

// siteSpaceOf returns the spot of a site-space the visitor sees; nil for
// one they do not.
func (v *visit) siteSpaceOf(id string) *spot {
	all := v.spots()
	for i := range all {
		if all[i].SiteSpace.ID == id {
			return &all[i]
		}
	}
	return nil
}

// pathSegment escapes a path or a segment for a URL, keeping its slashes.
func pathSegment(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}
