package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"path"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/gitsync"
	"github.com/bindery/bindery/ent/gitsyncoperation"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/gitbook"
	gitremote "github.com/bindery/bindery/internal/gitsync"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/lease"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/store"
)

// Defaults of the Git sync worker.
const (
	// gitLease outlasts an operation: gitJobTimeout bounds it.
	gitLease      = 10 * time.Minute
	gitJobTimeout = 8 * time.Minute
	// gitAttempts is how many times a network failure is tried, the n-th
	// retry gitBackoff×2ⁿ⁻¹ after the failure.
	gitAttempts = 5
	gitBackoff  = 15 * time.Second
	// gitRetention is how long an ended operation is listed.
	gitRetention = 30 * 24 * time.Hour
)

// GitSyncWorker runs the Git sync operations that requests record. Any
// number of servers run one against a database: an operation is claimed
// under a lease (package lease), and its result is recorded only while the
// claim holds.
type GitSyncWorker struct {
	*lease.Runner[*gitJob]
	r *Resolver
	// poll asks Run to read the connected branches due now (Poll).
	poll chan struct{}
}

// gitJob is a claimed operation.
type gitJob struct {
	op    *ent.GitSyncOperation
	token string
}

func newGitSyncWorker(r *Resolver, poll time.Duration, log *slog.Logger) *GitSyncWorker {
	w := &GitSyncWorker{r: r, poll: make(chan struct{}, 1)}
	w.Runner = lease.New(r.client, lease.Config{What: "a Git sync operation", Lease: gitLease, Poll: poll, Now: r.clock, Log: log},
		lease.Jobs[*gitJob]{Find: findGitOperations, Take: takeGitOperation, Load: w.load, Process: w.process, Tidy: w.tidy})
	return w
}

// Prune deletes the operations that ended more than 30 days ago, and
// returns how many.
func (w *GitSyncWorker) Prune(ctx context.Context) (int, error) {
	cutoff := w.r.clock().Add(-gitRetention)
	var n int
	err := store.WithTx(ctx, w.r.client, func(ctx context.Context, tx *ent.Client) (err error) {
		n, err = tx.GitSyncOperation.Delete().Where(gitsyncoperation.StateNEQ(enum.GitSyncOperationStateRunning),
			gitsyncoperation.UpdatedAtLT(cutoff)).Exec(ctx)
		return err
	})
	return n, err
}

// tidy prunes old operations and reads the connected branches due, at
// every poll of Run.
func (w *GitSyncWorker) tidy(ctx context.Context) {
	if _, err := w.Prune(ctx); err != nil && ctx.Err() == nil {
		w.r.log.Error("pruning Git sync operations", "error", err)
	}
	w.readBranches(ctx)
}

func (w *GitSyncWorker) readBranches(ctx context.Context) {
	if err := w.pollGitSyncs(ctx); err != nil && ctx.Err() == nil {
		w.r.log.Error("reading the branches of connected spaces", "error", err)
	}
}

// Poll makes Run read the connected branches due now, such as one a push
// event announced, without waiting for its next tidy.
func (w *GitSyncWorker) Poll() {
	select {
	case w.poll <- struct{}{}:
	default:
	}
}

// Run runs operations until ctx ends (see lease.Runner.Run), and reads the
// connected branches due whenever Poll asks.
func (w *GitSyncWorker) Run(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.poll:
				w.readBranches(ctx)
			}
		}
	}()
	w.Runner.Run(ctx)
	<-done
}

// GitSync returns the worker of Git sync operations, for the server to run.
func (r *Resolver) GitSync() *GitSyncWorker { return r.gitSync }

func gitReads(ctx context.Context) context.Context { return internal(ctx, "the Git sync worker") }

// gitOperationDue keeps the operations a worker may take at now: running,
// not waiting for a retry, not under a live lease, and the oldest running
// one of its space, so that a space's operations run in the order they
// were asked for.
func gitOperationDue(now time.Time) predicate.GitSyncOperation {
	return gitsyncoperation.And(
		gitsyncoperation.StateEQ(enum.GitSyncOperationStateRunning),
		gitsyncoperation.Or(gitsyncoperation.NextAttemptAtIsNil(), gitsyncoperation.NextAttemptAtLTE(now)),
		gitsyncoperation.Or(gitsyncoperation.ClaimedUntilIsNil(), gitsyncoperation.ClaimedUntilLT(now)),
		func(s *sql.Selector) {
			older := sql.Table(gitsyncoperation.Table).As("older")
			s.Where(sql.NotExists(sql.Select(older.C(gitsyncoperation.FieldID)).From(older).Where(sql.And(
				sql.ColumnsEQ(older.C(gitsyncoperation.FieldSpaceID), s.C(gitsyncoperation.FieldSpaceID)),
				sql.EQ(older.C(gitsyncoperation.FieldState), enum.GitSyncOperationStateRunning),
				sql.ColumnsLT(older.C(gitsyncoperation.FieldID), s.C(gitsyncoperation.FieldID)),
			))))
		},
	)
}

