package authz

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

func lvl(v enum.DefaultLevel) *enum.DefaultLevel { return &v }

func TestDecide(t *testing.T) {
	inherit, guest := lvl(enum.DefaultLevelInherit), (*enum.DefaultLevel)(nil)
	admin := Membership{Member: true, Role: enum.RoleAdmin}
	editor := Membership{Member: true, Role: enum.RoleEdit}
	reader := Membership{Member: true, Role: enum.RoleRead}
	guestMember := Membership{Member: true}
	stranger := Membership{}

	for _, tc := range []struct {
		name     string
		c        Content
		want     enum.Role
		wantMemb bool
	}{
		{"org admin is admin of everything", Content{Membership: admin, Path: []Level{{Default: guest}}}, enum.RoleAdmin, true},
		{"inherit everywhere gives the org role", Content{Membership: editor, Path: []Level{{Default: inherit}, {Default: inherit}}}, enum.RoleEdit, true},
		{"space level wins over org role", Content{Membership: reader, Path: []Level{{Default: lvl(enum.DefaultLevelEdit)}}}, enum.RoleEdit, true},
		{"space level can lower the org role", Content{Membership: editor, Path: []Level{{Default: lvl(enum.DefaultLevelComment)}}}, enum.RoleComment, true},
		{"collection level applies to inheriting space", Content{Membership: editor, Path: []Level{{Default: inherit}, {Default: lvl(enum.DefaultLevelRead)}}}, enum.RoleRead, true},
		{"guest level hides from members", Content{Membership: editor, Path: []Level{{Default: guest}}}, "", false},
		{"guest level of the collection hides inheriting space", Content{Membership: editor, Path: []Level{{Default: inherit}, {Default: guest}}}, "", false},
		{"grant raises a member", Content{Membership: reader, Path: []Level{{Default: inherit, Grant: enum.RoleReview}}}, enum.RoleReview, true},
		{"grant on ancestor applies", Content{Membership: editor, Path: []Level{{Default: guest}, {Default: inherit, Grant: enum.RoleCreate}}}, enum.RoleCreate, true},
		{"grant reaches a guest", Content{Membership: guestMember, Path: []Level{{Default: inherit, Grant: enum.RoleComment}}}, enum.RoleComment, true},
		{"guest sees nothing by default", Content{Membership: guestMember, Path: []Level{{Default: inherit}}}, "", false},
		{"grant does not lower", Content{Membership: editor, Path: []Level{{Default: inherit, Grant: enum.RoleRead}}}, enum.RoleEdit, true},
		{"stranger cannot see private", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityPrivate}, "", false},
		{"stranger reads public", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityPublic}, enum.RoleRead, false},
		{"stranger reads unlisted", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityUnlisted}, enum.RoleRead, false},
		{"share-link needs the key", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityShareLink}, "", false},
		{"share-link with key reads", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityShareLink, Keys: Keys{ShareKey: true}}, enum.RoleRead, false},
		{"share-link is not opened by a visitor token", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityShareLink, Keys: Keys{VisitorToken: true}}, "", false},
		{"visitor-auth with a visitor token reads", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityVisitorAuth, Keys: Keys{VisitorToken: true}}, enum.RoleRead, false},
		{"visitor-auth is not opened by a share key", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityVisitorAuth, Keys: Keys{ShareKey: true}}, "", false},
		{"visitor-auth is not opened by an API token", Content{Membership: stranger, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityVisitorAuth}, "", false},
		{"in-collection follows the collection", Content{Membership: editor, Path: []Level{{Default: guest}, {Default: inherit}}, Visibility: enum.VisibilityInCollection}, enum.RoleRead, false},
		{"in-collection hidden with the collection", Content{Membership: editor, Path: []Level{{Default: guest}, {Default: guest}}, Visibility: enum.VisibilityInCollection}, "", false},
		{"public keeps a member's higher role", Content{Membership: editor, Path: []Level{{Default: inherit}}, Visibility: enum.VisibilityPublic}, enum.RoleEdit, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Decide(tc.c)
			assert.Equal(t, tc.want, d.Role)
			assert.Equal(t, tc.wantMemb, d.Member)
		})
	}
}

// TestPermissionsTable pins the role needed for each permission; the role
// table of docs/api/permissions.md says the same.
func TestPermissionsTable(t *testing.T) {
	roles := []enum.Role{enum.RoleRead, enum.RoleComment, enum.RoleEdit, enum.RoleReview, enum.RoleCreate, enum.RoleAdmin}
	want := map[string]enum.Role{
		"view": enum.RoleRead, "access": enum.RoleRead, "comment": enum.RoleComment, "edit": enum.RoleEdit,
		"triggerGitSync": enum.RoleEdit, "merge": enum.RoleEdit, "review": enum.RoleReview, "admin": enum.RoleAdmin,
		"viewInviteLinks": enum.RoleAdmin, "installIntegration": enum.RoleAdmin,
	}
	for _, r := range roles {
		p := ForSpace(Decision{Role: r, Member: true})
		got := map[string]bool{"view": p.View, "access": p.Access, "comment": p.Comment, "edit": p.Edit,
			"triggerGitSync": p.TriggerGitSync, "merge": p.Merge, "review": p.Review, "admin": p.Admin,
			"viewInviteLinks": p.ViewInviteLinks, "installIntegration": p.InstallIntegration}
		for perm, min := range want {
			assert.Equal(t, r.AtLeast(min), got[perm], "%s with role %s", perm, r)
		}
	}
	public := ForSpace(Decision{Role: enum.RoleRead})
	assert.True(t, public.View)
	assert.False(t, public.Access, "a public reader has no member access")

	c := ForCollection(Decision{Role: enum.RoleCreate, Member: true})
	assert.Equal(t, CollectionPermissions{View: true, Create: true}, c)

	o := ForOrganization(Org{Membership: Membership{Member: true, Role: enum.RoleCreate}}.Organization())
	assert.True(t, o.View && o.CreateContent && o.ListMembers)
	assert.False(t, o.Admin || o.ViewBilling)
	g := ForOrganization(Org{Membership: Membership{Member: true}}.Organization())
	assert.True(t, g.View)
	assert.False(t, g.ListMembers || g.CreateContent)
	observer := Org{SeesContent: true}.Organization()
	assert.Equal(t, OrganizationPermissions{View: true}, ForOrganization(observer),
		"a stranger who sees some content sees the organization, and may do nothing")
	assert.False(t, Org{}.Organization().Visible(), "a stranger who sees no content does not see the organization")
}

