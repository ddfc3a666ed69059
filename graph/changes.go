package graph

import (
	"context"
	"time"

	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/commentreply"
	"github.com/bindery/bindery/ent/contentobject"
	"github.com/bindery/bindery/ent/invite"
	"github.com/bindery/bindery/ent/reaction"
	"github.com/bindery/bindery/ent/webhookdelivery"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/lru"
	"github.com/bindery/bindery/internal/store"
)

// A server keeps answers across requests only while it knows that nothing
// they show has changed. Every write that commits through the database's
// clients counts (store.Writes), and so does every write another server on
// the database announces on the bus; the count is the generation. An
// answer kept at one generation is good at the same generation, and at no
// other. When the bus cannot promise to carry the other servers' writes
// (its connection is down, or was, and notifications were lost) no
// generation is good, and neither is any without a count of writes.

// changesTopic carries the writes of every server: one event per
// committed transaction, whose subject is the server that wrote (its
// Resolver's origin). A server hears its own events too, and skips them:
// it counted those writes as they committed, and counting one again when
// it comes back would make every answer kept just after a write go stale.
const changesTopic = "changes"

// quietTables are the tables whose rows no published page, lookup or site
// decision reads: activity around the content (comments, reactions),
// webhook bookkeeping, and content objects, which are addressed by their
// hash and shown only once a revision names them; and the search index,
// which only searches read, and no search is kept.
var quietTables = []string{comment.Table, commentreply.Table, reaction.Table,
	webhookdelivery.Table, webhookendpoint.Table, invite.Table, contentobject.Table, "search_pages"}

// quietButDeletes are the tables of credentials: a token made, or its use
// recorded, changes nothing kept, but a token or session revoked ends what
// is kept of it (see Authenticate).
var quietButDeletes = []string{apitoken.Table}

// WithWrites makes the resolver keep answers while w stands still (see
// Generation), and announce w's writes to the other servers.
func WithWrites(w *store.Writes) Option { return func(r *Resolver) { r.writes = w } }

// Generation names what a server knows of the database's writes; the
// zero value is no generation.
type Generation struct {
	writes, epoch uint64
}

// continuity is a bus that may lose events: its epoch changes whenever it
// may have, and ok is false while it may be losing them.
type continuity interface {
	Epoch() (epoch uint64, ok bool)
}

// Generation returns the server's generation, and false when answers may
// not be kept (see above).
func (r *Resolver) Generation() (Generation, bool) {
	if r.writes == nil {
		return Generation{}, false
	}
	// The epoch is read first: a write counted after it can only make the
	// generation newer.
	var g Generation
	if c, ok := r.bus.(continuity); ok {
		var up bool
		if g.epoch, up = c.Epoch(); !up {
			return Generation{}, false
		}
	}
	g.writes = r.writes.Count()
	return g, true
}

// announceWrites tells the other servers of this one's writes.
func (r *Resolver) announceWrites() {
	r.writes.Quiet(quietTables...)
	r.writes.QuietButDeletes(quietButDeletes...)
	r.writes.Announce(func(ctx context.Context) {
		r.publish(ctx, []events.Event{events.New(changesTopic, "", r.origin)})
	})
}

// followWrites counts the writes the other servers announce, until the bus
// closes. A
// subscription that ends may have missed some: that counts as a write.
func (r *Resolver) followWrites() {
	for {
		ch, err := r.bus.Subscribe(context.Background(), changesTopic)
		if err != nil {
			r.log.Error("following the other servers' writes", "error", err)
			return
		}
		for e := range ch {
			if e.Subject != r.origin {
				r.writes.Add()
			}
		}
		r.writes.Add()
		if c, ok := r.bus.(interface{ Closed() bool }); ok && c.Closed() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// memo keeps values read from the database for as long as the generation
// they were read at lasts: for what every request of a kind reads first,
// such as which site a hostname names.
type memo[V any] struct {
	c *lru.Cache[memoized[V]]
}

type memoized[V any] struct {
	gen Generation
	v   V
}

func newMemo[V any](entries int) memo[V] {
	return memo[V]{c: lru.New[memoized[V]](entries, 1)}
}

// get returns the value of key, read by load when the one kept is of
// another generation. A transaction reads for itself: it may have written
// what was kept.
func (m memo[V]) get(ctx context.Context, r *Resolver, key string, load func() (V, error)) (V, error) {
	gen, ok := r.Generation()
	if _, inTx := ctx.Value(pendingKey{}).(*pending); inTx {
		ok = false
	}
	if ok {
		if e, hit := m.c.Get(key); hit && e.gen == gen {
			return e.v, nil
		}
	}
	v, err := load()
	if err == nil && ok {
		m.c.Replace(key, memoized[V]{gen: gen, v: v}, 1)
	}
	return v, err
}
