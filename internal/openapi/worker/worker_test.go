package worker_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/openapispec"
	"github.com/bindery/bindery/ent/openapispecversion"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/openapi/openapitest"
	"github.com/bindery/bindery/internal/openapi/worker"
	"github.com/bindery/bindery/server/servertest"
)

// Every test drives the worker's steps itself, with the test server's
// clock: nothing waits on time to pass, and the test server runs no worker
// of its own (servertest does not call Run).

func newWorker(e *servertest.Env, opt worker.Options) *worker.Worker {
	opt.AllowPrivate = true
	opt.Now = e.Clock.Now
	if opt.FetchTimeout == 0 {
		opt.FetchTimeout = 5 * time.Second
	}
	return worker.New(e.DB.Client, opt)
}

// drain runs steps until nothing is due, and returns how many jobs ran.
func drain(t *testing.T, w *worker.Worker) int {
	t.Helper()
	n := 0
	for {
		did, err := w.Step(context.Background())
		require.NoError(t, err)
		if !did {
			return n
		}
		n++
		require.Less(t, n, 1000, "the worker does not run out of work")
	}
}

func spec(t *testing.T, e *servertest.Env, id string) *ent.OpenAPISpec {
	t.Helper()
	s, err := e.Client.OpenAPISpec.Get(context.Background(), id)
	require.NoError(t, err)
	return s
}

func versions(t *testing.T, e *servertest.Env, id string) []*ent.OpenAPISpecVersion {
	t.Helper()
	vs, err := e.Client.OpenAPISpecVersion.Query().Where(openapispecversion.SpecID(id)).All(context.Background())
	require.NoError(t, err)
	return vs
}

func create(t *testing.T, e *servertest.Env, slug string, source map[string]any) string {
	t.Helper()
	res := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/openapi", e.OwnerToken, map[string]any{"slug": slug, "source": source},
		http.StatusCreated)
	assert.Equal(t, "pending", res["processingState"], "a create answers before processing")
	return res["id"].(string)
}

