package graph_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
	"github.com/bindery/bindery/server/servertest"
)

type connection struct {
	ConnectGitSync struct {
		GitSync struct {
			Connected    bool
			PushEventURL *string
		}
		Operation       struct{ ID, Direction, State string }
		PushEventSecret string
	}
}

const connectMutation = `mutation($in: ConnectGitSyncInput!) { connectGitSync(input: $in) {
  gitSync { connected pushEventURL } operation { id direction state } pushEventSecret } }`

// connect connects a space to the repository, starting from initial, and
// runs the first operation.
func connect(t testing.TB, e *servertest.Env, g *gitRepo, space, initial string) connection {
	t.Helper()
	var c connection
	e.GraphQL(e.OwnerToken, connectMutation, map[string]any{"in": map[string]any{
		"spaceId": space, "url": g.withCredentials(), "ref": "main", "initialSync": initial}}).Into(t, &c)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	return c
}

func setMarkdown(t testing.TB, e *servertest.Env, space, pageID, markdown string) {
	t.Helper()
	e.GraphQL(e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "pageId": pageID, "markdown": markdown}}).Into(t, &struct{}{})
}

// pushEvent sends a push event for the connection, signed as GitHub signs.
func pushEvent(e *servertest.Env, c connection, key string) *http.Response {
	e.T.Helper()
	body := []byte(`{"ref":"refs/heads/main"}`)
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	path := strings.TrimPrefix(*c.ConnectGitSync.GitSync.PushEventURL, e.Config.PublicURL)
	req, err := http.NewRequest(http.MethodPost, e.HTTP.URL+path, bytes.NewReader(body))
	require.NoError(e.T, err)
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	req.Header.Set("X-GitHub-Event", "push")
	res, err := e.HTTP.Client().Do(req)
	require.NoError(e.T, err)
	require.NoError(e.T, res.Body.Close())
	return res
}

