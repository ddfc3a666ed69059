// Package worker processes OpenAPI specs in the background: it claims a spec
// whose source is new (or whose URL is due to be fetched again), fetches a
// URL source through the importer's SSRF-safe client, parses and validates
// the document (package openapi), and stores a new version when the
// document changed.
//
// Any number of servers may run a worker against one database: a spec is
// claimed under a lease (package lease), and a job's result is stored only
// while the claim holds, so a worker whose lease ran out, or whose spec got
// a new source meanwhile, stores nothing.
package worker

import (
	"context"
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
	"github.com/bindery/bindery/internal/lease"
	"github.com/bindery/bindery/internal/openapi"
	"github.com/bindery/bindery/internal/store"
)

// Defaults of Options.
const (
	DefaultFetchTimeout = 30 * time.Second
	DefaultRefetch      = time.Hour
	// DefaultMaxBytes bounds a document fetched from a URL.
	DefaultMaxBytes = 10 << 20
)

// Options configure a Worker. Zero values take the defaults, except
// Refetch, where a negative value turns periodic fetching off.
type Options struct {
	// Lease is how long a claim lasts (lease.DefaultLease); it must
	// outlast a job, whose fetch is bounded by FetchTimeout.
	Lease time.Duration
	// FetchTimeout bounds the fetch of a URL source: past it the job ends
	// with FETCH_TIMEOUT.
	FetchTimeout time.Duration
	// Poll is how often Run looks for work when nothing wakes it
	// (lease.DefaultPoll).
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
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = DefaultFetchTimeout
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
	return o
}

// ErrClaimLost is the end of a job whose claim another worker took, or
// that a new source of its spec cancelled: its result was not stored.
var ErrClaimLost = lease.ErrLost

// Worker processes OpenAPI specs. Its runner claims them (Claim, Step,
// Drain) and runs the loop (Run, Wake).
type Worker struct {
	*lease.Runner[*Job]
	client *ent.Client
	opt    Options
}

// New returns a worker over client.
func New(client *ent.Client, opt Options) *Worker {
	w := &Worker{client: client, opt: opt.withDefaults()}
	w.Runner = lease.New(client, lease.Config{What: "an OpenAPI spec", Lease: w.opt.Lease, Poll: w.opt.Poll,
		Now: w.opt.Now, Log: w.opt.Log}, lease.Jobs[*Job]{Find: find, Take: take, Load: w.load, Process: w.Process})
	return w
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

// find returns the specs due at now, the least recently updated first.
func find(ctx context.Context, tx *ent.Client, now time.Time, limit int, lock bool) ([]string, error) {
	q := tx.OpenAPISpec.Query().Where(due(now)).Order(openapispec.ByUpdatedAt(), openapispec.ByID()).Limit(limit)
	if lock {
		q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
	return q.IDs(reads(ctx))
}

// take claims a spec still due, and starts its processing.
func take(ctx context.Context, tx *ent.Client, id string, c lease.Claim) (bool, error) {
	n, err := tx.OpenAPISpec.Update().Where(openapispec.ID(id), due(c.At)).
		SetProcessingState(enum.OpenAPISpecProcessingStateProgress).SetProgress(0).
		SetClaimedBy(c.Token).SetClaimedUntil(c.Until).Save(ctx)
	return n == 1, err
}

// load reads the source of a claimed spec.
func (w *Worker) load(ctx context.Context, id string, c lease.Claim) (*Job, error) {
	s, err := w.client.OpenAPISpec.Query().Where(openapispec.ID(id)).
		Select(openapispec.FieldSourceURL, openapispec.FieldSourceText).Only(reads(ctx))
	if err != nil {
		return nil, err
	}
	return &Job{SpecID: id, Token: c.Token, SourceURL: s.SourceURL, SourceText: s.SourceText}, nil
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
