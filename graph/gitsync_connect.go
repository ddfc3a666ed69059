package graph

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/gitsync"
	"github.com/bindery/bindery/ent/gitsyncoperation"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	gitremote "github.com/bindery/bindery/internal/gitsync"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/store"
)

// Continuous Git sync: a space connected to a branch. Every new revision of
// its main content queues an automatic operation in the revision's
// transaction (queueGitSync); the worker reads connected branches' heads
// for new commits (pollGitSyncs, at every tidy), and a Git host's push
// event makes it read one at once (GitPushEvent). An automatic operation
// runs runSync (gitsync_worker.go): it brings the branch's new commits in
// and pushes the space's new revisions; when both sides moved, the
// branch's side becomes a change request that is merged with the existing
// three-way merge, and on conflicts sync waits until that change request is
// merged or closed (gitChangeRequestEnded).

// gitPollLimit bounds the branches one tidy reads: each read is a request
// to the Git host.
const gitPollLimit = 20

// gitPollTimeout bounds the read of one branch's head.
const gitPollTimeout = 20 * time.Second

// Commit messages of automatic exports without a revision message of their
// own, and of the first one.
const (
	gitDefaultMessage = "Update from Bindery"
	gitConnectMessage = "Export from Bindery"
)

func (r *Resolver) connectGitSync(ctx context.Context, in model.ConnectGitSyncInput) (*model.ConnectGitSyncPayload, error) {
	q := gitRequest{direction: in.InitialSync, spaceID: in.SpaceID, url: in.URL, ref: in.Ref,
		dir: deref(in.RepoProjectDirectory), info: in.GitInfo, force: true, connecting: true, knownHosts: in.SSHKnownHosts}
	remote, dir, err := checkGitRequest(q)
	if err != nil {
		return nil, err
	}
	if r.secretBox == nil {
		return nil, apperr.Preconditionf("Connecting a space to Git needs a secret key (BINDERY_SECRET_KEY) to keep its credentials and push-event key")
	}
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	secret := base64.RawURLEncoding.EncodeToString(key)
	var out *model.ConnectGitSyncPayload
	_, err = mutate(ctx, r, r.spaces, in.SpaceID, authz.TriggerGitSync,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.GitSync, error) {
			if q.direction == enum.GitSyncOperationDirectionImport && s.EditMode != nil && *s.EditMode == enum.EditModeLocked {
				return nil, apperr.Preconditionf("The space is locked: unlock it to import into it")
			}
			if err := r.needDeployKey(ctx, s.ID, remote, "Connecting over SSH", "connect"); err != nil {
				return nil, err
			}
			gs, err := r.keepGitInfo(ctx, s.ID, remote, dir, q)
			if err != nil {
				return nil, err
			}
			up := gs.Update().SetConnectedByID(v.User.ID).SetNextPollAt(r.clock().Add(r.cfg.GitPollInterval)).ClearChangeRequestID()
			if remote.Username != "" || remote.Password != "" {
				sealed, err := r.secretBox.Seal(remote.Username+":"+remote.Password, secrets.GitCredentialsAD(gs.ID))
				if err != nil {
					return nil, fmt.Errorf("sealing Git credentials: %w", err)
				}
				up.SetCredentials(sealed)
			} else {
				up.ClearCredentials()
			}
			if remote.KnownHosts != "" {
				up.SetSSHKnownHosts(remote.KnownHosts)
			} else {
				up.ClearSSHKnownHosts()
			}
			sealed, err := r.secretBox.Seal(secret, secrets.GitPushSecretAD(gs.ID))
			if err != nil {
				return nil, fmt.Errorf("sealing the push-event key: %w", err)
			}
			if gs, err = up.SetPushSecret(sealed).Save(ctx); err != nil {
				return nil, err
			}
			if err := r.db(ctx).Space.UpdateOne(s).SetGitConnected(true).Exec(ctx); err != nil {
				return nil, err
			}
			// What was queued for the connection before is the former
			// connection's.
			if err := r.endAutomatic(ctx, s.ID, "The space was connected again"); err != nil {
				return nil, err
			}
			op := r.db(ctx).GitSyncOperation.Create().SetSpaceID(s.ID).SetCreatedByID(v.User.ID).SetAutomatic(true).
				SetForce(true).SetDirection(q.direction).SetURL(gs.URL).SetRef(gs.Ref).SetProjectDirectory(gs.ProjectDirectory).
				SetStartedAt(r.clock()).SetUpdatedAt(r.clock())
			if q.direction == enum.GitSyncOperationDirectionExport {
				op.SetCommitMessage(gitConnectMessage)
			}
			first, err := op.Save(ctx)
			if err != nil {
				return nil, err
			}
			out = &model.ConnectGitSyncPayload{GitSync: gs, Operation: first, PushEventSecret: secret}
			return gs, nil
		})
	if err != nil {
		return nil, err
	}
	r.gitSync.Wake()
	return out, nil
}