// A connected space follows its branch both ways: an edit becomes a commit
// by its author, a commit announced by a push event (or found by polling)
// becomes a revision, and nothing moves after a disconnect.
func TestGitSyncConnectedFollowsBothWays(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g, space := liveRepoSpace(t, e, "Connected")

	c := connect(t, e, g, space, "IMPORT")
	assert.True(t, c.ConnectGitSync.GitSync.Connected)
	assert.Equal(t, e.Config.PublicURL+"/git/push/", (*c.ConnectGitSync.GitSync.PushEventURL)[:len(e.Config.PublicURL)+10])
	assert.Len(t, c.ConnectGitSync.PushEventSecret, 43)
	assert.Equal(t, []string{"Welcome", "Guide", "  Install", "Reference", "  API"}, pageTitles(t, e, space))

	// An edit in Bindery: a commit by its author, with nothing asked. It
	// costs three statements more than in a space that is not connected:
	// the connection, the waiting operation, the new one (or none).
	install := pageByPath(t, e, space, "guide/install")
	other := createSpace(t, e, "Not connected")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+other, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	var created struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": other, "title": "Page", "markdown": "Text."}}).Into(t, &created)
	statements := func(space, page, markdown string) int64 {
		before := e.Statements.Load()
		setMarkdown(t, e, space, page, markdown)
		return e.Statements.Load() - before
	}
	plain := statements(other, created.CreatePage.Page.ID, "Edited.\n")
	assert.Equal(t, plain+3, statements(space, install["id"].(string), "Run the installer.\n"), "the first edit queues an operation")
	assert.Equal(t, plain+2, statements(space, install["id"].(string), "Run the installer, then sign in.\n"), "the second finds it waiting")
	ops := runGit(t, e, space).Space.GitSyncOperations.Nodes
	require.Len(t, ops, 2, "edits made while an export waits go in the same commit")
	op := ops[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "EXPORT", op.Direction)
	assert.Equal(t, 1, op.CompletedTasks, "an edit of a page is pushed as an edit of its file")
	assert.Contains(t, g.show(t, "guide/install.md"), "Run the installer, then sign in.")
	assert.Equal(t, e.Owner.DisplayName+"\n", g.srv.Run(g.srv.Dir(g.name), "log", "-1", "--format=%an", "main"))

	// A commit in Git, announced by a signed push event.
	g.srv.Commit(g.name, map[string]string{"guide/install.md": "# Install\n\nRun the installer twice.\n"}, "Twice", "Bob <bob@example.com>", when)
	assert.Equal(t, http.StatusUnauthorized, pushEvent(e, c, "not the key").StatusCode)
	assert.Equal(t, http.StatusNoContent, pushEvent(e, c, c.ConnectGitSync.PushEventSecret).StatusCode)
	e.Server.Resolver().GitSync().ReadBranches(t.Context())
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "IMPORT", op.Direction)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	assert.Equal(t, 1, op.CompletedTasks, "a commit that edits a page is read as that page's edit")
	after := pageByPath(t, e, space, "guide/install")
	assert.Equal(t, install["id"], after["id"])
	assert.Contains(t, after["markdown"], "Run the installer twice.")
	// The revision names the commit it came from, in both APIs.
	rev := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/revisions/"+op.Revision.ID, e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"oid": g.srv.Head(g.name), "message": "Twice", "ref": "refs/heads/main",
		"createdByGitBook": false, "createdByService": false}, rev["git"])
	var revGit struct {
		Node struct {
			Git struct{ Oid, Message, Ref string }
		}
	}
	e.GraphQL(e.OwnerToken, `query($rev: ID!) { node(id: $rev) { ... on Revision { git { oid message ref } } } }`,
		map[string]any{"rev": op.Revision.ID}).Into(t, &revGit)
	assert.Equal(t, g.srv.Head(g.name), revGit.Node.Git.Oid)
	assert.Equal(t, "Twice", revGit.Node.Git.Message)
	assert.Nil(t, e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/revisions/"+ops[0].Revision.ID, e.OwnerToken, nil, http.StatusOK)["git"],
		"a revision made in Bindery has none")
	assert.Equal(t, "Twice\n", g.srv.Run(g.srv.Dir(g.name), "log", "-1", "--format=%s", "main"),
		"the import is not pushed back")

	// A commit no event announced: found at the next poll.
	g.srv.Commit(g.name, map[string]string{"reference/api.md": "# API\n\nPolled.\n"}, "Polled", "Bob <bob@example.com>", when)
	e.Server.Resolver().GitSync().ReadBranches(t.Context())
	assert.Len(t, runGit(t, e, space).Space.GitSyncOperations.Nodes, 3, "not due yet")
	e.Clock.Advance(2 * time.Minute)
	e.Server.Resolver().GitSync().ReadBranches(t.Context())
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, 1, op.CompletedTasks)
	assert.Contains(t, pageByPath(t, e, space, "reference/api")["markdown"], "Polled.")
	assert.Equal(t, after["updatedAt"], pageByPath(t, e, space, "guide/install")["updatedAt"], "the other pages are as they were")

	// Disconnected: an edit stays in Bindery, and push events are refused.
	var d struct{ DisconnectGitSync struct{ Connected bool } }
	e.GraphQL(e.OwnerToken, `mutation($id: ID!) { disconnectGitSync(spaceId: $id) { connected } }`, map[string]any{"id": space}).Into(t, &d)
	assert.False(t, d.DisconnectGitSync.Connected)
	head := g.srv.Head(g.name)
	setMarkdown(t, e, space, install["id"].(string), "Offline edit.\n")
	assert.Len(t, runGit(t, e, space).Space.GitSyncOperations.Nodes, 4, "no operation queued")
	assert.Equal(t, head, g.srv.Head(g.name))
	assert.Equal(t, http.StatusNotFound, pushEvent(e, c, c.ConnectGitSync.PushEventSecret).StatusCode)
}

