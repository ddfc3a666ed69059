package graph_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/bindery/bindery/internal/gitsync/gitsynctest"
	"github.com/bindery/bindery/server/servertest"
)

// connectSSH connects a space over SSH, with the known hosts given, and
// returns the answer.
func connectSSH(e *servertest.Env, space, url, knownHosts string) *servertest.GQLResponse {
	in := map[string]any{"spaceId": space, "url": url, "ref": "main", "initialSync": "IMPORT"}
	if knownHosts != "" {
		in["sshKnownHosts"] = knownHosts
	}
	return e.GraphQL(e.OwnerToken, connectMutation, map[string]any{"in": in})
}

// sshRepoSpace makes a server, a repository holding gitbookRepository
// served over SSH to the deploy key of a live space of that server, named
// title, and the space.
func sshRepoSpace(t *testing.T, title string) (*servertest.Env, *gitRepo, string, *gitsynctest.SSHServer) {
	t.Helper()
	e := servertest.New(t, allowPrivate)
	g, space := liveRepoSpace(t, e, title)
	return e, g, space, g.srv.ServeSSH(createDeployKey(t, e, space).PublicKey)
}

type sshState struct {
	Space struct {
		GitSync struct {
			Connected     bool
			RepoName      string
			SSHKnownHosts *string
		}
	}
}

func readSSHState(t *testing.T, e *servertest.Env, space string) sshState {
	t.Helper()
	var s sshState
	e.GraphQL(e.OwnerToken, `query($id: ID!) { space(id: $id) { gitSync { connected repoName sshKnownHosts } } }`,
		map[string]any{"id": space}).Into(t, &s)
	return s
}

// A space connected over SSH, with its deploy key and the host's key
// pinned, follows its branch both ways as over HTTP: the branch's content
// comes in, an edit becomes a commit that the git command reads back, and
// a commit pushed to the branch becomes a revision.
func TestGitSyncConnectedOverSSH(t *testing.T) {
	t.Parallel()
	e, g, space, x := sshRepoSpace(t, "Over SSH")

	var c connection
	connectSSH(e, space, x.URL(g.name), x.KnownHosts).Into(t, &c)
	assert.True(t, c.ConnectGitSync.GitSync.Connected)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	assert.Equal(t, []string{"Welcome", "Guide", "  Install", "Reference", "  API"}, pageTitles(t, e, space))
	st := readSSHState(t, e, space)
	assert.Equal(t, "docs", st.Space.GitSync.RepoName)
	require.NotNil(t, st.Space.GitSync.SSHKnownHosts)
	assert.Equal(t, x.KnownHosts, *st.Space.GitSync.SSHKnownHosts)
	var sealed *string
	require.NoError(t, e.DB.SQL.QueryRowContext(t.Context(), "SELECT credentials FROM git_syncs").Scan(&sealed))
	assert.Nil(t, sealed, "no credentials: the key is the space's")

	// An edit in Bindery: a commit by its author, read with git.
	install := pageByPath(t, e, space, "guide/install")["id"].(string)
	setMarkdown(t, e, space, install, "Run the installer over SSH.\n")
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "EXPORT", op.Direction)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	assert.Contains(t, g.show(t, "guide/install.md"), "Run the installer over SSH.")
	assert.Equal(t, e.Owner.DisplayName+"\n", g.srv.Run(g.srv.Dir(g.name), "log", "-1", "--format=%an", "main"))

	// A commit pushed to the branch: found at the next read of its head,
	// over SSH, and imported.
	head := g.srv.Commit(g.name, map[string]string{"reference/api.md": "# API\n\nPushed, then pulled over SSH.\n"},
		"Pushed", "Bob <bob@example.com>", when)
	e.Clock.Advance(2 * time.Minute)
	e.Server.Resolver().GitSync().ReadBranches(t.Context())
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "IMPORT", op.Direction)
	assert.Equal(t, head, *op.Commit)
	assert.Contains(t, pageByPath(t, e, space, "reference/api")["markdown"], "Pushed, then pulled over SSH.")

	// A one-shot export through /v1, whose body has no member for known
	// hosts, trusts the host keys the space's connection pins.
	before := len(runGit(t, e, space).Space.GitSyncOperations.Nodes)
	e.MustDo(http.MethodPost, "/v1/spaces/"+space+"/git/export", e.OwnerToken,
		map[string]any{"url": x.URL(g.name), "ref": "main", "commitMessage": "Through /v1", "force": true}, http.StatusNoContent)
	ops := runGit(t, e, space).Space.GitSyncOperations.Nodes
	require.Greater(t, len(ops), before)
	for _, op := range ops[:len(ops)-before] {
		require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	}
	assert.Equal(t, "EXPORT", ops[len(ops)-before-1].Direction)
	assert.Equal(t, g.srv.Head(g.name), *ops[0].Commit)

	// A new key replaces the one the repository lets in: the next sync is
	// refused, and the space is disconnected until it is connected again
	// with the new key added to the repository.
	createDeployKey(t, e, space)
	g.srv.Commit(g.name, map[string]string{"reference/api.md": "# API\n\nAfter the rotation.\n"}, "Later", "Bob <bob@example.com>", when)
	e.Clock.Advance(2 * time.Minute)
	e.Server.Resolver().GitSync().ReadBranches(t.Context())
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	assert.Contains(t, *op.Error, "refused the credentials")
	assert.Contains(t, *op.Error, "disconnected")
	st = readSSHState(t, e, space)
	assert.False(t, st.Space.GitSync.Connected)
	assert.Nil(t, st.Space.GitSync.SSHKnownHosts, "dropped with the connection")
}

