package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// Subjects at and just over the 100-character limit of change requests. Each
// character takes two bytes, so a limit counted in bytes would refuse the
// first.
var (
	ctSubject100 = strings.Repeat("é", 100)
	ctSubject101 = strings.Repeat("é", 101)
)

// ctCRPath is the /v1 path of a change request of a space, by ID or number,
// with an optional suffix.
func ctCRPath(space, ref string, suffix ...string) string {
	return "/v1/spaces/" + space + "/change-requests/" + ref + strings.Join(suffix, "")
}

// createCR opens a change request in a space as tok.
func (c *ctEnv) createCR(space, tok string, body map[string]any) map[string]any {
	c.t.Helper()
	return c.MustDo(http.MethodPost, "/v1/spaces/"+space+"/change-requests", tok, body, http.StatusCreated)
}

// getCR reads a change request.
func (c *ctEnv) getCR(space, ref string) map[string]any {
	c.t.Helper()
	return c.MustDo(http.MethodGet, ctCRPath(space, ref), c.admin, nil, http.StatusOK)
}

// counters are a space's change request counters.
func (c *ctEnv) counters(space string) [3]float64 {
	c.t.Helper()
	s := c.MustDo(http.MethodGet, "/v1/spaces/"+space, c.admin, nil, http.StatusOK)
	return [3]float64{s["changeRequests"].(float64), s["changeRequestsOpen"].(float64), s["changeRequestsDraft"].(float64)}
}

// crErrors are the scenarios every change request route shares: no token,
// unknown or foreign spaces and change requests.
func (c *ctEnv) crErrors(method, suffix string, body any, crID string) []servertest.Scenario {
	other := c.otherSpace()
	otherCR := c.createCR(c.newSpace("Elsewhere", false), c.admin, nil)["id"].(string)
	sc := func(name, path, tok string, status int) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: method, Path: path, Token: tok, Body: body, WantStatus: status}
	}
	return []servertest.Scenario{
		sc("no token", ctCRPath(c.space, crID, suffix), "", http.StatusUnauthorized),
		sc("unknown space", ctCRPath("spc_doesnotexist", crID, suffix), c.admin, http.StatusNotFound),
		sc("space of another organization", ctCRPath(other, "1", suffix), c.admin, http.StatusNotFound),
		sc("stranger", ctCRPath(c.space, crID, suffix), c.stranger, http.StatusNotFound),
		sc("guest", ctCRPath(c.space, crID, suffix), c.guest, http.StatusNotFound),
		sc("unknown change request ID", ctCRPath(c.space, "cr_doesnotexist", suffix), c.admin, http.StatusNotFound),
		sc("unknown change request number", ctCRPath(c.space, "99", suffix), c.admin, http.StatusNotFound),
		sc("number zero", ctCRPath(c.space, "0", suffix), c.admin, http.StatusNotFound),
		sc("a change request of another space", ctCRPath(c.space, otherCR, suffix), c.admin, http.StatusNotFound),
	}
}

// refusedRoles are the scenarios of members who may read a space's content
// but not change it.
func (c *ctEnv) refusedRoles(method, path string, body any) []servertest.Scenario {
	var out []servertest.Scenario
	for _, m := range []struct{ name, tok string }{{"reader", c.reader}, {"commenter", c.commenter}} {
		out = append(out, servertest.Scenario{Name: m.name, Method: method, Path: path, Token: m.tok, Body: body,
			WantStatus: http.StatusForbidden})
	}
	return out
}

