package graph

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/gitsync"
	"github.com/bindery/bindery/ent/gitsyncoperation"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	gitremote "github.com/bindery/bindery/internal/gitsync"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/secrets"
)

// Git sync: a space's import from, and export to, a branch of a Git
// repository, in GitBook's layout (package gitbook), over package gitsync's
// transport. A request records an operation and returns; the worker
// (gitsync_worker.go) runs it, one operation of a space at a time in the
// order they were asked for.

// gitRequest is what importGitRepository and exportToGitRepository share.
type gitRequest struct {
	direction enum.GitSyncOperationDirection
	spaceID   string
	url, ref  string
	dir       string
	treeURL   *string
	message   *string
	force     bool
	info      *model.GitInfoInput
	// connecting is connectGitSync's request, which may replace the
	// repository of a connected space.
	connecting bool
	// knownHosts are the host keys an SSH connection trusts, as given.
	knownHosts *string
	// standalone is an import that makes a revision without making it the
	// space's content; it leaves the space's Git info alone.
	standalone bool
}

func (r *Resolver) importGitRepository(ctx context.Context, in model.ImportGitRepositoryInput) (*ent.GitSyncOperation, error) {
	return r.startGitSync(ctx, gitRequest{direction: enum.GitSyncOperationDirectionImport, spaceID: in.SpaceID,
		url: in.URL, ref: in.Ref, dir: deref(in.RepoProjectDirectory), treeURL: in.RepoTreeURL,
		force: in.Force != nil && *in.Force, info: in.GitInfo, knownHosts: in.SSHKnownHosts,
		standalone: in.Standalone != nil && *in.Standalone})
}

func (r *Resolver) exportToGitRepository(ctx context.Context, in model.ExportToGitRepositoryInput) (*ent.GitSyncOperation, error) {
	msg := strings.TrimSpace(in.CommitMessage)
	if msg == "" {
		return nil, apperr.Invalid("commitMessage", "The commit message is empty")
	}
	return r.startGitSync(ctx, gitRequest{direction: enum.GitSyncOperationDirectionExport, spaceID: in.SpaceID,
		url: in.URL, ref: in.Ref, dir: deref(in.RepoProjectDirectory), treeURL: in.RepoTreeURL, message: &msg,
		force: in.Force != nil && *in.Force, info: in.GitInfo, knownHosts: in.SSHKnownHosts})
}

// checkGitRequest checks the repository of a request: the remote, with its
// credentials, and the project directory.
func checkGitRequest(q gitRequest) (gitremote.Remote, string, error) {
	if !gitremote.IsSSH(q.url) && strings.TrimSpace(deref(q.knownHosts)) != "" {
		return gitremote.Remote{}, "", apperr.Invalid("sshKnownHosts", "Known hosts are for an SSH URL; this one is not")
	}
	remote, err := gitremote.Normalize(gitremote.Remote{URL: q.url, Ref: q.ref, KnownHosts: deref(q.knownHosts)})
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "gitsync: ")
		switch {
		case strings.Contains(err.Error(), "branch name"):
			return remote, "", apperr.Invalid("ref", "%q is not a branch: give refs/heads/<name> or <name>", q.ref)
		case errors.Is(err, gitremote.ErrKnownHosts):
			return remote, "", apperr.Invalid("sshKnownHosts", "%s", msg)
		}
		return remote, "", apperr.Invalid("url", "%s", msg)
	}
	dir, err := projectDirectory(q.dir)
	if err != nil {
		return remote, "", err
	}
	if q.treeURL != nil && !webURL(*q.treeURL) {
		return remote, "", apperr.Invalid("repoTreeURL", "The tree URL must be an http(s) URL")
	}
	if q.info != nil && q.info.URL != nil && !webURL(*q.info.URL) {
		return remote, "", apperr.Invalid("gitInfo.url", "The tree URL must be an http(s) URL")
	}
	return remote, dir, nil
}