func (r *Resolver) disconnectGitSync(ctx context.Context, spaceID string) (*ent.GitSync, error) {
	return mutate(ctx, r, r.spaces, spaceID, authz.TriggerGitSync,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.GitSync, error) {
			gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(s.ID)).Only(internal(ctx, "the Git info of a space the viewer may trigger"))
			if ent.IsNotFound(err) {
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			if err := r.endAutomatic(ctx, s.ID, "The space was disconnected from the repository"); err != nil {
				return nil, err
			}
			return disconnect(ctx, r.db(ctx), gs)
		})
}

// disconnect clears what a connection holds, and the space's mark.
func disconnect(ctx context.Context, db *ent.Client, gs *ent.GitSync) (*ent.GitSync, error) {
	gs, err := gs.Update().ClearConnectedByID().ClearCredentials().ClearPushSecret().ClearNextPollAt().ClearChangeRequestID().
		ClearSSHKnownHosts().Save(ctx)
	if err != nil {
		return nil, err
	}
	return gs, db.Space.UpdateOneID(gs.SpaceID).SetGitConnected(false).Exec(ctx)
}

// endAutomatic ends, as failures that say why, the automatic operations of
// a space that no worker has started.
func (r *Resolver) endAutomatic(ctx context.Context, spaceID, why string) error {
	return r.db(ctx).GitSyncOperation.Update().Where(gitsyncoperation.SpaceID(spaceID), gitsyncoperation.Automatic(true),
		gitsyncoperation.StateEQ(enum.GitSyncOperationStateRunning), gitsyncoperation.ClaimedByIsNil()).
		SetState(enum.GitSyncOperationStateFailure).SetError(why).ClearCredentials().ClearNextAttemptAt().Exec(ctx)
}

// queueGitSync queues, in the transaction of a new revision of a space's
// main content, the automatic operation that pushes it, when the space is
// connected and its sync waits for nothing. author is the revision's: the
// commit is theirs. A space that is not connected costs nothing.
func (r *Resolver) queueGitSync(ctx context.Context, s *ent.Space, author, message string) error {
	if !s.GitConnected {
		return nil
	}
	gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(s.ID), gitsync.ConnectedByIDNotNil()).
		Only(internal(ctx, "the Git connection of a space whose content changed"))
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil || gs.ChangeRequestID != nil {
		return err
	}
	return r.queueAutomatic(ctx, gs, enum.GitSyncOperationDirectionExport, author, message)
}

// queueAutomatic records an automatic operation of a connection, unless one
// is already waiting for a worker (for its first run or for a retry): it
// syncs both sides as they are when it runs, so it covers this one too.
func (r *Resolver) queueAutomatic(ctx context.Context, gs *ent.GitSync, dir enum.GitSyncOperationDirection, by, message string) error {
	db := r.db(ctx)
	waiting, err := db.GitSyncOperation.Query().Where(gitsyncoperation.SpaceID(gs.SpaceID), gitsyncoperation.Automatic(true),
		gitsyncoperation.Force(false), gitsyncoperation.StateEQ(enum.GitSyncOperationStateRunning),
		gitsyncoperation.ClaimedByIsNil()).
		Exist(internal(ctx, "the waiting Git sync operations of a connected space"))
	if err != nil || waiting {
		return err
	}
	if strings.TrimSpace(message) == "" {
		message = gitDefaultMessage
	}
	err = db.GitSyncOperation.Create().SetSpaceID(gs.SpaceID).SetCreatedByID(by).SetAutomatic(true).
		SetDirection(dir).SetURL(gs.URL).SetRef(gs.Ref).SetProjectDirectory(gs.ProjectDirectory).SetCommitMessage(message).
		SetStartedAt(r.clock()).SetUpdatedAt(r.clock()).Exec(ctx)
	if err == nil {
		r.afterCommit(ctx, r.gitSync.Wake)
	}
	return err
}