// A 3.0, a 3.1 and a Swagger 2.0 document, by text and by URL, are
// processed into versions with their operations; an unparsable document,
// an unreachable URL and a URL that does not answer in time end with their
// error codes.
func TestProcessing(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v30.json":
			_, _ = w.Write([]byte(openapitest.V30))
		case "/v31.yaml":
			_, _ = w.Write([]byte(openapitest.V31))
		case "/slow":
			<-r.Context().Done() // never answers: the fetch times out
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(docs.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	unreachable := closed.URL + "/spec.json"
	closed.Close()

	ids := map[string]string{
		"v30-text":    create(t, e, "v30-text", map[string]any{"text": openapitest.V30}),
		"v31-text":    create(t, e, "v31-text", map[string]any{"text": openapitest.V31}),
		"v20-text":    create(t, e, "v20-text", map[string]any{"text": openapitest.V20}),
		"v30-url":     create(t, e, "v30-url", map[string]any{"url": docs.URL + "/v30.json"}),
		"v31-url":     create(t, e, "v31-url", map[string]any{"url": docs.URL + "/v31.yaml"}),
		"bad-text":    create(t, e, "bad-text", map[string]any{"text": openapitest.Unparsable}),
		"missing-url": create(t, e, "missing-url", map[string]any{"url": docs.URL + "/nothing-here"}),
		"unreachable": create(t, e, "unreachable", map[string]any{"url": unreachable}),
		"slow":        create(t, e, "slow", map[string]any{"url": docs.URL + "/slow"}),
	}
	w := newWorker(e, worker.Options{FetchTimeout: 300 * time.Millisecond})
	assert.Equal(t, len(ids), drain(t, w))

	for slug, want := range map[string]struct {
		code    *enum.OpenAPISpecProcessingErrorCode
		version string
		ops     int
	}{
		"v30-text":    {nil, "3.0.3", 3},
		"v31-text":    {nil, "3.1.0", 1},
		"v20-text":    {nil, "2.0", 2},
		"v30-url":     {nil, "3.0.3", 3},
		"v31-url":     {nil, "3.1.0", 1},
		"bad-text":    {ptr(enum.OpenAPISpecProcessingErrorCodePARSEERROR), "", 0},
		"missing-url": {ptr(enum.OpenAPISpecProcessingErrorCodeFETCHERROR), "", 0},
		"unreachable": {ptr(enum.OpenAPISpecProcessingErrorCodeFETCHERROR), "", 0},
		"slow":        {ptr(enum.OpenAPISpecProcessingErrorCodeFETCHTIMEOUT), "", 0},
	} {
		s := spec(t, e, ids[slug])
		assert.Equal(t, enum.OpenAPISpecProcessingStateComplete, s.ProcessingState, slug)
		assert.Equal(t, 100, s.Progress, slug)
		assert.NotNil(t, s.LastProcessedAt, slug)
		assert.Nil(t, s.ClaimedBy, slug)
		assert.Equal(t, want.code, s.LastProcessErrorCode, slug)
		vs := versions(t, e, s.ID)
		if want.code != nil {
			assert.Empty(t, vs, slug)
			assert.Nil(t, s.LastVersionID, slug)
			if assert.NotEmpty(t, s.LastProcessedErrors, slug) {
				assert.NotEmpty(t, s.LastProcessedErrors[0].Message, slug)
			}
			continue
		}
		assert.Empty(t, s.LastProcessedErrors, slug)
		require.Len(t, vs, 1, slug)
		assert.Equal(t, vs[0].ID, *s.LastVersionID, slug)
		assert.Equal(t, want.version, vs[0].SpecVersion, slug)
		assert.Len(t, vs[0].Operations, want.ops, slug)
		assert.Equal(t, s.SourceURL, vs[0].SourceURL, slug)
	}
	assert.Equal(t, 0, drain(t, w), "nothing is due until a URL is to be fetched again")

	// /v1 shows the outcome.
	got := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/openapi/slow", e.OwnerToken, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"processingState": "complete", "lastProcessErrorCode": "FETCH_TIMEOUT"}, got)
	got = e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/openapi/v30-url", e.OwnerToken, nil, http.StatusOK)
	servertest.AssertContains(t, map[string]any{"processingState": "complete", "lastVersion": *spec(t, e, ids["v30-url"]).LastVersionID,
		"sourceURL": docs.URL + "/v30.json"}, got)
	assert.NotContains(t, got, "lastProcessErrorCode")
}

func ptr[T any](v T) *T { return &v }

// A URL source is fetched again once the refetch interval has passed, and
// yields a new version only when the document changed.
func TestRefetch(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	var doc atomic.Value
	doc.Store(openapitest.V30)
	var fetches atomic.Int32
	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		_, _ = w.Write([]byte(doc.Load().(string)))
	}))
	t.Cleanup(src.Close)
	id := create(t, e, "pets", map[string]any{"url": src.URL})
	w := newWorker(e, worker.Options{Refetch: time.Hour})
	require.Equal(t, 1, drain(t, w))
	first := spec(t, e, id)
	require.Len(t, versions(t, e, id), 1)

	e.Clock.Advance(59 * time.Minute)
	assert.Equal(t, 0, drain(t, w), "not due yet")
	e.Clock.Advance(2 * time.Minute)
	assert.Equal(t, 1, drain(t, w), "due")
	again := spec(t, e, id)
	assert.Len(t, versions(t, e, id), 1, "the same document: no new version")
	assert.Equal(t, first.LastVersionID, again.LastVersionID)
	assert.True(t, again.LastProcessedAt.After(*first.LastProcessedAt))

	doc.Store(openapitest.V31)
	e.Clock.Advance(61 * time.Minute)
	assert.Equal(t, 1, drain(t, w))
	vs := versions(t, e, id)
	require.Len(t, vs, 2, "a changed document: a new version")
	last := spec(t, e, id)
	assert.NotEqual(t, first.LastVersionID, last.LastVersionID)
	assert.EqualValues(t, 3, fetches.Load())

	// A text source is never fetched again.
	text := create(t, e, "text", map[string]any{"text": openapitest.V20})
	require.Equal(t, 1, drain(t, w))
	assert.Nil(t, spec(t, e, text).NextFetchAt)
	e.Clock.Advance(10 * time.Hour)
	assert.Equal(t, 1, drain(t, w), "the URL spec only")
}

