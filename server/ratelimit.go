package server

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"golang.org/x/time/rate"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
)

// The rate limit is a token bucket per user (golang.org/x/time/rate): it
// holds up to limit points, the configured requests per minute, and refills
// continuously at limit points per minute, so an empty bucket is full again
// after one minute. A /v1 request spends 1 point; a GraphQL operation spends
// graphqlCost of its complexity. Every token of a user draws on the same
// bucket, so minting more tokens buys no more requests.
//
// The buckets live in this process: behind a load balancer each replica
// enforces the limit on its own share of the traffic. That keeps the database
// out of the hot path; a shared limit would need a shared store.

// complexityPerPoint is how much GraphQL complexity one point of the budget
// buys beyond the first. GitHub's GraphQL API charges the same way (a query
// costs its node count divided by 100, at least 1 point): a query of a few
// fields costs what a REST call costs, and one that may load 1,000 rows of
// several fields costs about what it would take to page them through /v1.
const complexityPerPoint = 100

// graphqlCost is the points an operation of the complexity spends:
// 1 + complexity/100, but never more than the bucket holds, so that an
// operation within the complexity limit always runs on a full bucket.
func graphqlCost(complexity, limit int) int {
	return min(1+max(complexity, 0)/complexityPerPoint, limit)
}

// rateLimiter keeps one token bucket per user, or per any key: sign-in
// limits its requests per address and per client with buckets that refill
// over minutes (see signin.Options).
type rateLimiter struct {
	limit int
	// period is how long an empty bucket takes to fill.
	period time.Duration
	now    func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

// bucket is a user's budget and when they last spent from it.
type bucket struct {
	lim  *rate.Limiter
	used time.Time
}

func newRateLimiter(limit int, now func() time.Time) *rateLimiter {
	return newRateLimiterPer(limit, time.Minute, now)
}

// newRateLimiterPer returns a limiter of limit points a key, which fill
// again over period.
func newRateLimiterPer(limit int, period time.Duration, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, period: period, now: now, buckets: map[string]*bucket{}}
}

// allow spends a point of key's bucket if it holds one.
func (l *rateLimiter) allow(key string) bool {
	ok, _ := l.spend(key, 1)
	return ok
}

// quota is a bucket's state after a charge.
type quota struct {
	limit  int
	period time.Duration
	tokens float64
	at     time.Time
}

// remaining is the whole points left.
func (q quota) remaining() int { return int(math.Floor(q.tokens)) }

// wait is how long until the bucket holds n points.
func (q quota) wait(n int) time.Duration {
	if q.tokens >= float64(n) {
		return 0
	}
	return time.Duration((float64(n) - q.tokens) / float64(q.limit) * float64(q.period))
}

// reset is when the bucket is full again.
func (q quota) reset() time.Time { return q.at.Add(q.wait(q.limit)) }

// retryAfter is the whole seconds, at least 1, until the bucket holds n
// points.
func (q quota) retryAfter(n int) int {
	return max(1, int(math.Ceil(q.wait(n).Seconds())))
}

// spend takes n points from the user's bucket if it holds them, and reports
// whether it did and the bucket's state after.
func (l *rateLimiter) spend(user string, n int) (bool, quota) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	b := l.buckets[user]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(float64(l.limit)/l.period.Seconds()), l.limit)}
		l.buckets[user] = b
	}
	ok := b.lim.AllowN(now, n)
	if ok {
		b.used = now
	}
	return ok, quota{limit: l.limit, period: l.period, tokens: b.lim.TokensAt(now), at: now}
}

// sweep forgets, once per refill period, the buckets nobody spent from for
// a whole period. Such a bucket is full, the same as a new one, so
// forgetting it changes nothing but the memory: the map holds the users
// active in the last two minutes at most.
func (l *rateLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < l.period {
		return
	}
	for user, b := range l.buckets {
		if now.Sub(b.used) >= l.period {
			delete(l.buckets, user)
		}
	}
	l.swept = now
}

// setHeaders writes the budget the way GitHub does:
//   - X-RateLimit-Limit: the points per minute, which is also what a full
//     bucket holds;
//   - X-RateLimit-Remaining: the whole points left after this request;
//   - X-RateLimit-Reset: the Unix time, in seconds rounded up, at which the
//     bucket is full again if nothing more is spent.
func (q quota) setHeaders(h http.Header) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(q.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(q.remaining()))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(q.reset().Add(time.Second-1).Unix(), 10))
}

