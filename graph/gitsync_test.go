package graph_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
	"github.com/bindery/bindery/server/servertest"
)

// gitRepo is a bare repository of a test Git server, with what a client
// sends to name it.
type gitRepo struct {
	srv  *gitsynctest.Server
	name string
	url  string // without credentials
}

func newGitRepo(t testing.TB, name string) *gitRepo {
	srv := gitsynctest.NewServer(t)
	return &gitRepo{srv: srv, name: name, url: srv.Bare(name)}
}

// withCredentials is the repository's URL with the right credentials in
// it, as the official API takes them.
func (g *gitRepo) withCredentials() string {
	return strings.Replace(g.url, "http://", "http://"+gitsynctest.User+":"+g.srv.Password+"@", 1)
}

// show is a file of the branch's head, read with the git command.
func (g *gitRepo) show(t *testing.T, path string) string {
	return g.srv.Run(g.srv.Dir(g.name), "show", "main:"+path)
}

var when = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

// gitbookRepository is a small repository in GitBook's layout.
var gitbookRepository = map[string]string{
	"README.md": "---\ndescription: Start here\n---\n\n# Welcome\n\nHello from Git.\n\n![Logo](.gitbook/assets/logo.png)\n",
	"SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n\n" +
		"## Reference\n\n* [API](reference/api.md)\n",
	"guide/README.md":          "# Guide\n\nHow to use it.\n",
	"guide/install.md":         "# Install\n\nRun the installer.\n",
	"reference/api.md":         "# API\n\nThe endpoints.\n",
	".gitbook/assets/logo.png": "\x89PNG\r\n\x1a\nnot really",
	"src/main.go":              "package main\n",
}

type gitOperation struct {
	ID, Direction, State, Stage string
	Error                       *string
	Commit                      *string
	DispatchedTasks             int
	CompletedTasks              int
	Revision                    *struct{ ID string }
	CreatedBy                   *struct{ ID string }
}

const gitOperationsQuery = `query($id: ID!) { space(id: $id) {
  gitSync { repoName url installationProvider commit revision { id } }
  gitSyncOperations(first: 10) { nodes { id direction state stage error commit dispatchedTasks completedTasks revision { id } createdBy { id } } } } }`

type gitSpaceView struct {
	Space struct {
		GitSync *struct {
			RepoName, URL        string
			InstallationProvider *string
			Commit               *string
			Revision             *struct{ ID string }
		}
		GitSyncOperations struct{ Nodes []gitOperation }
	}
}

// runGit runs the operations due, and returns the space's Git view.
func runGit(t testing.TB, e *servertest.Env, space string) gitSpaceView {
	t.Helper()
	_, err := e.Server.Resolver().GitSync().Drain(t.Context())
	require.NoError(t, err)
	var v gitSpaceView
	e.GraphQL(e.OwnerToken, gitOperationsQuery, map[string]any{"id": space}).Into(t, &v)
	return v
}

func pageTitles(t *testing.T, e *servertest.Env, space string) []string {
	t.Helper()
	body := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/content", e.OwnerToken, nil, http.StatusOK)
	var titles []string
	var walk func(pages []any, depth int)
	walk = func(pages []any, depth int) {
		for _, p := range pages {
			m := p.(map[string]any)
			titles = append(titles, strings.Repeat("  ", depth)+m["title"].(string))
			if kids, ok := m["pages"].([]any); ok {
				walk(kids, depth+1)
			}
		}
	}
	walk(body["pages"].([]any), 0)
	return titles
}

func pageByPath(t testing.TB, e *servertest.Env, space, path string) map[string]any {
	t.Helper()
	return e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/content/path/"+path+"?format=markdown", e.OwnerToken, nil, http.StatusOK)
}

// importedSpace is a live space that imported the first commit of a
// repository of its own, holding gitbookRepository; body is the import's
// request, with the repository's URL and branch set in it.
func importedSpace(t *testing.T, title string, body map[string]any) (*servertest.Env, *gitRepo, string) {
	t.Helper()
	e := servertest.New(t, allowPrivate)
	g := newGitRepo(t, "docs.git")
	g.srv.Commit(g.name, gitbookRepository, "First", "Ann <ann@example.com>", when)
	space := createSpace(t, e, title)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	body["url"], body["ref"] = g.withCredentials(), "main"
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, body, http.StatusNoContent)
	require.Equal(t, "SUCCESS", runGit(t, e, space).Space.GitSyncOperations.Nodes[0].State)
	return e, g, space
}

