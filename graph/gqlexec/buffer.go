package gqlexec

import (
	"bytes"
	"context"
	"sync"
)

// The executor writes the JSON of a query's or mutation's answer into a
// buffer that grows by doubling from nothing: for a nested read's 60 kB,
// 124 kB of garbage, a twelfth of all the request made. A transport that
// writes the answer out and then lets go of it (the server's POST
// transport) lends the executor buffers from a pool for the operation
// (WithResponseBuffers), and takes them back once written. Anywhere else
// (another transport, which may keep the data) the executor gets a buffer
// of its own, as gqlgen's code does. The
// code generator (graph/internal/gqlgen, "buffers") makes the generated
// code ask for its buffer here.

// bufferPool holds response buffers with the room they grew to.
var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer bounds the room a pooled buffer keeps: a rare large
// answer's buffer goes to the collector, not to the pool for good.
const maxPooledBuffer = 1 << 20

type lenderKey struct{}

// lender is the buffers lent for one operation.
type lender struct {
	mu   sync.Mutex
	lent []*bytes.Buffer
}

// WithResponseBuffers returns ctx in which the executor's answers are
// written into pooled buffers, and the function that returns them to the
// pool: called once the answers are written, after which their data must
// not be read.
func WithResponseBuffers(ctx context.Context) (context.Context, func()) {
	l := &lender{}
	return context.WithValue(ctx, lenderKey{}, l), l.release
}

// ResponseBuffer returns an empty buffer for an answer's JSON: a pooled one
// when ctx lends them.
func ResponseBuffer(ctx context.Context) *bytes.Buffer {
	l, _ := ctx.Value(lenderKey{}).(*lender)
	if l == nil {
		return new(bytes.Buffer)
	}
	b := bufferPool.Get().(*bytes.Buffer)
	b.Reset()
	l.mu.Lock()
	l.lent = append(l.lent, b)
	l.mu.Unlock()
	return b
}

func (l *lender) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range l.lent {
		if b.Cap() <= maxPooledBuffer {
			bufferPool.Put(b)
		}
	}
	l.lent = nil
}
