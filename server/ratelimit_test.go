package server

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SetRateLimitClock gives a server's rate limiter a clock, so that the HTTP
// tests in server_test can check the budget against a clock that only moves
// when they say.
func SetRateLimitClock(s *Server, now func() time.Time) {
	s.limiter.mu.Lock()
	defer s.limiter.mu.Unlock()
	s.limiter.now = now
}

// FrozenClock is a clock that moves only when told.
type FrozenClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewFrozenClock returns a clock stopped at t.
func NewFrozenClock(t time.Time) *FrozenClock { return &FrozenClock{t: t} }

// Now returns the clock's time.
func (c *FrozenClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward.
func (c *FrozenClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (l *rateLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

var start = time.Unix(1_700_000_000, 0)

func TestBucketRefillsSmoothly(t *testing.T) {
	t.Parallel()
	clock := NewFrozenClock(start)
	l := newRateLimiter(60, clock.Now) // a point a second

	// A full bucket pays for a minute's requests at once.
	for i := 59; i >= 0; i-- {
		ok, q := l.spend("usr_a", 1)
		require.True(t, ok)
		assert.Equal(t, i, q.remaining())
	}
	ok, q := l.spend("usr_a", 1)
	assert.False(t, ok, "the bucket is empty")
	assert.Equal(t, 0, q.remaining())
	assert.Equal(t, 1, q.retryAfter(1))
	assert.Equal(t, start.Add(time.Minute), q.reset(), "an empty bucket is full a minute later")

	// Half a second later there is no whole point yet; a second later there
	// is one, not a new minute's worth.
	clock.Advance(500 * time.Millisecond)
	ok, q = l.spend("usr_a", 1)
	assert.False(t, ok)
	assert.Equal(t, 1, q.retryAfter(1), "Retry-After rounds up")
	clock.Advance(500 * time.Millisecond)
	ok, _ = l.spend("usr_a", 1)
	assert.True(t, ok)
	ok, _ = l.spend("usr_a", 1)
	assert.False(t, ok)

	// Ten seconds buy ten points.
	clock.Advance(10 * time.Second)
	ok, q = l.spend("usr_a", 10)
	assert.True(t, ok)
	assert.Equal(t, 0, q.remaining())

	// A charge the bucket cannot pay takes nothing.
	clock.Advance(5 * time.Second)
	ok, q = l.spend("usr_a", 6)
	assert.False(t, ok)
	assert.Equal(t, 5, q.remaining())
	assert.Equal(t, 1, q.retryAfter(6))
	assert.Equal(t, start.Add(71*time.Second), q.reset())

	// Another user has a budget of their own.
	ok, q = l.spend("usr_b", 1)
	assert.True(t, ok)
	assert.Equal(t, 59, q.remaining())
}

func TestBucketHeaders(t *testing.T) {
	t.Parallel()
	clock := NewFrozenClock(start)
	l := newRateLimiter(7, clock.Now)
	_, q := l.spend("usr_a", 3)
	h := http.Header{}
	q.setHeaders(h)
	assert.Equal(t, "7", h.Get("X-RateLimit-Limit"))
	assert.Equal(t, "4", h.Get("X-RateLimit-Remaining"))
	// 3 points refill in 3/7 of a minute, 25.7 s: rounded up.
	assert.Equal(t, strconv.FormatInt(start.Unix()+26, 10), h.Get("X-RateLimit-Reset"))
}

// Buckets nobody spent from for a minute are full, so they are forgotten:
// the limiter holds the users of the last two minutes, not every user since
// the start.
func TestIdleBucketsAreForgotten(t *testing.T) {
	t.Parallel()
	clock := NewFrozenClock(start)
	l := newRateLimiter(10, clock.Now)
	for _, u := range []string{"usr_a", "usr_b", "usr_c"} {
		ok, _ := l.spend(u, 10)
		require.True(t, ok)
	}
	clock.Advance(30 * time.Second)
	l.spend("usr_d", 1)
	assert.Equal(t, 4, l.size(), "nothing is idle for a minute yet")

	clock.Advance(30 * time.Second)
	l.spend("usr_e", 1)
	assert.Equal(t, 2, l.size(), "a, b and c are idle for a minute; d and e are not")

	// A forgotten user starts on a full bucket, as they would have had.
	ok, q := l.spend("usr_a", 1)
	assert.True(t, ok)
	assert.Equal(t, 9, q.remaining())

	// Many users over time: the map stays at the users of the last minutes.
	for i := range 1000 {
		clock.Advance(time.Second)
		l.spend("usr_"+strconv.Itoa(i), 1)
	}
	assert.LessOrEqual(t, l.size(), 120)
}

func TestGraphQLCost(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ complexity, limit, want int }{
		{0, 1200, 1},
		{2, 1200, 1},
		{99, 1200, 1},
		{100, 1200, 2},
		{4002, 1200, 41},
		{100000, 1200, 1001},
		// Never more than a full bucket: a query within the complexity
		// limit always runs on a full bucket.
		{100000, 600, 600},
		{500, 3, 3},
	} {
		assert.Equal(t, c.want, graphqlCost(c.complexity, c.limit), "complexity %d, limit %d", c.complexity, c.limit)
	}
}
