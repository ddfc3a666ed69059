package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/secrets/rekey"
)

// storeSealed stores an integration whose secrets are sealed with key, as a
// publish does.
func storeSealed(t *testing.T, c *ent.Client, key, name string, plain map[string]string) string {
	t.Helper()
	ctx := context.Background()
	u, err := graph.EnsureUser(ctx, c, name+"@example.com")
	require.NoError(t, err)
	o, err := graph.CreateOrganization(ctx, c, "Org "+name, u.ID)
	require.NoError(t, err)
	box, err := secrets.FromBase64(key)
	require.NoError(t, err)
	itg := id.New(id.Integration)
	sealed := map[string]string{}
	for k, v := range plain {
		sealed[k], err = box.Seal(v, itg+"/"+k)
		require.NoError(t, err)
	}
	require.NoError(t, c.Integration.Create().SetID(itg).SetName(name).SetOrganizationID(o.ID).SetTitle("Title").
		SetScript("export default {}").SetSecrets(sealed).Exec(ctx))
	return itg
}

// gitSpace makes a user, an organization and a space named after name, and
// opens a box of key: what a stored Git operation or connection needs.
func gitSpace(t *testing.T, c *ent.Client, key, name string) (user, space string, box *secrets.Box) {
	t.Helper()
	ctx := context.Background()
	u, err := graph.EnsureUser(ctx, c, name+"@example.com")
	require.NoError(t, err)
	o, err := graph.CreateOrganization(ctx, c, "Org "+name, u.ID)
	require.NoError(t, err)
	s, err := c.Space.Create().SetOrganizationID(o.ID).SetTitle(name).Save(ctx)
	require.NoError(t, err)
	box, err = secrets.FromBase64(key)
	require.NoError(t, err)
	return u.ID, s.ID, box
}

// storeGitOperation stores a Git sync operation whose credentials are
// sealed with key, as a request does, and returns its ID.
func storeGitOperation(t *testing.T, c *ent.Client, key, credentials string) string {
	t.Helper()
	ctx := context.Background()
	_, space, box := gitSpace(t, c, key, "git")
	op := id.New(id.GitSyncOperation)
	sealed, err := box.Seal(credentials, secrets.GitCredentialsAD(op))
	require.NoError(t, err)
	require.NoError(t, c.GitSyncOperation.Create().SetID(op).SetSpaceID(space).SetDirection(enum.GitSyncOperationDirectionImport).
		SetURL("https://git.example.com/docs.git").SetRef("refs/heads/main").SetCredentials(sealed).Exec(ctx))
	return op
}

// storeGitConnection stores a space's connection to Git, whose credentials
// and push-event key are sealed with key, as connectGitSync does, and
// returns its ID.
func storeGitConnection(t *testing.T, c *ent.Client, key, credentials, pushKey string) string {
	t.Helper()
	user, space, box := gitSpace(t, c, key, "connected")
	gs := id.New(id.GitSync)
	sealedCred, err := box.Seal(credentials, secrets.GitCredentialsAD(gs))
	require.NoError(t, err)
	sealedPush, err := box.Seal(pushKey, secrets.GitPushSecretAD(gs))
	require.NoError(t, err)
	require.NoError(t, c.GitSync.Create().SetID(gs).SetSpaceID(space).SetURL("https://git.example.com/docs.git").
		SetRef("refs/heads/main").SetConnectedByID(user).SetCredentials(sealedCred).SetPushSecret(sealedPush).Exec(context.Background()))
	return gs
}

// storeDeployKey stores a space's SSH deploy key whose private key is
// sealed with key, as createGitDeployKey does, and returns its ID.
func storeDeployKey(t *testing.T, c *ent.Client, key, privateKey string) string {
	t.Helper()
	user, space, box := gitSpace(t, c, key, "deploy-key")
	k := id.New(id.GitDeployKey)
	sealed, err := box.Seal(privateKey, secrets.GitDeployKeyAD(k))
	require.NoError(t, err)
	require.NoError(t, c.GitDeployKey.Create().SetID(k).SetSpaceID(space).SetPublicKey("ssh-ed25519 AAAA bindery "+space).
		SetPrivateKey(sealed).SetCreatedByID(user).Exec(context.Background()))
	return k
}

