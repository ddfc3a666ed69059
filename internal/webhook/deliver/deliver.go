// Package deliver sends webhook deliveries: it claims a due delivery from
// the outbox (the webhook_deliveries rows the application layer writes in
// the transaction of each change), POSTs its body, signed (package
// webhook), to its endpoint through the SSRF-safe dialer, and records the
// attempt.
//
// Any number of servers may run a worker against one database: a delivery
// is claimed under a lease (package lease), and an attempt is recorded
// only while the claim holds. So a delivery is sent once unless a worker
// dies or outlives its lease between sending and recording, the
// at-least-once case every receiver must handle: the event ID repeats, and
// receivers deduplicate on it.
//
// Retries: network errors, timeouts, 5xx, 408 and 429 are retried on
// webhook.Schedule (exponential backoff with jitter, for about a day);
// other statuses end the delivery as failed. After DisableAfter deliveries
// in a row failed for good, the endpoint is disabled with a reason its
// admins read (disabledReason); a success resets the count.
package deliver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/importer"
	"github.com/bindery/bindery/internal/lease"
	"github.com/bindery/bindery/internal/secrets"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/internal/webhook"
)

// Defaults of Options.
const (
	DefaultTimeout  = 10 * time.Second
	DefaultPoll     = 5 * time.Second
	DefaultMaxBytes = 64 << 10
	// DefaultDisableAfter is how many deliveries in a row must fail for
	// good before an endpoint is disabled.
	DefaultDisableAfter = 5
	DefaultRetention    = 30 * 24 * time.Hour
)

