// Package apperr defines the few kinds of error the application returns, and
// the single translation of each kind into an HTTP status (for /v1) and a
// GraphQL extensions.code. Domain code returns these errors; transports only
// translate them.
package apperr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/bindery/bindery/ent"
)

// Kind classifies an error by what the client should do about it.
type Kind int

// Error kinds. Internal is the zero value: anything unclassified is a server
// fault.
const (
	Internal Kind = iota
	NotFound
	InvalidArgument
	PermissionDenied
	Unauthenticated
	Conflict
	PreconditionFailed
	RateLimited
	// TooLarge is a request over a size limit of the server.
	TooLarge
	// Timeout is a request that ran past its deadline.
	Timeout
	// Canceled is a request whose client went away before the answer. Its
	// status, nginx's 499, is never seen by the client, only in the log.
	Canceled
)

var kinds = map[Kind]struct {
	status int
	code   string
}{
	Internal:           {http.StatusInternalServerError, "INTERNAL_SERVER_ERROR"},
	NotFound:           {http.StatusNotFound, "NOT_FOUND"},
	InvalidArgument:    {http.StatusBadRequest, "BAD_USER_INPUT"},
	PermissionDenied:   {http.StatusForbidden, "FORBIDDEN"},
	Unauthenticated:    {http.StatusUnauthorized, "UNAUTHENTICATED"},
	Conflict:           {http.StatusConflict, "CONFLICT"},
	PreconditionFailed: {http.StatusPreconditionFailed, "PRECONDITION_FAILED"},
	RateLimited:        {http.StatusTooManyRequests, "RATE_LIMITED"},
	TooLarge:           {http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE"},
	Timeout:            {http.StatusGatewayTimeout, "TIMEOUT"},
	Canceled:           {499, "CLIENT_CLOSED_REQUEST"},
}

// Kinds lists every kind, in no particular order.
func Kinds() []Kind {
	out := make([]Kind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	return out
}

// HTTPStatus is the /v1 status of the kind.
func (k Kind) HTTPStatus() int { return kinds[k].status }

// Code is the GraphQL extensions.code of the kind.
func (k Kind) Code() string { return kinds[k].code }

// InternalMessage is all a client ever learns about a server fault.
const InternalMessage = "Internal server error"

// Error is an error the client can act on.
type Error struct {
	Kind Kind
	// Field names the offending input, in the API's spelling, for
	// InvalidArgument.
	Field   string
	Message string
	cause   error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return e.Message + ": " + e.cause.Error()
	}
	return e.Message
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.cause }

// NotFoundf reports a resource that does not exist, or that the caller may
// not see: both get the same message, so that hidden resources stay hidden.
func NotFoundf(format string, args ...any) error {
	return &Error{Kind: NotFound, Message: fmt.Sprintf(format, args...)}
}

// Invalid reports a bad value of the named input field.
func Invalid(field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &Error{Kind: InvalidArgument, Field: field, Message: msg}
}

// Forbidden reports a caller who can see a resource but may not do this to it.
func Forbidden(format string, args ...any) error {
	return &Error{Kind: PermissionDenied, Message: fmt.Sprintf(format, args...)}
}

// Unauthenticatedf reports a request without valid credentials.
func Unauthenticatedf(format string, args ...any) error {
	return &Error{Kind: Unauthenticated, Message: fmt.Sprintf(format, args...)}
}

// Conflictf reports a request that conflicts with the current state.
func Conflictf(format string, args ...any) error {
	return &Error{Kind: Conflict, Message: fmt.Sprintf(format, args...)}
}

// Preconditionf reports a request that the resource's state does not allow.
func Preconditionf(format string, args ...any) error {
	return &Error{Kind: PreconditionFailed, Message: fmt.Sprintf(format, args...)}
}

// RateLimitedf reports a caller over its request budget.
func RateLimitedf(format string, args ...any) error {
	return &Error{Kind: RateLimited, Message: fmt.Sprintf(format, args...)}
}

// TooLargef reports a request over a size limit.
func TooLargef(format string, args ...any) error {
	return &Error{Kind: TooLarge, Message: fmt.Sprintf(format, args...)}
}

// TimeoutMessage is what a client learns of a request past its deadline.
const TimeoutMessage = "The request took longer than the server allows; try a smaller request"

// FromContext classifies err as From does, except that a failure of a
// request whose context has ended is a Timeout or Canceled, whatever the
// driver made of the cancellation (lib/pq reports "canceling statement due
// to user request", not the context's error).
func FromContext(ctx context.Context, err error) *Error {
	e := From(err)
	if e == nil || e.Kind != Internal {
		return e
	}
	switch ctx.Err() {
	case context.DeadlineExceeded:
		return &Error{Kind: Timeout, Message: TimeoutMessage, cause: err}
	case context.Canceled:
		return &Error{Kind: Canceled, Message: "The client closed the request", cause: err}
	}
	return e
}

// From classifies any error. Application errors keep their kind; ent's
// not-found, validation and constraint errors are translated here, at the
// boundary; anything else is Internal, and its text must not reach a client.
func From(err error) *Error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case ent.IsNotFound(err):
		return &Error{Kind: NotFound, Message: "Not found", cause: err}
	case ent.IsValidationError(err):
		var ve *ent.ValidationError
		errors.As(err, &ve)
		field := apiName(ve)
		// ent wraps the validator's error in its own wording; the client
		// gets the validator's message alone.
		inner := error(ve)
		for next := errors.Unwrap(inner); next != nil; next = errors.Unwrap(inner) {
			inner = next
		}
		return &Error{Kind: InvalidArgument, Field: field, Message: field + ": " + inner.Error(), cause: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Kind: Timeout, Message: TimeoutMessage, cause: err}
	case errors.Is(err, context.Canceled):
		return &Error{Kind: Canceled, Message: "The client closed the request", cause: err}
	case ent.IsConstraintError(err):
		return &Error{Kind: Conflict, Message: "The request conflicts with an existing resource", cause: err}
	default:
		return &Error{Kind: Internal, Message: InternalMessage, cause: err}
	}
}