func TestCreateChangeRequest(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	locked := c.newSpace("Locked", false)
	c.MustDo(http.MethodPatch, "/v1/spaces/"+locked, c.admin, map[string]any{"editMode": "locked"}, http.StatusOK)
	rev := c.spaceRevision(c.space)
	path := "/v1/spaces/" + c.space + "/change-requests"
	post := func(name, tok string, body any, status int, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPost, Path: path, Token: tok, Body: body,
			WantStatus: status, WantJSON: want}
	}
	var created []string
	keep := func(sc servertest.Scenario) servertest.Scenario {
		sc.Check = func(t *testing.T, res *servertest.Response) {
			body := ctDecode(t, res)
			id := body["id"].(string)
			assert.Equal(t, "http://bindery.test"+ctCRPath(c.space, id), res.Header.Get("Location"))
			assert.Equal(t, res.Header.Get("Location"), ctAt(body, "urls", "location"))
			created = append(created, id)
		}
		return sc
	}
	c.Run(t, []servertest.Scenario{
		keep(post("an editor opens one", c.editor, map[string]any{"subject": "  Fix typos  "}, http.StatusCreated,
			map[string]any{
				"object": "change-request", "number": 1, "status": "open", "subject": "Fix typos", "space": c.space,
				"revision": rev, "revisionInitial": rev, "comments": 0, "outdated": false,
				"createdBy": map[string]any{"object": "user", "id": c.editorID, "email": "editor@example.com"},
				"urls":      map[string]any{"app": "http://bindery.test/s/" + c.space + "/~/changes/1"},
			})),
		keep(post("no body", c.admin, nil, http.StatusCreated, map[string]any{"number": 2, "subject": ""})),
		keep(post("subject of 100 characters", c.admin, map[string]any{"subject": ctSubject100}, http.StatusCreated,
			map[string]any{"number": 3, "subject": ctSubject100})),
		post("subject of 101 characters", c.admin, map[string]any{"subject": ctSubject101}, http.StatusBadRequest, nil),
		post("null subject", c.admin, map[string]any{"subject": nil}, http.StatusBadRequest, nil),
		post("subject not a string", c.admin, map[string]any{"subject": 7}, http.StatusBadRequest, nil),
		post("unknown member", c.admin, map[string]any{"subject": "x", "status": "draft"}, http.StatusBadRequest, nil),
		post("agentTaskId is not supported", c.admin, map[string]any{"agentTaskId": "t1"}, http.StatusBadRequest, nil),
		post("malformed JSON", c.admin, `{"subject":`, http.StatusBadRequest, nil),
		post("no token", "", nil, http.StatusUnauthorized, nil),
		post("reader", c.reader, nil, http.StatusForbidden, nil),
		post("commenter", c.commenter, nil, http.StatusForbidden, nil),
		post("stranger", c.stranger, nil, http.StatusNotFound, nil),
		post("guest", c.guest, nil, http.StatusNotFound, nil),
		{Name: "unknown space", Method: http.MethodPost, Path: "/v1/spaces/spc_doesnotexist/change-requests",
			Token: c.admin, WantStatus: http.StatusNotFound},
		{Name: "locked space", Method: http.MethodPost, Path: "/v1/spaces/" + locked + "/change-requests",
			Token: c.admin, WantStatus: http.StatusPreconditionFailed},
	})
	assert.Len(t, created, 3)
	assert.Equal(t, [3]float64{3, 3, 0}, c.counters(c.space), "refused requests created nothing")
}

func TestGetChangeRequest(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	c.createCR(c.space, c.admin, map[string]any{"subject": "First"})
	cr := c.createCR(c.space, c.editor, map[string]any{"subject": "Second"})
	id := cr["id"].(string)
	want := map[string]any{"id": id, "number": 2, "subject": "Second", "createdBy": map[string]any{"id": c.editorID}}
	scenarios := []servertest.Scenario{
		{Name: "by ID", Method: http.MethodGet, Path: ctCRPath(c.space, id), Token: c.reader, WantStatus: http.StatusOK,
			WantJSON: want, Check: func(t *testing.T, res *servertest.Response) {
				body := ctDecode(t, res)
				assert.Equal(t, cr, body)
				assert.NotContains(t, body, "revisionMerged")
				assert.NotContains(t, body, "revisionMergedAncestor")
			}},
		{Name: "by number", Method: http.MethodGet, Path: ctCRPath(c.space, "2"), Token: c.reader, WantStatus: http.StatusOK,
			WantJSON: want},
		{Name: "a commenter", Method: http.MethodGet, Path: ctCRPath(c.space, "1"), Token: c.commenter,
			WantStatus: http.StatusOK, WantJSON: map[string]any{"number": 1, "subject": "First"}},
	}
	c.Run(t, append(scenarios, c.crErrors(http.MethodGet, "", nil, id)...))
}

