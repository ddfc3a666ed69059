package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"os"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// untyped is a start-up phase message: a length, a code, a body.
func untyped(code uint32, body string) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	b = binary.BigEndian.AppendUint32(b, code)
	return append(b, body...)
}

// typed is a message with a type byte.
func typed(t byte, body string) []byte {
	b := []byte{t}
	b = binary.BigEndian.AppendUint32(b, uint32(4+len(body)))
	return append(b, body...)
}

func TestCopyCounting(t *testing.T) {
	var in []byte
	in = append(in, untyped(sslRequestCode, "")...)
	in = append(in, untyped(196608, "user\x00postgres\x00\x00")...)
	in = append(in, typed('p', "secret\x00")...)
	in = append(in, typed('Q', "begin\x00")...)
	for _, m := range []byte{'P', 'B', 'D', 'E', 'S'} {
		in = append(in, typed(m, "select 1\x00")...)
	}
	in = append(in, typed('Q', "commit\x00")...)
	in = append(in, typed('X', "")...)
	var out bytes.Buffer
	var n atomic.Int64
	require.NoError(t, copyCounting(&out, bytes.NewReader(in), &n))
	assert.Equal(t, in, out.Bytes(), "every byte is forwarded as it came")
	assert.EqualValues(t, 3, n.Load(), "two simple queries and one Execute")

	var short bytes.Buffer
	err := copyCounting(&short, bytes.NewReader(append(untyped(196608, ""), 'Q', 0, 0, 0, 2)), &n)
	assert.ErrorContains(t, err, "malformed")
}

// Through the proxy, a real PostgreSQL answers and the statements a client
// sends are counted: a simple query, and a query with a parameter, which
// lib/pq sends with the extended protocol.
func TestPGCounter(t *testing.T) {
	base := os.Getenv("BINDERY_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("BINDERY_TEST_DATABASE_URL is not set")
	}
	upstream, err := hostOf(base)
	require.NoError(t, err)
	proxy, err := startPGCounter(upstream)
	require.NoError(t, err)
	defer proxy.close()
	dsn, err := withHost(base, proxy.addr())
	require.NoError(t, err)
	db, err := sql.Open("postgres", dsn)
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()
	require.NoError(t, db.PingContext(ctx))
	proxy.statements.Store(0)

	var one, two int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT 1").Scan(&one))
	require.NoError(t, db.QueryRowContext(ctx, "SELECT $1::int", 2).Scan(&two))
	assert.Equal(t, []int{1, 2}, []int{one, two})
	assert.EqualValues(t, 2, proxy.statements.Load())
}