// A worker that dies mid-job loses nothing: its lease ends and another
// worker processes the spec; the dead worker's late result is not stored.
func TestExpiredClaimIsRetaken(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	id := create(t, e, "pets", map[string]any{"text": openapitest.V30})
	dead := newWorker(e, worker.Options{Lease: time.Minute})
	alive := newWorker(e, worker.Options{Lease: time.Minute})
	job, err := dead.Claim(context.Background())
	require.NoError(t, err)
	require.NotNil(t, job)
	assert.Equal(t, id, job.SpecID)
	assert.Equal(t, enum.OpenAPISpecProcessingStateProgress, spec(t, e, id).ProcessingState)
	assert.Equal(t, 0, drain(t, alive), "the claim holds")

	e.Clock.Advance(61 * time.Second)
	assert.Equal(t, 1, drain(t, alive), "the lease ended: taken again")
	s := spec(t, e, id)
	assert.Equal(t, enum.OpenAPISpecProcessingStateComplete, s.ProcessingState)
	require.Len(t, versions(t, e, id), 1)

	assert.ErrorIs(t, dead.Process(context.Background(), job), worker.ErrClaimLost)
	assert.Len(t, versions(t, e, id), 1, "the late result is not stored")
	assert.Equal(t, s.LastProcessedAt, spec(t, e, id).LastProcessedAt)
}

// A new source cancels the job under way: its result is not stored, and
// the new source is processed.
func TestNewSourceCancelsTheJob(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	id := create(t, e, "pets", map[string]any{"text": openapitest.V30})
	w := newWorker(e, worker.Options{})
	job, err := w.Claim(context.Background())
	require.NoError(t, err)
	res := e.MustDo(http.MethodPut, "/v1/orgs/"+e.Org.ID+"/openapi/pets", e.OwnerToken,
		map[string]any{"source": map[string]any{"text": openapitest.V20}}, http.StatusOK)
	assert.Equal(t, "pending", res["processingState"])
	assert.ErrorIs(t, w.Process(context.Background(), job), worker.ErrClaimLost)
	assert.Empty(t, versions(t, e, id))
	require.Equal(t, 1, drain(t, w))
	vs := versions(t, e, id)
	require.Len(t, vs, 1)
	assert.Equal(t, "2.0", vs[0].SpecVersion)
}

// Two workers sharing one database process 50 specs: each exactly once.
func TestTwoWorkersProcessEachSpecOnce(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	const n = 50
	ctx := context.Background()
	for i := range n {
		require.NoError(t, e.Client.OpenAPISpec.Create().SetOrganizationID(e.Org.ID).SetSlug("spec-"+string(rune('a'+i/26))+string(rune('a'+i%26))).
			SetSourceText(openapitest.V30).Exec(ctx))
	}
	var mu sync.Mutex
	done := map[string]int{}
	record := func(id string) {
		mu.Lock()
		defer mu.Unlock()
		done[id]++
	}
	// Each worker has its own connections' worth of contention: both run
	// at once until neither finds work.
	workers := []*worker.Worker{newWorker(e, worker.Options{Done: record}), newWorker(e, worker.Options{Done: record})}
	var wg sync.WaitGroup
	jobs := make([]int, len(workers))
	for i, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				did, err := w.Step(ctx)
				if !assert.NoError(t, err) || !did {
					return
				}
				jobs[i]++
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, n, jobs[0]+jobs[1], "jobs run by each worker: %v", jobs)
	assert.Len(t, done, n)
	for id, times := range done {
		assert.Equal(t, 1, times, "%s was processed %d times", id, times)
	}
	complete, err := e.Client.OpenAPISpec.Query().Where(openapispec.ProcessingStateEQ(enum.OpenAPISpecProcessingStateComplete)).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, n, complete)
	nv, err := e.Client.OpenAPISpecVersion.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, n, nv)
	t.Logf("jobs per worker: %v", jobs)
}

// A URL source goes through the importer's address check: without
// AllowPrivate, a loopback address is refused before any request reaches
// it, and the spec ends with FETCH_ERROR.
func TestURLSourcesCannotReachPrivateAddresses(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	var hits atomic.Int32
	inside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(openapitest.V30))
	}))
	t.Cleanup(inside.Close)
	id := create(t, e, "inside", map[string]any{"url": inside.URL + "/openapi.json"})
	w := worker.New(e.DB.Client, worker.Options{Now: e.Clock.Now})
	require.Equal(t, 1, drain(t, w))
	s := spec(t, e, id)
	require.NotNil(t, s.LastProcessErrorCode)
	assert.Equal(t, enum.OpenAPISpecProcessingErrorCodeFETCHERROR, *s.LastProcessErrorCode)
	require.NotEmpty(t, s.LastProcessedErrors)
	assert.Contains(t, s.LastProcessedErrors[0].Message, "private")
	assert.Zero(t, hits.Load(), "no request reached the address")
	assert.Empty(t, versions(t, e, id))
}
