// Package auth issues and checks API tokens and carries the authenticated
// viewer through a request.
//
// A token is "bnd_", 32 random base62 characters and a 6-character base62
// CRC-32 checksum of them, like GitHub's tokens: the prefix makes a leaked
// token recognisable to secret scanners, and the checksum rejects a mistyped
// token without a database lookup. Only the token's SHA-256 hash is stored.
package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// TokenPrefix starts every Bindery API token; SessionPrefix, every session
// secret, which a sign-in makes and only a browser's cookie carries. Each
// authenticates from its own place alone, so a session secret pasted as a
// bearer token is refused, and so is a token set as the cookie.
const (
	TokenPrefix   = "bnd_"
	SessionPrefix = "bns_"
)

const (
	secretLength   = 32
	checksumLength = 6
	base62         = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// NewToken returns a fresh token and its hash.
func NewToken() (token, hash string) { return newSecret(TokenPrefix) }

// NewSession returns a fresh session secret and its hash.
func NewSession() (secret, hash string) { return newSecret(SessionPrefix) }

func newSecret(prefix string) (secret, hash string) {
	body := id.Random(secretLength)
	secret = prefix + body + checksum(body)
	return secret, HashToken(secret)
}

// HashToken returns the stored form of a token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func checksum(secret string) string {
	n := crc32.ChecksumIEEE([]byte(secret))
	out := make([]byte, checksumLength)
	for i := checksumLength - 1; i >= 0; i-- {
		out[i] = base62[n%62]
		n /= 62
	}
	return string(out)
}

// WellFormed reports whether s has the shape and checksum of a token, or
// of a session secret when prefix is SessionPrefix.
func WellFormed(s, prefix string) bool {
	if len(s) != len(prefix)+secretLength+checksumLength || !strings.HasPrefix(s, prefix) {
		return false
	}
	body := s[len(prefix):]
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(base62, body[i]) < 0 {
			return false
		}
	}
	return checksum(body[:secretLength]) == body[secretLength:]
}

type viewerKey struct{}

// Viewer is the authenticated caller of a request.
type Viewer struct {
	User  *ent.User
	Token *ent.APIToken
	// Facts, when set, are what authorization knows about the user, read
	// with the token (graph.Resolver.Authenticate); the request's loaders
	// start from them instead of reading them again.
	Facts *authz.Facts
	// WebhookOrganizations, when not nil, are the organizations of the
	// user's memberships (Facts) that have an active webhook endpoint, read
	// with the token: a change in another organization of theirs writes no
	// webhook delivery, and needs no statement to know it (see
	// graph.Resolver.enqueueWebhooks).
	WebhookOrganizations map[string]bool
}

// WithViewer returns a context carrying the viewer.
func WithViewer(ctx context.Context, v *Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerFrom returns the viewer of the request, or nil.
func ViewerFrom(ctx context.Context) *Viewer {
	v, _ := ctx.Value(viewerKey{}).(*Viewer)
	return v
}

// RequireViewer returns the viewer, or Unauthenticated when there is none.
func RequireViewer(ctx context.Context) (*Viewer, error) {
	if v := ViewerFrom(ctx); v != nil && v.User != nil {
		return v, nil
	}
	return nil, apperr.Unauthenticatedf("Authentication is required: send an API token as 'Authorization: Bearer <token>'")
}

// Anonymous returns the viewer of a request that presents no credentials:
// a reader of a published site. It is no user (its User has no ID) and a
// member of nothing, known without a statement, so every policy decides
// about it as about a stranger.
func Anonymous() *Viewer {
	return &Viewer{User: &ent.User{}, Facts: &authz.Facts{Memberships: map[string]authz.Membership{}, Grants: map[string]enum.Role{}}}
}
