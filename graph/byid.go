package graph

import (
	"context"
	"strconv"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/store"
)

// byID reads rows of a type by their IDs through a statement built once per
// shape (store.Statements): the resource loaders' reads, which every
// request makes. query runs the ent query that reads them, with params in
// place of its arguments: the IDs, padded to a power of two so that an IN
// list takes few shapes, then one param per extra argument, which follow
// the IDs in a run. key names the query and every choice that changes its
// SQL besides the arguments.
func byID[T any](ctx context.Context, r *Resolver, db *ent.Client, key string, ids []string,
	query func(ctx context.Context, c *ent.Client, ids, extra []string) error,
	scan func(*sql.Rows) ([]T, error), extra ...any) ([]T, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	padded := store.PadIDs(ids)
	params := store.Params(len(padded) + len(extra))
	args := make([]any, 0, len(params))
	for _, id := range padded {
		args = append(args, id)
	}
	args = append(args, extra...)
	rows, err := r.statements.Query(ctx, db.Driver(), key+" "+strconv.Itoa(len(padded)),
		store.Query(func(ctx context.Context, c *ent.Client) error {
			return query(ctx, c, params[:len(padded)], params[len(padded):])
		}), args...)
	if err != nil {
		return nil, err
	}
	return scan(rows)
}