// gitChangeRequestEnded ends the wait of a connected space's sync for the
// change request that holds the branch's side of a conflict, once it is
// merged or closed, and queues the operation that pushes the space's
// content as it is then: merged, with both sides; closed, with the
// space's side only.
func (r *Resolver) gitChangeRequestEnded(ctx context.Context, s *ent.Space, cr *ent.ChangeRequest, by string) error {
	if !s.GitConnected {
		return nil
	}
	gs, err := r.db(ctx).GitSync.Query().Where(gitsync.SpaceID(cr.SpaceID), gitsync.ChangeRequestID(cr.ID)).
		Only(internal(ctx, "the Git connection waiting for a change request"))
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if gs, err = gs.Update().ClearChangeRequestID().Save(ctx); err != nil {
		return err
	}
	if gs.ConnectedByID == nil {
		return nil
	}
	message := fmt.Sprintf("Merge the branch's changes (change request #%d)", cr.Number)
	if cr.Status != enum.ChangeRequestStatusMerged {
		message = fmt.Sprintf("Keep the space's content over the branch's changes (change request #%d closed)", cr.Number)
	}
	return r.queueAutomatic(ctx, gs, enum.GitSyncOperationDirectionExport, by, message)
}

// pollGitSyncs reads the heads of the connected branches due for it, and
// queues an import for each that has commits the space has not seen. A
// server claims a branch's read by moving its next_poll_at first, so that
// replicas read each branch once an interval.
func (w *GitSyncWorker) pollGitSyncs(ctx context.Context) error {
	r := w.r
	now := r.clock()
	due, err := r.client.GitSync.Query().Where(gitsync.ConnectedByIDNotNil(), gitsync.ChangeRequestIDIsNil(),
		gitsync.NextPollAtLTE(now)).Order(gitsync.ByNextPollAt()).Limit(gitPollLimit).All(gitReads(ctx))
	if err != nil {
		return err
	}
	for _, gs := range due {
		n, err := r.client.GitSync.Update().Where(gitsync.ID(gs.ID), gitsync.NextPollAt(*gs.NextPollAt)).
			SetNextPollAt(now.Add(r.cfg.GitPollInterval)).Save(store.OutsideTx(ctx))
		if err != nil {
			return err
		}
		if n == 0 {
			continue // another server reads it
		}
		if err := w.pollOne(ctx, gs); err != nil && ctx.Err() == nil {
			r.log.Warn("git sync: reading the branch", "space", gs.SpaceID, "error", err)
		}
	}
	return nil
}

// pollOne reads a connected branch's head and queues an import when it
// moved. A branch that cannot be read queues one too, which records why in
// words (and, for refused credentials, disconnects the space).
func (w *GitSyncWorker) pollOne(ctx context.Context, gs *ent.GitSync) error {
	r := w.r
	rm, err := r.connectionRemote(ctx, gs)
	if err != nil {
		return err
	}
	readCtx, cancel := context.WithTimeout(ctx, gitPollTimeout)
	defer cancel()
	if r.cfg.ImportAllowPrivate {
		readCtx = gitremote.WithPrivateAddresses(readCtx)
	}
	head, readErr := gitremote.Head(readCtx, rm)
	if readErr == nil && (head == "" || head == deref(gs.SyncedCommit)) {
		return nil
	}
	_, err = transact(r.WithLoaders(store.OutsideTx(ctx)), r, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, r.queueAutomatic(ctx, gs, enum.GitSyncOperationDirectionImport, *gs.ConnectedByID, "")
	})
	if err != nil {
		return err
	}
	return readErr
}

