package graph

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/contentobject"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/store"
)

// objectBatch bounds the objects one statement writes, well under the bind
// parameter limits of SQLite and PostgreSQL.
const objectBatch = 500

// objectStore is the content store on the content_objects table. Objects are
// immutable and named by their hash, so the cache in front of it is right on
// every replica without invalidation.
type objectStore struct {
	r     *Resolver
	cache *content.Cache
}

// objects returns the content store. Its reads and writes go through the
// transaction in their context, if any.
func (r *Resolver) objects() *objectStore {
	return &objectStore{r: r, cache: r.objectCache}
}

// Get implements content.Store: the cached objects, and the others in one
// statement, however many: their hashes are one parameter (store.AnyOf), so a
// content's tree costs a statement per level whatever its width.
func (s *objectStore) Get(ctx context.Context, hashes []string) (map[string]content.Object, error) {
	out := make(map[string]content.Object, len(hashes))
	var missing []string
	for _, h := range hashes {
		if o, ok := s.cache.Get(h); ok {
			out[h] = o
		} else {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	rows, err := s.r.db(ctx).ContentObject.Query().Where(predicate.ContentObject(store.AnyOf(contentobject.FieldID, missing))).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading content objects: %w", err)
	}
	for _, row := range rows {
		o := content.Object{Hash: row.ID, Kind: row.Kind, Data: row.Data}
		out[row.ID] = o
		s.cache.Put(o)
	}
	return out, nil
}

// Put implements content.Store. Objects already stored are left as they are:
// equal hashes mean equal bytes.
func (s *objectStore) Put(ctx context.Context, objs []content.Object) error {
	for len(objs) > 0 {
		n := min(len(objs), objectBatch/5)
		builders := make([]*ent.ContentObjectCreate, n)
		for i, o := range objs[:n] {
			builders[i] = s.r.db(ctx).ContentObject.Create().
				SetID(o.Hash).SetKind(o.Kind).SetData(o.Data).SetSize(int64(len(o.Data)))
		}
		err := s.r.db(ctx).ContentObject.CreateBulk(builders...).
			OnConflictColumns(contentobject.FieldID).DoNothing().Exec(ctx)
		if err != nil {
			return fmt.Errorf("storing content objects: %w", err)
		}
		objs = objs[n:]
	}
	return nil
}