// findGitOperations returns the operations due at now, oldest first (IDs
// are ordered by time).
func findGitOperations(ctx context.Context, tx *ent.Client, now time.Time, limit int, lock bool) ([]string, error) {
	q := tx.GitSyncOperation.Query().Where(gitOperationDue(now)).Order(gitsyncoperation.ByID()).Limit(limit)
	if lock {
		q.ForUpdate(sql.WithLockAction(sql.SkipLocked), sql.WithLockTables(gitsyncoperation.Table))
	}
	return q.IDs(gitReads(ctx))
}

func takeGitOperation(ctx context.Context, tx *ent.Client, id string, c lease.Claim) (bool, error) {
	n, err := tx.GitSyncOperation.Update().Where(gitsyncoperation.ID(id), gitOperationDue(c.At)).
		SetClaimedBy(c.Token).SetClaimedUntil(c.Until).Save(ctx)
	return n == 1, err
}

func (w *GitSyncWorker) load(ctx context.Context, id string, c lease.Claim) (*gitJob, error) {
	op, err := w.r.client.GitSyncOperation.Get(gitReads(ctx), id)
	if err != nil {
		return nil, err
	}
	return &gitJob{op: op, token: c.Token}, nil
}

// gitOutcome is how a run ended when it did not record a success: a
// failure to show, or one to try again.
type gitOutcome struct {
	failure string
	retry   error
	// disconnect ends the space's connection with the failure: the
	// repository refused the credentials, or is gone, and polling it again
	// would fail the same way until someone connects it anew.
	disconnect bool
}

// remoteError is a failure of the Git remote that is none of gitsync's
// kinds: a network error, tried again after a while.
type remoteError struct{ err error }

func (e remoteError) Error() string { return e.err.Error() }
func (e remoteError) Unwrap() error { return e.err }

// process runs a claimed operation and records how it ended.
func (w *GitSyncWorker) process(ctx context.Context, j *gitJob) error {
	runCtx, cancel := context.WithTimeout(ctx, gitJobTimeout)
	defer cancel()
	out, err := w.run(runCtx, j)
	switch {
	case errors.Is(err, lease.ErrLost):
		return err
	case ctx.Err() != nil:
		// The server is stopping: the lease ends, and a worker takes the
		// operation again.
		return ctx.Err()
	case err == nil:
	default:
		out = w.r.gitFailure(ctx, j.op, err)
	}
	if out.failure == "" && out.retry == nil {
		return nil // recorded with its revision, or by run
	}
	up := w.r.client.GitSyncOperation.Update().Where(gitsyncoperation.ID(j.op.ID), gitsyncoperation.ClaimedBy(j.token)).
		ClearClaimedBy().ClearClaimedUntil()
	if out.retry != nil && j.op.Attempts+1 < gitAttempts {
		w.r.log.Warn("git sync: retrying", "operation", j.op.ID, "attempt", j.op.Attempts+1, "error", out.retry)
		up.AddAttempts(1).SetNextAttemptAt(w.r.clock().Add(gitBackoff << j.op.Attempts))
	} else {
		if out.retry != nil {
			out.failure = "The repository could not be reached: " + strings.TrimPrefix(out.retry.Error(), "gitsync: ")
		}
		up.SetState(enum.GitSyncOperationStateFailure).SetError(out.failure).ClearCredentials().ClearNextAttemptAt()
	}
	if !out.disconnect {
		n, err := up.Save(store.OutsideTx(ctx))
		if err == nil && n == 0 {
			err = lease.ErrLost
		}
		return err
	}
	return store.WithTx(store.OutsideTx(ctx), w.r.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.GitSyncOperation.Update().Where(gitsyncoperation.ID(j.op.ID), gitsyncoperation.ClaimedBy(j.token)).
			ClearClaimedBy().ClearClaimedUntil().SetState(enum.GitSyncOperationStateFailure).
			SetError(out.failure + ": the space was disconnected from the repository; connect it again to go on syncing").
			ClearCredentials().ClearNextAttemptAt().Save(ctx)
		if err == nil && n == 0 {
			err = lease.ErrLost
		}
		if err != nil {
			return err
		}
		gs, err := tx.GitSync.Query().Where(gitsync.SpaceID(j.op.SpaceID), gitsync.URL(j.op.URL), gitsync.Ref(j.op.Ref),
			gitsync.ProjectDirectory(j.op.ProjectDirectory), gitsync.ConnectedByIDNotNil()).Only(gitReads(ctx))
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		_, err = disconnect(ctx, tx, gs)
		return err
	})
}

