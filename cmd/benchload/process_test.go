package main

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrefixWriter(t *testing.T) {
	var b strings.Builder
	w := &prefixWriter{prefix: "bindery: ", w: &b}
	_, _ = w.Write([]byte("one\ntw"))
	_, _ = w.Write([]byte("o\n"))
	_, _ = w.Write([]byte("unfinished"))
	assert.Equal(t, "bindery: one\nbindery: two\n", b.String(), "whole lines only")
}

// lockedBuilder is a strings.Builder safe for a child's output goroutines.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// stop ends a child and what it started, which waits for its own child.
func TestChildStop(t *testing.T) {
	var out lockedBuilder
	c, err := start("shell", t.TempDir(), nil, &out, false, "sh", "-c", "echo ready; sleep 60 & wait")
	require.NoError(t, err)
	require.NoError(t, c.waitReady(context.Background(), time.Minute, func(context.Context) error {
		if !strings.Contains(out.String(), "ready") {
			return errors.New("not yet")
		}
		return nil
	}))
	c.stop()
	select {
	case <-c.exited:
	default:
		t.Fatal("stop returned before the process exited")
	}
	assert.Equal(t, "shell: ready\n", out.String())
}

// waitReady gives up when the process exits.
func TestWaitReadyExited(t *testing.T) {
	var out lockedBuilder
	c, err := start("false", t.TempDir(), nil, &out, false, "sh", "-c", "exit 3")
	require.NoError(t, err)
	err = c.waitReady(context.Background(), time.Minute, func(context.Context) error { return errors.New("never") })
	assert.ErrorContains(t, err, "false exited before it was ready: exit status 3")
	c.stop()
}
