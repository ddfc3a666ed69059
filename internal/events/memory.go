package events

import (
	"context"
	"sync"
)

// Buffer is how many events a subscriber may fall behind before its
// subscription is closed.
const Buffer = 256

// Memory is a bus inside one process: for SQLite, and one server.
type Memory struct {
	mu     sync.Mutex
	subs   map[string]map[*subscriber]struct{}
	closed bool
}

type subscriber struct {
	ch   chan Event
	once sync.Once
}

func (s *subscriber) close() { s.once.Do(func() { close(s.ch) }) }

// NewMemory returns an empty in-process bus.
func NewMemory() *Memory { return &Memory{subs: map[string]map[*subscriber]struct{}{}} }

// Publish delivers events to the topic's subscribers without waiting: a
// subscriber whose buffer is full is dropped.
func (m *Memory) Publish(_ context.Context, evs ...Event) error {
	m.Deliver(evs...)
	return nil
}

// Deliver hands events to this process's subscribers; Publish of a bus
// shared by servers calls it with what every server publishes.
func (m *Memory) Deliver(evs ...Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range evs {
		for s := range m.subs[e.Topic] {
			select {
			case s.ch <- e:
			default:
				m.remove(e.Topic, s)
				s.close()
			}
		}
	}
}

// Subscribe implements Bus.
func (m *Memory) Subscribe(ctx context.Context, topic string) (<-chan Event, error) {
	s := &subscriber{ch: make(chan Event, Buffer)}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		s.close()
		return s.ch, nil
	}
	if m.subs[topic] == nil {
		m.subs[topic] = map[*subscriber]struct{}{}
	}
	m.subs[topic][s] = struct{}{}
	m.mu.Unlock()
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		m.remove(topic, s)
		m.mu.Unlock()
		s.close()
	}()
	return s.ch, nil
}

// Subscribers returns the number of subscriptions of topic.
func (m *Memory) Subscribers(topic string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.subs[topic])
}

// Close ends every subscription, and any made after.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.endAll()
	return nil
}

// Closed reports whether the bus is closed.
func (m *Memory) Closed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Reset ends every subscription; later ones work.
func (m *Memory) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.endAll()
}

func (m *Memory) endAll() {
	for topic, subs := range m.subs {
		for s := range subs {
			s.close()
		}
		delete(m.subs, topic)
	}
}

func (m *Memory) remove(topic string, s *subscriber) {
	delete(m.subs[topic], s)
	if len(m.subs[topic]) == 0 {
		delete(m.subs, topic)
	}
}
