// Package worker processes OpenAPI specs in the background: it claims a spec
// whose source is new (or whose URL is due to be fetched again), fetches a
// URL source through the importer's SSRF-safe client, parses and validates
// the document (package openapi), and stores a new version when the
// document changed.
//
// Any number of servers may run a worker against one database. A spec is
// claimed through the database (store.Claim): on PostgreSQL a SELECT ... FOR UPDATE SKIP
// LOCKED picks it, so concurrent workers pick different specs without
// waiting on each other; on SQLite, which has one writer at a time, a
// conditional UPDATE takes it only if it is still due. A claim is a lease
// (claimed_until) with a token (claimed_by): a worker that dies mid-job
// leaves a lease that ends, and another worker then takes the spec again.
// A job's result is stored only with a conditional UPDATE that requires the
// worker's token, so a worker whose lease ran out, or whose spec got a new
// source meanwhile, stores nothing.
package worker

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/openapispec"
	"github.com/bindery/bindery/ent/openapispecversion"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/importer"
	"github.com/bindery/bindery/internal/openapi"
	"github.com/bindery/bindery/internal/store"
)

// Defaults of Options.
const (
	DefaultLease        = 2 * time.Minute
	DefaultFetchTimeout = 30 * time.Second
	DefaultPoll         = 10 * time.Second
	DefaultRefetch      = time.Hour
	// DefaultMaxBytes bounds a document fetched from a URL.
	DefaultMaxBytes = 10 << 20
)

// Options configure a Worker. Zero values take the defaults, except
// Refetch, where a negative value turns periodic fetching off.
type Options struct {
	// Lease is how long a claim lasts; it must outlast a job, whose fetch
	// is bounded by FetchTimeout.
	Lease time.Duration
	// FetchTimeout bounds the fetch of a URL source: past it the job ends
	// with FETCH_TIMEOUT.
	FetchTimeout time.Duration
	// Poll is how often Run looks for work when nothing wakes it.
	Poll time.Duration
	// Refetch is how long after its last processing a URL source is
	// fetched again.
	Refetch time.Duration
	// MaxBytes bounds a document fetched from a URL.
	MaxBytes int64
	// AllowPrivate lets URL sources reach private addresses, as
	// BINDERY_IMPORT_ALLOW_PRIVATE does for imports: for tests only.
	AllowPrivate bool
	Now          func() time.Time
	Log          *slog.Logger
	// Done, when set, is called with a spec's ID each time a job's result
	// is stored.
	Done func(specID string)
}

