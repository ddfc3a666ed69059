package importer

import (
	"context"
	"net/url"
)

// FetchDocument fetches one document from an http(s) URL through the same
// client as imports: the address check against private and special-purpose
// addresses (unless opt.AllowPrivate), opt.MaxRedirects, opt.MaxBytes, and
// opt.Timeout for the whole fetch. Errors are *Error; a remote that does not
// answer in time is one with Timeout set.
func FetchDocument(ctx context.Context, rawURL string, opt Options) ([]byte, error) {
	opt = opt.withDefaults()
	opt.MaxTotalBytes = opt.MaxBytes
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, errorf(CodeInvalid, "%q is not an absolute URL", rawURL)
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	res, err := newFetcher(opt).get(ctx, u, nil)
	if err != nil {
		if e, ok := err.(*Error); ok && ctx.Err() == context.DeadlineExceeded {
			e.Timeout = true
		}
		return nil, err
	}
	return res.Body, nil
}