// KindOf returns the kind of err; nil is Internal's zero value too, so
// callers check err first.
func KindOf(err error) Kind {
	if err == nil {
		return Internal
	}
	return From(err).Kind
}

// apiNames are the ent fields that no input of either API calls by their
// JSONName: the input is named for what the client sends, not for the
// column (a site's proxy is stored as proxy_origin). Keys are ent's
// "Type.field", as its validation errors spell them.
var apiNames = map[string]string{
	"Site.proxy_origin":       "proxy",
	"OpenAPISpec.source_url":  "source.url",
	"OpenAPISpec.source_text": "source.text",
	"Comment.body":            "markdown",
	"CommentReply.body":       "markdown",
	"Comment.node_id":         "node",
}

// apiName is the API's name of the field a validation error is about.
// ent's ValidationError carries the field's name alone; its message names
// the type too (validator failed for field "Site.proxy_origin": ...).
func apiName(ve *ent.ValidationError) string {
	msg := ve.Error()
	if i := strings.Index(msg, "."+ve.Name+`"`); i >= 0 {
		typ := msg[strings.LastIndexByte(msg[:i], '"')+1 : i]
		if name, ok := apiNames[typ+"."+ve.Name]; ok {
			return name
		}
	}
	return JSONName(ve.Name)
}

// initialisms are upper-cased when they are not the first word of a name.
var initialisms = map[string]string{"url": "URL", "id": "ID"}

// JSONName turns an ent field name (display_name, sso_url) into its API name
// (displayName, ssoURL).
func JSONName(field string) string {
	parts := strings.Split(field, "_")
	for i := 1; i < len(parts); i++ {
		if up, ok := initialisms[parts[i]]; ok {
			parts[i] = up
		} else if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
