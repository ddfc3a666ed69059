package graph_test

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// spAccess is what a viewer should get on a space: a role code ("" none, r
// read, c comment, e edit, v review, k create, a admin), with a trailing "*"
// when the role comes from the space's visibility alone rather than from
// membership or grants.
type spAccess string

var spRoleCodes = map[byte]enum.Role{'r': enum.RoleRead, 'c': enum.RoleComment, 'e': enum.RoleEdit,
	'v': enum.RoleReview, 'k': enum.RoleCreate, 'a': enum.RoleAdmin}

// permissions is the permissions object the contract's role table gives.
func (a spAccess) permissions() map[string]any {
	if a == "" {
		return nil
	}
	role, member := spRoleCodes[a[0]], !strings.HasSuffix(string(a), "*")
	at := func(min enum.Role) bool { return role.AtLeast(min) }
	return map[string]any{
		"view": at(enum.RoleRead), "access": member && at(enum.RoleRead),
		"admin": at(enum.RoleAdmin), "viewInviteLinks": at(enum.RoleAdmin), "installIntegration": at(enum.RoleAdmin),
		"comment": member && at(enum.RoleComment), "edit": member && at(enum.RoleEdit),
		"triggerGitSync": member && at(enum.RoleEdit), "merge": member && at(enum.RoleEdit),
		"review": member && at(enum.RoleReview),
	}
}

func spLevel(v enum.DefaultLevel) *enum.DefaultLevel { return &v }

// spOrg builds content and viewers for authorization tests.
type spOrg struct {
	e       *servertest.Env
	t       *testing.T
	ctx     context.Context
	viewers map[string]string // name to token
}

func (o *spOrg) collection(parent string, def *enum.DefaultLevel) string {
	o.t.Helper()
	c := o.e.Client.Collection.Create().SetOrganizationID(o.e.Org.ID).SetTitle("C")
	if parent != "" {
		c.SetParentID(parent)
	}
	col, err := c.Save(o.ctx)
	require.NoError(o.t, err)
	if def == nil {
		require.NoError(o.t, o.e.Client.Collection.UpdateOne(col).ClearDefaultLevel().Exec(o.ctx))
	} else {
		require.NoError(o.t, o.e.Client.Collection.UpdateOne(col).SetDefaultLevel(*def).Exec(o.ctx))
	}
	return col.ID
}

func (o *spOrg) space(title, parent string, def *enum.DefaultLevel, vis enum.Visibility) string {
	o.t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	id := o.e.MustDo(http.MethodPost, "/v1/orgs/"+o.e.Org.ID+"/spaces", o.e.OwnerToken, body, http.StatusCreated)["id"].(string)
	u := o.e.Client.Space.UpdateOneID(id).SetVisibility(vis)
	if def == nil {
		u.ClearDefaultLevel()
	} else {
		u.SetDefaultLevel(*def)
	}
	require.NoError(o.t, u.Exec(o.ctx))
	return id
}

func (o *spOrg) member(name string, role enum.Role) *ent.User {
	o.t.Helper()
	tok, u := o.e.Member(o.e.Org.ID, role, name+"@example.com")
	o.viewers[name] = tok
	return u
}

func (o *spOrg) team(users ...*ent.User) string {
	o.t.Helper()
	team, err := o.e.Client.Team.Create().SetOrganizationID(o.e.Org.ID).SetTitle("Team").Save(o.ctx)
	require.NoError(o.t, err)
	for _, u := range users {
		require.NoError(o.t, o.e.Client.TeamMember.Create().SetTeamID(team.ID).SetUserID(u.ID).Exec(o.ctx))
	}
	return team.ID
}

// grant gives a user or a team a role on a collection or space.
func (o *spOrg) grant(user *ent.User, team, target string, role enum.Role) {
	o.t.Helper()
	c := o.e.Client.ContentGrant.Create().SetRole(role)
	if user != nil {
		c.SetUserID(user.ID)
	} else {
		c.SetTeamID(team)
	}
	if strings.HasPrefix(target, "col_") {
		c.SetCollectionID(target)
	} else {
		c.SetSpaceID(target)
	}
	require.NoError(o.t, c.Exec(o.ctx))
}

const spPermissionFields = `view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration`

