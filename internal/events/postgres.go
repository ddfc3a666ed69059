package events

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/lib/pq"
)

// maxPayload is the largest NOTIFY payload PostgreSQL takes, less room for
// safety: events carry IDs, far below it.
const maxPayload = 7900

// Postgres is a bus shared by every server on one PostgreSQL database:
// Publish sends each event with NOTIFY, and every server LISTENs and hands
// what arrives to its own subscribers. NOTIFY reaches the servers connected
// at the time; a server that reconnects after a break closes its
// subscriptions, whose clients then know they may have missed events.
type Postgres struct {
	exec     Execer
	channel  string
	listener *pq.Listener
	local    *Memory
	log      *slog.Logger
	done     chan struct{}
	// epoch changes when the listener's connection is lost and when it is
	// back; down is set while it is lost. A subscriber that keeps what it
	// learned from events (see Epoch) must forget it then.
	epoch  atomic.Uint64
	down   atomic.Bool
	closed atomic.Bool
}

// Channel returns the NOTIFY channel of a schema: servers on one schema
// share it, and databases in other schemas of the server (tests) do not
// hear them.
func Channel(schema string) string {
	sum := sha256.Sum256([]byte(schema))
	return "bindery_events_" + hex.EncodeToString(sum[:8])
}

// Execer runs a statement, as ent's dialect.Driver does: Publish sends
// its NOTIFYs through the application's driver, so that each is traced
// (a span of the request that published it) and counted like any other
// statement.
type Execer interface {
	Exec(ctx context.Context, query string, args, v any) error
}

// NewPostgres listens on the database of dsn, whose schema's channel it
// finds through db, and publishes through exec.
func NewPostgres(ctx context.Context, dsn string, db *sql.DB, exec Execer, log *slog.Logger) (*Postgres, error) {
	var schema string
	if err := db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		return nil, fmt.Errorf("finding the schema of the event channel: %w", err)
	}
	p := &Postgres{exec: exec, channel: Channel(schema), local: NewMemory(), log: log, done: make(chan struct{})}
	p.listener = pq.NewListener(dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		if err != nil {
			log.Warn("event listener", "event", int(ev), "error", err)
		}
		if ev == pq.ListenerEventDisconnected {
			p.down.Store(true)
			p.epoch.Add(1)
		}
	})
	if err := p.listener.Listen(p.channel); err != nil {
		p.listener.Close()
		return nil, fmt.Errorf("listening for events: %w", err)
	}
	go p.receive()
	return p, nil
}

// receive hands the notifications to this server's subscribers.
func (p *Postgres) receive() {
	defer close(p.done)
	for n := range p.listener.Notify {
		if n == nil {
			// The connection was lost and is back: what was sent in between
			// is gone, so the subscriptions end rather than miss it.
			p.log.Warn("event listener reconnected: ending subscriptions that may have missed events")
			p.local.Reset()
			p.epoch.Add(1)
			p.down.Store(false)
			continue
		}
		var e Event
		if err := json.Unmarshal([]byte(n.Extra), &e); err != nil {
			p.log.Error("an event that is not one", "error", err)
			continue
		}
		p.local.Deliver(e)
	}
}

// Publish implements Bus: one NOTIFY per event, in order.
func (p *Postgres) Publish(ctx context.Context, evs ...Event) error {
	for _, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if len(data) > maxPayload {
			return fmt.Errorf("event %s is %d bytes, over the %d a notification carries", e.ID, len(data), maxPayload)
		}
		if err := p.exec.Exec(ctx, "SELECT pg_notify($1, $2)", []any{p.channel, string(data)}, nil); err != nil {
			return fmt.Errorf("publishing event %s: %w", e.ID, err)
		}
	}
	return nil
}

// Subscribe implements Bus.
func (p *Postgres) Subscribe(ctx context.Context, topic string) (<-chan Event, error) {
	return p.local.Subscribe(ctx, topic)
}

// Subscribers returns the number of this server's subscriptions of topic.
func (p *Postgres) Subscribers(topic string) int { return p.local.Subscribers(topic) }

// Epoch returns a number that changes whenever notifications may have
// been lost, and false while they may be being lost: between losing the
// connection and having it back.
func (p *Postgres) Epoch() (uint64, bool) {
	return p.epoch.Load(), !p.down.Load()
}

// Closed reports whether the bus is closed.
func (p *Postgres) Closed() bool { return p.closed.Load() }

// Close stops listening and ends every subscription.
func (p *Postgres) Close() error {
	p.closed.Store(true)
	err := p.listener.Close()
	<-p.done
	_ = p.local.Close()
	return err
}
