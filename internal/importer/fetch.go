package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// requestTimeout bounds one request, body included, inside the import's
// own deadline.
const requestTimeout = 15 * time.Second

// newClient returns the only HTTP client an import uses. Unless
// opt.AllowPrivate is set, its dialer refuses private, loopback, link-local
// and other special-purpose addresses at connect time, after DNS resolution,
// so neither a hostname that resolves inward nor a redirect can reach them.
func newClient(opt Options) *http.Client {
	dialer := SafeDialer(opt.AllowPrivate)
	if !opt.AllowPrivate && opt.allowAddr != nil {
		guard := dialer.Control
		dialer.Control = func(network, address string, c syscall.RawConn) error {
			if opt.allowAddr(address) {
				return nil
			}
			return guard(network, address, c)
		}
	}
	transport := &http.Transport{
		// No proxy: a proxy would make the connection the dialer checks.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  requestTimeout,
		MaxResponseHeaderBytes: 1 << 20,
		MaxIdleConns:           10,
		IdleConnTimeout:        30 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > opt.MaxRedirects {
				return errorf(CodeFetch, "%s redirected more than %d times", redact(via[0].URL), opt.MaxRedirects)
			}
			if !httpScheme(req.URL) {
				return errorf(CodeFetch, "%s redirected to a %q URL; only http and https can be imported",
					redact(via[len(via)-1].URL), req.URL.Scheme)
			}
			return nil
		},
	}
}

// SafeDialer returns the dialer of Bindery's outgoing requests (imports,
// OpenAPI sources, webhooks). Unless allowPrivate is set, it refuses
// private, loopback, link-local and other special-purpose addresses at
// connect time, after DNS resolution.
func SafeDialer(allowPrivate bool) *net.Dialer {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = ssrf.New(ssrf.WithAnyPort()).Safe
	}
	return dialer
}

func httpScheme(u *url.URL) bool { return u.Scheme == "http" || u.Scheme == "https" }

// errUnwanted is a response whose content type the caller does not want;
// its body is never read.
var errUnwanted = errors.New("unwanted content type")

// fetcher fetches resources within the import's byte budget.
type fetcher struct {
	client   *http.Client
	maxBytes int64
	maxTotal int64
	// used counts the bytes the import has read so far, across resources.
	used int64
}

func newFetcher(opt Options) *fetcher {
	return &fetcher{client: newClient(opt), maxBytes: opt.MaxBytes, maxTotal: opt.MaxTotalBytes}
}

// response is a fetched resource.
type response struct {
	// URL is where the resource was found, after redirects.
	URL *url.URL
	// MediaType is the lower-case media type the server declared, or "".
	MediaType string
	// ContentType is the Content-Type header as sent.
	ContentType string
	Body        []byte
}

// get fetches u. When want is set and rejects the declared media type, get
// returns errUnwanted without reading the body. Other errors are *Error.
func (f *fetcher) get(ctx context.Context, u *url.URL, want func(mediaType string) bool) (*response, error) {
	if !httpScheme(u) {
		return nil, errorf(CodeInvalid, "only http and https URLs can be imported, not %q", u.Scheme)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errorf(CodeInvalid, "%s is not a valid URL", redact(u))
	}
	req.Header.Set("User-Agent", "Bindery-Importer/1.0")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, classify(u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, errorf(CodeFetch, "%s returned HTTP status %d", redact(resp.Request.URL), resp.StatusCode)
	}
	out := &response{URL: resp.Request.URL, ContentType: resp.Header.Get("Content-Type")}
	if mt, _, perr := mime.ParseMediaType(out.ContentType); perr == nil {
		out.MediaType = strings.ToLower(mt)
	}
	if want != nil && !want(out.MediaType) {
		return nil, errUnwanted
	}
	out.Body, err = f.read(resp.Body, resp.ContentLength, redact(out.URL))
	if err != nil {
		return nil, classify(out.URL, err)
	}
	return out, nil
}

// read reads r whole, charging it to the budget. size is the declared
// length, or -1. It fails rather than truncating when r is over the limit.
func (f *fetcher) read(r io.Reader, size int64, what string) ([]byte, error) {
	limit, err := f.limit(size, what)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, f.tooLarge(what)
	}
	f.used += int64(len(data))
	return data, nil
}

// limit is how many bytes the next resource may have: the per-resource
// limit or what is left of the import's budget, whichever is smaller.
func (f *fetcher) limit(size int64, what string) (int64, error) {
	limit := min(f.maxBytes, f.maxTotal-f.used)
	if limit < 0 || size > limit {
		return 0, f.tooLarge(what)
	}
	return limit, nil
}

func (f *fetcher) tooLarge(what string) *Error {
	if f.maxTotal-f.used < f.maxBytes {
		return errorf(CodeFetch, "%s is too large: the import may hold at most %s in total", what, formatBytes(f.maxTotal))
	}
	return errorf(CodeFetch, "%s is too large: the limit is %s", what, formatBytes(f.maxBytes))
}

// formatBytes writes n for people: "10 MiB", "512 KiB", "100 bytes".
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
