package importer

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// TestRefusesInternalAddresses checks that, without AllowPrivate, the
// dialer refuses loopback, link-local and metadata addresses even when a
// server is listening there.
func TestRefusesInternalAddresses(t *testing.T) {
	v4 := newSite(t, map[string]http.HandlerFunc{"/": serve("text/html", "<title>secret</title>")})
	v6URL := "http://[::1]:" + v4.URL[strings.LastIndex(v4.URL, ":")+1:] + "/"
	if l, err := net.Listen("tcp6", "[::1]:0"); err == nil {
		v6 := httptest.NewUnstartedServer(v4.Config.Handler)
		v6.Listener.Close()
		v6.Listener = l
		v6.Start()
		t.Cleanup(v6.Close)
		v6URL = v6.URL + "/"
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(v4.URL, "http://"))

	for _, tc := range []struct {
		name, url, host string
	}{
		{"loopback", v4.URL + "/", "127.0.0.1"},
		{"loopback IPv6", v6URL, "::1"},
		{"name resolving to loopback", "http://localhost:" + port + "/", "localhost"},
		{"cloud metadata", "http://169.254.169.254/latest/meta-data/", "169.254.169.254"},
		{"private", "http://10.0.0.1:" + port + "/", "10.0.0.1"},
		{"unspecified", "http://0.0.0.0:" + port + "/", "0.0.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, source := range []enum.ImportSource{enum.ImportSourceHtml, enum.ImportSourceWebsite} {
				e := importErr(t, source, tc.url, Options{Timeout: 5 * time.Second})
				assert.Equal(t, CodeForbiddenAddress, e.Code, e.Msg)
				assert.Contains(t, e.Msg, strconv.Quote(tc.host))
				assert.Contains(t, e.Msg, "loopback")
			}
		})
	}
	assert.Zero(t, v4.total(), "a refused import must never reach the server")
}

// TestRefusesRedirectToLoopback lets only the first server through the
// address check, so the redirect's target is refused by the same check that
// guards every connection.
func TestRefusesRedirectToLoopback(t *testing.T) {
	internal := newSite(t, map[string]http.HandlerFunc{"/admin": serve("text/html", "<title>admin</title>")})
	public := newSite(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.URL+"/admin", http.StatusFound)
	}})
	publicAddr := strings.TrimPrefix(public.URL, "http://")
	opt := Options{allowAddr: func(address string) bool { return address == publicAddr }}

	e := importErr(t, enum.ImportSourceHtml, public.URL+"/", opt)
	assert.Equal(t, CodeForbiddenAddress, e.Code, e.Msg)
	assert.Contains(t, e.Msg, `"127.0.0.1"`)
	assert.Equal(t, 1, public.count("/"), "the first hop is allowed")
	assert.Zero(t, internal.total(), "the redirect target is never reached")
}

func TestClientHasNoProxy(t *testing.T) {
	for _, allow := range []bool{false, true} {
		tr := newClient(Options{AllowPrivate: allow}.withDefaults()).Transport.(*http.Transport)
		assert.Nil(t, tr.Proxy, "a proxy from the environment would bypass the address check")
	}
}

func TestRefusesNonHTTPURLs(t *testing.T) {
	for _, raw := range []string{
		"file:///etc/passwd", "ftp://example.com/docs.zip", "gopher://example.com/", "javascript:alert(1)",
		"//example.com/", "/relative/path", "", "http://", "http://%zz/",
	} {
		t.Run(raw, func(t *testing.T) {
			e := importErr(t, enum.ImportSourceHtml, raw, local())
			assert.Equal(t, CodeInvalid, e.Code, e.Msg)
		})
	}
	e := importErr(t, enum.ImportSourceHtml, "file:///etc/passwd", local())
	assert.Equal(t, `only http and https URLs can be imported, not "file"`, e.Msg)
}

func TestFetchFailures(t *testing.T) {
	big := strings.Repeat("x", 4096)
	srv := newSite(t, map[string]http.HandlerFunc{
		"/big": serve("text/markdown", big),
		"/big-chunked": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/markdown")
			for range 8 {
				_, _ = w.Write([]byte(big[:512]))
				w.(http.Flusher).Flush()
			}
		},
		"/loop/*": func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/loop/"))
			http.Redirect(w, r, fmt.Sprintf("/loop/%d", n+1), http.StatusFound)
		},
		"/to-ftp": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "ftp://example.com/x", http.StatusFound)
		},
		"/to-file": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		},
		"/slow": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		},
		"/gone": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) },
	})
	small := local()
	small.MaxBytes = 1024
	fewRedirects := local()
	fewRedirects.MaxRedirects = 2
	quick := local()
	quick.Timeout = 200 * time.Millisecond

	for _, tc := range []struct {
		name, path string
		opt        Options
		want       string
	}{
		{"declared too large", "/big", small, "is too large: the limit is 1 KiB"},
		{"streamed too large", "/big-chunked", small, "is too large: the limit is 1 KiB"},
		{"over the total", "/big", Options{AllowPrivate: true, MaxTotalBytes: 2048}, "at most 2 KiB in total"},
		{"too many redirects", "/loop/0", fewRedirects, "redirected more than 2 times"},
		{"redirect to ftp", "/to-ftp", local(), `redirected to a "ftp" URL`},
		{"redirect to file", "/to-file", local(), `redirected to a "file" URL`},
		{"timeout", "/slow", quick, "timed out"},
		{"status", "/gone", local(), "returned HTTP status 410"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := importErr(t, enum.ImportSourceMarkdown, srv.URL+tc.path, tc.opt)
			assert.Equal(t, CodeFetch, e.Code, e.Msg)
			assert.Contains(t, e.Msg, tc.want)
		})
	}
	assert.Equal(t, 3, srv.count("/loop/2")+srv.count("/loop/1")+srv.count("/loop/0"))
	assert.Zero(t, srv.count("/loop/3"), "no request beyond MaxRedirects")
}

func TestMessagesHidePasswords(t *testing.T) {
	srv := newSite(t, map[string]http.HandlerFunc{})
	raw := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1) + "/missing"
	e := importErr(t, enum.ImportSourceMarkdown, raw, local())
	assert.Equal(t, CodeFetch, e.Code)
	assert.NotContains(t, e.Msg, "hunter2")
}

func TestContextCanceled(t *testing.T) {
	srv := newSite(t, map[string]http.HandlerFunc{"/": serve("text/markdown", "# Hi")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Import(ctx, enum.ImportSourceMarkdown, srv.URL+"/", local())
	require.Error(t, err)
	assert.Equal(t, CodeFetch, err.(*Error).Code)
}