func (o Options) withDefaults() Options {
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = DefaultFetchTimeout
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if o.Refetch == 0 {
		o.Refetch = DefaultRefetch
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return o
}

// ErrClaimLost is the end of a job whose claim another worker took, or
// that a new source of its spec cancelled: its result was not stored.
var ErrClaimLost = errors.New("the claim on the spec was lost")

// Worker processes OpenAPI specs.
type Worker struct {
	client *ent.Client
	opt    Options
	wake   chan struct{}
}

// New returns a worker over client.
func New(client *ent.Client, opt Options) *Worker {
	return &Worker{client: client, opt: opt.withDefaults(), wake: make(chan struct{}, 1)}
}

// Job is a claimed spec.
type Job struct {
	SpecID string
	// Token is the claim's, which storing the result requires.
	Token      string
	SourceURL  *string
	SourceText *string
}

// reads is the context of the worker's reads, which no viewer makes.
func reads(ctx context.Context) context.Context {
	return store.InternalRead(ctx, "the OpenAPI worker")
}

// due keeps the specs a worker may claim at now: a new source, a claim
// whose lease ended, or a URL due to be fetched again.
func due(now time.Time) predicate.OpenAPISpec {
	return openapispec.Or(
		openapispec.ProcessingStateEQ(enum.OpenAPISpecProcessingStatePending),
		openapispec.And(openapispec.ProcessingStateEQ(enum.OpenAPISpecProcessingStateProgress), openapispec.ClaimedUntilLT(now)),
		openapispec.And(openapispec.ProcessingStateEQ(enum.OpenAPISpecProcessingStateComplete), openapispec.NextFetchAtLTE(now)),
	)
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// candidates is how many due specs a claim on SQLite tries.
const candidates = 8

// Claim claims one due spec and returns its job, or nil when none is due.
func (w *Worker) Claim(ctx context.Context) (*Job, error) {
	now := w.opt.Now().UTC()
	token := newToken()
	claim := func(ctx context.Context, tx *ent.Client, id string) (bool, error) {
		n, err := tx.OpenAPISpec.Update().Where(openapispec.ID(id), due(now)).
			SetProcessingState(enum.OpenAPISpecProcessingStateProgress).SetProgress(0).
			SetClaimedBy(token).SetClaimedUntil(now.Add(w.opt.Lease)).Save(ctx)
		return n == 1, err
	}
	claimed, err := store.Claim{Candidates: candidates, Take: claim,
		Find: func(ctx context.Context, tx *ent.Client, limit int, skipLocked bool) ([]string, error) {
			q := tx.OpenAPISpec.Query().Where(due(now)).Order(openapispec.ByUpdatedAt(), openapispec.ByID()).Limit(limit)
			if skipLocked {
				q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
			}
			return q.IDs(reads(ctx))
		}}.One(ctx, w.client)
	if err != nil {
		return nil, fmt.Errorf("claiming an OpenAPI spec: %w", err)
	}
	if claimed == "" {
		return nil, nil
	}
	s, err := w.client.OpenAPISpec.Query().Where(openapispec.ID(claimed)).
		Select(openapispec.FieldSourceURL, openapispec.FieldSourceText).Only(reads(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading a claimed OpenAPI spec: %w", err)
	}
	return &Job{SpecID: claimed, Token: token, SourceURL: s.SourceURL, SourceText: s.SourceText}, nil
}

// mine keeps the spec of a job while the job's claim holds.
func mine(j *Job) predicate.OpenAPISpec {
	return openapispec.And(openapispec.ID(j.SpecID), openapispec.ClaimedBy(j.Token))
}

// progress records how far a job is; ErrClaimLost when the claim is gone.
func (w *Worker) progress(ctx context.Context, j *Job, p int) error {
	return store.WithTx(ctx, w.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.OpenAPISpec.Update().Where(mine(j)).SetProgress(p).Save(ctx)
		if err == nil && n == 0 {
			return ErrClaimLost
		}
		return err
	})
}

// outcome is what a job found.
type outcome struct {
	content []byte
	doc     *openapi.Document
	code    *enum.OpenAPISpecProcessingErrorCode
	errors  []openapi.Error
}

func failed(code enum.OpenAPISpecProcessingErrorCode, errs ...openapi.Error) outcome {
	return outcome{code: &code, errors: errs}
}

// Process runs a claimed job to its end and stores its result: a new
// version when the document parsed and differs from the last one, and the
// spec's state. It returns ErrClaimLost, storing nothing, when the claim
// is gone.
func (w *Worker) Process(ctx context.Context, j *Job) error {
	if err := w.progress(ctx, j, 10); err != nil {
		return err
	}
	var out outcome
	data := []byte(nil)
	if j.SourceURL != nil {
		body, err := importer.FetchDocument(ctx, *j.SourceURL, importer.Options{AllowPrivate: w.opt.AllowPrivate,
			MaxBytes: w.opt.MaxBytes, Timeout: w.opt.FetchTimeout})
		var ie *importer.Error
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &ie) && ie.Timeout:
			out = failed(enum.OpenAPISpecProcessingErrorCodeFETCHTIMEOUT, openapi.Error{Message: ie.Msg, Code: "timeout"})
		case errors.As(err, &ie):
			out = failed(enum.OpenAPISpecProcessingErrorCodeFETCHERROR, openapi.Error{Message: ie.Msg, Code: string(ie.Code)})
		case err != nil:
			return fmt.Errorf("fetching an OpenAPI spec: %w", err)
		default:
			data = body
		}
		if err := w.progress(ctx, j, 50); err != nil {
			return err
		}
	} else if j.SourceText != nil {
		data = []byte(*j.SourceText)
	}
	if out.code == nil {
		doc, err := openapi.Parse(ctx, data)
		var pe *openapi.ParseError
		switch {
		case errors.As(err, &pe):
			out = failed(enum.OpenAPISpecProcessingErrorCodePARSEERROR, pe.Errors...)
		case err != nil:
			return fmt.Errorf("parsing an OpenAPI spec: %w", err)
		default:
			out = outcome{content: data, doc: doc}
		}
	}
	if err := w.store(ctx, j, out); err != nil {
		return err
	}
	if w.opt.Done != nil {
		w.opt.Done(j.SpecID)
	}
	return nil
}

