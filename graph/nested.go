package graph

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// A list nested in the items of a listed page, such as the change requests
// of each space of an organization's page of spaces, would cost a query per
// item: the field resolves once per item, and nothing batches pages. So the
// page of items pages the nested list of all its items at once, in one
// statement per set of arguments the query gives the nested field (see
// page.PaginateEach), and keeps the connections in nestedPages; the field's
// resolver takes its item's connection from there, and pages alone only
// what was not primed (a window after or before a cursor, or arguments that
// could not be read ahead of the resolver).

// nestedPages holds, for one request, the primed connections of nested
// lists, by list, parent and arguments.
type nestedPages struct {
	mu    sync.Mutex
	pages map[nestedKey]any
}

// nestedKey names a primed connection: the list ("Space.changeRequests"),
// the parent's ID and the canonical form of the list's arguments.
type nestedKey struct{ list, parent, args string }

// newNestedPages returns an empty cache whose clearing l.clear runs.
func newNestedPages(l *loaders) *nestedPages {
	n := &nestedPages{pages: map[nestedKey]any{}}
	l.clears = append(l.clears, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		n.pages = map[nestedKey]any{}
	})
	return n
}

func (n *nestedPages) put(k nestedKey, conn any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pages[k] = conn
}

// primed returns the connection primed under k, if any.
func primed[T any](n *nestedPages, k nestedKey) (*page.Connection[T], bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	conn, ok := n.pages[k].(*page.Connection[T])
	return conn, ok
}

// spaceChangeRequests is the list of Space.changeRequests in nestedPages.
const spaceChangeRequests = "Space.changeRequests"

// crListArgs are the arguments of Space.changeRequests that a primed page
// can have: no cursor.
type crListArgs struct {
	First       *int
	Last        *int
	Status      *enum.ChangeRequestStatus
	Contributor *string
}

// key is the canonical form of the arguments: each is "-" when absent, and
// the contributor, whatever it holds, comes last. It is made for every
// listed space, so it is built without reflection.
func (a crListArgs) key() string {
	b := make([]byte, 0, 32)
	for _, n := range []*int{a.First, a.Last} {
		if n == nil {
			b = append(b, '-')
		} else {
			b = strconv.AppendInt(b, int64(*n), 10)
		}
		b = append(b, '|')
	}
	for _, v := range []*string{(*string)(a.Status), a.Contributor} {
		if v == nil {
			b = append(b, '-', '|')
		} else {
			b = append(append(append(b, '"'), *v...), '"', '|')
		}
	}
	return string(b)
}

// changeRequestList is the query of a list of change requests with its
// filters, before it is restricted to a space.
func (r *Resolver) changeRequestList(ctx context.Context, status *enum.ChangeRequestStatus, contributor *string) *ent.ChangeRequestQuery {
	q := r.db(ctx).ChangeRequest.Query()
	if status != nil {
		q.Where(changerequest.StatusEQ(*status))
	}
	if contributor != nil {
		q.Where(changerequest.HasContributorsWith(user.ID(*contributor)))
	}
	return q
}

// primedChangeRequests returns the change requests of a space that the
// request's page of spaces primed for these arguments, if it did.
func primedChangeRequests(ctx context.Context, spaceID string, status *enum.ChangeRequestStatus,
	contributor *string, a page.Args) (*page.Connection[*ent.ChangeRequest], bool) {
	if a.After != nil || a.Before != nil {
		return nil, false
	}
	key := crListArgs{First: a.First, Last: a.Last, Status: status, Contributor: contributor}.key()
	return primed[*ent.ChangeRequest](loadersFrom(ctx).nested, nestedKey{spaceChangeRequests, spaceID, key})
}

