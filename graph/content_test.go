package graph_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/server/servertest"
)

// ctEnv is a test server with helpers for content.
type ctEnv struct{ *servertest.Env }

// must runs an operation that must succeed and decodes its data into out.
func (e ctEnv) must(t *testing.T, token, query string, vars map[string]any, out any) {
	t.Helper()
	g := e.GraphQL(token, query, vars)
	require.Empty(t, g.Errors, "%s", g.Data)
	if out != nil {
		g.Into(t, out)
	}
}

// code runs an operation that must fail and returns its error code.
func (e ctEnv) code(t *testing.T, token, query string, vars map[string]any) string {
	t.Helper()
	g := e.GraphQL(token, query, vars)
	require.NotEmpty(t, g.Errors, "expected an error")
	return g.Code()
}

// space creates a space with the given edit mode ("" for change requests).
func (e ctEnv) space(t *testing.T, editMode string) string {
	t.Helper()
	in := map[string]any{"organizationId": e.Org.ID, "title": "Docs"}
	if editMode != "" {
		in["editMode"] = editMode
	}
	var out struct {
		CreateSpace struct{ Space struct{ ID string } }
	}
	e.must(t, e.OwnerToken, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { space { id } } }`,
		map[string]any{"in": in}, &out)
	return out.CreateSpace.Space.ID
}

const ctPageFields = `id type title slug path markdown emoji pages { id slug path }`

type ctPage struct {
	ID, Type, Title, Slug, Path string
	Markdown                    *string
	Emoji                       *string
	Pages                       []struct{ ID, Slug, Path string }
}

type ctRevision struct {
	ID      string
	Type    string
	Parents []struct{ ID string }
}

// createPage creates a page in a space or change request (target is
// "spaceId" or "changeRequestId") and returns it with the new revision.
func (e ctEnv) createPage(t *testing.T, target, id string, in map[string]any) (ctPage, ctRevision) {
	t.Helper()
	in[target] = id
	var out struct {
		CreatePage struct {
			Page     ctPage
			Revision ctRevision
		}
	}
	e.must(t, e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) {
	  page { `+ctPageFields+` } revision { id type parents { id } } } }`, map[string]any{"in": in}, &out)
	return out.CreatePage.Page, out.CreatePage.Revision
}