// connectionRemote is a connection's repository with its credentials:
// over SSH, the space's deploy key as it is now (a rotated key is the one
// used) and the host keys the connection trusts.
func (r *Resolver) connectionRemote(ctx context.Context, gs *ent.GitSync) (gitremote.Remote, error) {
	return r.openRemote(ctx, gs.SpaceID, gs.URL, gs.Ref, gs.SSHKnownHosts, gs.Credentials, secrets.GitCredentialsAD(gs.ID))
}

// openRemote is a space's repository with its credentials: over SSH, the
// space's deploy key as it is now and the known hosts given; over HTTP(S),
// the credentials sealed under ad, if any.
func (r *Resolver) openRemote(ctx context.Context, spaceID, url, ref string, knownHosts, sealed *string, ad string) (gitremote.Remote, error) {
	rm := gitremote.Remote{URL: url, Ref: ref, Cache: r.gitCache}
	if gitremote.IsSSH(url) {
		key, err := r.spaceDeployKey(ctx, spaceID)
		rm.SSHKey, rm.KnownHosts = key, deref(knownHosts)
		return rm, err
	}
	if sealed == nil {
		return rm, nil
	}
	if r.secretBox == nil {
		return rm, errGitNoKey
	}
	cred, err := r.secretBox.Open(*sealed, ad)
	if err != nil {
		return rm, errGitSealed
	}
	rm.Username, rm.Password, _ = strings.Cut(cred, ":")
	return rm, nil
}

// GitPushEvent takes a Git host's push event for a connection: signed with
// its key, as GitHub and Gitea sign (X-Hub-Signature-256, the HMAC-SHA256
// of the body) or as GitLab sends it (X-Gitlab-Token), it makes a worker
// read the branch now. The event's content is not trusted: the branch is
// read from the repository. ErrNotFound for an unknown or disconnected
// connection, apperr.Unauthenticated for a missing or wrong signature.
func (r *Resolver) GitPushEvent(ctx context.Context, gitSyncID string, h http.Header, body []byte) error {
	ctx = internal(ctx, "a Git host's push event, checked against the connection's key")
	gs, err := r.client.GitSync.Query().Where(gitsync.ID(gitSyncID), gitsync.ConnectedByIDNotNil()).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFoundf("No Git sync connection %s", gitSyncID)
	}
	if err != nil {
		return err
	}
	if gs.PushSecret == nil || r.secretBox == nil {
		return apperr.NotFoundf("No Git sync connection %s", gitSyncID)
	}
	secret, err := r.secretBox.Open(*gs.PushSecret, secrets.GitPushSecretAD(gs.ID))
	if err != nil {
		return fmt.Errorf("opening the push-event key of %s: %w", gs.ID, err)
	}
	if !pushSigned(secret, h, body) {
		return apperr.Unauthenticatedf("The push event is not signed with the connection's key")
	}
	if gs.ChangeRequestID == nil {
		err = r.client.GitSync.Update().Where(gitsync.ID(gs.ID), gitsync.ConnectedByIDNotNil()).
			SetNextPollAt(r.clock()).Exec(store.OutsideTx(ctx))
		if err != nil {
			return err
		}
		r.gitSync.Poll()
	}
	return nil
}

// pushSigned reports whether a push event carries the connection's key:
// the HMAC-SHA256 of its body under the key, or the key itself.
func pushSigned(secret string, h http.Header, body []byte) bool {
	if sig, ok := strings.CutPrefix(h.Get("X-Hub-Signature-256"), "sha256="); ok {
		got, err := hex.DecodeString(sig)
		if err != nil {
			return false
		}
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(body)
		return hmac.Equal(got, mac.Sum(nil))
	}
	if token := h.Get("X-Gitlab-Token"); token != "" {
		return subtle.ConstantTimeCompare([]byte(token), []byte(secret)) == 1
	}
	return false
}

// gitPushEventURL is where a connection's push events go.
func (r *Resolver) gitPushEventURL(gs *ent.GitSync) *string {
	if gs.ConnectedByID == nil {
		return nil
	}
	u := r.cfg.PublicURL + "/git/push/" + gs.ID
	return &u
}