// A user's round trip, through the official operations: import a
// GitBook-layout repository, edit in Bindery and export, commit in Git
// and import again; pages keep their IDs throughout.
func TestGitImportEditExportImport(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g := newGitRepo(t, "docs.git")
	g.srv.Commit(g.name, gitbookRepository, "Docs from the repository", "Ann <ann@example.com>", when)
	space := createSpace(t, e, "Synced")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)

	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, map[string]any{
		"url": g.withCredentials(), "ref": "refs/heads/main", "gitInfo": map[string]any{"provider": "github", "url": "https://github.com/acme/docs"},
	}, http.StatusNoContent)
	v := runGit(t, e, space)
	require.Len(t, v.Space.GitSyncOperations.Nodes, 1)
	op := v.Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "IMPORT", op.Direction)
	assert.Equal(t, "FINALIZE", op.Stage)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	assert.Equal(t, e.Owner.ID, op.CreatedBy.ID)
	assert.Equal(t, []string{"Welcome", "Guide", "  Install", "Reference", "  API"}, pageTitles(t, e, space))
	welcome := pageByPath(t, e, space, "welcome")
	assert.Contains(t, welcome["markdown"], "Hello from Git.")
	assert.Equal(t, "Start here", welcome["description"])
	files := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/content/files", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	require.Len(t, files, 1)
	assert.Equal(t, "logo.png", files[0].(map[string]any)["name"])

	info := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/git/info", e.OwnerToken, nil, http.StatusOK)
	assert.Equal(t, map[string]any{"repoName": "docs", "installationProvider": "github", "url": "https://github.com/acme/docs",
		"updatedAt": info["updatedAt"]}, info)
	require.NotNil(t, v.Space.GitSync.Revision)
	assert.Equal(t, op.Revision.ID, v.Space.GitSync.Revision.ID)

	// An edit in Bindery, exported: one commit by the editor, on top.
	install := pageByPath(t, e, space, "guide/install")
	var edited struct {
		SetPageMarkdown struct{ Revision struct{ ID string } }
	}
	e.GraphQL(e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "pageId": install["id"], "markdown": "Run the installer, then sign in.\n"}}).Into(t, &edited)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/export", e.OwnerToken, map[string]any{
		"url": g.withCredentials(), "ref": "refs/heads/main", "commitMessage": "Explain signing in",
	}, http.StatusNoContent)
	v = runGit(t, e, space)
	op = v.Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "EXPORT", op.Direction)
	assert.Equal(t, edited.SetPageMarkdown.Revision.ID, op.Revision.ID)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	log := g.srv.Run(g.srv.Dir(g.name), "log", "--format=%s|%an|%ae", "main")
	assert.Equal(t, "Explain signing in|"+e.Owner.DisplayName+"|owner@example.com\nDocs from the repository|Ann|ann@example.com\n", log)
	assert.Contains(t, g.show(t, "guide/install.md"), "Run the installer, then sign in.")
	assert.Equal(t, "package main\n", g.show(t, "src/main.go"), "what is not the space's stays")

	// A commit in Git, imported: the page changes and keeps its ID.
	g.srv.Commit(g.name, map[string]string{"guide/install.md": "# Install\n\nRun the installer twice.\n"}, "Twice", "Bob <bob@example.com>", when)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, map[string]any{
		"url": g.withCredentials(), "ref": "main"}, http.StatusNoContent)
	v = runGit(t, e, space)
	op = v.Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	after := pageByPath(t, e, space, "guide/install")
	assert.Equal(t, install["id"], after["id"])
	assert.Contains(t, after["markdown"], "Run the installer twice.")
	assert.Equal(t, "https://github.com/acme/docs", e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/git/info", e.OwnerToken, nil, http.StatusOK)["url"],
		"gitInfo is kept until another is given")

	// Importing the same commit again changes nothing: no new revision.
	revBefore := e.MustDo(http.MethodGet, "/v1/spaces/"+space, e.OwnerToken, nil, http.StatusOK)["revision"]
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, map[string]any{
		"url": g.withCredentials(), "ref": "main"}, http.StatusNoContent)
	v = runGit(t, e, space)
	require.Equal(t, "SUCCESS", v.Space.GitSyncOperations.Nodes[0].State)
	assert.Equal(t, revBefore, e.MustDo(http.MethodGet, "/v1/spaces/"+space, e.OwnerToken, nil, http.StatusOK)["revision"])
}

