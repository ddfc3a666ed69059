package rest

import (
	"context"
	"fmt"
	"net/http"
	"reflect"

	"github.com/bindery/bindery/graph/generated"
	"github.com/bindery/bindery/internal/page"
)

// The generic adapters that serve the rows of the route table. A row gives
// an adapter the parts that differ between operations, each a plain
// function: how the request becomes the resolver's input, the resolver
// call, and the presenter. The adapter does the rest, the same way for
// every row: decoding, the order of checks, errors, the status.

// adapter makes the handler of a row, which answers status on success, and
// tells what the row's body takes.
type adapter struct {
	handler func(a *API, status int) handlerFunc
	// body decodes the row's request body; nil for a row without one.
	body *bodyDecoder
}

// mutation is the application layer's mutations. Rows name them as method
// expressions, mutation.UpdateSpace, so that a row says which one it calls
// and the compiler checks that the input fits.
type mutation = generated.MutationResolver

// presenter shapes a value of the application layer as /v1 JSON. The
// presenters are methods of API, named in rows as (*API).presentSpace.
type presenter[E, J any] = func(a *API, ctx context.Context, e E) (J, error)

// get serves a read of one resource: load resolves it from the request.
func get[E, J any](load func(params) (E, error), present presenter[E, J]) adapter {
	return adapter{handler: func(a *API, status int) handlerFunc {
		return func(r *http.Request) (response, error) {
			p := params{a: a, r: r}
			e, err := load(p)
			if err != nil {
				return response{}, err
			}
			j, err := present(a, p.ctx(), e)
			return response{status: status, body: j}, err
		}
	}}
}

// connection is a page of a list as the application layer returns it.
type connection[N any] interface {
	Nodes() []N
	Info() page.Info
	TotalCount(ctx context.Context) (int, error)
}

// list serves a list: fetch resolves the page that the request's page and
// limit select.
func list[C connection[N], N, J any](fetch func(params, page.Args) (C, error), present presenter[N, J]) adapter {
	return adapter{handler: func(a *API, status int) handlerFunc {
		return func(r *http.Request) (response, error) {
			p := params{a: a, r: r}
			args, err := p.page()
			if err != nil {
				return response{}, err
			}
			c, err := fetch(p, args)
			if err != nil {
				return response{}, err
			}
			l, err := presentList(p.ctx(), c.Nodes(), c.Info(), c.TotalCount,
				func(ctx context.Context, n N) (J, error) { return present(a, ctx, n) })
			return response{status: status, body: l}, err
		}
	}}
}

// mutate serves a create, an update or an action. It decodes the body into
// B, applying B's rest tags; input makes the mutation's input from the body
// and the path; call runs the mutation; present shows the payload's member
// of type E, or the payload itself when E is the payload's type. A 201
// carries the presented object's address as its Location.
func mutate[B, In, P, E, J any](input func(*B, params) (In, error), call func(mutation, context.Context, In) (P, error),
	present presenter[E, J]) adapter {
	return mutating(input, call, nil, present)
}

// mutating is mutate and upsert: created, when set, tells from the payload
// that the mutation created the resource, which answers 201 Created with
// its Location whatever the row's status.
func mutating[B, In, P, E, J any](input func(*B, params) (In, error), call func(mutation, context.Context, In) (P, error),
	created func(P) bool, present presenter[E, J]) adapter {
	body := decoderFor[B]()
	result := resultOf[P, E]()
	var locateCreated func(J) string
	if created != nil {
		locateCreated = locatorOf[J](http.StatusCreated)
	}
	return adapter{body: &body, handler: func(a *API, status int) handlerFunc {
		locate := locatorOf[J](status)
		return func(r *http.Request) (response, error) {
			p := params{a: a, r: r}
			var b B
			if err := body.decode(r, &b); err != nil {
				return response{}, err
			}
			in, err := input(&b, p)
			if err != nil {
				return response{}, err
			}
			out, err := call(a.r.Mutation(), p.ctx(), in)
			if err != nil {
				if m, ok := any(&b).(inputMembers); ok {
					err = renameField(err, m.inputMembers())
				}
				return response{}, err
			}
			j, err := present(a, p.ctx(), result(out))
			if err != nil {
				return response{}, err
			}
			if created != nil && created(out) {
				return response{status: http.StatusCreated, body: j, location: locateCreated(j)}, nil
			}
			return response{status: status, body: j, location: locate(j)}, nil
		}
	}}
}

// inputMembers is a body whose members have other names than the
// mutation input's fields they fill: inputMembers maps each such field to
// its member, so that an error about the field names the member the
// client sent.
type inputMembers interface {
	inputMembers() map[string]string
}

// remove serves a delete, which takes no body and answers none.
func remove[In, P any](input func(params) (In, error), call func(mutation, context.Context, In) (P, error)) adapter {
	return adapter{handler: func(a *API, status int) handlerFunc {
		return func(r *http.Request) (response, error) {
			p := params{a: a, r: r}
			in, err := input(p)
			if err != nil {
				return response{}, err
			}
			_, err = call(a.r.Mutation(), p.ctx(), in)
			return response{status: status}, err
		}
	}}
}

// noBody is the body of an operation that takes none: any member is
// unknown.
type noBody struct{}

// fromPath makes an input from the path alone, for an operation without a
// body.
func fromPath[In any](input func(params) (In, error)) func(*noBody, params) (In, error) {
	return func(_ *noBody, p params) (In, error) { return input(p) }
}

// located is a presented object with a /v1 address, which a 201 answers as
// its Location.
type located interface {
	location() string
}

// locatorOf returns how a row that answers status finds its Location. It
// panics when a 201 presents an object without an address, when the table
// is built.
func locatorOf[J any](status int) func(J) string {
	if status != http.StatusCreated {
		return func(J) string { return "" }
	}
	if _, ok := any(*new(J)).(located); !ok {
		panic(fmt.Sprintf("rest: a row answers 201 with %s, which has no location", reflect.TypeFor[J]()))
	}
	return func(j J) string { return any(j).(located).location() }
}

// resultOf returns how to take the presented object of type E from a
// mutation's payload P: P itself, or P's one member of type E. Payloads are
// generated structs that a type parameter cannot look into, so the member is
// found once, when the table is built, which panics if there is not exactly
// one.
func resultOf[P, E any]() func(P) E {
	pt, et := reflect.TypeFor[P](), reflect.TypeFor[E]()
	if pt == et {
		return func(p P) E { return any(p).(E) }
	}
	var index []int
	found := 0
	if pt.Kind() == reflect.Pointer && pt.Elem().Kind() == reflect.Struct {
		for _, f := range reflect.VisibleFields(pt.Elem()) {
			if f.Type == et {
				index = f.Index
				found++
			}
		}
	}
	if found != 1 {
		panic(fmt.Sprintf("rest: payload %s has not exactly one member of type %s", pt, et))
	}
	return func(p P) E { return reflect.ValueOf(p).Elem().FieldByIndex(index).Interface().(E) }
}

// upsert serves a PUT that creates or updates: like mutate, but created
// tells from the payload whether the resource is new, which answers 201
// Created with its Location; an update answers the row's status.
func upsert[B, In, P, E, J any](input func(*B, params) (In, error), call func(mutation, context.Context, In) (P, error),
	created func(P) bool, present presenter[E, J]) adapter {
	return mutating(input, call, created, present)
}

// presentNothing answers an operation whose success has no body (a 204),
// whatever its resolver returns.
func presentNothing[E any](*API, context.Context, E) (any, error) { return nil, nil }