// gitFailure turns what stopped an operation into what it shows: the
// remote's kinds and the application's errors in words, a network error to
// retry, and a server fault as a generic message (logged whole).
func (r *Resolver) gitFailure(ctx context.Context, op *ent.GitSyncOperation, err error) gitOutcome {
	var re remoteError
	var hostKey *gitremote.HostKeyError
	switch {
	case errors.Is(err, gitremote.ErrAuth):
		return gitOutcome{failure: "The repository refused the credentials, or needs some", disconnect: op.Automatic}
	case errors.As(err, &hostKey):
		return gitOutcome{failure: fmt.Sprintf("The repository's SSH host %s showed a host key that is not one trusted for it (%s %s): "+
			"another server answered in its place, or the host changed its keys; if it did, connect again with its new keys",
			hostKey.Host, hostKey.KeyType, hostKey.Fingerprint), disconnect: op.Automatic}
	case errors.Is(err, gitremote.ErrNotFound):
		return gitOutcome{failure: "No such repository or branch", disconnect: op.Automatic}
	case errors.Is(err, gitremote.ErrTooLarge):
		return gitOutcome{failure: fmt.Sprintf("The repository is larger than Bindery syncs (%d files, %d MiB)",
			gitremote.DefaultMaxFiles, gitremote.DefaultMaxBytes>>20)}
	case errors.Is(err, gitremote.ErrUnsupported), errors.Is(err, gitremote.ErrInvalidPath), errors.Is(err, gitremote.ErrKnownHosts):
		return gitOutcome{failure: strings.TrimPrefix(err.Error(), "gitsync: ")}
	case errors.Is(err, gitremote.ErrMoved):
		return gitOutcome{failure: "The branch moved while Bindery was committing to it: export again"}
	case errors.Is(err, errGitUserGone):
		return gitOutcome{failure: "The account that asked for the operation no longer exists"}
	case errors.Is(err, errGitNoKey):
		return gitOutcome{failure: "Bindery has no secret key (BINDERY_SECRET_KEY) to open the credentials"}
	case errors.Is(err, errGitSealed):
		return gitOutcome{failure: "The credentials do not open with this server's key"}
	case errors.Is(err, errGitNoDeployKey) && op.Automatic:
		return gitOutcome{failure: "The space has no deploy key to sign in over SSH: create one, add it to the repository and connect again",
			disconnect: true}
	case errors.Is(err, errGitNoDeployKey):
		return gitOutcome{failure: "The space has no deploy key to sign in over SSH: create one, add it to the repository and try again"}
	case errors.Is(err, context.DeadlineExceeded):
		return gitOutcome{failure: fmt.Sprintf("The operation took longer than %s", gitJobTimeout)}
	case errors.As(err, &re):
		return gitOutcome{retry: err}
	case apperr.KindOf(err) != apperr.Internal:
		return gitOutcome{failure: apperr.From(err).Message}
	}
	r.log.Error("git sync failed", "operation", op.ID, "space", op.SpaceID, "error", err)
	return gitOutcome{failure: "Bindery could not run the operation: the server's log has the details"}
}

// run runs an operation as the user who asked for it, with their rights
// now.
func (w *GitSyncWorker) run(ctx context.Context, j *gitJob) (gitOutcome, error) {
	r, op := w.r, j.op
	if op.CreatedByID == nil {
		return gitOutcome{}, errGitUserGone
	}
	u, err := r.client.User.Get(gitReads(ctx), *op.CreatedByID)
	if ent.IsNotFound(err) {
		return gitOutcome{}, errGitUserGone
	}
	if err != nil {
		return gitOutcome{}, err
	}
	ctx = r.WithLoaders(auth.WithViewer(ctx, &auth.Viewer{User: u}))
	var remote gitremote.Remote
	if op.Automatic {
		// A connection's operation runs with the connection's credentials
		// as they are now.
		gs, err := r.connectionOf(ctx, op)
		if err != nil {
			return gitOutcome{}, err
		}
		if gs == nil {
			return gitOutcome{failure: "The space is no longer connected to this repository"}, nil
		}
		if gs.ChangeRequestID != nil && !op.Force {
			// Queued before the wait began: pushing now would write the
			// space's side over the branch's changes the change request
			// holds.
			return gitOutcome{failure: "Sync waits for the change request that holds the branch's changes: merge or close it"}, nil
		}
		if remote, err = r.connectionRemote(ctx, gs); err != nil {
			return gitOutcome{}, err
		}
	} else if remote, err = r.operationRemote(ctx, op); err != nil {
		return gitOutcome{}, err
	}
	if r.cfg.ImportAllowPrivate {
		ctx = gitremote.WithPrivateAddresses(ctx)
	}
	switch {
	case op.Automatic && !op.Force:
		return w.runSync(ctx, j, u, remote)
	case op.Direction == enum.GitSyncOperationDirectionImport:
		return w.runImport(ctx, j, remote)
	default:
		return w.runExport(ctx, j, u, remote)
	}
}

// operationRemote is an operation's repository with the credentials its
// request gave, or over SSH the space's deploy key.
func (r *Resolver) operationRemote(ctx context.Context, op *ent.GitSyncOperation) (gitremote.Remote, error) {
	return r.openRemote(ctx, op.SpaceID, op.URL, op.Ref, op.SSHKnownHosts, op.Credentials, secrets.GitCredentialsAD(op.ID))
}

