package importer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"

	"code.dny.dev/ssrf"
)

// Code classifies an import failure. Every code is the client's to fix, so
// a caller reports each as a bad request with the error's message.
type Code string

// Error codes.
const (
	// CodeUnsupported is a source the official API names but Bindery does
	// not import.
	CodeUnsupported Code = "unsupported"
	// CodeInvalid is an unknown source, a malformed or non-http(s) URL, or a
	// resource with nothing to import.
	CodeInvalid Code = "invalid"
	// CodeForbiddenAddress is a destination the dialer refused: a private,
	// loopback, link-local or other special-purpose address.
	CodeForbiddenAddress Code = "forbidden_address"
	// CodeFetch is a remote failure: a bad status, a body over its limit, a
	// timeout or too many redirects.
	CodeFetch Code = "fetch"
)

// Error is an import failure. Msg is safe to show the client: it names at
// most the URL or host involved, never a resolved address or a network
// error's text.
type Error struct {
	Code Code
	Msg  string
	// Timeout is set when the remote did not answer in time.
	Timeout bool
}

func (e *Error) Error() string { return e.Msg }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// classify turns an error from fetching u into an *Error. When the error
// happened on a redirect, it names the redirect's target instead of u.
func classify(u *url.URL, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		if target, perr := url.Parse(uerr.URL); perr == nil && target.Host != "" {
			u = target
		}
	}
	switch {
	case errors.Is(err, ssrf.ErrProhibitedIP), errors.Is(err, ssrf.ErrProhibitedPort),
		errors.Is(err, ssrf.ErrProhibitedNetwork), errors.Is(err, ssrf.ErrInvalidHostPort):
		return errorf(CodeForbiddenAddress,
			"refused to connect to %q: private, loopback, link-local and other special-purpose addresses cannot be imported from",
			u.Hostname())
	case errors.Is(err, context.DeadlineExceeded):
		return timedOut(u)
	case errors.Is(err, context.Canceled):
		return errorf(CodeFetch, "the import was canceled while fetching %s", redact(u))
	}
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		return timedOut(u)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return errorf(CodeFetch, "could not resolve host %q", u.Hostname())
	}
	return errorf(CodeFetch, "could not fetch %s", redact(u))
}

func timedOut(u *url.URL) *Error {
	e := errorf(CodeFetch, "fetching %s timed out", redact(u))
	e.Timeout = true
	return e
}

// redact is u without its password, for messages.
func redact(u *url.URL) string { return u.Redacted() }