// Both sides changed since the last sync: an import or an export without
// force fails and says why, and nothing is written; with force it goes on.
func TestGitSyncRefusesToOverwriteWithoutForce(t *testing.T) {
	t.Parallel()
	body := map[string]any{}
	e, g, space := importedSpace(t, "Both sides", body)

	install := pageByPath(t, e, space, "guide/install")
	e.GraphQL(e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "pageId": install["id"], "markdown": "Edited in Bindery.\n"}})
	head := g.srv.Commit(g.name, map[string]string{"reference/api.md": "# API\n\nEdited in Git.\n"}, "Git side", "Bob <bob@example.com>", when)

	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, body, http.StatusNoContent)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	assert.Contains(t, *op.Error, "changed since it was last synced")
	assert.Contains(t, pageByPath(t, e, space, "guide/install")["markdown"], "Edited in Bindery.")

	export := map[string]any{"url": g.withCredentials(), "ref": "main", "commitMessage": "Mine"}
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/export", e.OwnerToken, export, http.StatusNoContent)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	assert.Contains(t, *op.Error, "commits the space has not imported")
	assert.Equal(t, head, g.srv.Head(g.name), "nothing pushed")

	export["force"] = true
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/export", e.OwnerToken, export, http.StatusNoContent)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, head+"\n", g.srv.Run(g.srv.Dir(g.name), "rev-parse", "main^"), "on top of the Git side's commit, not over it")
	assert.Contains(t, g.show(t, "guide/install.md"), "Edited in Bindery.")
}

// A standalone import makes a revision of the branch's content, readable
// by its ID, and leaves the space, its Git info and its synced pair as
// they were; it works on a locked space, which a plain import refuses.
func TestGitStandaloneImport(t *testing.T) {
	t.Parallel()
	body := map[string]any{"gitInfo": map[string]any{"provider": "github", "url": "https://github.com/acme/docs"}}
	e, g, space := importedSpace(t, "Previewed", body)
	before := runGit(t, e, space)
	install := pageByPath(t, e, space, "guide/install")
	revBefore := e.MustDo(http.MethodGet, "/v1/spaces/"+space, e.OwnerToken, nil, http.StatusOK)["revision"]

	head := g.srv.Commit(g.name, map[string]string{"guide/install.md": "# Install\n\nRun the new installer.\n"}, "New installer", "Bob <bob@example.com>", when)
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "locked"}, http.StatusOK)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, body, http.StatusPreconditionFailed)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, map[string]any{
		"url": g.withCredentials(), "ref": "main", "standalone": true,
		"gitInfo": map[string]any{"provider": "gitlab", "url": "https://gitlab.com/elsewhere/docs"}}, http.StatusNoContent)
	var v struct {
		Space struct {
			GitSync           struct{ URL, Commit string }
			GitSyncOperations struct {
				Nodes []struct {
					State, Commit string
					Error         *string
					Standalone    bool
					Revision      struct {
						ID      string
						Parents []struct{ ID string }
					}
				}
			}
		}
	}
	_, err := e.Server.Resolver().GitSync().Drain(t.Context())
	require.NoError(t, err)
	e.GraphQL(e.OwnerToken, `query($id: ID!) { space(id: $id) { gitSync { url commit }
	  gitSyncOperations(first: 1) { nodes { state commit error standalone revision { id parents { id } } } } } }`,
		map[string]any{"id": space}).Into(t, &v)
	op := v.Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.True(t, op.Standalone)
	assert.Equal(t, head, op.Commit)
	assert.Equal(t, revBefore, op.Revision.Parents[0].ID, "made from the space's revision")
	assert.Equal(t, revBefore, e.MustDo(http.MethodGet, "/v1/spaces/"+space, e.OwnerToken, nil, http.StatusOK)["revision"],
		"the space's content is as it was")
	assert.Contains(t, pageByPath(t, e, space, "guide/install")["markdown"], "Run the installer.")
	assert.Equal(t, "https://github.com/acme/docs", v.Space.GitSync.URL, "the space's Git info is as it was")
	assert.Equal(t, *before.Space.GitSync.Commit, v.Space.GitSync.Commit, "and so is the synced pair")

	// The revision, read by its ID: the branch's content, with the
	// space's page IDs.
	previewed := e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/revisions/"+op.Revision.ID+"/path/guide/install?format=markdown",
		e.OwnerToken, nil, http.StatusOK)
	assert.Contains(t, previewed["markdown"], "Run the new installer.")
	assert.Equal(t, install["id"], previewed["id"])

	// The pair untouched, a plain import goes on from it without force.
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/import", e.OwnerToken, body, http.StatusNoContent)
	require.Equal(t, "SUCCESS", runGit(t, e, space).Space.GitSyncOperations.Nodes[0].State)
	assert.Contains(t, pageByPath(t, e, space, "guide/install")["markdown"], "Run the new installer.")
}