// A host that shows another key than the one pinned for it stops the
// connection as refused credentials do: the operation says what the host
// showed, the space is disconnected, and nothing is read or pushed.
func TestGitSyncOverSSHStopsOnAnotherHostKey(t *testing.T) {
	t.Parallel()
	e, g, space, x := sshRepoSpace(t, "Impostor")
	_, other := gitsynctest.NewSSHKey(t)
	host := strings.Fields(x.KnownHosts)[0] // [127.0.0.1]:port
	connectSSH(e, space, x.URL(g.name), host+" "+other).Into(t, &connection{})

	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	require.NotNil(t, op.Error)
	assert.Contains(t, *op.Error, "showed a host key that is not one trusted for it")
	assert.Contains(t, *op.Error, ssh.FingerprintSHA256(x.HostKey), "what the host showed")
	assert.Contains(t, *op.Error, "disconnected")
	assert.False(t, readSSHState(t, e, space).Space.GitSync.Connected)
	e.MustDo(http.MethodGet, "/v1/spaces/"+space+"/content/path/guide/install", e.OwnerToken, nil, http.StatusNotFound)
}

// What connecting over SSH needs is asked for before anything is
// recorded: the space's deploy key (412), known hosts for a host whose
// keys are not built in (400), an SSH URL without a password (400); known
// hosts go with an SSH URL only. One-shot imports and exports ask for the
// same, through GraphQL and /v1.
func TestGitSyncConnectOverSSHRefusals(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, allowPrivate)
	space := createSpace(t, e, "Refusals over SSH")
	_, authorized := gitsynctest.NewSSHKey(t)
	const url = "ssh://git@git.example.com:2222/acme/docs.git"
	known := "[git.example.com]:2222 " + authorized

	res := connectSSH(e, space, url, known)
	assert.Equal(t, "PRECONDITION_FAILED", res.Code())
	require.NotEmpty(t, res.Errors)
	assert.Contains(t, res.Errors[0].Message, "createGitDeployKey")
	assert.Contains(t, res.Errors[0].Message, "deploy key with write access")
	for path, body := range map[string]map[string]any{
		"/git/import": {"url": "ssh://git@github.com/acme/docs.git", "ref": "main"},
		"/git/export": {"url": "git@github.com:acme/docs.git", "ref": "main", "commitMessage": "Docs"},
	} {
		got := e.Do(http.MethodPost, "/v1/spaces/"+space+path, e.OwnerToken, body)
		assert.Equal(t, http.StatusPreconditionFailed, got.Status, path)
		assert.Contains(t, string(got.Body), "over SSH needs the space's deploy key", path)
	}

	createDeployKey(t, e, space)
	for name, c := range map[string]struct{ url, knownHosts, field, message string }{
		"no known hosts":         {url, "", "sshKnownHosts", "no host key is built in for [git.example.com]:2222"},
		"known hosts of another": {url, "[git.example.com]:22 " + authorized, "sshKnownHosts", "the known hosts have no key for [git.example.com]:2222"},
		"unreadable known hosts": {url, "[git.example.com]:2222 ssh-ed25519 not-base64!", "sshKnownHosts", "line 1 of the known hosts cannot be read"},
		"a password":             {"ssh://git:hunter2@git.example.com:2222/acme/docs.git", known, "url", "holds no password"},
		"known hosts over https": {"https://git.example.com/acme/docs.git", known, "sshKnownHosts", "for an SSH URL"},
	} {
		for _, res := range []*servertest.GQLResponse{
			connectSSH(e, space, c.url, c.knownHosts),
			gitOneShot(e, "importGitRepository", oneShotInput(space, c.url, c.knownHosts)),
			gitOneShot(e, "exportToGitRepository", oneShotInput(space, c.url, c.knownHosts, "commitMessage", "Docs")),
		} {
			require.NotEmpty(t, res.Errors, name)
			assert.Equal(t, "BAD_USER_INPUT", res.Code(), name)
			assert.Equal(t, c.field, res.Errors[0].Extensions["field"], name)
			assert.Contains(t, res.Errors[0].Message, c.message, name)
			assert.NotContains(t, res.Errors[0].Message, "hunter2", name)
		}
	}
	var n int
	require.NoError(t, e.DB.SQL.QueryRowContext(t.Context(), "SELECT count(*) FROM git_sync_operations").Scan(&n))
	assert.Zero(t, n, "nothing recorded for a refused request")

	// github.com's published keys are built in: no known hosts needed.
	var c connection
	connectSSH(e, space, "git@github.com:acme/docs.git", "").Into(t, &c)
	assert.True(t, c.ConnectGitSync.GitSync.Connected)
	st := readSSHState(t, e, space)
	assert.Equal(t, "acme/docs", st.Space.GitSync.RepoName)
	assert.Nil(t, st.Space.GitSync.SSHKnownHosts, "the built-in keys")
}

