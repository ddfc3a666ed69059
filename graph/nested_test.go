package graph_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server"
	"github.com/bindery/bindery/server/servertest"
)

// The change requests nested in a page of spaces are paged for all the
// spaces at once: one statement per set of arguments, whatever the number
// of spaces, and their authors in one more.

// nsQuery lists the change requests of each space of an organization's page
// of spaces, with their authors.
const nsQuery = `query($org: ID!) { organization(id: $org) { spaces(first: 50) { nodes { id title
  changeRequests(first: 10) { nodes { id createdBy { id displayName } } } } } } }`

// nsPerSpace is how many change requests each space has in the measurement
// at n spaces: 3 at 3 spaces, 10 at 30.
func nsPerSpace(n int) int { return min(n, 10) }

// nsSpaces creates n spaces the viewer sees, each with perSpace change
// requests by an author of its own: every third one a draft, the others
// open, and an archived one more. viewer contributed to every other change
// request. A space the viewer does not see has change requests too. It
// returns the spaces the viewer sees, in creation order.
func nsSpaces(t *testing.T, e *servertest.Env, viewer *ent.User, n, perSpace int) []string {
	t.Helper()
	ctx := context.Background()
	hidden := spCreate(t, e, e.OwnerToken, "Hidden", nil)
	lsHide(t, e, hidden, "")
	nsChangeRequests(t, e, hidden, e.Owner.ID, viewer.ID, perSpace)
	var ids []string
	for i := 0; i < n; i++ {
		id := spCreate(t, e, e.OwnerToken, fmt.Sprintf("Space %d", i), nil)
		author := e.User(fmt.Sprintf("author%d@example.com", i))
		require.NoError(t, e.Client.User.UpdateOne(author).SetDisplayName(fmt.Sprintf("Author %d", i)).Exec(ctx))
		nsChangeRequests(t, e, id, author.ID, viewer.ID, perSpace)
		ids = append(ids, id)
	}
	return ids
}

// nsChangeRequests inserts perSpace change requests and an archived one
// into a space (see nsSpaces).
func nsChangeRequests(t *testing.T, e *servertest.Env, spaceID, authorID, contributorID string, perSpace int) {
	t.Helper()
	ctx := context.Background()
	s, err := e.Client.Space.Get(ctx, spaceID)
	require.NoError(t, err)
	var b []*ent.ChangeRequestCreate
	for i := 1; i <= perSpace+1; i++ {
		status := enum.ChangeRequestStatusOpen
		switch {
		case i == perSpace+1:
			status = enum.ChangeRequestStatusArchived
		case i%3 == 0:
			status = enum.ChangeRequestStatusDraft
		}
		c := e.Client.ChangeRequest.Create().SetSpaceID(spaceID).SetNumber(i).SetStatus(status).
			SetSubject(fmt.Sprintf("Change %d", i)).SetCreatedByID(authorID).
			SetRevisionID(*s.RevisionID).SetRevisionInitialID(*s.RevisionID)
		if i%2 == 0 {
			c.AddContributorIDs(contributorID)
		}
		b = append(b, c)
	}
	require.NoError(t, e.Client.ChangeRequest.CreateBulk(b...).Exec(ctx))
	require.NoError(t, e.Client.Space.UpdateOne(s).SetCrSeq(perSpace+1).Exec(ctx))
}

// nsCase is the measured request, as a case of TestListStatements is.
var nsCase = lsCase{
	list: "Organization.spaces.changeRequests",
	// The token with its user, the organization, what authorization
	// decides from, the page of spaces; then the change requests of every
	// space, and their authors with whether each shares an organization with
	// the viewer.
	max: 6,
	setup: func(t *testing.T, e *servertest.Env, v lsViewer, n int) lsRequest {
		spaces := nsSpaces(t, e, v.user, n, nsPerSpace(n))
		return func(e *servertest.Env) {
			d := lsGQL(t, e, v.token, nsQuery, map[string]any{"org": e.Org.ID})
			nsCheck(t, d, spaces, nsPerSpace(n))
		}
	},
}

// nsCheck requires the page to list the spaces, each with its open change
// requests and their authors.
func nsCheck(t *testing.T, d map[string]any, spaces []string, perSpace int) {
	t.Helper()
	items := lsItems(t, d, "organization.spaces")
	require.Len(t, items, len(spaces))
	open := perSpace - perSpace/3
	for _, it := range items {
		crs := lsItems(t, it, "changeRequests")
		require.Len(t, crs, open, "the open change requests of %v", lsAt(it, "title"))
		for _, cr := range crs {
			assert.Equal(t, strings.Replace(lsAt(it, "title").(string), "Space", "Author", 1), lsAt(cr, "createdBy.displayName"))
		}
	}
}