// Options configure a Worker. Zero values take the defaults.
type Options struct {
	// Lease is how long a claim lasts (lease.DefaultLease); it must
	// outlast an attempt, which Timeout bounds.
	Lease time.Duration
	// Timeout bounds one request, the response included.
	Timeout time.Duration
	// Poll is how often Run looks for work when nothing wakes it.
	Poll time.Duration
	// MaxBytes bounds what is read of a response.
	MaxBytes int64
	// DisableAfter is how many deliveries in a row must fail for good
	// before the endpoint is disabled.
	DisableAfter int
	// Retention is how long deliveries are kept; Run prunes older ones.
	Retention time.Duration
	// Schedule is when failed attempts are retried (webhook.DefaultSchedule).
	Schedule webhook.Schedule
	// AllowPrivate lets requests reach private and loopback addresses, as
	// BINDERY_IMPORT_ALLOW_PRIVATE does for imports: for tests only.
	AllowPrivate bool
	// Box opens the endpoints' signing secrets.
	Box *secrets.Box
	Now func() time.Time
	Log *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.DisableAfter <= 0 {
		o.DisableAfter = DefaultDisableAfter
	}
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.Schedule == (webhook.Schedule{}) {
		o.Schedule = webhook.DefaultSchedule
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return o
}

// ErrClaimLost is the end of an attempt whose claim another worker took:
// its result was not recorded.
var ErrClaimLost = lease.ErrLost

// Worker sends webhook deliveries. Its runner claims them (Claim, Step,
// Drain) and runs the loop (Run, Wake); at every poll it prunes old
// deliveries.
type Worker struct {
	*lease.Runner[*Job]
	client *ent.Client
	opt    Options
	http   *http.Client
}

// New returns a worker over client.
func New(client *ent.Client, opt Options) *Worker {
	opt = opt.withDefaults()
	transport := &http.Transport{
		// No proxy: a proxy would make the connection the dialer checks.
		Proxy:                  nil,
		DialContext:            importer.SafeDialer(opt.AllowPrivate).DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    opt.Timeout,
		ResponseHeaderTimeout:  opt.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           10,
		IdleConnTimeout:        30 * time.Second,
	}
	w := &Worker{client: client, opt: opt, http: &http.Client{
		Transport: transport, Timeout: opt.Timeout,
		// A redirect is not followed: the endpoint registered is the one
		// that answers.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	w.Runner = lease.New(client, lease.Config{What: "a webhook delivery", Lease: opt.Lease, Poll: opt.Poll,
		Now: opt.Now, Log: opt.Log}, lease.Jobs[*Job]{Find: find, Take: take, Load: w.load, Process: w.Process, Tidy: w.tidy})
	return w
}

// Job is a claimed delivery.
type Job struct {
	Delivery *ent.WebhookDelivery
	// Token is the claim's, which recording the attempt requires.
	Token string
}

func reads(ctx context.Context) context.Context { return store.InternalRead(ctx, "the webhook worker") }

// due keeps the deliveries a worker may claim at now: pending, due, not
// under a live lease, to an active endpoint.
func due(now time.Time) predicate.WebhookDelivery {
	return webhookdelivery.And(
		webhookdelivery.StateEQ(enum.WebhookDeliveryStatePending),
		webhookdelivery.NextAttemptAtLTE(now),
		webhookdelivery.Or(webhookdelivery.ClaimedUntilIsNil(), webhookdelivery.ClaimedUntilLT(now)),
		webhookdelivery.HasEndpointWith(webhookendpoint.Active(true)),
	)
}

// find returns the deliveries due at now, the earliest due first.
func find(ctx context.Context, tx *ent.Client, now time.Time, limit int, lock bool) ([]string, error) {
	q := tx.WebhookDelivery.Query().Where(due(now)).Order(webhookdelivery.ByNextAttemptAt(), webhookdelivery.ByID()).Limit(limit)
	if lock {
		q.ForUpdate(sql.WithLockAction(sql.SkipLocked), sql.WithLockTables(webhookdelivery.Table))
	}
	return q.IDs(reads(ctx))
}

// take claims a delivery still due.
func take(ctx context.Context, tx *ent.Client, id string, c lease.Claim) (bool, error) {
	n, err := tx.WebhookDelivery.Update().Where(webhookdelivery.ID(id), due(c.At)).
		SetClaimedBy(c.Token).SetClaimedUntil(c.Until).Save(ctx)
	return n == 1, err
}

// load reads a claimed delivery with its endpoint.
func (w *Worker) load(ctx context.Context, id string, c lease.Claim) (*Job, error) {
	d, err := w.client.WebhookDelivery.Query().Where(webhookdelivery.ID(id)).WithEndpoint().Only(reads(ctx))
	if err != nil {
		return nil, err
	}
	return &Job{Delivery: d, Token: c.Token}, nil
}

// send makes one attempt at a delivery and returns its record and whether
// it succeeded or may be retried.
func (w *Worker) send(ctx context.Context, j *Job) (a webhook.Attempt, ok, retry bool) {
	d, ep := j.Delivery, j.Delivery.Edges.Endpoint
	now := w.opt.Now().UTC()
	a = webhook.Attempt{Number: len(d.Attempts) + 1, At: now.Truncate(time.Millisecond)}
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		a.Error = &msg
	}
	if w.opt.Box == nil {
		fail("Bindery has no secret key (BINDERY_SECRET_KEY) to open the signing secret")
		return a, false, true
	}
	secret, err := w.opt.Box.Open(ep.Secret, secrets.WebhookAD(ep.ID))
	if err != nil {
		fail("the signing secret does not open with this server's key")
		return a, false, true
	}
	body := []byte(d.Payload)
	headers := []webhook.Header{
		{Name: "Content-Type", Value: "application/json"},
		{Name: "User-Agent", Value: "Bindery-Webhooks/1.0"},
		{Name: "Bindery-Event-Id", Value: d.EventID},
		{Name: "Bindery-Event-Type", Value: string(d.EventType)},
		{Name: "Bindery-Delivery-Id", Value: d.ID},
		{Name: webhook.SignatureHeader, Value: webhook.Sign(secret, now, body)},
	}
	a.RequestHeaders = headers
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		fail("the endpoint's URL is not valid")
		return a, false, false
	}
	for _, h := range headers {
		req.Header.Set(h.Name, h.Value)
	}
	start := time.Now()
	resp, err := w.http.Do(req)
	if err != nil {
		a.LatencyMs = int(time.Since(start).Milliseconds())
		fail("%s", describe(err))
		return a, false, true
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, w.opt.MaxBytes))
	a.LatencyMs = int(time.Since(start).Milliseconds())
	status := resp.StatusCode
	a.ResponseStatus = &status
	if n := min(len(data), webhook.ResponseLogBytes); n > 0 {
		s := string(data[:n])
		a.ResponseBody = &s
	}
	switch {
	case err != nil:
		fail("reading the response: %s", describe(err))
		return a, false, true
	case status >= 200 && status <= 299:
		return a, true, false
	default:
		fail("the endpoint answered HTTP %d", status)
		return a, false, webhook.Retryable(status)
	}
}