// connectionOf is the connection an automatic operation belongs to: the
// space's, while it is connected to the operation's repository; nil when
// it is not.
func (r *Resolver) connectionOf(ctx context.Context, op *ent.GitSyncOperation) (*ent.GitSync, error) {
	gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(op.SpaceID), gitsync.URL(op.URL), gitsync.Ref(op.Ref),
		gitsync.ProjectDirectory(op.ProjectDirectory), gitsync.ConnectedByIDNotNil()).Only(gitReads(ctx))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return gs, err
}

// stage records the step an operation is at, a write of its own (it
// renews nothing: the lease outlasts the job).
func (w *GitSyncWorker) stage(ctx context.Context, j *gitJob, s enum.GitSyncOperationStage, dispatched, completed int) error {
	n, err := w.r.client.GitSyncOperation.Update().Where(gitsyncoperation.ID(j.op.ID), gitsyncoperation.ClaimedBy(j.token)).
		SetStage(s).SetDispatchedTasks(dispatched).SetCompletedTasks(completed).Save(store.OutsideTx(ctx))
	if err == nil && n == 0 {
		err = lease.ErrLost
	}
	return err
}

// remote wraps the errors of the Git remote: those of no kind gitsync
// tells apart are a network's, tried again.
func remote(err error) error {
	if err == nil {
		return nil
	}
	for _, kind := range []error{gitremote.ErrAuth, gitremote.ErrHostKey, gitremote.ErrKnownHosts, gitremote.ErrNotFound,
		gitremote.ErrTooLarge, gitremote.ErrUnsupported, gitremote.ErrInvalidPath, gitremote.ErrMoved,
		context.DeadlineExceeded, context.Canceled} {
		if errors.Is(err, kind) {
			return err
		}
	}
	return remoteError{err}
}

// succeed records an operation's result, and the space's synced pair, in
// the transaction of ctx.
func (r *Resolver) succeed(ctx context.Context, j *gitJob, revision, commit string, tasks int) error {
	db := r.db(ctx)
	n, err := db.GitSyncOperation.Update().Where(gitsyncoperation.ID(j.op.ID), gitsyncoperation.ClaimedBy(j.token)).
		SetState(enum.GitSyncOperationStateSuccess).SetStage(enum.GitSyncOperationStageFinalize).
		SetDispatchedTasks(tasks).SetCompletedTasks(tasks).SetCompletedAt(r.clock()).
		SetCommit(commit).SetRevisionID(revision).ClearCredentials().ClearClaimedBy().ClearClaimedUntil().Save(ctx)
	if err == nil && n == 0 {
		err = lease.ErrLost
	}
	if err != nil || j.op.Standalone {
		return err // a standalone import's revision is not the space's
	}
	// The pair belongs to the repository the operation used: a later
	// request for another one cleared it and moved on.
	return db.GitSync.Update().Where(gitsync.SpaceID(j.op.SpaceID), gitsync.URL(j.op.URL), gitsync.Ref(j.op.Ref),
		gitsync.ProjectDirectory(j.op.ProjectDirectory)).
		SetSyncedRevisionID(revision).SetSyncedCommit(commit).Exec(ctx)
}

// syncedPair is the space's last synced revision and commit for the
// operation's repository; "" when there is none.
func (r *Resolver) syncedPair(ctx context.Context, op *ent.GitSyncOperation) (revision, commit string, err error) {
	gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(op.SpaceID), gitsync.URL(op.URL), gitsync.Ref(op.Ref),
		gitsync.ProjectDirectory(op.ProjectDirectory)).Only(gitReads(ctx))
	if ent.IsNotFound(err) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	if gs.SyncedRevisionID != nil && gs.SyncedCommit != nil {
		return *gs.SyncedRevisionID, *gs.SyncedCommit, nil
	}
	return "", "", nil
}

// runImport fetches the branch and makes its content the space's, in a
// revision recorded with the operation's success; or, standalone, a
// revision that is not the space's content.
func (w *GitSyncWorker) runImport(ctx context.Context, j *gitJob, rm gitremote.Remote) (gitOutcome, error) {
	snap, err := gitremote.Fetch(ctx, rm, gitremote.Limits{})
	if err != nil {
		return gitOutcome{}, remote(err)
	}
	if j.op.Standalone {
		return w.importStandalone(ctx, j, snap)
	}
	return w.importSnapshot(ctx, j, snap)
}

