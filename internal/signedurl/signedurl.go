// Package signedurl signs URLs so that a link can be followed without
// credentials until it expires, as for PDF exports and file downloads.
//
// A signed URL carries two query parameters: "expires", the Unix time in
// seconds after which it is refused, and "signature", the unpadded base64url
// HMAC-SHA256 of the canonical string
//
//	path + "\n" + expires + "\n" + other query parameters
//
// where the other parameters are encoded sorted by name (url.Values.Encode),
// so any change of path, expiry or parameter breaks the signature. The
// method is not signed: a signed URL is for GET and HEAD.
package signedurl

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"time"
)

// Names of the query parameters a signature adds.
const (
	ParamExpires   = "expires"
	ParamSignature = "signature"
)

// MinSecretLen is the least number of bytes of a signing secret, the size of
// an HMAC-SHA256 key.
const MinSecretLen = 32

var (
	// ErrInvalid means the signature is missing or does not match the URL
	// (it was altered, or signed with another secret): answer 403.
	ErrInvalid = errors.New("signedurl: invalid signature")
	// ErrExpired means the signature is valid but its time has passed:
	// answer 410 Gone.
	ErrExpired = errors.New("signedurl: expired")
)

// Signer signs and verifies URLs with one secret. It is safe for concurrent
// use.
type Signer struct {
	secret []byte
}

// New returns a Signer with secret, which it copies. It panics if secret is
// shorter than MinSecretLen bytes: a short secret is a configuration error
// to catch at start-up, not a request to serve.
func New(secret []byte) *Signer {
	if len(secret) < MinSecretLen {
		panic("signedurl: secret shorter than " + strconv.Itoa(MinSecretLen) + " bytes")
	}
	return &Signer{secret: append([]byte(nil), secret...)}
}

// Sign returns the query of path valid until exp: a copy of params with
// "expires" and "signature" set. Any "expires" or "signature" in params is
// replaced. exp is rounded down to the second.
func (s *Signer) Sign(path string, params url.Values, exp time.Time) url.Values {
	q := url.Values{}
	for k, vs := range params {
		if k != ParamExpires && k != ParamSignature {
			q[k] = append([]string(nil), vs...)
		}
	}
	expires := strconv.FormatInt(exp.Unix(), 10)
	sig := s.mac(path, expires, q)
	q.Set(ParamExpires, expires)
	q.Set(ParamSignature, base64.RawURLEncoding.EncodeToString(sig))
	return q
}

// Verify checks the path and query of a request at now. It returns nil for
// a URL that Sign produced and that is still valid, ErrExpired for one whose
// expiry is at or before now, and ErrInvalid otherwise. A signature is
// checked before the expiry, so that ErrExpired never answers a forgery.
func (s *Signer) Verify(path string, query url.Values, now time.Time) error {
	sigs, exps := query[ParamSignature], query[ParamExpires]
	if len(sigs) != 1 || len(exps) != 1 {
		return ErrInvalid
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigs[0])
	if err != nil {
		return ErrInvalid
	}
	expires, err := strconv.ParseInt(exps[0], 10, 64)
	// Only the canonical spelling is accepted, so that one signature
	// cannot stand for several URLs ("+5", "05").
	if err != nil || strconv.FormatInt(expires, 10) != exps[0] {
		return ErrInvalid
	}
	rest := url.Values{}
	for k, vs := range query {
		if k != ParamExpires && k != ParamSignature {
			rest[k] = vs
		}
	}
	if !hmac.Equal(sig, s.mac(path, exps[0], rest)) {
		return ErrInvalid
	}
	if !now.Before(time.Unix(expires, 0)) {
		return ErrExpired
	}
	return nil
}

func (s *Signer) mac(path, expires string, params url.Values) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(path))
	m.Write([]byte{'\n'})
	m.Write([]byte(expires))
	m.Write([]byte{'\n'})
	m.Write([]byte(params.Encode()))
	return m.Sum(nil)
}
