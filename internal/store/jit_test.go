package store

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Connections get Bindery's parameters unless the URL says otherwise, and
// keep the rest of the URL.
func TestWithDefaults(t *testing.T) {
	defaults := map[string]string{"jit": "off", "binary_parameters": "yes"}
	for dsn, want := range map[string][2]string{
		"postgres://u@db:5432/bindery?sslmode=disable":                             {"off", "yes"},
		"postgres://u@db:5432/bindery?sslmode=disable&jit=on":                      {"on", "yes"},
		"postgres://u@db:5432/bindery?sslmode=disable&binary_parameters=no&jit=on": {"on", "no"},
	} {
		got, err := withDefaults(dsn, defaults)
		require.NoError(t, err)
		u, err := url.Parse(got)
		require.NoError(t, err)
		assert.Equal(t, want[0], u.Query().Get("jit"), dsn)
		assert.Equal(t, want[1], u.Query().Get("binary_parameters"), dsn)
		assert.Equal(t, "disable", u.Query().Get("sslmode"), dsn)
		assert.Equal(t, "/bindery", u.Path, dsn)
	}
}