// When both sides changed, the branch's side becomes a change request that
// is merged at once when the merge is clean, and pushed; on conflicts it
// stays open, sync waits, and merging it pushes the settled content.
// Nothing of either side is lost.
func TestGitSyncConflictsBecomeChangeRequests(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g, space := liveRepoSpace(t, e, "Both sides")
	connect(t, e, g, space, "IMPORT")
	install := pageByPath(t, e, space, "guide/install")["id"].(string)
	api := pageByPath(t, e, space, "reference/api")["id"].(string)

	// Different pages on each side: merged and pushed with nobody asked.
	setMarkdown(t, e, space, install, "Edited in Bindery.\n")
	g.srv.Commit(g.name, map[string]string{"reference/api.md": "# API\n\nEdited in Git.\n"}, "Git side", "Bob <bob@example.com>", when)
	v := runGit(t, e, space)
	require.Equal(t, "SUCCESS", v.Space.GitSyncOperations.Nodes[0].State, "%v", v.Space.GitSyncOperations.Nodes[0].Error)
	assert.Contains(t, pageByPath(t, e, space, "reference/api")["markdown"], "Edited in Git.")
	assert.Contains(t, pageByPath(t, e, space, "guide/install")["markdown"], "Edited in Bindery.")
	assert.Contains(t, g.show(t, "guide/install.md"), "Edited in Bindery.")
	assert.Contains(t, g.show(t, "reference/api.md"), "Edited in Git.")
	crs := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/change-requests?status=merged", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	require.Len(t, crs, 1, "the branch's side went through a change request")
	assert.Equal(t, "Import from Git: Git side", crs[0].(map[string]any)["subject"])

	// The same page on both sides, and a page deleted in Git that Bindery
	// edited: a change request holds the branch's side, and sync waits.
	setMarkdown(t, e, space, install, "Bindery's version.\n")
	setMarkdown(t, e, space, api, "Bindery keeps the API.\n")
	g.srv.Commit(g.name, map[string]string{"guide/install.md": "# Install\n\nGit's version.\n"}, "Git's version", "Bob <bob@example.com>", when)
	summary := strings.Replace(gitbookRepository["SUMMARY.md"], "\n## Reference\n\n* [API](reference/api.md)\n", "", 1)
	head := g.srv.Commit(g.name, map[string]string{"SUMMARY.md": summary, "reference/api.md": gitsynctest.Deleted}, "Drop the API page", "Bob <bob@example.com>", when)
	runGit(t, e, space)
	var state struct {
		Space struct {
			GitSync struct {
				Connected     bool
				ChangeRequest *struct {
					ID, Status string
					Number     int
				}
			}
		}
	}
	e.GraphQL(e.OwnerToken, `query($id: ID!) { space(id: $id) { gitSync { connected changeRequest { id number status } } } }`,
		map[string]any{"id": space}).Into(t, &state)
	cr := state.Space.GitSync.ChangeRequest
	require.NotNil(t, cr, "a change request holds the branch's side")
	assert.Equal(t, "OPEN", cr.Status)
	assert.Equal(t, head, g.srv.Head(g.name), "nothing pushed while it waits")
	assert.Contains(t, pageByPath(t, e, space, "guide/install")["markdown"], "Bindery's version.", "the space keeps its side")
	crPage := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/change-requests/"+cr.ID+"/content/path/guide/install?format=markdown",
		e.OwnerToken, nil, http.StatusOK)
	assert.Contains(t, crPage["markdown"], "Git's version.", "the change request holds the branch's side")

	// While it waits, edits queue nothing, and an operation queued before
	// the wait began pushes nothing.
	n := len(runGit(t, e, space).Space.GitSyncOperations.Nodes)
	setMarkdown(t, e, space, install, "Bindery's version, again.\n")
	assert.Len(t, runGit(t, e, space).Space.GitSyncOperations.Nodes, n)
	require.NoError(t, e.Client.GitSyncOperation.Create().SetSpaceID(space).SetCreatedByID(e.Owner.ID).SetAutomatic(true).
		SetDirection("export").SetURL(g.url).SetRef("refs/heads/main").SetCommitMessage("Late").Exec(t.Context()))
	late := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", late.State)
	assert.Contains(t, *late.Error, "waits for the change request")
	assert.Equal(t, head, g.srv.Head(g.name), "nothing pushed over the branch's changes")

	// Settled in the change request: Git's version of the page, Bindery's
	// API page kept. Merging it pushes the result.
	var merged struct {
		MergeChangeRequest struct {
			Result    string
			Conflicts []struct{ Key, Field string }
		}
	}
	const mergeMutation = `mutation($in: MergeChangeRequestInput!) { mergeChangeRequest(input: $in) { result conflicts { key field } } }`
	e.GraphQL(e.OwnerToken, mergeMutation, map[string]any{"in": map[string]any{"id": cr.ID}}).Into(t, &merged)
	require.Equal(t, "CONFLICTS", merged.MergeChangeRequest.Result)
	var resolutions []map[string]any
	for _, c := range merged.MergeChangeRequest.Conflicts {
		take := "OURS" // the change request's: Git's
		if c.Field != "markdown" {
			take = "THEIRS" // the space's: the API page stays
		}
		resolutions = append(resolutions, map[string]any{"key": c.Key, "take": take})
	}
	e.GraphQL(e.OwnerToken, mergeMutation, map[string]any{"in": map[string]any{"id": cr.ID, "resolutions": resolutions}}).Into(t, &merged)
	require.Equal(t, "MERGE", merged.MergeChangeRequest.Result)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Contains(t, g.show(t, "guide/install.md"), "Git's version.")
	assert.Contains(t, g.show(t, "reference/api.md"), "Bindery keeps the API.")
	assert.Contains(t, pageByPath(t, e, space, "guide/install")["markdown"], "Git's version.")
	e.GraphQL(e.OwnerToken, `query($id: ID!) { space(id: $id) { gitSync { connected changeRequest { id number status } } } }`,
		map[string]any{"id": space}).Into(t, &state)
	assert.Nil(t, state.Space.GitSync.ChangeRequest, "sync goes on")
}

