package graph

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/gitdeploykey"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	gitremote "github.com/bindery/bindery/internal/gitsync"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/secrets"
)

// A space's SSH deploy key: an Ed25519 key pair made by the server, whose
// public half the space's Git host lets in (a deploy key with write
// access) and whose private half the space's operations over SSH sign in
// with, a connection's and one-shot imports and exports alike. It is the
// space's, not a connection's, so that it exists before the space is
// connected; making another replaces it, which is how it is rotated.

// createGitDeployKey makes the space's deploy key, in place of its earlier
// one.
func (r *Resolver) createGitDeployKey(ctx context.Context, spaceID string) (*ent.GitDeployKey, error) {
	if r.secretBox == nil {
		return nil, apperr.Preconditionf("A deploy key needs a secret key (BINDERY_SECRET_KEY) to keep its private key")
	}
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.spaces, spaceID, authz.TriggerGitSync,
		func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.GitDeployKey, error) {
			comment := "bindery " + s.ID
			block, err := ssh.MarshalPrivateKey(priv, comment)
			if err != nil {
				return nil, fmt.Errorf("encoding the deploy key: %w", err)
			}
			keyID := id.New(id.GitDeployKey)
			sealed, err := r.secretBox.Seal(string(pem.EncodeToMemory(block)), secrets.GitDeployKeyAD(keyID))
			if err != nil {
				return nil, fmt.Errorf("sealing the deploy key: %w", err)
			}
			db := r.db(ctx)
			// One key a space (a unique index): a rotation that races
			// another fails as a conflict rather than leave two.
			if _, err := db.GitDeployKey.Delete().Where(gitdeploykey.SpaceID(s.ID)).Exec(ctx); err != nil {
				return nil, err
			}
			line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub))) + " " + comment
			return db.GitDeployKey.Create().SetID(keyID).SetSpaceID(s.ID).SetPublicKey(line).SetPrivateKey(sealed).
				SetCreatedAt(r.clock()).SetCreatedByID(v.User.ID).Save(ctx)
		})
}

// spaceGitDeployKey is the space's deploy key, to those who may trigger
// its Git sync: nil when it has none.
func (r *Resolver) spaceGitDeployKey(ctx context.Context, s *ent.Space) (*ent.GitDeployKey, error) {
	d, err := r.spaceDecision(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := r.spaces.require(ctx, s, d, authz.TriggerGitSync); err != nil {
		return nil, err
	}
	k, err := r.db(ctx).GitDeployKey.Query().Where(gitdeploykey.SpaceID(s.ID)).
		Only(internal(ctx, "the deploy key of a space the viewer may trigger"))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return k, err
}

// deployKeyFingerprint is a key's SHA-256 fingerprint, as ssh-keygen -l
// prints it.
func deployKeyFingerprint(k *ent.GitDeployKey) (string, error) {
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(k.PublicKey))
	if err != nil {
		return "", fmt.Errorf("the public key of deploy key %s: %w", k.ID, err)
	}
	return ssh.FingerprintSHA256(pub), nil
}

// errGitNoDeployKey ends an operation over SSH whose space has no deploy
// key any more.
var errGitNoDeployKey = errors.New("the space has no deploy key")

// spaceDeployKey is the private key of a space's deploy key, opened, for
// an operation over SSH.
func (r *Resolver) spaceDeployKey(ctx context.Context, spaceID string) ([]byte, error) {
	k, err := r.db(ctx).GitDeployKey.Query().Where(gitdeploykey.SpaceID(spaceID)).
		Only(internal(ctx, "the deploy key of a space, for the Git sync worker"))
	if ent.IsNotFound(err) {
		return nil, errGitNoDeployKey
	}
	if err != nil {
		return nil, err
	}
	if r.secretBox == nil {
		return nil, errGitNoKey
	}
	key, err := r.secretBox.Open(k.PrivateKey, secrets.GitDeployKeyAD(k.ID))
	if err != nil {
		return nil, errGitSealed
	}
	return []byte(key), nil
}

// needDeployKey refuses a request over SSH for a space without a deploy
// key, before anything is recorded: doing names the request, then the step
// after adding the key to the repository.
func (r *Resolver) needDeployKey(ctx context.Context, spaceID string, remote gitremote.Remote, doing, then string) error {
	if !gitremote.IsSSH(remote.URL) {
		return nil
	}
	has, err := r.db(ctx).GitDeployKey.Query().Where(gitdeploykey.SpaceID(spaceID)).
		Exist(internal(ctx, "whether a space the viewer may trigger has a deploy key"))
	if err != nil || has {
		return err
	}
	return apperr.Preconditionf("%s needs the space's deploy key: create it (createGitDeployKey), "+
		"add its public key to the repository as a deploy key with write access, then %s", doing, then)
}