// TestNestedChangeRequestStatements measures the nested query at 3 spaces
// with 3 change requests each and at 30 with 10: the same statements at
// both, within the bound.
func TestNestedChangeRequestStatements(t *testing.T) {
	t.Parallel()
	few, many := lsMeasure(t, nsCase, lsFew), lsMeasure(t, nsCase, lsMany)
	t.Logf("%d statements at %d spaces × %d change requests, %d at %d × %d; bound %d",
		few, lsFew, nsPerSpace(lsFew), many, lsMany, nsPerSpace(lsMany), nsCase.max)
	assert.Equal(t, few, many, "the statements grow with the number of spaces (N+1): %d at %d spaces, %d at %d",
		few, lsFew, many, lsMany)
	assert.LessOrEqual(t, max(few, many), nsCase.max)
}

// TestNestedChangeRequestsInOneStatement lists the statements of the nested
// query (go test -v shows them) and requires the change requests of all
// the spaces to be read in one, and their authors in one. As lsMeasure
// does, it keeps the least of lsAttempts measurements, each on a server
// with empty caches: under load, a loader's batch can split.
func TestNestedChangeRequestsInOneStatement(t *testing.T) {
	t.Parallel()
	for _, n := range []int{lsFew, lsMany} {
		e := servertest.New(t)
		tok, viewer := e.Member(e.Org.ID, enum.RoleEdit, "viewer@example.com")
		spaces := nsSpaces(t, e, viewer, n, nsPerSpace(n))
		var all []string
		func() {
			// Unlocked however the attempts end: a failed check must not
			// hold up the other measurements.
			lsMeasuring.Lock()
			defer lsMeasuring.Unlock()
			for range lsAttempts {
				rec, stmts := nsRecording(t, e)
				rec.MustDo("GET", "/v1/user", tok, nil, 200)
				stmts()
				nsCheck(t, lsGQL(t, rec, tok, nsQuery, map[string]any{"org": e.Org.ID}), spaces, nsPerSpace(n))
				if got := stmts(); all == nil || len(got) < len(all) {
					all = got
				}
			}
		}()
		t.Logf("%d spaces × %d change requests: %d statements", n, nsPerSpace(n), len(all))
		for i, s := range all {
			t.Logf("  %2d. %s", i+1, s)
		}
		crs := nsReading(all, "change_requests")
		require.Len(t, crs, 1, "the change requests of %d spaces", n)
		// The users read before are the token's.
		after := all[slices.Index(all, crs[0]):]
		assert.Len(t, nsReading(after, "users"), 1, "the authors of %d spaces' change requests", n)
	}
}

// nsTable matches the tables a statement reads, in its rows or its
// subqueries.
var nsTable = regexp.MustCompile("(?i) FROM [`\"]([a-z_]+)[`\"]")