// liveRepoSpace makes a repository holding gitbookRepository and a space
// of e, named title, whose main content is edited live.
func liveRepoSpace(t *testing.T, e *servertest.Env, title string) (*gitRepo, string) {
	t.Helper()
	g := newGitRepo(t, "docs.git")
	g.srv.Commit(g.name, gitbookRepository, "First", "Ann <ann@example.com>", when)
	space := createSpace(t, e, title)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	return g, space
}

// A page whose file moves in Git keeps its ID: a move in the repository is
// a move in the space, and a page moved to different places on each side
// is a MOVE conflict in the change request that holds the branch's side.
func TestGitSyncMovesFollowPages(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g, space := liveRepoSpace(t, e, "Moves")
	c := connect(t, e, g, space, "IMPORT")
	install := pageByPath(t, e, space, "guide/install")["id"].(string)
	api := pageByPath(t, e, space, "reference/api")["id"].(string)

	// Moved in Git only: the page moves, with its ID.
	g.srv.Commit(g.name, map[string]string{
		"SUMMARY.md":       "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n  * [API](guide/api.md)\n",
		"reference/api.md": gitsynctest.Deleted, "guide/api.md": gitbookRepository["reference/api.md"],
	}, "Move the API page", "Bob <bob@example.com>", when)
	require.Equal(t, http.StatusNoContent, pushEvent(e, c, c.ConnectGitSync.PushEventSecret).StatusCode)
	e.Server.Resolver().GitSync().ReadBranches(t.Context())
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, api, pageByPath(t, e, space, "guide/api")["id"], "the moved page keeps its ID")

	// Moved on both sides, to different places: the change request holding
	// the branch's side has a MOVE conflict, and the space keeps its side.
	e.GraphQL(e.OwnerToken, `mutation($in: MovePageInput!) { movePage(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "pageId": install, "parentPageId": api}}).Into(t, &struct{}{})
	g.srv.Commit(g.name, map[string]string{
		"SUMMARY.md":       "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Guide](guide/README.md)\n  * [API](guide/api.md)\n",
		"guide/install.md": gitsynctest.Deleted, "install.md": gitbookRepository["guide/install.md"],
	}, "Install first", "Bob <bob@example.com>", when)
	runGit(t, e, space)
	var state struct {
		Space struct {
			GitSync struct{ ChangeRequest *struct{ ID string } }
		}
	}
	e.GraphQL(e.OwnerToken, `query($id: ID!) { space(id: $id) { gitSync { changeRequest { id } } } }`,
		map[string]any{"id": space}).Into(t, &state)
	require.NotNil(t, state.Space.GitSync.ChangeRequest, "a change request holds the branch's side")
	assert.Equal(t, install, pageByPath(t, e, space, "guide/api/install")["id"], "the space keeps its side")
	var merged struct {
		MergeChangeRequest struct {
			Result    string
			Conflicts []struct{ Key, Kind, PageID string }
		}
	}
	const mergeMutation = `mutation($in: MergeChangeRequestInput!) { mergeChangeRequest(input: $in) { result conflicts { key kind pageId } } }`
	cr := state.Space.GitSync.ChangeRequest.ID
	e.GraphQL(e.OwnerToken, mergeMutation, map[string]any{"in": map[string]any{"id": cr}}).Into(t, &merged)
	require.Equal(t, "CONFLICTS", merged.MergeChangeRequest.Result)
	require.Len(t, merged.MergeChangeRequest.Conflicts, 1)
	conflict := merged.MergeChangeRequest.Conflicts[0]
	assert.Equal(t, "MOVE", conflict.Kind)
	assert.Equal(t, install, conflict.PageID)

	// Settled as Git has it: the page goes to the top, and the branch keeps
	// its file there.
	e.GraphQL(e.OwnerToken, mergeMutation, map[string]any{"in": map[string]any{"id": cr,
		"resolutions": []map[string]any{{"key": conflict.Key, "take": "OURS"}}}}).Into(t, &merged)
	require.Equal(t, "MERGE", merged.MergeChangeRequest.Result)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, install, pageByPath(t, e, space, "install")["id"])
	assert.Contains(t, g.show(t, "install.md"), "Run the installer.")
}

// Refused credentials stop a connection with a clear state: the operation
// says why, and the space is disconnected.
func TestGitSyncConnectionStopsOnRefusedCredentials(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g := newGitRepo(t, "docs.git")
	g.srv.Commit(g.name, gitbookRepository, "First", "Ann <ann@example.com>", when)
	space := createSpace(t, e, "Refused")
	var c connection
	e.GraphQL(e.OwnerToken, connectMutation, map[string]any{"in": map[string]any{"spaceId": space,
		"url": strings.Replace(g.url, "http://", "http://writer:wrong@", 1), "ref": "main", "initialSync": "IMPORT"}}).Into(t, &c)
	v := runGit(t, e, space)
	op := v.Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	assert.Contains(t, *op.Error, "refused the credentials")
	assert.Contains(t, *op.Error, "disconnected")
	var state struct {
		Space struct{ GitSync struct{ Connected bool } }
	}
	e.GraphQL(e.OwnerToken, `query($id: ID!) { space(id: $id) { gitSync { connected } } }`, map[string]any{"id": space}).Into(t, &state)
	assert.False(t, state.Space.GitSync.Connected)
	var sealed *string
	require.NoError(t, e.DB.SQL.QueryRowContext(t.Context(), "SELECT credentials FROM git_syncs").Scan(&sealed))
	assert.Nil(t, sealed, "the credentials are dropped")
}