// A branch pushed to between the export's reading of its head and its
// fetch: the export pushes nothing over what it did not read, and is
// tried again later, when it commits on top of the new head.
func TestGitExportOfABranchMovedBeforeItsFetch(t *testing.T) {
	t.Parallel()
	e, g, space := importedSpace(t, "Raced", map[string]any{})

	install := pageByPath(t, e, space, "guide/install")
	e.GraphQL(e.OwnerToken, `mutation($in: SetPageMarkdownInput!) { setPageMarkdown(input: $in) { revision { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "pageId": install["id"], "markdown": "Edited in Bindery.\n"}})
	// The Git side has a commit too, so that the export (with force) reads
	// and rewrites the whole branch.
	g.srv.Commit(g.name, map[string]string{"reference/api.md": "# API\n\nEdited in Git.\n"}, "Git side", "Bob <bob@example.com>", when)

	// The export reads the head, then fetches: the racing commit lands
	// between the two.
	var racing string
	pushes := g.srv.Pushes() + 1 // the racing commit's, through the server too
	g.srv.BeforeNextRefs(func() {
		g.srv.BeforeNextRefs(func() {
			racing = g.srv.Commit(g.name, map[string]string{"src/main.go": "package main // raced\n"}, "Racing", "Cy <cy@example.com>", when)
		})
	})
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/export", e.OwnerToken,
		map[string]any{"url": g.withCredentials(), "ref": "main", "commitMessage": "Mine", "force": true}, http.StatusNoContent)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.NotEmpty(t, racing, "the branch moved between the two readings")
	assert.Equal(t, "RUNNING", op.State, "%v", op.Error)
	assert.Equal(t, racing, g.srv.Head(g.name), "nothing pushed over the racing commit")
	assert.Equal(t, pushes, g.srv.Pushes(), "nor tried: the fetch saw that the branch had moved")

	e.Clock.Advance(time.Minute)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, racing+"\n", g.srv.Run(g.srv.Dir(g.name), "rev-parse", "main^"), "on top of the racing commit")
	assert.Equal(t, "package main // raced\n", g.show(t, "src/main.go"), "what is not the space's stays as the racing commit left it")
	assert.Contains(t, g.show(t, "guide/install.md"), "Edited in Bindery.")
	assert.Equal(t, pushes+1, g.srv.Pushes())
}

// What a client gets wrong is refused at once, in the /v1 envelope; what
// only the repository can tell ends the operation in FAILURE.
func TestGitSyncRequestsRefused(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g := newGitRepo(t, "docs.git")
	g.srv.Commit(g.name, gitbookRepository, "First", "Ann <ann@example.com>", when)
	space := createSpace(t, e, "Refusals")
	_, reader := e.Member(e.Org.ID, "read", "reader@example.com")
	readerToken := e.Token(reader)
	good := map[string]any{"url": g.withCredentials(), "ref": "main"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		m[k] = v
		return m
	}
	path := "/v1/spaces/" + space + "/git/import"
	e.Run(t, []servertest.Scenario{
		{Name: "SSH remote without a deploy key", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: with("url", "git@github.com:acme/docs.git"),
			WantStatus: http.StatusPreconditionFailed, WantJSON: map[string]any{"error": map[string]any{"message": "Importing or exporting over SSH needs the space's deploy key: create it (createGitDeployKey), add its public key to the repository as a deploy key with write access, then try again"}}},
		{Name: "SSH remote of a host whose keys are not built in", Method: http.MethodPost, Path: path, Token: e.OwnerToken,
			Body: with("url", "ssh://git@git.example.com/acme/docs.git"), WantStatus: http.StatusBadRequest,
			WantJSON: map[string]any{"error": map[string]any{"message": "sshKnownHosts: no SSH host key to trust: no host key is built in for git.example.com: give its known hosts, the lines `ssh-keyscan git.example.com` prints"}}},
		{Name: "local path", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: with("url", "file:///srv/docs.git"), WantStatus: http.StatusBadRequest},
		{Name: "bad ref", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: with("ref", "bad..ref"), WantStatus: http.StatusBadRequest},
		{Name: "escaping directory", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: with("repoProjectDirectory", "../etc"), WantStatus: http.StatusBadRequest},
		{Name: "no ref", Method: http.MethodPost, Path: path, Token: e.OwnerToken, Body: map[string]any{"url": g.url}, WantStatus: http.StatusBadRequest},
		{Name: "export without message", Method: http.MethodPost, Path: "/v1/spaces/" + space + "/git/export", Token: e.OwnerToken, Body: good, WantStatus: http.StatusBadRequest},
		{Name: "reader", Method: http.MethodPost, Path: path, Token: readerToken, Body: good, WantStatus: http.StatusForbidden},
		{Name: "unknown space", Method: http.MethodPost, Path: "/v1/spaces/spc_nothere/git/import", Token: e.OwnerToken, Body: good, WantStatus: http.StatusNotFound},
		{Name: "no Git info yet", Method: http.MethodGet, Path: "/v1/spaces/" + space + "/git/info", Token: e.OwnerToken, WantStatus: http.StatusNotFound},
	})
	var n int
	require.NoError(t, e.DB.SQL.QueryRowContext(t.Context(), "SELECT count(*) FROM git_sync_operations").Scan(&n))
	assert.Zero(t, n, "nothing recorded for a refused request")

	// Wrong credentials: the operation fails and says so, without them.
	e.MustDo(http.MethodPost, path, e.OwnerToken, with("url", strings.Replace(g.url, "http://", "http://writer:wrong-password@", 1)), http.StatusNoContent)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	assert.Equal(t, "The repository refused the credentials, or needs some", *op.Error)
	var sealed *string
	require.NoError(t, e.DB.SQL.QueryRowContext(t.Context(), "SELECT credentials FROM git_sync_operations").Scan(&sealed))
	assert.Nil(t, sealed, "credentials are dropped once the operation ends")

	// Ended operations are listed for 30 days.
	e.Clock.Advance(31 * 24 * time.Hour)
	e.MustDo(http.MethodPost, path, e.OwnerToken, good, http.StatusNoContent)
	n, err := e.Server.Resolver().GitSync().Prune(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the failed one; not the one still to run")
	require.Len(t, runGit(t, e, space).Space.GitSyncOperations.Nodes, 1)

	// A directory with nothing in it.
	e.MustDo(http.MethodPost, path, e.OwnerToken, with("repoProjectDirectory", "nothing/here"), http.StatusNoContent)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	assert.Contains(t, *op.Error, `no files under "nothing/here"`)
}

// An export into a directory of a repository that holds code keeps the
// code, and the git command reads back what the space holds.
func TestGitExportIntoProjectDirectory(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	g := newGitRepo(t, "code.git")
	g.srv.Commit(g.name, map[string]string{"src/main.go": "package main\n", "README.md": "# Code\n"}, "Code", "Ann <ann@example.com>", when)
	space := createSpace(t, e, "Docs of the code")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	for _, title := range []string{"Intro", "Usage"} {
		e.GraphQL(e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
			map[string]any{"in": map[string]any{"spaceId": space, "title": title, "markdown": title + " of the code."}}).Into(t, &struct{}{})
	}
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/export", e.OwnerToken, map[string]any{
		"url": g.withCredentials(), "ref": "main", "commitMessage": "Add the docs", "repoProjectDirectory": "/docs/"}, http.StatusNoContent)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "# Code\n", g.show(t, "README.md"))
	assert.Equal(t, "# Table of contents\n\n* [Intro](README.md)\n* [Usage](usage.md)\n", g.show(t, "docs/SUMMARY.md"))
	clone := g.srv.Clone(g.name)
	readme, err := os.ReadFile(filepath.Join(clone, "docs", "README.md"))
	require.NoError(t, err)
	assert.Equal(t, "# Intro\n\nIntro of the code.\n", string(readme))
}