// describe says what went wrong with a request, without the URL (which
// the log shows beside it).
func describe(err error) string {
	var ue interface{ Timeout() bool }
	switch {
	case errors.As(err, &ue) && ue.Timeout():
		return "the request timed out"
	case errors.Is(err, context.DeadlineExceeded):
		return "the request timed out"
	}
	var u interface{ Unwrap() error }
	if errors.As(err, &u) {
		if inner := u.Unwrap(); inner != nil {
			return inner.Error()
		}
	}
	return err.Error()
}

// Process makes one attempt at a claimed delivery and records it. It
// returns ErrClaimLost, recording nothing, when the claim is gone.
func (w *Worker) Process(ctx context.Context, j *Job) error {
	a, ok, retry := w.send(ctx, j)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return w.record(ctx, j, a, ok, retry)
}

// record stores an attempt in one transaction, if the claim holds: the
// delivery's new state, and the endpoint's count of failures in a row,
// which disables it at DisableAfter.
func (w *Worker) record(ctx context.Context, j *Job, a webhook.Attempt, ok, retry bool) error {
	d := j.Delivery
	now := w.opt.Now().UTC()
	return store.WithTx(ctx, w.client, func(ctx context.Context, tx *ent.Client) error {
		u := tx.WebhookDelivery.Update().Where(webhookdelivery.ID(d.ID), webhookdelivery.ClaimedBy(j.Token)).
			SetAttempts(append(d.Attempts, a)).ClearClaimedBy().ClearClaimedUntil()
		final := true
		switch {
		case ok:
			u.SetState(enum.WebhookDeliveryStateSucceeded).ClearNextAttemptAt()
		case retry:
			if next, more := w.opt.Schedule.Next(a.Number, d.CreatedAt, now); more {
				u.SetNextAttemptAt(next)
				final = false
				break
			}
			fallthrough
		default:
			u.SetState(enum.WebhookDeliveryStateFailed).ClearNextAttemptAt()
		}
		n, err := u.Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrClaimLost
		}
		if !final {
			return nil
		}
		if ok {
			return tx.WebhookEndpoint.UpdateOneID(d.EndpointID).SetFailures(0).Exec(ctx)
		}
		ep, err := tx.WebhookEndpoint.UpdateOneID(d.EndpointID).AddFailures(1).Save(ctx)
		if err != nil || ep.Failures < w.opt.DisableAfter || !ep.Active {
			return err
		}
		reason := fmt.Sprintf("Disabled after %d deliveries in a row failed; the last: %s", ep.Failures, deref(a.Error))
		return tx.WebhookEndpoint.UpdateOneID(ep.ID).SetActive(false).SetDisabledReason(reason).SetDisabledAt(now).Exec(ctx)
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Prune deletes the deliveries older than the retention that are no longer
// pending, and returns how many.
func (w *Worker) Prune(ctx context.Context) (int, error) {
	cutoff := w.opt.Now().UTC().Add(-w.opt.Retention)
	var n int
	err := store.WithTx(ctx, w.client, func(ctx context.Context, tx *ent.Client) (err error) {
		n, err = tx.WebhookDelivery.Delete().Where(webhookdelivery.CreatedAtLT(cutoff),
			webhookdelivery.StateNEQ(enum.WebhookDeliveryStatePending)).Exec(ctx)
		return err
	})
	return n, err
}

// tidy prunes old deliveries, at every poll of Run.
func (w *Worker) tidy(ctx context.Context) {
	if _, err := w.Prune(ctx); err != nil && ctx.Err() == nil {
		w.opt.Log.Error("pruning webhook deliveries", "error", err)
	}
}
