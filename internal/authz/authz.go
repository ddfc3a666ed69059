// Package authz decides what the caller may do. It is pure: resolvers gather
// the facts (membership, grants, default levels, visibility) and every
// decision about an organization, a collection or a space is made here, so
// that /v1 and GraphQL cannot disagree.
//
// The rules, in order:
//
//  1. Organization admins are admins of all of the organization's content.
//  2. Other members (not guests) get the default level of the content: the
//     first level on the path from the content to the organization root that
//     is not "inherit". A role gives that role; no level (null) gives nothing.
//     When every level inherits, members get their organization role.
//  3. Members, guests included, also get every role granted explicitly to
//     them or to one of their teams, on the content or an ancestor collection.
//     The strongest role wins.
//  4. Anyone gets read on a public or unlisted space, on a share-link space
//     with its share key, on a visitor-auth space with a valid visitor token,
//     and on an in-collection space whose collection they can access.
//
// A caller with no role cannot see the content: it answers 404, exactly as if
// it did not exist. A caller who can see it but lacks the role for an action
// gets 403.
package authz

import (
	"github.com/bindery/bindery/internal/enum"
)

// Membership is the caller's membership of one organization.
type Membership struct {
	// Member is true when the caller is an active (not disabled) member.
	Member bool
	// Role is the organization role; empty for a guest.
	Role enum.Role
}

// OrgRole returns the caller's role on the organization and whether they can
// see it at all (guests can, with no role).
func (m Membership) OrgRole() (enum.Role, bool) {
	return m.Role, m.Member
}

// Level is one step of the path from a collection or space to the root.
type Level struct {
	// Default is the step's default level; nil is the guest level: members
	// get no access by default.
	Default *enum.DefaultLevel
	// Grant is the strongest role granted explicitly to the caller or one of
	// their teams on this step; empty when there is none.
	Grant enum.Role
}

// Content is what is known about a collection or space, seen by the caller.
type Content struct {
	Membership Membership
	// Path holds the content itself first, then its parent collections up to
	// the root.
	Path []Level
	// Visibility is set for spaces; collections leave it empty.
	Visibility enum.Visibility
	// Keys are what the request carries that opens the content to a reader.
	Keys
}

// Keys are what a request carries that opens a space to a reader: each
// opens only the visibility it belongs to.
type Keys struct {
	// ShareKey is true when the request carries a valid share key, which
	// opens a share-link space.
	ShareKey bool
	// VisitorToken is true when the request carries a valid visitor token,
	// which opens a visitor-auth space.
	VisitorToken bool
}

// Decision is the caller's access to a resource.
type Decision struct {
	// Role is the effective role; empty means the caller cannot see it.
	Role enum.Role
	// Member is true when the role comes from membership or grants rather
	// than from the content's visibility alone.
	Member bool
	// Observer is true for an organization the caller is no member of but
	// sees because they can see some of its content: whoever can see a space
	// can see who owns it.
	Observer bool
	// Published is true when the role comes only from a published site the
	// caller reads: it opens the space's published content (its current
	// revision) and nothing else, so every action but View is refused and
	// what lives in the space beside its content (change requests,
	// comments, older revisions) stays hidden.
	Published bool
}

// Visible reports whether the caller can see the resource. A guest member
// sees their organization without a role on it, and so does an observer.
func (d Decision) Visible() bool { return d.Role != "" || d.Member || d.Observer }

// Can reports whether the decision allows an action that needs min.
func (d Decision) Can(min enum.Role) bool { return d.Role.AtLeast(min) }

// Decide returns the caller's access to the content.
func Decide(c Content) Decision {
	m := c.Membership
	if m.Member && m.Role == enum.RoleAdmin {
		return Decision{Role: enum.RoleAdmin, Member: true}
	}
	role := memberRole(m, c.Path)
	d := Decision{Role: role, Member: role != ""}
	if public := visibilityRole(c); public != "" && d.Role == "" {
		d.Role = public
	}
	return d
}

// memberRole applies rules 2 and 3.
func memberRole(m Membership, path []Level) enum.Role {
	if !m.Member {
		return ""
	}
	var role enum.Role
	if m.Role != "" {
		role = m.Role
		for _, l := range path {
			if l.Default == nil {
				role = ""
				break
			}
			if r, ok := l.Default.Role(); ok {
				role = r
				break
			}
		}
	}
	for _, l := range path {
		role = enum.MaxRole(role, l.Grant)
	}
	return role
}

// visibilityRole applies rule 4.
func visibilityRole(c Content) enum.Role {
	switch c.Visibility {
	case enum.VisibilityPublic, enum.VisibilityUnlisted:
		return enum.RoleRead
	case enum.VisibilityShareLink:
		if c.ShareKey {
			return enum.RoleRead
		}
	case enum.VisibilityVisitorAuth:
		if c.VisitorToken {
			return enum.RoleRead
		}
	case enum.VisibilityInCollection:
		if len(c.Path) > 1 && Decide(Content{Membership: c.Membership, Path: c.Path[1:]}).Visible() {
			return enum.RoleRead
		}
	}
	return ""
}
