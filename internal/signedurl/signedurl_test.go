package signedurl

import (
	"bytes"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	secret = bytes.Repeat([]byte("s"), 32)
	signAt = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	expiry = signAt.Add(time.Hour)
)

const path = "/v1/spaces/sp1/pdf"

func TestVerify(t *testing.T) {
	signer := New(secret)
	signed := signer.Sign(path, url.Values{"page": {"p1"}, "only": {"a", "b"}}, expiry)

	tests := []struct {
		name   string
		signer *Signer
		path   string
		query  func(q url.Values)
		now    time.Time
		want   error
	}{
		{name: "valid", now: signAt},
		{name: "valid until the last second", now: expiry.Add(-time.Nanosecond)},
		{name: "expired", now: expiry, want: ErrExpired},
		{name: "long expired", now: expiry.Add(24 * time.Hour), want: ErrExpired},
		{name: "tampered path", path: "/v1/spaces/sp2/pdf", now: signAt, want: ErrInvalid},
		{name: "tampered param", query: func(q url.Values) { q.Set("page", "p2") }, now: signAt, want: ErrInvalid},
		{name: "reordered values", query: func(q url.Values) { q["only"] = []string{"b", "a"} }, now: signAt, want: ErrInvalid},
		{name: "added param", query: func(q url.Values) { q.Set("download", "1") }, now: signAt, want: ErrInvalid},
		{name: "removed param", query: func(q url.Values) { q.Del("page") }, now: signAt, want: ErrInvalid},
		{name: "extended expiry", query: func(q url.Values) { q.Set(ParamExpires, "4102444800") }, now: signAt, want: ErrInvalid},
		{name: "expiry spelled differently", query: func(q url.Values) { q.Set(ParamExpires, "+"+q.Get(ParamExpires)) }, now: signAt, want: ErrInvalid},
		{name: "expired and tampered is invalid", query: func(q url.Values) { q.Set("page", "p2") }, now: expiry, want: ErrInvalid},
		{name: "missing signature", query: func(q url.Values) { q.Del(ParamSignature) }, now: signAt, want: ErrInvalid},
		{name: "missing expiry", query: func(q url.Values) { q.Del(ParamExpires) }, now: signAt, want: ErrInvalid},
		{name: "empty signature", query: func(q url.Values) { q.Set(ParamSignature, "") }, now: signAt, want: ErrInvalid},
		{name: "signature not base64", query: func(q url.Values) { q.Set(ParamSignature, "!!!") }, now: signAt, want: ErrInvalid},
		{name: "two signatures", query: func(q url.Values) { q.Add(ParamSignature, q.Get(ParamSignature)) }, now: signAt, want: ErrInvalid},
		{name: "wrong secret", signer: New(bytes.Repeat([]byte("t"), 32)), now: signAt, want: ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, p := signer, path
			if tc.signer != nil {
				s = tc.signer
			}
			if tc.path != "" {
				p = tc.path
			}
			// The query goes through a real URL, as a request brings it.
			q, err := url.ParseQuery(signed.Encode())
			require.NoError(t, err)
			if tc.query != nil {
				tc.query(q)
			}
			err = s.Verify(p, q, tc.now)
			if tc.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tc.want)
			}
		})
	}
}

func TestSign(t *testing.T) {
	s := New(secret)
	params := url.Values{"page": {"p1"}, ParamSignature: {"forged"}}
	q := s.Sign(path, params, expiry)

	assert.Equal(t, "p1", q.Get("page"))
	assert.Equal(t, "1772370000", q.Get(ParamExpires))
	assert.NotEqual(t, "forged", q.Get(ParamSignature))
	assert.Len(t, q[ParamSignature], 1)
	assert.NotContains(t, q.Get(ParamSignature), "=", "base64url without padding")
	// The caller's params are left alone.
	assert.Equal(t, url.Values{"page": {"p1"}, ParamSignature: {"forged"}}, params)
	// The same input signs the same way; another path does not.
	assert.Equal(t, q, s.Sign(path, params, expiry))
	assert.NotEqual(t, q.Get(ParamSignature), s.Sign(path+"x", params, expiry).Get(ParamSignature))
	assert.NoError(t, s.Verify(path, q, signAt))
}

func TestSignWithoutParams(t *testing.T) {
	s := New(secret)
	q := s.Sign("/files/f1", nil, expiry)
	assert.NoError(t, s.Verify("/files/f1", q, signAt))
}

func TestNewRejectsShortSecrets(t *testing.T) {
	assert.Panics(t, func() { New(make([]byte, MinSecretLen-1)) })
	assert.NotPanics(t, func() { New(make([]byte, MinSecretLen)) })

	// The signer keeps its own copy of the secret.
	key := bytes.Repeat([]byte("k"), 32)
	s := New(key)
	q := s.Sign(path, nil, expiry)
	key[0] = 'x'
	assert.NoError(t, s.Verify(path, q, signAt))
}