func TestUpdateChangeRequest(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	cr := c.createCR(c.space, c.editor, map[string]any{"subject": "Draft me"})
	id := cr["id"].(string)
	merged := c.createCR(c.space, c.admin, nil)["id"].(string)
	c.MustDo(http.MethodPost, ctCRPath(c.space, merged, "/merge"), c.admin, nil, http.StatusOK)
	patch := func(name, ref, tok string, body any, status int, want map[string]any, counters [3]float64) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodPatch, Path: ctCRPath(c.space, ref), Token: tok, Body: body,
			WantStatus: status, WantJSON: want, Check: func(t *testing.T, _ *servertest.Response) {
				assert.Equal(t, counters, c.counters(c.space), "changeRequests, open, draft")
			}}
	}
	// One open change request and one merged.
	scenarios := []servertest.Scenario{
		patch("to draft by number", "1", c.editor, map[string]any{"status": "draft"}, http.StatusOK,
			map[string]any{"id": id, "status": "draft", "subject": "Draft me"}, [3]float64{2, 0, 1}),
		patch("the subject", id, c.editor, map[string]any{"subject": " Ready "}, http.StatusOK,
			map[string]any{"status": "draft", "subject": "Ready"}, [3]float64{2, 0, 1}),
		patch("to open", id, c.editor, map[string]any{"status": "open"}, http.StatusOK,
			map[string]any{"status": "open"}, [3]float64{2, 1, 0}),
		patch("to archived", id, c.admin, map[string]any{"status": "archived"}, http.StatusOK,
			map[string]any{"status": "archived"}, [3]float64{2, 0, 0}),
		patch("archived to draft", id, c.admin, map[string]any{"status": "draft"}, http.StatusOK,
			map[string]any{"status": "draft"}, [3]float64{2, 0, 1}),
		patch("draft to archived", id, c.admin, map[string]any{"status": "archived"}, http.StatusOK,
			map[string]any{"status": "archived"}, [3]float64{2, 0, 0}),
		patch("reopened with a subject of 100 characters", id, c.admin,
			map[string]any{"status": "open", "subject": ctSubject100}, http.StatusOK,
			map[string]any{"status": "open", "subject": ctSubject100}, [3]float64{2, 1, 0}),
		patch("an empty body changes nothing", id, c.admin, map[string]any{}, http.StatusOK,
			map[string]any{"status": "open", "subject": ctSubject100}, [3]float64{2, 1, 0}),
		patch("subject of 101 characters", id, c.admin, map[string]any{"subject": ctSubject101}, http.StatusBadRequest,
			nil, [3]float64{2, 1, 0}),
		patch("to merged", id, c.admin, map[string]any{"status": "merged"}, http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("unknown status", id, c.admin, map[string]any{"status": "closed"}, http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("null status", id, c.admin, map[string]any{"status": nil}, http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("null subject", id, c.admin, map[string]any{"subject": nil}, http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("unknown member", id, c.admin, map[string]any{"title": "x"}, http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("description is not supported", id, c.admin, map[string]any{"description": map[string]any{}},
			http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("a merged change request stays merged", merged, c.admin, map[string]any{"status": "open"},
			http.StatusBadRequest, nil, [3]float64{2, 1, 0}),
		patch("reader", id, c.reader, map[string]any{"status": "draft"}, http.StatusForbidden, nil, [3]float64{2, 1, 0}),
		patch("commenter", id, c.commenter, map[string]any{"status": "draft"}, http.StatusForbidden, nil, [3]float64{2, 1, 0}),
	}
	c.Run(t, append(scenarios, c.crErrors(http.MethodPatch, "", map[string]any{"subject": "x"}, id)...))
	assert.Equal(t, "merged", c.getCR(c.space, merged)["status"])
}

func TestListChangeRequests(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	page := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide"})
	var open []string
	for i := 0; i < 5; i++ {
		open = append(open, c.createCR(c.space, c.admin, map[string]any{"subject": fmt.Sprint("CR ", i)})["id"].(string))
	}
	draft := c.createCR(c.space, c.admin, nil)["id"].(string)
	c.MustDo(http.MethodPatch, ctCRPath(c.space, draft), c.admin, map[string]any{"status": "draft"}, http.StatusOK)
	archived := c.createCR(c.space, c.admin, nil)["id"].(string)
	c.MustDo(http.MethodPatch, ctCRPath(c.space, archived), c.admin, map[string]any{"status": "archived"}, http.StatusOK)
	merged := c.createCR(c.space, c.admin, nil)["id"].(string)
	c.MustDo(http.MethodPost, ctCRPath(c.space, merged, "/merge"), c.admin, nil, http.StatusOK)
	// The editor contributes to two change requests: one open, one draft.
	c.setMarkdown(c.editor, ctInCR(open[1]), page, "edited")
	c.setMarkdown(c.editor, ctInCR(draft), page, "edited too")
	c.createPage(c.admin, ctInCR(open[3]), map[string]any{"title": "Admin's"})
	newestFirst := []string{open[4], open[3], open[2], open[1], open[0]}

	path := "/v1/spaces/" + c.space + "/change-requests"
	for _, limit := range []int{1, 2, 5, 1000} {
		t.Run(fmt.Sprintf("walk with limit %d", limit), func(t *testing.T) {
			assert.Equal(t, newestFirst, c.Walk(t, path, c.reader, limit), "open ones, newest first")
		})
	}
	t.Run("walk drafts", func(t *testing.T) {
		assert.Equal(t, []string{draft}, c.Walk(t, path+"?status=draft", c.reader, 1))
	})
	first := c.MustDo(http.MethodGet, path+"?limit=2", c.reader, nil, http.StatusOK)
	next := ctAt(first, "next", "page").(string)
	filesCursor := func() string {
		for i := 0; i < 2; i++ {
			c.upload(ctInSpace(c.space), fmt.Sprintf("f%d.txt", i), "text/plain", []byte("x"))
		}
		return ctAt(c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content/files?limit=1", c.reader, nil, http.StatusOK),
			"next", "page").(string)
	}()
	get := func(name, query, tok string, status int, ids ...string) servertest.Scenario {
		sc := servertest.Scenario{Name: name, Method: http.MethodGet, Path: path + query, Token: tok, WantStatus: status}
		if status == http.StatusOK {
			sc.Check = func(t *testing.T, res *servertest.Response) {
				body := ctDecode(t, res)
				assert.Equal(t, ids, ctIDs(body["items"]))
			}
		}
		return sc
	}
	scenarios := []servertest.Scenario{
		get("open by default", "", c.reader, http.StatusOK, newestFirst...),
		get("status=open", "?status=open", c.reader, http.StatusOK, newestFirst...),
		get("status=draft", "?status=draft", c.reader, http.StatusOK, draft),
		get("status=archived", "?status=archived", c.reader, http.StatusOK, archived),
		get("status=merged", "?status=merged", c.reader, http.StatusOK, merged),
		get("a contributor's open ones", "?contributor="+c.editorID, c.reader, http.StatusOK, open[1]),
		get("a contributor's drafts", "?status=draft&contributor="+c.editorID, c.reader, http.StatusOK, draft),
		get("the owner's contributions", "?contributor="+c.Owner.ID, c.reader, http.StatusOK, open[3]),
		get("an unknown contributor", "?contributor=usr_nobody", c.reader, http.StatusOK),
		get("the next page", "?limit=2&page="+next, c.reader, http.StatusOK, newestFirst[2:4]...),
		get("unknown status", "?status=closed", c.reader, http.StatusBadRequest),
		get("creator is not supported", "?creator="+c.Owner.ID, c.reader, http.StatusBadRequest),
		get("malformed page cursor", "?page=garbage", c.reader, http.StatusBadRequest),
		get("a cursor of another list", "?page="+filesCursor, c.reader, http.StatusBadRequest),
		get("limit over the maximum", "?limit=1001", c.reader, http.StatusBadRequest),
		get("no token", "", "", http.StatusUnauthorized),
		get("stranger", "", c.stranger, http.StatusNotFound),
		get("guest", "", c.guest, http.StatusNotFound),
		{Name: "unknown space", Method: http.MethodGet, Path: "/v1/spaces/spc_doesnotexist/change-requests", Token: c.admin,
			WantStatus: http.StatusNotFound},
		{Name: "space of another organization", Method: http.MethodGet, Path: "/v1/spaces/" + c.otherSpace() + "/change-requests",
			Token: c.admin, WantStatus: http.StatusNotFound},
	}
	c.Run(t, scenarios)
	res := c.Do(http.MethodGet, path+"?limit=2", c.reader, nil)
	assert.EqualValues(t, 5, ctDecode(t, res)["count"])
}

// Merging a change request makes a merge revision of the main content, with
// the main content's previous revision and the change request's as parents.
func TestMergeChangeRequest(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "v1\n"})
	base := c.spaceRevision(c.space)
	cr := c.createCR(c.space, c.editor, map[string]any{"subject": "Better guide"})
	id := cr["id"].(string)
	c.setMarkdown(c.editor, ctInCR(id), guide, "v2\n")
	crRev := c.getCR(c.space, id)["revision"].(string)
	assert.Equal(t, [3]float64{1, 1, 0}, c.counters(c.space))

	scenarios := append(c.refusedRoles(http.MethodPost, ctCRPath(c.space, id, "/merge"), nil), servertest.Scenario{
		Name: "a body", Method: http.MethodPost, Path: ctCRPath(c.space, id, "/merge"), Token: c.editor,
		Body: map[string]any{"force": true}, WantStatus: http.StatusBadRequest})
	c.Run(t, append(scenarios, c.crErrors(http.MethodPost, "/merge", nil, id)...))
	assert.Equal(t, base, c.spaceRevision(c.space), "refused merges changed nothing")

	out := c.MustDo(http.MethodPost, ctCRPath(c.space, "1", "/merge"), c.editor, nil, http.StatusOK)
	assert.Equal(t, "merge", out["result"])
	mergeRev := out["revision"].(string)
	assert.Equal(t, mergeRev, c.spaceRevision(c.space), "the merge moved the main content")
	assert.Equal(t, [3]float64{1, 0, 0}, c.counters(c.space))

	rev := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/revisions/"+mergeRev, c.reader, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{
		"id": mergeRev, "type": "merge", "parents": []any{base, crRev},
		"pages":      []any{map[string]any{"id": guide, "markdown": "v2\n"}},
		"mergedFrom": map[string]any{"object": "change-request", "id": id, "status": "merged", "revisionMerged": mergeRev},
	}, rev)
	servertest.AssertContains(t, map[string]any{"status": "merged", "revisionMerged": mergeRev,
		"revisionMergedAncestor": base, "outdated": false}, c.getCR(c.space, id))
	page := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content/page/"+guide+"?format=markdown", c.reader, nil, http.StatusOK)
	assert.Equal(t, "v2\n", page["markdown"])

	c.Run(t, []servertest.Scenario{
		{Name: "merging again", Method: http.MethodPost, Path: ctCRPath(c.space, id, "/merge"), Token: c.editor,
			WantStatus: http.StatusPreconditionFailed},
		{Name: "updating a merged one", Method: http.MethodPost, Path: ctCRPath(c.space, id, "/update"), Token: c.editor,
			WantStatus: http.StatusPreconditionFailed},
	})

	// A change request merged without any edit has no revision of its own;
	// its merge still names it.
	idle := c.createCR(c.space, c.admin, map[string]any{"subject": "Nothing"})["id"].(string)
	out = c.MustDo(http.MethodPost, ctCRPath(c.space, idle, "/merge"), c.admin, nil, http.StatusOK)
	rev = c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/revisions/"+out["revision"].(string), c.reader, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"type": "merge", "parents": []any{mergeRev, mergeRev},
		"mergedFrom": map[string]any{"id": idle}}, rev)
	// The main content's current revision is the merge.
	content := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content", c.reader, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"id": out["revision"], "type": "merge",
		"mergedFrom": map[string]any{"id": idle}}, content)
}

