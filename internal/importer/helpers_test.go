package importer

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

var testNow = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

// local is Options for importing from httptest servers, which listen on
// loopback.
func local() Options {
	return Options{AllowPrivate: true, Now: func() time.Time { return testNow }}
}

// site is a test server of fixed responses that counts its requests.
type site struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

// newSite serves routes: path → handler; a path ending in "*" matches
// every path it starts.
func newSite(t *testing.T, routes map[string]http.HandlerFunc) *site {
	s := &site{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.RequestURI()]++
		s.mu.Unlock()
		h, ok := routes[r.URL.Path]
		for pattern, ph := range routes {
			if prefix, wild := strings.CutSuffix(pattern, "*"); wild && !ok && strings.HasPrefix(r.URL.Path, prefix) {
				h, ok = ph, true
			}
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) count(uri string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[uri]
}

func (s *site) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.hits {
		n += c
	}
	return n
}

func serve(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	}
}

func serveBytes(contentType string, body []byte) http.HandlerFunc {
	return serve(contentType, string(body))
}

// pngOf is a w×h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))))
	return b.Bytes()
}

// importErr runs an import that must fail and returns its *Error.
func importErr(t *testing.T, source enum.ImportSource, rawURL string, opt Options) *Error {
	t.Helper()
	res, err := Import(context.Background(), source, rawURL, opt)
	require.Error(t, err)
	require.Nil(t, res)
	var e *Error
	require.True(t, errors.As(err, &e), "error %v is not an *Error", err)
	return e
}

// titles is the page tree as nested titles, for comparing shapes.
func titles(nodes []*content.Node) []any {
	var out []any
	for _, n := range nodes {
		if len(n.Children) == 0 {
			out = append(out, n.Page.Title)
			continue
		}
		out = append(out, map[string][]any{n.Page.Title: titles(n.Children)})
	}
	return out
}

func mustURL(t *testing.T, raw string) *url.URL {
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}
