package authz

import (
	"sort"

	"github.com/bindery/bindery/internal/enum"
)

// Facts is what authorization knows about a caller across organizations:
// their memberships, by organization ID, and the strongest role granted to
// them or their teams on each collection or space, by its ID.
type Facts struct {
	Memberships map[string]Membership
	Grants      map[string]enum.Role
}

// Collection is a collection as the organization view needs it.
type Collection struct {
	ID      string
	Parent  string // empty at the root
	Default *enum.DefaultLevel
}

// Space is a space as the organization view needs it.
type Space struct {
	ID         string
	Parent     string // empty at the root
	Default    *enum.DefaultLevel
	Visibility enum.Visibility
}

// Org is everything needed to decide about the content of one organization
// for one caller: their membership, the collection tree and their grants.
type Org struct {
	Membership  Membership
	Collections map[string]Collection
	// Grants maps a collection or space ID to the strongest role granted to
	// the caller or their teams on it.
	Grants map[string]enum.Role
	// SeesContent is true when the caller, a non-member, can see some of the
	// organization's content: a public or unlisted space, or a share-link
	// space whose key they presented, or a visitor-auth space whose visitor
	// token they presented.
	SeesContent bool
}

// maxDepth bounds walks up the collection tree, so that a corrupt cycle
// cannot loop forever.
const maxDepth = 64

// path returns the levels from the collection up to the root.
func (o Org) path(collectionID string) []Level {
	var levels []Level
	for id := collectionID; id != "" && len(levels) < maxDepth; {
		c, ok := o.Collections[id]
		if !ok {
			break
		}
		levels = append(levels, Level{Default: c.Default, Grant: o.Grants[c.ID]})
		id = c.Parent
	}
	return levels
}

// Organization decides about the organization itself.
func (o Org) Organization() Decision {
	role, visible := o.Membership.OrgRole()
	if !visible {
		return Decision{Observer: o.SeesContent}
	}
	return Decision{Role: role, Member: true}
}

// Collection decides about a collection of the organization.
func (o Org) Collection(id string) Decision {
	if _, ok := o.Collections[id]; !ok {
		return Decision{}
	}
	return Decide(Content{Membership: o.Membership, Path: o.path(id)})
}

// Space decides about a space of the organization.
func (o Org) Space(s Space, keys Keys) Decision {
	path := append([]Level{{Default: s.Default, Grant: o.Grants[s.ID]}}, o.path(s.Parent)...)
	return Decide(Content{Membership: o.Membership, Path: path, Visibility: s.Visibility, Keys: keys})
}

// ParentAccepts reports whether the caller may create or move content into
// the parent (a collection ID, or empty for the organization root).
func (o Org) ParentAccepts(parent string) bool {
	if parent == "" {
		return Organizations.Allows(o.Organization(), CreateContent, false)
	}
	return Collections.Allows(o.Collection(parent), CreateContent, false)
}

// Subtree returns the collection root and every collection under it, each
// once, root first: what a delete or a transfer of root takes along, and
// where a move of root cannot go. Whether the caller sees them is not asked.
func (o Org) Subtree(root string) []string {
	children := map[string][]string{}
	for _, c := range o.Collections {
		children[c.Parent] = append(children[c.Parent], c.ID)
	}
	out := []string{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// VisibleCollections returns the IDs of the collections the caller can see,
// sorted, or all=true when they see every one.
func (o Org) VisibleCollections() (ids []string, all bool) {
	all = true
	for id := range o.Collections {
		if o.Collection(id).Visible() {
			ids = append(ids, id)
		} else {
			all = false
		}
	}
	sort.Strings(ids)
	return ids, all
}

// SpaceScope is the list form of Space: the set of spaces the caller can see,
// described so that it translates into one SQL predicate. A space is in the
// scope exactly when Space(space, false) is visible, except that unlisted
// spaces are listed to members only; the tests hold the two to that.
type SpaceScope struct {
	// All is true when the caller sees every space.
	All bool
	// RoleDefaults admits spaces whose own default level is a role.
	RoleDefaults bool
	// InheritRoot admits root spaces whose default level inherits.
	InheritRoot bool
	// InheritParents admits spaces that inherit, under these collections.
	InheritParents []string
	// GrantedSpaces admits these spaces.
	GrantedSpaces []string
	// GrantedParents admits every space under these collections.
	GrantedParents []string
	// InCollectionParents admits in-collection spaces under these collections.
	InCollectionParents []string
	// Unlisted admits unlisted spaces. Only members see them in lists: to
	// anyone else an unlisted space is reachable by its ID but not listed,
	// which is what unlisted means.
	Unlisted bool
}

// SpaceScope returns the scope of the organization's spaces for the caller.
func (o Org) SpaceScope() SpaceScope {
	m := o.Membership
	if m.Member && m.Role == enum.RoleAdmin {
		return SpaceScope{All: true}
	}
	nonGuest := m.Member && m.Role != ""
	sc := SpaceScope{RoleDefaults: nonGuest, InheritRoot: nonGuest, Unlisted: m.Member}
	inherit := enum.DefaultLevelInherit
	for id := range o.Collections {
		if nonGuest && memberRole(Membership{Member: true, Role: m.Role}, append([]Level{{Default: &inherit}}, stripGrants(o.path(id))...)) != "" {
			sc.InheritParents = append(sc.InheritParents, id)
		}
		if m.Member && hasGrant(o.path(id)) {
			sc.GrantedParents = append(sc.GrantedParents, id)
		}
		if o.Collection(id).Visible() {
			sc.InCollectionParents = append(sc.InCollectionParents, id)
		}
	}
	if m.Member {
		for id, r := range o.Grants {
			if r != "" {
				if _, isCollection := o.Collections[id]; !isCollection {
					sc.GrantedSpaces = append(sc.GrantedSpaces, id)
				}
			}
		}
	}
	for _, s := range [][]string{sc.InheritParents, sc.GrantedParents, sc.InCollectionParents, sc.GrantedSpaces} {
		sort.Strings(s)
	}
	return sc
}

// Includes reports whether the space is in the scope. It mirrors the SQL
// predicate built from the scope.
func (sc SpaceScope) Includes(s Space) bool {
	if sc.All {
		return true
	}
	in := func(list []string, v string) bool {
		i := sort.SearchStrings(list, v)
		return i < len(list) && list[i] == v
	}
	isRole := s.Default != nil && *s.Default != enum.DefaultLevelInherit
	inherits := s.Default != nil && *s.Default == enum.DefaultLevelInherit
	switch {
	case sc.RoleDefaults && isRole:
		return true
	case inherits && ((s.Parent == "" && sc.InheritRoot) || (s.Parent != "" && in(sc.InheritParents, s.Parent))):
		return true
	case in(sc.GrantedSpaces, s.ID) || (s.Parent != "" && in(sc.GrantedParents, s.Parent)):
		return true
	case s.Visibility == enum.VisibilityPublic || (s.Visibility == enum.VisibilityUnlisted && sc.Unlisted):
		return true
	case s.Visibility == enum.VisibilityInCollection && s.Parent != "" && in(sc.InCollectionParents, s.Parent):
		return true
	}
	return false
}

func stripGrants(levels []Level) []Level {
	out := make([]Level, len(levels))
	for i, l := range levels {
		out[i] = Level{Default: l.Default}
	}
	return out
}

func hasGrant(levels []Level) bool {
	for _, l := range levels {
		if l.Grant != "" {
			return true
		}
	}
	return false
}