// A change request falls behind when the main content moves, and catches up
// with an update.
func TestUpdateChangeRequestContent(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "one\n\ntwo\n"})
	initial := c.spaceRevision(c.space)
	cr := c.createCR(c.space, c.editor, nil)
	id := cr["id"].(string)
	c.setMarkdown(c.editor, ctInCR(id), guide, "one, edited\n\ntwo\n")

	// Up to date: the update changes nothing.
	current := c.getCR(c.space, id)["revision"]
	out := c.MustDo(http.MethodPost, ctCRPath(c.space, id, "/update"), c.editor, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"result": "update", "revision": current}, out)

	// The main content moves on.
	c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "News"})
	moved := c.spaceRevision(c.space)
	servertest.AssertContains(t, map[string]any{"outdated": true, "revisionInitial": initial}, c.getCR(c.space, id))
	assert.NotContains(t, c.getCR(c.space, id), "revisionMergedAncestor")

	c.Run(t, append(c.refusedRoles(http.MethodPost, ctCRPath(c.space, id, "/update"), nil),
		c.crErrors(http.MethodPost, "/update", nil, id)...))

	out = c.MustDo(http.MethodPost, ctCRPath(c.space, "1", "/update"), c.editor, nil, http.StatusOK)
	assert.Equal(t, "update", out["result"])
	assert.NotEqual(t, current, out["revision"])
	after := c.getCR(c.space, id)
	servertest.AssertContains(t, map[string]any{"outdated": false, "revision": out["revision"],
		"revisionMergedAncestor": moved, "revisionInitial": initial, "status": "open"}, after)
	assert.Equal(t, moved, c.spaceRevision(c.space), "an update leaves the main content")
	rev := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/revisions/"+out["revision"].(string), c.reader, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"type": "update", "parents": []any{current, moved}}, rev)
	pages := c.MustDo(http.MethodGet, ctCRPath(c.space, id, "/content/pages"), c.reader, nil, http.StatusOK)
	assert.Equal(t, []string{"guide", "news"}, ctPaths(pages["pages"]), "the change request has the main content's page")
	assert.Equal(t, "one, edited\n\ntwo\n", ctAt(pages, "pages", 0, "markdown"), "and keeps its own edit")
}