// importStandalone records a fetched commit's content as a revision of the
// space whose parent is the space's current revision, without making it
// the space's content: the space, its search index, its Git info and its
// synced pair stay as they are, and no event is sent. Pages at the same
// paths as the space's keep their IDs, as in any import, so that the
// revision can be compared with the space's page by page.
func (w *GitSyncWorker) importStandalone(ctx context.Context, j *gitJob, snap *gitremote.Snapshot) (gitOutcome, error) {
	r, op := w.r, j.op
	files, out, err := w.branchContent(ctx, j, snap)
	if files == nil {
		return out, err
	}
	_, err = transact(ctx, r, func(ctx context.Context) (struct{}, error) {
		s, _, err := r.spaces.authorize(ctx, op.SpaceID, authz.TriggerGitSync)
		if err != nil {
			return struct{}{}, err
		}
		base, err := r.revisionByID(ctx, deref(s.RevisionID))
		if err != nil {
			return struct{}{}, err
		}
		c, baseContent, err := r.importOnto(ctx, base, files)
		if err != nil {
			return struct{}{}, err
		}
		rev, err := r.commit(ctx, commit{space: s, content: c, from: baseContent, author: deref(op.CreatedByID),
			typ: enum.RevisionTypeEdits, parents: []string{base.ID}, message: importMessage(snap.Message),
			git: &revisionGit{oid: snap.Commit, message: snap.Message, ref: op.Ref}, standalone: true})
		if err != nil {
			return struct{}{}, err
		}
		return struct{}{}, r.succeed(ctx, j, rev.ID, snap.Commit, len(files))
	})
	return gitOutcome{}, err
}

// importSnapshot makes a fetched commit's content the space's.
func (w *GitSyncWorker) importSnapshot(ctx context.Context, j *gitJob, snap *gitremote.Snapshot) (gitOutcome, error) {
	r, op := w.r, j.op
	files, out, err := w.branchContent(ctx, j, snap)
	if files == nil {
		return out, err
	}
	syncedRev, syncedCommit, err := r.syncedPair(ctx, op)
	if err != nil {
		return gitOutcome{}, err
	}
	spaceID := op.SpaceID
	t := targetOf(&spaceID, nil, nil)
	t.importing, t.git = true, &revisionGit{oid: snap.Commit, message: snap.Message, ref: op.Ref}
	var unchanged *ent.Revision
	// The files read: all of them, or those a commit of page edits changed.
	tasks := len(files)
	_, _, err = r.editThen(ctx, t, importMessage(snap.Message),
		func(ctx context.Context, t *editTarget, c *content.Content) error {
			if syncedRev != "" && t.revision.ID != syncedRev && !op.Force {
				return apperr.Preconditionf("The space changed since it was last synced with the repository: export it first, or import with force to replace it")
			}
			if syncedCommit == snap.Commit && t.revision.ID == syncedRev {
				unchanged = t.revision
				return errGitUnchanged
			}
			if t.revision.ID == syncedRev && snap.Base != "" && snap.Base == syncedCommit {
				// The fetch started from the synced commit: a commit that
				// edits page files edits those pages alone.
				changed := pathsUnder(snap.Changed, op.ProjectDirectory)
				done, err := gitbook.ApplyEdits(files, underDirectory(snap.Before, op.ProjectDirectory), changed, c, r.clock())
				if err != nil {
					return err
				}
				if done {
					tasks = len(changed)
					return nil
				}
			}
			res, err := gitbook.Import(files, c, id.New, r.clock())
			if err != nil {
				return apperr.Invalid("url", "The repository's content cannot be read: %v", err)
			}
			return r.replaceContent(ctx, c, res)
		},
		func(ctx context.Context, rev *ent.Revision) error {
			return r.succeed(ctx, j, rev.ID, snap.Commit, tasks)
		})
	if errors.Is(err, errGitUnchanged) {
		_, err = transact(ctx, r, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, r.succeed(ctx, j, unchanged.ID, snap.Commit, len(files))
		})
	}
	return gitOutcome{}, err
}

// branchContent is the files of a fetched commit under the operation's
// directory, with the stages of reading them recorded; nil, with how the
// operation ends, when there are none.
func (w *GitSyncWorker) branchContent(ctx context.Context, j *gitJob, snap *gitremote.Snapshot) (map[string][]byte, gitOutcome, error) {
	if err := w.stage(ctx, j, enum.GitSyncOperationStageConfigCheck, 0, 0); err != nil {
		return nil, gitOutcome{}, err
	}
	files := underDirectory(snap.Files, j.op.ProjectDirectory)
	if len(files) == 0 {
		return nil, gitOutcome{failure: fmt.Sprintf("The branch has no files under %q", j.op.ProjectDirectory)}, nil
	}
	if err := w.stage(ctx, j, enum.GitSyncOperationStageContentProcess, len(files), 0); err != nil {
		return nil, gitOutcome{}, err
	}
	return files, gitOutcome{}, nil
}

