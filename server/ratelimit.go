package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
)

// rateLimiter counts requests per API token in fixed one-minute windows.
//
// The counts live in this process: behind a load balancer each replica
// enforces the limit on its own share of the traffic. That keeps the database
// out of the hot path; a shared limit would need a shared store.
type rateLimiter struct {
	limit int
	now   func() time.Time

	mu      sync.Mutex
	windows map[string]*window
	swept   time.Time
}

type window struct {
	start time.Time
	count int
}

func newRateLimiter(limit int, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, now: now, windows: map[string]*window{}}
}

// take counts a request of key and reports how many remain and when the
// window resets.
func (l *rateLimiter) take(key string) (ok bool, remaining int, reset time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	start := now.Truncate(time.Minute)
	if now.Sub(l.swept) > time.Minute {
		for k, w := range l.windows {
			if w.start.Before(start) {
				delete(l.windows, k)
			}
		}
		l.swept = now
	}
	w := l.windows[key]
	if w == nil || w.start.Before(start) {
		w = &window{start: start}
		l.windows[key] = w
	}
	reset = start.Add(time.Minute)
	if w.count >= l.limit {
		return false, 0, reset
	}
	w.count++
	return true, l.limit - w.count, reset
}

// rateLimit answers 429 to a token over its budget, with the headers GitHub
// uses to tell clients when to come back.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := auth.ViewerFrom(r.Context())
		if v == nil || v.Token == nil {
			next.ServeHTTP(w, r)
			return
		}
		ok, remaining, reset := s.limiter.take(v.Token.ID)
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(s.limiter.limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		if !ok {
			retry := int(time.Until(reset).Seconds()) + 1
			h.Set("Retry-After", strconv.Itoa(retry))
			s.writeError(w, r, apperr.RateLimitedf("Rate limit of %d requests per minute exceeded; retry in %d seconds", s.limiter.limit, retry))
			return
		}
		next.ServeHTTP(w, r)
	})
}