// On conflicts, a merge and an update change nothing and say so.
func TestChangeRequestMergeConflicts(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "line\n"})
	first := c.createCR(c.space, c.editor, nil)["id"].(string)
	second := c.createCR(c.space, c.admin, nil)["id"].(string)
	c.setMarkdown(c.editor, ctInCR(first), guide, "first's line\n")
	c.setMarkdown(c.admin, ctInCR(second), guide, "second's line\n")
	c.MustDo(http.MethodPost, ctCRPath(c.space, second, "/merge"), c.admin, nil, http.StatusOK)
	main := c.spaceRevision(c.space)
	before := c.getCR(c.space, first)

	for _, action := range []string{"/merge", "/update"} {
		out := c.MustDo(http.MethodPost, ctCRPath(c.space, first, action), c.editor, nil, http.StatusOK)
		assert.Equal(t, map[string]any{"result": "conflicts", "revision": before["revision"]}, out, action)
		assert.Equal(t, main, c.spaceRevision(c.space), "%s changed the main content", action)
		assert.Equal(t, before, c.getCR(c.space, first), "%s changed the change request", action)
	}
	page := c.MustDo(http.MethodGet, "/v1/spaces/"+c.space+"/content/page/"+guide+"?format=markdown", c.reader, nil, http.StatusOK)
	assert.Equal(t, "second's line\n", page["markdown"])
}