// startGitSync checks a request, records its operation and the space's Git
// info in one transaction, and wakes the worker.
func (r *Resolver) startGitSync(ctx context.Context, q gitRequest) (*ent.GitSyncOperation, error) {
	remote, dir, err := checkGitRequest(q)
	// An SSH host without keys given or built in may be one the space's
	// connection pins: that is looked at once the space is authorized.
	var unpinned error
	if err != nil && q.knownHosts == nil && apperr.From(err).Field == "sshKnownHosts" {
		unpinned, err = err, nil
	}
	if err != nil {
		return nil, err
	}
	opID := id.New(id.GitSyncOperation)
	var sealed *string
	if remote.Username != "" || remote.Password != "" {
		if r.secretBox == nil {
			return nil, apperr.Preconditionf("Credentials in a Git URL need a secret key (BINDERY_SECRET_KEY) to be kept until the operation runs")
		}
		s, err := r.secretBox.Seal(remote.Username+":"+remote.Password, secrets.GitCredentialsAD(opID))
		if err != nil {
			return nil, fmt.Errorf("sealing Git credentials: %w", err)
		}
		sealed = &s
	}
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	op, err := mutate(ctx, r, r.spaces, q.spaceID, authz.TriggerGitSync,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.GitSyncOperation, error) {
			if unpinned != nil {
				pinned, pinnedDir, err := r.pinnedByConnection(ctx, s.ID, q, unpinned)
				if err != nil {
					return nil, err
				}
				remote, dir = pinned, pinnedDir
			}
			if q.direction == enum.GitSyncOperationDirectionImport && !q.standalone && s.EditMode != nil && *s.EditMode == enum.EditModeLocked {
				return nil, apperr.Preconditionf("The space is locked: unlock it to import into it")
			}
			if err := r.needDeployKey(ctx, s.ID, remote, "Importing or exporting over SSH", "try again"); err != nil {
				return nil, err
			}
			db := r.db(ctx)
			// A standalone import is not the space's sync: the repository
			// it reads is not recorded, nor checked against a connection.
			if !q.standalone {
				if _, err := r.keepGitInfo(ctx, s.ID, remote, dir, q); err != nil {
					return nil, err
				}
			}
			return db.GitSyncOperation.Create().SetID(opID).SetSpaceID(s.ID).SetCreatedByID(v.User.ID).
				SetDirection(q.direction).SetURL(remote.URL).SetRef(remote.Ref).SetProjectDirectory(dir).
				SetNillableCommitMessage(q.message).SetForce(q.force).SetStandalone(q.standalone).SetNillableCredentials(sealed).
				SetNillableSSHKnownHosts(nonEmptyPtr(remote.KnownHosts)).
				SetStartedAt(r.clock()).SetUpdatedAt(r.clock()).
				Save(ctx)
		})
	if err != nil {
		return nil, err
	}
	r.gitSync.Wake()
	return op, nil
}

// pinnedByConnection is the remote of a one-shot request over SSH that gave
// no known hosts for a host whose keys are not built in, with the host keys
// the space's connection pins instead, if they name that host: so that an
// import or export through /v1, whose body has no member for them, reaches
// the host the space is connected to. Otherwise it is refused as it was
// (refused).
func (r *Resolver) pinnedByConnection(ctx context.Context, spaceID string, q gitRequest, refused error) (gitremote.Remote, string, error) {
	gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(spaceID), gitsync.SSHKnownHostsNotNil()).
		Only(internal(ctx, "the host keys a space the viewer may trigger pins"))
	if ent.IsNotFound(err) {
		return gitremote.Remote{}, "", refused
	}
	if err != nil {
		return gitremote.Remote{}, "", err
	}
	q.knownHosts = gs.SSHKnownHosts
	remote, dir, err := checkGitRequest(q)
	if err != nil && apperr.From(err).Field == "sshKnownHosts" {
		return remote, dir, refused
	}
	return remote, dir, err
}

