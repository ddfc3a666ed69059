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
	"fmt"
	"hash/crc32"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/store"
)

// TokenPrefix starts every Bindery API token.
const TokenPrefix = "bnd_"

const (
	secretLength   = 32
	checksumLength = 6
	base62         = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// NewToken returns a fresh token and its hash.
func NewToken() (token, hash string) {
	secret := id.Random(secretLength)
	token = TokenPrefix + secret + checksum(secret)
	return token, HashToken(token)
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

// WellFormed reports whether s has the shape and checksum of a token.
func WellFormed(s string) bool {
	if len(s) != len(TokenPrefix)+secretLength+checksumLength || !strings.HasPrefix(s, TokenPrefix) {
		return false
	}
	body := s[len(TokenPrefix):]
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(base62, body[i]) < 0 {
			return false
		}
	}
	return checksum(body[:secretLength]) == body[secretLength:]
}

// Authenticate returns the token and, in its user edge, the user of a bearer
// token, read in one statement: the token joined to its user, built once
// (see store.Statements). A malformed, unknown or expired token is
// Unauthenticated; the three read alike to the client.
func Authenticate(ctx context.Context, client *ent.Client, statements *store.Statements, token string, now time.Time) (*ent.APIToken, error) {
	if !WellFormed(token) {
		return nil, apperr.Unauthenticatedf("The API token is malformed")
	}
	rows, err := statements.Query(ctx, client.Driver(), "token check", store.Selector(tokenStatement), HashToken(token))
	if err != nil {
		return nil, fmt.Errorf("checking the API token: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("checking the API token: %w", err)
		}
		return nil, apperr.Unauthenticatedf("The API token is invalid or has been revoked")
	}
	t := &ent.APIToken{}
	u := &ent.User{}
	var lastUsed, expires sql.NullTime
	var photo sql.NullString
	if err := rows.Scan(&t.ID, &t.CreatedAt, &t.Label, &t.UserID, &lastUsed, &expires,
		&u.CreatedAt, &u.UpdatedAt, &u.Email, &u.DisplayName, &photo); err != nil {
		return nil, fmt.Errorf("checking the API token: %w", err)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("checking the API token: %w", err)
	}
	if expires.Valid {
		t.ExpiresAt = &expires.Time
		if !expires.Time.After(now) {
			return nil, apperr.Unauthenticatedf("The API token has expired")
		}
	}
	if lastUsed.Valid {
		t.LastUsedAt = &lastUsed.Time
	}
	if photo.Valid {
		u.PhotoURL = &photo.String
	}
	u.ID = t.UserID
	t.Edges.User = u
	return t, nil
}

// tokenStatement selects a token by its hash, joined to its user.
func tokenStatement(d string) sql.Querier {
	t, u := sql.Dialect(d).Table(apitoken.Table), sql.Dialect(d).Table(user.Table).As("u")
	return sql.Dialect(d).Select(t.C(apitoken.FieldID), t.C(apitoken.FieldCreatedAt), t.C(apitoken.FieldLabel),
		t.C(apitoken.FieldUserID), t.C(apitoken.FieldLastUsedAt), t.C(apitoken.FieldExpiresAt),
		u.C(user.FieldCreatedAt), u.C(user.FieldUpdatedAt), u.C(user.FieldEmail), u.C(user.FieldDisplayName),
		u.C(user.FieldPhotoURL)).
		From(t).Join(u).On(t.C(apitoken.FieldUserID), u.C(user.FieldID)).
		Where(sql.EQ(t.C(apitoken.FieldTokenHash), store.Param(0)))
}

type viewerKey struct{}

// Viewer is the authenticated caller of a request.
type Viewer struct {
	User  *ent.User
	Token *ent.APIToken
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