// TestTablesAllow checks the rule mechanics every table shares: a minimum
// role, the owner's exception, and view-only-when-visible for an empty role.
func TestTablesAllow(t *testing.T) {
	tbl := Table{Name: "thing", Rules: map[Action]Rule{
		View:   {Min: ""},
		Update: {Min: enum.RoleEdit, Owner: true},
		Delete: {Min: enum.RoleAdmin},
	}}
	reader := Decision{Role: enum.RoleRead, Member: true}
	assert.True(t, tbl.Allows(reader, View, false))
	assert.False(t, tbl.Allows(Decision{}, View, false))
	assert.False(t, tbl.Allows(reader, Update, false))
	assert.True(t, tbl.Allows(reader, Update, true), "the owner may update their own")
	assert.False(t, tbl.Allows(Decision{}, Update, true), "an owner who cannot see it any more may not")
	assert.False(t, tbl.Allows(reader, Delete, true), "ownership counts only where the rule says so")
	assert.Panics(t, func() { tbl.Allows(reader, Merge, false) }, "an action the table lacks is a bug")
	for _, table := range AllTables() {
		assert.Contains(t, table.Rules, View, "%s: every resource type has a view rule", table.Name)
	}
}

// TestSpaceScopeMatchesDecide holds the list form to the single-item form
// over random organizations.
func TestSpaceScopeMatchesDecide(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	levels := append([]*enum.DefaultLevel{nil}, func() []*enum.DefaultLevel {
		var out []*enum.DefaultLevel
		for _, v := range enum.DefaultLevelValues() {
			out = append(out, lvl(v))
		}
		return out
	}()...)
	roles := append([]enum.Role{""}, enum.RoleValues()...)
	pick := func(n int) int { return rng.Intn(n) }
	for trial := 0; trial < 300; trial++ {
		o := Org{Collections: map[string]Collection{}, Grants: map[string]enum.Role{}}
		switch pick(4) {
		case 0:
			o.Membership = Membership{}
		case 1:
			o.Membership = Membership{Member: true}
		default:
			o.Membership = Membership{Member: true, Role: roles[1+pick(len(roles)-1)]}
		}
		var ids []string
		for i := 0; i < 1+pick(8); i++ {
			id := fmt.Sprintf("col_%d", i)
			parent := ""
			if len(ids) > 0 && pick(2) == 0 {
				parent = ids[pick(len(ids))]
			}
			o.Collections[id] = Collection{ID: id, Parent: parent, Default: levels[pick(len(levels))]}
			if pick(5) == 0 {
				o.Grants[id] = roles[1+pick(len(roles)-1)]
			}
			ids = append(ids, id)
		}
		sc := o.SpaceScope()
		for i := 0; i < 20; i++ {
			s := Space{ID: fmt.Sprintf("spc_%d", i), Default: levels[pick(len(levels))],
				Visibility: enum.VisibilityValues()[pick(len(enum.VisibilityValues()))]}
			if pick(3) > 0 {
				s.Parent = ids[pick(len(ids))]
			}
			if pick(6) == 0 {
				o.Grants[s.ID] = roles[1+pick(len(roles)-1)]
				sc = o.SpaceScope()
			}
			want := o.Space(s, Keys{}).Visible()
			if !o.Membership.Member && s.Visibility == enum.VisibilityUnlisted {
				want = false // reachable by ID, never listed to a non-member
			}
			require.Equal(t, want, sc.Includes(s), "trial %d space %+v membership %+v", trial, s, o.Membership)
		}
		visible, all := o.VisibleCollections()
		assert.Equal(t, len(visible) == len(o.Collections), all)
	}
}

func TestSubtree(t *testing.T) {
	o := Org{Collections: map[string]Collection{
		"a": {ID: "a"}, "a1": {ID: "a1", Parent: "a"}, "a2": {ID: "a2", Parent: "a"},
		"a11": {ID: "a11", Parent: "a1"}, "b": {ID: "b"},
	}}
	got := o.Subtree("a")
	assert.Equal(t, "a", got[0], "the root first")
	assert.ElementsMatch(t, []string{"a", "a1", "a2", "a11"}, got)
	assert.Equal(t, []string{"a11"}, o.Subtree("a11"), "a leaf is its own subtree")
}
