package config

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's configuration table must list every variable, with its flag
// and default.
func TestREADMEConfigurationTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	for _, v := range Env {
		var row string
		for _, line := range strings.Split(string(readme), "\n") {
			if strings.HasPrefix(line, "| `"+v.Name+"` |") {
				row = line
			}
		}
		require.NotEmpty(t, row, "%s is missing from the README", v.Name)
		if v.Flag != "" {
			assert.Contains(t, row, "`"+v.Flag+"`", v.Name)
		}
		assert.Contains(t, row, v.Default, v.Name)
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{
		"BINDERY_ADDR": "0.0.0.0:9000", "BINDERY_DATABASE_URL": "postgres://x/y",
		"BINDERY_GRAPHQL_INTROSPECTION": "false", "BINDERY_RATE_LIMIT": "0",
		"BINDERY_PURGE_INTERVAL": "5m", "BINDERY_LOG_LEVEL": "debug", "BINDERY_SEED": "false",
		"BINDERY_REQUEST_TIMEOUT": "45s", "BINDERY_GRAPHQL_MAX_BODY_BYTES": "1048576", "BINDERY_GRAPHQL_MUTATION_LIMIT": "5",
		"BINDERY_GRAPHQL_TOKEN_LIMIT": "5000", "BINDERY_GRAPHQL_FIELD_LIMIT": "500", "BINDERY_GRAPHQL_ALIAS_LIMIT": "0",
		"BINDERY_DECODED_CACHE_BYTES": "1048576",
	}
	c := Default()
	require.NoError(t, c.FromEnv(func(k string) string { return env[k] }))
	require.NoError(t, c.Finish())
	assert.Equal(t, "0.0.0.0:9000", c.Addr)
	assert.Equal(t, "http://0.0.0.0:9000", c.PublicURL)
	assert.Equal(t, c.PublicURL, c.AppURL)
	assert.False(t, c.Introspection)
	assert.False(t, c.Seed)
	assert.Zero(t, c.RateLimit)
	assert.Equal(t, 45*time.Second, c.RequestTimeout)
	assert.Equal(t, int64(1<<20), c.GraphQLMaxBodyBytes)
	assert.Equal(t, 5, c.GraphQLMutationLimit)
	assert.Equal(t, 5000, c.GraphQLTokenLimit)
	assert.Equal(t, 500, c.GraphQLFieldLimit)
	assert.Zero(t, c.GraphQLAliasLimit, "no aliases at all is a choice")
	assert.Equal(t, int64(1<<20), c.DecodedCacheBytes)
	assert.Equal(t, int64(64<<20), c.ObjectCacheBytes, "the default")

	for k, v := range map[string]string{
		"BINDERY_RATE_LIMIT": "-1", "BINDERY_PURGE_INTERVAL": "soon", "BINDERY_SEED": "maybe",
		"BINDERY_LOG_LEVEL": "loud", "BINDERY_REQUEST_TIMEOUT": "0s", "BINDERY_GRAPHQL_MAX_BODY_BYTES": "0",
		"BINDERY_GRAPHQL_FIELD_LIMIT": "-1", "BINDERY_GRAPHQL_MUTATION_LIMIT": "many",
		"BINDERY_OBJECT_CACHE_BYTES": "lots", "BINDERY_DECODED_CACHE_BYTES": "0",
	} {
		c := Default()
		assert.Error(t, c.FromEnv(func(name string) string {
			if name == k {
				return v
			}
			return ""
		}), k)
	}
	bad := Default()
	bad.PublicURL = "ftp://example.com"
	assert.Error(t, bad.Finish())
	noMutations := Default()
	noMutations.GraphQLMutationLimit = 0
	assert.Error(t, noMutations.Finish(), "an operation must be able to run a mutation")
}

func TestParseOrigins(t *testing.T) {
	got, err := ParseOrigins(" https://App.Example.com/ , http://localhost:3000,,https://docs.example.com:443, http://x.example:80")
	require.NoError(t, err)
	assert.Equal(t, []string{"https://app.example.com", "http://localhost:3000", "https://docs.example.com", "http://x.example"}, got)

	got, err = ParseOrigins("*")
	require.NoError(t, err)
	assert.Equal(t, []string{"*"}, got)

	for _, bad := range []string{
		"app.example.com", "https://app.example.com/path", "ftp://app.example.com", "https://",
		"https://user@app.example.com", "https://app.example.com?x=1", "https://app.example.com:port", "null",
	} {
		_, err := ParseOrigins(bad)
		assert.Error(t, err, bad)
	}

	c := Default()
	require.NoError(t, c.FromEnv(func(k string) string {
		return map[string]string{"BINDERY_CORS_ORIGINS": "https://a.example,https://b.example"}[k]
	}))
	assert.Equal(t, []string{"https://a.example", "https://b.example"}, c.CORSOrigins)
	assert.Empty(t, Default().CORSOrigins, "no origin is allowed by default")
	assert.ErrorContains(t, c.FromEnv(func(k string) string {
		return map[string]string{"BINDERY_CORS_ORIGINS": "https://a.example/app"}[k]
	}), "BINDERY_CORS_ORIGINS")
}

