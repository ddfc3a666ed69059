package graph_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/bindery/bindery/ent/gitdeploykey"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/server/servertest"
)

type deployKey struct {
	PublicKey, Fingerprint, CreatedAt string
	CreatedBy                         *struct{ ID string }
}

const createDeployKeyMutation = `mutation($id: ID!) { createGitDeployKey(spaceId: $id) {
  publicKey fingerprint createdAt createdBy { id } } }`

// createDeployKey makes the space's deploy key as the owner.
func createDeployKey(t *testing.T, e *servertest.Env, space string) deployKey {
	t.Helper()
	var out struct{ CreateGitDeployKey deployKey }
	e.GraphQL(e.OwnerToken, createDeployKeyMutation, map[string]any{"id": space}).Into(t, &out)
	return out.CreateGitDeployKey
}

// A space's deploy key: an Ed25519 key made by the server, its public key
// an authorized_keys line, its private key kept sealed; making another
// replaces it. Editors read and make it, readers do neither.
func TestGitDeployKey(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := createSpace(t, e, "Keyed")
	const read = `query($id: ID!) { space(id: $id) { gitDeployKey { publicKey fingerprint createdAt createdBy { id } } } }`
	var v struct {
		Space struct{ GitDeployKey *deployKey }
	}
	e.GraphQL(e.OwnerToken, read, map[string]any{"id": space}).Into(t, &v)
	assert.Nil(t, v.Space.GitDeployKey, "none yet")

	k := createDeployKey(t, e, space)
	pub, comment, _, _, err := ssh.ParseAuthorizedKey([]byte(k.PublicKey))
	require.NoError(t, err)
	assert.Equal(t, ssh.KeyAlgoED25519, pub.Type())
	assert.Equal(t, "bindery "+space, comment)
	assert.True(t, strings.HasPrefix(k.Fingerprint, "SHA256:"), k.Fingerprint)
	assert.Equal(t, ssh.FingerprintSHA256(pub), k.Fingerprint)
	require.NotNil(t, k.CreatedBy)
	assert.Equal(t, e.Owner.ID, k.CreatedBy.ID)
	assert.NotEmpty(t, k.CreatedAt)
	e.GraphQL(e.OwnerToken, read, map[string]any{"id": space}).Into(t, &v)
	assert.Equal(t, &k, v.Space.GitDeployKey)

	// The private key is kept sealed with the server's key, for this row
	// alone, and is the public key's other half.
	stored := e.Client.GitDeployKey.Query().Where(gitdeploykey.SpaceID(space)).OnlyX(t.Context())
	assert.True(t, strings.HasPrefix(stored.PrivateKey, "v1:"), "sealed")
	assert.NotContains(t, stored.PrivateKey, "PRIVATE KEY")
	box, err := secrets.FromBase64(servertest.TestSecretKey)
	require.NoError(t, err)
	pem, err := box.Open(stored.PrivateKey, secrets.GitDeployKeyAD(stored.ID))
	require.NoError(t, err)
	signer, err := ssh.ParsePrivateKey([]byte(pem))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(pub.Marshal(), signer.PublicKey().Marshal()))

	// Another replaces it.
	again := createDeployKey(t, e, space)
	assert.NotEqual(t, k.PublicKey, again.PublicKey)
	assert.Equal(t, 1, e.Client.GitDeployKey.Query().Where(gitdeploykey.SpaceID(space)).CountX(t.Context()))
	e.GraphQL(e.OwnerToken, read, map[string]any{"id": space}).Into(t, &v)
	assert.Equal(t, again.PublicKey, v.Space.GitDeployKey.PublicKey)

	// A reader neither reads nor makes it; a stranger does not see the
	// space.
	_, reader := e.Member(e.Org.ID, "read", "reader@example.com")
	readerToken := e.Token(reader)
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readerToken, read, map[string]any{"id": space}).Code())
	assert.Equal(t, "FORBIDDEN", e.GraphQL(readerToken, createDeployKeyMutation, map[string]any{"id": space}).Code())
	assert.Equal(t, "NOT_FOUND", e.GraphQL(e.OwnerToken, createDeployKeyMutation, map[string]any{"id": "spc_nothere"}).Code())
	e.GraphQL(e.OwnerToken, read, map[string]any{"id": space}).Into(t, &v)
	assert.Equal(t, again.PublicKey, v.Space.GitDeployKey.PublicKey, "unchanged")
}

// Without a secret key there is nowhere to keep a private key: 412, and
// nothing stored.
func TestGitDeployKeyNeedsASecretKey(t *testing.T) {
	t.Parallel()
	e := servertest.New(t, func(c *config.Config) { c.SecretKey = "" })
	space := createSpace(t, e, "No key")
	res := e.GraphQL(e.OwnerToken, createDeployKeyMutation, map[string]any{"id": space})
	assert.Equal(t, "PRECONDITION_FAILED", res.Code())
	require.NotEmpty(t, res.Errors)
	assert.Contains(t, res.Errors[0].Message, "BINDERY_SECRET_KEY")
	assert.Zero(t, e.Client.GitDeployKey.Query().CountX(t.Context()))
}

// Rotations at once leave one key: each writer either replaces the key or
// is refused as a conflict, and the key left is one a writer was given.
func TestGitDeployKeyRotationsAtOnce(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	space := createSpace(t, e, "Rotated")
	const writers = 30
	given := make([]string, writers)
	codes := make([]string, writers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			<-start
			res := e.Do("POST", "/graphql", e.OwnerToken, map[string]any{"query": createDeployKeyMutation, "variables": map[string]any{"id": space}})
			var out struct {
				Data   *struct{ CreateGitDeployKey deployKey }
				Errors []struct {
					Extensions map[string]any
				}
			}
			if err := json.Unmarshal(res.Body, &out); err != nil {
				codes[i] = "unreadable: " + string(res.Body)
				return
			}
			if len(out.Errors) > 0 {
				codes[i], _ = out.Errors[0].Extensions["code"].(string)
				return
			}
			given[i] = out.Data.CreateGitDeployKey.PublicKey
		})
	}
	close(start)
	wg.Wait()
	for i, c := range codes {
		if c != "" {
			assert.Equal(t, "CONFLICT", c, "writer %d", i)
		}
	}
	keys := e.Client.GitDeployKey.Query().Where(gitdeploykey.SpaceID(space)).AllX(t.Context())
	require.Len(t, keys, 1)
	assert.Contains(t, given, keys[0].PublicKey)
}
