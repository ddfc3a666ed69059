package webhook

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignatureVerifies(t *testing.T) {
	t.Parallel()
	at := time.Unix(1764171112, 0)
	body := []byte(`{"id":"evt_1","type":"space.created"}`)
	sig := Sign("whsec_a", at, body)
	require.True(t, strings.HasPrefix(sig, "t=1764171112,v1="), sig)
	// The documented scheme: hex HMAC-SHA256 of "<t>.<body>".
	assert.Equal(t, "t=1764171112,v1="+mac("whsec_a", "1764171112", body), sig)

	assert.NoError(t, Verify("whsec_a", sig, body, at.Add(time.Minute), Tolerance))
	assert.ErrorIs(t, Verify("whsec_b", sig, body, at, Tolerance), ErrSignature, "another secret")
	assert.ErrorIs(t, Verify("whsec_a", sig, append(body, ' '), at, Tolerance), ErrSignature, "another body")
	assert.ErrorIs(t, Verify("whsec_a", sig, body, at.Add(6*time.Minute), Tolerance), ErrExpired, "a replay after five minutes")
	forged := strings.Replace(sig, "t=1764171112", "t=1764171412", 1)
	assert.ErrorIs(t, Verify("whsec_a", forged, body, at.Add(6*time.Minute), Tolerance), ErrSignature,
		"a fresh timestamp on an old signature")
	assert.ErrorIs(t, Verify("whsec_a", "", body, at, Tolerance), ErrSignature)
}

func TestScheduleBacksOffForADay(t *testing.T) {
	t.Parallel()
	s := DefaultSchedule
	created := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	now := created
	var gaps []time.Duration
	for attempt := 1; ; attempt++ {
		next, ok := s.Next(attempt, created, now)
		if !ok {
			break
		}
		gap := next.Sub(now)
		base := min(s.Base<<(attempt-1), s.Max)
		if attempt > 20 {
			base = s.Max
		}
		assert.GreaterOrEqual(t, gap, base, "attempt %d", attempt)
		assert.LessOrEqual(t, gap, base+base/5, "attempt %d: at most a fifth of jitter", attempt)
		gaps = append(gaps, gap)
		now = next
		require.Less(t, attempt, 100)
	}
	assert.GreaterOrEqual(t, len(gaps), 10, "retried about 15 times")
	assert.LessOrEqual(t, len(gaps), 20)
	assert.LessOrEqual(t, now.Sub(created), s.Window, "within the day")
	assert.Greater(t, now.Sub(created), s.Window-s.Max-s.Max/5, "for most of the day")
}

func TestRetryable(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]bool{500: true, 502: true, 503: true, 408: true, 429: true,
		400: false, 401: false, 404: false, 410: false, 422: false} {
		assert.Equal(t, want, Retryable(status), "%d", status)
	}
}
