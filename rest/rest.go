// Package rest serves /v1, the compatibility layer that is wire-compatible
// with GitBook's public API. /v1 is a route table (routes.go): each
// operation is a row that says how its request decodes into the input of
// the resolver method GraphQL uses, which method it calls, and how the
// result is presented in the /v1 shape. A few generic adapters
// (adapters.go) serve every row. No rule lives here: decoders check only
// the shape of a request, presenters rename and nest, never decide.
package rest

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/logctx"
)

// API is the /v1 API.
type API struct {
	r   *graph.Resolver
	log *slog.Logger
}

// New returns the /v1 API over the application layer.
func New(r *graph.Resolver, log *slog.Logger) *API {
	return &API{r: r, log: log}
}

// response is what a handler produces: a status and a body, or no body.
type response struct {
	status   int
	body     any
	location string
}

// handlerFunc serves one operation; the route table's adapters make them.
type handlerFunc func(r *http.Request) (response, error)

// handle adapts a handler: it writes the response, or the error envelope.
// The text of the path and query parameters is checked first, for every
// operation (see checkText).
func (a *API) handle(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := checkText(r); err != nil {
			a.fail(w, r, err)
			return
		}
		res, err := h(r)
		if err != nil {
			a.fail(w, r, listParameter(err))
			return
		}
		if res.location != "" {
			w.Header().Set("Location", res.location)
		}
		if res.body == nil {
			w.WriteHeader(res.status)
			return
		}
		writeJSON(w, res.status, res.body)
	}
}

// listParameters maps the application layer's names of list arguments,
// which are GraphQL's, to the /v1 query parameters they come from.
var listParameters = map[string]string{"after": "page", "first": "limit"}

// listParameter renames the argument an InvalidArgument error is about to
// its /v1 name, so that a bad page cursor is reported as "page".
func listParameter(err error) error { return renameField(err, listParameters) }

// renameField renames the field an InvalidArgument error is about, by
// names (the application layer's name, which is GraphQL's, to the /v1
// one); other errors and fields are kept.
func renameField(err error, names map[string]string) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.InvalidArgument {
		return err
	}
	name, ok := names[ae.Field]
	if !ok {
		return err
	}
	return apperr.Invalid(name, "%s", strings.TrimPrefix(ae.Message, ae.Field+": "))
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(body)
}

// errorBody is the official error envelope.
type errorBody struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// WriteError writes err in the /v1 error envelope. A server fault is logged
// with the request ID and answered with a generic message.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	ae := apperr.FromContext(r.Context(), err)
	if ae.Kind == apperr.Internal {
		logctx.From(r.Context(), log).Error("internal error", "error", err.Error())
	}
	var b errorBody
	b.Error.Code = ae.Kind.HTTPStatus()
	b.Error.Message = ae.Message
	writeJSON(w, b.Error.Code, b)
}

func (a *API) fail(w http.ResponseWriter, r *http.Request, err error) { WriteError(w, r, a.log, err) }
