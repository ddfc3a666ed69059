// Package webhook holds what Bindery's webhooks are made of, apart from
// the database and HTTP: the event envelope, the signature scheme, the
// retry schedule and the record of an attempt. Package deliver sends them.
//
// # Signature
//
// Every request carries
//
//	Bindery-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
//
// where the HMAC is keyed with the endpoint's signing secret over the bytes
// "<t>.<body>", as Stripe's scheme does. A receiver recomputes it with its
// secret, compares in constant time, and rejects a t older than five
// minutes (Tolerance), so a captured request cannot be replayed later.
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/internal/enum"
)

// SignatureHeader is the header that carries the signature.
const SignatureHeader = "Bindery-Signature"

// Tolerance is how old a signature's timestamp may be before Verify
// refuses it: receivers reject replays older than this.
const Tolerance = 5 * time.Minute

// Sign returns the Bindery-Signature value of body sent at t.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// ErrSignature is a signature that does not verify.
var ErrSignature = errors.New("webhook: the signature does not verify")

// ErrExpired is a signature older than the tolerance.
var ErrExpired = errors.New("webhook: the signature is too old")

// Verify checks a Bindery-Signature header against body, as a receiver
// does: a v1 HMAC that matches, made less than tolerance before now.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrSignature
	}
	want := mac(secret, ts, body)
	ok := false
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			ok = true
		}
	}
	if !ok {
		return ErrSignature
	}
	if age := now.Sub(time.Unix(sec, 0)); age > tolerance || age < -tolerance {
		return ErrExpired
	}
	return nil
}

// NewSecret returns a new signing secret: "whsec_" and 32 random bytes in
// hex.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return "whsec_" + hex.EncodeToString(b)
}

// NewEventID returns a unique event ID.
func NewEventID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "evt_" + hex.EncodeToString(b)
}

// Schedule is when a failed attempt is retried: after Base, then twice
// that, and so on up to Max between attempts, each with up to a fifth of
// random jitter, while the delivery is younger than Window.
type Schedule struct {
	Base, Max, Window time.Duration
}

// DefaultSchedule retries for about a day: 30 s, 1 min, 2 min, … capped at
// 4 h between attempts, which makes about 15 attempts in 24 h.
var DefaultSchedule = Schedule{Base: 30 * time.Second, Max: 4 * time.Hour, Window: 24 * time.Hour}

// Next returns when to retry after the attempt-th failed attempt (1 for
// the first) of a delivery created at created, or false when the delivery
// has had its day.
func (s Schedule) Next(attempt int, created, now time.Time) (time.Time, bool) {
	d := s.Base
	for i := 1; i < attempt && d < s.Max; i++ {
		d *= 2
	}
	d = min(d, s.Max)
	if j := int64(d / 5); j > 0 {
		n, _ := rand.Int(rand.Reader, big.NewInt(j))
		d += time.Duration(n.Int64())
	}
	at := now.Add(d)
	if at.Sub(created) > s.Window {
		return time.Time{}, false
	}
	return at, true
}

// Retryable says whether an answer with this status is worth retrying:
// 5xx, 408 and 429. Other statuses outside 2xx are the receiver's refusal,
// and retrying would be refused again.
func Retryable(status int) bool {
	return status >= 500 || status == 408 || status == 429
}

// Attempt is the record of one attempt of a delivery, as its log shows it.
type Attempt struct {
	// Number counts the attempts of the delivery, from 1.
	Number int       `json:"number"`
	At     time.Time `json:"at"`
	// RequestHeaders are the headers sent, the signature included.
	RequestHeaders []Header `json:"requestHeaders"`
	// ResponseStatus is the response's HTTP status; nil when none came.
	ResponseStatus *int `json:"responseStatus,omitempty"`
	// ResponseBody is the start of the response body (ResponseLogBytes).
	ResponseBody *string `json:"responseBody,omitempty"`
	// LatencyMs is how long the request took.
	LatencyMs int `json:"latencyMs"`
	// Error says what went wrong without a response, or with a status
	// outside 2xx; nil on success.
	Error *string `json:"error,omitempty"`
}

// Header is an HTTP header sent.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ResponseLogBytes is how much of a response body an attempt keeps.
const ResponseLogBytes = 1024

// Envelope is the JSON body of every delivery.
type Envelope struct {
	ID           string    `json:"id"`
	Type         string    `json:"type"`
	CreatedAt    time.Time `json:"createdAt"`
	Organization string    `json:"organization"`
	// Integration and Installation name, in a delivery to an integration's
	// endpoint, the integration and its installation in Organization.
	Integration  string `json:"integration,omitempty"`
	Installation string `json:"installation,omitempty"`
	// Data holds "object", the object as /v1 presents it to an admin of
	// Organization.
	Data map[string]any `json:"data"`
}

// IntegrationScope is the scope an integration needs to receive events of
// type t, and whether integrations receive them at all: the events of a
// space (its content, change requests and comments need
// space:content:read; the space itself space:metadata:read) and of a site
// (site:metadata:read). Member events need a scope that the official
// IntegrationScope does not have, so integrations do not receive them.
func IntegrationScope(t enum.WebhookEventType) (enum.IntegrationScope, bool) {
	switch t {
	case enum.WebhookEventTypeSpaceCreated, enum.WebhookEventTypeSpaceUpdated, enum.WebhookEventTypeSpaceDeleted,
		enum.WebhookEventTypeSpaceRestored:
		return enum.IntegrationScopeSpaceMetadataRead, true
	case enum.WebhookEventTypeSpaceContent, enum.WebhookEventTypeChangeRequestCreated,
		enum.WebhookEventTypeChangeRequestUpdated, enum.WebhookEventTypeChangeRequestMerged,
		enum.WebhookEventTypeCommentPosted, enum.WebhookEventTypeCommentResolved:
		return enum.IntegrationScopeSpaceContentRead, true
	case enum.WebhookEventTypeSitePublished:
		return enum.IntegrationScopeSiteMetadataRead, true
	}
	return "", false
}

// OfSite says whether events of type t happen within a site (Within names
// a site), rather than within a space or the organization.
func OfSite(t enum.WebhookEventType) bool { return t == enum.WebhookEventTypeSitePublished }
