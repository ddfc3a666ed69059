// Package rekey re-encrypts the secrets stored in the database under a new
// key (the `bindery secrets rotate` command), and opens a stored secret for
// the checks of tests and tools.
package rekey

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/gitsync"
	"github.com/bindery/bindery/ent/gitsyncoperation"
	"github.com/bindery/bindery/internal/secrets"
)

// Rotate re-encrypts every integration's secrets, every webhook endpoint's
// signing secret, the credentials of Git sync operations still to run, the
// credentials and push-event keys of spaces connected to Git and the
// private keys of spaces' SSH deploy keys from the old key to the new one,
// in one transaction: every value opens with the old key and is sealed
// again with the new, or nothing changes. It returns the number of values
// re-encrypted. It runs outside any request, on a client without the read
// guard (the `bindery secrets rotate` command's).
func Rotate(ctx context.Context, client *ent.Client, oldKey, newKey string) (int, error) {
	from, err := secrets.FromBase64(oldKey)
	if err != nil {
		return 0, fmt.Errorf("the old key: %w", err)
	}
	to, err := secrets.FromBase64(newKey)
	if err != nil {
		return 0, fmt.Errorf("the new key: %w", err)
	}
	tx, err := client.Tx(ctx)
	if err != nil {
		return 0, err
	}
	n, err := reseal(ctx, tx.Client(), from, to)
	if err != nil {
		return 0, rollback(tx, err)
	}
	return n, tx.Commit()
}

func reseal(ctx context.Context, c *ent.Client, from, to *secrets.Box) (int, error) {
	rows, err := c.Integration.Query().Select("id", "secrets", "updated_at").All(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, i := range rows {
		if len(i.Secrets) == 0 {
			continue
		}
		out := make(map[string]string, len(i.Secrets))
		for name, sealed := range i.Secrets {
			if out[name], err = from.Reseal(to, sealed, secrets.IntegrationAD(i.ID, name)); err != nil {
				// The message names the secret, never its value.
				return 0, fmt.Errorf("the secret %q of integration %s: %w", name, i.ID, err)
			}
			n++
		}
		// A new key changes no integration: its updatedAt stays.
		if err := c.Integration.UpdateOneID(i.ID).SetSecrets(out).SetUpdatedAt(i.UpdatedAt).Exec(ctx); err != nil {
			return 0, err
		}
	}
	// Webhook endpoints' signing secrets.
	eps, err := c.WebhookEndpoint.Query().Select("id", "secret", "updated_at").All(ctx)
	if err != nil {
		return 0, err
	}
	for _, x := range eps {
		sealed, err := from.Reseal(to, x.Secret, secrets.WebhookAD(x.ID))
		if err != nil {
			return 0, fmt.Errorf("the signing secret of webhook endpoint %s: %w", x.ID, err)
		}
		if err := c.WebhookEndpoint.UpdateOneID(x.ID).SetSecret(sealed).SetUpdatedAt(x.UpdatedAt).Exec(ctx); err != nil {
			return 0, err
		}
		n++
	}
	// The credentials of Git sync operations still to run.
	ops, err := c.GitSyncOperation.Query().Where(gitsyncoperation.CredentialsNotNil()).Select("id", "credentials").All(ctx)
	if err != nil {
		return 0, err
	}
	for _, op := range ops {
		sealed, err := from.Reseal(to, *op.Credentials, secrets.GitCredentialsAD(op.ID))
		if err != nil {
			return 0, fmt.Errorf("the credentials of Git sync operation %s: %w", op.ID, err)
		}
		// A conditional update: an operation that ended meanwhile dropped
		// its credentials, and keeps none.
		if err := c.GitSyncOperation.Update().Where(gitsyncoperation.ID(op.ID), gitsyncoperation.CredentialsNotNil()).
			SetCredentials(sealed).Exec(ctx); err != nil {
			return 0, err
		}
		n++
	}
	// The credentials and push-event keys of spaces connected to Git.
	syncs, err := c.GitSync.Query().Where(gitsync.Or(gitsync.CredentialsNotNil(), gitsync.PushSecretNotNil())).
		Select("id", "credentials", "push_secret").All(ctx)
	if err != nil {
		return 0, err
	}
	for _, gs := range syncs {
		up := c.GitSync.UpdateOneID(gs.ID)
		for _, sec := range []struct {
			value *string
			ad    string
			set   func(string) *ent.GitSyncUpdateOne
		}{
			{gs.Credentials, secrets.GitCredentialsAD(gs.ID), up.SetCredentials},
			{gs.PushSecret, secrets.GitPushSecretAD(gs.ID), up.SetPushSecret},
		} {
			if sec.value == nil {
				continue
			}
			sealed, err := from.Reseal(to, *sec.value, sec.ad)
			if err != nil {
				return 0, fmt.Errorf("the Git connection %s: %w", gs.ID, err)
			}
			sec.set(sealed)
			n++
		}
		if err := up.Exec(ctx); err != nil {
			return 0, err
		}
	}
	// The private keys of spaces' SSH deploy keys.
	keys, err := c.GitDeployKey.Query().Select("id", "private_key").All(ctx)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		sealed, err := from.Reseal(to, k.PrivateKey, secrets.GitDeployKeyAD(k.ID))
		if err != nil {
			return 0, fmt.Errorf("the deploy key %s: %w", k.ID, err)
		}
		if err := c.GitDeployKey.UpdateOneID(k.ID).SetPrivateKey(sealed).Exec(ctx); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

func rollback(tx *ent.Tx, err error) error {
	if rerr := tx.Rollback(); rerr != nil {
		return fmt.Errorf("%w (and rolling back: %v)", err, rerr)
	}
	return err
}

// OpenSecret opens one secret of an integration: for tests and tools that
// check what is stored, never for a response.
func OpenSecret(key string, i *ent.Integration, name string) (string, error) {
	box, err := secrets.FromBase64(key)
	if err != nil {
		return "", err
	}
	return box.Open(i.Secrets[name], secrets.IntegrationAD(i.ID, name))
}