// nsReading returns the SELECT statements that read from table.
func nsReading(stmts []string, table string) []string {
	var out []string
	for _, s := range stmts {
		if !strings.HasPrefix(s, "SELECT") {
			continue
		}
		for _, m := range nsTable.FindAllStringSubmatch(s, -1) {
			if m[1] == table {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// nsConnection selects everything a client can compare of a connection of
// change requests.
const nsConnection = `fragment C on ChangeRequestConnection { totalCount
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  edges { cursor node { id number status createdBy { id displayName } } } }`

// nsSelections select a space's change requests with different arguments,
// one alias each. g starts at a cursor, so it is paged per space.
const nsSelections = `
  a: changeRequests(first: 2) { ...C }
  b: changeRequests(first: 5, status: null) { ...C }
  c: changeRequests(last: 2, status: DRAFT) { ...C }
  d: changeRequests { ...C }
  e: changeRequests(first: 0) { ...C }
  f: changeRequests(status: null, contributorId: $viewer, last: 3) { ...C }
  g: changeRequests(first: 2, after: $cursor) { ...C }
  h: changeRequests(first: $n) { ...C }`

// TestNestedChangeRequestsEqualTheSpacesOwn requires the change requests of
// each space of a page to be what the space alone lists with the same
// arguments: the same nodes, cursors, page info and count, for several
// windows, filters and aliases at once; and the windows without a cursor
// to be read in one statement each for all the spaces.
func TestNestedChangeRequestsEqualTheSpacesOwn(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	tok, viewer := e.Member(e.Org.ID, enum.RoleEdit, "viewer@example.com")
	spaces := nsSpaces(t, e, viewer, 12, 7)
	// A space with none.
	spaces = append(spaces, spCreate(t, e, e.OwnerToken, "Empty", nil))
	first := lsGQL(t, e, tok, `query($s: ID!) { space(id: $s) { changeRequests(first: 1) { pageInfo { endCursor } } } }`,
		map[string]any{"s": spaces[0]})
	vars := map[string]any{"org": e.Org.ID, "viewer": viewer.ID, "n": 4,
		"cursor": lsAt(first, "space.changeRequests.pageInfo.endCursor")}

	rec, stmts := nsRecording(t, e)
	stmts()
	nested := lsGQL(t, rec, tok, `query($org: ID!, $viewer: ID!, $cursor: Cursor, $n: Int) { organization(id: $org) {
	  spaces(first: 50) { nodes { id `+nsSelections+` } } } } `+nsConnection, vars)
	// a, b, c, d, f and h are paged for all the spaces at once, with their
	// counts; e has an empty window; g is paged per space.
	all := stmts()
	batched := 0
	for _, s := range nsReading(all, "change_requests") {
		if strings.Contains(s, "ROW_NUMBER()") {
			batched++
		}
	}
	assert.Equal(t, 6, batched, "the windows without a cursor, each in one statement")

	items := lsItems(t, nested, "organization.spaces")
	require.Len(t, items, len(spaces))
	for _, it := range items {
		id := lsAt(it, "id").(string)
		vars["s"] = id
		own := lsGQL(t, e, tok, `query($s: ID!, $viewer: ID!, $cursor: Cursor, $n: Int) { space(id: $s) { id `+nsSelections+` } } `+nsConnection, vars)
		assert.Equal(t, lsAt(own, "space"), it, "space %s", id)
	}
	// The comparison is not empty.
	assert.Len(t, lsAt(items[0], "a.edges"), 2)
	assert.Equal(t, true, lsAt(items[0], "a.pageInfo.hasNextPage"))
	assert.EqualValues(t, 5, lsAt(items[0], "a.totalCount"), "7 change requests, 2 drafts")
	assert.Len(t, lsAt(items[0], "c.edges"), 2)
	assert.Len(t, lsAt(items[0], "f.edges"), 3)
	assert.Equal(t, true, lsAt(items[0], "f.pageInfo.hasPreviousPage"))
	assert.Len(t, lsAt(items[0], "g.edges"), 2)
	assert.Len(t, lsAt(items[len(items)-1], "d.edges"), 0)
}

// nsRecording starts another server on e's database whose ent driver keeps
// the statements it runs; stmts returns those run since its last call.
func nsRecording(t *testing.T, e *servertest.Env) (rec *servertest.Env, stmts func() []string) {
	t.Helper()
	r := &nsRecorder{Driver: entsql.OpenDB(e.DB.Dialect, e.DB.SQL), log: &nsLog{}}
	srv, err := server.New(e.Config, e.DB.Using(r), slog.New(slog.NewTextHandler(io.Discard, nil)), graph.WithClock(e.Clock.Now))
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	out := *e
	out.T, out.Server, out.HTTP = t, srv, hs
	return &out, r.log.take
}

// nsLog keeps statements.
type nsLog struct {
	mu    sync.Mutex
	stmts []string
}

func (l *nsLog) add(query string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stmts = append(l.stmts, query)
}

func (l *nsLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.stmts
	l.stmts = nil
	return out
}

// nsRecorder is an ent driver that logs the statements it runs.
type nsRecorder struct {
	dialect.Driver
	log *nsLog
}

func (d *nsRecorder) Exec(ctx context.Context, query string, args, v any) error {
	d.log.add(query)
	return d.Driver.Exec(ctx, query, args, v)
}

func (d *nsRecorder) Query(ctx context.Context, query string, args, v any) error {
	d.log.add(query)
	return d.Driver.Query(ctx, query, args, v)
}

func (d *nsRecorder) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &nsRecorderTx{Tx: tx, log: d.log}, nil
}

type nsRecorderTx struct {
	dialect.Tx
	log *nsLog
}

func (t *nsRecorderTx) Exec(ctx context.Context, query string, args, v any) error {
	t.log.add(query)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t *nsRecorderTx) Query(ctx context.Context, query string, args, v any) error {
	t.log.add(query)
	return t.Tx.Query(ctx, query, args, v)
}

// TestNestedChangeRequestsBadArguments requires a nested window that cannot
// be paged to fail as it fails for a space alone: on the nested field, as
// a bad input.
func TestNestedChangeRequestsBadArguments(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	tok, viewer := e.Member(e.Org.ID, enum.RoleEdit, "viewer@example.com")
	nsSpaces(t, e, viewer, 2, 2)
	for _, args := range []string{"first: -1", "first: 1, last: 1"} {
		res := e.GraphQL(tok, `query($org: ID!) { organization(id: $org) { spaces(first: 50) { nodes { id
		  changeRequests(`+args+`) { nodes { id } } } } } }`, map[string]any{"org": e.Org.ID})
		require.NotEmpty(t, res.Errors, args)
		assert.Equal(t, "BAD_USER_INPUT", res.Code(), args)
		for _, err := range res.Errors {
			assert.Contains(t, fmt.Sprint(err.Path), "changeRequests", "%s: the error is the nested field's", args)
		}
	}
}

// crColumnsFields are the fields of a change request that read only its
// own columns (see changeRequestColumns), all of them.
const crColumnsFields = `__typename id number subject status createdAt updatedAt mergedAt createdBy { id displayName }`

// TestChangeRequestPagesReadTheirColumns requires a page of change requests
// whose items select only fields of their own columns to read only those,
// nested in a page of spaces or in a space alone, and to answer what whole
// rows answer; and a change request read by ID in the same request, after
// such a page, to be whole.
func TestChangeRequestPagesReadTheirColumns(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	tok, viewer := e.Member(e.Org.ID, enum.RoleEdit, "viewer@example.com")
	spaces := nsSpaces(t, e, viewer, 3, 4)
	rec, stmts := nsRecording(t, e)
	// reads runs a query and returns its answer and its statement reading
	// change requests.
	reads := func(query string, vars map[string]any) (map[string]any, string) {
		t.Helper()
		stmts()
		d := lsGQL(t, rec, tok, query, vars)
		var rows []string
		for _, s := range nsReading(stmts(), "change_requests") {
			if !strings.Contains(s, "GROUP BY") { // not the counts of PaginateEach
				rows = append(rows, s)
			}
		}
		require.Len(t, rows, 1, "%s", query)
		return d, rows[0]
	}
	nested := func(fields string) string {
		return `query($org: ID!) { organization(id: $org) { spaces(first: 50) { nodes { id
		  changeRequests(first: 3, status: null) { totalCount pageInfo { endCursor hasNextPage }
		    edges { cursor node { ` + fields + ` } } } } } } }`
	}
	alone := func(fields string) string {
		return `query($s: ID!) { space(id: $s) { changeRequests(first: 3, status: null) { totalCount
		  pageInfo { endCursor hasNextPage } edges { cursor node { ` + fields + ` } } } } }`
	}
	// dropRevision removes what the whole rows' query selects more.
	dropRevision := func(edges any) any {
		for _, ed := range edges.([]any) {
			delete(ed.(map[string]any)["node"].(map[string]any), "revision")
		}
		return edges
	}
	for _, c := range []struct {
		name, query, path string
		vars              map[string]any
	}{
		{"nested", nested(crColumnsFields), "organization.spaces", map[string]any{"org": e.Org.ID}},
		{"alone", alone(crColumnsFields), "", map[string]any{"s": spaces[1]}},
	} {
		part, partStmt := reads(c.query, c.vars)
		whole, wholeStmt := reads(strings.Replace(c.query, "createdBy {", "revision { id } createdBy {", 1), c.vars)
		assert.NotContains(t, partStmt, "revision_id", "%s: only the selected columns", c.name)
		assert.Contains(t, partStmt, "subject", c.name)
		assert.Contains(t, wholeStmt, "revision_id", "%s: a field outside its columns reads whole rows", c.name)
		if c.path == "" {
			dropRevision(lsAt(whole, "space.changeRequests.edges"))
			assert.Equal(t, whole, part, c.name)
			assert.Len(t, lsAt(part, "space.changeRequests.edges"), 3)
			continue
		}
		items := lsItems(t, whole, c.path)
		for _, it := range items {
			dropRevision(lsAt(it, "changeRequests.edges"))
		}
		assert.Equal(t, whole, part, c.name)
		assert.Len(t, lsAt(lsItems(t, part, c.path)[0], "changeRequests.edges"), 3)
	}

	// A space whose sync waits for one of its change requests reads it by
	// ID while its page of them is read by columns.
	ctx := context.Background()
	cr, err := e.Client.ChangeRequest.Query().Where(changerequest.SpaceID(spaces[0]), changerequest.Number(1)).Only(ctx)
	require.NoError(t, err)
	require.NoError(t, e.Client.GitSync.Create().SetSpaceID(spaces[0]).SetURL("https://git.example.com/docs.git").
		SetRef("refs/heads/main").SetChangeRequestID(cr.ID).Exec(ctx))
	d := lsGQL(t, rec, tok, `query($org: ID!) { organization(id: $org) { spaces(first: 50) { nodes { id
	  changeRequests(first: 10, status: null) { nodes { id subject } }
	  gitSync { changeRequest { id subject revision { id } } } } } } }`, map[string]any{"org": e.Org.ID})
	for _, it := range lsItems(t, d, "organization.spaces") {
		if lsAt(it, "id") == spaces[0] {
			assert.Equal(t, cr.RevisionID, lsAt(it, "gitSync.changeRequest.revision.id"), "the change request read by ID is whole")
			assert.Equal(t, cr.Subject, lsAt(it, "gitSync.changeRequest.subject"))
		}
	}
}
