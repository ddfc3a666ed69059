package content

import "net/url"

// Children returns the pages under parentID, "" for the top level.
func (c *Content) Children(parentID string) ([]*Node, error) {
	if parentID == "" {
		return c.Pages, nil
	}
	n, _, _, err := c.Find(parentID)
	if err != nil {
		return nil, invalid("parentPageId", "page %q is not in the content", parentID)
	}
	return n.Children, nil
}

// Index turns a place among sibs, just before the page before or just after
// the page after, into the index that Insert and Move take: it counts the
// siblings without the page self ("" for a new page). Neither appends (-1).
func Index(sibs []*Node, before, after *string, self string) (int, error) {
	if before == nil && after == nil {
		return -1, nil
	}
	if before != nil && after != nil {
		return 0, invalid("position", "give before or after, not both")
	}
	ref, offset := before, 0
	if ref == nil {
		ref, offset = after, 1
	}
	if *ref == self {
		return 0, invalid("position", "a page cannot be placed relative to itself")
	}
	i := 0
	for _, n := range sibs {
		if n.Page.ID == self {
			continue
		}
		if n.Page.ID == *ref {
			return i + offset, nil
		}
		i++
	}
	return 0, invalid("position", "page %q is not a sibling at the destination", *ref)
}

// MaxLinkURL is the longest URL a link page points to.
const MaxLinkURL = 2048

// LinkTarget checks and builds the target of a link page: exactly one of
// href, an http(s) or mailto URL, and pageID, a page of the content.
func (c *Content) LinkTarget(href, pageID *string) (*Ref, error) {
	switch {
	case (href == nil) == (pageID == nil):
		return nil, invalid("href", "a link page needs either href or targetPageId")
	case href != nil:
		u, err := url.Parse(*href)
		if err != nil || !(u.Scheme == "mailto" || ((u.Scheme == "http" || u.Scheme == "https") && u.Host != "")) ||
			len(*href) > MaxLinkURL {
			return nil, invalid("href", "must be an http(s) or mailto URL of at most %d characters", MaxLinkURL)
		}
		return &Ref{Kind: "url", URL: *href}, nil
	default:
		if _, _, _, err := c.Find(*pageID); err != nil {
			return nil, invalid("targetPageId", "page %q is not in the content", *pageID)
		}
		return &Ref{Kind: "page", Page: *pageID}, nil
	}
}
