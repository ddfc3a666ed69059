package store

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Migrations connect with JIT off, unless the URL says otherwise, and keep
// the rest of the URL.
func TestWithoutJIT(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://u@db:5432/bindery?sslmode=disable":        "off",
		"postgres://u@db:5432/bindery?sslmode=disable&jit=on": "on",
	} {
		got, err := withoutJIT(dsn)
		require.NoError(t, err)
		u, err := url.Parse(got)
		require.NoError(t, err)
		assert.Equal(t, want, u.Query().Get("jit"), dsn)
		assert.Equal(t, "disable", u.Query().Get("sslmode"), dsn)
		assert.Equal(t, "/bindery", u.Path, dsn)
	}
}
