package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// PostGraphile runs outside this process, so its statements are counted on
// the wire: it connects through pgCounter, a TCP proxy to PostgreSQL that
// counts the statements clients send. A statement is a simple Query message
// ('Q': BEGIN and COMMIT are sent this way) or an Execute message ('E' of the
// extended protocol, which node-postgres uses for queries with parameters).
// The proxy adds a hop, so it serves only to count, never during a timed
// run.

// Protocol codes of the untyped messages that open a connection.
const (
	sslRequestCode = 80877103
	gssRequestCode = 80877104
)

// pgCounter is a counting proxy.
type pgCounter struct {
	ln         net.Listener
	upstream   string
	statements atomic.Int64
	wg         sync.WaitGroup
	mu         sync.Mutex
	conns      []net.Conn
}

// startPGCounter listens on a loopback port and proxies to upstream
// (host:port).
func startPGCounter(upstream string) (*pgCounter, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &pgCounter{ln: ln, upstream: upstream}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// addr is where clients connect.
func (p *pgCounter) addr() string { return p.ln.Addr().String() }

func (p *pgCounter) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.upstream)
		if err != nil {
			client.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, client, server)
		p.mu.Unlock()
		p.wg.Add(2)
		go func() {
			defer p.wg.Done()
			_ = copyCounting(server, client, &p.statements)
			server.Close()
		}()
		go func() {
			defer p.wg.Done()
			_, _ = io.Copy(client, server)
			client.Close()
		}()
	}
}

// close stops the proxy and its connections.
func (p *pgCounter) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// copyCounting copies a client's messages to the server, counting the
// statements among them into n.
func copyCounting(dst io.Writer, src io.Reader, n *atomic.Int64) error {
	r := bufio.NewReader(src)
	w := bufio.NewWriter(dst)
	// Flush whenever the client has nothing more buffered: it is waiting
	// for the server.
	forward := func(b []byte) error {
		if _, err := w.Write(b); err != nil {
			return err
		}
		if r.Buffered() == 0 {
			return w.Flush()
		}
		return nil
	}
	// The start-up phase: untyped messages, a length then a code. An SSL
	// or GSSAPI encryption request is answered with one byte and followed
	// by the real start-up message.
	for {
		msg, err := readMessage(r, 0)
		if err != nil {
			return ignoreEOF(err)
		}
		if err := forward(msg); err != nil {
			return err
		}
		if code := binary.BigEndian.Uint32(msg[4:8]); code != sslRequestCode && code != gssRequestCode {
			break
		}
	}
	for {
		t, err := r.ReadByte()
		if err != nil {
			return ignoreEOF(err)
		}
		msg, err := readMessage(r, t)
		if err != nil {
			return err
		}
		if t == 'Q' || t == 'E' {
			n.Add(1)
		}
		if err := forward(msg); err != nil {
			return err
		}
	}
}

// readMessage reads a message's length and body, and returns the whole
// message as sent: its type byte t (when not 0), length and body.
func readMessage(r *bufio.Reader, t byte) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	length := binary.BigEndian.Uint32(head[:])
	if length < 4 || length > 1<<30 || (t == 0 && length < 8) {
		return nil, fmt.Errorf("malformed PostgreSQL message of length %d", length)
	}
	var msg []byte
	if t != 0 {
		msg = append(msg, t)
	}
	msg = append(msg, head[:]...)
	msg = append(msg, make([]byte, length-4)...)
	if _, err := io.ReadFull(r, msg[len(msg)-int(length-4):]); err != nil {
		return nil, err
	}
	return msg, nil
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