// Rotation re-encrypts every secret with the new key, in one transaction:
// each stays readable with the new key, none with the old, and a wrong old
// key changes nothing.
func TestSecretsRotate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := dsn(t)
	old, _ := secrets.NewKey()
	next, _ := secrets.NewKey()
	wrong, _ := secrets.NewKey()
	d, err := openMigrated(ctx, db)
	require.NoError(t, err)
	defer d.Close()
	a := storeSealed(t, d.Client, old, "alpha", map[string]string{"TOKEN": "tok-a", "OTHER": "other-a"})
	b := storeSealed(t, d.Client, old, "beta", map[string]string{"TOKEN": "tok-b"})
	op := storeGitOperation(t, d.Client, old, "ann:pw")
	conn := storeGitConnection(t, d.Client, old, "bob:pw", "push-key")
	deployKey := storeDeployKey(t, d.Client, old, "-----BEGIN OPENSSH PRIVATE KEY-----\n...")
	keyFile := ""
	if f := sqliteFile(db); f != "" {
		keyFile = secrets.KeyFilePath(f)
		require.NoError(t, os.WriteFile(keyFile, []byte(old+"\n"), 0o600))
	}
	read := func(itgID, key, name string) (string, error) {
		i, err := d.Client.Integration.Get(ctx, itgID)
		require.NoError(t, err)
		return rekey.OpenSecret(key, i, name)
	}
	before, err := d.Client.Integration.Get(ctx, a)
	require.NoError(t, err)

	_, _, err = runCLI(t, nil, "secrets", "rotate", "--db", db, "--old-key", wrong, "--new-key", next)
	require.Error(t, err, "the wrong old key opens nothing")
	assert.NotContains(t, err.Error(), wrong)
	v, err := read(a, old, "TOKEN")
	require.NoError(t, err, "a failed rotation changed nothing")
	assert.Equal(t, "tok-a", v)

	out, _, err := runCLI(t, nil, "secrets", "rotate", "--db", db, "--old-key", old, "--new-key", next)
	require.NoError(t, err)
	assert.Contains(t, out, "re-encrypted 7 secrets")
	stored, err := d.Client.GitSyncOperation.Get(ctx, op)
	require.NoError(t, err)
	nextBox, err := secrets.FromBase64(next)
	require.NoError(t, err)
	cred, err := nextBox.Open(*stored.Credentials, secrets.GitCredentialsAD(op))
	require.NoError(t, err)
	assert.Equal(t, "ann:pw", cred, "a Git operation's credentials open with the new key")
	gs, err := d.Client.GitSync.Get(ctx, conn)
	require.NoError(t, err)
	cred, err = nextBox.Open(*gs.Credentials, secrets.GitCredentialsAD(conn))
	require.NoError(t, err)
	assert.Equal(t, "bob:pw", cred, "a Git connection's credentials open with the new key")
	push, err := nextBox.Open(*gs.PushSecret, secrets.GitPushSecretAD(conn))
	require.NoError(t, err)
	assert.Equal(t, "push-key", push, "a Git connection's push-event key opens with the new key")
	dk, err := d.Client.GitDeployKey.Get(ctx, deployKey)
	require.NoError(t, err)
	private, err := nextBox.Open(dk.PrivateKey, secrets.GitDeployKeyAD(deployKey))
	require.NoError(t, err)
	assert.Equal(t, "-----BEGIN OPENSSH PRIVATE KEY-----\n...", private, "a space's deploy key opens with the new key")
	oldBox, err := secrets.FromBase64(old)
	require.NoError(t, err)
	_, err = oldBox.Open(dk.PrivateKey, secrets.GitDeployKeyAD(deployKey))
	assert.ErrorIs(t, err, secrets.ErrOpen, "and no longer with the old")
	for _, c := range []struct{ itg, name, want string }{{a, "TOKEN", "tok-a"}, {a, "OTHER", "other-a"}, {b, "TOKEN", "tok-b"}} {
		v, err := read(c.itg, next, c.name)
		require.NoError(t, err)
		assert.Equal(t, c.want, v)
		_, err = read(c.itg, old, c.name)
		assert.ErrorIs(t, err, secrets.ErrOpen, "the old key opens nothing any more")
	}
	after, err := d.Client.Integration.Get(ctx, a)
	require.NoError(t, err)
	assert.Equal(t, before.UpdatedAt, after.UpdatedAt, "a new key changes no integration")
	if keyFile != "" {
		b, err := os.ReadFile(keyFile)
		require.NoError(t, err)
		assert.Equal(t, next, strings.TrimSpace(string(b)), "the key file holds the new key")
	}

	_, _, err = runCLI(t, nil, "secrets", "rotate", "--db", db, "--old-key", "short", "--new-key", next)
	assert.ErrorIs(t, err, errUsage)
	_, _, err = runCLI(t, nil, "secrets", "rotate", "--db", db, "--new-key", next)
	assert.ErrorIs(t, err, errUsage)
}

// Without BINDERY_SECRET_KEY, serve keeps a key file beside a SQLite
// database (mode 0600), and none for PostgreSQL.
func TestSecretKeyFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(&strings.Builder{}, nil))
	cfg := config.Default()
	cfg.DatabaseURL = filepath.Join(dir, "bindery.db")
	require.NoError(t, secretKey(&cfg, log))
	fi, err := os.Stat(filepath.Join(dir, secrets.KeyFileName))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	_, err = secrets.ParseKey(cfg.SecretKey)
	require.NoError(t, err)
	again := config.Default()
	again.DatabaseURL = cfg.DatabaseURL
	require.NoError(t, secretKey(&again, log))
	assert.Equal(t, cfg.SecretKey, again.SecretKey, "the same key at every start")

	pg := config.Default()
	pg.DatabaseURL = "postgres://db.example.com/bindery"
	require.NoError(t, secretKey(&pg, log))
	assert.Empty(t, pg.SecretKey)
	set := config.Default()
	set.DatabaseURL = filepath.Join(t.TempDir(), "other.db")
	set.SecretKey = cfg.SecretKey
	require.NoError(t, secretKey(&set, log))
	_, err = os.Stat(filepath.Join(filepath.Dir(set.DatabaseURL), secrets.KeyFileName))
	assert.True(t, os.IsNotExist(err), "a key from the environment writes no file")
}