// runSync runs an automatic operation of a connected space: from the pair
// last synced, it brings the branch's new commits in when only the branch
// moved, pushes the space's new revisions when only the space moved, and
// when both moved opens a change request holding the branch's side and
// merges it (branchAsChangeRequest).
func (w *GitSyncWorker) runSync(ctx context.Context, j *gitJob, u *ent.User, rm gitremote.Remote) (gitOutcome, error) {
	r, op := w.r, j.op
	head, err := gitremote.Head(ctx, rm)
	if err != nil {
		return gitOutcome{}, remote(err)
	}
	syncedRev, syncedCommit, err := r.syncedPair(ctx, op)
	if err != nil {
		return gitOutcome{}, err
	}
	s, _, err := r.spaces.authorize(ctx, op.SpaceID, authz.TriggerGitSync)
	if err != nil {
		return gitOutcome{}, err
	}
	if syncedRev == "" {
		return gitOutcome{failure: "The space and the branch have not been synced yet: connect the space again to choose the side to start from"}, nil
	}
	// A branch deleted since is made again by the export.
	branchMoved := head != "" && head != syncedCommit
	spaceMoved := deref(s.RevisionID) != syncedRev
	if branchMoved {
		// The head was just read: fetch it, without reading it again.
		snap, err := gitremote.Fetch(ctx, rm, gitremote.Limits{})
		switch {
		case errors.Is(err, gitremote.ErrNotFound):
			// Deleted since: the export below makes it again.
			head, spaceMoved = "", true
		case err != nil:
			return gitOutcome{}, remote(err)
		case spaceMoved:
			return w.branchAsChangeRequest(ctx, j, u, snap, syncedRev)
		default:
			return w.importSnapshot(ctx, j, snap)
		}
	}
	if spaceMoved || head == "" {
		return w.exportOnto(ctx, j, u, rm, s, head, syncedRev)
	}
	_, err = transact(ctx, r, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, r.succeed(ctx, j, syncedRev, head, 0)
	})
	return gitOutcome{}, err
}

// branchAsChangeRequest settles a connected space and its branch that both
// moved since the pair last synced: the branch's content becomes a change
// request forked from the synced revision, recorded with the operation's
// success, and is merged at once with the three-way merge change requests
// use. A clean merge moves the space, and the export it queues pushes the
// result (gitChangeRequestEnded); on conflicts the change request stays
// open, listing them, and sync waits until a person merges or closes it.
func (w *GitSyncWorker) branchAsChangeRequest(ctx context.Context, j *gitJob, u *ent.User,
	snap *gitremote.Snapshot, syncedRev string) (gitOutcome, error) {
	r, op := w.r, j.op
	files, out, err := w.branchContent(ctx, j, snap)
	if files == nil {
		return out, err
	}
	cr, err := transact(ctx, r, func(ctx context.Context) (*ent.ChangeRequest, error) {
		if err := r.lockSpaceContent(ctx, op.SpaceID); err != nil {
			return nil, err
		}
		s, _, err := r.liveSpace(ctx, op.SpaceID, authz.OpenChange)
		if err != nil {
			return nil, err
		}
		base, err := r.revisionByID(ctx, syncedRev)
		if err != nil {
			return nil, err
		}
		theirs, baseContent, err := r.importOnto(ctx, base, files)
		if err != nil {
			return nil, err
		}
		number, err := r.nextChangeRequestNumber(ctx, s)
		if err != nil {
			return nil, err
		}
		cr, err := r.db(ctx).ChangeRequest.Create().SetSpaceID(s.ID).SetNumber(number).
			SetSubject(gitChangeRequestSubject(snap.Message)).SetCreatedByID(u.ID).
			SetRevisionID(base.ID).SetRevisionInitialID(base.ID).Save(ctx)
		if err != nil {
			return nil, err
		}
		rev, err := r.record(ctx, &editTarget{space: s, changeRequest: cr, revision: base, content: baseContent,
			git: &revisionGit{oid: snap.Commit, message: snap.Message, ref: op.Ref}},
			theirs, u.ID, enum.RevisionTypeEdits, importMessage(snap.Message))
		if err != nil {
			return nil, err
		}
		r.emit(ctx, events.New(events.ChangeRequestsTopic(s.ID), events.ChangeRequestCreated, cr.ID).
			For(s.OrganizationID, s.ID, enum.WebhookEventTypeChangeRequestCreated))
		if err := r.db(ctx).GitSync.Update().Where(gitsync.SpaceID(s.ID)).SetChangeRequestID(cr.ID).Exec(ctx); err != nil {
			return nil, err
		}
		// The change request's revision holds the commit's content: the
		// pair the next sync starts from.
		return cr, r.succeed(ctx, j, rev.ID, snap.Commit, len(files))
	})
	if err != nil {
		return gitOutcome{}, err
	}
	res, err := r.mergeChangeRequest(ctx, model.MergeChangeRequestInput{ID: cr.ID})
	switch {
	case err != nil:
		r.log.Warn("git sync: the branch's change request stays open", "space", op.SpaceID, "changeRequest", cr.ID, "error", err)
	case res.Result == enum.MergeResultConflicts:
		r.log.Info("git sync: the branch's changes conflict; waiting for the change request", "space", op.SpaceID,
			"changeRequest", cr.ID, "conflicts", len(res.Conflicts))
	}
	return gitOutcome{}, nil
}

// gitChangeRequestSubject is the subject of the change request holding a
// branch's side: the commit's subject, within the 100 characters a subject
// may have.
func gitChangeRequestSubject(commit string) string {
	subject := importMessage(commit)
	if r := []rune(subject); len(r) > 100 {
		subject = string(r[:99]) + "…"
	}
	return subject
}

