// Package secrets encrypts the values Bindery must keep but never show, an
// integration's secrets, with AES-256-GCM under one key. It knows nothing of
// HTTP or the database: callers pass each value with the identity of the row
// and member it belongs to, as additional data, so a value copied to another
// row or member no longer opens.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// IntegrationAD is the additional data of an integration's secret name:
// the integration's ID and the name.
func IntegrationAD(integrationID, name string) string { return integrationID + "/" + name }

// WebhookAD is the additional data of a webhook endpoint's signing secret.
func WebhookAD(endpointID string) string { return endpointID + "/secret" }

// GitCredentialsAD is the additional data of the credentials of a Git sync
// operation or connection (by its ID): sealed credentials copied to
// another do not open.
func GitCredentialsAD(ownerID string) string { return ownerID + "/credentials" }

// GitPushSecretAD is the additional data of the key of a Git sync
// connection's push events.
func GitPushSecretAD(gitSyncID string) string { return gitSyncID + "/push-secret" }

// GitDeployKeyAD is the additional data of the private key of a space's
// SSH deploy key (by the key's ID).
func GitDeployKeyAD(keyID string) string { return keyID + "/private-key" }

// KeySize is the size of a key: 32 bytes, for AES-256.
const KeySize = 32

// prefix marks a sealed value and its format: the base64 of the nonce
// followed by the ciphertext and its tag.
const prefix = "v1:"

// ErrOpen is the error of a value that does not open: another key, another
// row or member, or altered bytes. GCM cannot tell these apart, by design.
var ErrOpen = errors.New("secrets: the value does not open with this key (wrong key, or not this row's value)")

// Box seals and opens values under one key.
type Box struct{ aead cipher.AEAD }

// ParseKey decodes a key written as standard base64 (what NewKey and the key
// file hold): it must be 32 bytes.
func ParseKey(s string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("the key is not base64: %w", err)
	}
	if len(k) != KeySize {
		return nil, fmt.Errorf("the key is %d bytes, not %d", len(k), KeySize)
	}
	return k, nil
}

// NewKey returns a random key, in base64.
func NewKey() (string, error) {
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(k), nil
}

// New returns a Box for a 32-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secrets: the key is %d bytes, not %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// FromBase64 returns a Box for a key in base64.
func FromBase64(s string) (*Box, error) {
	k, err := ParseKey(s)
	if err != nil {
		return nil, err
	}
	return New(k)
}

// Seal encrypts a value with a random nonce; ad is the identity the value
// belongs to (for example its row's ID and its name), which Open must be
// given again.
func (b *Box) Seal(value, ad string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := b.aead.Seal(nonce, nonce, []byte(value), []byte(ad))
	return prefix + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts a value Seal returned for the same ad.
func (b *Box) Open(sealed, ad string) (string, error) {
	raw, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return "", ErrOpen
	}
	data, err := base64.StdEncoding.DecodeString(raw)
	n := b.aead.NonceSize()
	if err != nil || len(data) < n+b.aead.Overhead() {
		return "", ErrOpen
	}
	plain, err := b.aead.Open(nil, data[:n], data[n:], []byte(ad))
	if err != nil {
		return "", ErrOpen
	}
	return string(plain), nil
}

// Reseal opens a value with b and seals it again with to, for the same ad:
// one value's step of a key rotation.
func (b *Box) Reseal(to *Box, sealed, ad string) (string, error) {
	v, err := b.Open(sealed, ad)
	if err != nil {
		return "", err
	}
	return to.Seal(v, ad)
}

// KeyFileName is the name of the key file Bindery keeps beside a SQLite
// database when BINDERY_SECRET_KEY is not set.
const KeyFileName = "bindery.secret-key"

// KeyFilePath returns where the key file of a SQLite database lives: in
// the database file's directory.
func KeyFilePath(databasePath string) string {
	return filepath.Join(filepath.Dir(databasePath), KeyFileName)
}

// LoadOrCreateKeyFile returns the key in path, creating the file (mode
// 0600, a new random key) when it does not exist; created says it was.
func LoadOrCreateKeyFile(path string) (key string, created bool, err error) {
	b, err := os.ReadFile(path)
	if err == nil {
		key = strings.TrimSpace(string(b))
		if _, err := ParseKey(key); err != nil {
			return "", false, fmt.Errorf("%s: %w", path, err)
		}
		return key, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, err
	}
	if key, err = NewKey(); err != nil {
		return "", false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it first: use theirs.
		return LoadOrCreateKeyFile(path)
	}
	if err != nil {
		return "", false, err
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		f.Close()
		return "", false, err
	}
	return key, true, f.Close()
}