// primeSpaceChangeRequests pages the change requests of every space of a
// listed page, for each set of arguments with which the page's items select
// changeRequests, and primes what their items show (see
// primeChangeRequests) for all of them at once. A selection whose arguments
// cannot be paged together (a cursor, an invalid limit) is left to the
// field's resolver, which pages, or reports the error, per space.
//
// The spaces are those of a page the viewer may list, and a space's change
// requests are visible with it, as for the per-space list: the read is
// scoped by its parents (within).
func (r *Resolver) primeSpaceChangeRequests(ctx context.Context, spaces []*ent.Space) error {
	fields, ok := itemFields(ctx, "SpaceConnection", "SpaceEdge", "Space")
	if !ok {
		return nil
	}
	oc := graphql.GetOperationContext(ctx)
	var selected []graphql.CollectedField
	sets := map[string]crListArgs{}
	for _, f := range fields {
		if f.Name != "changeRequests" {
			continue
		}
		selected = append(selected, f)
		if a, ok := readCRListArgs(f.ArgumentMap(oc.Variables)); ok {
			sets[a.key()] = a
		}
	}
	if len(sets) == 0 {
		return nil
	}
	ids := make([]string, len(spaces))
	for i, s := range spaces {
		ids[i] = s.ID
	}
	items := withSelections(ctx, "Space", selected)
	cols := changeRequestColumns(itemSelection(items, "ChangeRequestConnection", "ChangeRequestEdge", "ChangeRequest"))
	l := loadersFrom(ctx)
	crLoader := r.changeRequests.loader(ctx)
	var nodes []*ent.ChangeRequest
	// A change request is in more than one page only when the pages have
	// different arguments.
	var seen map[string]bool
	if len(sets) > 1 {
		seen = map[string]bool{}
	}
	for key, a := range sets {
		q := r.changeRequestList(ctx, a.Status, a.Contributor)
		conns, err := page.PaginateEach(within(ctx), q, changeRequestsByNumber, page.Args{First: a.First, Last: a.Last, Fields: cols},
			page.Each[*ent.ChangeRequest]{
				Column: changerequest.FieldSpaceID, Parents: ids,
				Parent:  func(cr *ent.ChangeRequest) string { return cr.SpaceID },
				Grouped: func(m func(*sql.Selector)) page.Scanner { return q.Clone().Modify(m) },
			})
		if errors.Is(err, page.ErrNotBatchable) || apperr.KindOf(err) == apperr.InvalidArgument {
			continue
		}
		if err != nil {
			return err
		}
		for spaceID, conn := range conns {
			l.nested.put(nestedKey{spaceChangeRequests, spaceID, key}, conn)
			for _, e := range conn.Edges {
				cr := e.Node
				if seen != nil {
					if seen[cr.ID] {
						continue
					}
					seen[cr.ID] = true
				}
				if cols == nil {
					crLoader.Prime(ctx, cr.ID, cr)
				}
				nodes = append(nodes, cr)
			}
		}
	}
	return r.primeChangeRequests(items, nodes)
}

// withSelections returns ctx inside a field made of the selections of
// fields, such as every selection of a nested connection across the items
// of a page: what priming reads to know what the items select (see
// itemSelection).
func withSelections(ctx context.Context, object string, fields []graphql.CollectedField) context.Context {
	var sels ast.SelectionSet
	for _, f := range fields {
		sels = append(sels, f.Selections...)
	}
	return graphql.WithFieldContext(ctx, &graphql.FieldContext{
		Object: object, Field: graphql.CollectedField{Field: fields[0].Field, Selections: sels},
	})
}

// readCRListArgs reads the arguments of a selection of Space.changeRequests
// as GraphQL gives them: literals, variables, defaults. ok is false when
// the selection cannot be primed: it starts at a cursor, or an argument is
// not what the schema's validation lets through. The resolver receives the
// same arguments typed, and finds the primed page under the same key.
func readCRListArgs(raw map[string]any) (crListArgs, bool) {
	var a crListArgs
	if raw["after"] != nil || raw["before"] != nil {
		return a, false
	}
	var ok bool
	if a.First, ok = rawInt(raw["first"]); !ok {
		return a, false
	}
	if a.Last, ok = rawInt(raw["last"]); !ok {
		return a, false
	}
	if v := raw["status"]; v != nil {
		var s enum.ChangeRequestStatus
		if s.UnmarshalGQL(v) != nil {
			return a, false
		}
		a.Status = &s
	}
	if v := raw["contributorId"]; v != nil {
		s, ok := v.(string)
		if !ok {
			return a, false
		}
		a.Contributor = &s
	}
	return a, true
}

// rawInt reads an Int argument: an int64 literal, or a variable's JSON
// number. A missing or null argument is nil.
func rawInt(v any) (*int, bool) {
	var n int64
	switch x := v.(type) {
	case nil:
		return nil, true
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
			return nil, false
		}
		n = int64(x)
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			return nil, false
		}
		n = i
	default:
		return nil, false
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return nil, false
	}
	i := int(n)
	return &i, true
}

// itemFields returns the fields that a GraphQL connection's items select,
// through nodes or edges, one per selection (aliases apart); ok is false
// outside GraphQL (in /v1), where items are presented whole.
func itemFields(ctx context.Context, connection, edge, item string) (fields []graphql.CollectedField, ok bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return nil, false
	}
	oc := graphql.GetOperationContext(ctx)
	var items []graphql.CollectedField
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, []string{connection}) {
		switch f.Name {
		case "nodes":
			items = append(items, f)
		case "edges":
			for _, e := range graphql.CollectFields(oc, f.Selections, []string{edge}) {
				if e.Name == "node" {
					items = append(items, e)
				}
			}
		}
	}
	for _, it := range items {
		fields = append(fields, graphql.CollectFields(oc, it.Selections, []string{item})...)
	}
	return fields, true
}