// rateLimit spends 1 point of the viewer's budget on every API request and
// answers 429 with Retry-After, the seconds until the point is there, to a
// viewer out of points. A GraphQL operation spends the rest of its cost in
// graphqlCharge, once gqlgen has computed its complexity.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := auth.ViewerFrom(r.Context())
		if v == nil || v.User == nil {
			next.ServeHTTP(w, r)
			return
		}
		ok, q := s.limiter.spend(v.User.ID, 1)
		q.setHeaders(w.Header())
		if !ok {
			retry := q.retryAfter(1)
			w.Header().Set("Retry-After", strconv.Itoa(retry))
			s.writeError(w, r, apperr.RateLimitedf("Rate limit of %d requests per minute exceeded; retry in %d seconds", q.limit, retry))
			return
		}
		// A subscription costs its one point when it starts.
		if r.URL.Path != "/graphql" || isSubscription(r) {
			next.ServeHTTP(w, r)
			return
		}
		c := &charge{limiter: s.limiter, user: v.User.ID, header: w.Header()}
		cw := &chargeWriter{ResponseWriter: w, charge: c}
		next.ServeHTTP(cw, r.WithContext(context.WithValue(r.Context(), chargeKey{}, c)))
		if c.refused != nil {
			// gqlgen answered the refusal with 200 or 422 and its own body,
			// discarded by chargeWriter; the response is the 429 every
			// refused request gets.
			s.writeError(w, r, c.refused)
		}
	})
}

// charge is what a GraphQL request carries from rateLimit to graphqlCharge.
type charge struct {
	limiter *rateLimiter
	user    string
	header  http.Header
	// refused is set when the operation costs more than the budget left.
	refused error
}

type chargeKey struct{}

// chargeWriter drops what gqlgen writes for an operation refused by
// graphqlCharge, so that rateLimit can answer 429.
type chargeWriter struct {
	http.ResponseWriter
	charge *charge
}

func (w *chargeWriter) WriteHeader(status int) {
	if w.charge.refused == nil {
		w.ResponseWriter.WriteHeader(status)
	}
}

func (w *chargeWriter) Write(b []byte) (int, error) {
	if w.charge.refused != nil {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *chargeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// graphqlCharge spends the cost of a GraphQL operation beyond the 1 point
// rateLimit took, before the operation runs, and refuses an operation the
// budget cannot pay for. It must be registered after extension.ComplexityLimit,
// whose computed complexity it reads (it computes it when it is not there).
// A refused operation keeps the 1 point it was admitted with: it was parsed,
// validated and weighed.
type graphqlCharge struct {
	es graphql.ExecutableSchema
	// schemaWeight is the complexity of one __schema field (see
	// introspectionWeight).
	schemaWeight int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = &graphqlCharge{}

func (*graphqlCharge) ExtensionName() string { return "RateLimitCharge" }

func (g *graphqlCharge) Validate(es graphql.ExecutableSchema) error {
	g.es = es
	for _, t := range es.Schema().Types {
		g.schemaWeight += 1 + len(t.Fields) + len(t.EnumValues)
		for _, f := range t.Fields {
			g.schemaWeight += len(f.Arguments)
		}
	}
	return nil
}

// introspectionWeight is the complexity of an operation's __schema fields,
// which gqlgen's complexity leaves out: one __schema { types { fields ... } }
// writes the whole schema (hundreds of kilobytes of JSON for Bindery's), so
// each weighs one per type, field, argument and enum value the schema has.
// __type(name:) answers one type and keeps gqlgen's weight.
func (g *graphqlCharge) introspectionWeight(set ast.SelectionSet) int {
	w := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" {
				w += g.schemaWeight
			}
		case *ast.InlineFragment:
			w += g.introspectionWeight(s.SelectionSet)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				w += g.introspectionWeight(s.Definition.SelectionSet)
			}
		}
	}
	return w
}

func (g *graphqlCharge) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	c, _ := ctx.Value(chargeKey{}).(*charge)
	if c == nil || oc.Operation == nil {
		return nil
	}
	var weight int
	if stats, ok := oc.Stats.GetExtension(extension.ComplexityLimit{}.ExtensionName()).(*extension.ComplexityStats); ok {
		weight = stats.Complexity
	} else {
		weight = complexity.Calculate(ctx, g.es, oc.Operation, oc.Variables)
	}
	weight += g.introspectionWeight(oc.Operation.SelectionSet)
	cost := graphqlCost(weight, c.limiter.limit)
	if cost <= 1 {
		return nil
	}
	ok, q := c.limiter.spend(c.user, cost-1)
	q.setHeaders(c.header)
	if ok {
		return nil
	}
	// A retry spends 1 point on admission and cost-1 here.
	retry := q.retryAfter(cost)
	c.header.Set("Retry-After", strconv.Itoa(retry))
	c.refused = apperr.RateLimitedf("This operation costs %d points (complexity %d) and %d of the %d per minute are left; retry in %d seconds",
		cost, weight, q.remaining(), q.limit, retry)
	return &gqlerror.Error{Message: c.refused.Error(), Extensions: map[string]any{"code": apperr.RateLimited.Code()}}
}