// keepGitInfo records the repository a space syncs with. Another
// repository, branch or directory than the last starts afresh: the pair
// synced with the last one says nothing of the new one. A space connected
// to a repository syncs with no other until it is disconnected.
func (r *Resolver) keepGitInfo(ctx context.Context, spaceID string, remote gitremote.Remote, dir string, q gitRequest) (*ent.GitSync, error) {
	db := r.db(ctx)
	treeURL := q.treeURL
	var provider *enum.GitProvider
	if q.info != nil {
		provider = q.info.Provider
		if q.info.URL != nil {
			treeURL = q.info.URL
		}
	}
	gs, err := db.GitSync.Query().Where(gitsync.SpaceID(spaceID)).Only(internal(ctx, "the space's Git info, which the viewer may trigger"))
	if ent.IsNotFound(err) {
		return db.GitSync.Create().SetSpaceID(spaceID).SetURL(remote.URL).SetRef(remote.Ref).SetProjectDirectory(dir).
			SetNillableTreeURL(treeURL).SetNillableProvider(provider).Save(ctx)
	}
	if err != nil {
		return nil, err
	}
	other := gs.URL != remote.URL || gs.Ref != remote.Ref || gs.ProjectDirectory != dir
	if other && gs.ConnectedByID != nil && !q.connecting {
		return nil, apperr.Preconditionf("The space is connected to %s (%s): disconnect it first to sync with another repository or branch",
			gitRepoName(gs), strings.TrimPrefix(gs.Ref, "refs/heads/"))
	}
	up := gs.Update().SetURL(remote.URL).SetRef(remote.Ref).SetProjectDirectory(dir)
	if treeURL != nil {
		up.SetTreeURL(*treeURL)
	}
	if provider != nil {
		up.SetProvider(*provider)
	}
	if other {
		up.ClearSyncedCommit().ClearSyncedRevisionID()
	}
	return up.Save(ctx)
}

// projectDirectory cleans repoProjectDirectory: a relative path inside the
// repository, "" for all of it.
func projectDirectory(dir string) (string, error) {
	dir = strings.Trim(strings.TrimSpace(dir), "/")
	if dir == "" || dir == "." {
		return "", nil
	}
	clean := path.Clean(dir)
	for _, seg := range strings.Split(clean, "/") {
		if seg == ".." || seg == ".git" {
			return "", apperr.Invalid("repoProjectDirectory", "The project directory must be a path inside the repository")
		}
	}
	return clean, nil
}

func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// spaceGitSync is the Git info of a space the viewer reads: nil when the
// space never synced.
func (r *Resolver) spaceGitSync(ctx context.Context, s *ent.Space) (*ent.GitSync, error) {
	gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(s.ID)).Only(internal(ctx, "the Git info of a space the viewer reads"))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return gs, err
}

// gitRepoName is a repository's name from its URL: its path without the
// leading slash and the .git suffix, such as owner/docs.
func gitRepoName(gs *ent.GitSync) string {
	return strings.TrimSuffix(strings.Trim(gitremote.RepoPath(gs.URL), "/"), ".git")
}

// gitTreeURL is the URL a GitSyncState shows: the tree URL given, or the
// repository's.
func gitTreeURL(gs *ent.GitSync) string {
	if gs.TreeURL != nil {
		return *gs.TreeURL
	}
	return gs.URL
}

// spaceGitSyncOperations lists a space's operations, newest first, to those
// who may trigger them.
func (r *Resolver) spaceGitSyncOperations(ctx context.Context, s *ent.Space, a page.Args) (*model.GitSyncOperationConnection, error) {
	d, err := r.spaceDecision(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := r.spaces.require(ctx, s, d, authz.TriggerGitSync); err != nil {
		return nil, err
	}
	q := r.db(ctx).GitSyncOperation.Query().Where(gitsyncoperation.SpaceID(s.ID))
	conn, err := page.Paginate(internal(ctx, "the Git sync operations of a space the viewer may trigger"), q, gitOperationsByStart, a)
	if err != nil {
		return nil, err
	}
	return model.NewGitSyncOperationConnection(conn), nil
}

// gitOperationsByStart is the order of a space's operations: newest first.
var gitOperationsByStart = page.Order[*ent.GitSyncOperation, predicate.GitSyncOperation, gitsyncoperation.OrderOption]{
	Name: "git-sync-operations", Column: gitsyncoperation.FieldStartedAt, KeyType: page.KeyTime, Desc: true,
	Key: func(o *ent.GitSyncOperation) any { return o.StartedAt }, ID: func(o *ent.GitSyncOperation) string { return o.ID },
}

// revisionGitCommit is the Git commit a revision was imported from; nil
// for one made in Bindery.
func revisionGitCommit(rev *ent.Revision) *model.GitSyncCommit {
	if rev.GitOid == nil {
		return nil
	}
	return &model.GitSyncCommit{Oid: *rev.GitOid, Message: deref(rev.GitMessage), Ref: deref(rev.GitRef)}
}