// check holds GET, the /v1 list, GraphQL's space(id) and GraphQL's list to
// the expected access of one viewer on every space.
func (o *spOrg) check(t *testing.T, tok string, names map[string]string, want map[string]spAccess) {
	e := o.e
	var visible []string
	for name, id := range names {
		a := want[name]
		res := e.Do(http.MethodGet, "/v1/spaces/"+id, tok, nil)
		if a == "" {
			assert.Equal(t, http.StatusNotFound, res.Status, "GET %s", name)
			g := e.GraphQL(tok, `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": id})
			assert.Equal(t, "NOT_FOUND", g.Code(), "GraphQL space %s", name)
			assert.JSONEq(t, `{"space": null}`, string(g.Data), "GraphQL space %s", name)
			continue
		}
		if want["organization"] != "observer" || name != "unlisted" {
			visible = append(visible, id) // unlisted spaces are not listed to non-members
		}
		if assert.Equal(t, http.StatusOK, res.Status, "GET %s: %s", name, res.Body) {
			assert.Equal(t, a.permissions(), res.JSON()["permissions"], "permissions of %s over /v1", name)
		}
		var out struct {
			Space struct{ Permissions map[string]any }
		}
		e.GraphQL(tok, `query($id: ID!) { space(id: $id) { permissions { `+spPermissionFields+` } } }`,
			map[string]any{"id": id}).Into(t, &out)
		assert.Equal(t, a.permissions(), out.Space.Permissions, "permissions of %s over GraphQL", name)
	}
	sort.Strings(visible)
	if want["organization"] == "" {
		e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/spaces", tok, nil, http.StatusNotFound)
		return
	}
	listed := e.Walk(t, "/v1/orgs/"+e.Org.ID+"/spaces", tok, 1000)
	sort.Strings(listed)
	assert.Equal(t, spNames(names, visible), spNames(names, listed), "the /v1 list and GET disagree")
	var out struct {
		Organization struct {
			Spaces struct {
				Nodes []struct {
					ID          string
					Permissions map[string]any
				}
			}
		}
	}
	e.GraphQL(tok, `query($org: ID!) { organization(id: $org) { spaces(first: 1000) { nodes { id permissions { `+
		spPermissionFields+` } } } } }`, map[string]any{"org": e.Org.ID}).Into(t, &out)
	var gql []string
	for _, n := range out.Organization.Spaces.Nodes {
		gql = append(gql, n.ID)
		for name, id := range names {
			if id == n.ID {
				assert.Equal(t, want[name].permissions(), n.Permissions, "listed permissions of %s", name)
			}
		}
	}
	sort.Strings(gql)
	assert.Equal(t, spNames(names, visible), spNames(names, gql), "the GraphQL list and GET disagree")
}

// spNames turns IDs back into the test's names, for readable failures.
func spNames(names map[string]string, ids []string) []string {
	out := []string{}
	for _, id := range ids {
		n := id
		for name, nid := range names {
			if nid == id {
				n = name
			}
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// TestSpaceAccessTable checks, through both APIs, what every kind of viewer
// gets on spaces with every kind of default level, inside collections with
// every kind of default level, with grants to users, to teams and on
// ancestor collections; and that the lists show exactly the spaces a GET
// shows.
func TestSpaceAccessTable(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	o := &spOrg{e: e, t: t, ctx: context.Background(), viewers: map[string]string{}}
	inherit, read, edit, review, comment, admin := spLevel(enum.DefaultLevelInherit), spLevel(enum.DefaultLevelRead),
		spLevel(enum.DefaultLevelEdit), spLevel(enum.DefaultLevelReview), spLevel(enum.DefaultLevelComment), spLevel(enum.DefaultLevelAdmin)
	private, public := enum.VisibilityPrivate, enum.VisibilityPublic

	colInherit := o.collection("", inherit)
	colRead := o.collection("", read)
	colGuest := o.collection("", nil)
	colNested := o.collection(colGuest, inherit)
	colNestedComment := o.collection(colGuest, comment)

	names := map[string]string{
		"rootInherit":   o.space("rootInherit", "", inherit, private),
		"rootRead":      o.space("rootRead", "", read, private),
		"rootGuest":     o.space("rootGuest", "", nil, private),
		"rootAdmin":     o.space("rootAdmin", "", admin, private),
		"inhInh":        o.space("inhInh", colInherit, inherit, private),
		"readInh":       o.space("readInh", colRead, inherit, private),
		"readEdit":      o.space("readEdit", colRead, edit, private),
		"guestInh":      o.space("guestInh", colGuest, inherit, private),
		"guestReview":   o.space("guestReview", colGuest, review, private),
		"nestedInh":     o.space("nestedInh", colNested, inherit, private),
		"nestedComment": o.space("nestedComment", colNestedComment, inherit, private),
		"inColRead":     o.space("inColRead", colRead, nil, enum.VisibilityInCollection),
		"inColGuest":    o.space("inColGuest", colGuest, nil, enum.VisibilityInCollection),
		"public":        o.space("public", "", nil, public),
		"unlisted":      o.space("unlisted", colGuest, nil, enum.VisibilityUnlisted),
		"shareLink":     o.space("shareLink", "", nil, enum.VisibilityShareLink),
		"visitorAuth":   o.space("visitorAuth", "", inherit, enum.VisibilityVisitorAuth),
	}
	o.viewers["admin"] = e.OwnerToken
	o.member("editor", enum.RoleEdit)
	o.member("reader", enum.RoleRead)
	o.member("guest", "")
	granted := o.member("granted", "")
	teamReader := o.member("teamReader", enum.RoleRead)
	disabled := o.member("disabled", enum.RoleAdmin)
	require.NoError(t, e.Client.Member.Update().Where(member.UserID(disabled.ID)).SetDisabled(true).Exec(context.Background()))
	o.viewers["stranger"] = e.Token(e.User("stranger@example.com"))
	// The granted guest: a user grant on a space, and a team grant on a
	// collection that reaches everything under it.
	o.grant(granted, "", names["rootGuest"], enum.RoleComment)
	o.grant(nil, o.team(granted), colGuest, enum.RoleEdit)
	// The team reader: a team grant on a collection, and a user grant that
	// raises one space.
	o.grant(nil, o.team(teamReader), colGuest, enum.RoleCreate)
	o.grant(teamReader, "", names["readInh"], enum.RoleReview)

	table := map[string]map[string]spAccess{
		"editor": {"organization": "x",
			"rootInherit": "e", "rootRead": "r", "rootAdmin": "a", "inhInh": "e", "readInh": "r", "readEdit": "e",
			"guestReview": "v", "nestedComment": "c", "inColRead": "r*", "public": "r*", "unlisted": "r*", "visitorAuth": "e"},
		"reader": {"organization": "x",
			"rootInherit": "r", "rootRead": "r", "rootAdmin": "a", "inhInh": "r", "readInh": "r", "readEdit": "e",
			"guestReview": "v", "nestedComment": "c", "inColRead": "r*", "public": "r*", "unlisted": "r*", "visitorAuth": "r"},
		"guest": {"organization": "x", "public": "r*", "unlisted": "r*"},
		"granted": {"organization": "x",
			"rootGuest": "c", "guestInh": "e", "guestReview": "e", "nestedInh": "e", "nestedComment": "e",
			"inColGuest": "e", "unlisted": "e", "public": "r*"},
		"teamReader": {"organization": "x",
			"rootInherit": "r", "rootRead": "r", "rootAdmin": "a", "inhInh": "r", "readInh": "v", "readEdit": "e",
			"guestInh": "k", "guestReview": "k", "nestedInh": "k", "nestedComment": "k", "inColRead": "r*",
			"inColGuest": "k", "public": "r*", "unlisted": "k", "visitorAuth": "r"},
		// Whoever sees some of an organization's content sees the
		// organization; its lists show them the public spaces only.
		"disabled": {"organization": "observer", "public": "r*", "unlisted": "r*"},
		"stranger": {"organization": "observer", "public": "r*", "unlisted": "r*"},
		"admin":    {"organization": "x"},
	}
	for name := range names {
		table["admin"][name] = "a"
	}
	for viewer, want := range table {
		t.Run(viewer, func(t *testing.T) {
			o.check(t, o.viewers[viewer], names, want)
		})
	}
}

// TestSpaceListAgreesWithGet builds random organizations (collection trees,
// default levels, visibilities, user and team grants) and checks, for every
// viewer, that the lists of both APIs hold exactly the spaces GET shows. The
// lists filter in SQL and GET decides in Go, so this holds the two forms of
// the rule together.
func TestSpaceListAgreesWithGet(t *testing.T) {
	t.Parallel()
	for seed := int64(1); seed <= 2; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			e := servertest.New(t)
			o := &spOrg{e: e, t: t, ctx: context.Background(), viewers: map[string]string{}}
			levels := []*enum.DefaultLevel{nil}
			for _, v := range enum.DefaultLevelValues() {
				levels = append(levels, spLevel(v))
			}
			roles := enum.RoleValues()
			var cols []string
			for i := 0; i < 6; i++ {
				parent := ""
				if len(cols) > 0 && rng.Intn(2) == 0 {
					parent = cols[rng.Intn(len(cols))]
				}
				cols = append(cols, o.collection(parent, levels[rng.Intn(len(levels))]))
			}
			names := map[string]string{}
			var targets []string
			for i := 0; i < 24; i++ {
				parent := ""
				if rng.Intn(4) > 0 {
					parent = cols[rng.Intn(len(cols))]
				}
				vis := enum.VisibilityPrivate
				if rng.Intn(3) == 0 {
					vis = enum.VisibilityValues()[rng.Intn(len(enum.VisibilityValues()))]
				}
				name := fmt.Sprintf("s%02d", i)
				names[name] = o.space(name, parent, levels[rng.Intn(len(levels))], vis)
				targets = append(targets, names[name])
			}
			targets = append(targets, cols...)
			users := map[string]*ent.User{}
			for _, m := range []struct {
				name string
				role enum.Role
			}{{"guest1", ""}, {"guest2", ""}, {"reader", enum.RoleRead}, {"commenter", enum.RoleComment},
				{"editor", enum.RoleEdit}, {"creator", enum.RoleCreate}} {
				users[m.name] = o.member(m.name, m.role)
			}
			team := o.team(users["guest2"], users["reader"])
			for i := 0; i < 8; i++ {
				role, target := roles[rng.Intn(len(roles))], targets[rng.Intn(len(targets))]
				switch rng.Intn(3) {
				case 0:
					o.grant(nil, team, target, role)
				case 1:
					o.grant(users["guest1"], "", target, role)
				default:
					o.grant(users["editor"], "", target, role)
				}
			}
			partial := 0
			for viewer, tok := range o.viewers {
				t.Run(viewer, func(t *testing.T) {
					want := map[string]spAccess{"organization": "x"}
					seen := 0
					for name, id := range names {
						if res := e.Do(http.MethodGet, "/v1/spaces/"+id, tok, nil); res.Status == http.StatusOK {
							want[name] = "seen"
							seen++
						}
					}
					if seen > 0 && seen < len(names) {
						partial++
					}
					o.agree(t, tok, names, want)
				})
			}
			assert.GreaterOrEqual(t, partial, 3, "too few viewers see some but not all spaces for the test to mean much")
		})
	}
}

// agree checks that both lists show exactly the spaces marked in want.
func (o *spOrg) agree(t *testing.T, tok string, names map[string]string, want map[string]spAccess) {
	var visible []string
	for name, id := range names {
		if want[name] != "" {
			visible = append(visible, id)
		}
	}
	listed := o.e.Walk(t, "/v1/orgs/"+o.e.Org.ID+"/spaces", tok, 7)
	assert.Equal(t, spNames(names, visible), spNames(names, listed), "the /v1 list and GET disagree")
	var out struct {
		Organization struct {
			Spaces struct{ Nodes []struct{ ID string } }
		}
	}
	o.e.GraphQL(tok, `query($org: ID!) { organization(id: $org) { spaces(first: 1000) { nodes { id } } } }`,
		map[string]any{"org": o.e.Org.ID}).Into(t, &out)
	var gql []string
	for _, n := range out.Organization.Spaces.Nodes {
		gql = append(gql, n.ID)
	}
	assert.Equal(t, spNames(names, visible), spNames(names, gql), "the GraphQL list and GET disagree")
}