func TestChangeRequestPDF(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "Hello"})
	id := c.createCR(c.space, c.editor, map[string]any{"subject": "Print me"})["id"].(string)
	pdf := ctCRPath(c.space, id, "/pdf")
	var urls []string
	keep := func(t *testing.T, res *servertest.Response) {
		body := ctDecode(t, res)
		assert.Equal(t, []string{"url"}, ctKeys(body))
		urls = append(urls, body["url"].(string))
	}
	get := func(name, p, tok string, status int) servertest.Scenario {
		sc := servertest.Scenario{Name: name, Method: http.MethodGet, Path: p, Token: tok, WantStatus: status}
		if status == http.StatusOK {
			sc.Check = keep
		}
		return sc
	}
	scenarios := []servertest.Scenario{
		get("everything", pdf, c.reader, http.StatusOK),
		get("a page", ctCRPath(c.space, "1", "/pdf?page="+guide), c.reader, http.StatusOK),
		get("a page only", pdf+"?page="+guide+"&only=true", c.reader, http.StatusOK),
		get("bad only", pdf+"?page="+guide+"&only=maybe", c.reader, http.StatusBadRequest),
		get("only without a page", pdf+"?only=true", c.reader, http.StatusBadRequest),
		get("unknown page", pdf+"?page=pg_doesnotexist", c.reader, http.StatusBadRequest),
	}
	c.Run(t, append(scenarios, c.crErrors(http.MethodGet, "/pdf", nil, id)...))
	require.Len(t, urls, 3)
	for _, u := range urls {
		status, b := c.fetch(u)
		require.Equal(t, http.StatusOK, status, u)
		assert.True(t, strings.HasPrefix(string(b), "%PDF-"), "%s serves a PDF", u)
	}

	// A tampered URL is refused; an expired one is gone.
	u, err := url.Parse(urls[1])
	require.NoError(t, err)
	q := u.Query()
	q.Set("page", "pg_other")
	u.RawQuery = q.Encode()
	status, _ := c.fetch(u.String())
	assert.Equal(t, http.StatusForbidden, status, "tampered")
	c.Clock.Advance(2 * time.Hour)
	status, _ = c.fetch(urls[0])
	assert.Equal(t, http.StatusGone, status, "expired")
}

