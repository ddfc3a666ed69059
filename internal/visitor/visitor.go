// Package visitor admits the visitors of a visitor-auth site or space: it
// makes their signing keys and checks the JWTs signed with them. Sites and
// spaces share it, so both admit a visitor by the same rules.
//
// The rules:
//   - A signing key is 32 random bytes, 43 characters of URL-safe base64,
//     made by Bindery and shown once; its text is the HMAC secret.
//   - A visitor token is a JWT signed with HS256 under the key, and must
//     carry exp; the time is checked.
package visitor

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TokenField is the name of a visitor JWT in both APIs.
const TokenField = "visitorAuthToken"

// ErrNoKey is returned for a token presented to a site or space without a
// signing key: nothing can check it.
var ErrNoKey = errors.New("cannot be checked: it has no visitor signing key")

// NewKey returns a new signing key.
func NewKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24).
	return base64.RawURLEncoding.EncodeToString(b)
}

// Claims checks a visitor token against a signing key (nil: none) at the
// time now gives, and returns its claims.
func Claims(token string, key *string, now func() time.Time) (map[string]any, error) {
	if key == nil {
		return nil, ErrNoKey
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(*key), nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(), jwt.WithTimeFunc(now))
	if err != nil {
		return nil, fmt.Errorf("is not a valid visitor token: %w", err)
	}
	return claims, nil
}

// Expiry is when a token expires, read without checking it: for the
// lifetime of a cookie that keeps a token Claims accepted. The zero time
// when it has no readable exp.
func Expiry(token string) time.Time {
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		return time.Time{}
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return time.Time{}
	}
	return exp.Time
}

// Sign returns a visitor token for claims signed with key, expiring at
// exp: the token a site's own sign-in hands its visitors, made here for
// the command line (bindery site visitor-link) and for tests.
func Sign(key string, claims map[string]any, exp time.Time) (string, error) {
	c := jwt.MapClaims{}
	for k, v := range claims {
		c[k] = v
	}
	c["exp"] = exp.Unix()
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(key))
}