// errGitUserGone ends an operation whose requester's account was deleted:
// nobody's rights to run it with.
var errGitUserGone = errors.New("the account that asked for the operation no longer exists")

// errGitNoKey and errGitSealed end an operation whose credentials cannot
// be opened: the server has no key, or another one.
var (
	errGitNoKey  = errors.New("no secret key to open the credentials")
	errGitSealed = errors.New("the credentials do not open with this key")
)

// errGitUnchanged ends an import's edit that would change nothing: the
// branch and the space are still the pair last synced.
var errGitUnchanged = errors.New("nothing changed since the last sync")

// importMessage is the message of an import's revision: the commit's
// subject.
func importMessage(commit string) string {
	subject, _, _ := strings.Cut(strings.TrimSpace(commit), "\n")
	if subject == "" {
		return "Import from Git"
	}
	return "Import from Git: " + subject
}

// underDirectory returns the files under dir, by their paths relative to
// it; all of them for "".
func underDirectory(files map[string][]byte, dir string) map[string][]byte {
	if dir == "" {
		return files
	}
	out := map[string][]byte{}
	for p, b := range files {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok {
			out[rel] = b
		}
	}
	return out
}

// pathsUnder returns the paths under dir, relative to it; all of them for
// "".
func pathsUnder(paths []string, dir string) []string {
	if dir == "" {
		return paths
	}
	var out []string
	for _, p := range paths {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}

// importOnto reads a branch's files as an import into base's content: it
// returns the content they make, forked from base's so that pages at the
// same paths keep their IDs, and base's content.
func (r *Resolver) importOnto(ctx context.Context, base *ent.Revision, files map[string][]byte) (*content.Content, *content.Loaded, error) {
	baseContent, err := r.contentOf(ctx, base)
	if err != nil {
		return nil, nil, err
	}
	c := baseContent.Fork()
	res, err := gitbook.Import(files, baseContent.Content, id.New, r.clock())
	if err != nil {
		return nil, nil, apperr.Invalid("url", "The repository's content cannot be read: %v", err)
	}
	return c, baseContent, r.replaceContent(ctx, c, res)
}

// replaceContent makes c hold what an import read: its pages and its
// files, in place of c's (the files kept by name keep their IDs, so the
// pages' references to them hold).
func (r *Resolver) replaceContent(ctx context.Context, c *content.Content, res *gitbook.Result) error {
	c.ReplacePages(res.Pages)
	for len(c.Files) > 0 {
		if err := c.RemoveFile(c.Files[0].ID); err != nil {
			return err
		}
	}
	for _, a := range res.Files {
		f, err := r.blobFile(ctx, a.File.Name, a.File.ContentType, a.Data)
		if err != nil {
			return err
		}
		f.ID = a.File.ID
		c.PutFile(f)
	}
	return nil
}

// runExport commits the space's main content to the branch, on top of the
// commit last synced, or of the branch's head with force or at the first
// sync.
func (w *GitSyncWorker) runExport(ctx context.Context, j *gitJob, u *ent.User, rm gitremote.Remote) (gitOutcome, error) {
	r, op := w.r, j.op
	s, _, err := r.spaces.authorize(ctx, op.SpaceID, authz.TriggerGitSync)
	if err != nil {
		return gitOutcome{}, err
	}
	head, err := gitremote.Head(ctx, rm)
	if err != nil {
		return gitOutcome{}, remote(err)
	}
	syncedRev, syncedCommit, err := r.syncedPair(ctx, op)
	if err != nil {
		return gitOutcome{}, err
	}
	if head != "" && syncedCommit != "" && head != syncedCommit && !op.Force {
		return gitOutcome{failure: "The branch has commits the space has not imported since the last sync: import them first, or export with force to commit on top of them"}, nil
	}
	if head != syncedCommit {
		syncedRev = ""
	}
	return w.exportOnto(ctx, j, u, rm, s, head, syncedRev)
}

// exportOnto commits the space's main content on top of head, the branch's
// head ("" to make the branch), keeping the files that are not the
// space's. synced is the revision the branch's head holds, when it is the
// pair last synced: an export of page edits since then writes those pages'
// files alone (exportEdits).
func (w *GitSyncWorker) exportOnto(ctx context.Context, j *gitJob, u *ent.User, rm gitremote.Remote,
	s *ent.Space, head, synced string) (gitOutcome, error) {
	r, op := w.r, j.op
	rev, err := r.revisionByID(ctx, deref(s.RevisionID))
	if err != nil {
		return gitOutcome{}, err
	}
	sig := gitremote.Signature{Name: u.DisplayName, Email: u.Email, When: r.clock()}
	if head != "" && synced != "" {
		commit, written, err := w.exportEdits(ctx, j, rm, rev, head, synced, sig)
		switch {
		case errors.Is(err, gitremote.ErrNotEdits):
		case errors.Is(err, gitremote.ErrMoved):
			return w.pushFailed(err)
		case err != nil:
			return gitOutcome{}, err
		default:
			return w.exported(ctx, j, rev, commit, written)
		}
	}
	var current map[string][]byte
	if head != "" {
		snap, err := gitremote.Fetch(ctx, rm, gitremote.Limits{})
		if err != nil {
			return gitOutcome{}, remote(err)
		}
		if snap.Commit != head {
			// Pushed to since the checks: they decide again.
			return w.pushFailed(gitremote.ErrMoved)
		}
		current = underDirectory(snap.Files, op.ProjectDirectory)
	}
	if err := w.stage(ctx, j, enum.GitSyncOperationStageConfigCheck, 0, 0); err != nil {
		return gitOutcome{}, err
	}
	cfg, _ := gitbook.ReadConfig(current)
	// What the branch holds beyond the space stays: the export replaces
	// only the files an import would read.
	replaced := map[string]bool{}
	for _, p := range gitbook.Sources(current) {
		replaced[p] = true
	}
	if err := w.stage(ctx, j, enum.GitSyncOperationStageContentProcess, 0, 0); err != nil {
		return gitOutcome{}, err
	}
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return gitOutcome{}, err
	}
	exported, err := gitbook.Export(c.Content, func(hash string) ([]byte, error) {
		objs, err := r.objects().Get(ctx, []string{hash})
		if err != nil {
			return nil, err
		}
		o, ok := objs[hash]
		if !ok {
			return nil, fmt.Errorf("file object %s is missing", hash)
		}
		return o.Data, nil
	})
	if err != nil {
		return gitOutcome{}, err
	}
	placed, err := cfg.Place(exported)
	if err != nil {
		return gitOutcome{failure: err.Error()}, nil
	}
	files := make(map[string][]byte, len(current)+len(placed))
	for p, b := range current {
		if !replaced[p] {
			files[p] = b
		}
	}
	maps.Copy(files, placed)
	if err := w.stage(ctx, j, enum.GitSyncOperationStageFinalize, len(placed), len(placed)); err != nil {
		return gitOutcome{}, err
	}
	commit, err := gitremote.Push(ctx, rm, head, op.ProjectDirectory, files, deref(op.CommitMessage), sig, gitremote.Limits{})
	if err != nil {
		return w.pushFailed(err)
	}
	return w.exported(ctx, j, rev, commit, len(placed))
}