// A change request's content is read like the main content, by ID or number,
// and holds the change request's edits only.
func TestChangeRequestContent(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	guide := c.createPage(c.admin, ctInSpace(c.space), map[string]any{"title": "Guide", "markdown": "main"})
	id := c.createCR(c.space, c.editor, nil)["id"].(string)
	c.setMarkdown(c.editor, ctInCR(id), guide, "changed")
	extra := c.createPage(c.editor, ctInCR(id), map[string]any{"title": "Extra", "parentPageId": guide})
	file := c.upload(ctInCR(id), "cr.txt", "text/plain", []byte("in the change request"))
	crRev := c.getCR(c.space, id)["revision"]

	get := func(name, p string, status int, want map[string]any) servertest.Scenario {
		return servertest.Scenario{Name: name, Method: http.MethodGet, Path: p, Token: c.reader, WantStatus: status, WantJSON: want}
	}
	c.Run(t, []servertest.Scenario{
		get("the revision", ctCRPath(c.space, id, "/content"), http.StatusOK, map[string]any{"object": "revision", "id": crRev,
			"pages": []any{map[string]any{"id": guide, "markdown": "changed", "pages": []any{map[string]any{"id": extra}}}},
			"files": []any{map[string]any{"id": file}}}),
		get("the revision by number", ctCRPath(c.space, "1", "/content"), http.StatusOK, map[string]any{"id": crRev}),
		get("the pages", ctCRPath(c.space, "1", "/content/pages"), http.StatusOK,
			map[string]any{"pages": []any{map[string]any{"id": guide, "markdown": "changed"}}}),
		get("a page", ctCRPath(c.space, id, "/content/page/"+guide+"?format=markdown"), http.StatusOK,
			map[string]any{"id": guide, "markdown": "changed"}),
		get("a page by path", ctCRPath(c.space, "1", "/content/path/guide/extra"), http.StatusOK, map[string]any{"id": extra}),
		get("the files", ctCRPath(c.space, id, "/content/files"), http.StatusOK,
			map[string]any{"items": []any{map[string]any{"id": file, "name": "cr.txt"}}, "count": 1}),
		get("a file", ctCRPath(c.space, "1", "/content/files/"+file), http.StatusOK, map[string]any{"id": file}),
		get("unknown page", ctCRPath(c.space, id, "/content/page/pg_nope"), http.StatusNotFound, nil),
		get("unknown file", ctCRPath(c.space, id, "/content/files/file_nope"), http.StatusNotFound, nil),
		get("bad format", ctCRPath(c.space, id, "/content/page/"+guide+"?format=md"), http.StatusBadRequest, nil),
		get("malformed page cursor", ctCRPath(c.space, id, "/content/files?page=garbage"), http.StatusBadRequest, nil),
		// The main content does not have the change request's edits.
		get("the main content's page", "/v1/spaces/"+c.space+"/content/page/"+guide+"?format=markdown", http.StatusOK,
			map[string]any{"markdown": "main", "pages": []any{}}),
		get("the main content's files", "/v1/spaces/"+c.space+"/content/files", http.StatusOK,
			map[string]any{"items": []any{}, "count": 0}),
	})
	for _, suffix := range []string{"/content", "/content/pages", "/content/files", "/content/files/" + file,
		"/content/page/" + guide, "/content/path/guide"} {
		c.Run(t, c.crErrors(http.MethodGet, suffix, nil, id))
	}
}