// store records a job's outcome in one transaction, if the claim holds.
func (w *Worker) store(ctx context.Context, j *Job, out outcome) error {
	now := w.opt.Now().UTC()
	return store.WithTx(ctx, w.client, func(ctx context.Context, tx *ent.Client) error {
		s, err := tx.OpenAPISpec.Query().Where(mine(j)).
			Select(openapispec.FieldLastVersionID, openapispec.FieldSourceURL).Only(reads(ctx))
		if ent.IsNotFound(err) {
			return ErrClaimLost
		}
		if err != nil {
			return err
		}
		u := tx.OpenAPISpec.Update().Where(mine(j)).
			SetProcessingState(enum.OpenAPISpecProcessingStateComplete).SetProgress(100).SetLastProcessedAt(now).
			ClearClaimedBy().ClearClaimedUntil()
		if s.SourceURL != nil && w.opt.Refetch > 0 {
			u.SetNextFetchAt(now.Add(w.opt.Refetch))
		} else {
			u.ClearNextFetchAt()
		}
		if out.code != nil {
			u.SetLastProcessErrorCode(*out.code).SetLastProcessedErrors(out.errors)
		} else {
			u.ClearLastProcessErrorCode().SetLastProcessedErrors([]openapi.Error{})
			sum := sha256.Sum256(out.content)
			digest := hex.EncodeToString(sum[:])
			changed := s.LastVersionID == nil
			if !changed {
				last, err := tx.OpenAPISpecVersion.Query().Where(openapispecversion.ID(*s.LastVersionID)).
					Select(openapispecversion.FieldDigest).Only(reads(ctx))
				if err != nil {
					return fmt.Errorf("reading the last version: %w", err)
				}
				changed = last.Digest != digest
			}
			if changed {
				v, err := tx.OpenAPISpecVersion.Create().SetSpecID(j.SpecID).SetNillableSourceURL(s.SourceURL).
					SetContent(string(out.content)).SetDigest(digest).SetSpecVersion(out.doc.Version).
					SetOperations(out.doc.Operations).Save(ctx)
				if err != nil {
					return fmt.Errorf("storing a version: %w", err)
				}
				u.SetLastVersionID(v.ID)
			}
		}
		n, err := u.Save(ctx)
		if err == nil && n == 0 {
			return ErrClaimLost
		}
		return err
	})
}

// Step claims one due spec and processes it; it reports whether there was
// one. A lost claim is no error: another worker or a new source took over.
func (w *Worker) Step(ctx context.Context) (bool, error) {
	j, err := w.Claim(ctx)
	if err != nil || j == nil {
		return false, err
	}
	if err := w.Process(ctx, j); err != nil && !errors.Is(err, ErrClaimLost) {
		return true, err
	}
	return true, nil
}

// Wake makes Run look for work now.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run processes specs until ctx ends: whatever is due, then again every
// Poll or when woken.
func (w *Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.opt.Poll)
	defer t.Stop()
	for {
		for ctx.Err() == nil {
			did, err := w.Step(ctx)
			if err != nil && ctx.Err() == nil {
				w.opt.Log.Error("processing an OpenAPI spec", "error", err)
				break
			}
			if !did {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.wake:
		}
	}
}