// oneShotInput is an import's or an export's input over url, with the
// known hosts given, if any, and more members as name, value pairs.
func oneShotInput(space, url, knownHosts string, more ...string) map[string]any {
	in := map[string]any{"spaceId": space, "url": url, "ref": "main"}
	if knownHosts != "" {
		in["sshKnownHosts"] = knownHosts
	}
	for i := 0; i+1 < len(more); i += 2 {
		in[more[i]] = more[i+1]
	}
	return in
}

// gitOneShot runs importGitRepository or exportToGitRepository.
func gitOneShot(e *servertest.Env, mutation string, in map[string]any) *servertest.GQLResponse {
	input := "ImportGitRepositoryInput"
	if mutation == "exportToGitRepository" {
		input = "ExportToGitRepositoryInput"
	}
	return e.GraphQL(e.OwnerToken, "mutation($in: "+input+"!) { "+mutation+"(input: $in) { id state } }", map[string]any{"in": in})
}

// One-shot imports and exports reach a repository over SSH as a connected
// space does: they sign in with the space's deploy key and trust the host
// keys they were given. The space is not connected, so a refused key fails
// the operation and disconnects nothing.
func TestGitImportAndExportOverSSH(t *testing.T) {
	t.Parallel()
	e, g, space, x := sshRepoSpace(t, "One-shot over SSH")

	require.Empty(t, gitOneShot(e, "importGitRepository", oneShotInput(space, x.URL(g.name), x.KnownHosts)).Errors)
	op := runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "IMPORT", op.Direction)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	assert.Equal(t, []string{"Welcome", "Guide", "  Install", "Reference", "  API"}, pageTitles(t, e, space))
	st := readSSHState(t, e, space)
	assert.False(t, st.Space.GitSync.Connected)
	assert.Equal(t, "docs", st.Space.GitSync.RepoName)

	install := pageByPath(t, e, space, "guide/install")["id"].(string)
	setMarkdown(t, e, space, install, "Run the installer, exported over SSH.\n")
	require.Empty(t, gitOneShot(e, "exportToGitRepository",
		oneShotInput(space, x.URL(g.name), x.KnownHosts, "commitMessage", "Over SSH")).Errors)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	require.Equal(t, "SUCCESS", op.State, "%v", op.Error)
	assert.Equal(t, "EXPORT", op.Direction)
	assert.Equal(t, g.srv.Head(g.name), *op.Commit)
	assert.Contains(t, g.show(t, "guide/install.md"), "Run the installer, exported over SSH.")
	assert.Equal(t, "Over SSH|"+e.Owner.DisplayName+"\n", g.srv.Run(g.srv.Dir(g.name), "log", "-1", "--format=%s|%an", "main"))
	var kept *string
	require.NoError(t, e.DB.SQL.QueryRowContext(t.Context(),
		"SELECT ssh_known_hosts FROM git_sync_operations WHERE direction = 'export'").Scan(&kept))
	require.NotNil(t, kept)
	assert.Equal(t, x.KnownHosts, *kept, "the host keys the request gave, kept for the run")

	// Another key than the one the repository lets in: refused, and the
	// operation says so; there is no connection to end.
	createDeployKey(t, e, space)
	require.Empty(t, gitOneShot(e, "importGitRepository", oneShotInput(space, x.URL(g.name), x.KnownHosts)).Errors)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	require.NotNil(t, op.Error)
	assert.Contains(t, *op.Error, "refused the credentials")
	assert.NotContains(t, *op.Error, "disconnected")

	// The key is the space's as it is when the operation runs: gone since
	// the request, the run fails and says what to do.
	require.Empty(t, gitOneShot(e, "importGitRepository", oneShotInput(space, x.URL(g.name), x.KnownHosts)).Errors)
	_, err := e.DB.SQL.ExecContext(t.Context(), "DELETE FROM git_deploy_keys")
	require.NoError(t, err)
	op = runGit(t, e, space).Space.GitSyncOperations.Nodes[0]
	assert.Equal(t, "FAILURE", op.State)
	require.NotNil(t, op.Error)
	assert.Contains(t, *op.Error, "no deploy key")
	assert.Contains(t, *op.Error, "try again")
}