// pushFailed is how an export ends when its push failed.
func (w *GitSyncWorker) pushFailed(err error) (gitOutcome, error) {
	if errors.Is(err, gitremote.ErrMoved) {
		// Someone pushed between the head read and the push: the checks
		// before it decide again.
		return gitOutcome{retry: remoteError{err}}, nil
	}
	return gitOutcome{}, remote(err)
}

// exported records an export's success: the revision it pushed as commit,
// with the files it wrote.
func (w *GitSyncWorker) exported(ctx context.Context, j *gitJob, rev *ent.Revision, commit string, written int) (gitOutcome, error) {
	_, err := transact(ctx, w.r, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, w.r.succeed(ctx, j, rev.ID, commit, written)
	})
	return gitOutcome{}, err
}

// exportEdits pushes the edits of pages made since synced, the revision
// the branch's head holds, as edits of their files on top of head
// (gitbook.ExportEdits), reading only those files and the trees above
// them. It returns the commit and how many files it wrote, or
// gitremote.ErrNotEdits when the space changed more than that, for
// exportOnto to export whole; the remote's errors as remote gives them.
func (w *GitSyncWorker) exportEdits(ctx context.Context, j *gitJob, rm gitremote.Remote, rev *ent.Revision,
	head, synced string, sig gitremote.Signature) (string, int, error) {
	r, op := w.r, j.op
	base, err := r.revisionByID(ctx, synced)
	if err != nil {
		return "", 0, err
	}
	was, err := r.contentOf(ctx, base)
	if err != nil {
		return "", 0, err
	}
	now, err := r.contentOf(ctx, rev)
	if err != nil {
		return "", 0, err
	}
	if err := w.stage(ctx, j, enum.GitSyncOperationStageContentProcess, 0, 0); err != nil {
		return "", 0, err
	}
	written := 0
	commit, err := gitremote.PushEdits(ctx, rm, head, func(read func(string) ([]byte, bool)) (map[string][]byte, error) {
		edits, ok := gitbook.ExportEdits(was, now, func(p string) ([]byte, bool) { return read(path.Join(op.ProjectDirectory, p)) })
		if !ok {
			return nil, gitremote.ErrNotEdits
		}
		out := make(map[string][]byte, len(edits))
		for p, b := range edits {
			out[path.Join(op.ProjectDirectory, p)] = b
		}
		written = len(out)
		return out, nil
	}, deref(op.CommitMessage), sig, gitremote.Limits{})
	if !errors.Is(err, gitremote.ErrNotEdits) {
		err = remote(err)
	}
	return commit, written, err
}