func (e ctEnv) setMarkdown(t *testing.T, token, target, id, pageID, md string) ctRevision {
	t.Helper()
	var out struct{ SetPageMarkdown struct{ Revision ctRevision } }
	e.must(t, token, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id type parents { id } } } }`,
		map[string]any{"in": map[string]any{target: id, "pageId": pageID, "markdown": md}}, &out)
	return out.SetPageMarkdown.Revision
}

// spaceRevision returns the space's current revision with its top pages.
func (e ctEnv) spaceRevision(t *testing.T, spaceID string) (string, []ctPage) {
	t.Helper()
	var out struct {
		Space struct {
			Revision struct {
				ID    string
				Pages []ctPage
			}
		}
	}
	e.must(t, e.OwnerToken, `query($id: ID!) { space(id: $id) { revision { id pages { `+ctPageFields+` } } } }`,
		map[string]any{"id": spaceID}, &out)
	return out.Space.Revision.ID, out.Space.Revision.Pages
}

func TestEditLiveSpace(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t)}
	sp := e.space(t, "LIVE")
	first, _ := e.spaceRevision(t, sp)

	guide, rev1 := e.createPage(t, "spaceId", sp, map[string]any{"title": "Getting started", "markdown": "# Hello\n", "emoji": "🚀"})
	assert.Equal(t, "getting-started", guide.Slug)
	assert.Equal(t, "DOCUMENT", guide.Type)
	assert.Equal(t, "EDITS", rev1.Type)
	require.Len(t, rev1.Parents, 1)
	assert.Equal(t, first, rev1.Parents[0].ID, "each edit's parent is the previous revision")

	child, rev2 := e.createPage(t, "spaceId", sp, map[string]any{"title": "Install", "parentPageId": guide.ID})
	assert.Equal(t, rev1.ID, rev2.Parents[0].ID)
	assert.Equal(t, "getting-started/install", child.Path)
	before, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "Intro", "position": map[string]any{"before": guide.ID}})
	twin, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "Getting started"})
	assert.Equal(t, "getting-started-2", twin.Slug, "a slug is made unique among siblings")
	group, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "Reference", "type": "GROUP"})
	link, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "Site", "type": "LINK", "href": "https://example.com"})
	assert.Nil(t, link.Markdown)

	_, pages := e.spaceRevision(t, sp)
	var order []string
	for _, p := range pages {
		order = append(order, p.ID)
	}
	assert.Equal(t, []string{before.ID, guide.ID, twin.ID, group.ID, link.ID}, order)

	t.Run("move", func(t *testing.T) {
		var out struct{ MovePage struct{ Page ctPage } }
		e.must(t, e.OwnerToken, `mutation($in: MovePageInput!) { movePage(input: $in) { page { `+ctPageFields+` } } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": child.ID, "parentPageId": group.ID}}, &out)
		assert.Equal(t, "reference/install", out.MovePage.Page.Path)
		bad := []map[string]any{
			{"spaceId": sp, "pageId": guide.ID, "position": map[string]any{"before": before.ID, "after": twin.ID}},
			{"spaceId": sp, "pageId": guide.ID, "position": map[string]any{"before": child.ID}},
			{"spaceId": sp, "pageId": group.ID, "parentPageId": guide.ID},
			{"spaceId": sp, "pageId": guide.ID, "parentPageId": link.ID},
			{"spaceId": sp, "pageId": guide.ID, "parentPageId": "pg_unknown"},
		}
		for i, in := range bad {
			assert.Equal(t, "BAD_USER_INPUT", e.code(t, e.OwnerToken,
				`mutation($in: MovePageInput!) { movePage(input: $in) { page { id } } }`, map[string]any{"in": in}), "case %d", i)
		}
	})

	t.Run("update", func(t *testing.T) {
		var out struct{ UpdatePage struct{ Page ctPage } }
		e.must(t, e.OwnerToken, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { `+ctPageFields+` } } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": guide.ID, "title": "Start here", "emoji": nil}}, &out)
		assert.Equal(t, "Start here", out.UpdatePage.Page.Title)
		assert.Equal(t, "getting-started", out.UpdatePage.Page.Slug, "a new title keeps the page's URL")
		assert.Nil(t, out.UpdatePage.Page.Emoji)
		assert.Equal(t, "CONFLICT", e.code(t, e.OwnerToken, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": guide.ID, "slug": "getting-started-2"}}))
		assert.Equal(t, "BAD_USER_INPUT", e.code(t, e.OwnerToken, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": guide.ID, "title": strings.Repeat("é", 101)}}))
	})

	t.Run("markdown and delete", func(t *testing.T) {
		rev := e.setMarkdown(t, e.OwnerToken, "spaceId", sp, guide.ID, "# Hello\n\nWorld\n")
		cur, _ := e.spaceRevision(t, sp)
		assert.Equal(t, rev.ID, cur)
		var out struct {
			DeletePage struct{ DeletedPageID string }
		}
		e.must(t, e.OwnerToken, `mutation($in: DeletePageInput!) { deletePage(input: $in) { deletedPageId } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": twin.ID}}, &out)
		assert.Equal(t, "NOT_FOUND", e.code(t, e.OwnerToken, `mutation($in: DeletePageInput!) { deletePage(input: $in) { deletedPageId } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": twin.ID}}))
	})

	t.Run("optimistic concurrency", func(t *testing.T) {
		assert.Equal(t, "CONFLICT", e.code(t, e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "pageId": guide.ID, "markdown": "x", "expectedRevisionId": first}}))
	})

	t.Run("roles", func(t *testing.T) {
		for _, role := range []enum.Role{enum.RoleRead, enum.RoleComment} {
			tok, _ := e.Member(e.Org.ID, role, string(role)+"@example.com")
			assert.Equal(t, "FORBIDDEN", e.code(t, tok, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
				map[string]any{"in": map[string]any{"spaceId": sp, "pageId": guide.ID, "markdown": "x"}}), role)
		}
		tok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
		e.setMarkdown(t, tok, "spaceId", sp, guide.ID, "edited by an editor\n")
	})

	t.Run("locked and change-request spaces refuse direct edits", func(t *testing.T) {
		other := e.space(t, "")
		assert.Equal(t, "PRECONDITION_FAILED", e.code(t, e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": other, "title": "x"}}))
		e.must(t, e.OwnerToken, `mutation($id: ID!) { updateSpace(input: {id: $id, editMode: LOCKED}) { space { id } } }`,
			map[string]any{"id": sp}, nil)
		assert.Equal(t, "PRECONDITION_FAILED", e.code(t, e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": sp, "title": "x"}}))
	})
}

func TestUploadAndDownloadFile(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t, func(c *config.Config) { c.MaxUploadBytes = 1024 })}
	sp := e.space(t, "LIVE")
	const upload = `mutation($in: UploadFileInput!) { uploadFile(input: $in) {
	  revision { id } file { id name contentType size downloadURL } } }`
	in := map[string]any{"spaceId": sp, "file": nil}
	g := e.Upload(e.OwnerToken, upload, map[string]any{"in": in}, "in.file", "notes.txt", "text/plain", []byte("hello file"))
	var out struct {
		UploadFile struct {
			File struct {
				ID, Name, ContentType, DownloadURL string
				Size                               int
			}
		}
	}
	g.Into(t, &out)
	f := out.UploadFile.File
	assert.Equal(t, "notes.txt", f.Name)
	assert.Equal(t, 10, f.Size)

	res := e.Get(f.DownloadURL)
	require.Equal(t, http.StatusOK, res.Status)
	assert.Equal(t, "hello file", string(res.Body))
	assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, http.StatusForbidden, e.Get(strings.Replace(f.DownloadURL, "notes.txt", "other.txt", 1)).Status)

	g = e.Upload(e.OwnerToken, upload, map[string]any{"in": in}, "in.file", "big.bin", "application/octet-stream", make([]byte, 2048))
	assert.Equal(t, "BAD_USER_INPUT", g.Code(), "an upload over the limit is refused")

	tok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	g = e.Upload(tok, upload, map[string]any{"in": in}, "in.file", "x.txt", "text/plain", []byte("x"))
	assert.Equal(t, "FORBIDDEN", g.Code())

	var del struct {
		DeleteFile struct{ DeletedFileID string }
	}
	e.must(t, e.OwnerToken, `mutation($in: DeleteFileInput!) { deleteFile(input: $in) { deletedFileId } }`,
		map[string]any{"in": map[string]any{"spaceId": sp, "fileId": f.ID}}, &del)
	assert.Equal(t, f.ID, del.DeleteFile.DeletedFileID)

	e.Clock.Advance(time.Hour + time.Minute)
	assert.Equal(t, http.StatusGone, e.Get(f.DownloadURL).Status, "a download URL expires after an hour")
}

// crFields are the fields of a change request the tests read.
const crFields = `id number status subject outdated revision { id } revisionInitial { id }
  revisionMergedAncestor { id } revisionMerged { id type parents { id } }`

type ctChangeRequest struct {
	ID, Status, Subject    string
	Number                 int
	Outdated               bool
	Revision               struct{ ID string }
	RevisionInitial        struct{ ID string }
	RevisionMergedAncestor *struct{ ID string }
	RevisionMerged         *ctRevision
}

func (e ctEnv) openCR(t *testing.T, token, spaceID, subject string) ctChangeRequest {
	t.Helper()
	var out struct {
		CreateChangeRequest struct{ ChangeRequest ctChangeRequest }
	}
	e.must(t, token, `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { changeRequest { `+crFields+` } } }`,
		map[string]any{"in": map[string]any{"spaceId": spaceID, "subject": subject}}, &out)
	return out.CreateChangeRequest.ChangeRequest
}

type ctSync struct {
	Result        string
	Revision      *ctRevision
	ChangeRequest ctChangeRequest
	Conflicts     []struct {
		Key, Kind          string
		PageID, Field      *string
		Base, Ours, Theirs *string
		Page               *struct{ ID, Title string }
	}
}

const syncFields = `result revision { id type parents { id } } changeRequest { ` + crFields + ` }
  conflicts { key kind pageId field base ours theirs page { id title } }`

func (e ctEnv) merge(t *testing.T, crID string, resolutions []map[string]any) ctSync {
	t.Helper()
	var out struct{ MergeChangeRequest ctSync }
	e.must(t, e.OwnerToken, `mutation($in: MergeChangeRequestInput!) { mergeChangeRequest(input: $in) { `+syncFields+` } }`,
		map[string]any{"in": map[string]any{"id": crID, "resolutions": resolutions}}, &out)
	return out.MergeChangeRequest
}

func (e ctEnv) sync(t *testing.T, crID string, resolutions []map[string]any) ctSync {
	t.Helper()
	var out struct{ SyncChangeRequest ctSync }
	e.must(t, e.OwnerToken, `mutation($in: SyncChangeRequestInput!) { syncChangeRequest(input: $in) { `+syncFields+` } }`,
		map[string]any{"in": map[string]any{"id": crID, "resolutions": resolutions}}, &out)
	return out.SyncChangeRequest
}

// seededSpace returns a change-request space holding one page.
func (e ctEnv) seededSpace(t *testing.T, md string) (spaceID, pageID string) {
	t.Helper()
	spaceID = e.space(t, "LIVE")
	p, _ := e.createPage(t, "spaceId", spaceID, map[string]any{"title": "Guide", "markdown": md})
	e.must(t, e.OwnerToken, `mutation($id: ID!) { updateSpace(input: {id: $id, editMode: null}) { space { id } } }`,
		map[string]any{"id": spaceID}, nil)
	return spaceID, p.ID
}

func (e ctEnv) markdownOf(t *testing.T, spaceID, pageID string) string {
	t.Helper()
	var out struct {
		Space struct {
			Revision struct{ Page struct{ Markdown string } }
		}
	}
	e.must(t, e.OwnerToken, `query($id: ID!, $p: ID!) { space(id: $id) { revision { page(id: $p) { markdown } } } }`,
		map[string]any{"id": spaceID, "p": pageID}, &out)
	return out.Space.Revision.Page.Markdown
}

// TestChangeRequestConflictFlow is the whole flow, on both
// databases: two change requests edit the same line; the second merges
// first; the first reports the conflict, is fixed and merged.
func TestChangeRequestConflictFlow(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t)}
	sp, pg := e.seededSpace(t, "# Guide\n\nInstall with npm.\n\nThen run it.\n")
	base, _ := e.spaceRevision(t, sp)

	mine := e.openCR(t, e.OwnerToken, sp, "Use yarn")
	assert.Equal(t, base, mine.RevisionInitial.ID)
	assert.Equal(t, base, mine.Revision.ID, "a new change request forks the space's revision")
	assert.False(t, mine.Outdated)
	e.setMarkdown(t, e.OwnerToken, "changeRequestId", mine.ID, pg, "# Guide\n\nInstall with yarn.\n\nThen run it.\n")
	assert.Equal(t, "# Guide\n\nInstall with npm.\n\nThen run it.\n", e.markdownOf(t, sp, pg), "the main content is untouched")

	theirs := e.openCR(t, e.OwnerToken, sp, "Use pnpm")
	assert.Equal(t, mine.Number+1, theirs.Number)
	e.setMarkdown(t, e.OwnerToken, "changeRequestId", theirs.ID, pg, "# Guide\n\nInstall with pnpm.\n\nThen run it.\n")
	merged := e.merge(t, theirs.ID, nil)
	require.Equal(t, "MERGE", merged.Result)
	assert.Equal(t, "MERGED", merged.ChangeRequest.Status)
	require.NotNil(t, merged.ChangeRequest.RevisionMerged)
	assert.Equal(t, "MERGE", merged.Revision.Type)
	assert.Len(t, merged.Revision.Parents, 2, "a merge revision has two parents")
	assert.Equal(t, base, merged.Revision.Parents[0].ID)
	cur, _ := e.spaceRevision(t, sp)
	assert.Equal(t, merged.Revision.ID, cur, "the merge moves the space's revision")

	var got struct {
		Node struct {
			ctChangeRequest
			Conflicts []struct {
				Kind               string
				Base, Ours, Theirs string
				Page               struct{ ID string }
			}
		}
	}
	e.must(t, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on ChangeRequest { `+crFields+`
	  conflicts { kind base ours theirs page { id } } } } }`, map[string]any{"id": mine.ID}, &got)
	assert.True(t, got.Node.Outdated, "the main content moved on")
	require.Len(t, got.Node.Conflicts, 1)
	c := got.Node.Conflicts[0]
	assert.Equal(t, "TEXT", c.Kind)
	assert.Equal(t, pg, c.Page.ID)
	assert.Contains(t, c.Base, "npm")
	assert.Contains(t, c.Ours, "yarn")
	assert.Contains(t, c.Theirs, "pnpm")

	up := e.sync(t, mine.ID, nil)
	assert.Equal(t, "CONFLICTS", up.Result)
	assert.Nil(t, up.Revision)
	assert.Len(t, up.Conflicts, 1)
	assert.Equal(t, got.Node.Revision.ID, up.ChangeRequest.Revision.ID, "a conflicting update changes nothing")
	assert.Equal(t, "CONFLICTS", e.merge(t, mine.ID, nil).Result)
	cur2, _ := e.spaceRevision(t, sp)
	assert.Equal(t, cur, cur2, "a conflicting merge changes nothing")

	fixed := "# Guide\n\nInstall with yarn or pnpm.\n\nThen run it.\n"
	up = e.sync(t, mine.ID, []map[string]any{{"key": up.Conflicts[0].Key, "text": fixed}})
	require.Equal(t, "UPDATE", up.Result)
	assert.Equal(t, "UPDATE", up.Revision.Type)
	assert.Len(t, up.Revision.Parents, 2)
	assert.False(t, up.ChangeRequest.Outdated)
	require.NotNil(t, up.ChangeRequest.RevisionMergedAncestor)
	assert.Equal(t, cur, up.ChangeRequest.RevisionMergedAncestor.ID, "revisionMergedAncestor records the last sync")

	done := e.merge(t, mine.ID, nil)
	require.Equal(t, "MERGE", done.Result)
	assert.Equal(t, fixed, e.markdownOf(t, sp, pg))

	assert.Equal(t, "BAD_USER_INPUT", e.code(t, e.OwnerToken,
		`mutation($id: ID!) { updateChangeRequest(input: {id: $id, status: OPEN}) { changeRequest { id } } }`,
		map[string]any{"id": mine.ID}), "merged is final")
	assert.Equal(t, "PRECONDITION_FAILED", e.code(t, e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"changeRequestId": mine.ID, "pageId": pg, "markdown": "x"}}), "a merged change request is closed to edits")
}

func TestChangeRequestCleanMergeAndStatus(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t)}
	sp, pg := e.seededSpace(t, "One.\n\nTwo.\n\nThree.\n")
	a := e.openCR(t, e.OwnerToken, sp, "First paragraph")
	b := e.openCR(t, e.OwnerToken, sp, "Last paragraph")
	e.setMarkdown(t, e.OwnerToken, "changeRequestId", a.ID, pg, "One, edited.\n\nTwo.\n\nThree.\n")
	e.setMarkdown(t, e.OwnerToken, "changeRequestId", b.ID, pg, "One.\n\nTwo.\n\nThree, edited.\n")
	require.Equal(t, "MERGE", e.merge(t, a.ID, nil).Result)
	require.Equal(t, "MERGE", e.merge(t, b.ID, nil).Result, "edits of different paragraphs merge cleanly")
	assert.Equal(t, "One, edited.\n\nTwo.\n\nThree, edited.\n", e.markdownOf(t, sp, pg))
	var merged struct {
		Space struct {
			Revision struct {
				MergedFrom *struct{ ID string }
				Parents    []struct {
					Type       string
					MergedFrom *struct{ ID string }
				}
			}
		}
	}
	e.must(t, e.OwnerToken, `query($id: ID!) { space(id: $id) { revision { mergedFrom { id }
	  parents { type mergedFrom { id } } } } }`, map[string]any{"id": sp}, &merged)
	rev := merged.Space.Revision
	require.NotNil(t, rev.MergedFrom)
	assert.Equal(t, b.ID, rev.MergedFrom.ID, "a merge names the change request it merged")
	require.Len(t, rev.Parents, 2)
	require.NotNil(t, rev.Parents[0].MergedFrom)
	assert.Equal(t, a.ID, rev.Parents[0].MergedFrom.ID)
	assert.Equal(t, "EDITS", rev.Parents[1].Type)
	assert.Nil(t, rev.Parents[1].MergedFrom, "only a merge was merged from a change request")

	c := e.openCR(t, e.OwnerToken, sp, "")
	for _, st := range []string{"DRAFT", "ARCHIVED", "OPEN"} {
		var out struct {
			UpdateChangeRequest struct{ ChangeRequest ctChangeRequest }
		}
		e.must(t, e.OwnerToken, `mutation($id: ID!, $s: ChangeRequestStatus) { updateChangeRequest(input: {id: $id, status: $s}) { changeRequest { `+crFields+` } } }`,
			map[string]any{"id": c.ID, "s": st}, &out)
		assert.Equal(t, st, out.UpdateChangeRequest.ChangeRequest.Status)
	}
	assert.Equal(t, "BAD_USER_INPUT", e.code(t, e.OwnerToken,
		`mutation($id: ID!) { updateChangeRequest(input: {id: $id, status: MERGED}) { changeRequest { id } } }`, map[string]any{"id": c.ID}))
	assert.Equal(t, "BAD_USER_INPUT", e.code(t, e.OwnerToken,
		`mutation($id: ID!, $s: String) { updateChangeRequest(input: {id: $id, subject: $s}) { changeRequest { id } } }`,
		map[string]any{"id": c.ID, "s": strings.Repeat("é", 101)}))

	var counts struct {
		Space struct {
			ChangeRequestCount, OpenChangeRequestCount, DraftChangeRequestCount int
			ChangeRequests                                                      struct{ TotalCount int }
			All                                                                 struct{ TotalCount int }
		}
	}
	e.must(t, e.OwnerToken, `query($id: ID!) { space(id: $id) { changeRequestCount openChangeRequestCount draftChangeRequestCount
	  changeRequests { totalCount } all: changeRequests(status: null) { totalCount } } }`, map[string]any{"id": sp}, &counts)
	assert.Equal(t, 3, counts.Space.ChangeRequestCount)
	assert.Equal(t, 1, counts.Space.OpenChangeRequestCount)
	assert.Equal(t, 0, counts.Space.DraftChangeRequestCount)
	assert.Equal(t, 1, counts.Space.ChangeRequests.TotalCount, "the list shows open change requests by default")
	assert.Equal(t, 3, counts.Space.All.TotalCount)

	tok, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	assert.Equal(t, "FORBIDDEN", e.code(t, tok, `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { changeRequest { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": sp}}))
	assert.Equal(t, "FORBIDDEN", e.code(t, tok, `mutation($id: ID!) { mergeChangeRequest(input: {id: $id}) { result } }`, map[string]any{"id": c.ID}))
}

// TestChangeRequestNumbersUnderConcurrency creates change requests at once:
// their numbers are 1..n, each once.
func TestChangeRequestNumbersUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t)}
	sp := e.space(t, "")
	const n = 16
	numbers := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := e.GraphQL(e.OwnerToken, `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { changeRequest { number } } }`,
				map[string]any{"in": map[string]any{"spaceId": sp, "subject": fmt.Sprint(i)}})
			var out struct {
				CreateChangeRequest struct{ ChangeRequest struct{ Number int } }
			}
			if assert.Empty(t, g.Errors) {
				assert.NoError(t, jsonInto(g, &out))
				numbers[i] = out.CreateChangeRequest.ChangeRequest.Number
			}
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, num := range numbers {
		assert.False(t, seen[num], "number %d given twice", num)
		seen[num] = true
	}
	for i := 1; i <= n; i++ {
		assert.True(t, seen[i], "number %d missing", i)
	}
}