func TestSMTP(t *testing.T) {
	finish := func(env map[string]string) (Config, error) {
		c := Default()
		require.NoError(t, c.FromEnv(func(k string) string { return env[k] }))
		return c, c.Finish()
	}
	c, err := finish(map[string]string{"BINDERY_SMTP_URL": "smtps://bot:s3cret@mail.example.com:465", "BINDERY_SMTP_FROM": "Docs <docs@example.com>"})
	require.NoError(t, err)
	assert.Equal(t, "smtps://bot:s3cret@mail.example.com:465", c.SMTPURL)
	assert.Equal(t, "Docs <docs@example.com>", c.SMTPFrom)
	_, err = finish(nil)
	assert.NoError(t, err, "no relay: invitations are logged")
	for _, bad := range []map[string]string{
		{"BINDERY_SMTP_URL": "smtp://mail.example.com"},
		{"BINDERY_SMTP_URL": "smtp://mail.example.com", "BINDERY_SMTP_FROM": "nobody"},
		{"BINDERY_SMTP_URL": "http://mail.example.com", "BINDERY_SMTP_FROM": "a@example.com"},
		{"BINDERY_SMTP_URL": "smtp://user:hunter2@/", "BINDERY_SMTP_FROM": "a@example.com"},
		{"BINDERY_SMTP_URL": "smtp://mail.example.com/path", "BINDERY_SMTP_FROM": "a@example.com"},
	} {
		_, err := finish(bad)
		if assert.Error(t, err, bad) {
			assert.NotContains(t, err.Error(), "hunter2", "the password stays out of messages")
		}
	}
}

// The observability settings: a metrics address, and the OTLP endpoint
// under OpenTelemetry's own name.
func TestObservabilityFromEnv(t *testing.T) {
	env := map[string]string{"BINDERY_METRICS_ADDR": "127.0.0.1:9090", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}
	c := Default()
	require.NoError(t, c.FromEnv(func(k string) string { return env[k] }))
	require.NoError(t, c.Finish())
	assert.Equal(t, "127.0.0.1:9090", c.MetricsAddr)
	assert.Equal(t, "http://collector:4318", c.OTLPEndpoint)

	bad := Default()
	bad.OTLPEndpoint = "collector:4318"
	assert.Error(t, bad.Finish(), "an endpoint needs a scheme")
}

// BINDERY_SECRET_KEY is 32 bytes in base64; a bad one fails the start
// without repeating the key.
func TestSecretKey(t *testing.T) {
	finish := func(key string) (Config, error) {
		c := Default()
		require.NoError(t, c.FromEnv(func(k string) string { return map[string]string{"BINDERY_SECRET_KEY": key}[k] }))
		return c, c.Finish()
	}
	good := "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	c, err := finish(good)
	require.NoError(t, err)
	assert.Equal(t, good, c.SecretKey)
	for _, bad := range []string{"c2VjcmV0LWtleQ==", "not base64 at all!"} {
		_, err := finish(bad)
		if assert.Error(t, err, bad) {
			assert.Contains(t, err.Error(), "BINDERY_SECRET_KEY")
			assert.NotContains(t, err.Error(), bad)
		}
	}
}

// BINDERY_MEMORY_LIMIT: a share of the cgroup's limit by default, a size
// in GOMEMLIMIT's units, or off.
func TestMemoryLimit(t *testing.T) {
	assert.Equal(t, MemoryLimit{Percent: 90}, Default().MemoryLimit)
	for in, want := range map[string]MemoryLimit{
		"off": {}, "75%": {Percent: 75}, "100%": {Percent: 100}, "1%": {Percent: 1},
		"536870912": {Bytes: 512 << 20}, "512MiB": {Bytes: 512 << 20}, "2GiB": {Bytes: 2 << 30},
		"64KiB": {Bytes: 64 << 10}, "1TiB": {Bytes: 1 << 40}, "1000B": {Bytes: 1000},
	} {
		got, err := ParseMemoryLimit(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
		again, err := ParseMemoryLimit(got.String())
		require.NoError(t, err, got.String())
		assert.Equal(t, got, again, "String reads back")
	}
	for _, bad := range []string{"", "0", "0%", "101%", "-5MiB", "1.5GiB", "512MB", "lots", "9000000TiB"} {
		_, err := ParseMemoryLimit(bad)
		assert.Error(t, err, bad)
	}

	const cgroup = 1 << 30
	assert.Equal(t, int64(cgroup*9/10), MemoryLimit{Percent: 90}.Of(cgroup))
	assert.Equal(t, int64(math.MaxInt64), MemoryLimit{Percent: 90}.Of(0), "no cgroup limit, no limit")
	assert.Equal(t, int64(512<<20), MemoryLimit{Bytes: 512 << 20}.Of(cgroup), "a size ignores the cgroup")
	assert.Equal(t, int64(math.MaxInt64), MemoryLimit{}.Of(cgroup), "off")

	c := Default()
	require.NoError(t, c.FromEnv(func(k string) string { return map[string]string{"BINDERY_MEMORY_LIMIT": "1GiB"}[k] }))
	assert.Equal(t, MemoryLimit{Bytes: 1 << 30}, c.MemoryLimit)
	assert.ErrorContains(t, c.FromEnv(func(k string) string { return map[string]string{"BINDERY_MEMORY_LIMIT": "1G"}[k] }),
		"BINDERY_MEMORY_LIMIT")
}

// BINDERY_HEAP_FLOOR_BYTES: 48 MiB by default, a size in bytes, 0 for none.
func TestHeapFloor(t *testing.T) {
	assert.Equal(t, int64(48<<20), Default().HeapFloorBytes)
	for in, want := range map[string]int64{"0": 0, "100000000": 100000000} {
		c := Default()
		require.NoError(t, c.FromEnv(func(k string) string { return map[string]string{"BINDERY_HEAP_FLOOR_BYTES": in}[k] }))
		assert.Equal(t, want, c.HeapFloorBytes, in)
	}
	for _, in := range []string{"-1", "48MiB", "lots"} {
		c := Default()
		assert.ErrorContains(t, c.FromEnv(func(k string) string { return map[string]string{"BINDERY_HEAP_FLOOR_BYTES": in}[k] }),
			"BINDERY_HEAP_FLOOR_BYTES", in)
	}
}
