// Package rest serves /v1, the compatibility layer that is wire-compatible
// with GitBook's public API. Every handler decodes and validates the request,
// calls the resolver method that GraphQL uses, and presents the result in the
// /v1 shape. No rule lives here: presenters rename and nest, never decide.
package rest

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/logctx"
	"github.com/bindery/bindery/internal/page"
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

// Routes returns the /v1 routes, relative to /v1.
func (a *API) Routes() chi.Router {
	m := chi.NewRouter()
	m.NotFound(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, r, apperr.NotFoundf("No route %s %s", r.Method, r.URL.Path))
	})
	m.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, r, apperr.NotFoundf("No route %s %s", r.Method, r.URL.Path))
	})

	m.Get("/user", a.handle(a.getViewer))
	m.Get("/users/{userId}", a.handle(a.getUser))

	m.Get("/orgs", a.handle(a.listOrganizations))
	m.Get("/orgs/{organizationId}", a.handle(a.getOrganization))
	m.Patch("/orgs/{organizationId}", a.handle(a.updateOrganization))
	m.Get("/orgs/{organizationId}/spaces", a.handle(a.listOrganizationSpaces))
	m.Post("/orgs/{organizationId}/spaces", a.handle(a.createSpace))
	m.Get("/orgs/{organizationId}/collections", a.handle(a.listOrganizationCollections))
	m.Post("/orgs/{organizationId}/collections", a.handle(a.createCollection))

	m.Get("/collections/{collectionId}", a.handle(a.getCollection))
	m.Patch("/collections/{collectionId}", a.handle(a.updateCollection))
	m.Delete("/collections/{collectionId}", a.handle(a.deleteCollection))
	m.Get("/collections/{collectionId}/spaces", a.handle(a.listCollectionSpaces))
	m.Post("/collections/{collectionId}/move", a.handle(a.moveCollection))
	m.Post("/collections/{collectionId}/transfer", a.handle(a.transferCollection))

	m.Get("/spaces/{spaceId}", a.handle(a.getSpace))
	m.Patch("/spaces/{spaceId}", a.handle(a.updateSpace))
	m.Delete("/spaces/{spaceId}", a.handle(a.deleteSpace))
	m.Post("/spaces/{spaceId}/duplicate", a.handle(a.duplicateSpace))
	m.Post("/spaces/{spaceId}/restore", a.handle(a.restoreSpace))
	m.Post("/spaces/{spaceId}/move", a.handle(a.moveSpace))
	m.Post("/spaces/{spaceId}/transfer", a.handle(a.transferSpace))

	m.Post("/spaces/{spaceId}/content/import", a.handle(a.importContent(a.spaceImport)))
	a.contentRoutes(m, "/spaces/{spaceId}/content", a.spaceContent)
	a.contentRoutes(m, "/spaces/{spaceId}/revisions/{revisionId}", a.givenRevision)

	m.Get("/spaces/{spaceId}/change-requests", a.handle(a.listChangeRequests))
	m.Post("/spaces/{spaceId}/change-requests", a.handle(a.createChangeRequest))
	m.Get("/spaces/{spaceId}/change-requests/{changeRequestId}", a.handle(a.getChangeRequest))
	m.Patch("/spaces/{spaceId}/change-requests/{changeRequestId}", a.handle(a.updateChangeRequest))
	m.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/merge", a.handle(a.syncChangeRequest(a.mergeChangeRequest)))
	m.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/update",
		a.handle(a.syncChangeRequest(a.updateChangeRequestContent)))
	m.Get("/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", a.handle(a.getChangeRequestPDF))
	m.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/content/import",
		a.handle(a.importContent(a.changeRequestImport)))
	a.contentRoutes(m, "/spaces/{spaceId}/change-requests/{changeRequestId}/content", a.changeRequestContent)
	return m
}

// response is what a handler produces: a status and a body, or no body.
type response struct {
	status   int
	body     any
	location string
}

func ok(body any) response { return response{status: http.StatusOK, body: body} }

func created(body any, location string) response {
	return response{status: http.StatusCreated, body: body, location: location}
}

// noContent answers a DELETE. The official spec also documents 205 for
// "has been deleted"; the API contract says 204, and the contract wins.
func noContent() response { return response{status: http.StatusNoContent} }

type handlerFunc func(w http.ResponseWriter, r *http.Request) (response, error)

// handle adapts a handler: it writes the response, or the error envelope.
func (a *API) handle(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		res, err := h(w, r)
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
func listParameter(err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.InvalidArgument {
		return err
	}
	name, ok := listParameters[ae.Field]
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
	ae := apperr.From(err)
	if ae.Kind == apperr.Internal {
		logctx.From(r.Context(), log).Error("internal error", "error", err.Error())
	}
	var b errorBody
	b.Error.Code = ae.Kind.HTTPStatus()
	b.Error.Message = ae.Message
	writeJSON(w, b.Error.Code, b)
}

func (a *API) fail(w http.ResponseWriter, r *http.Request, err error) { WriteError(w, r, a.log, err) }

// list is the official list envelope.
type list[T any] struct {
	Items []T      `json:"items"`
	Count int      `json:"count"`
	Next  *nextRef `json:"next,omitempty"`
}

type nextRef struct {
	Page string `json:"page"`
}

// presentList presents a page. Items are presented concurrently, as GraphQL
// resolves sibling fields, so that their nested loads batch: all items wait
// in the same loader batches. A page holds at most page.MaxLimit items.
func presentList[N, J any](ctx context.Context, nodes []N, info page.Info, count func(context.Context) (int, error),
	present func(context.Context, N) (J, error)) (list[J], error) {
	out := list[J]{Items: make([]J, len(nodes))}
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Items[i], errs[i] = present(ctx, n)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	total, err := count(ctx)
	if err != nil {
		return out, err
	}
	out.Count = total
	if info.HasNextPage && info.EndCursor != nil {
		out.Next = &nextRef{Page: info.EndCursor.String()}
	}
	return out, nil
}

// RouteList returns every /v1 route as "METHOD /v1/path", sorted by path.
func RouteList() []string {
	var out []string
	_ = chi.Walk((&API{}).Routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out = append(out, method+" /v1"+strings.TrimSuffix(route, "/"))
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := strings.SplitN(out[i], " ", 2)[1], strings.SplitN(out[j], " ", 2)[1]
		if pi != pj {
			return pi < pj
		}
		return out[i] < out[j]
	})
	return out
}