// The whole flow: two change requests edit the same line; the second is
// merged first, so updating the first conflicts; the conflict is resolved
// through GraphQL, and the merged text is read through /v1.
func TestChangeRequestConflictResolved(t *testing.T) {
	t.Parallel()
	c := newCtEnv(t)
	spaceID := c.newSpace("Docs", false)
	// The main content changes through change requests only.
	setup := c.createCR(spaceID, c.admin, map[string]any{"subject": "Start"})["id"].(string)
	guide := c.createPage(c.admin, ctInCR(setup), map[string]any{"title": "Guide", "markdown": "Intro\n\nInstall with make.\n"})
	c.MustDo(http.MethodPost, ctCRPath(spaceID, setup, "/merge"), c.admin, nil, http.StatusOK)

	mine := c.createCR(spaceID, c.editor, map[string]any{"subject": "Use go install"})
	theirs := c.createCR(spaceID, c.admin, map[string]any{"subject": "Use the installer"})
	c.setMarkdown(c.editor, ctInCR(mine["id"].(string)), guide, "Intro\n\nInstall with go install.\n")
	c.setMarkdown(c.admin, ctInCR(theirs["id"].(string)), guide, "Intro\n\nInstall with the installer.\n")
	out := c.MustDo(http.MethodPost, ctCRPath(spaceID, fmt.Sprint(theirs["number"]), "/merge"), c.admin, nil, http.StatusOK)
	assert.Equal(t, "merge", out["result"])

	mineRef := fmt.Sprint(mine["number"])
	assert.Equal(t, true, c.getCR(spaceID, mineRef)["outdated"])
	out = c.MustDo(http.MethodPost, ctCRPath(spaceID, mineRef, "/update"), c.editor, nil, http.StatusOK)
	assert.Equal(t, "conflicts", out["result"])

	// GraphQL shows the conflict with its three sides.
	data := c.gql(c.editor, `query($space: ID!, $n: Int!) { space(id: $space) { changeRequest(number: $n) {
		conflicts { key kind pageId base ours theirs } } } }`, map[string]any{"space": spaceID, "n": mine["number"]})
	conflicts := ctAt(data, "space", "changeRequest", "conflicts").([]any)
	require.Len(t, conflicts, 1)
	servertest.AssertContains(t, map[string]any{"kind": "TEXT", "pageId": guide}, conflicts[0])
	conflict := conflicts[0].(map[string]any)
	assert.Contains(t, conflict["base"], "Install with make.")
	assert.Contains(t, conflict["ours"], "Install with go install.")
	assert.Contains(t, conflict["theirs"], "Install with the installer.")

	// Resolved in a sync, then merged.
	resolved := c.gql(c.editor, `mutation($in: SyncChangeRequestInput!) { syncChangeRequest(input: $in) { result conflicts { key } } }`,
		map[string]any{"in": map[string]any{"id": mine["id"], "resolutions": []any{map[string]any{
			"key": conflict["key"], "text": "Install with go install or the installer.",
		}}}})
	assert.Equal(t, "UPDATE", ctAt(resolved, "syncChangeRequest", "result"))
	assert.Equal(t, false, c.getCR(spaceID, mineRef)["outdated"])
	out = c.MustDo(http.MethodPost, ctCRPath(spaceID, mineRef, "/merge"), c.editor, nil, http.StatusOK)
	assert.Equal(t, "merge", out["result"])
	assert.Equal(t, out["revision"], c.spaceRevision(spaceID))

	page := c.MustDo(http.MethodGet, "/v1/spaces/"+spaceID+"/content/page/"+guide+"?format=markdown", c.reader, nil, http.StatusOK)
	assert.Contains(t, page["markdown"], "Install with go install or the installer.")
	assert.NotContains(t, page["markdown"], "make")
	assert.Equal(t, [3]float64{3, 0, 0}, c.counters(spaceID))
}
