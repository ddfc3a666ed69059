package gqlexec_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/graph/gqlexec"
)

// A buffer lent for an operation is no other operation's until it is
// released, and comes back empty.
func TestResponseBuffersLent(t *testing.T) {
	ctx, release := gqlexec.WithResponseBuffers(context.Background())
	mine := gqlexec.ResponseBuffer(ctx)
	mine.WriteString(`{"a":"a long answer"}`)

	for range 100 {
		other, done := gqlexec.WithResponseBuffers(context.Background())
		b := gqlexec.ResponseBuffer(other)
		require.NotSame(t, mine, b, "a lent buffer was lent again before its release")
		b.WriteString("x")
		done()
	}
	assert.Equal(t, `{"a":"a long answer"}`, mine.String())
	release()

	for range 100 {
		other, done := gqlexec.WithResponseBuffers(context.Background())
		require.Zero(t, gqlexec.ResponseBuffer(other).Len(), "a buffer lent again holds an earlier answer")
		done()
	}
}

// Outside an operation that lends buffers, each answer has a buffer of its
// own.
func TestResponseBufferOwn(t *testing.T) {
	a, b := gqlexec.ResponseBuffer(context.Background()), gqlexec.ResponseBuffer(context.Background())
	assert.NotSame(t, a, b)
	assert.Zero(t, a.Len())
}