// TestChangeRequestEditsUnderConcurrency adds pages to one change request
// from many requests at once: the content lock of its space, taken before
// the change request is read, serializes them, so that no edit is lost.
func TestChangeRequestEditsUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t)}
	cr := e.openCR(t, e.OwnerToken, e.space(t, ""), "Pages")
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := e.GraphQL(e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
				map[string]any{"in": map[string]any{"changeRequestId": cr.ID, "title": fmt.Sprint("Page ", i)}})
			assert.Empty(t, g.Errors)
		}()
	}
	wg.Wait()
	var out struct {
		Node struct{ Revision struct{ Pages []ctPage } }
	}
	e.must(t, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on ChangeRequest { revision { pages { `+ctPageFields+` } } } } }`,
		map[string]any{"id": cr.ID}, &out)
	var titles []string
	for _, p := range out.Node.Revision.Pages {
		titles = append(titles, p.Title)
	}
	for i := range n {
		assert.Contains(t, titles, fmt.Sprint("Page ", i))
	}
}

// bigZip serves a zip of folders×perFolder markdown pages.
func bigZip(t *testing.T, folders, perFolder int) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for f := range folders {
		for p := range perFolder {
			w, err := zw.Create(fmt.Sprintf("part-%02d/page-%03d.md", f, p))
			require.NoError(t, err)
			fmt.Fprintf(w, "# Page %d.%d\n\nSome text for page %d of part %d.\n", f, p, p, f)
		}
	}
	require.NoError(t, zw.Close())
	return serveZip(t, buf.Bytes())
}

func (e ctEnv) importZip(t *testing.T, spaceID, url string) {
	t.Helper()
	var out struct {
		ImportContent struct{ ImportedResources, TotalResources int }
	}
	e.must(t, e.OwnerToken, `mutation($in: ImportContentInput!) { importContent(input: $in) { importedResources totalResources } }`,
		map[string]any{"in": map[string]any{"spaceId": spaceID, "url": url, "source": "ZIP"}}, &out)
	require.Positive(t, out.ImportContent.ImportedResources)
}

func allowPrivate(c *config.Config) { c.ImportAllowPrivate = true }

// TestImportIntoAnyEditModeButLocked: importContent writes a space's main
// content whether it is edited live or through change requests, and a
// locked space refuses it, as it refuses every edit.
func TestImportIntoAnyEditModeButLocked(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t, allowPrivate)}
	src := bigZip(t, 1, 2)
	tok, _ := e.Member(e.Org.ID, enum.RoleEdit, "editor@example.com")
	const q = `mutation($in: ImportContentInput!) { importContent(input: $in) { revision { id parents { id } } } }`
	for _, mode := range []string{"", "LIVE"} {
		sp := e.space(t, mode)
		before, _ := e.spaceRevision(t, sp)
		var out struct {
			ImportContent struct{ Revision ctRevision }
		}
		e.must(t, tok, q, map[string]any{"in": map[string]any{"spaceId": sp, "url": src, "source": "ZIP"}}, &out)
		rev, pages := e.spaceRevision(t, sp)
		assert.Equal(t, out.ImportContent.Revision.ID, rev, "editMode %q: the import moved the main content", mode)
		require.Len(t, out.ImportContent.Revision.Parents, 1)
		assert.Equal(t, before, out.ImportContent.Revision.Parents[0].ID)
		assert.Len(t, pages, 2, "editMode %q: both pages of the zip", mode)
	}
	locked := e.space(t, "LOCKED")
	assert.Equal(t, "PRECONDITION_FAILED", e.code(t, tok, q,
		map[string]any{"in": map[string]any{"spaceId": locked, "url": src, "source": "ZIP"}}))
	reader, _ := e.Member(e.Org.ID, enum.RoleRead, "reader@example.com")
	assert.Equal(t, "FORBIDDEN", e.code(t, reader, q,
		map[string]any{"in": map[string]any{"spaceId": e.space(t, ""), "url": src, "source": "ZIP"}}))
}

// TestEditWritesOnlyThePathToTheRoot shows that a space of 1,000 pages does
// not copy its pages on an edit: the edit stores the changed page and the
// tree nodes above it.
func TestEditWritesOnlyThePathToTheRoot(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t, allowPrivate)}
	sp := e.space(t, "LIVE")
	e.importZip(t, sp, bigZip(t, 10, 100))
	var out struct {
		Space struct {
			Revision struct {
				Pages []struct {
					ID    string
					Pages []struct{ ID string }
				}
			}
		}
	}
	e.must(t, e.OwnerToken, `query($id: ID!) { space(id: $id) { revision { pages { id pages { id } } } } }`, map[string]any{"id": sp}, &out)
	pages := out.Space.Revision.Pages
	require.Len(t, pages, 10)
	total := 0
	for _, p := range pages {
		total += 1 + len(p.Pages)
	}
	require.Equal(t, 1010, total)

	ctx := context.Background()
	before, err := e.Client.ContentObject.Query().Count(ctx)
	require.NoError(t, err)
	e.setMarkdown(t, e.OwnerToken, "spaceId", sp, pages[4].Pages[50].ID, "Changed.\n")
	after, err := e.Client.ContentObject.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, after-before, "the edit stores the page, its folder's tree node and the root tree node")
	revs, err := e.Client.Revision.Query().Count(ctx)
	require.NoError(t, err)
	assert.Less(t, revs, 10)
}

// TestReadingATreeTakesBoundedStatements reads whole page trees of 50 and 500
// pages: the statements do not grow with the pages.
func TestReadingATreeTakesBoundedStatements(t *testing.T) {
	t.Parallel()
	const q = `query($id: ID!) { space(id: $id) { revision { id pages { id title path markdown pages { id title path markdown } } } } }`
	cost := func(folders, per int) int64 {
		e := ctEnv{servertest.New(t, allowPrivate)}
		sp := e.space(t, "LIVE")
		e.importZip(t, sp, bigZip(t, folders, per))
		// A fresh server: nothing cached.
		fresh := servertest.Reuse(t, e.Env)
		before := fresh.Statements.Load()
		g := fresh.GraphQL(e.OwnerToken, q, map[string]any{"id": sp})
		require.Empty(t, g.Errors)
		return fresh.Statements.Load() - before
	}
	small, large := cost(5, 10), cost(5, 100)
	t.Logf("statements: 50 pages %d, 500 pages %d", small, large)
	assert.Equal(t, small, large, "reading 500 pages costs what 50 cost")
	assert.LessOrEqual(t, large, int64(12))
}

func jsonInto(g *servertest.GQLResponse, v any) error { return json.Unmarshal(g.Data, v) }

// serveZip serves a zip archive for an import to fetch and returns its URL.
func serveZip(t *testing.T, data []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/docs.zip"
}

// TestChangeRequestChanges lists what a change request changes, and only
// that: not what the main content changed after it was forked, once the
// change request has taken those changes.
func TestChangeRequestChanges(t *testing.T) {
	t.Parallel()
	e := ctEnv{servertest.New(t)}
	sp := e.space(t, "LIVE")
	g, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "Guide", "markdown": "Install it.\n"})
	guide := g.ID
	faq, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "FAQ", "markdown": "Ask.\n"})
	old, _ := e.createPage(t, "spaceId", sp, map[string]any{"title": "Old", "markdown": "Gone soon.\n"})
	e.must(t, e.OwnerToken, `mutation($id: ID!) { updateSpace(input: {id: $id, editMode: null}) { space { id } } }`,
		map[string]any{"id": sp}, nil)

	cr := e.openCR(t, e.OwnerToken, sp, "Rework")
	e.setMarkdown(t, e.OwnerToken, "changeRequestId", cr.ID, guide, "Install it with npm.\n")
	added, _ := e.createPage(t, "changeRequestId", cr.ID, map[string]any{"title": "Setup", "markdown": "Set up.\n"})
	e.must(t, e.OwnerToken, `mutation($cr: ID!, $p: ID!, $parent: ID!) { movePage(input: {changeRequestId: $cr, pageId: $p, parentPageId: $parent}) { page { id } } }`,
		map[string]any{"cr": cr.ID, "p": faq.ID, "parent": guide}, nil)
	e.must(t, e.OwnerToken, `mutation($cr: ID!, $p: ID!) { deletePage(input: {changeRequestId: $cr, pageId: $p}) { revision { id } } }`,
		map[string]any{"cr": cr.ID, "p": old.ID}, nil)

	// The main content moves on; the change request takes it.
	other := e.openCR(t, e.OwnerToken, sp, "FAQ")
	e.setMarkdown(t, e.OwnerToken, "changeRequestId", other.ID, faq.ID, "Ask away.\n")
	require.Equal(t, "MERGE", e.merge(t, other.ID, nil).Result)
	require.Equal(t, "UPDATE", e.sync(t, cr.ID, nil).Result)

	type change struct {
		Kind         string
		Page         struct{ ID, Title, Path string }
		PreviousPath *string
	}
	var out struct{ Node struct{ Changes []change } }
	e.must(t, e.OwnerToken, `query($id: ID!) { node(id: $id) { ... on ChangeRequest { changes { kind page { id title path } previousPath } } } }`,
		map[string]any{"id": cr.ID}, &out)
	var got []string
	for _, c := range out.Node.Changes {
		row := c.Kind + " " + c.Page.Title + " " + c.Page.Path
		if c.PreviousPath != nil {
			row += " from " + *c.PreviousPath
		}
		got = append(got, row)
	}
	assert.Equal(t, []string{
		"MODIFIED Guide guide",
		"MOVED FAQ guide/faq from faq",
		"ADDED Setup setup",
		"REMOVED Old old",
	}, got)
	assert.Equal(t, added.ID, out.Node.Changes[2].Page.ID)
}
